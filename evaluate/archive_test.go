package evaluate

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/event"
)

func TestListings(t *testing.T) {
	s := newScenario(t)
	page := site + "/article"
	html := func(meta string) string {
		return "<html><head>" + meta + "<title>a</title></head><body>x</body></html>"
	}
	s.capture(page, t0, 200, html(""))
	s.capture(page, hours(48), 200, html(`<meta name="robots" content="noindex, nosnippet">`))
	s.capture(page, hours(96), 200, html(""))
	gpage := site + "/g"
	s.capture(gpage, t0, 200, "x", "X-Robots-Tag", "googlebot: noindex")
	s.capture(site+"/snip", t0, 200, "x", "X-Robots-Tag", "max-snippet: 0")
	src := func(n int64) event.Source { return event.Source{File: "index.csv", Line: n, Offset: -1} }
	s.index = []ListingEntry{
		{URL: page, Time: hours(24), Source: src(1)},  // before the noindex: not a finding
		{URL: page, Time: hours(72), Source: src(2)},  // under noindex
		{URL: page, Time: hours(100), Source: src(3)}, // a later capture without it supersedes
		{URL: gpage, Time: hours(1), Source: src(4)},  // googlebot-only noindex, global listing
		{URL: gpage, Time: hours(1), Agent: "Googlebot", Source: src(5)},
		{URL: site + "/never", Time: hours(1), Source: src(6)},
	}
	s.snippets = []ListingEntry{
		{URL: page, Time: hours(50), Source: event.Source{File: "snippets.csv", Line: 1}},
		{URL: site + "/snip", Source: event.Source{File: "snippets.csv", Line: 2}}, // no time: as of AsOf
	}
	s.run()

	noidx := s.violations(KindNoindexIndexed)
	var lines []int64
	for _, v := range noidx {
		lines = append(lines, v.SourceLine)
	}
	if !reflect.DeepEqual(lines, []int64{2, 5}) {
		t.Fatalf("noindex_indexed on listing lines %v, want [2 5]", lines)
	}
	contains(t, "evidence", noidx[0].Evidence, "listing index.csv:2 shows https://example.com/article at 2025-03-04T00:00:00Z",
		"the capture in force then, https://example.com/article captured 2025-03-03T00:00:00Z (crawl.warc.gz@1000, status 200)",
		`<meta name="robots" content="noindex, nosnippet">`)
	if noidx[0].Directive != `<meta name="robots" content="noindex, nosnippet">` || noidx[0].Severity != SeverityHigh {
		t.Errorf("directive %q severity %q", noidx[0].Directive, noidx[0].Severity)
	}
	if noidx[1].Agent != "Googlebot" || noidx[1].Operator != "Google" {
		t.Errorf("agent %q operator %q", noidx[1].Agent, noidx[1].Operator)
	}
	snip := s.violations(KindNosnippetSnippeted)
	if len(snip) != 2 {
		t.Fatalf("nosnippet_snippeted = %d, want 2", len(snip))
	}
	contains(t, "evidence", snip[1].Evidence, "with no time in the listing, judged as of", "max-snippet: 0")
	ms := s.model.Summary()
	if ms.ListingNoCapture != 1 || ms.ListingEntries != 8 {
		t.Errorf("listing no capture %d of %d, want 1 of 8", ms.ListingNoCapture, ms.ListingEntries)
	}
	// The directives table has one row per rule per capture.
	var dirs []string
	for _, d := range s.out.Directives {
		dirs = append(dirs, d.URL+" "+d.Token+" "+d.Rule+" "+d.Via)
	}
	want := []string{
		"https://example.com/article * noindex meta", "https://example.com/article * nosnippet meta",
		"https://example.com/g googlebot noindex x-robots-tag", "https://example.com/snip * max-snippet x-robots-tag",
	}
	if !reflect.DeepEqual(dirs, want) {
		t.Errorf("directives = %q, want %q", dirs, want)
	}
}

func TestACAPListings(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow:\n\nACAP-crawler: *\nACAP-disallow-index: /secret/\nACAP-disallow-present-snippet: /quiet/\n")
	s.capture(site+"/secret/a", t0, 200, "x")
	s.index = []ListingEntry{{URL: site + "/secret/a", Time: hours(2), Source: event.Source{File: "i", Line: 1}}}
	s.snippets = []ListingEntry{{URL: site + "/quiet/a", Time: hours(2), Source: event.Source{File: "s", Line: 1}}}
	s.run()
	vs := s.violations(KindACAPProhibited)
	if len(vs) != 2 {
		t.Fatalf("acap_prohibited = %d, want 2", len(vs))
	}
	contains(t, "evidence", vs[0].Evidence, "listing i:1 shows https://example.com/secret/a", `"ACAP-disallow-index: /secret/" prohibits index of /secret/a`)
	contains(t, "evidence", vs[1].Evidence, "prohibits present-snippet of /quiet/a")
}

func TestRetention(t *testing.T) {
	s := newScenario(t)
	s.opts.AsOf = days(10)
	s.opts.ArchiveAgent = "CCBot"
	s.robots(site+"/robots.txt", t0, 200, strings.Join([]string{
		"User-agent: *", "Disallow: /private/", "",
		"ACAP-crawler: *",
		"ACAP-allow-preserve: /news/ time-limit=until-recrawled",
		"ACAP-allow-preserve: /dated/ time-limit=until-2025-03-05",
		"ACAP-allow-preserve: /days/ time-limit=3-days",
		"ACAP-disallow-preserve: /nopreserve/",
		"ACAP-disallow-present: /nopresent/",
		"ACAP-request-take-down: /gone/page",
	}, "\n"))
	news1 := s.capture(site+"/news/a", hours(1), 200, "x")
	news2 := s.capture(site+"/news/a", hours(50), 200, "y")
	dated := s.capture(site+"/dated/a", hours(1), 200, "x")
	daysNew := s.capture(site+"/days/a", days(8), 200, "x")
	daysOld := s.capture(site+"/days/b", days(1), 200, "x")
	nopres := s.capture(site+"/nopreserve/a", hours(1), 200, "x")
	noshow := s.capture(site+"/nopresent/a", hours(1), 200, "x")
	gone := s.capture(site+"/gone/page", hours(1), 200, "x")
	plain := s.capture(site+"/plain", hours(1), 200, "x")
	ua := s.capture(site+"/ua", hours(1), 200, "x", "X-Robots-Tag", "unavailable_after: 2025-03-03")
	uaLater := s.capture(site+"/ua2", hours(1), 200, "x", "X-Robots-Tag", "unavailable_after: 2025-04-01")
	na := s.capture(site+"/na", hours(1), 200, "<html><head><meta name=robots content=noarchive></head></html>")
	priv := s.capture(site+"/private/p", hours(1), 200, "x")
	s.run()

	type want struct {
		c      *event.Capture
		action string
		reason string
		due    string
	}
	for _, w := range []want{
		{news1, ActionDelete, ReasonPreserveLimit, "2025-03-03T02:00:00Z"},
		{news2, ActionKeep, ReasonNoRestriction, ""},
		{dated, ActionDelete, ReasonPreserveLimit, "2025-03-06T00:00:00Z"},
		{daysNew, ActionKeep, ReasonPreserveLimit, "2025-03-12T00:00:00Z"},
		{daysOld, ActionDelete, ReasonPreserveLimit, "2025-03-05T00:00:00Z"},
		{nopres, ActionDelete, ReasonPreserveForbidden, "2025-03-01T01:00:00Z"},
		{noshow, ActionEmbargo, ReasonPresentForbidden, "2025-03-01T01:00:00Z"},
		{gone, ActionDelete, ReasonACAPTakeDown, "2025-03-01T00:00:00Z"},
		{plain, ActionKeep, ReasonNoRestriction, ""},
		{ua, ActionEmbargo, ReasonUnavailableAfter, "2025-03-03T00:00:00Z"},
		{uaLater, ActionKeep, ReasonUnavailableAfter, "2025-04-01T00:00:00Z"},
		{na, ActionEmbargo, ReasonNoarchive, "2025-03-01T01:00:00Z"},
		{priv, ActionReview, ReasonCapturedForbidden, "2025-03-01T01:00:00Z"},
	} {
		r := s.retention(w.c.URL, w.c.Time)
		due := ""
		if r.DueDate != nil {
			due = fmtTime(*r.DueDate)
		}
		if r.Action != w.action || r.Reason != w.reason || due != w.due {
			t.Errorf("%s: got %s %s due %q, want %s %s due %q\n  evidence: %s", w.c.URL, r.Action, r.Reason, due, w.action, w.reason, w.due, r.Evidence)
		}
		if r.Agent != "CCBot" || r.WARCFilename != "crawl.warc.gz" || r.WARCRecordOffset != w.c.Source.Offset || r.WARCRecordID != w.c.RecordID {
			t.Errorf("%s: row location %+v", w.c.URL, r)
		}
	}
	if got := len(s.out.Retentions); got != 14 { // 13 pages and the robots.txt
		t.Errorf("retention rows = %d, want 14", got)
	}
	exp := s.violations(KindRetentionExpired)
	if len(exp) != 4 {
		t.Errorf("retention_expired = %d, want 4 (news1, dated, daysOld, ua)", len(exp))
	}
	for _, v := range exp {
		if v.DueDate == nil || v.SourceFile != "crawl.warc.gz" || v.WARCRecordOffset < 0 {
			t.Errorf("retention_expired row %+v", v)
		}
	}
	contains(t, "until-recrawled evidence", s.retention(news1.URL, news1.Time).Evidence,
		`"ACAP-allow-preserve: /news/ time-limit=until-recrawled" permits preserve with time-limit until-recrawled: recrawled 2025-03-03T02:00:00Z (crawl.warc.gz@2000)`)
	if n := len(s.violations(KindACAPProhibited)); n != 3 {
		t.Errorf("acap_prohibited = %d, want 3 (preserve, present, take-down)", n)
	}
	// The unpaired capture of a disallowed URL is judged as the archive
	// crawler's fetch.
	cw := s.violations(KindCapturedWhileDisallowed)
	if len(cw) != 1 || cw[0].URL != priv.URL || cw[0].Agent != "CCBot" {
		t.Fatalf("captured_while_disallowed = %+v", cw)
	}
	contains(t, "evidence", cw[0].Evidence, "CCBot (the archive crawler) captured robots.txt 2025-03-01T00:00:00Z (crawl.warc.gz@0, status 200)", `"Disallow: /private/" matches /private/p`)
	var capRows int
	for _, f := range s.out.Fetches {
		if f.SourceFormat == "warc-capture" {
			capRows++
		}
	}
	if capRows != 14 || s.summary.CaptureFetches != 14 {
		t.Errorf("capture fetch rows = %d (%d), want 14", capRows, s.summary.CaptureFetches)
	}
}

// WARC request records tell the archive crawler; its request for a URL its
// own robots.txt view forbade is captured_while_disallowed.
func TestArchiveCrawlerRequests(t *testing.T) {
	s := newScenario(t)
	rob := s.robots(site+"/robots.txt", t0, 200, "User-agent: CCBot\nDisallow: /private/\n")
	page := s.capture(site+"/private/x", hours(1), 200, "x")
	warcReq := func(target string, c *event.Capture) *event.Fetch {
		f := s.fetch(uaCCBot, site+target, c.Time, 0)
		f.Origin, f.Format, f.SignatureRecorded = event.OriginWARC, "warc", true
		f.Source = event.Source{File: "crawl.warc.gz", Offset: c.Source.Offset + 500, Length: 50}
		f.RecordID = "<urn:uuid:req-" + target + ">"
		f.ConcurrentTo = []string{c.RecordID}
		return f
	}
	warcReq("/robots.txt", rob)
	req := warcReq("/private/x", page)
	unpaired := s.capture(site+"/private/y", hours(2), 200, "y")
	s.run()

	if a, derived := s.model.ArchiveAgent(); a != "CCBot" || !derived {
		t.Errorf("archive agent %q derived %v", a, derived)
	}
	j := s.expect(req, ViewFresh, VerdictDisallowed, KindCapturedWhileDisallowed)
	if j.Fetch.WARCRecordOffset != page.Source.Offset+500 || j.Fetch.Signature != "unsigned" {
		t.Errorf("row offset %d signature %q", j.Fetch.WARCRecordOffset, j.Fetch.Signature)
	}
	// The paired capture is not judged twice; the unpaired one is.
	var capFetches []string
	for _, f := range s.out.Fetches {
		if f.SourceFormat == "warc-capture" {
			capFetches = append(capFetches, f.URLPath)
		}
	}
	if !reflect.DeepEqual(capFetches, []string{"/private/y"}) {
		t.Errorf("capture fetch rows = %q, want only /private/y", capFetches)
	}
	if r := s.retention(unpaired.URL, unpaired.Time); r.Action != ActionReview {
		t.Errorf("unpaired retention = %s %s", r.Action, r.Reason)
	}
	if r := s.retention(page.URL, page.Time); r.Action != ActionReview {
		t.Errorf("paired retention = %s %s", r.Action, r.Reason)
	}
}

// Build does not depend on the order of Add calls, nor on how they are
// spread over goroutines.
func TestDeterminism(t *testing.T) {
	build := func(rng *rand.Rand) *scenario {
		s := newScenario(t)
		s.opts.AsOf = days(5)
		s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow: /a/\nCrawl-delay: 5\n\nACAP-crawler: *\nACAP-allow-preserve: /n/ time-limit=1-days\n")
		s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow: /b/\n") // same time, other record
		s.robots(site+"/robots.txt", hours(30), 503, "")
		s.robots("http://example.com/robots.txt", t0, 301, "", "Location", site+"/robots.txt")
		for i := range 20 {
			s.capture(site+"/n/"+itoa(i%5), hours(float64(i)), 200, "<html><head><meta name=robots content=noindex></head></html>")
			s.capture(site+"/n/"+itoa(i%5), hours(float64(i)), 200, "same time, other record")
		}
		for i := range 40 {
			ua := []string{uaGPTBot, uaCCBot, uaChatGPT, uaGooglebot}[i%4]
			if i%7 == 0 {
				s.fetch(ua, site+"/robots.txt", hours(float64(i)), []int{200, 503, 404, 304}[i%4])
			}
			s.fetch(ua, site+"/"+[]string{"a", "b", "n"}[i%3]+"/"+itoa(i), hours(float64(i)/2), 200)
		}
		for i := range 10 {
			s.index = append(s.index, ListingEntry{URL: site + "/n/" + itoa(i%5), Time: hours(float64(i * 3)), Source: event.Source{File: "i", Line: int64(i)}})
		}
		s.runOrder(rng)
		return s
	}
	ref := build(nil)
	if len(ref.out.Violations) == 0 || len(ref.out.Retentions) == 0 {
		t.Fatalf("scenario produced no findings")
	}
	for seed := range uint64(3) {
		got := build(rand.New(rand.NewPCG(seed, seed+1)))
		if !reflect.DeepEqual(got.out, ref.out) {
			for i := range ref.out.Violations {
				if i >= len(got.out.Violations) || !reflect.DeepEqual(got.out.Violations[i], ref.out.Violations[i]) {
					t.Fatalf("seed %d: violation %d differs:\n got %+v\nwant %+v", seed, i, got.out.Violations[min(i, len(got.out.Violations)-1)], ref.out.Violations[i])
				}
			}
			t.Fatalf("seed %d: output differs from the unshuffled run", seed)
		}
	}
}

// Judge is safe for concurrent use and gives the same answer on every
// goroutine.
func TestConcurrentJudge(t *testing.T) {
	m, fetches := benchModel(t)
	want := make([]Judgement, len(fetches))
	for i, f := range fetches {
		want[i] = m.Judge(f)
	}
	errs := make(chan string, 4)
	done := make(chan struct{})
	for g := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for k := range fetches {
				i := (k + g*97) % len(fetches)
				got := m.Judge(fetches[i])
				if !reflect.DeepEqual(got.Fetch, want[i].Fetch) || !reflect.DeepEqual(got.Violations, want[i].Violations) {
					errs <- fetches[i].Target
					return
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Errorf("concurrent Judge of %s differs", e)
	}
}
