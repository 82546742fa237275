package demo

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"io"
	"time"

	"github.com/klauspost/compress/gzip"
)

// warcWriter writes WARC/1.1 records, one gzip member each, with record IDs
// derived from a counter so the demo files are byte-for-byte reproducible.
type warcWriter struct {
	w    io.Writer
	name string
	n    int
}

func (ww *warcWriter) id() string {
	ww.n++
	h := sha256.Sum256([]byte(fmt.Sprintf("%s#%d", ww.name, ww.n)))
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

type field struct{ name, value string }

func (ww *warcWriter) record(typ, uri string, at time.Time, contentType string, block []byte, extra ...field) (string, error) {
	id := ww.id()
	var hdr bytes.Buffer
	fmt.Fprintf(&hdr, "WARC/1.1\r\nWARC-Type: %s\r\nWARC-Record-ID: %s\r\nWARC-Date: %s\r\n", typ, id, at.UTC().Format(time.RFC3339))
	if uri != "" {
		fmt.Fprintf(&hdr, "WARC-Target-URI: %s\r\n", uri)
	}
	for _, f := range extra {
		fmt.Fprintf(&hdr, "%s: %s\r\n", f.name, f.value)
	}
	if typ == "response" || typ == "resource" {
		payload := block
		if i := bytes.Index(block, []byte("\r\n\r\n")); i >= 0 && typ == "response" {
			payload = block[i+4:]
		}
		sum := sha1.Sum(payload)
		fmt.Fprintf(&hdr, "WARC-Payload-Digest: sha1:%s\r\n", base32.StdEncoding.EncodeToString(sum[:]))
	}
	fmt.Fprintf(&hdr, "Content-Type: %s\r\nContent-Length: %d\r\n\r\n", contentType, len(block))
	zw, err := gzip.NewWriterLevel(ww.w, gzip.BestCompression)
	if err != nil {
		return "", err
	}
	zw.Write(hdr.Bytes())
	zw.Write(block)
	zw.Write([]byte("\r\n\r\n"))
	return id, zw.Close()
}

func (ww *warcWriter) warcinfo(at time.Time, text string) error {
	_, err := ww.record("warcinfo", "", at, "application/warc-fields", []byte(text))
	return err
}

// exchange writes a request record and its response record, paired by
// WARC-Concurrent-To.
func (ww *warcWriter) exchange(uri string, at time.Time, request, response []byte) error {
	reqID, err := ww.record("request", uri, at, "application/http;msgtype=request", request)
	if err != nil {
		return err
	}
	_, err = ww.record("response", uri, at, "application/http;msgtype=response", response, field{"WARC-Concurrent-To", reqID})
	return err
}

func (ww *warcWriter) response(uri string, at time.Time, response []byte) error {
	_, err := ww.record("response", uri, at, "application/http;msgtype=response", response)
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
