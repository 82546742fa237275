package evaluate

import (
	"net/netip"
	"reflect"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/table"
)

// Whose view a fetch is judged by (docs/semantics.md, Evaluation §5.1):
// verified clients by the verified clients' robots.txt fetches, a spoofed
// client by its own, a client that cannot be checked by every claiming
// client's but a spoofer's.

const (
	openAIRange = "20.171.206.0/24"
	realIP      = "20.171.206.7"
	fakeIP      = "198.51.100.66"
)

// gptbotScenario is a site whose robots.txt disallows /private/ to GPTBot,
// with OpenAI's published ranges given.
func gptbotScenario(t *testing.T) *scenario {
	s := newScenario(t)
	s.ids.AddIPList("GPTBot", &identity.IPList{
		CreationTime: t0, Prefixes: []netip.Prefix{netip.MustParsePrefix(openAIRange)}, Source: "gptbot.json",
	}, t0)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: GPTBot\nDisallow: /private/\n")
	return s
}

func from(f *event.Fetch, ip string) *event.Fetch {
	f.ClientIP = netip.MustParseAddr(ip)
	return f
}

// A spoofer's robots.txt fetch changes nothing in the verified bot's rows:
// the real GPTBot's 30-hour-old view stays stale (and, as that copy
// forbade the URL, the fetch is a disallowed_fetch either way).
func TestSpooferRobotsFetchDoesNotRefreshOperator(t *testing.T) {
	run := func(withSpoofer bool) (*scenario, *event.Fetch) {
		s := gptbotScenario(t)
		from(s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200), realIP)
		if withSpoofer {
			from(s.fetch(uaGPTBot, site+"/robots.txt", hours(30), 200), fakeIP)
		}
		page := from(s.fetch(uaGPTBot, site+"/private/a", hours(31), 200), realIP)
		s.run()
		return s, page
	}
	alone, page := run(false)
	ja := alone.expect(page, ViewStale, VerdictDisallowed, KindDisallowedFetch)
	together, page2 := run(true)
	jt := together.expect(page2, ViewStale, VerdictDisallowed, KindDisallowedFetch)
	if ja.Fetch.Identity != string(IdentityVerified) {
		t.Fatalf("real client identity %q, want verified", ja.Fetch.Identity)
	}
	contains(t, "evidence", jt.Violations[0].Evidence, "GPTBot's verified clients last fetched robots.txt 2025-03-01T01:00:00Z")
	ra, rt := ja.Fetch, jt.Fetch
	ra.SourceLine, rt.SourceLine = 0, 0 // the spoofer's line shifts the log's line numbers
	if !reflect.DeepEqual(ra, rt) {
		t.Errorf("verified row changed by a spoofer's robots.txt fetch:\n alone    %+v\n together %+v", ra, rt)
	}
	if ea, et := ja.Violations[0].Evidence, jt.Violations[0].Evidence; ea != et {
		t.Errorf("evidence changed:\n alone    %s\n together %s", ea, et)
	}
}

// A spoofed client that never fetched robots.txt is never judged by the
// operator's fresh copy; a spoofed client's own robots.txt fetch is its
// view, and no other spoofer's.
func TestSpoofedClientOwnView(t *testing.T) {
	s := gptbotScenario(t)
	from(s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200), realIP)
	never := from(s.fetch(uaGPTBot, site+"/private/a", hours(2), 200), fakeIP)
	from(s.fetch(uaGPTBot, site+"/robots.txt", hours(3), 200), "198.51.100.77")
	other := from(s.fetch(uaGPTBot, site+"/private/b", hours(4), 200), "198.51.100.77")
	stillNever := from(s.fetch(uaGPTBot, site+"/private/c", hours(4), 200), fakeIP)
	real := from(s.fetch(uaGPTBot, site+"/private/d", hours(4), 200), realIP)
	s.run()
	j := s.expect(never, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed, KindIPNotPublished)
	contains(t, "never", j.Violations[0].Evidence, "this spoofed client (198.51.100.66, claiming GPTBot; only its own robots.txt fetches count) never fetched")
	j = s.expect(other, ViewFresh, VerdictDisallowed, KindDisallowedFetch, KindIPNotPublished)
	contains(t, "other", j.Violations[0].Evidence, "this spoofed client (198.51.100.77, claiming GPTBot; only its own robots.txt fetches count) last fetched robots.txt 2025-03-01T03:00:00Z")
	s.expect(stillNever, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed, KindIPNotPublished)
	j = s.expect(real, ViewFresh, VerdictDisallowed, KindDisallowedFetch)
	contains(t, "real", j.Violations[0].Evidence, "GPTBot's verified clients last fetched robots.txt 2025-03-01T01:00:00Z")
	for _, v := range s.out.Violations {
		if v.Identity == string(IdentitySpoofed) && v.Operator != "" {
			t.Errorf("spoofed finding attributed to %q: %+v", v.Operator, v)
		}
	}
}

// Without a published list nothing can be checked: every client claiming
// the token shares one view, and the evidence says so.
func TestUncheckedClientsShareTokenView(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: GPTBot\nDisallow: /private/\n")
	from(s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200), realIP)
	page := from(s.fetch(uaGPTBot, site+"/private/a", hours(2), 200), fakeIP)
	s.run()
	j := s.expect(page, ViewFresh, VerdictDisallowed, KindDisallowedFetch)
	if j.Fetch.Identity != string(IdentityClaimed) {
		t.Errorf("identity %q, want claimed", j.Fetch.Identity)
	}
	contains(t, "evidence", j.Violations[0].Evidence, "GPTBot (any client claiming it: its identity could not be checked) last fetched robots.txt 2025-03-01T01:00:00Z")
}

// A verified client's robots.txt fetch counts for clients that cannot be
// checked (a log line without an address); a claimed client's never
// counts for the verified clients.
func TestVerifiedFetchCountsForUnchecked(t *testing.T) {
	s := gptbotScenario(t)
	from(s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200), realIP)
	noIP := s.fetch(uaGPTBot, site+"/private/a", hours(2), 200)
	noIP.ClientIP = netip.Addr{}
	claimedRobots := s.fetch(uaGPTBot, site+"/robots.txt", hours(30), 200)
	claimedRobots.ClientIP = netip.Addr{}
	real := from(s.fetch(uaGPTBot, site+"/private/b", hours(31), 200), realIP)
	s.run()
	s.expect(noIP, ViewFresh, VerdictDisallowed, KindDisallowedFetch)
	s.expect(real, ViewStale, VerdictDisallowed, KindDisallowedFetch) // its stale copy forbade it too
}

// Within one archive file, a robots.txt capture written after a page
// capture stamped with the same second was fetched after it: it is not
// the crawler's view at the page, nor the version in force there.
func TestSameSecondRecordOrder(t *testing.T) {
	s := newScenario(t)
	s.opts.ArchiveAgent = "CCBot"
	page := s.capture(site+"/private/a", hours(1), 200, "<html><body>a</body></html>")
	s.robots(site+"/robots.txt", hours(1), 200, "User-agent: *\nDisallow: /private/\n")
	later := s.capture(site+"/private/b", hours(1), 200, "<html><body>b</body></html>")
	s.run()
	rows := map[string]table.Fetch{}
	for _, f := range s.out.Fetches {
		rows[f.URLPath] = f
	}
	if r := rows[page.URL[len(site):]]; r.RobotsVerdict != string(VerdictNotJudged) || r.RobotsView != string(ViewNone) {
		t.Errorf("page before the robots.txt record: view %q verdict %q, want none/not_judged", r.RobotsView, r.RobotsVerdict)
	}
	if r := rows[later.URL[len(site):]]; r.RobotsVerdict != string(VerdictDisallowed) || r.RobotsView != string(ViewFresh) {
		t.Errorf("page after the robots.txt record: view %q verdict %q, want fresh/disallowed", r.RobotsView, r.RobotsVerdict)
	}
	if got := s.violations(KindCapturedWhileDisallowed); len(got) != 1 || got[0].URLPath != "/private/b" {
		t.Errorf("captured_while_disallowed = %+v, want /private/b only", got)
	}
}

// Two files that do not state one crawl have views of their own: a
// crawler's robots.txt capture in one file is not the other file's view.
func TestFilesOfTwoCrawlsDoNotShareViews(t *testing.T) {
	s := newScenario(t)
	s.opts.ArchiveAgent = "CCBot"
	inFile(s.robots(site+"/robots.txt", hours(0), 200, "User-agent: *\nDisallow: /private/\n"), "a.warc.gz")
	inFile(s.capture(site+"/private/a", hours(1), 200, "<html><body>a</body></html>"), "a.warc.gz")
	inFile(s.capture(site+"/private/b", hours(1), 200, "<html><body>b</body></html>"), "b.warc.gz")
	s.run()
	for _, f := range s.out.Fetches {
		want := map[string]string{"/private/a": string(ViewFresh), "/private/b": string(ViewUnchecked)}[f.URLPath]
		if want != "" && f.RobotsView != want {
			t.Errorf("%s (%s): view %q, want %q", f.URLPath, f.SourceFile, f.RobotsView, want)
		}
	}
	got := s.violations(KindCapturedWhileDisallowed)
	if len(got) != 2 {
		t.Fatalf("captured_while_disallowed = %+v, want /private/a and /private/b", got)
	}
	for _, v := range got {
		want := map[string]string{"/private/a": "CCBot (the archive crawler) captured robots.txt", "/private/b": "CCBot never fetched"}[v.URLPath]
		contains(t, v.URLPath, v.Evidence, want)
	}
}

// An archive crawl's robots.txt capture is the fetch of a client nothing
// can check: it counts for the token's claimed clients in the logs, never
// for its verified ones (a log's fetch never counts for the crawl:
// TestCrawlViewIgnoresLogFetches).
func TestCrawlFetchCountsForClaimedClients(t *testing.T) {
	s := newScenario(t)
	s.opts.ArchiveAgent = "GPTBot"
	s.ids.AddIPList("GPTBot", &identity.IPList{
		CreationTime: t0, Prefixes: []netip.Prefix{netip.MustParsePrefix(openAIRange)}, Source: "gptbot.json",
	}, t0)
	s.robots(site+"/robots.txt", hours(0), 200, "User-agent: *\nAllow: /\n")
	s.robots(site+"/robots.txt", hours(10), 503, "busy")
	claimed := s.fetch(uaGPTBot, site+"/page", hours(11), 200)
	claimed.ClientIP = netip.Addr{}
	verified := from(s.fetch(uaGPTBot, site+"/page2", hours(11), 200), realIP)
	s.run()
	j := s.expect(claimed, ViewFresh, VerdictUnreachable, KindFetchWhileUnreachable)
	contains(t, "claimed", j.Violations[0].Evidence, "crawl.warc.gz@")
	s.expect(verified, ViewUnchecked, VerdictPossible, KindPossibleViolation)
}
