package evaluate

import (
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/table"

	"github.com/repaudit/repaudit/bots"
)

const (
	uaOAISearch = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot"

	// usageRobots reserves training for everyone by Content-Signal, and
	// search of /news/ for GPTBot's own group by Content-Usage.
	usageRobots = "User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private/\n\n" +
		"User-agent: GPTBot\nContent-Usage: /news/ train-ai=n\nContent-Usage: /news/open train-ai=y\nDisallow: /private/\n\n" +
		"User-agent: OAI-SearchBot\nContent-Signal: ai-input=no\nContent-Usage: /news/ search=n\n\n" +
		"User-agent: ChatGPT-User\nContent-Signal: ai-input=no\n"
)

func TestUsageCategories(t *testing.T) {
	for _, c := range []struct{ token, want string }{
		{"GPTBot", bots.CategoryAITraining}, {"OAI-SearchBot", bots.CategoryAISearch},
		{"ChatGPT-User", bots.CategoryAIAssistant}, {"Googlebot", bots.CategorySearch},
	} {
		b, ok := bots.Default().Lookup(c.token)
		if !ok || b.Category != c.want {
			t.Fatalf("catalog category of %s is not %s: the tests below rely on it", c.token, c.want)
		}
	}
}

func TestUsageReserved(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, usageRobots)
	// GPTBot's own group has no Content-Signal: the "*" line does not
	// apply to it; its Content-Usage reserves /news/.
	s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200)
	gptNews := s.fetch(uaGPTBot, site+"/news/a", hours(2), 200)
	gptOpen := s.fetch(uaGPTBot, site+"/news/open", hours(2), 200)
	gptOther := s.fetch(uaGPTBot, site+"/blog", hours(2), 200)
	gptPrivate := s.fetch(uaGPTBot, site+"/private/news", hours(2), 200)
	// CCBot (ai-training) falls under "*": ai-train=no everywhere.
	cc := s.fetch(uaCCBot, site+"/blog", hours(3), 200)
	ccPrivate := s.fetch(uaCCBot, site+"/private/x", hours(3), 200)
	// Googlebot (search) under "*": search=yes reserves nothing.
	g := s.fetch(uaGooglebot, site+"/news/a", hours(3), 200)
	// OAI-SearchBot (ai-search): ai-input=no and, under /news/, search=n.
	oai := s.fetch(uaOAISearch, site+"/news/a", hours(3), 200)
	oaiOther := s.fetch(uaOAISearch, site+"/blog", hours(3), 200)
	// ChatGPT-User (ai-assistant): ai-input=no.
	chat := s.fetch(uaChatGPT, site+"/blog", hours(3), 200)
	robotsTxt := s.fetch(uaCCBot, site+"/robots.txt", hours(4), 200)
	s.run()

	j := s.expect(gptNews, ViewFresh, VerdictAllowed, KindUsageReserved)
	if got := j.Fetch.UsagePrefs; got != "train-ai=n" {
		t.Errorf("usage_prefs = %q", got)
	}
	v := j.Violations[0]
	if v.Usage != "train-ai" || v.MatchedLine != 6 || v.Severity != SeverityMedium || v.RobotsVersionID == "" {
		t.Errorf("violation %+v", v)
	}
	contains(t, "evidence", v.Evidence, `line 6 "Content-Usage: /news/ train-ai=n" in group "GPTBot"`,
		"train-ai=n for /news/a", "GPTBot is ai-training (catalog category)", "GPTBot (any client claiming it: its identity could not be checked) last fetched robots.txt", "fetched /news/a at ")
	if j := s.expect(gptOpen, ViewFresh, VerdictAllowed); j.Fetch.UsagePrefs != "train-ai=y" {
		t.Errorf("longer rule: usage_prefs = %q", j.Fetch.UsagePrefs)
	}
	if j := s.expect(gptOther, ViewFresh, VerdictAllowed); j.Fetch.UsagePrefs != "" {
		t.Errorf("no rule: usage_prefs = %q", j.Fetch.UsagePrefs)
	}
	s.expect(gptPrivate, ViewFresh, VerdictDisallowed, KindDisallowedFetch)

	j = s.expect(cc, ViewUnchecked, VerdictAllowed, KindUsageReserved)
	if j.Fetch.UsagePrefs != "ai-train=no,search=yes" || j.Violations[0].Usage != "ai-train" {
		t.Errorf("usage_prefs %q usage %q", j.Fetch.UsagePrefs, j.Violations[0].Usage)
	}
	contains(t, "evidence", j.Violations[0].Evidence, `"Content-Signal: search=yes, ai-train=no" in group "*"`,
		"never fetched robots.txt before this request")
	s.expect(ccPrivate, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	s.expect(g, ViewUnchecked, VerdictAllowed)

	j = s.expect(oai, ViewUnchecked, VerdictAllowed, KindUsageReserved, KindUsageReserved)
	if j.Fetch.UsagePrefs != "ai-input=no,search=n" || j.Violations[0].Usage != "search" || j.Violations[1].Usage != "ai-input" {
		t.Errorf("usage_prefs %q, %+v", j.Fetch.UsagePrefs, j.Violations)
	}
	j = s.expect(oaiOther, ViewUnchecked, VerdictAllowed, KindUsageReserved)
	if j.Violations[0].Usage != "ai-input" {
		t.Errorf("usage %q", j.Violations[0].Usage)
	}
	if j := s.expect(chat, ViewUnchecked, VerdictAllowed, KindUsageReserved); j.Violations[0].Usage != "ai-input" {
		t.Errorf("assistant: usage %q", j.Violations[0].Usage)
	}
	if j := s.expect(robotsTxt, ViewFresh, VerdictAllowed); j.Fetch.UsagePrefs != "" {
		t.Errorf("/robots.txt: usage_prefs %q", j.Fetch.UsagePrefs)
	}
	if n := len(s.violations(KindUsageReserved)); n != 6 {
		t.Errorf("%d usage_reserved rows, want 6", n)
	}
}

// A stale view is judged by the version in force at the request, for
// usage as for Allow/Disallow.
func TestUsageReservedStaleView(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow:\n")
	s.robots(site+"/robots.txt", days(3), 200, "User-agent: *\nContent-Signal: ai-train=no\n")
	s.fetch(uaGPTBot, site+"/robots.txt", hours(1), 200)
	fresh := s.fetch(uaGPTBot, site+"/a", hours(2), 200)
	stale := s.fetch(uaGPTBot, site+"/a", days(4), 200)
	s.run()
	s.expect(fresh, ViewFresh, VerdictAllowed)
	j := s.expect(stale, ViewStale, VerdictAllowed, KindUsageReserved)
	contains(t, "evidence", j.Violations[0].Evidence, "cache lifetime, so judged by the version in force at the request")
}

// captureFetch returns the fetch row written for capture c, judged as its
// archive crawler's fetch, and the findings written for it.
func (s *scenario) captureFetch(c *event.Capture) (table.Fetch, []table.Violation) {
	s.t.Helper()
	var row *table.Fetch
	for i := range s.out.Fetches {
		if f := &s.out.Fetches[i]; f.SourceFormat == "warc-capture" && f.WARCRecordOffset == c.Source.Offset {
			row = f
		}
	}
	if row == nil {
		s.t.Fatalf("no fetch row for capture %s", c.URL)
	}
	var vs []table.Violation
	for _, v := range s.out.Violations {
		if v.WARCRecordOffset == c.Source.Offset && v.Kind != KindRetentionExpired {
			vs = append(vs, v)
		}
	}
	return *row, vs
}

// A capture's own Content-Usage response header (aipref attach §2) joins
// the robots.txt preferences when the capture is judged as the archive
// crawler's fetch; any "n" wins, whichever mechanism states it.
func TestUsageReservedResponseHeader(t *testing.T) {
	s := newScenario(t)
	s.opts.ArchiveAgent = "CCBot" // ai-training
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nAllow: /\nContent-Signal: ai-train=no\n\nUser-agent: CCBot\nDisallow: /private/\n")
	own := s.capture(site+"/a", hours(1), 200, "a", "Content-Usage", "train-ai=n, search=y")
	plain := s.capture(site+"/b", hours(1), 200, "b")
	yes := s.capture(site+"/c", hours(1), 200, "c", "Content-Usage", "train-ai=y")
	priv := s.capture(site+"/private/d", hours(1), 200, "d", "Content-Usage", "train-ai=n")
	s.run()

	row, vs := s.captureFetch(own)
	if row.UsagePrefs != "search=y,train-ai=n" {
		t.Errorf("header: usage_prefs = %q", row.UsagePrefs)
	}
	if len(vs) != 1 || vs[0].Kind != KindUsageReserved || vs[0].Usage != "train-ai" {
		t.Fatalf("header: findings %+v", vs)
	}
	contains(t, "evidence", vs[0].Evidence,
		"Content-Usage: train-ai=n, search=y (response header of "+site+"/a captured 2025-03-01T01:00:00Z, crawl.warc.gz@"+itoa(int(own.Source.Offset))+") says train-ai=n for /a",
		"CCBot is ai-training", "fetched /a at ")
	if vs[0].RobotsVersionID != "" || vs[0].MatchedLine != 0 {
		t.Errorf("header finding names a robots.txt line: %+v", vs[0])
	}

	// CCBot's own group has no Content-Signal, and no header: nothing.
	if row, vs := s.captureFetch(plain); row.UsagePrefs != "" || len(vs) != 0 {
		t.Errorf("no header: usage_prefs %q, findings %+v", row.UsagePrefs, vs)
	}
	// y in the header reserves nothing; a robots.txt "no" still would.
	if row, vs := s.captureFetch(yes); row.UsagePrefs != "train-ai=y" || len(vs) != 0 {
		t.Errorf("header y: usage_prefs %q, findings %+v", row.UsagePrefs, vs)
	}
	// A disallowed capture gets the robots finding alone.
	if _, vs := s.captureFetch(priv); len(vs) != 1 || vs[0].Kind != KindCapturedWhileDisallowed {
		t.Errorf("disallowed: findings %+v", vs)
	}
}

// train-ai=y in the header does not undo ai-train=no in robots.txt (vocab
// §5.1: any "no" wins).
func TestUsageResponseHeaderYesRobotsNo(t *testing.T) {
	s := newScenario(t)
	s.opts.ArchiveAgent = "CCBot"
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nContent-Signal: ai-train=no\n")
	yes := s.capture(site+"/c", hours(1), 200, "c", "Content-Usage", "train-ai=y")
	plain := s.capture(site+"/d", hours(1), 200, "d")
	s.run()

	row, vs := s.captureFetch(yes)
	if row.UsagePrefs != "ai-train=no,train-ai=y" {
		t.Errorf("usage_prefs = %q", row.UsagePrefs)
	}
	if len(vs) != 1 || vs[0].Usage != "ai-train" {
		t.Fatalf("findings %+v", vs)
	}
	contains(t, "evidence", vs[0].Evidence, `"Content-Signal: ai-train=no" in group "*"`)
	// Without the header, the same robots.txt finding and column.
	row, vs = s.captureFetch(plain)
	if row.UsagePrefs != "ai-train=no" || len(vs) != 1 || vs[0].Usage != "ai-train" {
		t.Errorf("no header: usage_prefs %q, findings %+v", row.UsagePrefs, vs)
	}
}
