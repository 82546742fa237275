package audit

import (
	"strings"
	"testing"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/table"
)

// The IP notices come from fetches.ip_check: not_given names the list
// and its fix per bot, not_published lists the bots the catalog knows.
func TestIPListNotices(t *testing.T) {
	row := func(agent, check, url string) *table.Fetch {
		return &table.Fetch{Agent: agent, ClientIP: "192.0.2.1", IPCheck: check, IPListURL: url}
	}
	looked := func(f *table.Fetch, dns string) *table.Fetch { f.DNSCheck = dns; return f }
	tests := []struct {
		name     string
		rows     []*table.Fetch
		dnsGiven bool
		want     []string // code: count: substring of the message, in order
	}{
		{
			name: "catalog list not given",
			rows: []*table.Fetch{
				row("ClaudeBot", identity.IPNotGiven, "https://claude.com/crawling/bots.json"),
				row("ClaudeBot", identity.IPNotGiven, "https://claude.com/crawling/bots.json"),
			},
			want: []string{"ip-list-not-given: 2: ClaudeBot publishes IP ranges at https://claude.com/crawling/bots.json; none given: 2 fetches unchecked"},
		},
		{
			name: "card's list not given",
			rows: []*table.Fetch{row("ExampleAgent", identity.IPNotGiven, "https://agent.example/ips.json")},
			want: []string{"ip-list-not-given: 1: ExampleAgent publishes IP ranges at https://agent.example/ips.json (its Signature Agent Card's ips_uri)"},
		},
		{
			name: "nothing published",
			rows: []*table.Fetch{row("Bytespider", identity.IPNotPublished, ""), row("FooCrawler", identity.IPNotPublished, "")},
			want: []string{"ip-list-not-published: 1: 1 fetch by bots whose operators publish no IP ranges, unverifiable by IP: Bytespider (1)"},
		},
		{
			name: "reverse DNS named as the other fix",
			rows: []*table.Fetch{
				row("Googlebot", identity.IPNotGiven, "https://developers.google.com/crawling/ipranges/common-crawlers.json"),
				row("Amazonbot", identity.IPNotPublished, ""), row("Amazonbot", identity.IPNotPublished, ""),
				row("Bytespider", identity.IPNotPublished, ""),
			},
			want: []string{"ip-list-not-given: 1: pass --ip-ranges-dir DIR (or verify by reverse DNS: run 'repaudit dns verify INPUT... --out DIR' and pass --dns-dir DIR)",
				"ip-list-not-published: 3: Amazonbot (2), Bytespider (1) — Amazonbot can be verified by reverse DNS: run 'repaudit dns verify INPUT... --out DIR' and pass --dns-dir DIR"},
		},
		{
			name: "reverse DNS not named when the snapshots hold the addresses",
			rows: []*table.Fetch{
				looked(row("Googlebot", identity.IPNotGiven, "https://developers.google.com/crawling/ipranges/common-crawlers.json"), identity.DNSLookupError),
				looked(row("Amazonbot", identity.IPNotPublished, ""), identity.DNSNoPTR),
			},
			dnsGiven: true,
			want:     []string{"ip-list-not-given: 1: pass --ip-ranges-dir DIR", "ip-list-not-published: 1: unverifiable by IP: Amazonbot (1)"},
		},
		{
			name: "snapshots given that do not hold the addresses",
			rows: []*table.Fetch{
				row("Googlebot", identity.IPNotGiven, "https://developers.google.com/crawling/ipranges/common-crawlers.json"),
				looked(row("Googlebot", identity.IPNotGiven, "https://developers.google.com/crawling/ipranges/common-crawlers.json"), identity.DNSNoPTR),
				row("Amazonbot", identity.IPNotPublished, ""),
			},
			dnsGiven: true,
			want: []string{"ip-list-not-given: 2: (or verify by reverse DNS: the snapshots given hold no lookup of the addresses of 1 fetch; run 'repaudit dns verify' on these inputs",
				"ip-list-not-published: 1: Amazonbot (1) — Amazonbot can be verified by reverse DNS, but the snapshots given hold no lookup of these addresses"},
		},
		{
			name: "list given, or no address",
			rows: []*table.Fetch{row("GPTBot", identity.IPInRange, ""), row("GPTBot", identity.IPNotInRange, ""),
				{Agent: "GPTBot", IPCheck: ""}},
		},
		{
			name: "both, most fetches first",
			rows: []*table.Fetch{
				row("Bytespider", identity.IPNotPublished, ""),
				row("GPTBot", identity.IPNotGiven, "https://openai.com/gptbot.json"),
				row("ClaudeBot", identity.IPNotGiven, "https://claude.com/crawling/bots.json"),
				row("ClaudeBot", identity.IPNotGiven, "https://claude.com/crawling/bots.json"),
			},
			want: []string{"ip-list-not-given: 2: ClaudeBot", "ip-list-not-given: 1: GPTBot", "ip-list-not-published: 1: "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkIPListNotices(t, tt.rows, tt.dnsGiven, tt.want) })
	}
}

// checkIPListNotices tallies rows and compares the IP notices with want
// ("code: count: substring of the message", in order).
func checkIPListNotices(t *testing.T, rows []*table.Fetch, dnsGiven bool, want []string) {
	t.Helper()
	// Tallied in two parts and merged, as the Beam pipeline does.
	var a, b NoticeFacts
	b.DNSGiven = dnsGiven
	for i, r := range rows {
		if i%2 == 0 {
			a.Tally(r)
		} else {
			b.Tally(r)
		}
	}
	a.Merge(b)
	got := Notices(&a, bots.Default())
	if len(got) != len(want) {
		t.Fatalf("got %d notices %+v, want %d", len(got), got, len(want))
	}
	for i, n := range got {
		if dnsGiven && strings.Contains(n.Message, "dns verify") && !strings.Contains(n.Message, "hold no lookup") {
			t.Errorf("notice %d names dns verify although --dns-dir was given: %q", i, n.Message)
		}
		code, rest, _ := strings.Cut(want[i], ": ")
		count, msg, _ := strings.Cut(rest, ": ")
		if n.Code != code || count != "" && count != itoa(n.Count) || !strings.Contains(n.Message, msg) {
			t.Errorf("notice %d = %s %d %q, want %s %s %q", i, n.Code, n.Count, n.Message, code, count, msg)
		}
	}
}

func itoa(n int64) string { return count(n) }

// The unknown-content notice says what the versions were: a robots.txt
// redirecting out of the inputs (an http:// vhost sending everything to
// https), with counts per host and the fix, apart from other causes.
func TestUnknownContentNotice(t *testing.T) {
	redirect := &table.RobotsVersion{URLHostName: "www.example.com", URL: "http://www.example.com/robots.txt",
		Effect: "unknown", StatusRule: "redirect-target-missing", RedirectTarget: "https://www.example.com/robots.txt"}
	redirect2 := &table.RobotsVersion{URLHostName: "blog.example.com", URL: "http://blog.example.com:8080/robots.txt",
		Effect: "unknown", StatusRule: "redirect-target-missing", RedirectTarget: "https://blog.example.com/robots.txt"}
	revisit := &table.RobotsVersion{URLHostName: "news.example.org", URL: "https://news.example.org/robots.txt",
		Effect: "unknown", StatusRule: "revisit-unresolved"}
	fine := &table.RobotsVersion{URLHostName: "news.example.org", URL: "https://news.example.org/robots.txt",
		Effect: "rules", StatusRule: "success"}
	unknown := func(host string, n int) []*table.Fetch {
		var out []*table.Fetch
		for range n {
			out = append(out, &table.Fetch{Agent: "GPTBot", URLHostName: host, NotJudgedReason: "unknown-content"})
		}
		return out
	}
	tests := []struct {
		name     string
		versions []*table.RobotsVersion
		fetches  []*table.Fetch
		want     []string // count: substrings of the message
	}{
		{
			name: "redirect vhost", versions: []*table.RobotsVersion{redirect}, fetches: unknown("www.example.com", 3),
			want: []string{"3: 3 fetches under a robots.txt that redirects to a URL not among the inputs — robots.txt on http://www.example.com redirects to https://www.example.com/robots.txt (not among the inputs): 3 fetches — give a robots.txt source for the target|redirect vhost"},
		},
		{
			name:     "two redirect hosts, most first",
			versions: []*table.RobotsVersion{redirect2, redirect},
			fetches:  append(unknown("blog.example.com", 1), unknown("www.example.com", 2)...),
			want:     []string{"3: robots.txt on http://www.example.com redirects to https://www.example.com/robots.txt (not among the inputs): 2 fetches; robots.txt on http://blog.example.com:8080 redirects to https://blog.example.com/robots.txt (not among the inputs): 1 fetch"},
		},
		{
			name:     "redirect and revisit",
			versions: []*table.RobotsVersion{redirect, revisit, fine},
			fetches:  append(unknown("www.example.com", 2), unknown("news.example.org", 1)...),
			want: []string{"2: robots.txt on http://www.example.com redirects to https://www.example.com/robots.txt",
				"1: 1 fetch under a robots.txt version whose content is unknown, by host: news.example.org (1 fetch; status_rule revisit-unresolved)"},
		},
		{
			name: "no version known (a bot's own redirected fetch)", fetches: unknown("www.example.com", 1),
			want: []string{"1: 1 fetch under a robots.txt version whose content is unknown, by host: www.example.com (1 fetch) — "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a, b NoticeFacts
			for _, v := range tt.versions {
				b.TallyVersion(v)
			}
			for _, f := range tt.fetches {
				a.Tally(f)
			}
			a.Merge(b)
			got := Notices(&a, bots.Default())
			if len(got) != len(tt.want) {
				t.Fatalf("got %d notices %+v, want %d", len(got), got, len(tt.want))
			}
			for i, n := range got {
				count, msgs, _ := strings.Cut(tt.want[i], ": ")
				if n.Code != "unknown-content" || itoa(n.Count) != count {
					t.Errorf("notice %d = %s %d, want unknown-content %s", i, n.Code, n.Count, count)
				}
				for _, m := range strings.Split(msgs, "|") {
					if !strings.Contains(n.Message, m) {
						t.Errorf("notice %d = %q, want it to say %q", i, n.Message, m)
					}
				}
			}
		})
	}
}

// TestUnknownBotsNotice: bots named only by their own product token are
// counted (spoofed clients apart) and the notice says what to pass.
func TestUnknownBotsNotice(t *testing.T) {
	var nf NoticeFacts
	for _, f := range []table.Fetch{
		{Agent: "LinerBot", IdentifiedBy: "ua-token", Identity: "claimed"},
		{Agent: "LinerBot", IdentifiedBy: "ua-token", Identity: "claimed"},
		{Agent: "LinerBot", IdentifiedBy: "ua-token", Identity: "spoofed"},
		{Agent: "GPTBot", IdentifiedBy: "catalog", Identity: "claimed"},
	} {
		nf.Tally(&f)
	}
	var got *Notice
	for _, n := range Notices(&nf, bots.Default()) {
		if n.Code == NoticeUnknownBots {
			got = &n
		}
	}
	if got == nil || got.Count != 2 || !strings.Contains(got.Message, "LinerBot (2)") || !strings.Contains(got.Message, "--bots FILE") {
		t.Errorf("notice %+v, want 2 fetches of LinerBot and the --bots fix", got)
	}
}

// TestTallyDNSDecided: a fetch whose address reverse DNS confirmed or
// refuted was checked, so a missing IP list did not leave it unchecked;
// one DNS could not decide (no PTR) still counts.
func TestTallyDNSDecided(t *testing.T) {
	var nf NoticeFacts
	for _, dns := range []string{identity.DNSConfirmed, identity.DNSNameOutsideSuffixes, identity.DNSForwardMismatch, "no_ptr", ""} {
		nf.Tally(&table.Fetch{Agent: "bingbot", ClientIP: "203.0.113.7", IPCheck: identity.IPNotGiven,
			IPListURL: "https://www.bing.com/toolbox/bingbot.json", DNSCheck: dns})
	}
	if got := nf.NotGiven["bingbot"]; got != 2 {
		t.Errorf("NotGiven[bingbot] = %d, want 2 (the no_ptr and the unchecked fetch)", got)
	}
}

// A given IP list or robots.txt source that was not used is named, with
// why, in the notice that would otherwise say "none given" or "for other
// sites", tallied in two parts and merged as the Beam pipeline does.
func TestUnusedSourceNotices(t *testing.T) {
	var a, b NoticeFacts
	a.TallyProblem(&table.Problem{SourceFile: "ranges/google-ips.json", Code: "iplist-unmapped", Message: "IP range list not used: its name is not one the catalog's IP lists are published under"})
	b.TallyProblem(&table.Problem{SourceFile: "site", Code: "input-unreadable", Message: "robots-git: --robots-git site: no commit reachable from HEAD has robot.txt"})
	b.TallyProblem(&table.Problem{SourceFile: "x.log", Code: "input-unreadable", Message: "input: unreadable"})
	for range 2 {
		a.Tally(&table.Fetch{Agent: "Googlebot", ClientIP: "192.0.2.1", IPCheck: identity.IPNotGiven,
			IPListURL: "https://developers.google.com/crawling/ipranges/common-crawlers.json"})
		b.Tally(&table.Fetch{Agent: "GPTBot", ClientIP: "192.0.2.2", IPCheck: identity.IPNotGiven, IPListURL: "https://openai.com/gptbot.json",
			URL: "https://www.example.org/a", NotJudgedReason: evaluate.NotJudgedNoVersion})
	}
	a.Merge(b)
	a.SourcesGiven = true
	got := Notices(&a, bots.Default())
	var text []string
	for _, n := range got {
		text = append(text, n.Message)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{
		"robots.txt sources given could not be used: site (--robots-git site: no commit reachable from HEAD has robot.txt)",
		// Equal counts go by name: GPTBot's notice names the files, Googlebot's points to it.
		"GPTBot publishes IP ranges at https://openai.com/gptbot.json; none used: 2 fetches unchecked, findings attributed to the claimed operator — IP list files given were not used (ranges/google-ips.json (its name is not one",
		"Googlebot publishes IP ranges at https://developers.google.com/crawling/ipranges/common-crawlers.json; none used: 2 fetches unchecked, findings attributed to the claimed operator — IP list files given were not used (see above)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("notices lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "for other sites") || strings.Contains(all, "x.log") {
		t.Errorf("notices name a robots.txt source as for other sites, or a log as a source:\n%s", all)
	}
}
