package accesslog

import (
	"errors"
	"strings"
	"testing"
)

func TestForwardedFor(t *testing.T) {
	tests := []struct {
		name, line     string
		format         Format
		client, chain  string
		host           string
		wantFormatAuto Format
	}{
		{"plain", `192.0.2.1 - - [01/May/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"`, Combined, "192.0.2.1", "", "", Combined},
		{"comma list", `203.0.113.9, 10.0.0.1 - - [01/May/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"`, Combined, "203.0.113.9", "203.0.113.9, 10.0.0.1", "", Combined},
		{"quoted list then remote_addr", `"203.0.113.9, 198.51.100.2" 10.0.0.1 - - [01/May/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"`, Combined, "203.0.113.9", "203.0.113.9, 198.51.100.2, 10.0.0.1", "", Combined},
		{"vhost and list", `www.example.com 203.0.113.9, 10.0.0.1 - - [01/May/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"`, VhostCombined, "203.0.113.9", "203.0.113.9, 10.0.0.1", "www.example.com", VhostCombined},
		{"user with spaces stays out", `192.0.2.1 - john smith [01/May/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"`, Combined, "192.0.2.1", "", "", VhostCombined},
		{"list with - entries", `unknown, 192.0.2.7 - - [01/May/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1`, Common, "", "unknown, 192.0.2.7", "", Common},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := Detect([][]byte{[]byte(tt.line)}); got != tt.wantFormatAuto {
				t.Errorf("Detect = %q, want %q", got, tt.wantFormatAuto)
			}
			_, fs, probs := readAll(t, tt.line+"\n", Options{Format: tt.format})
			if len(fs) != 1 {
				t.Fatalf("got %d fetches, problems %v", len(fs), probs)
			}
			f := fs[0]
			client := ""
			if f.ClientIP.IsValid() {
				client = f.ClientIP.String()
			}
			if client != tt.client || f.ForwardedFor != tt.chain || f.Host != tt.host {
				t.Errorf("client %q chain %q host %q, want %q %q %q", client, f.ForwardedFor, f.Host, tt.client, tt.chain, tt.host)
			}
		})
	}
}

func TestNotRequestLines(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		in     string
	}{
		{"elb tcp", ELBClassic, `2015-05-13T23:39:43.945958Z lb 192.168.131.39:2817 10.0.0.1:80 0.001 0.0 0.0 - - 82 305 "- - - " "-" - -`},
		{"s3 batch", S3, `79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be b [01/May/2024:12:00:00 +0000] 192.0.2.1 arn:x 8CD7 BATCH.DELETE.OBJECT k - 204 - - 1 - - - - -`},
		{"haproxy event", HAProxy, `Feb 25 16:19:38 192.168.4.2 haproxy[1]: Proxy prod_http_in started.`},
		{"haproxy tcp", HAProxy, `Feb 25 16:20:15 h haproxy[7]: 95.216.197.33:56224 [25/Feb/2019:16:20:10.111] prod_http_in/sktst2: SSL handshake failure`},
		{"comment", Combined, `# a comment`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, fs, probs := readAll(t, tt.in+"\n", Options{Format: tt.format})
			if len(fs) != 0 || len(probs) == 0 || probs[0].Code != CodeNotRequest || probs[0].Source.Line != 1 {
				t.Errorf("fetches %d problems %v, want one %s on line 1", len(fs), probs, CodeNotRequest)
			}
		})
	}
}

// TestClosest: a file none of whose lines can be read names the format it
// came closest to, both when detection fails and when a named format reads
// nothing.
func TestClosest(t *testing.T) {
	badTime := strings.Repeat(`192.0.2.1 - - [2024-05-01 12:00:00] "GET / HTTP/1.1" 200 1 "-" "x"`+"\n", 3)
	_, err := NewReader(strings.NewReader(badTime), "bad.log", Options{})
	if !errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), "closest: combined (3 of 3 lines)") {
		t.Errorf("NewReader error %v, want one naming combined as closest", err)
	}
	json := strings.Repeat(`{"ip":"192.0.2.1","path":"/","date":"2024-05-01T00:00:00Z","user_agent":"x"}`+"\n", 2)
	_, fs, probs := readAll(t, json, Options{Format: Combined})
	last := probs[len(probs)-1]
	if len(fs) != 0 || last.Code != CodeNothingRead || !strings.Contains(last.Message, "come closest to matomo-json") || !strings.Contains(last.Message, "--log-format matomo-json") {
		t.Errorf("fetches %d, last problem %v; want %s naming matomo-json", len(fs), last, CodeNothingRead)
	}
	if _, _, probs := readAll(t, "junk\n", Options{Format: Combined}); probs[len(probs)-1].Code != CodeNothingRead || !strings.Contains(probs[len(probs)-1].Message, "no known format") {
		t.Errorf("junk: problems %v, want %s saying no known format", probs, CodeNothingRead)
	}
}

func TestW3CVariants(t *testing.T) {
	in := "#Software: Oracle Web Cache\n  #GMT-Offset: +0200\n   #Fields:  c-ip   date   time   cs-method  cs-uri  sc-status  bytes  cs(Referrer)  cs(User-Agent)\n" +
		`192.0.2.1    2024-05-01   12:00:00   GET   /a   200   10   "http://r.example/"   "Bot ""quoted"" 1.0"` + "\n"
	_, fs, probs := readAll(t, in, Options{})
	if len(fs) != 1 || len(probs) != 0 {
		t.Fatalf("fetches %d problems %v", len(fs), probs)
	}
	f := fs[0]
	if got := f.Time.Format("15:04:05"); got != "10:00:00" || f.UserAgent != `Bot "quoted" 1.0` || f.Referer != "http://r.example/" || f.Bytes != 10 {
		t.Errorf("time %s ua %q referer %q bytes %d", got, f.UserAgent, f.Referer, f.Bytes)
	}
	local := "#Fields: date-local time-local c-ip cs-uri-stem sc-status\n2024-05-01 12:00:00.5 192.0.2.1 /a 200\n2024-05-01 12:00:01 192.0.2.1 /b 200\n"
	_, fs, probs = readAll(t, local, Options{})
	if len(fs) != 2 || len(probs) != 1 || probs[0].Code != CodeLocalTime || fs[0].Time.Format("15:04:05.0") != "12:00:00.5" {
		t.Errorf("date-local: fetches %d problems %v", len(fs), probs)
	}
}

// TestHAProxyCaptured: captured request headers are mapped when
// ExtraHeaders names them (the log does not), with HAProxy's #XX escapes
// decoded.
func TestHAProxyCaptured(t *testing.T) {
	line := `Feb 25 16:19:49 h haproxy[7]: 192.0.2.1:53332 [25/Feb/2019:16:19:48.143] fe~ be/s 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {www.example.com|Mozilla/5.0 (compatible; GPTBot/1.2#7C x)} {} "GET /a HTTP/1.1"` + "\n"
	_, fs, _ := readAll(t, line, Options{Format: HAProxy, ExtraHeaders: []string{"Host", "User-Agent"}})
	if len(fs) != 1 || fs[0].Host != "www.example.com" || fs[0].UserAgent != "Mozilla/5.0 (compatible; GPTBot/1.2| x)" || fs[0].Header.Get("User-Agent") != fs[0].UserAgent {
		t.Errorf("fetches %+v", fs)
	}
	_, fs, _ = readAll(t, line, Options{Format: HAProxy})
	if len(fs) != 1 || fs[0].UserAgent != "" || fs[0].Host != "" {
		t.Errorf("without names: %+v, want no header mapped", fs)
	}
}

func TestHAProxySyslogPrefixes(t *testing.T) {
	msg := `192.0.2.1:53332 [25/Feb/2019:16:19:48.143] fe~ be/s 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 "GET /a HTTP/1.1"`
	for _, prefix := range []string{"", "Feb 25 16:19:49 h haproxy[7]: ", "<134>Feb 25 16:19:49 haproxy[7]: ",
		"<134>1 2019-02-25T16:19:49.000Z h haproxy 7 - - ", `<134>1 2019-02-25T16:19:49Z h haproxy 7 - [x@1 a="b c"] `} {
		_, fs, probs := readAll(t, prefix+msg+"\n", Options{})
		if len(fs) != 1 || fs[0].Target != "/a" || fs[0].ClientIP.String() != "192.0.2.1" {
			t.Errorf("prefix %q: fetches %+v problems %v", prefix, fs, probs)
		}
	}
}
