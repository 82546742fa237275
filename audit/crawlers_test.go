package audit

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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
		if v.view != evaluate.ViewFresh {
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
		{File: a, Agent: "heritrix", DerivedFrom: evaluate.CrawlerFromRequests},
		{File: b, Agent: "archive.org_bot", DerivedFrom: evaluate.CrawlerFromRequests},
		{File: c, Agent: "archive.org_bot", DerivedFrom: evaluate.CrawlerFromWarcinfoUA},
	}
	if !slices.Equal(m.ArchiveCrawlers, wantCrawlers) {
		t.Errorf("manifest archive_crawlers:\n%+v\nwant\n%+v", m.ArchiveCrawlers, wantCrawlers)
	}
}
