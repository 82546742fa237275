package audit

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
	"github.com/repaudit/repaudit/warc"
)

const (
	crawlSite   = "https://news.example.org"
	uaHeritrix  = "Mozilla/5.0 (compatible; heritrix/3.4.0 +https://archive.example.org/crawler)"
	uaArchiveOB = "Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)"
)

// page is one exchange of a test crawl.
type page struct {
	path string
	at   time.Time
	body string
}

// writeCrawl writes a WARC of the exchanges of one crawler: a warcinfo
// record naming it, then request and response records (no request records
// when ua is "", as from a crawler that keeps only responses).
func writeCrawl(t *testing.T, path string, info event.Header, ua string, pages []page) {
	t.Helper()
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, warc.WriterOptions{})
	if _, err := w.WriteWarcinfo(pages[0].at, filepath.Base(path), info); err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		x := &warc.Exchange{
			URL: crawlSite + p.path, Time: p.at,
			ResponseHead: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"),
			Body:         []byte(p.body),
		}
		if ua != "" {
			x.Request = []byte("GET " + p.path + " HTTP/1.1\r\nHost: news.example.org\r\nUser-Agent: " + ua + "\r\n\r\n")
		}
		if err := w.WriteExchange(x); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// twoCrawls writes the WARCs of two crawlers of one site: heritrix (three
// request records: the run's most frequent crawler) and archive.org_bot,
// each with its own robots.txt capture forbidding it a directory it then
// captures; and a third WARC with responses only, whose warcinfo names
// archive.org_bot and states the same crawl as the second (isPartOf), so
// that the second file's robots.txt capture is its view too.
func twoCrawls(t *testing.T) (a, b, c string) {
	dir := t.TempDir()
	t0 := time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC)
	a, b, c = filepath.Join(dir, "heritrix.warc.gz"), filepath.Join(dir, "iabot.warc.gz"), filepath.Join(dir, "responses.warc.gz")
	writeCrawl(t, a, event.Header{{Name: "software", Value: "Heritrix/3.4.0 http://crawler.archive.org"}}, uaHeritrix, []page{
		{"/robots.txt", t0, "User-agent: heritrix\nDisallow: /h/\n"},
		{"/h/1", t0.Add(time.Hour), "h1"},
		{"/ok", t0.Add(2 * time.Hour), "ok"},
	})
	writeCrawl(t, b, event.Header{{Name: "software", Value: "Heritrix/3.4.0"}, {Name: "isPartOf", Value: "iabot-2025-04"}}, uaArchiveOB, []page{
		{"/robots.txt", t0.Add(10 * time.Hour), "User-agent: heritrix\nDisallow: /h/\n\nUser-agent: archive.org_bot\nDisallow: /b/\n"},
		{"/b/1", t0.Add(11 * time.Hour), "b1"},
	})
	writeCrawl(t, c, event.Header{{Name: "http-header-user-agent", Value: uaArchiveOB}, {Name: "isPartOf", Value: "iabot-2025-04"}}, "", []page{
		{"/b/2", t0.Add(12 * time.Hour), "b2"},
	})
	return a, b, c
}

type viewRow struct{ agent, path, format, view, verdict, version string }

func views(col *table.Collector) []viewRow {
	var out []viewRow
	for _, f := range col.Fetches {
		out = append(out, viewRow{f.Agent, f.URLPath, f.SourceFormat, f.RobotsView, f.RobotsVerdict, f.RobotsVersionID})
	}
	slices.SortFunc(out, func(x, y viewRow) int {
		if x.agent != y.agent {
			return map[bool]int{true: -1, false: 1}[x.agent < y.agent]
		}
		if x.path != y.path {
			return map[bool]int{true: -1, false: 1}[x.path < y.path]
		}
		return 0
	})
	return out
}

// TestEachCrawlerJudgedOnItsOwn is issue 12's acceptance test for archive
// crawlers: two WARCs from two crawlers audited together give each
// crawler's fetches the robots.txt view they get when audited alone.
func TestEachCrawlerJudgedOnItsOwn(t *testing.T) {
	a, b, c := twoCrawls(t)
	together, _ := runOwn(t, Config{Inputs: []string{a, b, c}})
	aloneA, _ := runOwn(t, Config{Inputs: []string{a}})
	aloneB, _ := runOwn(t, Config{Inputs: []string{b}})

	all := views(together)
	var got []viewRow
	for _, v := range all {
		if v.path == "/robots.txt" || v.path == "/b/2" {
			continue // compared below
		}
		got = append(got, v)
	}
	alone := append(views(aloneA), views(aloneB)...)
	var want []viewRow
	for _, v := range alone {
		if v.path != "/robots.txt" {
			want = append(want, v)
		}
	}
	slices.SortFunc(want, func(x, y viewRow) int {
		if x.agent+x.path < y.agent+y.path {
			return -1
		}
		return 1
	})
	slices.SortFunc(got, func(x, y viewRow) int {
		if x.agent+x.path < y.agent+y.path {
			return -1
		}
		return 1
	})
	if !slices.Equal(got, want) {
		t.Errorf("together:\n%v\nalone:\n%v", got, want)
	}
	for _, v := range got {
		if v.view != string(evaluate.ViewFresh) {
			t.Errorf("%s %s: view %q, want fresh", v.agent, v.path, v.view)
		}
	}
	// Each crawler captured its own forbidden directory while its own
	// robots.txt said no.
	var cwd []string
	for _, v := range together.Violations {
		if v.Kind == evaluate.KindCapturedWhileDisallowed {
			cwd = append(cwd, v.Agent+" "+v.URLPath)
		}
	}
	slices.Sort(cwd)
	if want := []string{"archive.org_bot /b/1", "archive.org_bot /b/2", "heritrix /h/1"}; !slices.Equal(cwd, want) {
		t.Errorf("captured_while_disallowed: %q, want %q", cwd, want)
	}

	// The manifest names each file's crawler and how it was found.
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Run(t.Context(), Config{Inputs: []string{a, b, c}, Out: out, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	m := readManifest(t, out)
	wantCrawlers := []output.ArchiveCrawler{
		{File: a, Agent: "heritrix", DerivedFrom: evaluate.CrawlerFromRequests, Crawl: "file:" + a},
		{File: b, Agent: "archive.org_bot", DerivedFrom: evaluate.CrawlerFromRequests, Crawl: "archive.org_bot:iabot-2025-04"},
		{File: c, Agent: "archive.org_bot", DerivedFrom: evaluate.CrawlerFromWarcinfoUA, Crawl: "archive.org_bot:iabot-2025-04"},
	}
	if !slices.Equal(m.ArchiveCrawlers, wantCrawlers) {
		t.Errorf("manifest archive_crawlers:\n%+v\nwant\n%+v", m.ArchiveCrawlers, wantCrawlers)
	}
}

// TestARCSampleNamesItsCrawler audits the public heritrix ARC sample
// alone: its filedesc record's XML names heritrix and the crawl, and its
// captures are judged as heritrix's fetches.
func TestARCSampleNamesItsCrawler(t *testing.T) {
	const arc = "../../shared/fixtures/sample-warcs/IAH-20080430204825-00000-blackbook-truncated.arc.gz"
	if _, err := os.Stat(arc); err != nil {
		t.Skipf("%s: %v", arc, err)
	}
	out := filepath.Join(t.TempDir(), "out")
	sum, err := Run(t.Context(), Config{Inputs: []string{arc}, Out: out, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	m := readManifest(t, out)
	want := []output.ArchiveCrawler{{File: arc, Agent: "heritrix", DerivedFrom: evaluate.CrawlerFromWarcinfoUA, Crawl: "heritrix:archive.org-shallow"}}
	if !slices.Equal(m.ArchiveCrawlers, want) {
		t.Errorf("archive_crawlers = %+v, want %+v", m.ArchiveCrawlers, want)
	}
	if sum.Judged != 7 {
		t.Errorf("%d fetches judged, want the ARC's 7 captures", sum.Judged)
	}
	for _, n := range m.Notices {
		if n.Code == NoticeNoCrawler {
			t.Errorf("notice %q for a file whose crawler is named", n.Message)
		}
	}
}

// noCrawlerNotice returns the archive-no-crawler notice of the run in out.
func noCrawlerNotice(t *testing.T, out string) *output.Notice {
	t.Helper()
	m := readManifest(t, out)
	for _, n := range m.Notices {
		if n.Code == NoticeNoCrawler {
			return &n
		}
	}
	return nil
}

// A file that names no crawler, in a run with another crawl's file, gets
// none: the run's notices name it with its captures, and say how to give
// one; --archive-agent FILE=TOKEN gives it to that file alone.
func TestFileWithoutCrawlerIsNamed(t *testing.T) {
	a, _, _ := twoCrawls(t)
	dir := t.TempDir()
	none := filepath.Join(dir, "responses-only.warc.gz")
	t0 := time.Date(2025, 4, 2, 0, 0, 0, 0, time.UTC)
	writeCrawl(t, none, event.Header{{Name: "software", Value: "some-tool/1.0"}}, "", []page{
		{"/n/1", t0, "n1"}, {"/n/2", t0.Add(time.Hour), "n2"}, {"/n/3", t0.Add(2 * time.Hour), "n3"},
	})
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Run(t.Context(), Config{Inputs: []string{a, none}, Out: out, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	n := noCrawlerNotice(t, out)
	if n == nil {
		t.Fatalf("no %s notice", NoticeNoCrawler)
	}
	if n.Count != 3 || !strings.Contains(n.Message, none+" (3)") || !strings.Contains(n.Message, "--archive-agent FILE=TOKEN") ||
		strings.Contains(n.Message, a) {
		t.Errorf("notice %d %q, want 3 captures of %s named, and the fix", n.Count, n.Message, none)
	}
	m := readManifest(t, out)
	if got := m.ArchiveCrawlers[1]; got != (output.ArchiveCrawler{File: none, Crawl: "file:" + none}) {
		t.Errorf("crawler of %s: %+v, want none", none, got)
	}

	// Named for that file only (its name as a path under the directory
	// given): no notice, and the heritrix file keeps its own.
	out = filepath.Join(t.TempDir(), "out")
	cfg := Config{Inputs: []string{a, dir}, Out: out, Jobs: 2}
	cfg.Eval.ArchiveAgents = map[string]string{filepath.Join(dir, ".", "responses-only.warc.gz"): "archive.org_bot"}
	if _, err := Run(t.Context(), cfg); err != nil {
		t.Fatal(err)
	}
	if n := noCrawlerNotice(t, out); n != nil {
		t.Errorf("notice %q with the file's crawler given", n.Message)
	}
	m = readManifest(t, out)
	want := []output.ArchiveCrawler{
		{File: a, Agent: "heritrix", DerivedFrom: evaluate.CrawlerFromRequests, Crawl: "file:" + a},
		{File: none, Agent: "archive.org_bot", DerivedFrom: evaluate.CrawlerFromOption, Crawl: "file:" + none},
	}
	if !slices.Equal(m.ArchiveCrawlers, want) {
		t.Errorf("archive_crawlers = %+v, want %+v", m.ArchiveCrawlers, want)
	}

	// A FILE=TOKEN naming no input is an error, not a silent no-op.
	cfg.Eval.ArchiveAgents = map[string]string{filepath.Join(dir, "typo.warc.gz"): "archive.org_bot"}
	cfg.Out = filepath.Join(t.TempDir(), "out")
	if _, err := Run(t.Context(), cfg); err == nil || !strings.Contains(err.Error(), "typo.warc.gz") {
		t.Errorf("Run with --archive-agent for a file not among the inputs: %v, want an error naming it", err)
	}
}

// Two files stating the same isPartOf are one crawl: the one naming no
// crawler takes the other's, and both share its crawl key.
func TestFilesOfOneCrawlShareItsCrawler(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC)
	req, resp := filepath.Join(dir, "req.warc.gz"), filepath.Join(dir, "resp.warc.gz")
	crawl := event.Header{{Name: "software", Value: "some-tool/1.0"}, {Name: "isPartOf", Value: "crawl-7"}}
	writeCrawl(t, req, crawl, uaHeritrix, []page{{"/robots.txt", t0, "User-agent: *\nDisallow: /x/\n"}, {"/ok", t0.Add(time.Hour), "ok"}})
	writeCrawl(t, resp, crawl, "", []page{{"/x/1", t0.Add(2 * time.Hour), "x1"}})
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Run(t.Context(), Config{Inputs: []string{dir}, Out: out, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	m := readManifest(t, out)
	want := []output.ArchiveCrawler{
		{File: req, Agent: "heritrix", DerivedFrom: evaluate.CrawlerFromRequests, Crawl: "heritrix:crawl-7"},
		{File: resp, Agent: "heritrix", DerivedFrom: evaluate.CrawlerFromCrawl, Crawl: "heritrix:crawl-7"},
	}
	if !slices.Equal(m.ArchiveCrawlers, want) {
		t.Errorf("archive_crawlers = %+v, want %+v", m.ArchiveCrawlers, want)
	}
	if n := noCrawlerNotice(t, out); n != nil {
		t.Errorf("notice %q", n.Message)
	}
}
