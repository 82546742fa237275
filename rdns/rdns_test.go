package rdns

import (
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/internal/dnstest"
)

var (
	ipGood     = netip.MustParseAddr("66.249.66.1")
	ipOutside  = netip.MustParseAddr("66.249.66.2")
	ipMismatch = netip.MustParseAddr("66.249.66.3")
	ipNoPTR    = netip.MustParseAddr("66.249.66.4")
	ipFail     = netip.MustParseAddr("66.249.66.5")
	ipV6       = netip.MustParseAddr("2001:db8::7")
)

func testTable() dnstest.Table {
	return dnstest.Table{
		PTR: map[netip.Addr][]string{
			ipGood:     {"crawl-66-249-66-1.googlebot.com"},
			ipOutside:  {"host-2.cloud.example"},
			ipMismatch: {"crawl-66-249-66-3.googlebot.com"},
			ipFail:     {"x.googlebot.com"},
			ipV6:       {"msnbot-7.search.msn.com"},
		},
		Addr: map[string][]netip.Addr{
			"crawl-66-249-66-1.googlebot.com": {ipGood},
			"crawl-66-249-66-3.googlebot.com": {netip.MustParseAddr("192.0.2.3")},
			"msnbot-7.search.msn.com":         {ipV6},
			"host-2.cloud.example":            {ipOutside},
		},
		Fail: map[string]bool{dnstest.ReverseName(ipFail): true},
	}
}

func TestVerify(t *testing.T) {
	srv := dnstest.Start(t, testTable())
	g := []string{".google.com", ".googlebot.com"}
	reqs := []Request{
		{Addr: ipGood, Tokens: []string{"Googlebot"}, Suffixes: g},
		{Addr: ipOutside, Tokens: []string{"Googlebot"}, Suffixes: g},
		{Addr: ipMismatch, Tokens: []string{"Googlebot"}, Suffixes: g},
		{Addr: ipNoPTR, Tokens: []string{"Googlebot"}, Suffixes: g},
		{Addr: ipFail, Tokens: []string{"Googlebot"}, Suffixes: g},
		{Addr: ipV6, Tokens: []string{"bingbot"}, Suffixes: []string{".search.msn.com"}},
	}
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	got, err := Verify(context.Background(), reqs, Options{Server: srv.Addr, Concurrency: 2, Timeout: 5 * time.Second, Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{identity.DNSConfirmed, identity.DNSNameOutsideSuffixes, identity.DNSForwardMismatch, identity.DNSNoPTR, identity.DNSLookupError, identity.DNSConfirmed}
	for i, e := range got {
		if e.Result != want[i] {
			t.Errorf("%s: result %s, want %s (%+v)", e.Address, e.Result, want[i], e)
		}
		if !e.Time.Equal(at) {
			t.Errorf("%s: time %v, want %v", e.Address, e.Time, at)
		}
	}
	if f := got[2].Forward; len(f) != 1 || strings.Join(f[0].Addresses, ",") != "192.0.2.3" {
		t.Errorf("mismatch forward answer = %+v, want 192.0.2.3", f)
	}
	if len(got[1].Forward) != 0 {
		t.Errorf("a name outside the suffixes was resolved forward: %+v", got[1].Forward)
	}
	if got[4].Error == "" {
		t.Errorf("SERVFAIL: no error recorded: %+v", got[4])
	}
}

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	log := `66.249.66.1 - - [01/Mar/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
66.249.66.1 - - [01/Mar/2026:10:00:01 +0000] "GET /a HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
192.0.2.8 - - [01/Mar/2026:10:00:02 +0000] "GET / HTTP/1.1" 200 5 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"
192.0.2.9 - - [01/Mar/2026:10:00:03 +0000] "GET / HTTP/1.1" 200 5 "-" "GPTBot/1.1"
::ffff:192.0.2.10 - - [01/Mar/2026:10:00:04 +0000] "GET / HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
`
	p := filepath.Join(dir, "access.log")
	if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	reqs, probs, err := Collect(context.Background(), []string{p}, bots.Default())
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) > 0 {
		t.Errorf("problems: %+v", probs)
	}
	if len(reqs) != 2 {
		t.Fatalf("got %+v, want Googlebot's and bingbot's addresses", reqs)
	}
	if reqs[0].Addr != ipGood || reqs[0].Fetches != 2 || reqs[0].Tokens[0] != "Googlebot" || len(reqs[0].Suffixes) == 0 {
		t.Errorf("first = %+v", reqs[0])
	}
	if reqs[1].Addr != netip.MustParseAddr("192.0.2.10") || reqs[1].Tokens[0] != "bingbot" {
		t.Errorf("second = %+v, want the unmapped address and bingbot", reqs[1])
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	h := identity.DNSSnapshotHeader{Resolver: "system", Started: at, Finished: at}
	p, err := WriteFile(dir, h, []identity.DNSEntry{{Address: "192.0.2.1", PTR: []string{}, Result: identity.DNSNoPTR, Time: at}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "dns-2026-03-01T100000Z.jsonl" {
		t.Errorf("name = %s", p)
	}
	data, _ := os.ReadFile(p)
	s, probs, err := identity.ParseDNSSnapshot(data, p)
	if err != nil || len(probs) > 0 || len(s.Entries) != 1 {
		t.Errorf("read back: %v %+v %+v", err, probs, s)
	}
	if _, err := WriteFile(dir, h, nil, false); err == nil {
		t.Error("second write without force: no error")
	}
	if _, err := WriteFile(dir, h, nil, true); err != nil {
		t.Errorf("with force: %v", err)
	}
}
