package evaluate

import (
	"net/netip"
	"slices"
	"testing"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
)

// FuzzJudge feeds arbitrary robots.txt bodies, statuses, Location and
// Robots-Tag values, User-Agents and request targets through both passes:
// nothing may panic and every row must use the documented values.
func FuzzJudge(f *testing.F) {
	f.Add("User-agent: *\nDisallow: /a\nCrawl-delay: 1\n", 200, "", uaGPTBot, "/a/b", "noindex", "sig1=:AAAA:")
	f.Add("ACAP-crawler: *\nACAP-disallow-crawl: /\nACAP-request-take-down: /x\n", 200, "", uaCCBot, "/x", "unavailable_after: 2025-03-02", "")
	f.Add("", 301, "/robots.txt", uaBrowser, "/", "", "")
	f.Add("", 503, "", "Mozilla/5.0 (compatible; X/1)", "http://example.com/robots.txt", "googlebot: none", "")
	f.Add("\xff\xfe\x00", 0, "//evil/robots.txt", "", "?", "*;noindex", `sig1=("@authority");created=1;keyid="x"`)
	cat := bots.Default()
	f.Fuzz(func(t *testing.T, body string, status int, loc, ua, target, robotsTag, sigInput string) {
		b := NewBuilder(Options{AsOf: days(3)}, cat, nil)
		c := &event.Capture{Time: t0, URL: site + "/robots.txt", RecordType: "response", Status: status, Body: []byte(body),
			Header: event.Header{{Name: "Location", Value: loc}}, Source: event.Source{File: "w", Offset: 0}}
		b.AddCapture(c)
		b.AddCapture(&event.Capture{Time: t0, URL: site + "/robots-b.txt", RecordType: "response", Status: 302,
			Header: event.Header{{Name: "Location", Value: loc}}, Source: event.Source{File: "w", Offset: 1}})
		b.AddCapture(&event.Capture{Time: hours(1), URL: site + target, RecordType: "revisit", Status: status,
			Header: event.Header{{Name: "Robots-Tag", Value: robotsTag}, {Name: "X-Robots-Tag", Value: robotsTag}}, Body: []byte(body),
			Source: event.Source{File: "w", Offset: 2}})
		fe := &event.Fetch{Time: hours(2), ClientIP: netip.MustParseAddr("192.0.2.1"), Method: "GET", Scheme: "https",
			Host: "example.com", Target: target, Status: status, UserAgent: ua, SignatureRecorded: true,
			Header: event.Header{{Name: "Signature-Input", Value: sigInput}, {Name: "Signature", Value: sigInput}}, Origin: event.OriginWARC,
			Source: event.Source{File: "w", Offset: 3}}
		rf := *fe
		rf.Target, rf.Time = "/robots.txt", hours(1.5)
		b.AddFetch(&rf)
		b.AddFetch(fe)
		b.AddIndexEntry(ListingEntry{URL: site + target, Time: hours(3)})
		b.AddSnippetEntry(ListingEntry{URL: site + target})
		m := b.Build()
		tr := m.NewTracker()
		for _, x := range []*event.Fetch{&rf, fe} {
			j := m.Judge(x)
			tr.Observe(&j)
			if !slices.Contains([]string{string(VerdictAllowed), string(VerdictDisallowed), string(VerdictUnreachable), string(VerdictPossible), string(VerdictNotJudged)}, j.Fetch.RobotsVerdict) {
				t.Fatalf("verdict %q", j.Fetch.RobotsVerdict)
			}
			if !slices.Contains([]string{"", string(ViewFresh), string(ViewStale), string(ViewUnchecked), string(ViewNone)}, j.Fetch.RobotsView) {
				t.Fatalf("view %q", j.Fetch.RobotsView)
			}
			if int(j.Fetch.Findings) != len(j.Violations) {
				t.Fatalf("findings %d, violations %d", j.Fetch.Findings, len(j.Violations))
			}
			for _, v := range j.Violations {
				if !slices.Contains(Kinds, v.Kind) || v.Evidence == "" {
					t.Fatalf("violation %+v", v)
				}
			}
		}
		if err := m.WriteTables(discard{}); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzSplitPlainURL holds splitURL's shortcut for plain URLs to what
// url.Parse makes of them.
func FuzzSplitPlainURL(f *testing.F) {
	for _, s := range []string{
		"https://host-000.example/robots.txt", "http://a.example", "http://a.example/",
		"http://a.example.", "http://.example/", "https://a.example/x?y", "http://A.example/",
		"http://a.example:80/", "http://a.example/%41", "http://a.example//x/./y~_", "https://x/-",
		"http://", "https:///x", "http://a.example#f", " http://a.example/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		a1, h1, t1, ok1 := splitPlainURL(raw)
		if !ok1 {
			return
		}
		a2, h2, t2, ok2 := parseSplitURL(raw)
		if !ok2 || a1 != a2 || h1 != h2 || t1 != t2 {
			t.Fatalf("splitPlainURL(%q) = %q %q %q; url.Parse gives %q %q %q %v", raw, a1, h1, t1, a2, h2, t2, ok2)
		}
	})
}
