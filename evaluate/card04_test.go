package evaluate

import (
	"net/netip"
	"testing"
	"time"
)

// A registry-04 card captured in a WARC (draft-meunier-webbotauth-
// registry-04 §3.2: boolean rfc9309-compliance, purpose, ips_uri) names
// the bot's IP list; the list captured at that URL decides ip_check, and
// the card's declaration reaches the fetches row. Hand-written documents.
func TestRegistry04CardFeedsIPCheck(t *testing.T) {
	const (
		cardURL = "https://heron.example/agent-card"
		ipsURL  = "https://heron.example/heron-ranges.json"
		ua      = "HeronCrawler/2.0 (+https://heron.example/)"
	)
	card := `{"client_id":"` + cardURL + `","client_name":"Heron Crawler",
	  "web_bot_auth":{"rfc9309-product-token":"HeronCrawler","rfc9309-compliance":true,
	  "trigger":"crawler","purpose":"search","ips_uri":"` + ipsURL + `"}}`
	list := `{"creationTime":"2025-02-20T00:00:00.000000","prefixes":[{"ipv4Prefix":"198.51.100.0/24"}]}`
	tests := []struct {
		name, ip, want, identity string
	}{
		{"in the card's list", "198.51.100.7", "in_range", string(IdentityVerified)},
		{"outside it", "203.0.113.9", "not_in_range", string(IdentitySpoofed)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScenario(t)
			if kind, probs := s.ids.AddCapture(cardURL, []byte(card), t0.Add(-48*time.Hour), "cards.warc.gz@0"); kind != "card" || len(probs) != 0 {
				t.Fatalf("card capture: %q %v", kind, probs)
			}
			if kind, probs := s.ids.AddCapture(ipsURL, []byte(list), t0.Add(-48*time.Hour), "cards.warc.gz@900"); kind != "iplist" || len(probs) != 0 {
				t.Fatalf("list capture: %q %v", kind, probs)
			}
			s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nDisallow: /private/\n")
			f := s.fetch(ua, site+"/a", hours(2), 200)
			f.ClientIP = netip.MustParseAddr(tt.ip)
			s.run()
			row := s.j(f).Fetch
			if row.IPCheck != tt.want || row.Identity != tt.identity {
				t.Errorf("ip_check %q identity %q; want %q %q", row.IPCheck, row.Identity, tt.want, tt.identity)
			}
			if row.Agent != "HeronCrawler" || row.CardURL != cardURL || row.CardCompliance != "true" || row.CardPurpose != "search" {
				t.Errorf("agent %q card_url %q compliance %q purpose %q; want HeronCrawler, %s, true, search",
					row.Agent, row.CardURL, row.CardCompliance, row.CardPurpose, cardURL)
			}
		})
	}
}
