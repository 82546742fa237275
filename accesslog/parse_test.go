package accesslog

import (
	"net/netip"
	"testing"
	"time"
)

func TestTimeParsers(t *testing.T) {
	for _, tc := range []struct {
		parser string
		in     string
		want   string // RFC 3339 UTC; "" = must fail
	}{
		{"clf", "10/Oct/2000:13:55:36 -0700", "2000-10-10T20:55:36Z"},
		{"clf", "01/jan/2024:00:00:00 +0530", "2023-12-31T18:30:00Z"},
		{"clf", "29/Feb/2023:00:00:00 +0000", ""},
		{"clf", "10/Foo/2000:13:55:36 -0700", ""},
		{"clf", "10/Oct/2000:24:00:00 +0000", ""},
		{"clf", "10/Oct/2000:13:55:36 +2500", ""},
		{"clf", "10/Oct/2000:13:55:36", ""},
		{"iso", "2024-05-01T12:00:00Z", "2024-05-01T12:00:00Z"},
		{"iso", "2024-05-01T12:00:00.123456789+02:00", "2024-05-01T10:00:00.123456789Z"},
		{"iso", "2024-05-01 12:00:00-0130", "2024-05-01T13:30:00Z"},
		{"iso", "2024-05-01T12:00:00+05", "2024-05-01T07:00:00Z"},
		{"iso", "2024-05-01T12:00:00", "2024-05-01T12:00:00Z"},
		{"iso", "2024-05-01T12:00:00GMT", "2024-05-01T12:00:00Z"},
		{"iso", "2024-05-01T12:00:00.", ""},
		{"iso", "2024-13-01T12:00:00Z", ""},
		{"iso", "2024-05-01T12:00:00 PST", ""},
		{"unix", "1714564800", "2024-05-01T12:00:00Z"},
		{"unix", "1714564800.5", "2024-05-01T12:00:00.5Z"},
		{"unix", "1714564800123", "2024-05-01T12:00:00.123Z"},
		{"unix", "1714564800123456", "2024-05-01T12:00:00.123456Z"},
		{"unix", "1714564800123456789", "2024-05-01T12:00:00.123456789Z"},
		{"unix", "1.7145648e9", "2024-05-01T12:00:00Z"},
		{"unix", "-5", ""},
		{"unix", "17145648001234567890", ""},
		{"w3c", "2024-05-01 23:59:60", "2024-05-02T00:00:00Z"},
		{"w3c", "2024-05-01 12:00:00.250", "2024-05-01T12:00:00.25Z"},
		{"w3c", "2024-05-32 12:00:00", ""},
		{"w3c", "2024-05-01 12:00", ""},
	} {
		var got time.Time
		var ok bool
		switch tc.parser {
		case "clf":
			var c clfTimeCache
			got, ok = c.parse(tc.in)
			if ok2 := func() bool { g2, ok2 := c.parse(tc.in); return ok2 && g2.Equal(got) }(); ok != ok2 {
				t.Errorf("clf cache disagrees on %q", tc.in)
			}
		case "iso":
			got, ok = parseISOTime(tc.in)
		case "unix":
			got, ok = parseUnixTime(tc.in)
		case "w3c":
			var c dateCache
			got, ok = c.parse(tc.in[:10], tc.in[11:])
		}
		if tc.want == "" {
			if ok {
				t.Errorf("%s %q: got %v, want failure", tc.parser, tc.in, got)
			}
			continue
		}
		want, _ := time.Parse(time.RFC3339Nano, tc.want)
		if !ok || !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("%s %q: got %v, %v; want %v", tc.parser, tc.in, got, ok, want)
		}
	}
}

func TestUnescape(t *testing.T) {
	for _, tc := range []struct{ fn, in, want string }{
		{"log", `plain`, `plain`},
		{"log", `a\"b\\c`, `a"b\c`},
		{"log", `\x22q\x22 \x5cx`, `"q" \x`},
		{"log", `\n\t\r\b\v`, "\n\t\r\b\v"},
		{"log", `\q \x2 \`, `\q \x2 \`},
		{"log", `nginx \"json\" \u0001\u00e9 \u12`, "nginx \"json\" \x01é \\u12"},
		{"json", `a\"b\\c\/d`, `a"b\c/d`},
		{"json", `\u00e9\ud83e\udd16`, "é🤖"},
		{"json", `\ud800x`, "\ufffdx"},
		{"json", `\x22nginx\x22`, `"nginx"`},
		{"json", `\u12`, `\u12`},
		{"pct", `a%20b%2520c%zz%`, `a b%20c%zz%`},
		{"iisua", `Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html)`, `Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`},
		{"iissf", `sig1=("@authority"+"signature-agent");nonce="a+b";x=:ab+c:, sig2=();k="x+y"`, `sig1=("@authority" "signature-agent");nonce="a+b";x=:ab+c:, sig2=();k="x+y"`},
	} {
		var got string
		switch tc.fn {
		case "log":
			got = unescapeLog(tc.in)
		case "json":
			got = jsonUnquote(tc.in)
		case "pct":
			got = percentDecode(tc.in)
		case "iisua":
			got = iisUserAgent(tc.in)
		case "iissf":
			got = iisStructured(tc.in)
		}
		if got != tc.want {
			t.Errorf("%s(%q): got %q, want %q", tc.fn, tc.in, got, tc.want)
		}
	}
}

func TestNormHost(t *testing.T) {
	for _, tc := range []struct{ host, scheme, wantHost, wantScheme string }{
		{"Example.COM", "", "example.com", ""},
		{"example.com:443", "", "example.com", "https"},
		{"example.com:443", "http", "example.com:443", "http"},
		{"example.com:80", "", "example.com", "http"},
		{"example.com:8080", "https", "example.com:8080", "https"},
		{"[2001:DB8::1]:443", "https", "[2001:db8::1]", "https"},
		{"[2001:db8::1]", "", "[2001:db8::1]", ""},
		{"2001:db8::1", "", "2001:db8::1", ""},
		{"example.com:", "", "example.com", ""},
		{"-", "https", "", "https"},
	} {
		h, s := normHost(tc.host, tc.scheme)
		if h != tc.wantHost || s != tc.wantScheme {
			t.Errorf("normHost(%q, %q): got %q, %q; want %q, %q", tc.host, tc.scheme, h, s, tc.wantHost, tc.wantScheme)
		}
	}
}

func TestParseIPPort(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1:443":       "192.0.2.1",
		"[2001:db8::1]:443":   "2001:db8::1",
		"2001:db8::1":         "2001:db8::1",
		"::ffff:192.0.2.1":    "192.0.2.1",
		"192.0.2.1":           "192.0.2.1",
		"-":                   "invalid IP",
		"host.example.com:80": "invalid IP",
	} {
		if got := parseIPPort(in).String(); got != want {
			t.Errorf("parseIPPort(%q): got %s, want %s", in, got, want)
		}
	}
}

// clfCacheAgrees checks that a clfTimeCache that has converted prev
// converts s as parseCLFTime does: the same instant, in UTC, or failure.
func clfCacheAgrees(t *testing.T, prev, s string) {
	t.Helper()
	var c clfTimeCache
	c.parse(prev)
	got, ok := c.parse(s)
	want, wok := parseCLFTime(s)
	if ok != wok || got != want {
		t.Fatalf("after %q, cache parses %q as %v (%v); parseCLFTime %v (%v)", prev, s, got, ok, want, wok)
	}
}

// TestCLFTimeCacheMinute: a time that differs from the last one in its
// seconds only is converted from the last one's minute; anything else
// (another minute or zone, bad seconds) as parseCLFTime converts it.
func TestCLFTimeCacheMinute(t *testing.T) {
	base := "31/Dec/2016:23:59:07 +0130"
	for _, s := range []string{
		"31/Dec/2016:23:59:00 +0130", "31/Dec/2016:23:59:59 +0130",
		"31/Dec/2016:23:59:60 +0130", // a leap second rolls over
		"31/Dec/2016:23:59:61 +0130", "31/Dec/2016:23:59:6x +0130", "31/Dec/2016:23:59:-1 +0130",
		"31/Dec/2016:23:58:07 +0130", "31/Dec/2016:23:59:07 +0100", "31/Dec/2016:23:59:07 +013",
		"31/Dec/2016:23:59:07 +0130x", "31/Dec/2016:23:59:07", "",
	} {
		clfCacheAgrees(t, base, s)
		clfCacheAgrees(t, "31/Dec/2016:23:59:6x +0130", s) // a failed string is not kept
	}
}

func FuzzCLFTimeCache(f *testing.F) {
	f.Add("10/Oct/2000:13:55:36 -0700", "10/Oct/2000:13:55:59 -0700")
	f.Add("10/Oct/2000:13:55:36 -0700", "10/Oct/2000:13:55:60 -0700")
	f.Add("10/Oct/2000:13:55:36 -0700", "10/Oct/2000:13:56:01 -0700")
	f.Fuzz(func(t *testing.T, prev, s string) { clfCacheAgrees(t, prev, s) })
}

// TestParseIPv4: the fast path reads what netip.ParseAddr reads, and
// leaves to it whatever is not a plain dotted quad.
func TestParseIPv4(t *testing.T) {
	for _, s := range []string{"192.0.2.1", "0.0.0.0", "255.255.255.255", "256.0.0.1", "01.2.3.4", "1.2.3", "1.2.3.4.5",
		"1..2.3", ".1.2.3", "1.2.3.", "1.2.3.04", "1.2.3.0", "10.0.0.1 ", "::ffff:1.2.3.4", "-", "", "1.2.3.4%eth0", "1234.1.1.1"} {
		checkIPv4(t, s)
	}
}

func checkIPv4(t *testing.T, s string) {
	t.Helper()
	got, ok := parseIPv4(s)
	want, err := netip.ParseAddr(s)
	if ok && (err != nil || got != want) || !ok && err == nil && want.Is4() {
		t.Fatalf("parseIPv4(%q) = %v, %v; netip: %v, %v", s, got, ok, want, err)
	}
}

func FuzzParseIPv4(f *testing.F) {
	for _, s := range []string{"192.0.2.1", "01.2.3.4", "1.2.3.4.5", "255.255.255.256"} {
		f.Add(s)
	}
	f.Fuzz(checkIPv4)
}

// TestTimeOpen: the '[' that opens the time is the first one after a
// space or tab, never at the start of the line.
func TestTimeOpen(t *testing.T) {
	for s, want := range map[string]int{
		"1.2.3.4 - - [01/": 12, "[x] [t": 4, "a[b [c": 4, "a\t[": 2, "[": -1, "": -1, "ab[": -1, "a [": 2, "a[[ [": 4,
	} {
		if got := timeOpen(s); got != want {
			t.Errorf("timeOpen(%q) = %d, want %d", s, got, want)
		}
	}
}
