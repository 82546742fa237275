package identity_test

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/repaudit/repaudit/identity"
)

// A card, its key directory and its IP list, captured at different times,
// answer questions about a request at the time it was made.
func Example() {
	s := identity.NewStore()
	march := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)

	card := `{"client_id":"https://example.com/bot","client_name":"Example Bot",
	  "jwks_uri":"https://example.com/.well-known/http-message-signatures-directory",
	  "web_bot_auth":{"rfc9309-product-token":"ExampleBot","ips_uri":"https://example.com/ips.json"}}`
	s.AddCapture("https://example.com/bot", []byte(card), march, "crawl.warc.gz@0")

	dir := `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}`
	s.AddCapture("https://example.com/.well-known/http-message-signatures-directory", []byte(dir), march, "crawl.warc.gz@812")

	ips := `{"creationTime":"2025-02-15T00:00:00Z","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`
	s.AddCapture("https://example.com/ips.json", []byte(ips), march, "crawl.warc.gz@1630")

	at := time.Date(2025, 4, 2, 10, 0, 0, 0, time.UTC)
	c, _ := s.CardForUA("Mozilla/5.0 (compatible; ExampleBot/1.0)", at)
	fmt.Println("claims:", c.Name)

	keys, known := s.Keys(c.ClientID, at)
	fmt.Println("keys known:", known, "first keyid:", keys[0].Thumbprint, "test key:", keys[0].TestKey)

	_, known = s.Keys(c.ClientID, march.Add(-time.Hour))
	fmt.Println("keys known before the capture:", known)

	fmt.Println("192.0.2.7:", s.CheckIP("ExampleBot", netip.MustParseAddr("192.0.2.7"), at).Result)
	fmt.Println("203.0.113.9:", s.CheckIP("ExampleBot", netip.MustParseAddr("203.0.113.9"), at).Result)
	// Output:
	// claims: Example Bot
	// keys known: true first keyid: poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U test key: true
	// keys known before the capture: false
	// 192.0.2.7: in_range
	// 203.0.113.9: not_in_range
}
