package evaluate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/event"
)

// A capture pairs with a request record of its own file by either link:
// the request's WARC-Concurrent-To naming the capture, or the capture's
// naming the request. A request of another file pairs nothing. Paired
// captures are not judged again as archive fetches.
func TestCapturePairing(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow:\n")
	req := func(c *event.Capture, file, id string, conc ...string) {
		f := s.fetch(uaCCBot, c.URL, c.Time, 0)
		f.Origin, f.Format = event.OriginWARC, "warc"
		f.Source = event.Source{File: file, Offset: c.Source.Offset + 500, Length: 50}
		f.RecordID, f.ConcurrentTo = id, conc
	}
	byReq := s.capture(site+"/a", hours(1), 200, "a") // the request names it
	req(byReq, "crawl.warc.gz", "<urn:uuid:req-a>", byReq.RecordID)
	byCap := s.capture(site+"/b", hours(2), 200, "b") // it names the request
	byCap.ConcurrentTo = []string{"<urn:uuid:req-b>"}
	req(byCap, "crawl.warc.gz", "<urn:uuid:req-b>")
	other := s.capture(site+"/c", hours(3), 200, "c") // named from another file only
	other.ConcurrentTo = []string{"<urn:uuid:req-c>"}
	req(other, "copy.warc.gz", "<urn:uuid:req-c>", other.RecordID)
	s.capture(site+"/d", hours(4), 200, "d") // no request at all
	s.run()

	var got []string
	for _, f := range s.out.Fetches {
		if f.SourceFormat == "warc-capture" {
			got = append(got, f.URLPath)
		}
	}
	if want := []string{"/c", "/d", "/robots.txt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("captures judged as archive fetches %q, want %q", got, want)
	}
}

// capRec.parts splits the URL as splitURL does, from offsets kept at
// AddCapture, and the normalized URL is the one normalizeURL gives.
func TestCapturePartsMatchSplitURL(t *testing.T) {
	urls := []string{
		"https://example.org/page",
		"https://Example.ORG:443/a/b?x=1&y",
		"http://example.org:8080",
		"http://example.org?q",
		"HTTP://[2001:db8::1]:80/x",
		"https://example.org./p%20q",
		"  https://example.org/space  ",
		"ftp://files.example.org/pub",
		strings.Repeat("s", 300) + "://example.org/long-scheme",
	}
	b := NewBuilder(Options{}, nil, nil)
	for i, u := range urls {
		b.AddCapture(&event.Capture{URL: u, RecordType: "response", Status: 200, RecordID: "<urn:uuid:" + itoa(i) + ">",
			Source: event.Source{File: "f.warc", Offset: int64(i)}})
	}
	if len(b.captures) != len(urls) {
		t.Fatalf("%d captures kept of %d", len(b.captures), len(urls))
	}
	for _, c := range b.captures {
		auth, hp, target, _ := splitURL(c.rawURL())
		scheme, gotHP, gotTarget := c.parts()
		if scheme+"://"+gotHP != auth || gotHP != hp || gotTarget != target {
			t.Errorf("%q: parts %q %q %q, splitURL %q %q %q", c.rawURL(), scheme, gotHP, gotTarget, auth, hp, target)
		}
		if c.url() != normalizeURL(c.rawURL()) {
			t.Errorf("%q: url %q, want %q", c.rawURL(), c.url(), normalizeURL(c.rawURL()))
		}
		if !strings.HasPrefix(c.recordID(), "<urn:uuid:") {
			t.Errorf("%q: record id %q", c.rawURL(), c.recordID())
		}
	}
}
