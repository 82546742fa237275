package signature_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/signature"
)

// checkFixture is a store that trusts one Ed25519 key and holds one card
// for "ExampleBot" User-Agents, and a line signed by that key over
// @authority (RFC 9421 §2.2.3) and the Signature-Agent member "a"
// (RFC 9421 §2.1.2, the key parameter) with a web-bot-auth tag.
func checkFixture(t *testing.T) (*identity.Store, string) {
	t.Helper()
	seed := make([]byte, ed25519.SeedSize)
	seed[0] = 7
	priv := ed25519.NewKeyFromSeed(seed)
	jwks := `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` +
		base64.RawURLEncoding.EncodeToString(priv.Public().(ed25519.PublicKey)) + `"}]}`
	keys, _, err := identity.ParseJWKS([]byte(jwks), "test.jwks")
	if err != nil || len(keys) != 1 {
		t.Fatalf("ParseJWKS: %v", err)
	}
	store := identity.NewStore()
	store.AddTrustedKeys(keys)
	card, _, err := identity.ParseCard([]byte(`{"client_id":"https://bot.example/card","client_name":"Example Bot",`+
		`"web_bot_auth":{"expected-user-agent":"Mozilla/5.0 ExampleBot","rfc9309-product-token":"ExampleBot"}}`), "card.json")
	if err != nil {
		t.Fatalf("ParseCard: %v", err)
	}
	store.AddCard(card, time.Time{})

	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	params := `("@authority" "signature-agent";key="a");created=` + strconv.FormatInt(t0.Unix(), 10) + ";expires=" +
		strconv.FormatInt(t0.Add(time.Minute).Unix(), 10) + `;keyid="` + keys[0].Thumbprint + `";tag="web-bot-auth"`
	base := "\"@authority\": example.com\n\"signature-agent\";key=\"a\": \"https://bot.example\"\n" +
		"\"@signature-params\": " + params
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(base)))
	line, err := json.Marshal(map[string]any{
		"time": t0.Add(10 * time.Second).Format(time.RFC3339), "method": "GET", "scheme": "https",
		"authority": "example.com", "path": "/", "headers": map[string]any{
			"User-Agent":      []string{"Mozilla/5.0 ExampleBot/1.0"},
			"Signature-Agent": []string{`a="https://bot.example"`},
			"Signature-Input": []string{"sig1=" + params},
			"Signature":       []string{"sig1=:" + sig + ":"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return store, string(line)
}

func TestCheckerCheckLine(t *testing.T) {
	store, signed := checkFixture(t)
	c := signature.NewChecker(store, signature.Options{})

	if _, ok := c.CheckLine(1, []byte("  \t")); ok {
		t.Error("a blank line gave a result")
	}
	bad, ok := c.CheckLine(2, []byte("{not json"))
	if !ok || bad.Line != 2 || bad.Error == "" || bad.Verdict != "" {
		t.Errorf("bad line: got %+v, %v; want an error on line 2", bad, ok)
	}

	first, ok := c.CheckLine(3, []byte(signed))
	if !ok || first.Error != "" {
		t.Fatalf("signed line: got %+v, %v", first, ok)
	}
	if first.Verdict != string(signature.Verified) {
		t.Errorf("verdict = %q (reasons %q), want %q", first.Verdict, first.Reasons, signature.Verified)
	}
	if first.Claimed != "https://bot.example/card" {
		t.Errorf("claimed = %q, want the card's client_id", first.Claimed)
	}
	if first.Replay != "" {
		t.Errorf("first sighting is a replay: %q", first.Replay)
	}
	if first.Reasons == nil {
		t.Error("reasons is nil; want [] so JSON shows a list")
	}

	same, _ := c.CheckLine(4, []byte(signed))
	if same.Replay != "" {
		t.Errorf("the same request again is a replay: %q", same.Replay)
	}
	// The signature covers no path, so it can be replayed on another.
	other := strings.Replace(signed, `"path":"/"`, `"path":"/b"`, 1)
	again, _ := c.CheckLine(5, []byte(other))
	if want := "(stdin:3); now different path /b"; !strings.HasSuffix(again.Replay, want) {
		t.Errorf("replay = %q, want one ending %q", again.Replay, want)
	}
}

func TestClaimedCardNone(t *testing.T) {
	store, _ := checkFixture(t)
	r, err := signature.ParseRequestJSON([]byte(`{"time":"2025-06-01T12:00:00Z","method":"GET","authority":"example.com","path":"/",` +
		`"headers":{"User-Agent":["curl/8.5.0"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := signature.ClaimedCard(store, r, signature.Result{Agent: signature.TrustedStore}); got != "" {
		t.Errorf("ClaimedCard = %q, want none", got)
	}
	if !strings.HasPrefix(r.Header.Get("User-Agent"), "curl") {
		t.Errorf("User-Agent = %q", r.Header.Get("User-Agent"))
	}
}
