package evaluate

import (
	"encoding/json"
	"net/netip"
	"slices"
	"testing"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/table"
)

// runPartitioned evaluates the scenario the way a distributed run does:
// events split by partition, shared facts merged, redirect targets of
// other partitions fetched hop by hop, one model per partition.
func (s *scenario) runPartitioned() *table.Collector {
	s.t.Helper()
	def := s.opts.DefaultAuthority
	var shared Shared
	caps := map[string][]*event.Capture{}
	fetches := map[string][]*event.Fetch{}
	index := map[string][]ListingEntry{}
	snippets := map[string][]ListingEntry{}
	docsByURL := map[string][]*event.Capture{}
	keys := map[string]bool{}
	for _, c := range s.caps {
		shared.NoteCapture(c)
		k, ok := CapturePartition(c)
		if !ok {
			continue
		}
		keys[k] = true
		caps[k] = append(caps[k], c)
		if RobotsLike(c) {
			docsByURL[URLKey(c.URL)] = append(docsByURL[URLKey(c.URL)], c)
		}
	}
	for _, f := range s.fetches {
		shared.NoteFetch(f)
		k := FetchPartition(f, def)
		keys[k] = true
		fetches[k] = append(fetches[k], f)
	}
	for _, e := range s.index {
		shared.NoteEntry(e)
		k := ListingPartition(e)
		keys[k] = true
		index[k] = append(index[k], e)
	}
	for _, e := range s.snippets {
		shared.NoteEntry(e)
		k := ListingPartition(e)
		keys[k] = true
		snippets[k] = append(snippets[k], e)
	}

	out := &table.Collector{}
	for k := range keys {
		b := NewBuilder(s.opts, bots.Default(), s.ids)
		for _, c := range caps[k] {
			b.AddCapture(c)
		}
		for _, f := range fetches[k] {
			b.AddFetch(f)
		}
		for _, e := range index[k] {
			b.AddIndexEntry(e)
		}
		for _, e := range snippets[k] {
			b.AddSnippetEntry(e)
		}
		// Redirect targets, one hop per round as a pipeline would.
		var want []string
		for _, c := range caps[k] {
			if u, ok := RedirectTarget(c); ok && URLPartition(u) != k {
				want = append(want, u)
			}
		}
		seen := map[string]bool{}
		for range MaxRedirects {
			var next []string
			for _, u := range want {
				if seen[u] {
					continue
				}
				seen[u] = true
				for _, c := range docsByURL[u] {
					b.AddRedirectTarget(c)
					if t, ok := RedirectTarget(c); ok && URLPartition(t) != k {
						next = append(next, t)
					}
				}
			}
			want = next
		}
		m := b.BuildPartition(k, shared)
		order := slices.Clone(fetches[k])
		slices.SortStableFunc(order, func(x, y *event.Fetch) int { return cmpTime(x.Time, y.Time) })
		judgeKept(m, order, out)
		if err := m.WriteTables(out); err != nil {
			s.t.Fatal(err)
		}
	}
	return out
}

// rowSet renders rows as a sorted list of JSON documents: a multiset.
func rowSet[T any](t *testing.T, rows []T) []string {
	t.Helper()
	out := make([]string, 0, len(rows))
	for i := range rows {
		b, err := json.Marshal(&rows[i])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

func sameRows[T any](t *testing.T, name string, got, want []T) {
	t.Helper()
	g, w := rowSet(t, got), rowSet(t, want)
	if slices.Equal(g, w) {
		return
	}
	t.Errorf("%s: partitioned run wrote %d rows, one model %d", name, len(g), len(w))
	for _, r := range w {
		if !slices.Contains(g, r) {
			t.Errorf("  missing: %s", r)
		}
	}
	for _, r := range g {
		if !slices.Contains(w, r) {
			t.Errorf("  extra:   %s", r)
		}
	}
}

func TestPartitionedRunWritesTheSameRows(t *testing.T) {
	s := newScenario(t)
	s.opts.DefaultAuthority = "https://www.example.com"
	s.opts.IndexAgent = "googlebot"
	// www.example.com: a plain timeline with a change and a 503.
	s.robots("https://www.example.com/robots.txt", days(0), 200, "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\nCrawl-delay: 10\n")
	s.robots("https://www.example.com/robots.txt", days(3), 503, "")
	s.robots("https://www.example.com/robots.txt", days(4), 200, "User-agent: *\nDisallow: /x/\n")
	s.capture("https://www.example.com/a", days(1), 200, `<html><head><meta name="robots" content="noindex"></head></html>`)
	s.capture("https://www.example.com/b", days(2), 200, "plain", "X-Robots-Tag", "noarchive, unavailable_after: 2025-03-02")
	// old.example: its robots.txt redirects across two partitions
	// (old.example -> mid.example -> www.example.com).
	s.robots("http://old.example/robots.txt", days(1), 301, "", "Location", "https://mid.example/robots.txt")
	s.robots("https://mid.example/robots.txt", days(1), 302, "", "Location", "https://www.example.com/robots.txt")
	s.capture("http://old.example/page", days(1), 200, "<html><body>hi</body></html>")
	// The archive crawler's request records are all on another host: the
	// archive agent comes from the shared counts.
	for i := range 3 {
		s.line++
		s.fetches = append(s.fetches, &event.Fetch{
			Time: days(1), Method: "GET", Scheme: "https", Host: "other.example", Target: "/r" + itoa(i), Status: 200, Bytes: -1,
			UserAgent: uaCCBot, Origin: event.OriginWARC, Format: "warc", RecordID: "<urn:uuid:req-" + itoa(i) + ">",
			SignatureRecorded: true, Source: event.Source{File: "crawl.warc.gz", Offset: 900000 + int64(i), Length: 10},
		})
	}
	// Bots on every host, including a host-less log line (default authority).
	s.fetch(uaGPTBot, "https://www.example.com/robots.txt", hours(1), 200)
	s.fetch(uaGPTBot, "https://www.example.com/a", hours(2), 200)
	s.fetch(uaGPTBot, "https://www.example.com/b", hours(2.001), 200)
	s.fetch(uaGooglebot, "https://www.example.com/private/1", days(1), 200)
	s.fetch(uaGooglebot, "http://old.example/private/2", days(2), 200)
	s.fetch(uaCCBot, "https://mid.example/x", days(5), 200)
	s.fetch(uaBrowser, "https://www.example.com/", days(5), 200)
	f := s.fetch(uaGooglebot, "https://www.example.com/private/3", days(5), 200)
	f.Host, f.Scheme = "", ""
	f.ClientIP = netip.MustParseAddr("198.51.100.7")
	s.index = append(s.index,
		ListingEntry{URL: "https://www.example.com/a", Source: event.Source{File: "index.csv", Line: 1, Offset: -1}},
		ListingEntry{URL: "not a url", Source: event.Source{File: "index.csv", Line: 2, Offset: -1}})
	s.snippets = append(s.snippets, ListingEntry{URL: "https://www.example.com/b", Time: days(6), Source: event.Source{File: "snippets.csv", Line: 1, Offset: -1}})

	s.run()
	got := s.runPartitioned()
	want := s.out
	if len(want.RobotsVersions) < 5 || len(want.Retentions) == 0 || len(want.Directives) == 0 || len(want.Violations) == 0 {
		t.Fatalf("scenario too thin: %d versions, %d retention, %d directives, %d violations",
			len(want.RobotsVersions), len(want.Retentions), len(want.Directives), len(want.Violations))
	}
	// The redirect across partitions resolved to www.example.com's rules.
	for _, v := range want.RobotsVersions {
		if v.Authority == "http://old.example" && (v.StatusRule != "redirect" || v.Effect != "rules") {
			t.Fatalf("old.example version: %s %s, want a resolved redirect", v.StatusRule, v.Effect)
		}
	}
	if ag, _ := s.model.ArchiveAgent(); ag != "CCBot" {
		t.Fatalf("archive agent %q, want CCBot", ag)
	}
	sameRows(t, "fetches", got.Fetches, want.Fetches)
	sameRows(t, "violations", got.Violations, want.Violations)
	sameRows(t, "robots_versions", got.RobotsVersions, want.RobotsVersions)
	sameRows(t, "robots_rules", got.RobotsRules, want.RobotsRules)
	sameRows(t, "directives", got.Directives, want.Directives)
	sameRows(t, "retention", got.Retentions, want.Retentions)
	sameRows(t, "problems", got.Problems, want.Problems)
}

func TestNeedsBody(t *testing.T) {
	for _, tc := range []struct {
		url, ct, body string
		want          bool
	}{
		{"https://a.example/robots.txt", "text/plain", "User-agent: *", true},
		{"https://a.example/robots-new.txt", "text/plain", "x", true},
		{"https://a.example/page", "text/html", "<html>", true},
		{"https://a.example/page", "", "<!DOCTYPE html><html>", true},
		{"https://a.example/img.png", "image/png", "\x89PNG", false},
		{"https://a.example/page", "text/plain", "<html>", false},
		{"https://a.example/empty", "text/html", "", false},
	} {
		c := &event.Capture{URL: tc.url, RecordType: "response", Status: 200, ContentType: tc.ct, Body: []byte(tc.body)}
		if got := NeedsBody(c); got != tc.want {
			t.Errorf("NeedsBody(%s %s %q) = %v, want %v", tc.url, tc.ct, tc.body, got, tc.want)
		}
	}
}

func TestRedirectTarget(t *testing.T) {
	for _, tc := range []struct {
		url    string
		status int
		loc    string
		want   string
	}{
		{"http://a.example/robots.txt", 301, "https://www.a.example/robots.txt", "https://www.a.example/robots.txt"},
		{"http://a.example/robots.txt", 302, "/robots-2.txt", "http://a.example/robots-2.txt"},
		{"http://A.example:80/robots.txt", 308, "HTTPS://B.example:443/robots.txt", "https://b.example/robots.txt"},
		{"http://a.example/robots.txt", 304, "/x", ""},
		{"http://a.example/robots.txt", 200, "/x", ""},
		{"http://a.example/robots.txt", 301, "", ""},
		{"http://a.example/page", 301, "/robots.txt", ""}, // not robots-like: never a version or hop
	} {
		c := &event.Capture{URL: tc.url, RecordType: "response", Status: tc.status}
		if tc.loc != "" {
			c.Header = event.Header{{Name: "Location", Value: tc.loc}}
		}
		got, _ := RedirectTarget(c)
		if got != tc.want {
			t.Errorf("RedirectTarget(%s %d %s) = %q, want %q", tc.url, tc.status, tc.loc, got, tc.want)
		}
	}
}

func TestNeedsHeader(t *testing.T) {
	for _, tc := range []struct {
		h    event.Header
		want bool
	}{
		{nil, false},
		{event.Header{{Name: "User-Agent", Value: "x"}}, false},
		{event.Header{{Name: "signature", Value: "sig1=:AA==:"}}, true},
		{event.Header{{Name: "Signature-Input", Value: `sig1=("@authority")`}}, true},
		{event.Header{{Name: "Signature-Agent", Value: `"https://a.example"`}}, false},
	} {
		if got := NeedsHeader(&event.Fetch{Header: tc.h}); got != tc.want {
			t.Errorf("NeedsHeader(%v) = %v, want %v", tc.h, got, tc.want)
		}
	}
}

// TestPartitionedArchiveCrawlerIsTheFiles: a WARC file's crawler is the
// most frequent bot among the request records of the whole file, also in
// a partition that holds only another bot's records of that file.
func TestPartitionedArchiveCrawlerIsTheFiles(t *testing.T) {
	s := newScenario(t)
	// crawl.warc.gz: three GPTBot request records on www.example.com and
	// one CCBot record on other.example, whose robots.txt and a page under
	// it are captured in the same file: they are GPTBot's fetches.
	s.robots("https://other.example/robots.txt", days(0), 200, "User-agent: GPTBot\nDisallow: /\n")
	s.capture("https://other.example/page", days(1), 200, "<html><body>page</body></html>")
	req := func(ua, host, target string, i int) {
		s.line++
		s.fetches = append(s.fetches, &event.Fetch{
			Time: days(1), Method: "GET", Scheme: "https", Host: host, Target: target, Status: 200, Bytes: -1,
			UserAgent: ua, Origin: event.OriginWARC, Format: "warc", RecordID: "<urn:uuid:req-" + itoa(i) + ">",
			SignatureRecorded: true, Source: event.Source{File: "crawl.warc.gz", Offset: 900000 + int64(i), Length: 10},
		})
	}
	for i := range 3 {
		req(uaGPTBot, "www.example.com", "/p"+itoa(i), i)
	}
	req(uaCCBot, "other.example", "/page", 3)

	s.run()
	found := false
	for _, v := range s.out.Violations {
		found = found || v.Kind == "captured_while_disallowed" && v.Agent == "GPTBot"
	}
	if !found {
		t.Fatalf("scenario: no captured_while_disallowed by GPTBot, the file's crawler: %+v", s.out.Violations)
	}
	got := s.runPartitioned()
	sameRows(t, "fetches", got.Fetches, s.out.Fetches)
	sameRows(t, "violations", got.Violations, s.out.Violations)
	sameRows(t, "robots_versions", got.RobotsVersions, s.out.RobotsVersions)
	sameRows(t, "retention", got.Retentions, s.out.Retentions)
	sameRows(t, "problems", got.Problems, s.out.Problems)
}
