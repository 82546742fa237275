package robots

import (
	"strings"
	"testing"
)

// groupCases are robots.txt bodies and the verdicts expected of their
// groups (RFC 9309 §2.1, §2.2.1).
var groupCases = []struct {
	name   string
	body   string
	checks []check
}{
	{
		name: "blank lines do not end a group",
		body: "user-agent: a\n\ndisallow: /x\n\ndisallow: /y\n",
		checks: []check{
			{"a", "/x", false, 3},
			{"a", "/y", false, 5},
		},
	},
	{
		name: "consecutive user-agents share the group, blank between",
		body: "user-agent: a\n\nuser-agent: b\ndisallow: /x\n",
		checks: []check{
			{"a", "/x", false, 4},
			{"b", "/x", false, 4},
		},
	},
	{
		name: "user-agent after a rule starts a new group",
		body: "user-agent: a\ndisallow: /x\nuser-agent: b\ndisallow: /y\n",
		checks: []check{
			{"a", "/y", true, 0},
			{"b", "/x", true, 0},
			{"b", "/y", false, 4},
		},
	},
	{
		name: "rules before the first group are ignored",
		body: "disallow: /x\nallow: /y\nuser-agent: *\ndisallow: /z\n",
		checks: []check{
			{"bot", "/x", true, 0},
			{"bot", "/z", false, 4},
		},
	},
	{
		name: "own group does not inherit star",
		body: "user-agent: *\ndisallow: /private/\n\nuser-agent: gptbot\ndisallow: /ai/\n",
		checks: []check{
			{"gptbot", "/private/a", true, 0},
			{"gptbot", "/ai/a", false, 5},
			{"other", "/private/a", false, 2},
			{"other", "/ai/a", true, 0},
		},
	},
	{
		name: "own empty group allows all even when star disallows",
		body: "user-agent: *\ndisallow: /\n\nuser-agent: goodbot\n",
		checks: []check{
			{"goodbot", "/x", true, 0},
			{"other", "/x", false, 2},
		},
	},
	{
		name: "no group at all",
		body: "# nothing\nsitemap: https://example.com/s.xml\n",
		checks: []check{
			{"bot", "/x", true, 0},
		},
	},
	{
		name: "no matching group and no star",
		body: "user-agent: a\ndisallow: /\n",
		checks: []check{
			{"b", "/x", true, 0},
		},
	},
	{
		name: "case-insensitive token",
		body: "user-agent: GoogleBot\ndisallow: /x\n",
		checks: []check{
			{"googlebot", "/x", false, 2},
			{"GOOGLEBOT", "/x", false, 2},
		},
	},
	{
		name: "exact token, not prefix",
		body: "user-agent: Google\ndisallow: /a\nuser-agent: googlebot\ndisallow: /b\nuser-agent: *\ndisallow: /c\n",
		checks: []check{
			{"Googlebot", "/a", true, 0},
			{"Googlebot", "/b", false, 4},
			{"googlebot-news", "/b", true, 0},
			{"googlebot-news", "/c", false, 6},
			{"Google", "/a", false, 2},
		},
	},
	{
		name: "digits in tokens match in full",
		body: "user-agent: MJ\ndisallow: /a\nuser-agent: MJ12bot\ndisallow: /b\n",
		checks: []check{
			{"MJ12bot", "/a", true, 0},
			{"MJ12bot", "/b", false, 4},
			{"mj12bot", "/b", false, 4},
			{"MJ", "/a", false, 2},
			{"MJ", "/b", true, 0},
		},
	},
	{
		name: "version and comment after token",
		body: "user-agent: Googlebot/2.1\ndisallow: /a\nuser-agent: Mozilla/5.0 (compatible; Foo)\ndisallow: /b\n",
		checks: []check{
			{"googlebot", "/a", false, 2},
			{"mozilla", "/b", false, 4},
			{"foo", "/b", true, 0},
		},
	},
	{
		name: "star among named agents",
		body: "user-agent: a\nuser-agent: *\ndisallow: /x\n",
		checks: []check{
			{"a", "/x", false, 3},
			{"zzz", "/x", false, 3},
		},
	},
	{
		name: "star groups merge too",
		body: "user-agent: *\ndisallow: /x\nuser-agent: a\ndisallow: /y\nuser-agent: *\ndisallow: /z\n",
		checks: []check{
			{"b", "/x", false, 2},
			{"b", "/z", false, 6},
			{"b", "/y", true, 0},
		},
	},
	{
		name: "merged groups: longest across groups, allow wins tie across groups",
		body: "user-agent: a\ndisallow: /page\nuser-agent: b\ndisallow: /\nuser-agent: a\nallow: /page\nallow: /p\n",
		checks: []check{
			{"a", "/page", true, 6},
			{"a", "/p", true, 7},
			{"a", "/x", true, 0},
		},
	},
	{
		name: "empty user-agent starts a group that matches nothing",
		body: "user-agent: a\ndisallow: /x\nuser-agent:\ndisallow: /y\nuser-agent: *\ndisallow: /z\n",
		checks: []check{
			{"a", "/y", true, 0},
			{"", "/y", true, 0},
			{"", "/z", false, 6},
		},
	},
	{
		name: "crawl-delay ends the user-agent run",
		body: "user-agent: *\ncrawl-delay: 10\nuser-agent: googlebot\ndisallow: /x\n",
		checks: []check{
			{"other", "/x", true, 0},
			{"googlebot", "/x", false, 4},
		},
	},
	{
		name: "sitemap and unknown lines do not end the user-agent run",
		body: "user-agent: a\nsitemap: https://e.com/s.xml\nfoo: bar\nuser-agent: b\ndisallow: /x\n",
		checks: []check{
			{"a", "/x", false, 5},
			{"b", "/x", false, 5},
		},
	},
	{
		name: "ACAP lines do not interfere with conventional groups",
		body: "user-agent: a\nACAP-crawler: *\nACAP-disallow-crawl: /\ndisallow: /x\n",
		checks: []check{
			{"a", "/x", false, 4},
			{"a", "/y", true, 0},
		},
	},
}

func TestGroups(t *testing.T) {
	for _, tc := range groupCases {
		t.Run(tc.name, func(t *testing.T) { runChecks(t, tc.body, tc.checks) })
	}
}

func TestVerdictFields(t *testing.T) {
	body := "user-agent: *\ndisallow: /\n\nuser-agent: GPTBot\nuser-agent: CCBot\ndisallow: /private/\n\nuser-agent: gptbot\nallow: /private/ok\n"
	f := Parse([]byte(body), Options{})
	tests := []struct {
		agent, url string
		want       Verdict
		evidence   string
	}{
		{"gptbot", "/private/x", Verdict{Allowed: false, Agent: "gptbot", Group: "GPTBot,gptbot", GroupLine: 4, Rule: &f.Groups[1].Rules[0], Reason: ReasonRule},
			`group "GPTBot,gptbot" (line 4): line 6 "Disallow: /private/" matched`},
		{"gptbot", "/private/ok", Verdict{Allowed: true, Agent: "gptbot", Group: "GPTBot,gptbot", GroupLine: 4, Rule: &f.Groups[2].Rules[0], Reason: ReasonRule},
			`group "GPTBot,gptbot" (line 4): line 9 "Allow: /private/ok" matched`},
		{"CCBot", "/public", Verdict{Allowed: true, Agent: "CCBot", Group: "CCBot", GroupLine: 4, Reason: ReasonNoMatchingRule},
			`group "CCBot" (line 4): no rule matched: allowed`},
		{"other", "/robots.txt", Verdict{Allowed: true, Agent: "other", Group: "*", GroupLine: 1, Reason: ReasonRobotsTxt},
			`/robots.txt is always allowed (RFC 9309 §2.2.2)`},
		{"other", "https://example.com/robots.txt?x=1", Verdict{Allowed: true, Agent: "other", Group: "*", GroupLine: 1, Reason: ReasonRobotsTxt},
			`/robots.txt is always allowed (RFC 9309 §2.2.2)`},
		{"other", "/robots.txtx", Verdict{Allowed: false, Agent: "other", Group: "*", GroupLine: 1, Rule: &f.Groups[0].Rules[0], Reason: ReasonRule},
			`group "*" (line 1): line 2 "Disallow: /" matched`},
	}
	for _, tc := range tests {
		got := f.Check(tc.agent, tc.url)
		if got != tc.want {
			t.Errorf("Check(%q, %q) = %+v, want %+v", tc.agent, tc.url, got, tc.want)
		}
		if ev := got.Evidence(); ev != tc.evidence {
			t.Errorf("Check(%q, %q).Evidence() = %q, want %q", tc.agent, tc.url, ev, tc.evidence)
		}
	}
	g := Parse([]byte("user-agent: a\ndisallow: /\n"), Options{})
	v := g.Check("b", "/")
	if v.Reason != ReasonNoGroup || v.Group != "" || v.GroupLine != 0 || !v.Allowed {
		t.Errorf("no group verdict = %+v", v)
	}
	if want := `no group for "b" and no "*" group: allowed`; v.Evidence() != want {
		t.Errorf("Evidence() = %q, want %q", v.Evidence(), want)
	}
}

func TestCrawlDelay(t *testing.T) {
	body := strings.Join([]string{
		"user-agent: a",   // 1
		"crawl-delay: 5",  // 2
		"crawl-delay: 7",  // 3 repeated
		"user-agent: b",   // 4
		"crawl-delay: x",  // 5 invalid
		"disallow: /",     // 6
		"user-agent: a",   // 7
		"crawl-delay: .5", // 8 second group of a: first group's wins
		"user-agent: *",   // 9
		"Crawl-Delay: 0.25",
	}, "\n")
	f := Parse([]byte(body), Options{})
	tests := []struct {
		agent string
		want  CrawlDelay
		ok    bool
	}{
		{"a", CrawlDelay{Seconds: 5, Line: 2, Text: "5"}, true},
		{"b", CrawlDelay{}, false},
		{"z", CrawlDelay{Seconds: 0.25, Line: 10, Text: "0.25"}, true},
	}
	for _, tc := range tests {
		got, ok := f.CrawlDelay(tc.agent)
		if got != tc.want || ok != tc.ok {
			t.Errorf("CrawlDelay(%q) = %+v, %v; want %+v, %v", tc.agent, got, ok, tc.want, tc.ok)
		}
	}
	wantCodes(t, f, map[int]string{3: DiagCrawlDelayRepeated, 5: DiagCrawlDelayInvalid})
	if _, ok := Parse([]byte("crawl-delay: 3\n"), Options{}).CrawlDelay("x"); ok {
		t.Errorf("crawl-delay outside a group applied")
	}
}

// wantCodes checks that the diagnostics are exactly the given line->code
// pairs.
func wantCodes(t *testing.T, f *File, want map[int]string) {
	t.Helper()
	got := map[int]string{}
	for _, d := range f.Diagnostics {
		if prev, ok := got[d.Line]; ok {
			got[d.Line] = prev + "," + d.Code
		} else {
			got[d.Line] = d.Code
		}
	}
	for l, c := range want {
		if got[l] != c {
			t.Errorf("line %d diagnostics = %q, want %q", l, got[l], c)
		}
	}
	for l, c := range got {
		if _, ok := want[l]; !ok {
			t.Errorf("unexpected diagnostic line %d: %q", l, c)
		}
	}
}

// TestTrailingStarUserAgent: "User-agent: barbot*" (real files write
// "Googlebot*" and "Mediapartners-Google*") names the bot before the star;
// "*" alone or starred is still the "*" group.
func TestTrailingStarUserAgent(t *testing.T) {
	body := "User-agent: *\nAllow: /\n\nUser-agent: barbot*\nDisallow: /b/\n\nUser-agent: Mediapartners-Google*\nDisallow: /m/\n\nUser-agent: Googlebot**\nDisallow: /g/\n"
	f := Parse([]byte(body), Options{})
	for _, c := range []struct {
		agent, url string
		allowed    bool
	}{
		{"barbot", "/b/x", false},
		{"BarBot", "/b/x", false},
		{"barbot", "/m/x", true},
		{"Mediapartners-Google", "/m/x", false},
		{"Googlebot", "/g/x", false},
		{"otherbot", "/b/x", true},
	} {
		if got := f.Check(c.agent, c.url).Allowed; got != c.allowed {
			t.Errorf("%s %s: allowed=%v, want %v", c.agent, c.url, got, c.allowed)
		}
	}
	found := false
	for _, d := range f.Diagnostics {
		if d.Code == DiagUserAgentVersion && d.Line == 4 {
			found = true
		}
	}
	if !found {
		t.Errorf("no %s diagnostic for line 4: %+v", DiagUserAgentVersion, f.Diagnostics)
	}
	g := Parse([]byte("User-agent: **\nDisallow: /\n"), Options{})
	if g.Check("anybot", "/x").Allowed {
		t.Error(`"User-agent: **" is not the "*" group`)
	}
}
