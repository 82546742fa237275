package identity

import (
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
)

func ipList(t *testing.T, created string, prefixes ...string) *IPList {
	t.Helper()
	l := &IPList{Source: "list-" + created}
	if created != "" {
		l.CreationTime = mustTime(t, created)
	}
	for _, p := range prefixes {
		l.Prefixes = append(l.Prefixes, netip.MustParsePrefix(p))
	}
	return l
}

func TestStoreIPTimeline(t *testing.T) {
	s := NewStore()
	// March: two ranges. May: the second range is dropped.
	s.AddIPList("ExampleBot", ipList(t, "2025-03-01T00:00:00Z", "192.0.2.0/24", "198.51.100.0/24"), time.Time{})
	s.AddIPList("ExampleBot", ipList(t, "2025-05-01T00:00:00Z", "192.0.2.0/24"), time.Time{})
	// A list without creationTime is placed at the time given.
	s.AddIPList("https://other.example/ips.json", ipList(t, "", "203.0.113.0/24"), mustTime(t, "2025-04-01T00:00:00Z"))

	tests := []struct {
		owner, ip, at string
		want          string
		wantPrefix    string
		wantListTime  string
	}{
		{"ExampleBot", "198.51.100.9", "2025-04-10T00:00:00Z", IPInRange, "198.51.100.0/24", "2025-03-01T00:00:00Z"},
		{"examplebot", "198.51.100.9", "2025-04-10T00:00:00Z", IPInRange, "198.51.100.0/24", "2025-03-01T00:00:00Z"},
		{"ExampleBot", "198.51.100.9", "2025-06-10T00:00:00Z", IPNotInRange, "", "2025-05-01T00:00:00Z"},
		{"ExampleBot", "192.0.2.1", "2025-06-10T00:00:00Z", IPInRange, "192.0.2.0/24", "2025-05-01T00:00:00Z"},
		{"ExampleBot", "198.51.100.9", "2025-05-01T00:00:00Z", IPNotInRange, "", "2025-05-01T00:00:00Z"},       // at the instant: new list in force
		{"ExampleBot", "192.0.2.1", "2025-02-01T00:00:00Z", IPInRange, "192.0.2.0/24", "2025-03-01T00:00:00Z"}, // before the first snapshot: the earliest covers it
		{"ExampleBot", "203.0.113.1", "2025-02-01T00:00:00Z", IPNotInRange, "", "2025-03-01T00:00:00Z"},
		{"OtherBot", "192.0.2.1", "2025-06-10T00:00:00Z", IPNotGiven, "", ""},
		{"https://OTHER.example:443/ips.json", "203.0.113.5", "2025-04-02T00:00:00Z", IPInRange, "203.0.113.0/24", "2025-04-01T00:00:00Z"},
	}
	for _, tt := range tests {
		got := s.CheckIP(tt.owner, netip.MustParseAddr(tt.ip), mustTime(t, tt.at))
		if got.Result != tt.want {
			t.Errorf("CheckIP(%s, %s, %s) = %q, want %q", tt.owner, tt.ip, tt.at, got.Result, tt.want)
			continue
		}
		gp := ""
		if got.Prefix.IsValid() {
			gp = got.Prefix.String()
		}
		if gp != tt.wantPrefix {
			t.Errorf("CheckIP(%s, %s, %s).Prefix = %q, want %q", tt.owner, tt.ip, tt.at, gp, tt.wantPrefix)
		}
		glt := ""
		if !got.ListTime.IsZero() {
			glt = got.ListTime.Format(time.RFC3339)
			if got.ListSource != "list-"+glt && !strings.HasPrefix(got.ListSource, "list-") {
				t.Errorf("ListSource = %q, want the snapshot's source", got.ListSource)
			}
		}
		if glt != tt.wantListTime {
			t.Errorf("CheckIP(%s, %s, %s).ListTime = %q, want %q", tt.owner, tt.ip, tt.at, glt, tt.wantListTime)
		}
	}
	if got := s.CheckIP("ExampleBot", netip.Addr{}, mustTime(t, "2025-04-10T00:00:00Z")); got.Result != IPNoAddress {
		t.Errorf("CheckIP with no address = %q, want %q", got.Result, IPNoAddress)
	}
}

func TestStoreIPThroughCard(t *testing.T) {
	s := NewStore()
	s.AddCard(&Card{ClientID: "https://example.com/bot", ProductToken: "ExampleBot", IPsURI: "https://example.com/ips.json"}, mustTime(t, "2025-01-01T00:00:00Z"))
	s.AddIPList("https://example.com/ips.json", ipList(t, "2025-02-01T00:00:00Z", "192.0.2.0/24"), mustTime(t, "2025-02-03T00:00:00Z"))
	at := mustTime(t, "2025-03-01T00:00:00Z")
	for _, owner := range []string{"examplebot", "https://example.com/bot", "https://example.com/ips.json"} {
		if got := s.CheckIP(owner, netip.MustParseAddr("192.0.2.200"), at); got.Result != IPInRange {
			t.Errorf("CheckIP(%s) = %q, want in_range through the card's ips_uri", owner, got.Result)
		}
		if got := s.CheckIP(owner, netip.MustParseAddr("10.0.0.1"), at); got.Result != IPNotInRange {
			t.Errorf("CheckIP(%s, 10.0.0.1) = %q, want not_in_range", owner, got.Result)
		}
	}
	// Before the card existed there is no ips_uri to follow.
	if got := s.CheckIP("ExampleBot", netip.MustParseAddr("192.0.2.200"), mustTime(t, "2024-12-01T00:00:00Z")); got.Result != IPNotGiven {
		t.Errorf("CheckIP before the card = %q, want not_given", got.Result)
	}
}

func TestStoreLocalIPListBaseline(t *testing.T) {
	s := NewStore()
	s.AddIPList("Bot", ipList(t, "", "10.0.0.0/8"), time.Time{}) // local, undated
	s.AddIPList("Bot", ipList(t, "2025-05-01T00:00:00Z", "192.0.2.0/24"), time.Time{})
	if got := s.CheckIP("Bot", netip.MustParseAddr("10.1.1.1"), mustTime(t, "2025-01-01T00:00:00Z")); got.Result != IPInRange {
		t.Errorf("before the dated list: %q, want in_range from the local list", got.Result)
	}
	if got := s.CheckIP("Bot", netip.MustParseAddr("10.1.1.1"), mustTime(t, "2025-06-01T00:00:00Z")); got.Result != IPNotInRange {
		t.Errorf("after the dated list: %q, want not_in_range (dated snapshot in force)", got.Result)
	}
}

func keySet(t *testing.T, seeds ...byte) ([]Key, []string) {
	t.Helper()
	var doc strings.Builder
	doc.WriteString(`{"keys":[`)
	var tps []string
	for i, sd := range seeds {
		jwk, tp := edJWK(t, sd, "")
		if i > 0 {
			doc.WriteByte(',')
		}
		doc.WriteString(jwk)
		tps = append(tps, tp)
	}
	doc.WriteString(`]}`)
	keys, _, err := ParseJWKS([]byte(doc.String()), fmt.Sprintf("seeds%v", seeds))
	if err != nil {
		t.Fatal(err)
	}
	return keys, tps
}

func thumbprints(keys []Key) string {
	var s []string
	for _, k := range keys {
		s = append(s, k.Thumbprint)
	}
	return strings.Join(s, " ")
}

func TestStoreKeyRotation(t *testing.T) {
	const dir = "https://example.com/.well-known/http-message-signatures-directory"
	s := NewStore()
	march, marchTP := keySet(t, 1)
	may, mayTP := keySet(t, 2)
	s.AddKeys(dir, march, mustTime(t, "2025-03-01T00:00:00Z"))
	s.AddKeys(dir, may, mustTime(t, "2025-05-01T00:00:00Z"))
	s.AddCard(&Card{ClientID: "https://example.com/bot", JWKSURI: dir, Layout: LayoutRegistry03}, mustTime(t, "2025-02-01T00:00:00Z"))

	tests := []struct {
		ref, at   string
		want      string
		wantKnown bool
	}{
		{"https://example.com", "2025-04-15T00:00:00Z", marchTP[0], true},
		{"https://EXAMPLE.com/", "2025-04-15T00:00:00Z", marchTP[0], true},
		{`"https://example.com"`, "2025-04-15T00:00:00Z", marchTP[0], true},
		{"<https://example.com>", "2025-04-15T00:00:00Z", marchTP[0], true},
		{dir, "2025-04-15T00:00:00Z", marchTP[0], true},
		{"https://example.com/bot", "2025-04-15T00:00:00Z", marchTP[0], true},
		{"https://example.com", "2025-06-15T00:00:00Z", mayTP[0], true},
		{"https://example.com/bot", "2025-06-15T00:00:00Z", mayTP[0], true},
		{"https://example.com", "2025-02-15T00:00:00Z", "", false}, // before the first snapshot
		{"https://example.com/bot", "2025-02-15T00:00:00Z", "", false},
		{"https://example.com/bot", "2025-01-15T00:00:00Z", "", false}, // before the card
		{"https://unknown.example", "2025-06-15T00:00:00Z", "", false},
	}
	for _, tt := range tests {
		keys, known := s.Keys(tt.ref, mustTime(t, tt.at))
		if known != tt.wantKnown || thumbprints(keys) != tt.want {
			t.Errorf("Keys(%s, %s) = %q, %v; want %q, %v", tt.ref, tt.at, thumbprints(keys), known, tt.want, tt.wantKnown)
		}
		for _, k := range keys {
			if !strings.HasPrefix(k.Source, dir+" (") || !strings.Contains(k.Source, "as of 2025-0") {
				t.Errorf("Key.Source = %q, want the directory URL and snapshot time", k.Source)
			}
		}
	}
}

func TestStoreCardKeys(t *testing.T) {
	inline, inlineTP := keySet(t, 3)
	local, localTP := keySet(t, 4)
	dated, datedTP := keySet(t, 5)
	s := NewStore()
	s.AddCard(&Card{ClientID: "https://a.example/bot", JWKS: inline}, time.Time{})
	s.AddCard(&Card{ClientID: "https://b.example/bot", JWKS: inline, JWKSURI: "https://b.example/jwks", Invalid: InvalidJWKSAndURI}, time.Time{})
	s.AddCard(&Card{ClientID: "https://c.example/bot", JWKS: inline, JWKSURI: "https://c.example/jwks", Layout: LayoutLegacyFlat}, time.Time{})
	s.AddCard(&Card{ClientID: "https://d.example/bot", JWKSURI: "https://d.example/jwks"}, time.Time{})
	s.AddCard(&Card{ClientID: "https://e.example/bot"}, time.Time{})
	s.AddKeys("https://e.example/.well-known/http-message-signatures-directory", dated, mustTime(t, "2025-01-01T00:00:00Z"))
	s.AddKeys("https://d.example/jwks", local, time.Time{})
	s.AddKeys("https://d.example/jwks", dated, mustTime(t, "2025-01-01T00:00:00Z"))
	tests := []struct {
		ref, at   string
		want      string
		wantKnown bool
	}{
		{"https://a.example/bot", "2025-06-01T00:00:00Z", inlineTP[0], true},
		{"https://b.example/bot", "2025-06-01T00:00:00Z", "", true},          // invalid card: known, no trusted keys
		{"https://c.example/bot", "2025-06-01T00:00:00Z", inlineTP[0], true}, // legacy both: jwks_uri unknown → inline
		{"https://d.example/bot", "2024-06-01T00:00:00Z", localTP[0], true},  // local undated before the dated snapshot
		{"https://d.example/bot", "2025-06-01T00:00:00Z", datedTP[0], true},  // dated snapshot wins once in force
		{"https://e.example/bot", "2025-06-01T00:00:00Z", datedTP[0], true},  // no keys on card: client_id origin directory
		{"https://e.example/bot", "2024-06-01T00:00:00Z", "", false},
	}
	for _, tt := range tests {
		keys, known := s.Keys(tt.ref, mustTime(t, tt.at))
		if known != tt.wantKnown || thumbprints(keys) != tt.want {
			t.Errorf("Keys(%s, %s) = %q, %v; want %q, %v", tt.ref, tt.at, thumbprints(keys), known, tt.want, tt.wantKnown)
		}
	}
}

func TestStoreKeysDataURL(t *testing.T) {
	s := NewStore()
	keys, known := s.Keys(`data:application/json,{"keys":[{"kty":"OKP","crv":"Ed25519","x":"`+b1EdX+`"}]}`, time.Time{})
	if !known || thumbprints(keys) != b1EdTP {
		t.Errorf("Keys(data:) = %q, %v; want %q, true", thumbprints(keys), known, b1EdTP)
	}
	if _, known := s.Keys("data:,garbage", time.Time{}); known {
		t.Error("Keys(data:,garbage) known = true, want false")
	}
}

func TestStoreTrustedKeys(t *testing.T) {
	s := NewStore()
	keys, tps := keySet(t, 6, 7)
	s.AddTrustedKeys(keys)
	got := s.TrustedKeys()
	if thumbprints(got) != strings.Join(tps, " ") {
		t.Errorf("TrustedKeys = %q, want %q", thumbprints(got), tps)
	}
	got[0].Thumbprint = "changed"
	if s.TrustedKeys()[0].Thumbprint == "changed" {
		t.Error("TrustedKeys returned the store's own slice")
	}
}

func TestStoreCardForUA(t *testing.T) {
	s := NewStore()
	general := &Card{ClientID: "https://example.com/bot", ProductToken: "ExampleBot", ExpectedUserAgent: []string{"Mozilla/5.0 ExampleBot"}}
	special := &Card{ClientID: "https://example.com/bot2", ExpectedUserAgent: []string{"Mozilla/5.0 ExampleBot/2.0"}}
	later := &Card{ClientID: "https://later.example/bot", ProductToken: "LaterBot"}
	s.AddCard(general, mustTime(t, "2025-01-01T00:00:00Z"))
	s.AddCard(special, mustTime(t, "2025-01-01T00:00:00Z"))
	s.AddCard(later, mustTime(t, "2025-05-01T00:00:00Z"))
	tests := []struct {
		ua, at string
		want   *Card
	}{
		{"Mozilla/5.0 ExampleBot/2.0 (+https://example.com)", "2025-02-01T00:00:00Z", special},
		{"Mozilla/5.0 ExampleBot/1.0", "2025-02-01T00:00:00Z", general},
		{"Mozilla/5.0 (compatible; examplebot/1.0)", "2025-02-01T00:00:00Z", general},
		{"LaterBot/1.0", "2025-04-01T00:00:00Z", nil},
		{"LaterBot/1.0", "2025-06-01T00:00:00Z", later},
		{"curl/8", "2025-06-01T00:00:00Z", nil},
		{"", "2025-06-01T00:00:00Z", nil},
		{"Mozilla/5.0 ExampleBot/1.0", "2024-06-01T00:00:00Z", nil},
	}
	for _, tt := range tests {
		got, ok := s.CardForUA(tt.ua, mustTime(t, tt.at))
		if got != tt.want || ok != (tt.want != nil) {
			t.Errorf("CardForUA(%q, %s) = %v, %v; want %v", tt.ua, tt.at, got, ok, tt.want)
		}
	}
	// The memo is dropped when a card is added.
	newer := &Card{ClientID: "https://newer.example/bot", ProductToken: "curl"}
	s.AddCard(newer, mustTime(t, "2025-01-01T00:00:00Z"))
	if got, _ := s.CardForUA("curl/8", mustTime(t, "2025-06-01T00:00:00Z")); got != newer {
		t.Errorf("CardForUA after AddCard = %v, want the new card", got)
	}

	// An exact whole-UA pattern beats a longer wildcard one.
	s2 := NewStore()
	wild := &Card{ClientID: "https://w.example/c", ExpectedUserAgent: []string{"Mozilla/5.0 (X11; Linux x86_64) Bot*"}}
	exact := &Card{ClientID: "https://x.example/c", ExpectedUserAgent: []string{"Mozilla/5.0 (X11; Linux x86_64) Bot/1"}}
	s2.AddCard(wild, time.Time{})
	s2.AddCard(exact, time.Time{})
	if got, _ := s2.CardForUA("Mozilla/5.0 (X11; Linux x86_64) Bot/1", time.Time{}); got != exact {
		t.Errorf("CardForUA exact = %v, want the exact-pattern card", got)
	}
}

func TestStoreCardTimeline(t *testing.T) {
	s := NewStore()
	v1 := &Card{ClientID: "https://example.com/bot", Name: "v1"}
	v2 := &Card{ClientID: "https://example.com/bot", Name: "v2"}
	s.AddCard(v2, mustTime(t, "2025-05-01T00:00:00Z")) // out of order on purpose
	s.AddCard(v1, mustTime(t, "2025-03-01T00:00:00Z"))
	s.AddCard(&Card{Name: "inline", Source: "reg.txt:4"}, time.Time{})
	for _, tt := range []struct {
		at   string
		want *Card
	}{{"2025-02-01T00:00:00Z", nil}, {"2025-04-01T00:00:00Z", v1}, {"2025-05-01T00:00:00Z", v2}, {"2026-01-01T00:00:00Z", v2}} {
		got, ok := s.CardByID("https://EXAMPLE.COM/bot", mustTime(t, tt.at))
		if got != tt.want || ok != (tt.want != nil) {
			t.Errorf("CardByID at %s = %v, want %v", tt.at, got, tt.want)
		}
	}
	cards := s.Cards()
	if len(cards) != 2 || cards[0] != v2 || cards[1].Name != "inline" {
		t.Errorf("Cards() = %v, want the latest snapshot of each card in order", cards)
	}
}

func TestStoreAddCapture(t *testing.T) {
	s := NewStore()
	at := mustTime(t, "2025-04-01T00:00:00Z")
	card := sample(t, "signature_agent_card_registry-03_example.json", "card")

	// The registry-03 example lists its robots.txt directives, the shape
	// registry-04 replaced: read, with one diagnostic.
	kind, probs := s.AddCapture("https://example.com/bot", card, at, "c.warc.gz@100")
	if kind != KindCard || problemCodes(probs) != "card-older-draft-shape" {
		t.Errorf("AddCapture(card) = %q, %v; want card, one card-older-draft-shape problem", kind, probs)
	}
	if c, ok := s.CardByID("https://example.com/bot", at); !ok || c.Invalid != "" || c.Source != "c.warc.gz@100" {
		t.Errorf("captured card = %+v, %v; want a valid card from c.warc.gz@100", c, ok)
	}

	kind, probs = s.AddCapture("https://mirror.example/bot", card, at, "c.warc.gz@200")
	if kind != KindCard || !hasProblem(probs, "card-invalid") {
		t.Errorf("AddCapture(card at other URL) = %q, %v; want card-invalid", kind, probs)
	}
	if c, _ := s.CardByID("https://example.com/bot", at); c.Invalid != "" || c.Source != "c.warc.gz@100" {
		t.Errorf("a copy at another URL replaced the real card: %+v", c)
	}
	var mirror *Card
	for _, c := range s.Cards() {
		if c.Source == "c.warc.gz@200" {
			mirror = c
		}
	}
	if mirror == nil || mirror.Invalid != InvalidClientIDMismatch {
		t.Errorf("mismatched card = %+v, want Invalid %q", mirror, InvalidClientIDMismatch)
	}

	legacy := sample(t, "signature_agent_card_registry-02_legacy_flat_example.json", "card")
	kind, probs = s.AddCapture("https://legacy.example/card.json", legacy, at, "c.warc.gz@300")
	if kind != KindCard || !hasProblem(probs, "card-no-client-id") {
		t.Errorf("AddCapture(legacy) = %q, %v; want card with card-no-client-id", kind, probs)
	}
	if _, ok := s.CardByID("https://legacy.example/card.json", at); !ok {
		t.Error("legacy card not keyed by its capture URL")
	}

	dir := sample(t, "directory_draft_example.json", "body")
	kind, probs = s.AddCapture("https://example.com/.well-known/http-message-signatures-directory", dir, at, "c.warc.gz@400")
	if kind != KindJWKS || !hasProblem(probs, "jwk-kid-mismatch") {
		t.Errorf("AddCapture(directory) = %q, %v", kind, probs)
	}
	if keys, known := s.Keys("https://example.com", at); !known || thumbprints(keys) != b1EdTP || !keys[0].TestKey {
		t.Errorf("Keys after directory capture = %q, %v", thumbprints(keys), known)
	}

	ips := sample(t, "jafar_example_1_basic.json", "")
	kind, _ = s.AddCapture("https://example.com/ips.json", ips, mustTime(t, "2025-09-01T00:00:00Z"), "c.warc.gz@500")
	if kind != KindIPList {
		t.Errorf("AddCapture(ips) = %q, want iplist", kind)
	}
	// The list is in force from its creationTime (2025-08-15T14:30:00Z), not the capture time.
	got := s.CheckIP("https://example.com/ips.json", netip.MustParseAddr("66.249.66.1"), mustTime(t, "2025-08-20T00:00:00Z"))
	if got.Result != IPInRange || got.ListSource != "c.warc.gz@500" {
		t.Errorf("CheckIP after capture = %+v, want in_range from c.warc.gz@500", got)
	}

	inline := `{"client_name":"Inline","web_bot_auth":{"rfc9309-product-token":"InlineBot"}}`
	kind, probs = s.AddCapture("data:application/json,"+inline, []byte(inline), at, "c.warc.gz@550")
	if kind != KindCard || len(probs) != 0 {
		t.Errorf("AddCapture(data: card) = %q, %v; want card without problems", kind, probs)
	}
	if c, ok := s.CardForUA("InlineBot/1", at); !ok || c.Invalid != "" {
		t.Errorf("inline card = %+v, %v; want a valid card found by its token", c, ok)
	}
	s.AddCapture("data:application/json,"+inline, []byte(inline), at.Add(time.Hour), "c.warc.gz@560")
	if n := len(s.Cards()); n != 4 {
		t.Errorf("%d cards after a second capture of the inline card, want 4 (same card, new snapshot)", n)
	}

	if kind, probs := s.AddCapture("https://example.com/x", []byte(`{"hello":"world"}`), at, "c.warc.gz@600"); kind != "" || probs != nil {
		t.Errorf("AddCapture(unrelated) = %q, %v; want nothing", kind, probs)
	}
}

func TestStoreConcurrent(t *testing.T) {
	s := NewStore()
	keys, _ := keySet(t, 9)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			at := time.Date(2025, 1, 1+i, 0, 0, 0, 0, time.UTC)
			s.AddKeys("https://example.com/.well-known/http-message-signatures-directory", keys, at)
			s.AddIPList("Bot", &IPList{Prefixes: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}, at)
			s.AddCard(&Card{ClientID: fmt.Sprintf("https://c%d.example/", i), ProductToken: "Bot"}, at)
		}()
		go func() {
			defer wg.Done()
			at := time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)
			s.Keys("https://example.com", at)
			s.CheckIP("Bot", netip.MustParseAddr("10.0.0.1"), at)
			s.CardForUA("Bot/1", at)
			s.Cards()
		}()
	}
	wg.Wait()
	if _, known := s.Keys("https://example.com", time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)); !known {
		t.Error("keys not known after concurrent adds")
	}
}
