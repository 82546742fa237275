package accesslog

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/repaudit/repaudit/event"
)

// sampleLogs holds a few realistic lines of every format, for detection,
// chunked reading, fuzz seeds and benchmarks.
var sampleLogs = map[Format]string{
	Combined: `192.0.2.10 - - [01/May/2024:12:00:00 +0000] "GET /a HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"` + "\n" +
		`2001:db8::1 - - [01/May/2024:12:00:01 +0000] "GET /robots.txt HTTP/1.1" 200 80 "-" "Googlebot/2.1"` + "\n" +
		`192.0.2.11 - - [01/May/2024:12:00:02 +0000] "GET /b?c=d HTTP/1.1" 404 - "https://example.com/" "curl/8.0"` + "\n",
	Common: `192.0.2.10 - - [01/May/2024:12:00:00 +0000] "GET /a HTTP/1.1" 200 512` + "\n" +
		`192.0.2.11 - bob [01/May/2024:12:00:01 +0000] "POST /b HTTP/1.1" 201 -` + "\n",
	VhostCombined: `example.com:443 192.0.2.10 - - [01/May/2024:12:00:00 +0000] "GET /a HTTP/1.1" 200 512 "-" "Bot"` + "\n" +
		`example.com:80 192.0.2.11 - - [01/May/2024:12:00:01 +0000] "GET /b HTTP/1.1" 200 1 "-" "Bot"` + "\n",
	NginxJSON: `{"time_iso8601":"2024-05-01T12:00:00+00:00","remote_addr":"192.0.2.10","request_method":"GET","request_uri":"/a","status":"200","body_bytes_sent":"512","http_referer":"","http_user_agent":"Bot","http_host":"example.com","http_signature":"","http_signature_input":"","http_signature_agent":""}` + "\n" +
		`{"time_iso8601":"2024-05-01T12:00:01+00:00","remote_addr":"192.0.2.11","request_method":"GET","request_uri":"/b","status":"404","body_bytes_sent":"0","http_referer":"","http_user_agent":"Bot","http_host":"example.com","http_signature":"` + jsonEscape(sigValue) + `","http_signature_input":"` + jsonEscape(sigInput) + `","http_signature_agent":"` + jsonEscape(sigAgent) + `"}` + "\n",
	CaddyJSON:      `{"level":"info","ts":1714564800.123,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"192.0.2.10","remote_port":"5000","client_ip":"192.0.2.10","proto":"HTTP/1.1","method":"GET","host":"example.com","uri":"/a","headers":{"User-Agent":["Bot"],"Accept":["*/*"]}},"bytes_read":0,"user_id":"","duration":0.001,"size":512,"status":200,"resp_headers":{}}` + "\n",
	CloudflareJSON: `{"ClientIP":"192.0.2.10","ClientRequestHost":"example.com","ClientRequestMethod":"GET","ClientRequestURI":"/a","ClientRequestScheme":"https","ClientRequestUserAgent":"Bot","ClientRequestReferer":"","EdgeStartTimestamp":1714564800000000000,"EdgeResponseStatus":200,"EdgeResponseBytes":512,"VerifiedBotCategory":"","RayID":"8f00"}` + "\n",
	FastlyJSON:     `{"timestamp":"2024-05-01T12:00:00+0000","client_ip":"192.0.2.10","host":"example.com","url":"/a","request":"GET","request_referer":"","request_user_agent":"Bot","response_status":200,"response_reason":"OK","response_body_size":512,"is_tls":true}` + "\n",
	CloudFront: "#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol\n" +
		"2024-05-01\t12:00:00\tLAX1\t512\t192.0.2.10\tGET\td1.cloudfront.net\t/a\t200\t-\tBot%20One\t-\t-\tHit\tid1\texample.com\thttps\n",
	ALB: `https 2024-05-01T12:00:00.000000Z app/lb/1 192.0.2.10:1234 10.0.0.1:80 0.001 0.001 0.001 200 200 10 512 "GET https://example.com:443/a HTTP/1.1" "Bot" ECDHE TLSv1.2 arn:tg "Root=1" "example.com" "arn:cert" 0 2024-05-01T12:00:00.000000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-"` + "\n",
	W3C: "#Software: Microsoft Internet Information Services 10.0\n#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken\n" +
		"2024-05-01 12:00:00 10.0.0.5 GET /a - 443 - 192.0.2.10 Bot - 200 0 0 1\n",
	ELBClassic:  `2024-05-01T12:00:00.000000Z my-lb 192.0.2.10:1234 10.0.0.1:80 0.00004 0.0008 0.00002 200 200 0 512 "GET http://example.com:80/a HTTP/1.1" "Bot" - -` + "\n",
	S3:          `79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be example-bucket [01/May/2024:12:00:00 +0000] 192.0.2.10 - 3E57427F3EXAMPLE REST.GET.OBJECT a "GET /example-bucket/a HTTP/1.1" 200 - 512 512 70 10 "-" "Bot" - Ex= SigV4 ECDHE-RSA-AES128-GCM-SHA256 AuthHeader example-bucket.s3.us-west-1.amazonaws.com TLSv1.2` + "\n",
	HAProxy:     `May  1 12:00:00 lb haproxy[123]: 192.0.2.10:40000 [01/May/2024:12:00:00.123] fe~ be/srv1 0/0/1/2/3 200 512 - - ---- 1/1/0/0/0 0/0 "GET /a HTTP/1.1"` + "\n",
	TraefikJSON: `{"ClientAddr":"192.0.2.10:40000","ClientHost":"192.0.2.10","DownstreamContentSize":512,"DownstreamStatus":200,"RequestHost":"example.com","RequestMethod":"GET","RequestPath":"/a","RequestProtocol":"HTTP/1.1","RequestScheme":"https","RouterName":"r@file","StartUTC":"2024-05-01T12:00:00.1Z","request_User-Agent":"Bot"}` + "\n",
	MatomoJSON:  `{"ip": "192.0.2.10","host": "example.com","path": "/a","status": "200","referrer": "","user_agent": "Bot","length": 512,"generation_time_milli": 0.008,"date": "2024-05-01T12:00:00+00:00"}` + "\n",
}

func TestDetect(t *testing.T) {
	for _, f := range Formats() {
		t.Run(string(f), func(t *testing.T) {
			r, err := NewReader(strings.NewReader(sampleLogs[f]), "x.log", Options{})
			if err != nil {
				t.Fatalf("NewReader: %v", err)
			}
			if r.Format() != f {
				t.Errorf("got format %q, want %q", r.Format(), f)
			}
			fetches, probs, err := drain(r)
			if f == HAProxy && len(probs) == 1 && probs[0].Code == CodeLocalTime {
				probs = nil // said once per HAProxy file: its times have no zone
			}
			if err != nil || len(probs) != 0 || len(fetches) == 0 {
				t.Errorf("got %d fetches, problems %v, err %v; want fetches and no problems", len(fetches), probs, err)
			}
		})
	}
}

func TestDetectUnsure(t *testing.T) {
	mixed := strings.SplitAfter(sampleLogs[Combined], "\n")[0] + strings.SplitAfter(sampleLogs[NginxJSON], "\n")[0]
	for name, in := range map[string]string{
		"mixed half and half":      mixed,
		"prose":                    "hello world\nthis is not a log\n",
		"json of another shape":    `{"a":1,"b":2}` + "\n",
		"w3c data without #Fields": "2024-05-01 12:00:00 10.0.0.5 GET /a - 443 - 192.0.2.10 Bot - 200 0 0 1\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := NewReader(strings.NewReader(in), "logs/odd.log", Options{})
			if !errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), "logs/odd.log") {
				t.Errorf("got error %v, want ErrUnknownFormat naming logs/odd.log", err)
			}
		})
	}
}

func TestDetectMajority(t *testing.T) {
	// Two combined lines, one common line and one junk line: combined has
	// a strict majority (common lines count with combined).
	lines := [][]byte{
		[]byte(`192.0.2.10 - - [01/May/2024:12:00:00 +0000] "GET /a HTTP/1.1" 200 512 "-" "Bot"`),
		[]byte(`192.0.2.10 - - [01/May/2024:12:00:00 +0000] "GET /a HTTP/1.1" 200 512`),
		[]byte(`192.0.2.10 - - [01/May/2024:12:00:00 +0000] "GET /a HTTP/1.1" 200 512 "-" "Bot"`),
		[]byte(`junk`),
		[]byte(``),
	}
	if f, ok := Detect(lines); !ok || f != Combined {
		t.Errorf("got %q, %v; want combined, true", f, ok)
	}
	if f, ok := Detect(lines[2:4]); ok {
		t.Errorf("one line of two: got %q, true; want unsure", f)
	}
}

func TestEmptyInput(t *testing.T) {
	for _, in := range []string{"", "\n\n  \n"} {
		r, err := NewReader(strings.NewReader(in), "empty.log", Options{})
		if err != nil {
			t.Fatalf("NewReader(%q): %v", in, err)
		}
		if f, err := r.Next(); err != io.EOF {
			t.Errorf("Next on %q: got %v, %v; want io.EOF", in, f, err)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Format
	}{{"combined", Combined}, {"VHOST-COMBINED", VhostCombined}, {"nginx_json", NginxJSON}, {"iis", W3C}, {"clf", Common}} {
		if got, err := ParseFormat(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseFormat(%q): got %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := ParseFormat("syslog"); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("ParseFormat(syslog): got %v, want ErrUnknownFormat", err)
	}
	if _, err := NewReader(strings.NewReader(""), "a.log", Options{Format: "bogus"}); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("NewReader with a bogus format: got %v, want ErrUnknownFormat", err)
	}
}

func gz(t testing.TB, members ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	for _, m := range members {
		w := gzip.NewWriter(&buf)
		if _, err := io.WriteString(w, m); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// manyLines returns n combined lines with distinct targets.
func manyLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `192.0.2.%d - - [01/May/2024:12:%02d:%02d +0000] "GET /page/%d HTTP/1.1" 200 %d "-" "Bot/%d"`+"\n",
			i%250, i/60%60, i%60, i, i*7, i)
	}
	return b.String()
}

func targets(fs []event.Fetch) []string {
	var ts []string
	for _, f := range fs {
		ts = append(ts, f.Target)
	}
	return ts
}

func TestChunkedAndCompressed(t *testing.T) {
	plain := manyLines(500)
	want := targets(mustRead(t, strings.NewReader(plain)))
	if len(want) != 500 {
		t.Fatalf("plain: got %d fetches, want 500", len(want))
	}
	half := len(plain) / 2
	cut := strings.LastIndexByte(plain[:half], '\n') + 1
	compressed := gz(t, plain[:cut], plain[cut:]) // two gzip members
	for name, rd := range map[string]func() io.Reader{
		"one byte":          func() io.Reader { return iotest.OneByteReader(strings.NewReader(plain)) },
		"half":              func() io.Reader { return iotest.HalfReader(strings.NewReader(plain)) },
		"gzip":              func() io.Reader { return bytes.NewReader(compressed) },
		"gzip one byte":     func() io.Reader { return iotest.OneByteReader(bytes.NewReader(compressed)) },
		"gzip data err eof": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(compressed)) },
	} {
		t.Run(name, func(t *testing.T) {
			got := targets(mustRead(t, rd()))
			if !slices.Equal(got, want) {
				t.Errorf("got %d fetches, want %d identical to plain reading", len(got), len(want))
			}
		})
	}
	r, err := NewReader(bytes.NewReader(compressed), "a.log.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := drain(r); err != nil {
		t.Fatal(err)
	}
	if r.BytesRead() != int64(len(compressed)) || r.Lines() != 500 {
		t.Errorf("got BytesRead %d, Lines %d; want %d, 500", r.BytesRead(), r.Lines(), len(compressed))
	}
}

func mustRead(t *testing.T, rd io.Reader) []event.Fetch {
	t.Helper()
	r, err := NewReader(rd, "a.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	fs, probs, err := drain(r)
	if err != nil || len(probs) != 0 {
		t.Fatalf("got err %v, problems %v; want none", err, probs)
	}
	return fs
}

func TestTruncatedGzip(t *testing.T) {
	plain := manyLines(2000)
	full := gz(t, plain)
	for _, keep := range []int{len(full) / 2, len(full) - 4, len(full) - 9} {
		t.Run(fmt.Sprint(keep), func(t *testing.T) {
			r, err := NewReader(bytes.NewReader(full[:keep]), "cut.log.gz", Options{Format: Combined})
			if err != nil {
				t.Fatal(err)
			}
			fs, probs, err := drain(r)
			if err != nil {
				t.Fatalf("got error %v, want the cut reported as a problem", err)
			}
			if len(fs) == 0 || len(fs) > 2000 {
				t.Fatalf("got %d fetches, want the lines before the cut", len(fs))
			}
			for i, f := range fs {
				if want := fmt.Sprintf("/page/%d", i); f.Target != want {
					t.Fatalf("fetch %d: got %q, want %q (complete lines only)", i, f.Target, want)
				}
			}
			if len(probs) != 1 || probs[0].Code != CodeTruncated || probs[0].Source.File != "cut.log.gz" || probs[0].Source.Line < int64(len(fs)) {
				t.Errorf("got problems %v, want one %s at line >= %d", probs, CodeTruncated, len(fs))
			}
		})
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	in := io.MultiReader(strings.NewReader(manyLines(3)), iotest.ErrReader(boom))
	r, err := NewReader(in, "a.log", Options{Format: Combined})
	if err != nil {
		t.Fatal(err)
	}
	fs, _, err := drain(r)
	if !errors.Is(err, boom) || len(fs) != 3 || !strings.Contains(err.Error(), "a.log") {
		t.Errorf("got %d fetches, err %v; want 3 and the read error naming the file", len(fs), err)
	}
	if _, err2 := r.Next(); err2 != err {
		t.Errorf("second Next: got %v, want the same sticky error", err2)
	}
}

func TestLongLines(t *testing.T) {
	long := `192.0.2.1 - - [01/May/2024:12:00:00 +0000] "GET /` + strings.Repeat("a", 300<<10) + ` HTTP/1.1" 200 1 "-" "Bot"` + "\n"
	in := manyLines(2) + long + manyLines(1)
	t.Run("over the cap", func(t *testing.T) {
		r, fs, probs := readAll(t, in, Options{Format: Combined, MaxLine: 64 << 10})
		if got := targets(fs); !slices.Equal(got, []string{"/page/0", "/page/1", "/page/0"}) {
			t.Errorf("got targets %v, want the three short lines", got)
		}
		if len(probs) != 1 || probs[0].Code != CodeLineTooLong || probs[0].Source.Line != 3 || len(probs[0].Message) > 300 {
			t.Errorf("got problems %v, want one short %s at line 3", probs, CodeLineTooLong)
		}
		if r.Lines() != 4 || r.Skipped() != 1 {
			t.Errorf("got Lines %d, Skipped %d; want 4, 1", r.Lines(), r.Skipped())
		}
	})
	t.Run("longer than the buffer, under the cap", func(t *testing.T) {
		_, fs, probs := readAll(t, in, Options{Format: Combined})
		if len(fs) != 4 || len(probs) != 0 || len(fs[2].Target) != 1+300<<10 || fs[2].UserAgent != "Bot" {
			t.Errorf("got %d fetches, problems %v; want 4 with the long one intact", len(fs), probs)
		}
	})
	t.Run("cap below the buffer", func(t *testing.T) {
		_, fs, probs := readAll(t, in, Options{Format: Combined, MaxLine: 50})
		if len(fs) != 0 || len(probs) != 4 {
			t.Errorf("got %d fetches, %d problems; want 0, 4", len(fs), len(probs))
		}
	})
}

func TestLastLineWithoutNewline(t *testing.T) {
	in := strings.TrimSuffix(manyLines(2), "\n")
	_, fs, _ := readAll(t, in, Options{})
	if len(fs) != 2 || fs[1].Source.Line != 2 {
		t.Errorf("got %d fetches, want 2 (the last without a newline)", len(fs))
	}
}

func TestProblemsCapped(t *testing.T) {
	in := strings.Repeat("junk\n", maxProblems+5)
	r, err := NewReader(strings.NewReader(in), "j.log", Options{Format: Combined})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("got %v, want io.EOF", err)
	}
	// The cap keeps maxProblems line problems; the file-level one saying
	// nothing was read is kept beyond it, then the count of those dropped.
	ps := r.Problems()
	if len(ps) != maxProblems+2 || ps[len(ps)-1].Code != CodeProblemsDropped || ps[len(ps)-2].Code != CodeNothingRead || r.Skipped() != maxProblems+5 {
		t.Errorf("got %d problems (last %v), skipped %d; want %d ending with %s, %s, %d skipped",
			len(ps), ps[len(ps)-1], r.Skipped(), maxProblems+2, CodeNothingRead, CodeProblemsDropped, maxProblems+5)
	}
	if ps := r.Problems(); len(ps) != 0 {
		t.Errorf("second Problems: got %d, want 0 (cleared)", len(ps))
	}
}

func TestFetchReused(t *testing.T) {
	r, err := NewReader(strings.NewReader(manyLines(2)), "a.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	f1, _ := r.Next()
	ua := f1.UserAgent
	f2, _ := r.Next()
	if f1 != f2 || ua != "Bot/0" || f2.UserAgent != "Bot/1" {
		t.Errorf("got %p %p %q %q; want the same Fetch reused and kept strings intact", f1, f2, ua, f2.UserAgent)
	}
}

func TestBOMAndNULs(t *testing.T) {
	in := "\xef\xbb\xbf" + manyLines(1) + "\x00\x00\x00\x00\n\x00\x00" + manyLines(1)
	_, fs, probs := readAll(t, in, Options{})
	if len(fs) != 2 || len(probs) != 0 || fs[1].Source.Line != 3 {
		t.Errorf("got %d fetches, problems %v; want 2 (lines 1 and 3), none", len(fs), probs)
	}
}

// testdata/two-lines.log.bz2 was made with:
//
//	printf '%s\n' '<line 1>' '<line 2>' | bzip2 -9
func TestBzip2(t *testing.T) {
	data, err := os.ReadFile("testdata/two-lines.log.bz2")
	if err != nil {
		t.Fatal(err)
	}
	fs := mustRead(t, bytes.NewReader(data))
	if got := targets(fs); !slices.Equal(got, []string{"/bz/1", "/bz/2"}) {
		t.Errorf("got targets %v, want [/bz/1 /bz/2]", got)
	}
	r, err := NewReader(bytes.NewReader(data[:len(data)-10]), "cut.bz2", Options{Format: Combined})
	if err != nil {
		t.Fatal(err)
	}
	_, probs, err := drain(r)
	if err != nil || len(probs) != 1 || (probs[0].Code != CodeTruncated && probs[0].Code != CodeCorrupt) {
		t.Errorf("cut bzip2: got err %v, problems %v; want one truncated/corrupt problem", err, probs)
	}
}

func TestAll(t *testing.T) {
	r, err := NewReader(strings.NewReader(manyLines(5)+"junk\n"), "a.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for f, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		if f.Source.Line != int64(n+1) {
			t.Errorf("fetch %d: got line %d", n, f.Source.Line)
		}
		n++
	}
	if p := r.Problems(); n != 5 || len(p) != 1 || p[0].Source.Line != 6 {
		t.Errorf("got %d fetches, problems %v; want 5 and one at line 6", n, p)
	}
	boom := errors.New("boom")
	r, _ = NewReader(io.MultiReader(strings.NewReader(manyLines(2)), iotest.ErrReader(boom)), "b.log", Options{Format: Combined})
	var errs []error
	n = 0
	for f, err := range r.All() {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		_ = f
		n++
	}
	if n != 2 || len(errs) != 1 || !errors.Is(errs[0], boom) {
		t.Errorf("got %d fetches, errors %v; want 2 and the read error once", n, errs)
	}
}
