package accesslog

import (
	"slices"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

type readCase struct {
	name      string
	opts      Options
	in        string
	want      []event.Fetch // Source.Line must be set; File/Offset/Origin filled in
	wantCodes []problem.Code
}

func runReadCases(t *testing.T, cases []readCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, got, probs := readAll(t, tc.in, tc.opts)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d fetches, want %d (problems %v)", len(got), len(tc.want), probs)
			}
			for i := range got {
				checkFetch(t, got[i], tc.want[i])
			}
			if gc := codes(probs); !slices.Equal(gc, tc.wantCodes) {
				t.Errorf("problem codes: got %v, want %v (%v)", gc, tc.wantCodes, probs)
			}
		})
	}
}

// TestCombined reads well-formed combined lines: zones, IPv6, escapes
// and absolute-form targets.
func TestCombined(t *testing.T) {
	c := Options{Format: Combined}
	runReadCases(t, []readCase{
		{
			name: "apache example with zone offset",
			opts: c,
			in:   `192.0.2.10 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif?a=1&b=2 HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"` + "\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2000-10-10T20:55:36Z"), ClientIP: ip("192.0.2.10"), Method: "GET",
				Target: "/apache_pb.gif?a=1&b=2", Status: 200, Bytes: 2326,
				UserAgent: "Mozilla/4.08 [en] (Win98; I ;Nav)", Referer: "http://www.example.com/start.html",
				Header: hdr("User-Agent", "Mozilla/4.08 [en] (Win98; I ;Nav)", "Referer", "http://www.example.com/start.html"),
				Format: "combined", Source: event.Source{Line: 1},
			}},
		},
		{
			name: "ipv6 client, dashes, positive zone, CRLF",
			opts: c,
			in:   "2001:db8::1f - - [01/May/2024:02:00:00 +0200] \"HEAD /robots.txt HTTP/1.1\" 304 - \"-\" \"GPTBot/1.2 (+https://openai.com/gptbot)\"\r\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2024-05-01T00:00:00Z"), ClientIP: ip("2001:db8::1f"), Method: "HEAD",
				Target: "/robots.txt", Status: 304, Bytes: -1,
				UserAgent: "GPTBot/1.2 (+https://openai.com/gptbot)",
				Header:    hdr("User-Agent", "GPTBot/1.2 (+https://openai.com/gptbot)"),
				Format:    "combined", Source: event.Source{Line: 1},
			}},
		},
		{
			name: "apache escapes quotes and backslashes",
			opts: c,
			in:   `192.0.2.1 - - [01/May/2024:00:00:00 +0000] "GET /q?x=%22 HTTP/1.1" 200 5 "-" "curl \"quoted\" back\\slash \x01"` + "\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2024-05-01T00:00:00Z"), ClientIP: ip("192.0.2.1"), Method: "GET",
				Target: "/q?x=%22", Status: 200, Bytes: 5,
				UserAgent: "curl \"quoted\" back\\slash \x01",
				Header:    hdr("User-Agent", "curl \"quoted\" back\\slash \x01"),
				Format:    "combined", Source: event.Source{Line: 1},
			}},
		},
		{
			name: "nginx escapes quotes as \\x22",
			opts: c,
			in:   `192.0.2.1 - - [01/May/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "bot \x22quoted\x22 \x5Cx22"` + "\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2024-05-01T00:00:00Z"), ClientIP: ip("192.0.2.1"), Method: "GET",
				Target: "/", Status: 200, Bytes: 5,
				UserAgent: `bot "quoted" \x22`,
				Header:    hdr("User-Agent", `bot "quoted" \x22`),
				Format:    "combined", Source: event.Source{Line: 1},
			}},
		},
		{
			name: "absolute-form target gives host and scheme, IPv4-mapped client",
			opts: c,
			in:   `::ffff:198.51.100.7 - - [01/May/2024:00:00:00 +0000] "GET HTTPS://WWW.Example.COM:443/a/b?c HTTP/1.1" 200 0 "-" "x"` + "\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2024-05-01T00:00:00Z"), ClientIP: ip("198.51.100.7"), Method: "GET",
				Scheme: "https", Host: "www.example.com", Target: "/a/b?c", Status: 200, Bytes: 0,
				UserAgent: "x", Header: hdr("User-Agent", "x"),
				Format: "combined", Source: event.Source{Line: 1},
			}},
		},
	})
}

// TestCombinedMalformed reads combined and common lines that bend or
// break the format, each kept with a warning or reported and skipped.
func TestCombinedMalformed(t *testing.T) {
	c := Options{Format: Combined}
	runReadCases(t, []readCase{
		{
			name: "malformed request lines kept with warnings",
			opts: c,
			in: `192.0.2.1 - - [01/May/2024:00:00:00 +0000] "-" 400 0 "-" "-"` + "\n" +
				`192.0.2.1 - - [01/May/2024:00:00:01 +0000] "\x16\x03\x01\x00\xa5\x01" 400 157 "-" "-"` + "\n" +
				`192.0.2.1 - - [01/May/2024:00:00:02 +0000] "GET /no-proto" 200 1 "-" "-"` + "\n",
			want: []event.Fetch{
				{Time: mustTime(t, "2024-05-01T00:00:00Z"), ClientIP: ip("192.0.2.1"), Status: 400, Bytes: 0,
					Format: "combined", Source: event.Source{Line: 1}},
				{Time: mustTime(t, "2024-05-01T00:00:01Z"), ClientIP: ip("192.0.2.1"), Status: 400, Bytes: 157,
					Target: "\x16\x03\x01\x00\xa5\x01", Format: "combined", Source: event.Source{Line: 2}},
				{Time: mustTime(t, "2024-05-01T00:00:02Z"), ClientIP: ip("192.0.2.1"), Method: "GET", Target: "/no-proto",
					Status: 200, Bytes: 1, Format: "combined", Source: event.Source{Line: 3}},
			},
			wantCodes: []problem.Code{CodeBadRequest, CodeBadRequest, CodeBadRequest},
		},
		{
			name: "host name as client, trailing nginx fields, target with space",
			opts: c,
			in:   `crawl-66-249-66-1.googlebot.com - - [01/May/2024:00:00:00 +0000] "GET /a b HTTP/1.1" 200 10 "https://ref.example/" "Googlebot/2.1" "203.0.113.5" 0.004` + "\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2024-05-01T00:00:00Z"), Method: "GET", Target: "/a b", Status: 200, Bytes: 10,
				UserAgent: "Googlebot/2.1", Referer: "https://ref.example/",
				Header: hdr("User-Agent", "Googlebot/2.1", "Referer", "https://ref.example/"),
				Format: "combined", Source: event.Source{Line: 1},
			}},
		},
		{
			name: "common format",
			opts: Options{Format: Common},
			in:   `192.0.2.3 - - [29/Feb/2024:23:59:59 -0000] "POST /form HTTP/1.1" 302 -` + "\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2024-02-29T23:59:59Z"), ClientIP: ip("192.0.2.3"), Method: "POST",
				Target: "/form", Status: 302, Bytes: -1, Format: "common", Source: event.Source{Line: 1},
			}},
		},
		{
			name: "bad lines reported with their line numbers, file goes on",
			opts: c,
			in: "\n" +
				`192.0.2.1 - - [01/May/2024:00:00:00 +0000] "GET /1 HTTP/1.1" 200 1 "-" "a"` + "\n" +
				"garbage without a time\n" +
				`192.0.2.1 - - [31/Apr/2024:00:00:00 +0000] "GET /bad-date HTTP/1.1" 200 1 "-" "a"` + "\n" +
				`192.0.2.1 - - [01/May/2024:00:00:00 +0000] "GET /unterminated 200 1` + "\n" +
				"   \n" +
				`192.0.2.1 - - [01/May/2024:00:00:09 +0000] "GET /2 HTTP/1.1" abc 1 "-" "a"` + "\n",
			want: []event.Fetch{
				{Time: mustTime(t, "2024-05-01T00:00:00Z"), ClientIP: ip("192.0.2.1"), Method: "GET", Target: "/1",
					Status: 200, Bytes: 1, UserAgent: "a", Header: hdr("User-Agent", "a"), Format: "combined", Source: event.Source{Line: 2}},
				{Time: mustTime(t, "2024-05-01T00:00:09Z"), ClientIP: ip("192.0.2.1"), Method: "GET", Target: "/2",
					Status: 0, Bytes: 1, UserAgent: "a", Header: hdr("User-Agent", "a"), Format: "combined", Source: event.Source{Line: 7}},
			},
			wantCodes: []problem.Code{CodeUnparsedLine, CodeBadTime, CodeUnparsedLine, CodeBadField},
		},
	})
}

func TestVhostCombined(t *testing.T) {
	v := Options{Format: VhostCombined}
	runReadCases(t, []readCase{
		{
			name: "port 443 means https",
			opts: v,
			in:   `WWW.Example.org:443 192.0.2.8 - - [01/May/2024:10:00:00 +0000] "GET /x HTTP/2.0" 200 512 "-" "ClaudeBot/1.0"` + "\n",
			want: []event.Fetch{{
				Time: mustTime(t, "2024-05-01T10:00:00Z"), ClientIP: ip("192.0.2.8"), Method: "GET",
				Scheme: "https", Host: "www.example.org", Target: "/x", Status: 200, Bytes: 512,
				UserAgent: "ClaudeBot/1.0", Header: hdr("User-Agent", "ClaudeBot/1.0"),
				Format: "vhost_combined", Source: event.Source{Line: 1},
			}},
		},
		{
			name: "no port and odd port",
			opts: v,
			in: `example.org 192.0.2.8 - - [01/May/2024:10:00:00 +0000] "GET /x HTTP/1.1" 200 1 "-" "-"` + "\n" +
				`example.org:8080 192.0.2.8 - - [01/May/2024:10:00:00 +0000] "GET /y HTTP/1.1" 200 1 "-" "-"` + "\n",
			want: []event.Fetch{
				{Time: mustTime(t, "2024-05-01T10:00:00Z"), ClientIP: ip("192.0.2.8"), Method: "GET",
					Host: "example.org", Target: "/x", Status: 200, Bytes: 1, Format: "vhost_combined", Source: event.Source{Line: 1}},
				{Time: mustTime(t, "2024-05-01T10:00:00Z"), ClientIP: ip("192.0.2.8"), Method: "GET",
					Host: "example.org:8080", Target: "/y", Status: 200, Bytes: 1, Format: "vhost_combined", Source: event.Source{Line: 2}},
			},
		},
	})
}

// TestSignatureRoundTrip checks that signature header values logged as
// extra quoted fields come back byte for byte from both escaping styles.
func TestSignatureRoundTrip(t *testing.T) {
	opts := Options{Format: Combined, ExtraHeaders: []string{"Signature", "Signature-Input", "Signature-Agent"}}
	for _, style := range []struct {
		name   string
		escape func(string) string
	}{{"apache", apacheEscape}, {"nginx", nginxEscape}, {"nginx escape=json", jsonEscape}} {
		t.Run(style.name, func(t *testing.T) {
			e := style.escape
			in := `192.0.2.1 - - [01/May/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "Bot/1.0" "` +
				e(sigValue) + `" "` + e(sigInput) + `" "` + e(sigAgent) + `"` + "\n" +
				`192.0.2.1 - - [01/May/2024:00:00:01 +0000] "GET / HTTP/1.1" 200 1 "-" "Browser" "-" "-" "-"` + "\n" +
				`192.0.2.1 - - [01/May/2024:00:00:02 +0000] "GET / HTTP/1.1" 200 1 "-" "Old line without extras"` + "\n"
			_, got, probs := readAll(t, in, opts)
			if len(got) != 3 || len(probs) != 0 {
				t.Fatalf("got %d fetches, problems %v; want 3, none", len(got), probs)
			}
			for name, want := range map[string]string{"Signature": sigValue, "Signature-Input": sigInput, "Signature-Agent": sigAgent} {
				if v := got[0].Header.Get(name); v != want {
					t.Errorf("%s: got %q, want %q", name, v, want)
				}
			}
			if !got[0].SignatureRecorded || !got[1].SignatureRecorded {
				t.Errorf("SignatureRecorded: got %v, %v, want true, true", got[0].SignatureRecorded, got[1].SignatureRecorded)
			}
			if got[1].Header.Has("Signature") {
				t.Errorf("unsigned line: got Signature %q, want none", got[1].Header.Get("Signature"))
			}
			if got[2].SignatureRecorded {
				t.Errorf("line without the extra fields: got SignatureRecorded, want false")
			}
		})
	}
}

// A client that opens a connection and sends nothing gets Apache's
// routine "-" 408 line: no request, an info like ELB's "- - -" lines, in
// every CLF layout. A "-" request with another status, and junk, stay
// log-bad-request warnings, kept.
func TestNoRequest408(t *testing.T) {
	const at = `[01/May/2024:00:00:00 +0000]`
	tests := []struct {
		name      string
		opts      Options
		line      string
		wantFetch int
		want      string // code:severity
	}{
		{"combined", Options{Format: Combined}, `192.0.2.1 - - ` + at + ` "-" 408 0 "-" "-"`, 0, "log-not-request:info"},
		{"combined, empty request", Options{Format: Combined}, `192.0.2.1 - - ` + at + ` "" 408 0 "-" "-"`, 0, "log-not-request:info"},
		{"common", Options{Format: Common}, `192.0.2.1 - - ` + at + ` "-" 408 -`, 0, "log-not-request:info"},
		{"vhost_combined", Options{Format: VhostCombined}, `www.example.com:80 192.0.2.1 - - ` + at + ` "-" 408 0 "-" "-"`, 0, "log-not-request:info"},
		{"elb-classic", Options{Format: ELBClassic}, `2024-05-01T00:00:00.000000Z lb 192.0.2.1:2817 - -1 -1 -1 408 0 0 0 "- - - " "-" - -`, 0, "log-not-request:info"},
		{"combined, \"-\" 400", Options{Format: Combined}, `192.0.2.1 - - ` + at + ` "-" 400 0 "-" "-"`, 1, "log-bad-request:warning"},
		{"combined, junk 408", Options{Format: Combined}, `192.0.2.1 - - ` + at + ` "\x16\x03\x01" 408 0 "-" "-"`, 1, "log-bad-request:warning"},
		{"vhost_combined, no protocol", Options{Format: VhostCombined}, `www.example.com:80 192.0.2.1 - - ` + at + ` "GET /x" 408 0 "-" "-"`, 1, "log-bad-request:warning"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got, probs := readAll(t, tt.line+"\n", tt.opts)
			var ps []string
			for _, p := range probs {
				ps = append(ps, string(p.Code)+":"+p.Severity)
			}
			if len(got) != tt.wantFetch || strings.Join(ps, " ") != tt.want {
				t.Errorf("%d fetches, problems %q; want %d, %q", len(got), ps, tt.wantFetch, tt.want)
			}
		})
	}
}
