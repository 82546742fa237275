package evaluate

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/repaudit/repaudit/internal/fixtures"
	"github.com/repaudit/repaudit/robots"
)

// robotsBody returns a distinct robots.txt of about n rules.
func robotsBody(v, n int) string {
	var sb strings.Builder
	sb.WriteString("# version " + strconv.Itoa(v) + "\nUser-agent: GPTBot\nUser-agent: CCBot\nCrawl-delay: " + strconv.Itoa(v%7) + "\n")
	for i := range n {
		switch (i + v) % 3 {
		case 0:
			sb.WriteString("Disallow: /d" + strconv.Itoa((i*7+v)%40) + "/\n")
		case 1:
			sb.WriteString("Allow: /d" + strconv.Itoa((i*3+v)%40) + "/ok\n")
		default:
			sb.WriteString("Disallow: /*.p" + strconv.Itoa(i%5) + "$\n")
		}
	}
	sb.WriteString("\nUser-agent: *\nDisallow: /private/\nFrobnicate: x\n")
	return sb.String()
}

// storeScenario has many distinct robots.txt versions, revisited
// contents, and fetches judged against each of them.
func storeScenario(t *testing.T, opts Options) *scenario {
	s := newScenario(t)
	s.opts = opts
	s.opts.AsOf = days(40)
	for v := range 30 {
		body := robotsBody(v%20, 60) // versions 20..29 repeat 0..9, not consecutively
		s.robots(site+"/robots.txt", days(float64(v)), 200, body)
		s.robots("https://other.example/robots.txt", days(float64(v)+0.5), 200, robotsBody(v, 10))
		for i := range 6 {
			ua := []string{uaGPTBot, uaCCBot, uaGooglebot}[i%3]
			at := days(float64(v) + 0.1 + float64(i)/10)
			if i == 0 {
				s.fetch(ua, site+"/robots.txt", at, 200)
			}
			s.fetch(ua, site+"/d"+strconv.Itoa((v*i)%40)+"/"+[]string{"ok", "x.p1", "y"}[i%3], at, 200)
			s.fetch(ua, "https://other.example/d"+strconv.Itoa(i)+"/ok", at, 200)
		}
	}
	return s
}

// A cache too small for one parsed file, with every body spilled, gives
// exactly the tables of the unbounded run: parsing is deterministic and no
// judgement depends on what the cache holds.
func TestRobotsStoreBoundedSameOutput(t *testing.T) {
	ref := storeScenario(t, Options{})
	ref.run()
	if len(ref.out.Violations) == 0 || len(ref.out.RobotsRules) == 0 {
		t.Fatal("scenario produced no findings or rules")
	}
	dir := t.TempDir()
	got := storeScenario(t, Options{RobotsCacheBytes: 1, SpillDir: dir})
	got.run()
	st := got.model.robots
	if n := len(st.byDigest); n != 50 {
		t.Errorf("distinct contents: got %d, want 50 (one per digest)", n)
	}
	if st.spillEnd == 0 || st.inMem != 0 {
		t.Errorf("spilled %d bytes, kept %d in memory: want every body spilled", st.spillEnd, st.inMem)
	}
	if p := st.parses.Load(); p <= 50 {
		t.Errorf("parses: got %d, want more than the 50 contents (the cache must have been rebuilt)", p)
	}
	if len(st.ring) != 1 {
		t.Errorf("cached files: got %d, want 1 with a budget of 1 byte", len(st.ring))
	}
	if !reflect.DeepEqual(got.out, ref.out) {
		t.Fatal("tables with a 1-byte cache and spilled bodies differ from the unbounded run")
	}
	if err := got.model.Close(); err != nil {
		t.Fatal(err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("spill directory not empty after Close: %v", es)
	}
	if err := got.model.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// Concurrent judging through a cache that evicts on every miss.
func TestRobotsStoreConcurrent(t *testing.T) {
	s := storeScenario(t, Options{RobotsCacheBytes: 1, SpillDir: t.TempDir()})
	s.run()
	defer s.model.Close()
	want := make([]Judgement, len(s.fetches))
	for i, f := range s.fetches {
		want[i] = s.model.Judge(f) // without the tracker's crawl-delay findings
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := range 4 {
		wg.Go(func() {
			for k := range s.fetches {
				i := (k + g*37) % len(s.fetches)
				j := s.model.Judge(s.fetches[i])
				if !reflect.DeepEqual(j.Fetch, want[i].Fetch) || !reflect.DeepEqual(j.Violations, want[i].Violations) {
					errs <- s.fetches[i].Target
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent judgement differs: %s", e)
	}
}

// parsedCost stays within a factor of two of what a parsed file really
// holds, so that the cache budget means what it says.
func TestParsedCostEstimate(t *testing.T) {
	for _, n := range []int{50, 5000, 30000} {
		body := []byte(robotsBody(1, n))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f := robots.Parse(body, robots.Options{})
		runtime.GC()
		runtime.ReadMemStats(&after)
		live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		est := parsedCost(f)
		runtime.KeepAlive(f)
		t.Logf("%d rules, %d bytes: live %d, estimate %d", n, len(body), live, est)
		if n >= 5000 && (est < live/2 || est > live*2) {
			t.Errorf("%d rules: estimate %d, live %d: off by more than a factor of two", n, est, live)
		}
	}
}

// A file parsed again from a spilled body is the file parsed at first:
// every line, group, rule (with its line number and evidence text),
// diagnostic and ACAP record, on Google's robots.txt spec-test files
// (shared/fixtures/robotstxt-spec-test) and the demo's inputs taken as
// robots.txt bodies.
func TestRobotsStoreReparseIdentical(t *testing.T) {
	var bodies [][]byte
	for _, root := range []string{fixtures.Path(t, "robotstxt-spec-test"), "../testdata/demo"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err == nil && len(b) < 1<<20 {
				bodies = append(bodies, b)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(bodies) < 20 {
		t.Fatalf("only %d test files found", len(bodies))
	}
	st := newRobotsStore(Options{RobotsCacheBytes: 1, SpillDir: t.TempDir()})
	defer st.close()
	var cs []*robotsContent
	for _, b := range bodies {
		h := sha256.Sum256(b)
		cs = append(cs, st.add(hex.EncodeToString(h[:]), b))
	}
	for i, c := range cs {
		want := robots.Parse(bodies[i], robots.Options{})
		got := c.file()
		if !reflect.DeepEqual(got.Lines, want.Lines) || !reflect.DeepEqual(got.Groups, want.Groups) ||
			!reflect.DeepEqual(got.Diagnostics, want.Diagnostics) || !reflect.DeepEqual(got.Sitemaps, want.Sitemaps) ||
			!reflect.DeepEqual(got.ACAP, want.ACAP) || got.Truncated != want.Truncated || got.Size != want.Size {
			t.Fatalf("file %d parsed again differs from its first parse", i)
		}
		if c.stats != statsOf(want) || !reflect.DeepEqual(c.tokens, tokensOf(want)) {
			t.Errorf("file %d: stored counts or tokens differ from the parse", i)
		}
		for _, g := range want.Groups {
			for _, r := range g.Rules {
				if len(g.Agents) == 0 || r.Pattern == "" {
					continue
				}
				wv, gv := want.Check(g.Agents[0].Token, r.Pattern), got.Check(g.Agents[0].Token, r.Pattern)
				if wv.Allowed != gv.Allowed || (wv.Rule == nil) != (gv.Rule == nil) ||
					wv.Rule != nil && (wv.Rule.Line != gv.Rule.Line || wv.Rule.String() != gv.Rule.String()) {
					t.Errorf("file %d: %q for %q: got %+v, want %+v", i, r.Pattern, g.Agents[0].Token, gv, wv)
				}
			}
		}
	}
	if st.parses.Load() <= int64(len(st.byDigest)) {
		t.Errorf("no file was parsed again (%d parses, %d contents)", st.parses.Load(), len(st.byDigest))
	}
}

// A spill directory that cannot be written keeps bodies in memory: more
// memory, the same tables, no error. A spill file that cannot be read
// back is an error Close reports.
func TestRobotsStoreSpillFailures(t *testing.T) {
	ref := storeScenario(t, Options{})
	ref.run()
	got := storeScenario(t, Options{RobotsCacheBytes: 1, SpillDir: filepath.Join(t.TempDir(), "missing")})
	got.run()
	st := got.model.robots
	if !st.noSpill || st.spillEnd != 0 || st.inMem == 0 {
		t.Errorf("noSpill %v, spilled %d, in memory %d: want every body in memory", st.noSpill, st.spillEnd, st.inMem)
	}
	if !reflect.DeepEqual(got.out, ref.out) {
		t.Error("tables differ when the spill directory is missing")
	}
	if err := got.model.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}

	s := newRobotsStore(Options{RobotsCacheBytes: 1, SpillDir: t.TempDir()})
	body := []byte(robotsBody(1, 50))
	c := s.add("a", body)
	s.add("b", []byte(robotsBody(2, 50))) // evicts "a"
	if c.body != nil || c.parsed.Load() != nil {
		t.Fatal("want a spilled and evicted")
	}
	s.spill.Close() // the spill file is gone from under the store
	if f := c.file(); f == nil || len(f.Groups) != 0 {
		t.Errorf("unreadable body: want an empty file, got %v", f)
	}
	if err := s.close(); err == nil || !strings.Contains(err.Error(), "spill file: read") {
		t.Errorf("close: got %v, want the read error", err)
	}
}

// FuzzRobotsStore stores arbitrary bodies with a cache too small to hold
// one and every body spilled: each file parsed again from the spill file
// must equal a direct parse, and the stored counts must match it.
func FuzzRobotsStore(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /a\n"), []byte("\xef\xbb\xbfUser-agent: x\nAllow: /*$\nCrawl-delay: 2\n"))
	f.Add([]byte("\xff\xfeU\x00:\x00"), []byte(""))
	f.Add([]byte("ACAP-crawler: *\nACAP-disallow-crawl: /\n"), []byte("Sitemap: x\r\nuser agent bot\rdisalow /p"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, a, b []byte) {
		s := newRobotsStore(Options{RobotsCacheBytes: 1, SpillDir: dir, RobotsMaxBytes: 64})
		defer s.close()
		bodies := [][]byte{a, b, a}
		var cs []*robotsContent
		for _, body := range bodies {
			h := sha256.Sum256(body)
			cs = append(cs, s.add(hex.EncodeToString(h[:]), body))
		}
		if cs[0] != cs[2] {
			t.Fatal("the same body stored twice")
		}
		for i, c := range cs {
			want := robots.Parse(bodies[i], robots.Options{MaxBytes: 64})
			got := c.file()
			if !reflect.DeepEqual(got.Lines, want.Lines) || !reflect.DeepEqual(got.Groups, want.Groups) ||
				!reflect.DeepEqual(got.Diagnostics, want.Diagnostics) || got.Truncated != want.Truncated || got.Size != want.Size {
				t.Fatalf("body %d parsed again differs from a direct parse", i)
			}
			if c.stats != statsOf(want) || c.trunc != want.Truncated || c.size != len(bodies[i]) {
				t.Fatalf("body %d: stored counts differ", i)
			}
		}
		if err := s.close(); err != nil {
			t.Fatal(err)
		}
	})
}
