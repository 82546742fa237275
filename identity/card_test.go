package identity

import (
	"errors"
	"slices"
	"testing"
)

// parseCardCase is one card document and what ParseCard should make of it.
type parseCardCase struct {
	name      string
	doc       []byte
	want      Card // JWKS compared by thumbprints in wantTPs
	wantTPs   []string
	wantProbs string
	wantErr   error
}

// checkParseCard parses tt.doc and compares the card, its key thumbprints
// and its problems with tt's.
func checkParseCard(t *testing.T, tt parseCardCase) {
	t.Helper()
	c, probs, err := ParseCard(tt.doc, "card.json")
	if !errors.Is(err, tt.wantErr) {
		t.Fatalf("err = %v, want %v", err, tt.wantErr)
	}
	if err != nil {
		return
	}
	var tps []string
	for _, k := range c.JWKS {
		tps = append(tps, k.Thumbprint)
	}
	if !slices.Equal(tps, tt.wantTPs) {
		t.Errorf("JWKS thumbprints = %v, want %v", tps, tt.wantTPs)
	}
	got := *c
	got.JWKS, got.Source = nil, ""
	if !cardEqual(got, tt.want) {
		t.Errorf("card =\n %+v\nwant\n %+v", got, tt.want)
	}
	if c.Source != "card.json" {
		t.Errorf("Source = %q, want card.json", c.Source)
	}
	if gp := problemCodes(probs); gp != tt.wantProbs {
		t.Errorf("problems = %q, want %q (%v)", gp, tt.wantProbs, probs)
	}
}

// TestParseCard reads the published examples and each draft's members.
func TestParseCard(t *testing.T) {
	tests := []parseCardCase{
		{
			name: "registry-03 example",
			doc:  sample(t, "signature_agent_card_registry-03_example.json", "card"),
			want: Card{
				ClientID: "https://example.com/bot", Name: "Example Bot", ClientURI: "https://example.com/bot/about.html",
				ProductToken: "ExampleBot", ExpectedUserAgent: []string{"Mozilla/5.0 ExampleBot"},
				Trigger: "fetcher", Purpose: "tdm",
				JWKSURI: "https://example.com/.well-known/http-message-signatures-directory",
				IPsURI:  "https://example.com/ips.json", Layout: LayoutRegistry03,
				RFC9309Compliance: ComplianceTrue,
				RFC9309Directives: []string{"User-Agent", "Allow", "Disallow", "Content-Usage"},
			},
			wantProbs: "card-older-draft-shape",
		},
		{
			name: "registry-04 card: boolean rfc9309-compliance, purpose, ips_uri",
			doc:  sample(t, "signature_agent_card_registry-04_own.json", "card"),
			want: Card{
				ClientID: "https://crawler.example.net/agent-card", Name: "Heron Crawler",
				ClientURI: "https://crawler.example.net/about", ProductToken: "HeronCrawler",
				ExpectedUserAgent: []string{"HeronCrawler/2", "Mozilla/5.0 (compatible; HeronCrawler/*"},
				Trigger:           "crawler", Purpose: "search", RFC9309Compliance: ComplianceTrue,
				JWKSURI: "https://crawler.example.net/.well-known/http-message-signatures-directory",
				IPsURI:  "https://crawler.example.net/heron-ranges.json", Layout: LayoutRegistry03,
			},
		},
		{
			name: "registry-04 rfc9309-compliance false",
			doc:  []byte(`{"client_id":"https://a.example/bot","web_bot_auth":{"rfc9309-compliance":false}}`),
			want: Card{ClientID: "https://a.example/bot", Layout: LayoutRegistry03, RFC9309Compliance: ComplianceFalse},
		},
		{
			name:      "registry-03 empty directive list reads as false",
			doc:       []byte(`{"client_id":"https://a.example/bot","web_bot_auth":{"rfc9309-compliance":[]}}`),
			want:      Card{ClientID: "https://a.example/bot", Layout: LayoutRegistry03, RFC9309Compliance: ComplianceFalse},
			wantProbs: "card-older-draft-shape",
		},
		{
			name:      "rfc9309-compliance of another type is ignored",
			doc:       []byte(`{"client_id":"https://a.example/bot","web_bot_auth":{"rfc9309-compliance":"yes","purpose":7}}`),
			want:      Card{ClientID: "https://a.example/bot", Layout: LayoutRegistry03},
			wantProbs: "card-bad-member,card-bad-member",
		},
		{
			name: "purpose as an array of strings (registry-04 §3.2.5 leaves it open)",
			doc:  []byte(`{"client_id":"https://a.example/bot","web_bot_auth":{"purpose":["search"," ai-train ",""]}}`),
			want: Card{ClientID: "https://a.example/bot", Layout: LayoutRegistry03, Purpose: "search,ai-train"},
		},
		{
			name: "registry-02 flat example: keys and jwks_uri both allowed then",
			doc:  sample(t, "signature_agent_card_registry-02_legacy_flat_example.json", "card"),
			want: Card{
				Name: "Example Bot", ClientURI: "https://example.com/bot/about.html",
				ProductToken: "ExampleBot", ExpectedUserAgent: []string{"Mozilla/5.0 ExampleBot"},
				Trigger: "fetcher", Purpose: "tdm",
				JWKSURI: "https://example.com/.well-known/http-message-signatures-directory",
				IPsURI:  "https://example.com/ips.json", Layout: LayoutLegacyFlat,
				RFC9309Compliance: ComplianceTrue,
				RFC9309Directives: []string{"User-Agent", "Allow", "Disallow", "Content-Usage"},
			},
			wantTPs:   []string{b1EdTP},
			wantProbs: "card-older-draft-shape,jwk-kid-mismatch,card-keys-and-jwks-uri",
		},
		{
			name: "Cloudflare worker example",
			doc:  sample(t, "signature_agent_card_cloudflare_worker_example.json", "card"),
			want: Card{
				ClientID: "https://<host>/signature-agent-card", Name: "<host>",
				JWKSURI: "https://<host>/.well-known/http-message-signatures-directory",
				Trigger: "fetcher", Purpose: "example", Layout: LayoutRegistry03,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkParseCard(t, tt) })
	}
}

// TestParseCardKeys reads inline keys, user-agent patterns and the
// members that make a card invalid or carry a problem.
func TestParseCardKeys(t *testing.T) {
	edKey, edTP := edJWK(t, 1, "")
	tests := []parseCardCase{
		{
			name: "registry-03 with jwks and jwks_uri is invalid",
			doc:  []byte(`{"client_id":"https://a.example/bot","jwks_uri":"https://a.example/jwks","jwks":{"keys":[` + edKey + `]},"web_bot_auth":{}}`),
			want: Card{
				ClientID: "https://a.example/bot", JWKSURI: "https://a.example/jwks",
				Layout: LayoutRegistry03, Invalid: InvalidJWKSAndURI,
			},
			wantTPs:   []string{edTP},
			wantProbs: "card-invalid",
		},
		{
			name: "inline jwks only",
			doc:  []byte(`{"client_id":"https://a.example/bot","jwks":{"keys":[` + edKey + `]},"web_bot_auth":{"expected-user-agent":["A/1 *","B/2"],"rfc9309-product-token":"ABot"}}`),
			want: Card{
				ClientID: "https://a.example/bot", ProductToken: "ABot",
				ExpectedUserAgent: []string{"A/1 *", "B/2"}, Layout: LayoutRegistry03,
			},
			wantTPs: []string{edTP},
		},
		{
			name:      "expected-user-agent array with junk and a match-all pattern",
			doc:       []byte(`{"expected-user-agent":["X/1",5,"*"," ","Y*"]}`),
			want:      Card{ExpectedUserAgent: []string{"X/1", "Y*"}, Layout: LayoutLegacyFlat},
			wantProbs: "card-bad-member,card-ua-pattern-too-broad",
		},
		{
			name:      "expected-user-agent of the wrong type",
			doc:       []byte(`{"web_bot_auth":{"expected-user-agent":{"a":1}}}`),
			want:      Card{Layout: LayoutRegistry03},
			wantProbs: "card-bad-member",
		},
		{
			name:      "registry-03 with bot fields at top level",
			doc:       []byte(`{"client_id":"https://a.example/c","web_bot_auth":{"purpose":"search"},"rfc9309-product-token":"Tok"}`),
			want:      Card{ClientID: "https://a.example/c", ProductToken: "Tok", Purpose: "search", Layout: LayoutRegistry03},
			wantProbs: "card-member-outside-web-bot-auth",
		},
		{
			name:      "registry-03 card with legacy keys",
			doc:       []byte(`{"client_id":"https://a.example/c","web_bot_auth":{},"keys":[` + edKey + `]}`),
			want:      Card{ClientID: "https://a.example/c", Layout: LayoutRegistry03},
			wantTPs:   []string{edTP},
			wantProbs: "card-legacy-keys",
		},
		{
			name:    "registry-00: name and a single key object",
			doc:     []byte(`{"name":"Old Bot","keys":` + edKey + `}`),
			want:    Card{Name: "Old Bot", Layout: LayoutLegacyFlat},
			wantTPs: []string{edTP},
		},
		{
			name:      "http jwks_uri is invalid",
			doc:       []byte(`{"client_id":"https://a.example/c","jwks_uri":"http://a.example/jwks"}`),
			want:      Card{ClientID: "https://a.example/c", JWKSURI: "http://a.example/jwks", Layout: LayoutLegacyFlat, Invalid: InvalidJWKSURINotHTTPS},
			wantProbs: "card-invalid",
		},
		{
			name:      "http client_id is invalid",
			doc:       []byte(`{"client_id":"http://a.example/c"}`),
			want:      Card{ClientID: "http://a.example/c", Layout: LayoutLegacyFlat, Invalid: InvalidClientIDNotHTTPS},
			wantProbs: "card-invalid",
		},
		{
			name:      "http ips_uri is a problem only",
			doc:       []byte(`{"ips_uri":"http://a.example/ips.json"}`),
			want:      Card{IPsURI: "http://a.example/ips.json", Layout: LayoutLegacyFlat},
			wantProbs: "card-ips-uri-not-https",
		},
		{
			name:      "jwks not an object",
			doc:       []byte(`{"jwks":[1]}`),
			want:      Card{Layout: LayoutLegacyFlat, Invalid: InvalidBadJWKS},
			wantProbs: "card-bad-member",
		},
		{
			name:      "web_bot_auth not an object",
			doc:       []byte(`{"client_name":"n","web_bot_auth":"x"}`),
			want:      Card{Name: "n", Layout: LayoutLegacyFlat},
			wantProbs: "card-bad-member",
		},
		{name: "empty object", doc: []byte(`{}`), want: Card{Layout: LayoutLegacyFlat, Invalid: InvalidEmpty}},
		{name: "not JSON", doc: []byte(`<html>`), wantErr: ErrNotCard},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkParseCard(t, tt) })
	}
}

func cardEqual(a, b Card) bool {
	ua := slices.Equal(a.ExpectedUserAgent, b.ExpectedUserAgent)
	a.ExpectedUserAgent, b.ExpectedUserAgent = nil, nil
	a.JWKS, b.JWKS = nil, nil
	return ua && a.ClientID == b.ClientID && a.Name == b.Name && a.ClientURI == b.ClientURI &&
		a.ProductToken == b.ProductToken && a.Trigger == b.Trigger && a.Purpose == b.Purpose &&
		a.JWKSURI == b.JWKSURI && a.IPsURI == b.IPsURI && a.Layout == b.Layout && a.Invalid == b.Invalid &&
		a.RFC9309Compliance == b.RFC9309Compliance && slices.Equal(a.RFC9309Directives, b.RFC9309Directives)
}

func TestMatchesUA(t *testing.T) {
	tests := []struct {
		patterns []string
		token    string
		ua       string
		want     bool
	}{
		{[]string{"Mozilla/5.0 ExampleBot"}, "", "Mozilla/5.0 ExampleBot", true},
		{[]string{"Mozilla/5.0 ExampleBot"}, "", "Mozilla/5.0 ExampleBot/1.2 (+https://example.com)", true},
		{[]string{"Mozilla/5.0 ExampleBot"}, "", "Mozilla/5.0 (compatible) ExampleBot", false},
		{[]string{"Mozilla/5.0 ExampleBot"}, "", "mozilla/5.0 examplebot", false},
		{[]string{"Mozilla/5.0 * ExampleBot/*"}, "", "Mozilla/5.0 (X11; Linux) ExampleBot/3", true},
		{[]string{"Mozilla/5.0 * ExampleBot/*"}, "", "Mozilla/5.0 (X11; Linux) OtherBot/3", false},
		{[]string{"*ExampleBot"}, "", "Mozilla/5.0 (compatible; ExampleBot)", true},
		{[]string{"A*B*C"}, "", "AxxBxxCxx", true},
		{[]string{"A*B*C"}, "", "AxxCxxB", false},
		{[]string{"**x"}, "", "yyx", true},
		{nil, "ExampleBot", "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com)", true},
		{nil, "ExampleBot", "examplebot/2", true},
		{nil, "ExampleBot", "ExampleBot", true},
		{nil, "ExampleBot", "ExampleBot-Image/1.0", false},
		{nil, "ExampleBot", "NotExampleBot/1.0", false},
		{nil, "ExampleBot", "Example.Bot/1.0", false},
		{nil, "GPTBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)", true},
		{nil, "", "anything", false},
		{[]string{"X"}, "Y", "", false},
	}
	for _, tt := range tests {
		c := &Card{ExpectedUserAgent: tt.patterns, ProductToken: tt.token}
		if got := c.MatchesUA(tt.ua); got != tt.want {
			t.Errorf("Card{UA:%q, token:%q}.MatchesUA(%q) = %v, want %v", tt.patterns, tt.token, tt.ua, got, tt.want)
		}
	}
}

func TestCardLabel(t *testing.T) {
	tests := []struct {
		card Card
		want string
	}{
		{Card{Name: "Example Bot", ProductToken: "ExampleBot", ClientID: "https://bot.example/card"}, "Example Bot"},
		{Card{ProductToken: "ExampleBot", ClientID: "https://bot.example/card"}, "ExampleBot"},
		{Card{ClientID: "https://bot.example/card"}, "https://bot.example/card"},
		{Card{}, "(unnamed)"},
	}
	for _, tt := range tests {
		if got := tt.card.Label(); got != tt.want {
			t.Errorf("Label() of %+v = %q, want %q", tt.card, got, tt.want)
		}
	}
}
