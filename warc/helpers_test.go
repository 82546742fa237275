package warc

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// wrec describes a WARC record for the test helpers.
type wrec struct {
	version string // default "WARC/1.1"
	typ     string
	id      string
	date    string // default 2024-05-01T12:00:00Z
	uri     string
	ctype   string // WARC Content-Type
	extra   []string
	block   string
	// cl overrides Content-Length: "" means computed, "-" means omitted.
	cl  string
	eol string // line end, default "\r\n"
}

func (w wrec) bytes() []byte {
	eol := w.eol
	if eol == "" {
		eol = "\r\n"
	}
	var b bytes.Buffer
	v := w.version
	if v == "" {
		v = "WARC/1.1"
	}
	b.WriteString(v + eol)
	if w.typ != "" {
		b.WriteString("WARC-Type: " + w.typ + eol)
	}
	if w.id != "" {
		b.WriteString("WARC-Record-ID: " + w.id + eol)
	}
	date := w.date
	if date == "" {
		date = "2024-05-01T12:00:00Z"
	}
	if date != "-" {
		b.WriteString("WARC-Date: " + date + eol)
	}
	if w.uri != "" {
		b.WriteString("WARC-Target-URI: " + w.uri + eol)
	}
	if w.ctype != "" {
		b.WriteString("Content-Type: " + w.ctype + eol)
	}
	for _, e := range w.extra {
		b.WriteString(e + eol)
	}
	switch w.cl {
	case "":
		b.WriteString("Content-Length: " + strconv.Itoa(len(w.block)) + eol)
	case "-":
	default:
		b.WriteString("Content-Length: " + w.cl + eol)
	}
	b.WriteString(eol)
	b.WriteString(w.block)
	b.WriteString(eol + eol)
	return b.Bytes()
}

// httpResponse builds an HTTP response message with CRLF line ends.
func httpResponse(status string, body string, fields ...string) string {
	var b strings.Builder
	b.WriteString(status + "\r\n")
	for _, f := range fields {
		b.WriteString(f + "\r\n")
	}
	b.WriteString("\r\n")
	b.WriteString(body)
	return b.String()
}

func respRec(n int, uri, block string, extra ...string) wrec {
	return wrec{typ: "response", id: fmt.Sprintf("<urn:uuid:resp-%d>", n), uri: uri,
		ctype: "application/http; msgtype=response", block: block, extra: extra}
}

func reqRec(n int, uri, block string, extra ...string) wrec {
	return wrec{typ: "request", id: fmt.Sprintf("<urn:uuid:req-%d>", n), uri: uri,
		ctype: "application/http; msgtype=request", block: block, extra: extra}
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// gzipMember compresses b as one gzip member.
func gzipMember(b []byte) []byte {
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// gzipEach compresses each part as its own member and concatenates them.
func gzipEach(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, gzipMember(p)...)
	}
	return out
}

// zstdFrame compresses b as one zstd frame.
func zstdFrame(b []byte, opts ...zstd.EOption) []byte {
	enc, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		panic(err)
	}
	defer enc.Close()
	return enc.EncodeAll(b, nil)
}

// readAll reads every record and problem; it fails the test on a
// non-EOF error unless wantErr.
func readAll(t *testing.T, data []byte, opts Options) (*Reader, []*Record, []event.Problem) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), "t.warc", opts)
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	recs, probs, err := drain(r)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return r, recs, probs
}

// drain reads all records, copying bodies (they are only valid until the
// next call).
func drain(r *Reader) ([]*Record, []event.Problem, error) {
	var recs []*Record
	var probs []event.Problem
	for {
		rec, err := r.Next()
		probs = append(probs, r.Problems()...)
		if err == io.EOF {
			return recs, probs, nil
		}
		if err != nil {
			return recs, probs, err
		}
		if rec.Capture != nil && rec.Capture.Body != nil && !rec.Capture.Resolved {
			rec.Capture.Body = bytes.Clone(rec.Capture.Body)
		}
		recs = append(recs, rec)
	}
}

func recordIDs(recs []*Record) []string {
	var ids []string
	for _, r := range recs {
		switch {
		case r.Capture != nil:
			ids = append(ids, r.Capture.RecordID)
		case r.Fetch != nil:
			ids = append(ids, r.Fetch.RecordID)
		default:
			ids = append(ids, r.WARCHeader.Get("WARC-Record-ID"))
		}
	}
	return ids
}

func codes(ps []event.Problem) []problem.Code {
	var cs []problem.Code
	for _, p := range ps {
		cs = append(cs, p.Code)
	}
	return cs
}

func hasCode(ps []event.Problem, code problem.Code) bool {
	for _, p := range ps {
		if p.Code == code {
			return true
		}
	}
	return false
}
