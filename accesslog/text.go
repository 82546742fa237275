package accesslog

import (
	"net/netip"
	"strings"

	"github.com/repaudit/repaudit/event"
)

// unescapeLog decodes the backslash escapes web servers write inside
// quoted log fields: Apache's \" \\ \n \r \t \b \v and \xHH, nginx's
// \xHH (nginx escapes '"', '\' and bytes outside 0x20-0x7e that way) and
// nginx escape=json's \" \\ \n \uXXXX. The styles never conflict: each
// writes a literal backslash as an escape (\\ or \x5C), so a backslash
// in the log always starts one. Unknown escapes are
// kept as written. It allocates only when s holds a backslash.
func unescapeLog(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		switch e := s[i+1]; e {
		case '"', '\\':
			b.WriteByte(e)
			i++
		case 'n':
			b.WriteByte('\n')
			i++
		case 'r':
			b.WriteByte('\r')
			i++
		case 't':
			b.WriteByte('\t')
			i++
		case 'b':
			b.WriteByte('\b')
			i++
		case 'v':
			b.WriteByte('\v')
			i++
		case 'x', 'X':
			if i+3 < len(s) && isHex(s[i+2]) && isHex(s[i+3]) {
				b.WriteByte(unhex(s[i+2])<<4 | unhex(s[i+3]))
				i += 3
			} else {
				b.WriteByte(c)
			}
		case 'u':
			// Only nginx escape=json writes \uXXXX (Apache writes a
			// backslash as \\, nginx's default escaping as \x5C).
			r, n := jsonRune(s[i:])
			if n == 0 {
				b.WriteByte(c)
				break
			}
			b.WriteRune(r)
			i += n - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// percentDecode decodes %HH escapes once ('+' is kept: CloudFront writes
// spaces as %20). Invalid escapes are kept as written.
func percentDecode(s string) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// token returns the run of non-space bytes at s[i:] after skipping spaces,
// and the index just after it.
func token(s string, i int) (string, int) {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' {
		j++
	}
	return s[i:j], j
}

// skipSpace returns the index of the first non-space byte at or after i.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// quoted reads the double-quoted field starting at s[i] == '"'. The field
// ends at a '"' that is not escaped by a backslash and is followed by a
// space, a tab or the end of the line, so a stray unescaped quote inside a
// value (old or misconfigured servers) does not end it early. val is the
// raw content; esc reports a backslash in it (see unescapeLog).
func quoted(s string, i int) (val string, esc bool, next int, ok bool) {
	j := i + 1
	for j < len(s) {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			break
		}
		q := j + k
		if b := strings.IndexByte(s[j:q], '\\'); b >= 0 {
			// An escape before the quote: walk byte by byte from it, so
			// that an escaped quote does not end the field.
			esc = true
			for j += b; j < len(s); j++ {
				if s[j] == '\\' {
					j++
					continue
				}
				if s[j] == '"' {
					break
				}
			}
			if j >= len(s) {
				break
			}
			q = j
		}
		if q+1 == len(s) || s[q+1] == ' ' || s[q+1] == '\t' {
			return s[i+1 : q], esc, q + 1, true
		}
		j = q + 1
	}
	return "", false, i, false
}

// field reads a quoted or bare field at s[i:] (after spaces), unescaped,
// and reports whether there was one.
func field(s string, i int) (val string, next int, ok bool) {
	i = skipSpace(s, i)
	if i >= len(s) {
		return "", i, false
	}
	if s[i] == '"' {
		v, esc, j, ok := quoted(s, i)
		if !ok {
			return "", i, false
		}
		if esc {
			v = unescapeLog(v)
		}
		return v, j, true
	}
	v, j := token(s, i)
	return v, j, true
}

// splitFields reads up to len(dst) quoted or bare fields of s into dst, as
// field does, and returns how many it read.
func splitFields(s string, dst []string) int {
	n, i := 0, 0
	for n < len(dst) {
		v, j, ok := field(s, i)
		if !ok {
			break
		}
		dst[n], i = v, j
		n++
	}
	return n
}

// absent reports the values logs use for "no value".
func absent(s string) bool { return s == "" || s == "-" }

// parseIP parses a client address, mapping IPv4-mapped IPv6 to IPv4 so
// that range checks see one form. The zero Addr when s is not an address
// (a host name from HostnameLookups, "-", junk).
func parseIP(s string) netip.Addr {
	if a, ok := parseIPv4(s); ok {
		return a
	}
	if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' {
		s = s[1 : len(s)-1]
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap()
}

// parseIPv4 reads a dotted-quad IPv4 address exactly as netip.ParseAddr
// does (four decimal fields of at most 255, no leading zeros), faster;
// ok is false for anything else, which parseIP then hands to netip.
func parseIPv4(s string) (netip.Addr, bool) {
	var ip [4]byte
	field, val, digits := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			if digits == 1 && val == 0 { // a leading zero
				return netip.Addr{}, false
			}
			val = val*10 + int(c-'0')
			if digits++; val > 255 {
				return netip.Addr{}, false
			}
		case c == '.' && digits > 0 && field < 3:
			ip[field] = byte(val)
			field, val, digits = field+1, 0, 0
		default:
			return netip.Addr{}, false
		}
	}
	if field != 3 || digits == 0 {
		return netip.Addr{}, false
	}
	ip[3] = byte(val)
	return netip.AddrFrom4(ip), true
}

// parseIPPort parses "ip:port", "[ipv6]:port", a bare IPv6 address with a
// trailing ":port" (as some load balancers write), or a bare address.
func parseIPPort(s string) netip.Addr {
	if s == "" || s == "-" {
		return netip.Addr{}
	}
	if s[0] == '[' {
		if j := strings.IndexByte(s, ']'); j > 0 {
			return parseIP(s[1:j])
		}
		return netip.Addr{}
	}
	j := strings.LastIndexByte(s, ':')
	if j < 0 {
		return parseIP(s)
	}
	if strings.IndexByte(s[:j], ':') < 0 {
		return parseIP(s[:j]) // IPv4:port
	}
	// Several colons: an IPv6 address, perhaps followed by ":port".
	if a := parseIP(s); a.IsValid() {
		return a
	}
	return parseIP(s[:j])
}

// normHost lower-cases an authority and removes a default port. A port of
// 443 or 80 with an unknown scheme tells the scheme (https or http). It
// returns the host and the scheme, possibly updated.
func normHost(host, scheme string) (string, string) {
	if absent(host) {
		return "", scheme
	}
	host = strings.ToLower(event.ASCIIHost(host))
	colon := strings.LastIndexByte(host, ':')
	if colon < 0 || strings.IndexByte(host[colon:], ']') >= 0 {
		return host, scheme
	}
	if host[0] != '[' && strings.IndexByte(host[:colon], ':') >= 0 {
		return host, scheme // bare IPv6 address without brackets
	}
	switch port := host[colon+1:]; {
	case port == "":
		return host[:colon], scheme
	case port == "80" && (scheme == "" || scheme == "http"):
		return host[:colon], "http"
	case port == "443" && (scheme == "" || scheme == "https"):
		return host[:colon], "https"
	}
	return host, scheme
}

// normScheme maps a logged scheme to "http", "https" or "" (unknown).
func normScheme(s string) string {
	switch {
	case strings.EqualFold(s, "https"), strings.EqualFold(s, "wss"):
		return "https"
	case strings.EqualFold(s, "http"), strings.EqualFold(s, "ws"):
		return "http"
	}
	return ""
}

// isToken reports whether s is a non-empty HTTP token (RFC 9110 §5.6.2),
// the syntax of a method.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			continue
		}
		switch c {
		case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
			continue
		}
		return false
	}
	return true
}

// setRequest fills Method and Target (and Scheme and Host for an
// absolute-form target, when the line did not name a host) from a request
// line "METHOD target HTTP/x.y". A malformed request line is kept with
// what can be read, and reported as a warning.
func (r *Reader) setRequest(f *event.Fetch, req, line string) {
	if absent(req) {
		r.warn(CodeBadRequest, "no request line", line)
		return
	}
	req = strings.Trim(req, " ")
	sp := strings.IndexByte(req, ' ')
	if sp < 0 || !isToken(req[:sp]) || req[:sp] == "-" {
		if sp >= 0 && req[:sp] == "-" {
			req = strings.TrimSpace(req[sp+1:])
			req = strings.TrimSuffix(req, " -")
		}
		f.Target = req
		r.warn(CodeBadRequest, "request line has no method", line)
		return
	}
	f.Method = req[:sp]
	rest := strings.TrimLeft(req[sp+1:], " ")
	if j := strings.LastIndexByte(rest, ' '); j >= 0 && strings.HasPrefix(rest[j+1:], "HTTP/") {
		rest = rest[:j]
	} else {
		r.warn(CodeBadRequest, "request line has no protocol", line)
	}
	r.setTarget(f, rest)
}

// setTarget stores a request-target. An absolute-form target
// ("http://host/path") is split: its scheme and host fill Scheme and Host
// unless the line gave them, and Target keeps the path and query ("/" when
// the path is empty).
func (r *Reader) setTarget(f *event.Fetch, t string) {
	scheme := ""
	switch {
	case len(t) > 8 && strings.EqualFold(t[:8], "https://"):
		scheme, t = "https", t[8:]
	case len(t) > 7 && strings.EqualFold(t[:7], "http://"):
		scheme, t = "http", t[7:]
	default:
		f.Target = t
		return
	}
	end := strings.IndexAny(t, "/?#")
	auth, path := t, "/"
	if end >= 0 {
		auth, path = t[:end], t[end:]
		if path[0] != '/' {
			path = "/" + path
		}
	}
	if f.Host == "" {
		f.Host, f.Scheme = normHost(auth, scheme)
	} else if f.Scheme == "" {
		f.Scheme = scheme
	}
	f.Target = path
}

// addHeader appends a header field unless its value is absent.
func addHeader(f *event.Fetch, name, value string) {
	if absent(value) {
		return
	}
	f.Header = append(f.Header, event.Field{Name: name, Value: value})
}

// finish ends a line parser that has filled f: it reads the status and
// the size (reporting values it cannot use) and keeps the line.
func (r *Reader) finish(f *event.Fetch, status, size, line string) bool {
	f.Status = r.parseStatus(status, line)
	f.Bytes = r.parseBytes(size, line)
	return true
}

// finishPlaceholders is finish for the JSON formats that write "-" (or
// nothing) for a missing method, user agent or referer, as nginx's
// variables do: those become "". (Caddy and Cloudflare write values as
// received, so a "-" there is what the client sent.)
func (r *Reader) finishPlaceholders(f *event.Fetch, status, size, line string) bool {
	blankAbsent(&f.Method)
	blankAbsent(&f.UserAgent)
	blankAbsent(&f.Referer)
	return r.finish(f, status, size, line)
}

// blankAbsent empties *s when it holds an absent value ("" or "-").
func blankAbsent(s *string) {
	if absent(*s) {
		*s = ""
	}
}

// parseStatus reads a status code; "-" is unknown (0) without complaint.
func (r *Reader) parseStatus(s, line string) int {
	if absent(s) {
		return 0
	}
	n, ok := atoi(s, 999)
	if !ok {
		r.warn(CodeBadField, "status is not a number", line)
		return 0
	}
	return int(n)
}

// parseBytes reads a byte count; "-" is unknown (-1) without complaint.
func (r *Reader) parseBytes(s, line string) int64 {
	if absent(s) {
		return -1
	}
	n, ok := atoi(s, 1<<62)
	if !ok {
		r.warn(CodeBadField, "byte count is not a number", line)
		return -1
	}
	return n
}

// atoi parses a non-negative decimal integer no larger than limit.
func atoi(s string, limit int64) (int64, bool) {
	if s == "" || len(s) > 19 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, n <= limit
}

// isSignatureField reports whether a header name is one whose presence in a
// log format makes an absent signature meaningful: Signature or
// Signature-Input (RFC 9421 §4). Underscores count as hyphens.
func isSignatureField(name string) bool {
	return strings.EqualFold(name, "signature") ||
		strings.EqualFold(name, "signature-input") ||
		strings.EqualFold(name, "signature_input")
}
