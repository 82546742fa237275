package identity

import (
	"bytes"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestDNSNameUnder(t *testing.T) {
	tests := []struct {
		name     string
		suffixes []string
		want     bool
	}{
		{"crawl-66-249-66-1.googlebot.com.", []string{".googlebot.com"}, true},
		{"CRAWL-1.GoogleBot.Com", []string{".googlebot.com"}, true},
		{"googlebot.com", []string{".googlebot.com"}, false}, // the bare domain is not under ".googlebot.com"
		{"evilgooglebot.com", []string{".googlebot.com"}, false},
		{"googlebot.com.evil.example", []string{".googlebot.com"}, false},
		{"a.crawl.amazonbot.amazon", []string{"crawl.amazonbot.amazon"}, true},
		{"crawl.amazonbot.amazon", []string{"crawl.amazonbot.amazon"}, true},
		{"xcrawl.amazonbot.amazon", []string{"crawl.amazonbot.amazon"}, false},
		{"x.search.msn.com", []string{"", ".", ".search.msn.com"}, true},
		{"x.example", nil, false},
	}
	for _, tt := range tests {
		if got := DNSNameUnder(tt.name, tt.suffixes); got != tt.want {
			t.Errorf("DNSNameUnder(%q, %q) = %v, want %v", tt.name, tt.suffixes, got, tt.want)
		}
	}
}

// snapshotText builds a snapshot from entry lines.
func snapshotText(lines ...string) []byte {
	return []byte(`{"format":"repaudit-dns-snapshot/1","resolver":"127.0.0.1:53","started":"2026-03-01T10:00:00Z","finished":"2026-03-01T10:00:05Z"}` + "\n" + strings.Join(lines, "\n") + "\n")
}

func TestParseDNSSnapshot(t *testing.T) {
	data := snapshotText(
		`{"address":"66.249.66.1","tokens":["Googlebot"],"suffixes":[".googlebot.com"],"ptr":["crawl-66-249-66-1.googlebot.com."],"forward":[{"name":"crawl-66-249-66-1.googlebot.com.","addresses":["66.249.66.1"]}],"result":"confirmed","time":"2026-03-01T10:00:01Z"}`,
		``,
		`{"address":"not-an-ip","result":"no_ptr","time":"2026-03-01T10:00:01Z"}`,
		`{"address":"192.0.2.9","result":"maybe","time":"2026-03-01T10:00:01Z"}`,
		`{"address":"192.0.2.9","result":"no_ptr"}`,
		`[1,2`,
		`{"address":"::ffff:192.0.2.10","result":"no_ptr","time":"2026-03-01T10:00:02+01:00"}`,
	)
	s, probs, err := ParseDNSSnapshot(data, "snap.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if s.Header.Resolver != "127.0.0.1:53" {
		t.Errorf("resolver = %q", s.Header.Resolver)
	}
	if len(s.Entries) != 2 {
		t.Fatalf("got %d entries, want 2: %+v", len(s.Entries), s.Entries)
	}
	if got := s.Entries[1].Addr(); got != netip.MustParseAddr("192.0.2.10") {
		t.Errorf("mapped address = %v, want it unmapped", got)
	}
	if got := s.Entries[1].Time; !got.Equal(time.Date(2026, 3, 1, 9, 0, 2, 0, time.UTC)) || got.Location() != time.UTC {
		t.Errorf("time = %v, want UTC", got)
	}
	wantLines := []string{"snap.jsonl:4", "snap.jsonl:5", "snap.jsonl:6", "snap.jsonl:7"}
	if len(probs) != len(wantLines) {
		t.Fatalf("problems = %+v, want lines %v", probs, wantLines)
	}
	for i, p := range probs {
		if p.Source != wantLines[i] || p.Code != "dns-snapshot-bad-entry" {
			t.Errorf("problem %d = %+v, want at %s", i, p, wantLines[i])
		}
	}
}

func TestParseDNSSnapshotNotOne(t *testing.T) {
	for _, in := range []string{"", "\n\n", `{"format":"other"}`, `{"creationTime":"x","prefixes":[]}`, "hello"} {
		if _, _, err := ParseDNSSnapshot([]byte(in), "f"); !errors.Is(err, ErrNotDNSSnapshot) {
			t.Errorf("%q: err = %v, want ErrNotDNSSnapshot", in, err)
		}
	}
}

func TestParseDNSSnapshotLongLine(t *testing.T) {
	long := `{"address":"192.0.2.1","result":"no_ptr","time":"2026-03-01T10:00:01Z","error":"` + strings.Repeat("x", MaxDNSLine) + `"}`
	data := snapshotText(long, `{"address":"192.0.2.2","result":"no_ptr","time":"2026-03-01T10:00:01Z"}`)
	s, probs, err := ParseDNSSnapshot(data, "f")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 1 || s.Entries[0].Address != "192.0.2.2" || len(probs) != 1 {
		t.Errorf("entries %+v, problems %+v: want the long line skipped and the next read", s.Entries, probs)
	}
}

func TestJudgeDNS(t *testing.T) {
	g := []string{".googlebot.com"}
	tests := []struct {
		name, line, want, wantName string
	}{
		{"confirmed", `{"address":"66.249.66.1","ptr":["a.googlebot.com."],"forward":[{"name":"a.googlebot.com.","addresses":["192.0.2.1","66.249.66.1"]}],"result":"confirmed","time":"2026-03-01T10:00:01Z"}`, DNSConfirmed, "a.googlebot.com."},
		{"mismatch", `{"address":"66.249.66.2","ptr":["a.googlebot.com"],"forward":[{"name":"a.googlebot.com","addresses":["192.0.2.1"]}],"result":"forward_mismatch","time":"2026-03-01T10:00:01Z"}`, DNSForwardMismatch, "a.googlebot.com"},
		{"outside", `{"address":"66.249.66.3","ptr":["host.evil.example"],"result":"name_outside_suffixes","time":"2026-03-01T10:00:01Z"}`, DNSNameOutsideSuffixes, "host.evil.example"},
		{"no ptr", `{"address":"66.249.66.4","ptr":[],"result":"no_ptr","time":"2026-03-01T10:00:01Z"}`, DNSNoPTR, ""},
		{"ptr failed", `{"address":"66.249.66.5","result":"lookup_error","error":"timeout","time":"2026-03-01T10:00:01Z"}`, DNSLookupError, ""},
		{"forward failed", `{"address":"66.249.66.6","ptr":["a.googlebot.com"],"forward":[{"name":"a.googlebot.com","addresses":[],"error":"SERVFAIL"}],"result":"lookup_error","time":"2026-03-01T10:00:01Z"}`, DNSLookupError, "a.googlebot.com"},
		{"second name confirms", `{"address":"66.249.66.7","ptr":["x.evil.example","b.googlebot.com"],"forward":[{"name":"b.googlebot.com","addresses":["66.249.66.7"]}],"result":"confirmed","time":"2026-03-01T10:00:01Z"}`, DNSConfirmed, "b.googlebot.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, msg := parseDNSEntry([]byte(tt.line))
			if msg != "" {
				t.Fatal(msg)
			}
			got, name := JudgeDNS(&e, g)
			if got != tt.want || name != tt.wantName {
				t.Errorf("JudgeDNS = %s, %q; want %s, %q", got, name, tt.want, tt.wantName)
			}
		})
	}
}

func TestStoreCheckDNSTimeline(t *testing.T) {
	old := snapshotText(`{"address":"66.249.66.1","ptr":["a.googlebot.com"],"forward":[{"name":"a.googlebot.com","addresses":["66.249.66.1"]}],"result":"confirmed","time":"2026-03-01T10:00:01Z"}`)
	later := snapshotText(`{"address":"66.249.66.1","ptr":["host.other.example"],"result":"name_outside_suffixes","time":"2026-06-01T10:00:01Z"}`)
	s := NewStore()
	for i, d := range [][]byte{later, old} {
		snap, _, err := ParseDNSSnapshot(d, []string{"later", "old"}[i])
		if err != nil {
			t.Fatal(err)
		}
		s.AddDNSSnapshot(snap)
	}
	ip := netip.MustParseAddr("66.249.66.1")
	g := []string{".googlebot.com"}
	tests := []struct {
		at           time.Time
		want, file   string
		wantEarliest bool
	}{
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), DNSConfirmed, "old", true},
		{time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), DNSConfirmed, "old", false},
		{time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), DNSNameOutsideSuffixes, "later", false},
	}
	for _, tt := range tests {
		c := s.CheckDNS(ip, g, tt.at)
		if c.Result != tt.want || c.File != tt.file || c.Earliest != tt.wantEarliest {
			t.Errorf("at %v: %+v, want %s from %s (earliest %v)", tt.at, c, tt.want, tt.file, tt.wantEarliest)
		}
	}
	if c := s.CheckDNS(netip.MustParseAddr("192.0.2.1"), g, tests[1].at); c.Result != "" {
		t.Errorf("address not in a snapshot: %+v, want no result", c)
	}
	if c := s.CheckDNS(ip, nil, tests[1].at); c.Result != "" {
		t.Errorf("no suffixes: %+v, want no result", c)
	}
	if c := s.CheckDNS(ip, g, tests[1].at); strings.Join(c.Answers, ",") != "66.249.66.1" || c.Resolver != "127.0.0.1:53" {
		t.Errorf("evidence = %+v", c)
	}
}

func TestWriteDNSSnapshotRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 1, 10, 0, 1, 0, time.UTC)
	in := []DNSEntry{{Address: "2001:db8::1", Tokens: []string{"bingbot"}, Suffixes: []string{".search.msn.com"},
		PTR: []string{"msnbot-1.search.msn.com"}, Forward: []DNSForward{{Name: "msnbot-1.search.msn.com", Addresses: []string{"2001:db8::1"}}},
		Result: DNSConfirmed, Time: at}}
	var b bytes.Buffer
	if err := WriteDNSSnapshot(&b, DNSSnapshotHeader{Resolver: "system", Started: at, Finished: at}, in); err != nil {
		t.Fatal(err)
	}
	s, probs, err := ParseDNSSnapshot(b.Bytes(), "f")
	if err != nil || len(probs) > 0 {
		t.Fatalf("err %v, problems %+v", err, probs)
	}
	if len(s.Entries) != 1 || s.Entries[0].PTR[0] != "msnbot-1.search.msn.com" || s.Header.Format != DNSSnapshotFormat {
		t.Errorf("round trip: %+v", s)
	}
}

func FuzzParseDNSSnapshot(f *testing.F) {
	f.Add(snapshotText(`{"address":"66.249.66.1","ptr":["a.googlebot.com"],"forward":[{"name":"a.googlebot.com","addresses":["66.249.66.1"]}],"result":"confirmed","time":"2026-03-01T10:00:01Z"}`))
	f.Add(snapshotText(`{"address":"::1%eth0","result":"no_ptr","time":"2026-03-01T10:00:01Z"}`, `{}`))
	f.Add([]byte(`{"format":"repaudit-dns-snapshot/1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, _, err := ParseDNSSnapshot(data, "fuzz")
		if err != nil {
			return
		}
		st := NewStore()
		st.AddDNSSnapshot(s)
		for i := range s.Entries {
			e := &s.Entries[i]
			if !e.Addr().IsValid() || e.Time.IsZero() || len(e.PTR) > MaxDNSNames {
				t.Fatalf("entry %+v passed the checks", e)
			}
			res, _ := JudgeDNS(e, []string{".googlebot.com"})
			c := st.CheckDNS(e.Addr(), []string{".googlebot.com"}, e.Time)
			if c.Result == "" || (c.Looked.Equal(e.Time) && c.Result != res && len(st.dns[e.addr].dated) == 1) {
				t.Fatalf("CheckDNS %+v, JudgeDNS %s", c, res)
			}
		}
	})
}
