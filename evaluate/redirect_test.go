package evaluate

import (
	"strings"
	"testing"
)

// TestRobotsRedirectToAnyCapture: RFC 9309 §2.3.1.2 follows up to five
// redirects and parses what it gets, wherever it is: a login page has no
// rules (allow all), a file at another path with rules gives them, and
// the chain is in robots_versions.redirect_chain. A target with no
// capture at all is still unknown.
func TestRobotsRedirectToAnyCapture(t *testing.T) {
	s := newScenario(t)
	html := "<!doctype html>\n<html><head><title>Sign in</title></head><body>Sign in</body></html>\n"
	// robots.txt -> /login (an HTML page, as Common Crawl sees on some hosts).
	s.robots("https://login.example/robots.txt", t0, 302, "", "Location", "/login?next=%2Frobots.txt")
	s.capture("https://login.example/login?next=%2Frobots.txt", t0.Add(1e9), 200, html)
	// Through two redirects at paths that are not robots-like, to a 404.
	s.robots("https://gone.example/robots.txt", t0, 301, "", "Location", "https://www.gone.example/")
	s.capture("https://www.gone.example/", t0.Add(1e9), 302, "", "Location", "/home")
	s.capture("https://www.gone.example/home", t0.Add(2e9), 404, html)
	// To rules kept at another path: they apply.
	s.robots("https://rules.example/robots.txt", t0, 301, "", "Location", "/static/policy.txt")
	s.capture("https://rules.example/static/policy.txt", t0.Add(1e9), 200, "User-agent: *\nDisallow: /x\n")
	// Six redirects at plain paths: too many (allow all).
	s.robots("https://six.example/robots.txt", t0, 302, "", "Location", "/p1")
	for i := 1; i <= 5; i++ {
		s.capture("https://six.example/p"+itoa(i), t0, 302, "", "Location", "/p"+itoa(i+1))
	}
	s.capture("https://six.example/p6", t0, 200, "User-agent: *\nDisallow: /x\n")
	// A loop through a plain path.
	s.robots("https://loop.example/robots.txt", t0, 302, "", "Location", "/a")
	s.capture("https://loop.example/a", t0, 302, "", "Location", "/robots.txt")
	// A target with no capture at all.
	s.robots("https://missing.example/robots.txt", t0, 302, "", "Location", "/nowhere")

	loginX := s.fetch(uaGPTBot, "https://login.example/x", hours(1), 200)
	goneX := s.fetch(uaGPTBot, "https://gone.example/x", hours(1), 200)
	rulesX := s.fetch(uaGPTBot, "https://rules.example/x", hours(1), 200)
	sixX := s.fetch(uaGPTBot, "https://six.example/x", hours(1), 200)
	loopX := s.fetch(uaGPTBot, "https://loop.example/x", hours(1), 200)
	missX := s.fetch(uaGPTBot, "https://missing.example/x", hours(1), 200)
	s.run()

	s.expect(loginX, ViewUnchecked, VerdictAllowed)
	s.expect(goneX, ViewUnchecked, VerdictAllowed)
	s.expect(rulesX, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	s.expect(sixX, ViewUnchecked, VerdictAllowed)
	s.expect(loopX, ViewUnchecked, VerdictAllowed)
	s.expect(missX, ViewUnchecked, VerdictNotJudged)

	check := func(auth, rule, effect, target, chain string) {
		t.Helper()
		rows := s.versionRows(auth)
		if len(rows) != 1 || rows[0].StatusRule != rule || rows[0].Effect != effect || rows[0].RedirectTarget != target || rows[0].RedirectChain != chain {
			t.Errorf("%s versions = %+v\nwant %s %s %s\n  chain %s", auth, rows, rule, effect, target, chain)
		}
	}
	check("https://login.example", "redirect", "allow_all", "https://login.example/login?next=%2Frobots.txt",
		"https://login.example/robots.txt 302 -> https://login.example/login?next=%2Frobots.txt 200")
	check("https://gone.example", "redirect", "allow_all", "https://www.gone.example/home",
		"https://gone.example/robots.txt 301 -> https://www.gone.example/ 302 -> https://www.gone.example/home 404")
	check("https://rules.example", "redirect", "rules", "https://rules.example/static/policy.txt",
		"https://rules.example/robots.txt 301 -> https://rules.example/static/policy.txt 200")
	check("https://six.example", "too-many-redirects", "allow_all", "https://six.example/p5",
		"https://six.example/robots.txt 302 -> https://six.example/p1 302 -> https://six.example/p2 302 -> "+
			"https://six.example/p3 302 -> https://six.example/p4 302 -> https://six.example/p5 302")
	check("https://loop.example", "redirect-loop", "allow_all", "https://loop.example/robots.txt",
		"https://loop.example/robots.txt 302 -> https://loop.example/a 302 -> https://loop.example/robots.txt (loop)")
	check("https://missing.example", "redirect-target-missing", "unknown", "https://missing.example/nowhere",
		"https://missing.example/robots.txt 302 -> https://missing.example/nowhere (not in the inputs)")

	// The evidence names the page the chain ended at and why it allows all.
	a, _ := s.model.authorityFor("https", "login.example")
	if a == nil || len(a.versions) != 1 {
		t.Fatalf("login.example authority %+v", a)
	}
	ev := describeVersion(a.versions[0])
	contains(t, "login evidence", ev, "redirected to https://login.example/login?next=%2Frobots.txt captured 2025-03-01T00:00:01Z (crawl.warc.gz@1000, status 200)",
		"not a robots.txt (no User-agent or ACAP line), no rules: allow all (RFC 9309 §2.3.1.2)")
	if strings.Contains(ev, "whose rules apply") {
		t.Errorf("login evidence %q claims rules", ev)
	}
}
