package extract

import (
	"bytes"
	"strings"

	"github.com/repaudit/repaudit/event"
)

// FromResponse extracts every rule from an HTTP response: the Robots-Tag
// field (repext §3.1.1), the legacy X-Robots-Tag field, and the meta
// robots tags of the HTML head (repext §3.1.2) when contentType is an HTML
// type (text/html, application/xhtml+xml) or, for an unknown type ("",
// application/octet-stream), when the body sniffs as HTML. contentType may
// carry parameters. body may be a prefix of the payload.
func FromResponse(h event.Header, body []byte, contentType string, opts Options) *Directives {
	d := &Directives{}
	if v := h.Values(fieldRobotsTag); len(v) > 0 {
		r, dg := ParseRobotsTag(v, opts)
		d.Rules, d.Diagnostics = join(d.Rules, r), join(d.Diagnostics, dg)
	}
	if v := h.Values(fieldXRobotsTag); len(v) > 0 {
		r, dg := ParseXRobotsTag(v, opts)
		d.Rules, d.Diagnostics = join(d.Rules, r), join(d.Diagnostics, dg)
	}
	if IsHTML(contentType, body) {
		r, dg := ParseMeta(body, opts)
		d.Rules, d.Diagnostics = join(d.Rules, r), join(d.Diagnostics, dg)
	}
	return d
}

// join is append(a, b...), but b itself when a is empty and b is not:
// the parsers' results are fresh slices of their own, and most responses
// have rules from one source only, so copying them was allocation for
// nothing. Empty results still give nil, as append did.
func join[T any](a, b []T) []T {
	if len(a) == 0 && len(b) > 0 {
		return b
	}
	return append(a, b...)
}

// IsHTML reports whether a response is HTML: its media type says so, or
// the type is unknown and the body starts like an HTML document (the HTML
// patterns of the WHATWG MIME Sniffing Standard §7.1). A declared type
// other than an unknown one is trusted: text/plain is not sniffed.
func IsHTML(contentType string, body []byte) bool {
	mt := contentType
	if i := strings.IndexByte(mt, ';'); i >= 0 {
		mt = mt[:i]
	}
	mt = strings.ToLower(strings.TrimSpace(mt))
	switch mt {
	case "text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml":
		return true
	case "", "application/octet-stream", "unknown/unknown", "application/unknown", "*/*":
		return sniffHTML(body)
	}
	return false
}

// htmlPatterns are the WHATWG sniffing patterns for HTML, each followed by
// a space or ">" in the body.
var htmlPatterns = [][]byte{
	[]byte("<!doctype html"), []byte("<html"), []byte("<head"), []byte("<script"),
	[]byte("<iframe"), []byte("<h1"), []byte("<div"), []byte("<font"),
	[]byte("<table"), []byte("<a"), []byte("<style"), []byte("<title"),
	[]byte("<b"), []byte("<body"), []byte("<br"), []byte("<p"), []byte("<!--"),
	[]byte("<meta"),
}

func sniffHTML(body []byte) bool {
	if len(body) > 512 {
		body = body[:512]
	}
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	body = bytes.TrimLeft(body, " \t\n\f\r")
	for _, p := range htmlPatterns {
		if len(body) <= len(p) || !bytes.EqualFold(body[:len(p)], p) {
			continue
		}
		if string(p) == "<!--" {
			return true
		}
		if c := body[len(p)]; c == ' ' || c == '>' || c == '\t' || c == '\n' || c == '\r' || c == '/' {
			return true
		}
	}
	return false
}
