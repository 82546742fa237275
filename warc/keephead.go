package warc

import (
	"strings"
	"unsafe"

	"github.com/repaudit/repaudit/event"
)

// fieldNames are field names that WARC records (WARC 1.1 §5) and HTTP
// messages (RFC 9110, RFC 9111, RFC 9112 and the registries they name)
// commonly carry, as written in the canonical case and in the lower case
// of HTTP/2 and HTTP/3 archives (RFC 9113 §8.2.1). A field whose name is
// one of them, byte for byte, gets this string as its name rather than a
// copy of its own: names are a third of a header block's bytes.
var fieldNames = func() map[string]string {
	m := make(map[string]string)
	for _, n := range []string{
		"WARC-Type", "WARC-Record-ID", "WARC-Date", "WARC-Target-URI",
		"Content-Type", "Content-Length", "WARC-Concurrent-To",
		"WARC-Payload-Digest", "WARC-Block-Digest", "WARC-IP-Address",
		"WARC-Warcinfo-ID", "WARC-Refers-To", "WARC-Refers-To-Target-URI",
		"WARC-Refers-To-Date", "WARC-Profile", "WARC-Truncated",
		"WARC-Identified-Payload-Type", "WARC-Filename", "WARC-Segment-Number",
		"WARC-Segment-Origin-ID", "WARC-Segment-Total-Length",
		"WARC-Protocol", "WARC-Cipher-Suite",
		"Date", "Server", "Host", "User-Agent", "From", "Accept",
		"Accept-Encoding", "Accept-Language", "Accept-Ranges", "Age",
		"Connection", "Keep-Alive", "Cache-Control", "Pragma", "Expires",
		"Last-Modified", "ETag", "If-Modified-Since", "If-None-Match",
		"Location", "Vary", "Via", "Transfer-Encoding", "Content-Encoding",
		"Content-Language", "Set-Cookie", "Cookie", "Referer",
		"X-Robots-Tag", "Robots-Tag", "Link", "Retry-After",
		"Strict-Transport-Security", "X-Content-Type-Options",
		"X-Frame-Options", "Signature", "Signature-Input", "Signature-Agent",
	} {
		m[n] = n
		l := strings.ToLower(n)
		m[l] = l
	}
	return m
}()

// keepHead splits a header block hb, still in the read buffer, into its
// first line (the WARC version, or an HTTP request or status line) and
// its fields, appended to fields, with every string outliving the read
// buffer. Under Options.Reuse the block is copied whole into the slot's
// text, which allocates nothing. Otherwise the first line, the values
// and the names not in fieldNames share one string that r.keep makes of
// them (one allocation, as the whole block was before, a third
// smaller). Continuation lines and the lines parseFields ignores are
// handled as parseFields does.
func (r *Reader) keepHead(hb []byte, fields []event.Field) (string, []event.Field, fieldStats) {
	if len(hb) == 0 {
		return "", fields, fieldStats{}
	}
	if r.reuse {
		first, rest := nextLine(r.keep(hb))
		fields, st := parseFields(rest, fields)
		return first, fields, st
	}
	view := unsafe.String(&hb[0], len(hb)) // valid until the buffer moves on
	first, rest := nextLine(view)
	start := len(fields)
	fields, st := parseFields(rest, fields)
	if st.bad > 0 {
		st.firstBad = strings.Clone(st.firstBad)
	}
	// A name still in view after the first loop is one of the field's
	// own, not fieldNames'; a value joined from continuation lines is a
	// string of its own already, and is copied all the same.
	b := append(r.headText[:0], first...)
	for i := start; i < len(fields); i++ {
		f := &fields[i]
		if n, ok := fieldNames[f.Name]; ok {
			f.Name = n
		} else if within(f.Name, view) {
			b = append(b, f.Name...)
		}
		b = append(b, f.Value...)
	}
	r.headText = b
	s := r.keep(b)
	at := len(first)
	first = s[:at]
	for i := start; i < len(fields); i++ {
		f := &fields[i]
		if within(f.Name, view) {
			f.Name = s[at : at+len(f.Name)]
			at += len(f.Name)
		}
		f.Value = s[at : at+len(f.Value)]
		at += len(f.Value)
	}
	return first, fields, st
}

// within reports whether s is a non-empty substring of buf's memory.
func within(s, buf string) bool {
	if s == "" {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	b := uintptr(unsafe.Pointer(unsafe.StringData(buf)))
	return p >= b && p < b+uintptr(len(buf))
}
