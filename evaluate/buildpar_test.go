package evaluate

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/table"
)

type keyed struct{ key, idx int }

// TestSortChunked: sorted in runs on several workers and merged, a slice
// comes out as slices.SortFunc sorts it (a total order) and as
// slices.SortStableFunc does (ties kept in their order).
func TestSortChunked(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	byKey := func(x, y keyed) int { return x.key - y.key }
	total := func(x, y keyed) int {
		if c := x.key - y.key; c != 0 {
			return c
		}
		return x.idx - y.idx
	}
	for _, n := range []int{0, 1, 7, 8, 9, 100, 1001} {
		in := make([]keyed, n)
		for i := range in {
			in[i] = keyed{key: rng.IntN(10), idx: i} // many ties
		}
		stable := slices.Clone(in)
		slices.SortStableFunc(stable, byKey)
		for _, workers := range []int{1, 2, 3, 5, 8} {
			sp := split{workers: workers, min: 1}
			got := slices.Clone(in)
			sortChunked(sp, got, byKey, true)
			if !slices.Equal(got, stable) {
				t.Errorf("n %d, %d workers, stable: got %v, want %v", n, workers, got, stable)
			}
			got = slices.Clone(in)
			rng.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
			sortChunked(sp, got, total, false)
			if !slices.Equal(got, stable) { // the total order sorts as the stable one
				t.Errorf("n %d, %d workers: got %v, want %v", n, workers, got, stable)
			}
		}
	}
}

// TestForChunks: the chunks cover every item once, in order of their
// numbers.
func TestForChunks(t *testing.T) {
	for _, n := range []int{0, 1, 5, 1000, 5000} {
		for _, sp := range []split{{1, 1}, {3, 1}, {4, minChunk}} {
			seen := make([]int, n)
			lows := make([]int, sp.chunkCount(n)+1)
			k := sp.forChunks(n, func(c, lo, hi int) {
				lows[c] = lo
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			if k != sp.chunkCount(n) {
				t.Errorf("n %d, %+v: %d chunks, chunkCount says %d", n, sp, k, sp.chunkCount(n))
			}
			for i, s := range seen {
				if s != 1 {
					t.Fatalf("n %d, %+v: item %d seen %d times", n, sp, i, s)
				}
			}
			if !slices.IsSorted(lows[:k]) {
				t.Errorf("n %d, %+v: chunk starts %v out of order", n, sp, lows[:k])
			}
		}
	}
}

// splitScenario is an archive of many hosts and two crawls, with what
// Build settles per authority: versions collapsed, unreachable runs past
// 30 days split, redirects to other hosts, revisits (some unresolved:
// problems), robots.txt fetches of a log in every status, and hosts whose
// groups name the same tokens (shared group sets).
func splitScenario(t *testing.T) *scenario {
	t.Helper()
	s := newScenario(t)
	s.opts.AsOf = days(120)
	rng := rand.New(rand.NewPCG(29, 1))
	bodies := []string{
		"User-agent: CCBot\nDisallow: /private/\n",
		"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		"User-agent: *\nDisallow: /tmp/\n",
	}
	for h := range 60 {
		host := "https://h" + itoa(h) + ".example"
		at := days(0)
		for v := range 2 + rng.IntN(6) {
			at = at.Add(time.Duration(1+rng.IntN(20)) * 24 * time.Hour)
			c := s.robots(host+"/robots.txt", at, 200, bodies[(h+v/3)%len(bodies)])
			switch rng.IntN(7) {
			case 0:
				c.Status, c.Body = 503, nil
			case 1:
				c.Status, c.Body = 404, nil
			case 2:
				c.Status, c.Body = 301, nil
				c.Header = append(c.Header, event.Field{Name: "Location", Value: "https://h" + itoa((h+1)%60) + ".example/robots.txt"})
			case 3:
				c.RecordType, c.Profile, c.RefersTo = "revisit", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest", "<urn:uuid:none-"+itoa(h)+">"
			}
			if h%2 == 1 {
				c.Source.File = "other.warc.gz"
			}
			page := s.capture(host+"/page/"+itoa(v), at, 200, "<html><head><meta name=\"robots\" content=\"noarchive\"></head></html>")
			if v == 1 { // a revisit takes the directives of the capture it repeats
				rv := s.capture(host+"/page/"+itoa(v), at.Add(time.Hour), 200, "")
				rv.RecordType, rv.Profile, rv.RefersTo = "revisit", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest", page.RecordID
			}
		}
		for i := range 4 {
			st := []int{200, 304, 301, 404, 503}[rng.IntN(5)]
			s.fetch([]string{uaCCBot, uaGPTBot, uaGooglebot}[i%3], host+"/robots.txt", days(float64(rng.IntN(100))), st)
			s.fetch(uaGPTBot, host+"/page/"+itoa(i), days(float64(rng.IntN(100))), 200)
		}
	}
	return s
}

// builtTables runs both passes on the scenario's inputs with Build's steps
// split as sp says (0: GOMAXPROCS), streaming views or not, and returns
// every table, the problems and the number of distinct group sets.
func builtTables(t *testing.T, s *scenario, splitInto int, stream bool) (*table.Collector, int) {
	t.Helper()
	opts := s.opts
	opts.buildSplit = splitInto
	m := s.build(opts, stream)
	defer m.Close()
	order := s.byTime()
	out := &table.Collector{}
	if err := m.WriteBuiltTables(out); err != nil {
		t.Fatal(err)
	}
	if stream {
		judgeStreamed(m, order, out)
	} else {
		judgeKept(m, order, out)
	}
	if err := m.WriteTables(out); err != nil {
		t.Fatal(err)
	}
	return out, len(m.groupSets)
}

// TestBuildSplitSameModel: Build on several workers makes the model the
// serial loop makes: every table, the problems among them, row for row.
func TestBuildSplitSameModel(t *testing.T) {
	s := splitScenario(t)
	for _, stream := range []bool{false, true} {
		want, wantSets := builtTables(t, s, 1, stream)
		if len(want.Problems) == 0 || len(want.RobotsVersions) < 200 || len(want.Fetches) == 0 {
			t.Fatalf("the scenario is too small: %d problems, %d versions, %d fetches",
				len(want.Problems), len(want.RobotsVersions), len(want.Fetches))
		}
		for _, n := range []int{2, 3, 7} {
			got, sets := builtTables(t, s, n, stream)
			if sets != wantSets {
				t.Errorf("stream %v, %d workers: %d group sets, want %d", stream, n, sets, wantSets)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("stream %v, %d workers: the tables differ from the serial Build's (%d/%d versions, %d/%d problems, %d/%d violations)",
					stream, n, len(got.RobotsVersions), len(want.RobotsVersions), len(got.Problems), len(want.Problems),
					len(got.Violations), len(want.Violations))
			}
		}
	}
}
