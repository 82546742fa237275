package accesslog

import (
	"bytes"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/internal/fixtures"
)

// fuzzRead reads data as format f (or auto-detected) and checks the
// reader's invariants: no panic, every fetch located on a line that was
// read, times in UTC, problems located, memory bounded by MaxLine.
func fuzzRead(t *testing.T, data []byte, f Format) {
	r, err := NewReader(bytes.NewReader(data), "fuzz.log", Options{Format: f, MaxLine: 4096, ExtraHeaders: []string{"Signature", "Signature-Input"}})
	if err != nil {
		return
	}
	if r.zeroCopy {
		sameWithoutZeroCopy(t, data, f)
	}
	for n := 0; ; n++ {
		fe, err := r.Next()
		for _, p := range r.Problems() {
			if p.Source.File != "fuzz.log" || p.Code == "" || p.Source.Line < 1 || p.Source.Line > r.Lines()+1 {
				t.Fatalf("problem without a location or code: %+v", p)
			}
			if len(p.Message) > 1024 {
				t.Fatalf("problem message of %d bytes: excerpts must be capped", len(p.Message))
			}
		}
		if err != nil {
			if err != io.EOF && !strings.Contains(err.Error(), "fuzz.log") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if fe.Source.Line < 1 || fe.Source.Line > r.Lines() {
			t.Fatalf("fetch line %d outside 1..%d", fe.Source.Line, r.Lines())
		}
		if fe.Time.Location() != time.UTC {
			t.Fatalf("time %v not UTC", fe.Time)
		}
		if len(fe.Target) > len(data) || fe.Bytes < -1 || fe.Status < 0 {
			t.Fatalf("implausible fetch %+v", fe)
		}
		if n > len(data) {
			t.Fatalf("more fetches than input bytes")
		}
	}
}

// sameWithoutZeroCopy reads data twice, in place in the read buffer and
// with a string per line, keeps every fetch of the first reading to the
// end (a field left pointing into the buffer would have changed by then)
// and compares the two, problems included.
func sameWithoutZeroCopy(t *testing.T, data []byte, f Format) {
	read := func(zeroCopy bool) ([]event.Fetch, []event.Problem) {
		opts := Options{Format: f, MaxLine: 4096, ExtraHeaders: []string{"Signature", "Signature-Input"}}
		if zeroCopy {
			opts.bufSize = 64 // refilled every line or two: aliasing shows
		}
		r, err := NewReader(bytes.NewReader(data), "fuzz.log", opts)
		if err != nil {
			t.Fatal(err)
		}
		r.zeroCopy = zeroCopy
		var fs []event.Fetch
		var ps []event.Problem
		for {
			fe, err := r.Next()
			ps = append(ps, r.Problems()...)
			if err != nil {
				return fs, ps
			}
			c := *fe
			c.Header = append(event.Header(nil), fe.Header...)
			fs = append(fs, c)
		}
	}
	fc, pc := read(false)
	if len(fc) > 0 {
		f = Format(fc[0].Format) // as detected
	}
	fz, pz := read(true)
	if !reflect.DeepEqual(fz, fc) || !reflect.DeepEqual(pz, pc) {
		t.Fatalf("zero-copy reading differs:\n%+v\n%+v\nproblems:\n%v\n%v", fz, fc, pz, pc)
	}
}

func fuzzSeeds(f *testing.F, formats ...Format) {
	for _, fm := range formats {
		f.Add([]byte(sampleLogs[fm]), uint8(0))
	}
	f.Add(gz(f, sampleLogs[Combined]), uint8(0))
	f.Add([]byte(`{"a":[{"b":{"c":"\ud800\x22"}}],"ts":1e9}`), uint8(0))
	f.Add([]byte("#Fields: date time\n2024-01-01 00:00:00\n"), uint8(0))
}

// FuzzReaderText covers the line formats: Apache/nginx text, ALB, W3C and
// CloudFront. The second argument picks the format (0 = detect).
func FuzzReaderText(f *testing.F) {
	text := []Format{"", Combined, Common, VhostCombined, ALB, W3C, CloudFront}
	fuzzSeeds(f, Combined, Common, VhostCombined, ALB, W3C, CloudFront)
	f.Add([]byte(`1.2.3.4 - - [01/May/2024:12:00:00 +0000] "GET http://[::1 HTTP/1.1" 200 1 "\x" "\\`), uint8(1))
	// X-Forwarded-For client lists, quoted and aligned W3C values.
	f.Add([]byte(`"10.0.0.2, 10.0.0.1" 10.2.1.185 - - [01/May/2024:12:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"`+"\n"), uint8(1))
	f.Add([]byte(`h.example 10.0.0.2, , 10.0.0.1 - - [01/May/2024:12:00:00 +0000] "GET / HTTP/1.1" 200 1`+"\n"), uint8(3))
	f.Add([]byte("#GMT-Offset: -0800\n#Fields:  date-local  time-local c-ip cs-uri\n\"2024-01-01\" \"00:00:00\"   \"1.2.3.4\" \"a\"\"b/c\n"), uint8(5))
	addRealSeeds(f, "beats-nginx-test.log", "beats-nginx-test-with-host.log", "matomo-iis_custom.log", "matomo-incapsula_w3c.log", "lnav-w3c-oracle-webcache.log")
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		fuzzRead(t, data, text[int(pick)%len(text)])
	})
}

// FuzzReaderJSON covers the JSON-lines formats.
func FuzzReaderJSON(f *testing.F) {
	jsonFormats := []Format{"", NginxJSON, CaddyJSON, CloudflareJSON, FastlyJSON, TraefikJSON, MatomoJSON}
	fuzzSeeds(f, NginxJSON, CaddyJSON, CloudflareJSON, FastlyJSON, TraefikJSON, MatomoJSON)
	addRealSeeds(f, "matomo-nginx_json.log", "matomo-traefik_json.log")
	f.Add([]byte(`{"request":{"headers":{"A":["x",1,{"y":[]}]}},"ts":"2024-05-01T00:00:00Z","logger":"x"}`), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		fuzzRead(t, data, jsonFormats[int(pick)%len(jsonFormats)])
	})
}

// FuzzReaderProxy covers the load balancer, storage and proxy formats:
// classic ELB, S3 server access logs and HAProxy.
func FuzzReaderProxy(f *testing.F) {
	formats := []Format{"", ELBClassic, S3, HAProxy}
	fuzzSeeds(f, ELBClassic, S3, HAProxy)
	addRealSeeds(f, "matomo-elb.log", "beats-s3-server-access.log", "lnav-haproxy.log", "beats-haproxy.log")
	f.Add([]byte(`Jan  1 00:00:00 h haproxy[1]: 1.2.3.4:1 [01/Jan/2024:00:00:00.1] a b/c -1/-1/-1/-1/0 400 0 - - CR-- 1/1/0/0/0 0/0 "<BADREQ>"`+"\n"), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		fuzzRead(t, data, formats[int(pick)%len(formats)])
	})
}

// addRealSeeds adds real fixtures (shared/fixtures/real-logs) as seeds,
// those that are there.
func addRealSeeds(f *testing.F, names ...string) {
	for _, n := range names {
		p, _ := fixtures.Find("real-logs/" + n)
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint8(0))
		}
	}
}

// FuzzJSONUnquote checks the string decoder against malformed escapes.
func FuzzJSONUnquote(f *testing.F) {
	for _, s := range []string{`a\"b`, `\u00e9`, `\ud83e\udd16`, `\ud800`, `\x22`, `\`, `\u12`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if out := jsonUnquote(s); len(out) > 3*len(s) {
			t.Fatalf("jsonUnquote grew %d bytes to %d", len(s), len(out))
		}
		if out := unescapeLog(s); len(out) > len(s) {
			t.Fatalf("unescapeLog grew %d bytes to %d", len(s), len(out))
		}
	})
}
