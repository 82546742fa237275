package identity

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// ipListCase is one IP range document and what ParseIPList should make of it.
type ipListCase struct {
	name      string
	doc       []byte
	wantTime  string // RFC 3339, "" for zero
	wantPfx   string // space separated
	wantProbs string
	wantErr   error
}

// checkParseIPList parses tt.doc and compares the creation time, the
// prefixes, the problems and the error with tt's.
func checkParseIPList(t *testing.T, tt ipListCase) {
	t.Helper()
	l, probs, err := ParseIPList(tt.doc, "ips.json")
	if !errors.Is(err, tt.wantErr) {
		t.Fatalf("err = %v, want %v", err, tt.wantErr)
	}
	if err != nil {
		return
	}
	gotTime := ""
	if !l.CreationTime.IsZero() {
		gotTime = l.CreationTime.Format(time.RFC3339)
		if l.CreationTime.Location() != time.UTC {
			t.Errorf("CreationTime location = %v, want UTC", l.CreationTime.Location())
		}
	}
	if gotTime != tt.wantTime {
		t.Errorf("CreationTime = %q, want %q", gotTime, tt.wantTime)
	}
	var ps []string
	for _, p := range l.Prefixes {
		ps = append(ps, p.String())
	}
	if got := strings.Join(ps, " "); got != tt.wantPfx {
		t.Errorf("prefixes = %q, want %q", got, tt.wantPfx)
	}
	if gp := problemCodes(probs); gp != tt.wantProbs {
		t.Errorf("problems = %q, want %q (%v)", gp, tt.wantProbs, probs)
	}
	if l.Source != "ips.json" {
		t.Errorf("Source = %q, want ips.json", l.Source)
	}
}

func TestParseIPList(t *testing.T) {
	tests := []ipListCase{
		{
			name:     "JAFAR example 1",
			doc:      sample(t, "jafar_example_1_basic.json", ""),
			wantTime: "2025-08-15T14:30:00Z",
			wantPfx:  "66.249.64.0/20 34.64.0.0/12 2001:4860:4000::/36",
		},
		{
			name:     "JAFAR example 2 with services",
			doc:      sample(t, "jafar_example_2_services.json", ""),
			wantTime: "2025-09-01T10:00:00Z",
			wantPfx:  "192.0.2.0/24 198.51.100.0/24 203.0.113.0/24 2001:db8::/32 3fff::/20",
		},
		{
			name:     "Google shape: zone-less microsecond creationTime is UTC",
			doc:      sample(t, "iplist_google_shape.json", "example"),
			wantTime: "2026-09-30T14:46:11Z",
			wantPfx:  "2001:4860:4801:10::/64 66.249.64.0/27 66.249.66.0/27",
		},
		{
			name:     "OpenAI shape",
			doc:      sample(t, "iplist_openai_shape.json", "example"),
			wantTime: "2026-09-22T02:00:07Z",
			wantPfx:  "132.196.86.0/24 20.171.206.0/24 52.230.152.0/24",
		},
		{
			name:      "Bing shape: zero-width spaces between tokens and inside prefixes",
			doc:       sample(t, "iplist_bing_shape.json", ""),
			wantTime:  "2026-02-11T10:00:00Z",
			wantPfx:   "157.55.39.0/24 207.46.13.0/24 40.77.167.0/24 13.66.139.0/24 13.66.144.0/24 52.167.144.0/24 13.67.10.16/28 40.77.188.0/22 65.55.210.0/24 199.30.24.0/23",
			wantProbs: "iplist-zero-width-space",
		},
		{
			name: "Bing shape: zero-width spaces inside keys and values, byte order mark",
			doc: []byte("\ufeff{\u200b\"creation\u200bTime\":\"2026-02-11T10:00:00.121331\u200b\",\n\u200b\"prefixes\":[" +
				"{\"ipv4\u200bPrefix\":\"\u200b192.0.2.0/24\u200b\"},\u200b{\"\u200bipv4Prefix\":\"198.51.100.0/24\"}]}"),
			wantTime:  "2026-02-11T10:00:00Z",
			wantPfx:   "192.0.2.0/24 198.51.100.0/24",
			wantProbs: "iplist-zero-width-space",
		},
		{
			name:    "no creationTime, bare strings and a host address",
			doc:     []byte(`{"prefixes":["10.0.0.0/8","2001:db8::1",{"ipv4Prefix":"192.0.2.0/24"}]}`),
			wantPfx: "10.0.0.0/8 2001:db8::1/128 192.0.2.0/24",
		},
		{
			name: "bad entries are skipped and reported",
			doc: []byte(`{"creationTime":"last week","prefixes":[{"ipv4Prefix":"300.1.1.1/24"},{"service":"x"},7,` +
				`{"ipv4Prefix":"66.249.64.5/27"},{"ipv6Prefix":"192.0.2.0/24"},{"ipv4Prefix":"66.249.64.0/27"},` +
				`{"ipv4Prefix":"198.51.100.0/24","ipv6Prefix":"2001:db8::/32"},{"ipv6Prefix":"::ffff:192.0.2.0/120"}]}`),
			wantPfx:   "66.249.64.0/27 192.0.2.0/24 198.51.100.0/24",
			wantProbs: "iplist-bad-time,iplist-bad-prefix,iplist-bad-entry,iplist-bad-entry,iplist-host-bits,iplist-wrong-family,iplist-bad-entry,iplist-wrong-family",
		},
		{name: "RFC 3339 with offset", doc: []byte(`{"creationTime":"2025-01-01T02:00:00+02:00","prefixes":[]}`), wantTime: "2025-01-01T00:00:00Z"},
		{name: "no prefixes", doc: []byte(`{"creationTime":"2025-01-01T00:00:00Z"}`), wantErr: ErrNotIPList},
		{name: "prefixes not an array", doc: []byte(`{"prefixes":{}}`), wantErr: ErrNotIPList},
		{name: "not JSON", doc: []byte(`10.0.0.0/8`), wantErr: ErrNotIPList},
		{name: "too large", doc: []byte(`{"prefixes":[],"x":"` + strings.Repeat("a", MaxIPListBytes) + `"}`), wantErr: ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkParseIPList(t, tt) })
	}
}

func TestPrefixSetLookup(t *testing.T) {
	var ps []netip.Prefix
	for _, s := range []string{"10.0.0.0/8", "10.1.0.0/16", "2001:db8::/32", "192.0.2.7/32"} {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	set := newPrefixSet(ps)
	tests := []struct{ ip, want string }{
		{"10.1.2.3", "10.1.0.0/16"},
		{"10.2.2.3", "10.0.0.0/8"},
		{"::ffff:10.2.2.3", "10.0.0.0/8"},
		{"192.0.2.7", "192.0.2.7/32"},
		{"192.0.2.8", ""},
		{"2001:db8::5", "2001:db8::/32"},
		{"fe80::1%eth0", ""},
		{"11.0.0.1", ""},
	}
	for _, tt := range tests {
		p, ok := set.lookup(netip.MustParseAddr(tt.ip))
		got := ""
		if ok {
			got = p.String()
		}
		if got != tt.want {
			t.Errorf("lookup(%s) = %q, want %q", tt.ip, got, tt.want)
		}
	}
}
