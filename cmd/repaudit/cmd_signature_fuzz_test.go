package main

import (
	"bytes"
	"testing"
)

// FuzzParseCheckRequest: any input line either becomes a request or an
// error naming the field; never a panic. A body_b64 that decodes gives a
// non-nil Body; absent, the body stays nil (not archived).
func FuzzParseCheckRequest(f *testing.F) {
	for _, s := range []string{
		`{"time":"2025-06-01T12:00:00Z","method":"GET","authority":"example.com","path":"/a","ip":"192.0.2.1","headers":{"Signature":["sig1=:AAAA:"],"X":"y"}}`,
		`{"headers_complete":true,"body_b64":"aGVsbG8=","headers":{"Content-Digest":"sha-256=:AAAA:"}}`,
		`{"body_b64":"aGVsbG8"}`,
		`{"body_b64":""}`,
		`{"body_b64":"*"}`,
		`{"headers":{"a":[1]}}`,
		`{"ip":"::ffff:192.0.2.1"}`,
		`not json`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := parseCheckRequest(line)
		if err != nil {
			if r != nil {
				t.Fatalf("request and error both returned for %q", line)
			}
			return
		}
		if bytes.Contains(line, []byte(`"body_b64"`)) == false && r.Body != nil {
			t.Fatalf("body set without body_b64: %q", line)
		}
		if !r.Time.IsZero() && r.Time.Location().String() != "UTC" {
			t.Fatalf("time not UTC: %v", r.Time)
		}
	})
}
