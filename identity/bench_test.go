package identity

import (
	"fmt"
	"net/netip"
	"sync"
	"testing"
	"time"
)

func BenchmarkParseJWKS(b *testing.B) {
	doc := sample(b, "directory_openai_chatgpt_sample_2025.json", "body")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ParseJWKS(doc, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCardForUA(b *testing.B) {
	s := NewStore()
	for i := range 50 {
		s.AddCard(&Card{
			ClientID:          fmt.Sprintf("https://bot%d.example/card", i),
			ProductToken:      fmt.Sprintf("Bot%dCrawler", i),
			ExpectedUserAgent: []string{fmt.Sprintf("Mozilla/5.0 (compatible; Bot%dCrawler/*", i)},
		}, time.Time{})
	}
	ua := "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Bot49Crawler/1.1; +https://bot49.example/)"
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := s.CardForUA(ua, time.Time{}); !ok {
			b.Fatal("no card")
		}
	}
}

// BenchmarkCardForUAUncached measures the card scan itself: every
// iteration uses a User-Agent not seen before.
func BenchmarkCardForUAUncached(b *testing.B) {
	s := NewStore()
	for i := range 50 {
		s.AddCard(&Card{
			ClientID:          fmt.Sprintf("https://bot%d.example/card", i),
			ProductToken:      fmt.Sprintf("Bot%dCrawler", i),
			ExpectedUserAgent: []string{fmt.Sprintf("Mozilla/5.0 (compatible; Bot%dCrawler/*", i)},
		}, time.Time{})
	}
	uas := make([]string, 4096)
	for i := range uas {
		uas[i] = fmt.Sprintf("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Bot49Crawler/1.%d; +https://bot49.example/)", i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		// Cycling through more UAs than fit between resets keeps hits rare
		// only at first; reset the memo to measure the scan.
		s.uaCache.Store(new(sync.Map))
		if _, ok := s.CardForUA(uas[i%len(uas)], time.Time{}); !ok {
			b.Fatal("no card")
		}
		i++
	}
}

func BenchmarkCheckIP(b *testing.B) {
	l := &IPList{}
	for i := range 1000 {
		l.Prefixes = append(l.Prefixes, netip.PrefixFrom(netip.AddrFrom4([4]byte{20, byte(i >> 8), byte(i), 0}), 24+i%5))
	}
	s := NewStore()
	s.AddIPList("GPTBot", l, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	ip := netip.MustParseAddr("20.3.200.7")
	at := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		s.CheckIP("gptbot", ip, at)
	}
}
