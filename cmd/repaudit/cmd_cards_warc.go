package main

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// warcWriter writes WARC/1.1 records (ISO 28500:2017 / WARC 1.1 §4), each
// as its own gzip member (WARC 1.1 Annex D.2), so that any record can be
// read from its offset alone. It is the small subset "cards fetch" needs:
// warcinfo, request, response and resource records with SHA-256 digests.
type warcWriter struct {
	w          io.Writer
	warcinfoID string // WARC-Record-ID of the leading warcinfo record
	records    int
}

// warcField is one WARC header line; order is kept as given.
type warcField struct{ name, value string }

// newRecordID returns a fresh "<urn:uuid:...>" (RFC 4122 version 4).
func newRecordID() string {
	var u [16]byte
	_, _ = rand.Read(u[:]) // crypto/rand.Read never fails (Go 1.24+)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// warcDigest is the "sha256:" + RFC 4648 base32 form used in
// WARC-Block-Digest and WARC-Payload-Digest (WARC 1.1 §5.8, §5.9).
func warcDigest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + base32.StdEncoding.EncodeToString(sum[:])
}

// warcDate renders a WARC-Date (WARC 1.1 §5.4): UTC, second precision,
// the form every reader accepts.
func warcDate(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// writeRecord writes one record: "WARC/1.1" CRLF, the header fields, the
// Content-Length, CRLF, the block, CRLF CRLF (WARC 1.1 §4), as one gzip
// member.
func (ww *warcWriter) writeRecord(fields []warcField, block []byte) error {
	var h bytes.Buffer
	h.WriteString("WARC/1.1\r\n")
	for _, f := range fields {
		// Header values never carry CR or LF: they come from URLs we
		// parsed and from our own formatting.
		h.WriteString(f.name + ": " + strings.NewReplacer("\r", " ", "\n", " ").Replace(f.value) + "\r\n")
	}
	h.WriteString("Content-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n")
	zw := gzip.NewWriter(ww.w)
	if _, err := zw.Write(h.Bytes()); err != nil {
		return fmt.Errorf("write warc record: %w", err)
	}
	if _, err := zw.Write(block); err != nil {
		return fmt.Errorf("write warc record: %w", err)
	}
	if _, err := zw.Write([]byte("\r\n\r\n")); err != nil {
		return fmt.Errorf("write warc record: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("write warc record: %w", err)
	}
	ww.records++
	return nil
}

// writeWarcinfo writes the leading warcinfo record (WARC 1.1 §6.2) whose
// block is application/warc-fields.
func (ww *warcWriter) writeWarcinfo(at time.Time, filename string, info []warcField) error {
	ww.warcinfoID = newRecordID()
	var b bytes.Buffer
	for _, f := range info {
		b.WriteString(f.name + ": " + f.value + "\r\n")
	}
	return ww.writeRecord([]warcField{
		{"WARC-Type", "warcinfo"},
		{"WARC-Record-ID", ww.warcinfoID},
		{"WARC-Date", warcDate(at)},
		{"WARC-Filename", filename},
		{"Content-Type", "application/warc-fields"},
		{"WARC-Block-Digest", warcDigest(b.Bytes())},
	}, b.Bytes())
}

// exchange is one HTTP request and its response as recorded.
type exchange struct {
	url        string
	at         time.Time // when the response was received
	ip         string    // server address, "" when unknown
	request    []byte    // request line and header as sent
	respHead   []byte    // status line and header as received
	body       []byte    // payload (possibly cut at the size limit)
	truncation string    // WARC-Truncated reason ("length", "time", "disconnect"), "" when whole
}

// writeExchange writes a request record and a response record that point
// at each other with WARC-Concurrent-To (WARC 1.1 §5.7). Both carry the
// time the response was received.
func (ww *warcWriter) writeExchange(x *exchange) error {
	reqID, respID := newRecordID(), newRecordID()
	date := warcDate(x.at)
	reqFields := []warcField{
		{"WARC-Type", "request"},
		{"WARC-Record-ID", reqID},
		{"WARC-Date", date},
		{"WARC-Target-URI", x.url},
		{"WARC-Concurrent-To", respID},
		{"WARC-Warcinfo-ID", ww.warcinfoID},
	}
	if x.ip != "" {
		reqFields = append(reqFields, warcField{"WARC-IP-Address", x.ip})
	}
	reqFields = append(reqFields,
		warcField{"Content-Type", "application/http;msgtype=request"},
		warcField{"WARC-Block-Digest", warcDigest(x.request)},
	)
	if err := ww.writeRecord(reqFields, x.request); err != nil {
		return err
	}
	block := make([]byte, 0, len(x.respHead)+len(x.body))
	block = append(append(block, x.respHead...), x.body...)
	respFields := []warcField{
		{"WARC-Type", "response"},
		{"WARC-Record-ID", respID},
		{"WARC-Date", date},
		{"WARC-Target-URI", x.url},
		{"WARC-Concurrent-To", reqID},
		{"WARC-Warcinfo-ID", ww.warcinfoID},
	}
	if x.ip != "" {
		respFields = append(respFields, warcField{"WARC-IP-Address", x.ip})
	}
	respFields = append(respFields,
		warcField{"Content-Type", "application/http;msgtype=response"},
		warcField{"WARC-Block-Digest", warcDigest(block)},
		warcField{"WARC-Payload-Digest", warcDigest(x.body)},
	)
	if x.truncation != "" {
		respFields = append(respFields, warcField{"WARC-Truncated", x.truncation})
	}
	return ww.writeRecord(respFields, block)
}

// writeResource writes a resource record (WARC 1.1 §6.5): a document that
// was not fetched over HTTP, here an inline data: registry entry.
func (ww *warcWriter) writeResource(uri, contentType string, at time.Time, body []byte) error {
	return ww.writeRecord([]warcField{
		{"WARC-Type", "resource"},
		{"WARC-Record-ID", newRecordID()},
		{"WARC-Date", warcDate(at)},
		{"WARC-Target-URI", uri},
		{"WARC-Warcinfo-ID", ww.warcinfoID},
		{"Content-Type", contentType},
		{"WARC-Block-Digest", warcDigest(body)},
		{"WARC-Payload-Digest", warcDigest(body)},
	}, body)
}
