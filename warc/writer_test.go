package warc

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
)

// TestWriterRoundTrip writes every kind of record the Writer makes and
// reads them back with this package's Reader: each is its own gzip member
// at the offset the reader reports, with the fields given.
func TestWriterRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	n := 0
	w := NewWriter(&buf, WriterOptions{NewID: func() string {
		n++
		return FormatRecordID([16]byte{15: byte(n)})
	}})
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	if _, err := w.WriteWarcinfo(at, "x.warc.gz", event.Header{{Name: "software", Value: "test"}}); err != nil {
		t.Fatal(err)
	}
	body := []byte("User-agent: *\nDisallow: /private\n")
	err := w.WriteExchange(&Exchange{
		URL: "https://example.com/robots.txt", Time: at.Add(time.Minute), IP: "192.0.2.1",
		Request:      []byte("GET /robots.txt HTTP/1.1\r\nHost: example.com\r\n\r\n"),
		ResponseHead: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"),
		Body:         body,
	})
	if err != nil {
		t.Fatal(err)
	}
	err = w.WriteExchange(&Exchange{
		URL: "https://example.com/robots.txt", Time: at.Add(2 * time.Minute),
		ResponseHead: []byte("HTTP/1.1 404 Not Found\r\n\r\n"),
		Extra:        event.Header{{Name: "WARC-Source-URI", Value: "https://web.archive.org/web/20240501120200id_/https://example.com/robots.txt"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteResource("data:application/json,{}", "application/json", at, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if w.Records() != 5 {
		t.Errorf("Records() = %d, want 5", w.Records())
	}

	r, err := NewReader(bytes.NewReader(buf.Bytes()), "x.warc.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []*Record
	for rec, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		if rec.Capture != nil {
			rec.Capture.Body = bytes.Clone(rec.Capture.Body) // valid until Next only
		}
		got = append(got, rec)
	}
	if ps := r.Problems(); len(ps) > 0 {
		t.Errorf("problems reading what the Writer wrote: %v", ps)
	}
	if len(got) != 5 {
		t.Fatalf("read %d records, want 5", len(got))
	}
	info, req, resp, gone, res := got[0], got[1], got[2], got[3], got[4]
	if info.Type != "warcinfo" || info.WARCHeader.Get("WARC-Filename") != "x.warc.gz" {
		t.Errorf("warcinfo: %+v", info.WARCHeader)
	}
	if info.Info.Get("software") != "test" || len(info.Info) != 1 {
		t.Errorf("warcinfo fields: %+v, want software: test", info.Info)
	}
	for _, r := range got[1:] {
		if r.Info != nil {
			t.Errorf("%s record has warcinfo fields %+v", r.Type, r.Info)
		}
	}
	if req.Fetch == nil || req.Fetch.Status != 200 || req.Fetch.Target != "/robots.txt" {
		t.Errorf("request: %+v", req.Fetch)
	}
	c := resp.Capture
	if c == nil || c.Status != 200 || string(c.Body) != string(body) || c.WARCHeader.Get("WARC-Warcinfo-ID") != FormatRecordID([16]byte{15: 1}) ||
		c.WARCHeader.Get("WARC-IP-Address") != "192.0.2.1" || c.PayloadDigest != DigestSHA256(body) || c.SourceURI != "" {
		t.Errorf("response: %+v", c)
	}
	if !c.Time.Equal(at.Add(time.Minute)) {
		t.Errorf("response time %v", c.Time)
	}
	g := gone.Capture
	if g == nil || g.Status != 404 || len(g.ConcurrentTo) != 0 || g.SourceURI != "https://web.archive.org/web/20240501120200id_/https://example.com/robots.txt" {
		t.Errorf("response without request: %+v", g)
	}
	if res.Capture == nil || res.Capture.RecordType != "resource" || string(res.Capture.Body) != "{}" {
		t.Errorf("resource: %+v", res.Capture)
	}
	// One gzip member per record: each stored offset starts a member.
	for _, rec := range got {
		off := rec.Source.Offset
		if off < 0 || !bytes.HasPrefix(buf.Bytes()[off:], []byte{0x1f, 0x8b}) {
			t.Errorf("record at %d does not start a gzip member", off)
		}
	}
}

func TestWriterRefusesContentLengthAndLineBreaks(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, WriterOptions{})
	if err := w.WriteRecord(event.Header{{Name: "content-length", Value: "3"}}, []byte("abc")); !errors.Is(err, ErrContentLength) {
		t.Errorf("Content-Length given: err = %v, want ErrContentLength", err)
	}
	if err := w.WriteRecord(event.Header{{Name: "WARC-Type", Value: "resource\r\nWARC-Type: request"}, {Name: "WARC-Date", Value: "2024-05-01T00:00:00Z"}}, nil); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(bytes.NewReader(buf.Bytes()), "x", Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.WARCHeader.Values("WARC-Type"); len(got) != 1 || got[0] != "resource  WARC-Type: request" {
		t.Errorf("WARC-Type values %q: a line break in a value started a field", got)
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, io.ErrShortWrite
	}
	f.n--
	return len(p), nil
}

func TestWriterErrorsAreSticky(t *testing.T) {
	w := NewWriter(&failWriter{}, WriterOptions{})
	err1 := w.WriteResource("https://example.com/", "text/plain", time.Unix(0, 0), []byte(strings.Repeat("x", 100)))
	if err1 == nil {
		t.Fatal("write to a failing writer succeeded")
	}
	if err2 := w.WriteRecord(nil, nil); err2 != err1 {
		t.Errorf("second error %v, want the first %v again", err2, err1)
	}
	if w.Records() != 0 {
		t.Errorf("Records() = %d after failures", w.Records())
	}
}
