package warc

import (
	"strings"

	"github.com/repaudit/repaudit/event"
)

// httpHead is the parsed start line and header of an HTTP message stored
// in a WARC block.
type httpHead struct {
	proto  string
	status int // responses
	method string
	target string // requests, as written
	header event.Header
	ok     bool // the start line parsed
	stats  fieldStats
}

// parseStatusLine parses a status line tolerantly (RFC 9112 §4, plus what
// archives hold: "HTTP/2 200", no reason phrase, several spaces).
func parseStatusLine(line string) (proto string, status int, ok bool) {
	if len(line) < 5 || !strings.EqualFold(line[:5], "HTTP/") {
		return "", 0, false
	}
	sp := strings.IndexAny(line, " \t")
	if sp < 0 {
		return line, 0, false
	}
	proto = line[:sp]
	rest := strings.TrimLeft(line[sp:], " \t")
	if len(rest) < 3 || len(rest) > 3 && rest[3] != ' ' && rest[3] != '\t' {
		return proto, 0, false
	}
	for _, c := range []byte(rest[:3]) {
		if c < '0' || c > '9' {
			return proto, 0, false
		}
		status = status*10 + int(c-'0')
	}
	if status < 100 {
		return proto, 0, false
	}
	return proto, status, true
}

// parseRequestLine parses "METHOD target HTTP/x" (RFC 9112 §3)
// tolerantly: a missing version (HTTP/0.9) and spaces inside the target
// are accepted.
func parseRequestLine(line string) (method, target, proto string, ok bool) {
	line = strings.Trim(line, " \t")
	sp := strings.IndexAny(line, " \t")
	if sp <= 0 {
		return "", "", "", false
	}
	method = line[:sp]
	for _, c := range []byte(method) {
		if !isTokenChar(c) {
			return "", "", "", false
		}
	}
	rest := strings.TrimLeft(line[sp:], " \t")
	if i := strings.LastIndexAny(rest, " \t"); i >= 0 {
		if p := strings.TrimLeft(rest[i:], " \t"); len(p) >= 5 && strings.EqualFold(p[:5], "HTTP/") {
			proto = p
			rest = strings.TrimRight(rest[:i], " \t")
		}
	}
	if rest == "" {
		return "", "", "", false
	}
	return method, rest, proto, true
}

// isTokenChar reports whether c may appear in an HTTP token (RFC 9110 §5.6.2).
func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// httpHeadOf reads an HTTP header block split by keepHead into its start
// line and its fields (scratch, returned for reuse; st what parseFields
// ignored). The returned header is a fresh slice of exactly the right
// length, so callers may keep it, or when reuse is not nil, reuse's
// backing array.
func httpHeadOf(line string, scratch []event.Field, st fieldStats, request bool, reuse *event.Header) (httpHead, []event.Field) {
	var h httpHead
	h.stats = st
	if request {
		h.method, h.target, h.proto, h.ok = parseRequestLine(line)
	} else {
		h.proto, h.status, h.ok = parseStatusLine(line)
	}
	switch {
	case len(scratch) == 0:
	case reuse != nil:
		*reuse = append((*reuse)[:0], scratch...)
		h.header = *reuse
	default:
		h.header = make(event.Header, len(scratch))
		copy(h.header, scratch)
	}
	return h, scratch
}

// codings splits a Transfer-Encoding or Content-Encoding field list into
// lower-cased codings, dropping "identity" and empty members.
func codings(h event.Header, name string, dst []string) []string {
	dst = dst[:0]
	for _, f := range h {
		if !strings.EqualFold(f.Name, name) {
			continue
		}
		for v := range strings.SplitSeq(f.Value, ",") {
			v = strings.ToLower(strings.TrimSpace(v))
			if i := strings.IndexByte(v, ';'); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
			if v != "" && v != "identity" {
				dst = append(dst, v)
			}
		}
	}
	return dst
}

// splitURI returns the scheme (lower-cased), the authority and the
// path?query (without fragment) of an absolute URI. A URI without "//"
// (dns:example.com) has no authority.
func splitURI(u string) (scheme, authority, target string) {
	i := strings.IndexByte(u, ':')
	if i <= 0 {
		return "", "", u
	}
	for _, c := range []byte(u[:i]) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.') {
			return "", "", u
		}
	}
	scheme = strings.ToLower(u[:i])
	rest := u[i+1:]
	if !strings.HasPrefix(rest, "//") {
		return scheme, "", rest
	}
	rest = rest[2:]
	j := strings.IndexAny(rest, "/?#")
	if j < 0 {
		return scheme, rest, "/"
	}
	authority, target = rest[:j], rest[j:]
	if k := strings.IndexByte(target, '#'); k >= 0 {
		target = target[:k]
	}
	if target == "" || target[0] == '?' {
		target = "/" + target
	}
	return scheme, authority, target
}

// normHost lower-cases an authority, drops user information and the
// default port of scheme (RFC 9110 §4.2.3).
func normHost(authority, scheme string) string {
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		authority = authority[i+1:]
	}
	authority = strings.TrimSpace(authority)
	switch {
	case scheme == "http" && strings.HasSuffix(authority, ":80"):
		authority = authority[:len(authority)-3]
	case scheme == "https" && strings.HasSuffix(authority, ":443"):
		authority = authority[:len(authority)-4]
	}
	authority = strings.TrimSuffix(authority, ":")
	authority = event.ASCIIHost(authority)
	for i := 0; i < len(authority); i++ {
		if c := authority[i]; 'A' <= c && c <= 'Z' {
			return strings.ToLower(authority)
		}
	}
	return authority
}

// originForm turns an absolute-form request target (sent to proxies) into
// path?query; other forms are returned unchanged.
func originForm(target string) string {
	if len(target) > 0 && target[0] == '/' {
		return target
	}
	if _, auth, t := splitURI(target); auth != "" {
		return t
	}
	return target
}
