package demo

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/warc"
)

// warcWriter writes the demo's records through warc.Writer, with record IDs
// derived from a counter so the demo files are byte-for-byte reproducible.
type warcWriter struct {
	ww   *warc.Writer
	name string
	n    int
}

func newWARCWriter(w io.Writer, name string) *warcWriter {
	d := &warcWriter{name: name}
	d.ww = warc.NewWriter(w, warc.WriterOptions{Level: gzip.BestCompression, NewID: d.id})
	return d
}

func (d *warcWriter) id() string {
	d.n++
	h := sha256.Sum256([]byte(fmt.Sprintf("%s#%d", d.name, d.n)))
	return warc.FormatRecordID([16]byte(h[:16]))
}

func (d *warcWriter) record(typ, uri string, at time.Time, contentType string, block []byte, extra ...event.Field) (string, error) {
	id := d.id()
	h := event.Header{
		{Name: "WARC-Type", Value: typ},
		{Name: "WARC-Record-ID", Value: id},
		{Name: "WARC-Date", Value: at.UTC().Format(time.RFC3339)},
	}
	if uri != "" {
		h = append(h, event.Field{Name: "WARC-Target-URI", Value: uri})
	}
	h = append(h, extra...)
	if typ == "response" || typ == "resource" {
		payload := block
		if i := bytes.Index(block, []byte("\r\n\r\n")); i >= 0 && typ == "response" {
			payload = block[i+4:]
		}
		h = append(h, event.Field{Name: "WARC-Payload-Digest", Value: warc.DigestSHA1(payload)})
	}
	h = append(h, event.Field{Name: "Content-Type", Value: contentType})
	return id, d.ww.WriteRecord(h, block)
}

func (d *warcWriter) warcinfo(at time.Time, text string) error {
	_, err := d.record("warcinfo", "", at, "application/warc-fields", []byte(text))
	return err
}

// exchange writes a request record and its response record, paired by
// WARC-Concurrent-To.
func (d *warcWriter) exchange(uri string, at time.Time, request, response []byte) error {
	reqID, err := d.record("request", uri, at, "application/http;msgtype=request", request)
	if err != nil {
		return err
	}
	_, err = d.record("response", uri, at, "application/http;msgtype=response", response, event.Field{Name: "WARC-Concurrent-To", Value: reqID})
	return err
}

func (d *warcWriter) response(uri string, at time.Time, response []byte) error {
	_, err := d.record("response", uri, at, "application/http;msgtype=response", response)
	return err
}

// httpResponse renders an HTTP/1.1 response with the given header lines.
func httpResponse(status int, reason string, headers []string, body string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", status, reason)
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return b.Bytes()
}

func httpRequest(method, target, host, ua string, extra ...string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: %s\r\n", method, target, host, ua)
	for _, h := range extra {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("\r\n")
	return b.Bytes()
}
