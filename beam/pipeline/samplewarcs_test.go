package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/internal/fixtures"
	"github.com/repaudit/repaudit/output"
)

// Real archives written by real crawlers are in shared/fixtures/sample-warcs
// beside the repository (README there cites their projects and commits);
// from this package that is ../../../shared/fixtures/sample-warcs.

const (
	heritrixWARC = "IAH-20080430204825-00000-blackbook-truncated.warc.gz" // heritrix 1.14.0: request records, warcinfo
	heritrixARC  = "IAH-20080430204825-00000-blackbook-truncated.arc.gz"  // the same crawl as ARC: its filedesc names heritrix
	wgetWARC     = "IAH-urls-wget.warc.gz"                                // Wget 1.14
	browserWARC  = "example.warc.gz"                                      // Webrecorder, a person's Chrome
	ccbotWARC    = "whirlwind.warc.gz"                                    // CCBot/2.0
)

// TestSampleWARCsCrawlersAsAudit: each file's crawler and crawl are
// settled once over the whole run, not per partition: the pipeline writes
// audit's rows and archive_crawlers for each set. The ARC names heritrix
// in its filedesc record, whatever other files are in the run, and states
// the crawl of the heritrix WARC.
func TestSampleWARCsCrawlersAsAudit(t *testing.T) {
	sampleWARCs := fixtures.Path(t, "sample-warcs")
	const crawl = "heritrix:archive.org-shallow"
	cases := []struct {
		name  string
		files []string
		// arcAgent and arcFrom are the ARC's crawler in archive_crawlers.
		arcAgent, arcFrom string
	}{
		{"one crawler", []string{heritrixARC, heritrixWARC}, "heritrix", evaluate.CrawlerFromWarcinfoUA},
		{"one crawler and a browser", []string{heritrixARC, browserWARC, heritrixWARC}, "heritrix", evaluate.CrawlerFromWarcinfoUA},
		{"two crawlers", []string{heritrixARC, ccbotWARC, heritrixWARC}, "heritrix", evaluate.CrawlerFromWarcinfoUA},
		{"every sample", []string{heritrixARC, browserWARC, wgetWARC, ccbotWARC, heritrixWARC}, "heritrix", evaluate.CrawlerFromWarcinfoUA},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var in []string
			for _, f := range tc.files {
				in = append(in, filepath.Join(sampleWARCs, f))
			}
			out, err := compareWithAuditOut(t, Config{Inputs: in})
			if err != nil {
				t.Fatalf("audit: %v", err)
			}
			m, err := output.ReadManifest(out)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, c := range m.ArchiveCrawlers {
				if strings.HasSuffix(c.File, heritrixARC) {
					found = true
					if !strings.EqualFold(c.Agent, tc.arcAgent) || c.DerivedFrom != tc.arcFrom || c.Crawl != crawl {
						t.Errorf("ARC crawler %q (%s) crawl %q, want %q (%s) crawl %q", c.Agent, c.DerivedFrom, c.Crawl, tc.arcAgent, tc.arcFrom, crawl)
					}
				}
				if strings.HasSuffix(c.File, heritrixWARC) && c.Crawl != crawl {
					t.Errorf("WARC crawl %q, want %q", c.Crawl, crawl)
				}
			}
			if !found {
				t.Errorf("the ARC is not in archive_crawlers: %+v", m.ArchiveCrawlers)
			}
		})
	}
}

// TestEverySampleWARCAlone: the pipeline writes audit's rows for each
// real sample archive audited alone, whatever its records look like (a
// request whose Host header a wrong Content-Length cut is paired with its
// response all the same). Every WARC and ARC in the directory is run, so
// a sample added there is checked without a change here.
func TestEverySampleWARCAlone(t *testing.T) {
	sampleWARCs := fixtures.Path(t, "sample-warcs")
	var files []string
	for _, pat := range []string{"*.warc", "*.warc.gz", "*.arc", "*.arc.gz"} {
		m, err := filepath.Glob(filepath.Join(sampleWARCs, pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("no WARC or ARC file in %s", sampleWARCs)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			if _, err := compareWithAuditOut(t, Config{Inputs: []string{f}}); err != nil {
				t.Fatalf("audit: %v", err)
			}
		})
	}
}

// TestCutHostHeaderPairs: a request record whose Host header a short
// Content-Length cut ("Host: www.exa") is judged under that host, as
// audit judges it, and still pairs with its response in the response's
// partition: no capture of it counts as a fetch without a request.
func TestCutHostHeaderPairs(t *testing.T) {
	var warc strings.Builder
	record := func(typ, uri, id, concurrentTo, contentType, block string) {
		fmt.Fprintf(&warc, "WARC/1.1\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nWARC-Date: 2025-03-01T00:00:00Z\r\nWARC-Record-ID: <%s>\r\n", typ, uri, id)
		if concurrentTo != "" {
			fmt.Fprintf(&warc, "WARC-Concurrent-To: <%s>\r\n", concurrentTo)
		}
		fmt.Fprintf(&warc, "Content-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", contentType, len(block), block)
	}
	const req, resp = "urn:uuid:00000000-0000-4000-8000-000000000001", "urn:uuid:00000000-0000-4000-8000-000000000002"
	record("request", "http://www.example.com/page", req, "", "application/http; msgtype=request",
		"GET /page HTTP/1.1\r\nUser-Agent: ExampleArchiver/1.0\r\nHost: www.exa")
	record("response", "http://www.example.com/page", resp, req, "application/http; msgtype=response",
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nhi")
	in := filepath.Join(t.TempDir(), "cut.warc")
	if err := os.WriteFile(in, []byte(warc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := compareWithAuditOut(t, Config{Inputs: []string{in}})
	if err != nil {
		t.Fatalf("audit: %v", err)
	}
	rows := tableRows(t, []string{filepath.Join(filepath.Dir(out), "audit", "fetches.parquet")})
	if len(rows) != 1 || !strings.Contains(rows[0], "www.exa") {
		t.Errorf("audit wrote %d fetches, want the request's only, judged under www.exa:\n%s", len(rows), strings.Join(rows, "\n"))
	}
}
