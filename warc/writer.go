package warc

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/repaudit/repaudit/event"
)

// WriterOptions configures a Writer. The zero value is ready to use.
type WriterOptions struct {
	// Level is the gzip compression level of each member
	// (gzip.BestSpeed .. gzip.BestCompression); 0 means the default level.
	Level int
	// NewID returns the WARC-Record-ID of each record the Writer names
	// itself (warcinfo, request, response, resource); nil means
	// NewRecordID (random UUIDs). Reproducible output passes a
	// deterministic function.
	NewID func() string
}

// Writer writes WARC/1.1 records (WARC 1.1 §4), each as its own gzip
// member (WARC 1.1 Annex D.2), so that any record can be read from its
// offset alone. WriteRecord writes a record with the header fields the
// caller gives, in order; WriteWarcinfo, WriteExchange and WriteResource
// build the usual records on top of it. Errors are sticky: after a failed
// write every later call returns the same error. Writer buffers nothing
// between records: each record is complete in the underlying writer when
// its call returns.
type Writer struct {
	w          io.Writer
	opts       WriterOptions
	zw         *gzip.Writer
	hdr        bytes.Buffer
	warcinfoID string
	records    int
	err        error
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer, opts WriterOptions) *Writer {
	if opts.NewID == nil {
		opts.NewID = NewRecordID
	}
	return &Writer{w: w, opts: opts}
}

// Records returns the number of records written.
func (w *Writer) Records() int { return w.records }

// WarcinfoID returns the WARC-Record-ID of the last warcinfo record
// written by WriteWarcinfo ("" before one is written).
func (w *Writer) WarcinfoID() string { return w.warcinfoID }

// ErrContentLength is returned by WriteRecord when the caller passes a
// Content-Length field: the Writer computes it from the block.
var ErrContentLength = errors.New("warc: Content-Length is set by the writer")

// WriteRecord writes one record: "WARC/1.1", the fields in the order
// given, "Content-Length" (the block's length) last, an empty line, the
// block and two CRLF (WARC 1.1 §4), as one gzip member. A CR or LF in a
// field name or value is replaced by a space, so a value taken from input
// cannot start a field of its own.
func (w *Writer) WriteRecord(fields event.Header, block []byte) error {
	if w.err != nil {
		return w.err
	}
	h := &w.hdr
	h.Reset()
	h.WriteString("WARC/1.1\r\n")
	for _, f := range fields {
		if strings.EqualFold(f.Name, "Content-Length") {
			return ErrContentLength
		}
		h.WriteString(oneLine(f.Name))
		h.WriteString(": ")
		h.WriteString(oneLine(f.Value))
		h.WriteString("\r\n")
	}
	h.WriteString("Content-Length: ")
	h.WriteString(strconv.Itoa(len(block)))
	h.WriteString("\r\n\r\n")
	if w.zw == nil {
		zw, err := gzip.NewWriterLevel(w.w, w.level())
		if err != nil {
			w.err = fmt.Errorf("warc: write record: %w", err)
			return w.err
		}
		w.zw = zw
	} else {
		w.zw.Reset(w.w)
	}
	for _, b := range [][]byte{h.Bytes(), block, []byte("\r\n\r\n")} {
		if _, err := w.zw.Write(b); err != nil {
			w.err = fmt.Errorf("warc: write record: %w", err)
			return w.err
		}
	}
	if err := w.zw.Close(); err != nil {
		w.err = fmt.Errorf("warc: write record: %w", err)
		return w.err
	}
	w.records++
	return nil
}

func (w *Writer) level() int {
	if w.opts.Level == 0 {
		return gzip.DefaultCompression
	}
	return w.opts.Level
}

var lineBreaks = strings.NewReplacer("\r", " ", "\n", " ")

func oneLine(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		return lineBreaks.Replace(s)
	}
	return s
}

// WriteWarcinfo writes a warcinfo record (WARC 1.1 §6.2) whose block is
// info as application/warc-fields, and remembers its ID: records written
// after it by WriteExchange and WriteResource name it in
// WARC-Warcinfo-ID. filename is the WARC-Filename ("" for none).
func (w *Writer) WriteWarcinfo(at time.Time, filename string, info event.Header) (id string, err error) {
	var b bytes.Buffer
	for _, f := range info {
		b.WriteString(oneLine(f.Name) + ": " + oneLine(f.Value) + "\r\n")
	}
	id = w.opts.NewID()
	fields := event.Header{
		{Name: "WARC-Type", Value: "warcinfo"},
		{Name: "WARC-Record-ID", Value: id},
		{Name: "WARC-Date", Value: FormatDate(at)},
	}
	if filename != "" {
		fields = append(fields, event.Field{Name: "WARC-Filename", Value: filename})
	}
	fields = append(fields,
		event.Field{Name: "Content-Type", Value: "application/warc-fields"},
		event.Field{Name: "WARC-Block-Digest", Value: DigestSHA256(b.Bytes())},
	)
	if err := w.WriteRecord(fields, b.Bytes()); err != nil {
		return "", err
	}
	w.warcinfoID = id
	return id, nil
}

// Exchange is one HTTP exchange as recorded: the request as sent (nil when
// it is not known, then only a response record is written) and the
// response's status line and header as received, followed by its payload.
type Exchange struct {
	URL          string    // WARC-Target-URI
	Time         time.Time // WARC-Date of both records: when the response was received
	IP           string    // WARC-IP-Address of the server; "" when unknown
	Request      []byte    // request line and header as sent; nil for none
	ResponseHead []byte    // status line, header and the empty line, as received
	Body         []byte    // payload, possibly cut (see Truncated)
	// Truncated is the WARC-Truncated reason (WARC 1.1 §5.13: "length",
	// "time", "disconnect", "unspecified"); "" when the payload is whole.
	Truncated string
	// Extra fields go on the response record after the standard ones
	// (for example WARC-Source-URI).
	Extra event.Header
}

// WriteExchange writes a request record (when x.Request is set) and a
// response record that point at each other with WARC-Concurrent-To
// (WARC 1.1 §5.7), with SHA-256 block and payload digests (§5.8, §5.9).
func (w *Writer) WriteExchange(x *Exchange) error {
	date := FormatDate(x.Time)
	respID := w.opts.NewID()
	var reqID string
	if x.Request != nil {
		reqID = w.opts.NewID()
		fields := event.Header{
			{Name: "WARC-Type", Value: "request"},
			{Name: "WARC-Record-ID", Value: reqID},
			{Name: "WARC-Date", Value: date},
			{Name: "WARC-Target-URI", Value: x.URL},
			{Name: "WARC-Concurrent-To", Value: respID},
		}
		fields = w.appendCommon(fields, x.IP)
		fields = append(fields,
			event.Field{Name: "Content-Type", Value: "application/http;msgtype=request"},
			event.Field{Name: "WARC-Block-Digest", Value: DigestSHA256(x.Request)},
		)
		if err := w.WriteRecord(fields, x.Request); err != nil {
			return err
		}
	}
	block := make([]byte, 0, len(x.ResponseHead)+len(x.Body))
	block = append(append(block, x.ResponseHead...), x.Body...)
	fields := event.Header{
		{Name: "WARC-Type", Value: "response"},
		{Name: "WARC-Record-ID", Value: respID},
		{Name: "WARC-Date", Value: date},
		{Name: "WARC-Target-URI", Value: x.URL},
	}
	if reqID != "" {
		fields = append(fields, event.Field{Name: "WARC-Concurrent-To", Value: reqID})
	}
	fields = w.appendCommon(fields, x.IP)
	fields = append(fields,
		event.Field{Name: "Content-Type", Value: "application/http;msgtype=response"},
		event.Field{Name: "WARC-Block-Digest", Value: DigestSHA256(block)},
		event.Field{Name: "WARC-Payload-Digest", Value: DigestSHA256(x.Body)},
	)
	if x.Truncated != "" {
		fields = append(fields, event.Field{Name: "WARC-Truncated", Value: x.Truncated})
	}
	fields = append(fields, x.Extra...)
	return w.WriteRecord(fields, block)
}

func (w *Writer) appendCommon(fields event.Header, ip string) event.Header {
	if w.warcinfoID != "" {
		fields = append(fields, event.Field{Name: "WARC-Warcinfo-ID", Value: w.warcinfoID})
	}
	if ip != "" {
		fields = append(fields, event.Field{Name: "WARC-IP-Address", Value: ip})
	}
	return fields
}

// WriteResource writes a resource record (WARC 1.1 §6.5): a document that
// was not fetched over HTTP, such as an inline data: registry entry.
func (w *Writer) WriteResource(uri, contentType string, at time.Time, body []byte) error {
	fields := event.Header{
		{Name: "WARC-Type", Value: "resource"},
		{Name: "WARC-Record-ID", Value: w.opts.NewID()},
		{Name: "WARC-Date", Value: FormatDate(at)},
		{Name: "WARC-Target-URI", Value: uri},
	}
	fields = w.appendCommon(fields, "")
	fields = append(fields,
		event.Field{Name: "Content-Type", Value: contentType},
		event.Field{Name: "WARC-Block-Digest", Value: DigestSHA256(body)},
		event.Field{Name: "WARC-Payload-Digest", Value: DigestSHA256(body)},
	)
	return w.WriteRecord(fields, body)
}

// NewRecordID returns a fresh "<urn:uuid:...>" record ID (RFC 9562
// version 4, random).
func NewRecordID() string {
	var u [16]byte
	_, _ = rand.Read(u[:]) // crypto/rand.Read never fails (Go 1.24+)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return FormatRecordID(u)
}

// FormatRecordID renders 16 bytes as "<urn:uuid:8-4-4-4-12>" (WARC 1.1
// §5.2 recommends a urn:uuid).
func FormatRecordID(u [16]byte) string {
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// FormatDate renders a WARC-Date (WARC 1.1 §5.4): UTC, second precision,
// the form every reader accepts.
func FormatDate(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// DigestSHA256 returns the "sha256:" + RFC 4648 base32 form of b's
// SHA-256 used in WARC-Block-Digest and WARC-Payload-Digest (WARC 1.1
// §5.8, §5.9).
func DigestSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + base32.StdEncoding.EncodeToString(sum[:])
}

// DigestSHA1 returns the "sha1:" + base32 form of b's SHA-1, the digest
// most existing archives (and CDX indexes) carry.
func DigestSHA1(b []byte) string {
	sum := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}
