package pipeline

import (
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
