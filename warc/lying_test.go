package warc

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// lyingThenMany returns a per-record-gzip WARC whose first record (a
// response, or a request) declares Content-Length: 99999999999 in its
// own gzip member (without the CRLFs that end a record unless endLines),
// followed by n exchanges (request and response, each in
// a member of its own) written by Writer.
func lyingThenMany(t *testing.T, lying wrec, n int, endLines bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	b := lying.bytes()
	if !endLines { // the member ends inside the record's HTTP header
		b = bytes.TrimSuffix(b, []byte("\r\n\r\n"))
	}
	buf.Write(gzipMember(b))
	w := NewWriter(&buf, WriterOptions{})
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range n {
		u := fmt.Sprintf("https://www.example.com/p%d", i)
		if err := w.WriteExchange(&Exchange{URL: u, Time: at.Add(time.Duration(i) * time.Second),
			Request:      []byte("GET /p" + fmt.Sprint(i) + " HTTP/1.1\r\nHost: www.example.com\r\nUser-Agent: TestBot/1.0\r\n\r\n"),
			ResponseHead: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"), Body: []byte("hello")}); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// TestLyingContentLength: a record whose Content-Length runs past its own
// gzip member must not swallow the records that follow, each in its own
// member: it is reported (at its offset), kept with what its member
// holds, and all 1,000 following exchanges are read.
func TestLyingContentLength(t *testing.T) {
	const n = 1000
	for _, tc := range []struct {
		name  string
		lying wrec
		keep  bool // the lying record's headers are complete: kept
	}{
		{"response", wrec{typ: "response", id: "<urn:uuid:liar>", uri: "https://www.example.com/liar", ctype: "application/http; msgtype=response",
			block: httpResponse("HTTP/1.1 200 OK", "short body", "Content-Type: text/plain"), cl: "99999999999"}, true},
		{"request", wrec{typ: "request", id: "<urn:uuid:liar>", uri: "https://www.example.com/liar", ctype: "application/http; msgtype=request",
			block: "GET /liar HTTP/1.1\r\nHost: www.example.com\r\nUser-Agent: LiarBot/1.0\r\n\r\n", cl: "99999999999"}, true},
		{"headers-cut", wrec{typ: "response", id: "<urn:uuid:liar>", uri: "https://www.example.com/liar", ctype: "application/http; msgtype=response",
			block: "HTTP/1.1 200 OK\r\nContent-Type: te", cl: "99999999999"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := lyingThenMany(t, tc.lying, n, tc.keep)
			_, got, probs := readAll(t, data, Options{})
			var fetches, captures int
			for _, r := range got {
				if r.Fetch != nil && r.Fetch.UserAgent == "TestBot/1.0" {
					fetches++
				}
				if r.Capture != nil && strings.HasPrefix(r.Capture.URL, "https://www.example.com/p") {
					captures++
				}
			}
			if fetches != n || captures != n {
				t.Errorf("read %d fetches and %d captures after the lying record, want %d each (problems %v)", fetches, captures, n, codes(probs))
			}
			kept := len(got) > 0 && got[0].Source.Offset == 0 && strings.Contains(got[0].WARCHeader.Get("WARC-Record-ID"), "liar")
			if kept != tc.keep {
				t.Errorf("lying record kept = %v, want %v", kept, tc.keep)
			}
			if kept && got[0].Capture != nil && !got[0].Capture.BodyTruncated {
				t.Errorf("lying record's body not marked truncated")
			}
			var found int
			for _, p := range probs {
				if p.Code == CodeLengthPastMember {
					found++
					if p.Source.Offset != 0 || p.Severity != SevError {
						t.Errorf("problem %+v, want an error at offset 0", p)
					}
				}
			}
			if found != 1 {
				t.Errorf("%d %s problems, want 1 (all: %v)", found, CodeLengthPastMember, codes(probs))
			}
		})
	}
}

// TestLyingContentLengthWholeFile: in a whole-file gzip there is no
// member to resynchronise at; the record runs to the end of the file and
// counts as cut after its headers, as before.
func TestLyingContentLengthWholeFile(t *testing.T) {
	liar := respRec(1, "https://www.example.com/liar", httpResponse("HTTP/1.1 200 OK", "short"))
	liar.cl = "99999999999"
	data := gzipMember(join(liar.bytes(), respRec(2, "https://www.example.com/2", httpResponse("HTTP/1.1 200 OK", "two")).bytes()))
	_, got, probs := readAll(t, data, Options{})
	if len(got) != 1 || !hasCode(probs, CodeTruncated) || hasCode(probs, CodeLengthPastMember) {
		t.Errorf("records %v problems %v, want the liar kept as cut (%s)", recordIDs(got), codes(probs), CodeTruncated)
	}
}

// TestLyingContentLengthZstd: the same with one zstd frame per record.
func TestLyingContentLengthZstd(t *testing.T) {
	liar := respRec(0, "https://www.example.com/liar", httpResponse("HTTP/1.1 200 OK", "short"))
	liar.cl = "99999999999"
	parts := [][]byte{zstdFrame(liar.bytes())}
	for i := 1; i <= 100; i++ {
		parts = append(parts, zstdFrame(respRec(i, fmt.Sprintf("https://www.example.com/%d", i), httpResponse("HTTP/1.1 200 OK", "ok")).bytes()))
	}
	_, got, probs := readAll(t, join(parts...), Options{})
	if len(got) != 101 || !hasCode(probs, CodeLengthPastMember) {
		t.Errorf("%d records, problems %v; want 101 and %s", len(got), codes(probs), CodeLengthPastMember)
	}
}
