package evaluate

import (
	"github.com/repaudit/repaudit/table"
	"strings"
	"testing"
)

const site = "https://example.com"

func TestFreshViewDisallowedFetch(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: GPTBot\nDisallow: /private/\n")
	s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200)
	bad := s.fetch(uaGPTBot, site+"/private/x", hours(2), 200)
	ok := s.fetch(uaGPTBot, site+"/public", hours(2), 200)
	s.run()

	j := s.expect(bad, ViewFresh, VerdictDisallowed, KindDisallowedFetch)
	if j.Fetch.MatchedRule != "Disallow: /private/" || j.Fetch.MatchedLine != 2 || j.Fetch.MatchedGroup != "GPTBot" {
		t.Errorf("matched = %q line %d group %q", j.Fetch.MatchedRule, j.Fetch.MatchedLine, j.Fetch.MatchedGroup)
	}
	if j.Fetch.RobotsViewTime == nil || !j.Fetch.RobotsViewTime.Equal(hours(1)) || j.Fetch.RobotsViewStatus != 200 {
		t.Errorf("view time %v status %d, want %v 200", j.Fetch.RobotsViewTime, j.Fetch.RobotsViewStatus, hours(1))
	}
	if !strings.HasPrefix(j.Fetch.RobotsVersionID, "example.com@2025-03-01T00:00:00Z#") {
		t.Errorf("version id = %q", j.Fetch.RobotsVersionID)
	}
	v := j.Violations[0]
	contains(t, "evidence", v.Evidence,
		"robots.txt https://example.com/robots.txt captured 2025-03-01T00:00:00Z (crawl.warc.gz@0, status 200",
		`group "GPTBot" (line 1), line 2 "Disallow: /private/" matches /private/x`,
		"GPTBot (any client claiming it: its identity could not be checked) last fetched robots.txt 2025-03-01T01:00:00Z (access.log:1, status 200)")
	if v.Severity != SeverityHigh || v.Operator != "OpenAI" || v.Identity != string(IdentityClaimed) || v.SourceLine != 2 || v.RobotsWARCFile != "crawl.warc.gz" || v.RobotsWARCOffset != 0 {
		t.Errorf("violation = %+v", v)
	}
	s.expect(ok, ViewFresh, VerdictAllowed)

	var rules []string
	for _, r := range s.out.RobotsRules {
		if r.VersionID != j.Fetch.RobotsVersionID {
			t.Errorf("rule of version %q", r.VersionID)
		}
		rules = append(rules, itoa(int(r.Line))+" "+r.Kind+" "+r.Group+" "+r.Value)
	}
	if got, want := strings.Join(rules, "|"), "1 user-agent GPTBot GPTBot|2 disallow GPTBot /private/"; got != want {
		t.Errorf("robots_rules = %q, want %q", got, want)
	}
	if vs := s.out.RobotsVersions; len(vs) != 1 || vs[0].Rules != 1 || vs[0].Groups != 1 || vs[0].ValidUntil != nil || vs[0].WARCRecordID == "" {
		t.Errorf("robots_versions = %+v", vs)
	}
}

// A group for the bot that does not repeat *'s rules: the bot is bound
// by its own group only (RFC 9309 §2.2.1).
func TestOwnGroupReplacesStar(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow: /a/\n\nUser-agent: GPTBot\nDisallow: /b/\n")
	s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200)
	s.fetch(uaCCBot, site+"/robots.txt", hours(1), 200)
	gA := s.fetch(uaGPTBot, site+"/a/x", hours(2), 200)
	gB := s.fetch(uaGPTBot, site+"/b/x", hours(2), 200)
	cA := s.fetch(uaCCBot, site+"/a/x", hours(2), 200)
	cB := s.fetch(uaCCBot, site+"/b/x", hours(2), 200)
	s.run()
	s.expect(gA, ViewFresh, VerdictAllowed)
	s.expect(gB, ViewFresh, VerdictDisallowed, KindDisallowedFetch)
	j := s.expect(cA, ViewFresh, VerdictDisallowed, KindDisallowedFetch)
	if j.Fetch.MatchedGroup != "*" {
		t.Errorf("CCBot group = %q, want *", j.Fetch.MatchedGroup)
	}
	s.expect(cB, ViewFresh, VerdictAllowed)
}

func TestStaleView(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow: /old/\n")
	s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200)
	s.robots(site+"/robots.txt", hours(10), 200, "User-agent: *\nDisallow: /new/\nDisallow: /old/keep/\n")
	newDis := s.fetch(uaGPTBot, site+"/new/x", hours(30), 200)
	bothDis := s.fetch(uaGPTBot, site+"/old/keep/x", hours(30.5), 200)
	stillOK := s.fetch(uaGPTBot, site+"/other", hours(31), 200)
	oldOnly := s.fetch(uaGPTBot, site+"/old/x", hours(32), 200)
	fresh := s.fetch(uaGPTBot, site+"/new/y", hours(5), 200)
	s.run()
	j := s.expect(newDis, ViewStale, VerdictDisallowed, KindStaleRobots)
	contains(t, "evidence", j.Violations[0].Evidence, "29h before this request: older than the 24h cache lifetime", `"Disallow: /new/"`)
	if j.Violations[0].Severity != SeverityMedium {
		t.Errorf("severity = %q", j.Violations[0].Severity)
	}
	// Its old copy forbade the URL and the version in force does too:
	// the bot fetched what it was told not to, so its copy's age excuses
	// nothing. The finding rests on the copy; the evidence names both.
	j = s.expect(bothDis, ViewStale, VerdictDisallowed, KindDisallowedFetch)
	contains(t, "both", j.Violations[0].Evidence, `line 2 "Disallow: /old/" matches /old/keep/x`,
		"older than the 24h cache lifetime (RFC 9309 §2.4), but that copy disallows the URL, and so does the version in force at the request: robots.txt",
		`line 3 "Disallow: /old/keep/" matches /old/keep/x`)
	if v := j.Violations[0]; v.Severity != SeverityHigh || v.MatchedLine != 2 {
		t.Errorf("both: severity %q, matched line %d; want high, line 2 of the bot's copy", v.Severity, v.MatchedLine)
	}
	// A stale view that still allows: no finding.
	s.expect(stillOK, ViewStale, VerdictAllowed)
	// Its old copy forbade /old/, but the version in force allows it.
	s.expect(oldOnly, ViewStale, VerdictAllowed)
	// Within the ttl the bot's own (older) version decides: /new/ was allowed then.
	s.expect(fresh, ViewFresh, VerdictAllowed)
}

// A 503 to the bot is a complete disallow for the bot even though the
// archive captured a 200.
func TestUnreachableSeenOnlyByBot(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow:\n")
	s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 503)
	f := s.fetch(uaGPTBot, site+"/page", hours(2), 200)
	rt := s.fetch(uaGPTBot, site+"/robots.txt", hours(2.5), 503)
	s.run()
	j := s.expect(f, ViewFresh, VerdictUnreachable, KindFetchWhileUnreachable)
	v := j.Violations[0]
	contains(t, "evidence", v.Evidence, "GPTBot (any client claiming it: its identity could not be checked) got status 503 for https://example.com/robots.txt at 2025-03-01T01:00:00Z (access.log:1): unreachable, complete disallow",
		"the archive's version in force then was example.com@2025-03-01T00:00:00Z#")
	if v.RobotsStatus != 503 || j.Fetch.RobotsViewStatus != 503 {
		t.Errorf("robots status = %d / %d, want 503", v.RobotsStatus, j.Fetch.RobotsViewStatus)
	}
	// robots.txt itself is always allowed.
	s.expect(rt, ViewFresh, VerdictAllowed)
}

// 304 keeps the bot's previous version.
func TestNotModifiedKeepsPreviousVersion(t *testing.T) {
	s := newScenario(t)
	v1 := s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow: /a/\n")
	s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200)
	s.robots(site+"/robots.txt", hours(2), 200, "User-agent: *\nDisallow: /b/\n")
	s.fetch(uaGPTBot, site+"/robots.txt", hours(3), 304)
	a := s.fetch(uaGPTBot, site+"/a/x", hours(4), 200)
	b := s.fetch(uaGPTBot, site+"/b/x", hours(4), 200)
	s.run()
	j := s.expect(a, ViewFresh, VerdictDisallowed, KindDisallowedFetch)
	if !strings.Contains(j.Fetch.RobotsVersionID, v1.Time.Format("2006-01-02T15:04:05Z")) || j.Fetch.RobotsViewStatus != 304 {
		t.Errorf("version %q status %d, want the first version and 304", j.Fetch.RobotsVersionID, j.Fetch.RobotsViewStatus)
	}
	contains(t, "evidence", j.Violations[0].Evidence, "304 Not Modified keeps the version of its previous fetch (2025-03-01T01:00:00Z)")
	s.expect(b, ViewFresh, VerdictAllowed)
}

func TestUnavailable4xxAllowsAll(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 404, "not found")
	unchecked := s.fetch(uaGPTBot, site+"/x", hours(1), 200)
	s.fetch(uaCCBot, site+"/robots.txt", hours(1), 410)
	own := s.fetch(uaCCBot, site+"/y", hours(2), 200)
	s.run()
	s.expect(unchecked, ViewUnchecked, VerdictAllowed)
	s.expect(own, ViewFresh, VerdictAllowed)
	rows := s.versionRows(site)
	if len(rows) != 1 || rows[0].Effect != "allow_all" || rows[0].StatusRule != "unavailable" {
		t.Errorf("versions = %+v", rows)
	}
}

// 5xx for longer than 30 days: treated as unavailable from that point.
func TestUnreachableThirtyDays(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 503, "")
	s.robots(site+"/robots.txt", days(10), 500, "")
	s.robots(site+"/robots.txt", days(40), 200, "User-agent: *\nDisallow: /x\n")
	early := s.fetch(uaGPTBot, site+"/a", days(5), 200)
	late := s.fetch(uaGPTBot, site+"/a", days(35), 200)
	after := s.fetch(uaGPTBot, site+"/x", days(41.5), 200)
	s.run()
	j := s.expect(early, ViewUnchecked, VerdictUnreachable, KindUncheckedDisallowed)
	contains(t, "evidence", j.Violations[0].Evidence, "unreachable, complete disallow (RFC 9309 §2.3.1.4)")
	j = s.expect(late, ViewUnchecked, VerdictAllowed)
	if !strings.HasSuffix(j.Fetch.RobotsVersionID, "+unavailable") {
		t.Errorf("version = %q, want the 30-day segment", j.Fetch.RobotsVersionID)
	}
	s.expect(after, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)

	rows := s.versionRows(site)
	var rules []string
	for _, r := range rows {
		rules = append(rules, r.StatusRule+"/"+r.Effect)
	}
	want := "unreachable/disallow_all unreachable/disallow_all unreachable-30d-unavailable/allow_all success/rules"
	if strings.Join(rules, " ") != want {
		t.Errorf("status rules = %q, want %q", strings.Join(rules, " "), want)
	}
	if seg := rows[2]; !seg.ValidFrom.Equal(days(30)) || seg.ValidUntil == nil || !seg.ValidUntil.Equal(days(40)) {
		t.Errorf("segment interval = %v..%v, want day 30..40", seg.ValidFrom, seg.ValidUntil)
	}
}

// A bot's own 5xx view is treated as unavailable after 30 days too.
func TestBotUnreachableThirtyDays(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow:\n")
	s.fetch(uaGPTBot, site+"/robots.txt", days(1), 503)
	s.fetch(uaGPTBot, site+"/robots.txt", days(20), 503)
	s.fetch(uaGPTBot, site+"/robots.txt", days(31.5), 503)
	f := s.fetch(uaGPTBot, site+"/a", days(31.6), 200)
	s.run()
	s.expect(f, ViewFresh, VerdictAllowed)
}

func TestFetchBeforeFirstCapture(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", hours(10), 200, "User-agent: *\nDisallow: /\n")
	f := s.fetch(uaGPTBot, site+"/x", hours(5), 200)
	other := s.fetch(uaGPTBot, "https://other.example/x", hours(5), 200)
	s.run()
	j := s.expect(f, ViewNone, VerdictNotJudged)
	if j.Fetch.RobotsVersionID != "" || !strings.Contains(j.NotJudgedReason, "no robots.txt version") {
		t.Errorf("version = %q, reason %q, want none", j.Fetch.RobotsVersionID, j.NotJudgedReason)
	}
	s.expect(other, ViewNone, VerdictNotJudged)
}

// The bot fetched robots.txt (200) before any capture: content unknown.
func TestBotFetchBeforeFirstCapture(t *testing.T) {
	s := newScenario(t)
	s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200)
	s.robots(site+"/robots.txt", hours(10), 200, "User-agent: *\nDisallow: /\n")
	f := s.fetch(uaGPTBot, site+"/x", hours(5), 200)
	s.run()
	s.expect(f, ViewNone, VerdictNotJudged)
}

func TestGraceWindow(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow: /x\n")
	s.robots(site+"/robots.txt", hours(10), 200, "User-agent: *\nDisallow:\n")
	s.robots(site+"/robots.txt", hours(50), 200, "User-agent: *\nDisallow: /y\n")
	s.robots(site+"/robots.txt", hours(60), 200, "User-agent: *\nDisallow: /y/\n")
	some := s.fetch(uaGPTBot, site+"/x", hours(20), 200)
	none := s.fetch(uaGPTBot, site+"/x", hours(40), 200)
	all := s.fetch(uaGPTBot, site+"/y/z", hours(75), 200)
	s.run()
	j := s.expect(some, ViewUnchecked, VerdictPossible, KindPossibleViolation)
	contains(t, "evidence", j.Violations[0].Evidence, "1 of 2 robots.txt versions in force during the 24h before it disallow /x",
		"GPTBot (any client claiming it: its identity could not be checked) never fetched https://example.com/robots.txt before this request")
	if j.Violations[0].Severity != SeverityLow {
		t.Errorf("severity = %q", j.Violations[0].Severity)
	}
	s.expect(none, ViewUnchecked, VerdictAllowed)
	j = s.expect(all, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	contains(t, "evidence", j.Violations[0].Evidence, "2 of 2 robots.txt versions")
	if j.Fetch.MatchedRule != "Disallow: /y/" {
		t.Errorf("matched = %q, want the version in force", j.Fetch.MatchedRule)
	}
}

func TestRobotsRedirects(t *testing.T) {
	s := newScenario(t)
	// http://example.com/robots.txt -> https://www.example.com/robots.txt
	s.robots("http://example.com/robots.txt", t0, 301, "", "Location", "https://www.example.com/robots.txt")
	s.robots("https://www.example.com/robots.txt", t0.Add(2e9), 200, "User-agent: *\nDisallow: /x\n")
	// Five redirects: followed.
	s.robots("https://five.example/robots.txt", t0, 302, "", "Location", "/r1/robots.txt")
	for i := 1; i <= 4; i++ {
		s.robots("https://five.example/r"+itoa(i)+"/robots.txt", t0, 302, "", "Location", "/r"+itoa(i+1)+"/robots.txt")
	}
	s.robots("https://five.example/r5/robots.txt", t0, 200, "User-agent: *\nDisallow: /x\n")
	// Six redirects: unavailable.
	s.robots("https://six.example/robots.txt", t0, 302, "", "Location", "/r1/robots.txt")
	for i := 1; i <= 5; i++ {
		s.robots("https://six.example/r"+itoa(i)+"/robots.txt", t0, 302, "", "Location", "/r"+itoa(i+1)+"/robots.txt")
	}
	s.robots("https://six.example/r6/robots.txt", t0, 200, "User-agent: *\nDisallow: /x\n")
	// A loop, and a target not in the inputs.
	s.robots("https://loop.example/robots.txt", t0, 302, "", "Location", "/robots-b.txt")
	s.robots("https://loop.example/robots-b.txt", t0, 302, "", "Location", "/robots.txt")
	s.robots("https://missing.example/robots.txt", t0, 302, "", "Location", "https://cdn.example/robots.txt")

	httpX := s.fetch(uaGPTBot, "http://example.com/x", hours(1), 200)
	fiveX := s.fetch(uaGPTBot, "https://five.example/x", hours(1), 200)
	sixX := s.fetch(uaGPTBot, "https://six.example/x", hours(1), 200)
	loopX := s.fetch(uaGPTBot, "https://loop.example/x", hours(1), 200)
	missX := s.fetch(uaGPTBot, "https://missing.example/x", hours(1), 200)
	s.run()

	j := s.expect(httpX, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	contains(t, "evidence", j.Violations[0].Evidence, "redirected to https://www.example.com/robots.txt captured 2025-03-01T00:00:02Z",
		"whose rules apply to the original authority")
	if !strings.HasPrefix(j.Fetch.RobotsVersionID, "http://example.com@") {
		t.Errorf("version = %q", j.Fetch.RobotsVersionID)
	}
	s.expect(fiveX, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	s.expect(sixX, ViewUnchecked, VerdictAllowed)
	s.expect(loopX, ViewUnchecked, VerdictAllowed)
	s.expect(missX, ViewUnchecked, VerdictNotJudged)

	check := func(auth, rule, effect, target string) {
		t.Helper()
		rows := s.versionRows(auth)
		if len(rows) != 1 || rows[0].StatusRule != rule || rows[0].Effect != effect || rows[0].RedirectTarget != target {
			t.Errorf("%s versions = %+v, want %s %s %s", auth, rows, rule, effect, target)
		}
	}
	check("http://example.com", "redirect", "rules", "https://www.example.com/robots.txt")
	check("https://five.example", "redirect", "rules", "https://five.example/r5/robots.txt")
	check("https://six.example", "too-many-redirects", "allow_all", "https://six.example/r5/robots.txt")
	check("https://loop.example", "redirect-loop", "allow_all", "https://loop.example/robots.txt")
	check("https://missing.example", "redirect-target-missing", "unknown", "https://cdn.example/robots.txt")
}

func TestRobotsTxtAlwaysAllowed(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow: /\n")
	f := s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200)
	g := s.fetch(uaGPTBot, site+"/robots.txt?x=1", hours(1), 200)
	s.run()
	s.expect(f, ViewFresh, VerdictAllowed)
	s.expect(g, ViewFresh, VerdictAllowed)
}

func TestBrowserNotJudged(t *testing.T) {
	s := newScenario(t)
	// A group naming a token every browser sends does not make browsers bots.
	s.robots(site+"/robots.txt", t0, 200, "User-agent: Mozilla\nDisallow: /\n\nUser-agent: *\nDisallow: /\n")
	f := s.fetch(uaBrowser, site+"/x", hours(1), 200)
	s.run()
	j := s.expect(f, "", VerdictNotJudged)
	if j.Fetch.Agent != "" || j.Fetch.Identity != "" || j.Fetch.IdentifiedBy != "" {
		t.Errorf("browser row = %+v", j.Fetch)
	}
	if n := s.fetchRows(func(f *table.Fetch) bool { return f.Agent == "" }); n != 1 {
		t.Errorf("NonBot = %d, want 1", n)
	}
}

// Identification by a robots.txt group and by the UA's bot token.
func TestIdentifiedBy(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: ExampleBot\nDisallow: /e/\n\nUser-agent: *\nDisallow: /s/\n")
	grp := s.fetch("Mozilla/5.0 (compatible; ExampleBot/0.1; +https://www.example.com/bot.html)", site+"/e/1", hours(1), 200)
	tok := s.fetch("Mozilla/5.0 (compatible; ZetaCrawler/2.0; +https://zeta.example/bot)", site+"/s/1", hours(1), 200)
	s.run()
	j := s.expect(grp, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	if j.Fetch.Agent != "ExampleBot" || j.Fetch.IdentifiedBy != "robots-group" {
		t.Errorf("agent %q by %q", j.Fetch.Agent, j.Fetch.IdentifiedBy)
	}
	j = s.expect(tok, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	if j.Fetch.IdentifiedBy != "ua-token" || j.Fetch.Agent == "" {
		t.Errorf("agent %q by %q", j.Fetch.Agent, j.Fetch.IdentifiedBy)
	}
}

func TestDefaultAuthority(t *testing.T) {
	for _, def := range []string{"", site} {
		s := newScenario(t)
		s.opts.DefaultAuthority = def
		s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow: /x\n")
		f := s.fetch(uaGPTBot, site+"/x", hours(1), 200)
		f.Host, f.Scheme = "", ""
		s.run()
		if def == "" {
			s.expect(f, "", VerdictNotJudged)
			continue
		}
		j := s.expect(f, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
		if j.Fetch.URL != site+"/x" || j.Fetch.URLHostName != "example.com" {
			t.Errorf("url %q host %q", j.Fetch.URL, j.Fetch.URLHostName)
		}
	}
}

func TestACAPCrawlProhibited(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow:\n\nACAP-crawler: *\nACAP-disallow-crawl: /paid/\n")
	f := s.fetch(uaGPTBot, site+"/paid/a", hours(1), 200)
	s.run()
	j := s.expect(f, ViewUnchecked, VerdictAllowed, KindACAPProhibited)
	if j.Fetch.ACAPCrawl != "prohibited" {
		t.Errorf("acap_crawl = %q", j.Fetch.ACAPCrawl)
	}
	v := j.Violations[0]
	contains(t, "evidence", v.Evidence, `ACAP line 5 "ACAP-disallow-crawl: /paid/" prohibits crawl of /paid/a`)
	if v.MatchedLine != 5 {
		t.Errorf("matched line = %d", v.MatchedLine)
	}
}
