package evaluate

import (
	"crypto/ed25519"
	"encoding/base64"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/table"
)

// A client claiming to be Googlebot from outside Google's published
// ranges breaks robots.txt: the finding is recorded as spoofed, never
// attributed to Google. Its robots.txt fetch is its own view only: the
// real Googlebot, which never fetched robots.txt, is judged unchecked
// (docs/semantics.md, Evaluation §5.1).
func TestSpoofedGooglebot(t *testing.T) {
	s := newScenario(t)
	s.ids.AddIPList("Googlebot", &identity.IPList{
		CreationTime: t0, Prefixes: []netip.Prefix{netip.MustParsePrefix("66.249.64.0/19")}, Source: "googlebot.json",
	}, t0)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: Googlebot\nDisallow: /private/\n")
	s.fetch(uaGooglebot, site+"/robots.txt", hours(1), 200)
	fake := s.fetch(uaGooglebot, site+"/private/a", hours(2), 200)
	real := s.fetch(uaGooglebot, site+"/private/b", hours(2), 200)
	real.ClientIP = netip.MustParseAddr("66.249.66.1")
	s.run()

	j := s.expect(fake, ViewFresh, VerdictDisallowed, KindDisallowedFetch, KindIPNotPublished)
	if j.Fetch.Identity != string(IdentitySpoofed) || j.Fetch.Operator != "" || j.Fetch.IPCheck != "not_in_range" {
		t.Errorf("fake row identity %q operator %q ip_check %q", j.Fetch.Identity, j.Fetch.Operator, j.Fetch.IPCheck)
	}
	for _, v := range j.Violations {
		if v.Identity != string(IdentitySpoofed) || v.Operator != "" || v.Agent != "Googlebot" {
			t.Errorf("%s: identity %q operator %q agent %q", v.Kind, v.Identity, v.Operator, v.Agent)
		}
	}
	contains(t, "ip evidence", j.Violations[1].Evidence, "client IP 192.0.2.10 is not in the IP ranges published for Googlebot", "googlebot.json")
	contains(t, "fake's view", j.Violations[0].Evidence, "this spoofed client (192.0.2.10, claiming Googlebot; only its own robots.txt fetches count) last fetched robots.txt")
	j = s.expect(real, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	contains(t, "real's view", j.Violations[0].Evidence, "Googlebot's verified clients never fetched")
	if j.Fetch.Identity != string(IdentityVerified) || j.Fetch.Operator != "Google" || j.Fetch.IPCheck != "in_range" {
		t.Errorf("real row identity %q operator %q ip_check %q", j.Fetch.Identity, j.Fetch.Operator, j.Fetch.IPCheck)
	}
	if got := s.spoofedFindings(); got != 3 { // its robots.txt fetch came from the same address
		t.Errorf("FindingsSpoofed = %d, want 3", got)
	}
}

func agentCard(keys []identity.Key) *identity.Card {
	return &identity.Card{
		ClientID: "https://agent.example/.well-known/signature-agent-card", Name: "Example Agent",
		ProductToken: "ExampleAgent", JWKS: keys, Trigger: "fetcher",
	}
}

const uaAgent = "Mozilla/5.0 (compatible; ExampleAgent/1.0; +https://agent.example/)"

func TestUnsignedClaimant(t *testing.T) {
	s := newScenario(t)
	pub, _, _ := ed25519.GenerateKey(nil)
	s.ids.AddCard(agentCard([]identity.Key{{Thumbprint: "k1", KeyType: "OKP", Curve: "Ed25519", Public: pub}}), time.Time{})
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow:\n")
	recorded := s.fetch(uaAgent, site+"/a", hours(1), 200)
	recorded.SignatureRecorded = true
	unrecorded := s.fetch(uaAgent, site+"/b", hours(1), 200)
	s.run()

	j := s.expect(recorded, ViewUnchecked, VerdictAllowed, KindUnsignedClaimant)
	if j.Fetch.Signature != "unsigned" || j.Fetch.Identity != string(IdentitySpoofed) || !j.Fetch.UserTriggered || j.Fetch.IdentifiedBy != "card" {
		t.Errorf("row = signature %q identity %q user_triggered %v by %q", j.Fetch.Signature, j.Fetch.Identity, j.Fetch.UserTriggered, j.Fetch.IdentifiedBy)
	}
	contains(t, "evidence", j.Violations[0].Evidence, "claims the Signature Agent Card https://agent.example/.well-known/signature-agent-card", "access.log:1 records those fields")
	j = s.expect(unrecorded, ViewUnchecked, VerdictAllowed)
	if j.Fetch.Signature != SignatureUnrecorded || j.Fetch.Identity != string(IdentityClaimed) {
		t.Errorf("unrecorded row = signature %q identity %q", j.Fetch.Signature, j.Fetch.Identity)
	}
	unverifiable := s.fetchRows(func(f *table.Fetch) bool { return f.Agent != "" && f.Signature == SignatureUnrecorded })
	claimants := 0
	for _, j := range s.judg {
		if j.Fetch.Signature == SignatureUnrecorded && j.claimant {
			claimants++
		}
	}
	if unverifiable != 1 || claimants != 1 {
		t.Errorf("Unverifiable = %d, claimants %d, want 1 1", unverifiable, claimants)
	}
}

// signRequest signs a request the Web Bot Auth way (RFC 9421 with
// @authority and signature-agent covered), independently of package
// signature.
func signRequest(f *event.Fetch, priv ed25519.PrivateKey, keyid, agent string, created time.Time) {
	params := `("@authority" "signature-agent");created=` + strconv.FormatInt(created.Unix(), 10) +
		`;expires=` + strconv.FormatInt(created.Add(time.Hour).Unix(), 10) + `;keyid="` + keyid + `";tag="web-bot-auth"`
	agentField := strconv.Quote(agent)
	base := `"@authority": ` + f.Host + "\n" + `"signature-agent": ` + agentField + "\n" + `"@signature-params": ` + params
	sig := ed25519.Sign(priv, []byte(base))
	f.Header = append(f.Header,
		event.Field{Name: "Signature-Agent", Value: agentField},
		event.Field{Name: "Signature-Input", Value: "sig1=" + params},
		event.Field{Name: "Signature", Value: "sig1=:" + base64.StdEncoding.EncodeToString(sig) + ":"},
	)
	f.SignatureRecorded = true
}

func TestSignatures(t *testing.T) {
	s := newScenario(t)
	pub, priv, _ := ed25519.GenerateKey(nil)
	tp, err := identity.Thumbprint(map[string]any{"kty": "OKP", "crv": "Ed25519", "x": base64.RawURLEncoding.EncodeToString(pub)})
	if err != nil {
		t.Fatal(err)
	}
	key := identity.Key{Thumbprint: tp, KeyType: "OKP", Curve: "Ed25519", Public: pub}
	s.ids.AddCard(agentCard(nil), time.Time{})
	s.ids.AddKeys("https://agent.example/.well-known/http-message-signatures-directory", []identity.Key{key}, time.Time{})
	s.robots(site+"/robots.txt", t0, 200, "User-agent: ExampleAgent\nDisallow: /no/\n")

	good := s.fetch(uaAgent, site+"/no/a", hours(1), 200)
	signRequest(good, priv, tp, "https://agent.example", hours(1))
	// The same signature bytes again on another path: a replay.
	replay := s.fetch(uaAgent, site+"/other", hours(1.1), 200)
	replay.Header = good.Header
	replay.SignatureRecorded = true
	bad := s.fetch(uaAgent, site+"/b", hours(2), 200)
	_, other, _ := ed25519.GenerateKey(nil)
	signRequest(bad, other, tp, "https://agent.example", hours(2))
	s.run()

	j := s.expect(good, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	if j.Fetch.Signature != "verified" || j.Fetch.Identity != string(IdentityVerified) || j.Fetch.SignatureKeyID != tp {
		t.Errorf("good: signature %q (%s) identity %q keyid %q", j.Fetch.Signature, j.Fetch.SignatureReasons, j.Fetch.Identity, j.Fetch.SignatureKeyID)
	}
	j = s.expect(replay, ViewUnchecked, VerdictAllowed, KindInvalidSignature)
	if j.Fetch.Identity != string(IdentitySpoofed) || j.Violations[0].SignatureReason != "replay" {
		t.Errorf("replay: identity %q reason %q", j.Fetch.Identity, j.Violations[0].SignatureReason)
	}
	contains(t, "replay evidence", j.Violations[0].Evidence, "replay", "/no/a")
	j = s.expect(bad, ViewUnchecked, VerdictAllowed, KindInvalidSignature)
	if j.Fetch.Signature != "invalid" || j.Fetch.Identity != string(IdentitySpoofed) || !strings.Contains(j.Violations[0].SignatureReason, "bad-signature") {
		t.Errorf("bad: signature %q identity %q reason %q", j.Fetch.Signature, j.Fetch.Identity, j.Violations[0].SignatureReason)
	}
	if j.Violations[0].Operator != "" || j.Violations[0].Severity != SeverityHigh {
		t.Errorf("bad: operator %q severity %q", j.Violations[0].Operator, j.Violations[0].Severity)
	}
}

func TestUserTriggered(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: ChatGPT-User\nDisallow: /\n")
	f := s.fetch(uaChatGPT, site+"/a", hours(1), 200)
	g := s.fetch(uaGPTBot, site+"/a", hours(1), 200)
	s.run()
	j := s.expect(f, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	if !j.Fetch.UserTriggered || !j.Violations[0].UserTriggered || j.Fetch.Category != "ai-assistant" {
		t.Errorf("ChatGPT-User: user_triggered %v/%v category %q", j.Fetch.UserTriggered, j.Violations[0].UserTriggered, j.Fetch.Category)
	}
	if j := s.expect(g, ViewUnchecked, VerdictAllowed); j.Fetch.UserTriggered {
		t.Errorf("GPTBot is user-triggered")
	}
	if n := s.fetchRows(func(f *table.Fetch) bool { return f.UserTriggered }); n != 1 {
		t.Errorf("UserTriggered = %d", n)
	}
}

func TestCrawlDelay(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nCrawl-delay: 10\nDisallow:\n")
	base := hours(1)
	sec := func(x float64) time.Time { return base.Add(time.Duration(x * float64(time.Second))) }
	f0 := s.fetch(uaGPTBot, site+"/0", sec(0), 200)
	f1 := s.fetch(uaGPTBot, site+"/1", sec(3), 200)    // 3s: ignored
	f2 := s.fetch(uaGPTBot, site+"/2", sec(20), 200)   // 17s: fine
	f3 := s.fetch(uaGPTBot, site+"/3", sec(29), 200)   // 9s, whole seconds: at most 10s, < 10 impossible? 9+1 <= 10: flagged
	f4 := s.fetch(uaGPTBot, site+"/4", sec(39), 200)   // 10s: fine
	f5 := s.fetch(uaGPTBot, site+"/5", sec(48.5), 200) // 9.5s, sub-second: flagged
	// Another bot, and a spoofed one, have their own clocks.
	o := s.fetch(uaCCBot, site+"/o", sec(1), 200)
	s.run()
	s.expect(f0, ViewUnchecked, VerdictAllowed)
	j := s.expect(f1, ViewUnchecked, VerdictAllowed, KindCrawlDelayIgnored)
	v := j.Violations[0]
	if v.ObservedInterval != 3 || v.CrawlDelay != 10 || v.Severity != SeverityLow {
		t.Errorf("interval %v delay %v severity %q", v.ObservedInterval, v.CrawlDelay, v.Severity)
	}
	contains(t, "evidence", v.Evidence, "line 2 Crawl-delay 10s applies to GPTBot", "was /0 at 2025-03-01T01:00:00Z (access.log:1), 3s before this one",
		"one-second resolution: at most 4s")
	s.expect(f2, ViewUnchecked, VerdictAllowed)
	s.expect(f3, ViewUnchecked, VerdictAllowed, KindCrawlDelayIgnored)
	s.expect(f4, ViewUnchecked, VerdictAllowed)
	s.expect(f5, ViewUnchecked, VerdictAllowed, KindCrawlDelayIgnored)
	s.expect(o, ViewUnchecked, VerdictAllowed)
}

// Issue 10: a User-Agent that only mentions a bot is not judged as that
// bot nor blamed on its operator; a generic word never selects a group; a
// bot named with spaces is judged under its robots.txt group; a device
// model is not a bot; a bot the catalog does not know has no operator.
func TestIdentificationRules(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200,
		"User-agent: Googlebot\nDisallow: /g/\n\nUser-agent: Spider\nDisallow: /s/\n\nUser-agent: Kangaroo Bot\nDisallow: /k/\n\n"+
			"User-agent: CUBOT_P20\nDisallow: /\n\nUser-agent: *\nDisallow: /star/\n")
	fresh := s.fetch("FreshRSS/1.11.2 (Linux; https://freshrss.org) like Googlebot", site+"/g/feed.xml", hours(1), 200)
	sogou := s.fetch("Sogou News Spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)", site+"/s/x", hours(1), 200)
	kangaroo := s.fetch("Mozilla/5.0 (compatible; Kangaroo Bot/1.0)", site+"/k/x", hours(1), 200)
	phone := s.fetch("Mozilla/5.0 (Linux; Android 8.0.0; CUBOT_P20) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.110 Mobile Safari/537.36", site+"/x", hours(1), 200)
	other := s.fetch("Mozilla/5.0 (compatible; Quokka-Harvester/2.0; heritrix/3.4.0 +https://example.org/crawl)", site+"/star/y", hours(1), 200)
	arquivo := s.fetch("Arquivo-web-crawler (compatible; heritrix/3.4.0-20200304 +https://arquivo.pt/faq-crawling)", site+"/star/x", hours(1), 200)
	s.run()

	j := s.expect(fresh, ViewUnchecked, VerdictAllowed)
	if j.Fetch.Agent != "FreshRSS" || j.Fetch.Operator != "" {
		t.Errorf("FreshRSS: agent %q operator %q", j.Fetch.Agent, j.Fetch.Operator)
	}
	j = s.expect(sogou, ViewUnchecked, VerdictAllowed)
	if j.Fetch.Agent == "Spider" || j.Fetch.MatchedGroup == "Spider" {
		t.Errorf("Sogou News Spider judged as %q under group %q", j.Fetch.Agent, j.Fetch.MatchedGroup)
	}
	j = s.expect(kangaroo, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	if j.Fetch.Agent != "Kangaroo Bot" {
		t.Errorf("Kangaroo Bot: agent %q", j.Fetch.Agent)
	}
	j = s.expect(phone, "", VerdictNotJudged)
	if j.Fetch.Agent != "" {
		t.Errorf("CUBOT phone: agent %q, want a browser", j.Fetch.Agent)
	}
	j = s.expect(arquivo, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	// crawler-user-agents knows Arquivo's crawler by name, with no
	// operator; heritrix never makes it the Internet Archive's.
	if !strings.EqualFold(j.Fetch.Agent, "Arquivo-web-crawler") || j.Fetch.Operator != "" {
		t.Errorf("Arquivo: agent %q operator %q by %q", j.Fetch.Agent, j.Fetch.Operator, j.Fetch.IdentifiedBy)
	}
	j = s.expect(other, ViewUnchecked, VerdictDisallowed, KindUncheckedDisallowed)
	if j.Fetch.Agent != "Quokka-Harvester" || j.Fetch.Operator != "" || j.Fetch.IdentifiedBy != byUAToken {
		t.Errorf("unknown heritrix crawler: agent %q operator %q by %q", j.Fetch.Agent, j.Fetch.Operator, j.Fetch.IdentifiedBy)
	}
}

// fetches.ip_check says why an IP went unchecked: a list given
// (in_range, not_in_range), a published list not given (not_given, with
// its URL in ip_list_url), or no published list known (not_published).
func TestIPCheckValues(t *testing.T) {
	const uaBytespider = "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)"
	googleList := &identity.IPList{CreationTime: t0, Prefixes: []netip.Prefix{netip.MustParsePrefix("66.249.64.0/19")}, Source: "googlebot.json"}
	tests := []struct {
		name    string
		ua      string
		ip      string
		list    bool // give Googlebot's list
		card    *identity.Card
		want    string
		wantURL string
	}{
		{"list given, in range", uaGooglebot, "66.249.66.1", true, nil, identity.IPInRange, ""},
		{"list given, not in range", uaGooglebot, "192.0.2.10", true, nil, identity.IPNotInRange, ""},
		{"catalog list not given", uaGooglebot, "66.249.66.1", false, nil, identity.IPNotGiven, "https://developers.google.com/crawling/ipranges/common-crawlers.json"},
		{"catalog list not given, other bot", uaGPTBot, "192.0.2.10", false, nil, identity.IPNotGiven, "https://openai.com/gptbot.json"},
		{"nothing published", uaBytespider, "192.0.2.10", false, nil, identity.IPNotPublished, ""},
		{"card's ips_uri not given", uaAgent, "192.0.2.10", false,
			&identity.Card{ClientID: "https://agent.example/.well-known/signature-agent-card", Name: "Example Agent",
				ProductToken: "ExampleAgent", IPsURI: "https://agent.example/ips.json"},
			identity.IPNotGiven, "https://agent.example/ips.json"},
		{"card without ips_uri", uaAgent, "192.0.2.10", false, agentCard(nil), identity.IPNotPublished, ""},
		{"unknown bot", "FooCrawler/1.0 (+https://foo.example/bot)", "192.0.2.10", false, nil, identity.IPNotPublished, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScenario(t)
			if tt.list {
				s.ids.AddIPList("Googlebot", googleList, t0)
			}
			if tt.card != nil {
				s.ids.AddCard(tt.card, time.Time{})
			}
			s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow: /private/\n")
			f := s.fetch(tt.ua, site+"/a", hours(2), 200)
			f.ClientIP = netip.MustParseAddr(tt.ip)
			s.run()
			j := s.j(f)
			if j.Fetch.IPCheck != tt.want || j.Fetch.IPListURL != tt.wantURL {
				t.Errorf("ip_check %q, ip_list_url %q; want %q, %q", j.Fetch.IPCheck, j.Fetch.IPListURL, tt.want, tt.wantURL)
			}
		})
	}
}
