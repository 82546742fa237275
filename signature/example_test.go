package signature_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/signature"
)

// Verify a logged request against the key directory snapshot in force at
// its time. The signer here is built in the example; in an audit the
// request comes from a log line or WARC record, and the keys from captured
// directories or --jwks files.
func Example() {
	// The signer's key and its public JWK Set, as a directory publishes it.
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	x := base64.RawURLEncoding.EncodeToString(priv.Public().(ed25519.PublicKey))
	keys, _, err := identity.ParseJWKS([]byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":"`+x+`"}]}`), "directory")
	if err != nil {
		panic(err)
	}
	store := identity.NewStore()
	at := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	store.AddKeys("https://bot.example/.well-known/http-message-signatures-directory", keys, at.Add(-time.Hour))

	// The signature base of RFC 9421 §2.5, signed.
	params := `("@authority" "signature-agent");created=1748779190;expires=1748779250;keyid="` + keys[0].Thumbprint + `";tag="web-bot-auth"`
	base := "\"@authority\": example.com\n\"signature-agent\": \"https://bot.example\"\n\"@signature-params\": " + params
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(base)))

	v := signature.NewVerifier(store, signature.Options{})
	res := v.Verify(&signature.Request{
		Time: at, Method: "GET", Authority: "example.com", Target: "/page",
		Header: event.Header{
			{Name: "Signature-Agent", Value: `"https://bot.example"`},
			{Name: "Signature-Input", Value: "sig1=" + params},
			{Name: "Signature", Value: "sig1=:" + sig + ":"},
		},
	})
	fmt.Println(res.Verdict, res.Reasons, res.Agent, res.AgentShape)

	// Ten minutes later the same signature has expired.
	res = v.Verify(&signature.Request{
		Time: at.Add(10 * time.Minute), Method: "GET", Authority: "example.com", Target: "/page",
		Header: event.Header{
			{Name: "Signature-Agent", Value: `"https://bot.example"`},
			{Name: "Signature-Input", Value: "sig1=" + params},
			{Name: "Signature", Value: "sig1=:" + sig + ":"},
		},
	})
	fmt.Println(res.Verdict, res.Reasons)
	// Output:
	// verified [] https://bot.example legacy-string
	// invalid [expired]
}
