package evaluate

import (
	"strings"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// retWant is one expected retention row.
type retWant struct {
	c      *event.Capture
	action string
	reason string
	due    string
}

func checkRetention(t *testing.T, s *scenario, wants []retWant) {
	t.Helper()
	for _, w := range wants {
		r := s.retention(w.c.URL, w.c.Time)
		due := ""
		if r.DueDate != nil {
			due = fmtTime(*r.DueDate)
		}
		if r.Action != w.action || r.Reason != w.reason || due != w.due {
			t.Errorf("%s at %s: got %s %s due %q, want %s %s due %q\n  evidence: %s", w.c.URL, fmtTime(w.c.Time),
				r.Action, r.Reason, due, w.action, w.reason, w.due, r.Evidence)
		}
	}
}

// TestRetentionACAPUsages: present-oldcopy and present-currentcopy
// (ACAP 1.0 §2.5.5.1.2–3) with their time-limits, the present qualifiers
// prohibited-modification and must-include-resource (§2.5.5.2.4–5), and
// crawl prohibitions (§2.5.1).
func TestRetentionACAPUsages(t *testing.T) {
	s := newScenario(t)
	s.opts.AsOf = days(10)
	s.opts.ArchiveAgent = "CCBot"
	s.robots(site+"/robots.txt", t0, 200, strings.Join([]string{
		"User-agent: *", "Disallow: /private/", "",
		"ACAP-crawler: *",
		"ACAP-disallow-present-oldcopy: /old/",
		"ACAP-disallow-present-currentcopy: /cur/",
		"ACAP-allow-present-oldcopy: /oldlimit/ time-limit=3-days",
		"ACAP-allow-present-currentcopy: /curlimit/ time-limit=until-2025-03-20",
		"ACAP-allow-present: /mod/ prohibited-modification=format prohibited-modification=translation",
		"ACAP-allow-present: /incl/ must-include-resource=the-acap:credit:class:byline",
		"ACAP-disallow-crawl: /nocrawl/",
		"ACAP-disallow-present: /both/",
		"ACAP-allow-present-oldcopy: /both/",
	}, "\n"))
	old1 := s.capture(site+"/old/a", hours(1), 200, "x")
	old2 := s.capture(site+"/old/a", hours(50), 200, "y")
	cur1 := s.capture(site+"/cur/a", hours(1), 200, "x")
	cur2 := s.capture(site+"/cur/a", hours(50), 200, "y")
	ol1 := s.capture(site+"/oldlimit/a", hours(1), 200, "x")
	ol2 := s.capture(site+"/oldlimit/a", days(8), 200, "y")
	cl := s.capture(site+"/curlimit/a", hours(1), 200, "x")
	mod := s.capture(site+"/mod/a", hours(1), 200, "x")
	incl := s.capture(site+"/incl/a", hours(1), 200, "x")
	nocrawl := s.capture(site+"/nocrawl/a", hours(1), 200, "x")
	both1 := s.capture(site+"/both/a", hours(1), 200, "x")
	both2 := s.capture(site+"/both/a", hours(2), 200, "y")
	// A revisit as the newest capture: the response it names is the
	// current copy too.
	rv1 := s.capture(site+"/old/r", hours(1), 200, "x")
	rv2 := s.capture(site+"/old/r", hours(3), 200, "")
	rv2.RecordType, rv2.RefersTo = "revisit", rv1.RecordID
	s.run()

	checkRetention(t, s, []retWant{
		{old1, ActionEmbargo, ReasonOldcopyForbidden, "2025-03-01T01:00:00Z"},
		{old2, ActionKeep, ReasonNoRestriction, ""},
		{cur1, ActionKeep, ReasonNoRestriction, ""},
		{cur2, ActionEmbargo, ReasonCurrentcopyForbidden, "2025-03-03T02:00:00Z"},
		{ol1, ActionEmbargo, ReasonPresentLimit, "2025-03-04T01:00:00Z"},
		{ol2, ActionKeep, ReasonNoRestriction, ""},
		{cl, ActionKeep, ReasonPresentLimit, "2025-03-21T00:00:00Z"},
		{mod, ActionReview, ReasonNoModification, "2025-03-01T01:00:00Z"},
		{incl, ActionReview, ReasonMustInclude, "2025-03-01T01:00:00Z"},
		{nocrawl, ActionReview, ReasonACAPCrawlForbidden, "2025-03-01T01:00:00Z"},
		// The field naming the derived usage wins over present on the
		// same pattern: the old copy may be shown, the current one not.
		{both1, ActionKeep, ReasonNoRestriction, ""},
		{both2, ActionEmbargo, ReasonPresentForbidden, "2025-03-01T02:00:00Z"},
		{rv1, ActionKeep, ReasonNoRestriction, ""},
		{rv2, ActionKeep, ReasonNoRestriction, ""},
	})
	contains(t, "oldcopy evidence", s.retention(old1.URL, old1.Time).Evidence,
		`"ACAP-disallow-present-oldcopy: /old/" prohibits present-oldcopy of https://example.com/old/a captured 2025-03-01T01:00:00Z`)
	contains(t, "currentcopy evidence", s.retention(cur2.URL, cur2.Time).Evidence,
		`prohibits present-currentcopy of https://example.com/cur/a captured 2025-03-03T02:00:00Z`)
	contains(t, "limit evidence", s.retention(ol1.URL, ol1.Time).Evidence,
		"permits present-oldcopy with time-limit 3-days", "expired as of 2025-03-11T00:00:00Z")
	contains(t, "modification evidence", s.retention(mod.URL, mod.Time).Evidence,
		"only without modification (format, translation): a replay that rewrites the page modifies it")
	contains(t, "include evidence", s.retention(incl.URL, incl.Time).Evidence,
		"only with the-acap:credit:class:byline included")
	contains(t, "crawl evidence", s.retention(nocrawl.URL, nocrawl.Time).Evidence, `"ACAP-disallow-crawl: /nocrawl/"`)
	// The crawl prohibition is a finding of the capture's fetch as before.
	found := false
	for _, v := range s.violations(KindACAPProhibited) {
		found = found || v.URL == nocrawl.URL
	}
	if !found {
		t.Errorf("no acap_prohibited finding for %s", nocrawl.URL)
	}
}

// TestRetentionTakeDownHistory: a take-down request (ACAP 1.0 §2.6.1)
// that was withdrawn leaves a keep row saying so; one made again stands
// with its earlier history; one withdrawn before the capture was taken
// is no part of its history.
func TestRetentionTakeDownHistory(t *testing.T) {
	s := newScenario(t)
	s.opts.AsOf = days(10)
	s.opts.ArchiveAgent = "CCBot"
	s.robots(site+"/robots.txt", t0, 200,
		"ACAP-crawler: *\nACAP-request-take-down: /td/a\nACAP-request-take-down: /td/b\nACAP-request-take-down: /td/c\n")
	s.robots(site+"/robots.txt", days(2), 200, "ACAP-crawler: *\nACAP-allow-crawl: /\n")
	s.robots(site+"/robots.txt", days(4), 200, "ACAP-crawler: *\nACAP-request-take-down: /td/b\n")
	a := s.capture(site+"/td/a", hours(1), 200, "x")
	b := s.capture(site+"/td/b", hours(1), 200, "x")
	c := s.capture(site+"/td/c", days(3), 200, "x")
	s.run()

	checkRetention(t, s, []retWant{
		{a, ActionKeep, ReasonTakeDownWithdrawn, ""},
		{b, ActionDelete, ReasonACAPTakeDown, "2025-03-05T00:00:00Z"},
		{c, ActionKeep, ReasonNoRestriction, ""},
	})
	contains(t, "withdrawn evidence", s.retention(a.URL, a.Time).Evidence,
		`take-down requested by line 2 "ACAP-request-take-down: /td/a" of example.com@2025-03-01T00:00:00Z#`,
		", withdrawn by example.com@2025-03-03T00:00:00Z#", "(success, in force from 2025-03-03T00:00:00Z)",
		"no take-down request stands for https://example.com/td/a captured 2025-03-01T01:00:00Z (crawl.warc.gz@3000) as of 2025-03-11T00:00:00Z")
	contains(t, "standing evidence", s.retention(b.URL, b.Time).Evidence,
		`"ACAP-request-take-down: /td/b" requests take-down of`,
		`; earlier take-down requested by line 3 "ACAP-request-take-down: /td/b" of example.com@2025-03-01T00:00:00Z#`)
	var tds int
	for _, v := range s.violations(KindACAPProhibited) {
		if strings.Contains(v.URL, "/td/") {
			tds++
		}
	}
	if tds != 1 {
		t.Errorf("take-down findings = %d, want 1 (the standing request)", tds)
	}
}

// TestRetentionArchiveEmbargo: the Archive-Embargo header embargoes a
// capture for its period from the earlier of Last-Modified and the URL's
// first capture; a malformed value is a problem at the capture.
func TestRetentionArchiveEmbargo(t *testing.T) {
	s := newScenario(t)
	s.opts.AsOf = days(10)
	s.opts.ArchiveAgent = "CCBot"
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow:\n")
	week := s.capture(site+"/e/week", days(5), 200, "x", "Archive-Embargo", "w")
	past := s.capture(site+"/e/past", hours(1), 200, "x", "Archive-Embargo", "w")
	lm := s.capture(site+"/e/lm", days(9), 200, "x", "Archive-Embargo", "m", "Last-Modified", "Wed, 01 Jan 2025 00:00:00 GMT")
	quarter := s.capture(site+"/e/q", days(9), 200, "x", "Archive-Embargo", "q", "Last-Modified", "Wed, 01 Jan 2025 00:00:00 GMT")
	s.capture(site+"/e/first", hours(1), 200, "x")
	first := s.capture(site+"/e/first", days(6), 200, "y", "Archive-Embargo", "w")
	bad := s.capture(site+"/e/bad", hours(1), 200, "x", "Archive-Embargo", "w, 7d")
	worse := s.capture(site+"/e/worse", hours(1), 200, "x", "Archive-Embargo", "year")
	s.run()

	checkRetention(t, s, []retWant{
		{week, ActionEmbargo, ReasonArchiveEmbargo, "2025-03-06T00:00:00Z"},
		{past, ActionKeep, ReasonArchiveEmbargo, ""},
		{lm, ActionKeep, ReasonArchiveEmbargo, ""},
		{quarter, ActionEmbargo, ReasonArchiveEmbargo, "2025-01-01T00:00:00Z"},
		{first, ActionKeep, ReasonArchiveEmbargo, ""},
		{bad, ActionKeep, ReasonArchiveEmbargo, ""},
		{worse, ActionKeep, ReasonNoRestriction, ""},
	})
	contains(t, "week evidence", s.retention(week.URL, week.Time).Evidence,
		"Archive-Embargo: w on https://example.com/e/week captured 2025-03-06T00:00:00Z",
		"7 days from 2025-03-06T00:00:00Z (this capture), until 2025-03-13T00:00:00Z: show only a tombstone")
	contains(t, "lm evidence", s.retention(quarter.URL, quarter.Time).Evidence,
		"90 days from 2025-01-01T00:00:00Z (its Last-Modified), until 2025-04-01T00:00:00Z")
	contains(t, "first evidence", s.retention(first.URL, first.Time).Evidence,
		"(the first capture of the URL in the inputs (crawl.warc.gz@", "passed as of 2025-03-11T00:00:00Z")
	var probs []string
	for _, p := range s.out.Problems {
		if p.Code == string(problem.ArchiveEmbargoMalformed) {
			probs = append(probs, p.SourceFile+"@"+itoa(int(p.Offset))+" "+p.Message)
		}
	}
	want := []string{
		"crawl.warc.gz@" + itoa(int(bad.Source.Offset)) + ` https://example.com/e/bad: Archive-Embargo: byte 3: member "7d" is not w, m or q (value "w, 7d")`,
		"crawl.warc.gz@" + itoa(int(worse.Source.Offset)) + ` https://example.com/e/worse: Archive-Embargo: byte 0: member "year" is not w, m or q (value "year")`,
	}
	if strings.Join(probs, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(probs, "\n"), strings.Join(want, "\n"))
	}
}
