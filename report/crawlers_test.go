package report

import (
	"testing"

	"github.com/repaudit/repaudit/output"
)

func TestArchiveCrawlersLine(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		in   []output.ArchiveCrawler
		want string
	}{
		{"none", nil, ""},
		{"unknown only", []output.ArchiveCrawler{{File: "/x/a.warc.gz"}}, ""},
		{"one crawler", []output.ArchiveCrawler{
			{File: "/x/a.warc.gz", Agent: "heritrix", DerivedFrom: "request-records"},
			{File: "/y/b.warc.gz", Agent: "heritrix", DerivedFrom: "run-request-records"},
		}, "Archive crawler: heritrix (a.warc.gz, b.warc.gz)."},
		{"two crawlers, one unknown file", []output.ArchiveCrawler{
			{File: "a.warc.gz", Agent: "heritrix", DerivedFrom: "request-records"},
			{File: "b.warc.gz", Agent: "archive.org_bot", DerivedFrom: "warcinfo-user-agent"},
			{File: "c.warc.gz"},
			{File: "d.warc.gz", Agent: "heritrix", DerivedFrom: "warcinfo-software"},
		}, "Archive crawlers: heritrix (a.warc.gz, d.warc.gz); archive.org_bot (b.warc.gz)."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := archiveCrawlersLine(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
