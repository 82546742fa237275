package accesslog

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// fuzzRead reads data as format f (or auto-detected) and checks the
// reader's invariants: no panic, every fetch located on a line that was
// read, times in UTC, problems located, memory bounded by MaxLine.
func fuzzRead(t *testing.T, data []byte, f Format) {
	r, err := NewReader(bytes.NewReader(data), "fuzz.log", Options{Format: f, MaxLine: 4096, ExtraHeaders: []string{"Signature", "Signature-Input"}})
	if err != nil {
		return
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
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		fuzzRead(t, data, text[int(pick)%len(text)])
	})
}

// FuzzReaderJSON covers the JSON-lines formats.
func FuzzReaderJSON(f *testing.F) {
	jsonFormats := []Format{"", NginxJSON, CaddyJSON, CloudflareJSON, FastlyJSON}
	fuzzSeeds(f, NginxJSON, CaddyJSON, CloudflareJSON, FastlyJSON)
	f.Add([]byte(`{"request":{"headers":{"A":["x",1,{"y":[]}]}},"ts":"2024-05-01T00:00:00Z","logger":"x"}`), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		fuzzRead(t, data, jsonFormats[int(pick)%len(jsonFormats)])
	})
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
