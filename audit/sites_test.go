package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/table"
)

const (
	wwwSite  = "https://www.example.org"
	blogSite = "https://blog.example.org"
	gptUA    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot"
	googUA   = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	claudeUA = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	browser  = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
)

// logLine is one access log line: host (for vhost_combined), time, path
// and client.
type logLine struct {
	host, at, path, ua, ip string
}

func (l logLine) text(vhost bool) string {
	t, err := time.Parse(time.RFC3339, l.at)
	if err != nil {
		panic(err)
	}
	s := fmt.Sprintf(`%s - - [%s] "GET %s HTTP/1.1" 200 512 "-" "%s"`, l.ip, t.Format("02/Jan/2006:15:04:05 -0700"), l.path, l.ua)
	if vhost {
		s = l.host + ":443 " + s
	}
	return s
}

func writeLog(t *testing.T, path string, lines []logLine, vhost bool) {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.text(vhost) + "\n")
	}
	writeFile(t, path, b.String())
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// publisher is the publisher: www and blog in one vhost_combined
// log, and a dated robots.txt history of each, www's disallowing GPTBot
// everywhere and blog's not.
type publisher struct {
	root, log, robots, wwwDir, blogDir string
	lines                              []logLine
}

func writePublisher(t *testing.T) publisher {
	t.Helper()
	root := t.TempDir()
	p := publisher{root: root, log: filepath.Join(root, "logs", "access.log"), robots: filepath.Join(root, "robots")}
	p.wwwDir = filepath.Join(p.robots, "www.example.org")
	p.blogDir = filepath.Join(p.robots, "blog.example.org")
	writeFile(t, filepath.Join(p.wwwDir, "2025-03-01.txt"), "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n")
	writeFile(t, filepath.Join(p.wwwDir, "2025-03-10.txt"), "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nDisallow: /drafts/\n")
	writeFile(t, filepath.Join(p.blogDir, "2025-03-01.txt"), "User-agent: *\nDisallow: /admin/\n")
	writeFile(t, filepath.Join(p.blogDir, "2025-03-10.txt"), "User-agent: *\nDisallow: /admin/\nDisallow: /tmp/\n")
	const www, blog = "www.example.org", "blog.example.org"
	p.lines = []logLine{
		{www, "2025-03-02T09:00:00Z", "/robots.txt", gptUA, "20.171.207.1"},
		{blog, "2025-03-02T09:00:30Z", "/robots.txt", gptUA, "20.171.207.1"},
		{www, "2025-03-02T09:01:00Z", "/news/a", gptUA, "20.171.207.1"},
		{blog, "2025-03-02T09:01:30Z", "/news/a", gptUA, "20.171.207.1"}, // allowed on blog
		{blog, "2025-03-02T09:02:00Z", "/admin/x", gptUA, "20.171.207.1"},
		{www, "2025-03-03T10:00:00Z", "/robots.txt", googUA, "66.249.66.1"},
		{www, "2025-03-03T10:01:00Z", "/private/x", googUA, "66.249.66.1"},
		{blog, "2025-03-03T10:02:00Z", "/admin/y", googUA, "66.249.66.1"}, // never fetched blog's robots.txt
		{www, "2025-03-03T11:00:00Z", "/news/b", browser, "198.51.100.7"},
		{blog, "2025-03-03T11:00:10Z", "/post/1", browser, "198.51.100.7"},
		{www, "2025-03-12T08:00:00Z", "/robots.txt", gptUA, "20.171.207.2"},
		{www, "2025-03-12T08:00:30Z", "/drafts/z", gptUA, "20.171.207.2"},
		{blog, "2025-03-12T09:00:00Z", "/robots.txt", claudeUA, "3.14.15.9"},
		{blog, "2025-03-12T09:00:20Z", "/tmp/q", claudeUA, "3.14.15.9"},
		{blog, "2025-03-12T09:00:40Z", "/post/2", claudeUA, "3.14.15.9"},
		{www, "2025-03-12T09:01:00Z", "/drafts/z", claudeUA, "3.14.15.9"}, // ClaudeBot never fetched www's
	}
	writeLog(t, p.log, p.lines, true)
	return p
}

// onlyHost writes the publisher's log filtered to one host.
func (p publisher) onlyHost(t *testing.T, host string) string {
	t.Helper()
	var keep []logLine
	for _, l := range p.lines {
		if l.host == host {
			keep = append(keep, l)
		}
	}
	path := filepath.Join(p.root, "logs-"+host, "access.log")
	writeLog(t, path, keep, true)
	return path
}

// canonRows returns the violations rows as JSON, with each log line a
// row or its evidence names (file:line) replaced by the line's text: the
// same fetch has another line number in a filtered log, and nothing else
// may differ.
func canonRows(t *testing.T, col *table.Collector, logs ...string) []string {
	t.Helper()
	text := map[string][]string{}
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		text[l] = strings.Split(string(b), "\n")
	}
	lineOf := func(file string, n int64) string {
		if ls, ok := text[file]; ok && n >= 1 && int(n) <= len(ls) {
			return "«" + ls[n-1] + "»"
		}
		return fmt.Sprintf("%s:%d", file, n)
	}
	ref := regexp.MustCompile(`([^\s(]+):(\d+)`)
	var out []string
	for _, v := range col.Violations {
		v.Evidence = ref.ReplaceAllStringFunc(v.Evidence, func(m string) string {
			sm := ref.FindStringSubmatch(m)
			if _, ok := text[sm[1]]; !ok {
				return m
			}
			n, _ := strconv.ParseInt(sm[2], 10, 64)
			return lineOf(sm[1], n)
		})
		if v.SourceLine > 0 {
			v.SourceFile, v.SourceLine = lineOf(v.SourceFile, v.SourceLine), 0
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

func auditSites(t *testing.T, cfg Config) (*table.Collector, *Summary, error) {
	t.Helper()
	cfg.Out = filepath.Join(t.TempDir(), "out")
	cfg.Jobs = 2
	cfg.MaxProblemsPerFile = 100
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), cfg, col)
	return col, sum, err
}

// TestTwoSitesOneLog is issue 24's publisher: www and blog in one
// vhost_combined log, each with its robots.txt history. Bound to their
// sites (URL=DIR, or one dir with a subdirectory per host), with no
// --site, every finding is the union of those of auditing each site
// alone, and no www rule is ever cited for a blog URL.
func TestTwoSitesOneLog(t *testing.T) {
	p := writePublisher(t)
	wwwLog, blogLog := p.onlyHost(t, "www.example.org"), p.onlyHost(t, "blog.example.org")
	var want []string
	for _, one := range []struct{ site, log, dir string }{{wwwSite, wwwLog, p.wwwDir}, {blogSite, blogLog, p.blogDir}} {
		col, _, err := auditSites(t, Config{Inputs: []string{one.log}, Options: input.Options{RobotsDir: []string{one.dir}, Eval: evaluate.Options{DefaultAuthority: one.site}}})
		if err != nil {
			t.Fatalf("%s alone: %v", one.site, err)
		}
		want = append(want, canonRows(t, col, wwwLog, blogLog)...)
	}
	slices.Sort(want)
	// The scenario: on www, GPTBot twice (fresh view, then the version of
	// 03-10) and the real Googlebot, ClaudeBot without a view; on blog,
	// GPTBot on /admin/, Googlebot unchecked, ClaudeBot on /tmp/.
	if len(want) < 6 {
		t.Fatalf("the sites alone give %d findings, want at least 6:\n%s", len(want), strings.Join(want, "\n"))
	}

	for _, tc := range []struct {
		name string
		dirs []string
	}{
		{"URL=DIR", []string{wwwSite + "=" + p.wwwDir, blogSite + "=" + p.blogDir}},
		{"host subdirectories", []string{p.robots}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			col, sum, err := auditSites(t, Config{Inputs: []string{p.log}, Options: input.Options{RobotsDir: tc.dirs}})
			if err != nil {
				t.Fatalf("audit: %v", err)
			}
			got := canonRows(t, col, p.log)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("findings of both sites in one run:\n%s\n\nwant the union of each site alone:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			blogFindings := 0
			for _, v := range col.Violations {
				if v.URLHostName != "blog.example.org" {
					continue
				}
				blogFindings++
				if strings.Contains(v.Evidence, "www.example.org") || (v.RobotsVersionID != "" && !strings.HasPrefix(v.RobotsVersionID, "blog.example.org@")) {
					t.Errorf("blog finding cites www: %s %s: %s (%s)", v.Kind, v.URL, v.Evidence, v.RobotsVersionID)
				}
				if v.URL == blogSite+"/news/a" {
					t.Errorf("GPTBot on blog's /news/a judged by www's rules: %s", v.Evidence)
				}
			}
			if blogFindings == 0 {
				t.Errorf("no finding on blog")
			}
			for _, f := range col.Fetches {
				if f.Agent != "" && f.RobotsVerdict == "not_judged" && f.NotJudgedReason != "" && f.NotJudgedReason != evaluate.NotJudgedNoBot {
					t.Errorf("fetch %s by %s not judged: %s", f.URL, f.Agent, f.NotJudgedReason)
				}
			}
			for _, n := range sum.Notices {
				if n.Code == evaluate.NotJudgedNoHost || n.Code == evaluate.NotJudgedNoVersion || n.Code == NoticeSiteAmbiguous {
					t.Errorf("notice %s: %s", n.Code, n.Message)
				}
			}
		})
	}
}

// TestTwoSitesUnbound: with two --site, a robots.txt source bound to
// neither is refused before anything is read, naming the sites and the
// URL= fix; a host-less log bound to neither is not judged (no-host) and
// the run ends with ErrNoSite; bound with URL=PATH it is judged.
func TestTwoSitesUnbound(t *testing.T) {
	p := writePublisher(t)
	two := evaluate.Options{Sites: []string{wwwSite, blogSite}}
	_, _, err := auditSites(t, Config{Inputs: []string{p.log}, Options: input.Options{RobotsDir: []string{p.wwwDir, p.blogDir}, Eval: two}})
	if err == nil || !strings.Contains(err.Error(), "URL=") || !strings.Contains(err.Error(), wwwSite) || !strings.Contains(err.Error(), blogSite) {
		t.Fatalf("two --site and unbound --robots-dir: err = %v, want a refusal naming the sites and URL=", err)
	}
	// A dir holding only host subdirectories is bound.
	if _, _, err := auditSites(t, Config{Inputs: []string{p.log}, Options: input.Options{RobotsDir: []string{p.robots}, Eval: two}}); err != nil {
		t.Fatalf("two --site and a dir of host subdirectories: %v", err)
	}

	// blog's lines as a combined log (no host).
	var blogLines []logLine
	for _, l := range p.lines {
		if l.host == "blog.example.org" {
			blogLines = append(blogLines, l)
		}
	}
	combined := filepath.Join(p.root, "blog-combined.log")
	writeLog(t, combined, blogLines, false)
	dirs := []string{wwwSite + "=" + p.wwwDir, blogSite + "=" + p.blogDir}

	col, sum, err := auditSites(t, Config{Inputs: []string{combined}, Options: input.Options{RobotsDir: dirs, Eval: two}})
	if !errors.Is(err, ErrNoSite) || !strings.Contains(err.Error(), combined) || !strings.Contains(err.Error(), "URL=PATH") {
		t.Fatalf("unbound host-less log with two --site: err = %v, want ErrNoSite naming the input and URL=PATH", err)
	}
	if len(col.Violations) != 0 {
		t.Errorf("host-less lines of an unbound log were judged: %d findings", len(col.Violations))
	}
	var notice *Notice
	for i, n := range sum.Notices {
		if n.Code == evaluate.NotJudgedNoHost {
			notice = &sum.Notices[i]
		}
	}
	if notice == nil || !strings.Contains(notice.Message, combined) || !strings.Contains(notice.Message, blogSite) || !strings.Contains(notice.Message, "URL=PATH") {
		t.Errorf("no-host notice = %+v, want one naming the input, the sites and URL=PATH", notice)
	}

	col, _, err = auditSites(t, Config{Inputs: []string{blogSite + "=" + combined}, Options: input.Options{RobotsDir: dirs, Eval: two}})
	if err != nil {
		t.Fatalf("bound host-less log: %v", err)
	}
	if len(col.Violations) == 0 {
		t.Errorf("bound host-less log: no findings")
	}
	for _, v := range col.Violations {
		if v.URLHostName != "blog.example.org" {
			t.Errorf("bound to blog, finding on %s", v.URL)
		}
	}
}

// TestUnboundSourceSeveralHosts: without --site, a vhost log naming two
// hosts and a robots.txt source bound to neither: the source is not used
// and the run ends with ErrNoSite naming the hosts and URL=.
func TestUnboundSourceSeveralHosts(t *testing.T) {
	p := writePublisher(t)
	col, _, err := auditSites(t, Config{Inputs: []string{p.log}, Options: input.Options{RobotsDir: []string{p.wwwDir}}})
	if !errors.Is(err, ErrNoSite) || !strings.Contains(err.Error(), "URL=") || !strings.Contains(err.Error(), wwwSite) || !strings.Contains(err.Error(), blogSite) {
		t.Fatalf("err = %v, want ErrNoSite naming both hosts and URL=", err)
	}
	if len(col.Problems) == 0 || !slices.ContainsFunc(col.Problems, func(p table.Problem) bool { return p.Code == "robots-source-no-site" }) {
		t.Errorf("no robots-source-no-site problem")
	}
}

// TestManySites audits 120 hosts in one vhost log with one --robots-dir
// holding a subdirectory for 100 of them, each with its own rules: every
// finding cites its own host's version, and the 20 hosts without a
// subdirectory are named in the no-robots-version notice with their
// counts.
func TestManySites(t *testing.T) {
	root := t.TempDir()
	robots := filepath.Join(root, "robots")
	host := func(i int) string { return fmt.Sprintf("h%03d.example.net", i) }
	var lines []logLine
	for i := range 120 {
		h := host(i)
		if i < 100 {
			writeFile(t, filepath.Join(robots, h, "2025-03-01.txt"), fmt.Sprintf("User-agent: GPTBot\nDisallow: /p%d/\n", i))
		}
		lines = append(lines,
			logLine{h, "2025-03-02T09:00:00Z", "/robots.txt", gptUA, "20.171.207.1"},
			logLine{h, "2025-03-02T09:00:10Z", fmt.Sprintf("/p%d/x", i), gptUA, "20.171.207.1"},   // disallowed by its own rules
			logLine{h, "2025-03-02T09:00:20Z", fmt.Sprintf("/p%d/x", i+1), gptUA, "20.171.207.1"}, // disallowed only by the next host's
		)
		for k := 0; i >= 100 && k < i-100; k++ { // hosts without a source: distinct counts
			lines = append(lines, logLine{h, fmt.Sprintf("2025-03-02T10:%02d:00Z", k), "/more", gptUA, "20.171.207.1"})
		}
	}
	slices.SortStableFunc(lines, func(a, b logLine) int { return strings.Compare(a.at, b.at) })
	log := filepath.Join(root, "access.log")
	writeLog(t, log, lines, true)
	writeFile(t, filepath.Join(robots, "old", "2025-01-01.txt"), "User-agent: *\nDisallow: /\n")

	col, sum, err := auditSites(t, Config{Inputs: []string{log}, Options: input.Options{RobotsDir: []string{robots}}})
	if err != nil {
		t.Fatalf("audit: %v", err)
	}
	perHost := map[string]int{}
	for _, v := range col.Violations {
		if v.Kind != "disallowed_fetch" {
			continue
		}
		perHost[v.URLHostName]++
		if !strings.HasPrefix(v.RobotsVersionID, v.URLHostName+"@") {
			t.Errorf("%s judged by %s", v.URL, v.RobotsVersionID)
		}
		var i int
		fmt.Sscanf(v.URLHostName, "h%03d.example.net", &i)
		if v.URLPath != fmt.Sprintf("/p%d/x", i) {
			t.Errorf("finding on %s: another host's rule (%s)", v.URL, v.MatchedRule)
		}
	}
	if len(perHost) != 100 {
		t.Errorf("disallowed_fetch on %d hosts, want 100", len(perHost))
	}
	for h, n := range perHost {
		if n != 1 {
			t.Errorf("%s: %d disallowed_fetch, want 1", h, n)
		}
	}
	var notice *Notice
	for i, n := range sum.Notices {
		if n.Code == evaluate.NotJudgedNoVersion {
			notice = &sum.Notices[i]
		}
	}
	if notice == nil {
		t.Fatalf("no no-robots-version notice; notices %+v", sum.Notices)
	}
	var wantCount int64
	for i := 100; i < 120; i++ {
		n := int64(3 + i - 100)
		wantCount += n
		if named := fmt.Sprintf("https://%s (%d)", host(i), n); !strings.Contains(notice.Message, named) {
			t.Errorf("notice does not name %s", named)
		}
	}
	if notice.Count != wantCount {
		t.Errorf("notice counts %d fetches, want %d", notice.Count, wantCount)
	}
	// Most fetches first; no "give --robots-dir DIR" as if none had been
	// given.
	first, last := strings.Index(notice.Message, host(119)), strings.Index(notice.Message, host(100))
	if first < 0 || last < first || !strings.Contains(notice.Message, "on 20 sites") || !strings.Contains(notice.Message, "for other sites") || strings.Contains(notice.Message, "more") {
		t.Errorf("notice message: %s", notice.Message)
	}
	if !slices.ContainsFunc(col.Problems, func(p table.Problem) bool {
		return p.Code == "robots-dir-not-host" && strings.HasSuffix(p.SourceFile, "old")
	}) {
		t.Errorf("subdirectory old not reported")
	}
	for _, rv := range col.RobotsVersions {
		if strings.Contains(rv.Authority, "old") {
			t.Errorf("subdirectory old read as %s", rv.Authority)
		}
	}
}

// TestRobotsDirMixed: a --robots-dir with dated files at its top level
// and host subdirectories: the top-level files belong to the one --site,
// each subdirectory to its host.
func TestRobotsDirMixed(t *testing.T) {
	p := writePublisher(t)
	mixed := filepath.Join(p.root, "mixed")
	for _, name := range []string{"2025-03-01.txt", "2025-03-10.txt"} {
		for src, dst := range map[string]string{p.wwwDir: mixed, p.blogDir: filepath.Join(mixed, "blog.example.org")} {
			b, err := os.ReadFile(filepath.Join(src, name))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dst, name), string(b))
		}
	}
	col, _, err := auditSites(t, Config{Inputs: []string{p.log}, Options: input.Options{RobotsDir: []string{mixed}, Eval: evaluate.Options{DefaultAuthority: wwwSite}}})
	if err != nil {
		t.Fatalf("audit: %v", err)
	}
	got := map[string][]string{}
	for _, rv := range col.RobotsVersions {
		got[rv.Authority] = append(got[rv.Authority], filepath.Base(filepath.Dir(rv.SourceRef))+"/"+filepath.Base(rv.SourceRef))
	}
	want := map[string][]string{
		wwwSite:  {"mixed/2025-03-01.txt", "mixed/2025-03-10.txt"},
		blogSite: {"blog.example.org/2025-03-01.txt", "blog.example.org/2025-03-10.txt"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("versions by authority = %v, want %v", got, want)
	}
	// Two --site: the top-level files are bound to neither: refused.
	_, _, err = auditSites(t, Config{Inputs: []string{p.log}, Options: input.Options{RobotsDir: []string{mixed}, Eval: evaluate.Options{Sites: []string{wwwSite, blogSite}}}})
	if err == nil || !strings.Contains(err.Error(), "--robots-dir "+mixed) {
		t.Errorf("two --site, top-level files: err = %v, want a refusal naming the dir", err)
	}
}
