package main

import (
	"bytes"
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/internal/dnstest"
	"github.com/repaudit/repaudit/internal/parquetread"
)

// The publisher's log of the done-when test: Googlebot, bingbot,
// Applebot, Amazonbot and CCBot, from addresses whose PTR is right and
// confirms forward, one whose PTR lies outside the bot's suffixes, one
// whose PTR name resolves elsewhere, and one the snapshot does not hold
// (it appears after the lookup: a later log line).
const dnsLog = `66.249.66.1 - - [01/Mar/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
2001:db8:4::10 - - [01/Mar/2026:10:00:01 +0000] "GET /b HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
17.58.101.7 - - [01/Mar/2026:10:00:02 +0000] "GET /c HTTP/1.1" 200 5 "-" "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"
52.70.240.171 - - [01/Mar/2026:10:00:03 +0000] "GET /d HTTP/1.1" 200 5 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36"
203.0.113.5 - - [01/Mar/2026:10:00:04 +0000] "GET /e HTTP/1.1" 200 5 "-" "CCBot/2.0 (https://commoncrawl.org/faq/)"
198.51.100.9 - - [01/Mar/2026:10:00:05 +0000] "GET /f HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
`

const dnsLogLater = `192.0.2.77 - - [01/Mar/2026:11:00:00 +0000] "GET /g HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
`

func dnsTable() dnstest.Table {
	a := netip.MustParseAddr
	return dnstest.Table{
		PTR: map[netip.Addr][]string{
			a("66.249.66.1"):    {"crawl-66-249-66-1.googlebot.com"},
			a("2001:db8:4::10"): {"msnbot-10.search.msn.com"},
			a("17.58.101.7"):    {"17-58-101-7.applebot.apple.com"},
			a("52.70.240.171"):  {"52-70-240-171.crawl.amazonbot.amazon"},
			a("203.0.113.5"):    {"host-5.cloud.example"},             // outside .crawl.commoncrawl.org
			a("198.51.100.9"):   {"crawl-198-51-100-9.googlebot.com"}, // resolves elsewhere
		},
		Addr: map[string][]netip.Addr{
			"crawl-66-249-66-1.googlebot.com":      {a("66.249.66.1")},
			"msnbot-10.search.msn.com":             {a("2001:db8:4::10")},
			"17-58-101-7.applebot.apple.com":       {a("17.58.101.7")},
			"52-70-240-171.crawl.amazonbot.amazon": {a("52.70.240.171")},
			"crawl-198-51-100-9.googlebot.com":     {a("192.0.2.200")},
		},
	}
}

func TestDNSVerifyThenAudit(t *testing.T) {
	srv := dnstest.Start(t, dnsTable())
	dir := t.TempDir()
	logPath := filepath.Join(dir, "access.log")
	os.WriteFile(logPath, []byte(dnsLog), 0o644)
	snapDir := filepath.Join(dir, "dns")
	at := time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)
	ctx, hooks := context.Background(), netHooks{now: func() time.Time { return at }}
	var se bytes.Buffer
	code := run(ctx, []string{"dns", "verify", logPath, "--out", snapDir, "--resolver", srv.Addr, "--timeout", "5s"},
		stdio{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &se, Net: hooks})
	if code != exitOK {
		t.Fatalf("dns verify: exit %d: %s", code, se.String())
	}
	wantSummary := "dns verify: 6 addresses: 4 confirmed, 1 name outside suffixes, 1 forward mismatch, 0 no PTR, 0 lookup errors; in " + filepath.Join(snapDir, "dns-2026-03-02T080000Z.jsonl")
	if !strings.Contains(se.String(), wantSummary) {
		t.Errorf("stderr %q, want %q", se.String(), wantSummary)
	}
	snap, _ := os.ReadFile(filepath.Join(snapDir, "dns-2026-03-02T080000Z.jsonl"))
	if !strings.HasPrefix(string(snap), `{"format":"repaudit-dns-snapshot/1","resolver":"`+srv.Addr+`","started":"2026-03-02T08:00:00Z"`) {
		t.Errorf("snapshot header: %.200s", snap)
	}

	// The audit reads a log that also has an address never looked up.
	os.WriteFile(logPath, []byte(dnsLog+dnsLogLater), 0o644)
	out := filepath.Join(dir, "out")
	queries := srv.Queries()
	code, _, stderr := runCmd(t, "audit", logPath, "--dns-dir", snapDir, "--site", "https://www.example.com", "--out", out)
	if code != exitOK {
		t.Fatalf("audit: exit %d: %s", code, stderr)
	}
	if srv.Queries() != queries {
		t.Errorf("the audit asked the DNS server %d questions", srv.Queries()-queries)
	}
	rows := fetchRows(t, filepath.Join(out, "fetches.parquet"), "client_ip", "agent", "identity", "dns_check", "dns_evidence", "operator")
	want := map[string][3]string{ // client_ip: agent, identity, dns_check
		"66.249.66.1":    {"Googlebot", "verified", "confirmed"},
		"2001:db8:4::10": {"bingbot", "verified", "confirmed"},
		"17.58.101.7":    {"Applebot", "verified", "confirmed"},
		"52.70.240.171":  {"Amazonbot", "verified", "confirmed"},
		"203.0.113.5":    {"CCBot", "spoofed", "name_outside_suffixes"},
		"198.51.100.9":   {"Googlebot", "spoofed", "forward_mismatch"},
		"192.0.2.77":     {"Googlebot", "claimed", ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d rows, want %d: %v", len(rows), len(want), rows)
	}
	for _, r := range rows {
		w, ok := want[r[0]]
		if !ok || r[1] != w[0] || r[2] != w[1] || r[3] != w[2] {
			t.Errorf("row %v, want %v", r, w)
		}
		if r[2] == "spoofed" && r[5] != "" {
			t.Errorf("spoofed row %v attributed to operator %q", r[0], r[5])
		}
	}
	ev := map[string]string{}
	for _, r := range rows {
		ev[r[0]] = r[4]
	}
	snapName := "dns-2026-03-02T080000Z.jsonl"
	for ip, parts := range map[string][]string{
		"66.249.66.1":  {"PTR crawl-66-249-66-1.googlebot.com", "resolves to 66.249.66.1", "lookup of 2026-03-02T08:00:00Z", snapName},
		"203.0.113.5":  {"PTR host-5.cloud.example", "is not under .crawl.commoncrawl.org", snapName},
		"198.51.100.9": {"PTR crawl-198-51-100-9.googlebot.com", "resolves to 192.0.2.200, not 198.51.100.9", "it also covers earlier fetches"},
		"192.0.2.77":   {},
	} {
		for _, p := range parts {
			if !strings.Contains(ev[ip], p) {
				t.Errorf("%s: evidence %q lacks %q", ip, ev[ip], p)
			}
		}
		if len(parts) == 0 && ev[ip] != "" {
			t.Errorf("%s: evidence %q, want none", ip, ev[ip])
		}
	}
	vrows := fetchRows(t, filepath.Join(out, "violations.parquet"), "kind", "client_ip", "evidence")
	found := map[string]bool{}
	for _, r := range vrows {
		if r[0] == "rdns_mismatch" {
			found[r[1]] = true
			if !strings.Contains(r[2], snapName) {
				t.Errorf("finding evidence %q does not name the snapshot", r[2])
			}
		}
	}
	if !found["203.0.113.5"] || !found["198.51.100.9"] || len(found) != 2 {
		t.Errorf("rdns_mismatch findings for %v, want 203.0.113.5 and 198.51.100.9", found)
	}
}

// fetchRows reads the named string columns of a Parquet table.
func fetchRows(t *testing.T, path string, cols ...string) [][]string {
	t.Helper()
	tb, _, err := parquetread.Read(path, -1)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for r := int64(0); r < tb.Rows; r++ {
		row := make([]string, len(cols))
		for i, c := range cols {
			cells, ok := tb.Col(c)
			if !ok {
				t.Fatalf("%s: no column %s", path, c)
			}
			if s, ok := cells[r].(string); ok {
				row[i] = s
			}
		}
		out = append(out, row)
	}
	return out
}

func TestDNSVerifyUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"dns", "verify", "--out", dir}, "no inputs"},
		{[]string{"dns", "verify", "x.log"}, "--out is required"},
		{[]string{"dns", "verify", "x.log", "--out", dir, "--resolver", "localhost"}, "--resolver wants HOST:PORT"},
		{[]string{"dns", "verify", "x.log", "--out", dir, "-j", "0"}, "-j must be 1 or more"},
		{[]string{"dns", "frob"}, "usage: repaudit dns verify"},
	}
	for _, tt := range tests {
		code, _, stderr := runCmd(t, tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, code, stderr, exitUsage, tt.want)
		}
	}
}
