package identity

import (
	"net/url"
	"strings"
)

// normURL is the lookup form of a URL, the normalization RFC 3986 §6.2.2
// and §6.2.3 define (which draft-ietf-webbotauth-httpsig-protocol-01 §5.5
// names for comparing key identifiers): scheme and host lower-cased, the
// default or an empty port dropped, percent-encodings upper-cased and
// those of unreserved characters decoded, dot segments removed, an empty
// or "/" path dropped (origin form), the fragment dropped. Strings that
// are not absolute URLs come back trimmed.
func normURL(s string) string {
	n, _ := urlForms(s)
	return n
}

// keyIdentifier is the identifier of a key set fetched from a URL: its
// normalized form with any query discarded
// (draft-ietf-webbotauth-httpsig-protocol-01 §5.5: "Otherwise one key set
// would yield an identifier per spelling"). Strings that are not absolute
// URLs come back trimmed.
func keyIdentifier(s string) string {
	_, id := urlForms(s)
	return id
}

// urlForms returns normURL and keyIdentifier of s from one parse.
func urlForms(s string) (norm, id string) {
	s = strings.TrimSpace(s)
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return s, s
	}
	id = normOrigin(u) + normPath(u.EscapedPath())
	if u.RawQuery != "" || u.ForceQuery {
		return id + "?" + normPercent(encodeRaw(u.RawQuery)), id
	}
	return id, id
}

// normOrigin is scheme "://" host of u, lower-cased, with the scheme's
// default port and an empty port removed (RFC 3986 §6.2.2.1, §6.2.3).
func normOrigin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	def := map[string]string{"https": ":443", "http": ":80"}[scheme]
	host := strings.ToLower(u.Host)
	for { // until stable, so that the form is normal (a fuzzed "x:443:" too)
		h := strings.TrimRight(host, ":")
		if def != "" {
			h = strings.TrimSuffix(h, def)
		}
		if h == host {
			break
		}
		host = h
	}
	return scheme + "://" + host
}

// normPath normalizes an escaped path: percent-encodings as normPercent
// does, then dot segments removed (RFC 3986 §6.2.2.3, the algorithm of
// §5.2.4); "/" is dropped, the origin form.
func normPath(p string) string {
	p = removeDotSegments(normPercent(p))
	if p == "/" {
		return ""
	}
	return p
}

// normPercent upper-cases the hex digits of each percent-encoding
// (RFC 3986 §6.2.2.1) and decodes those of unreserved characters
// (§6.2.2.2). Anything else is kept as written.
func normPercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' || i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			b.WriteByte(c)
			continue
		}
		v := unhex(s[i+1])<<4 | unhex(s[i+2])
		if unreserved(v) {
			b.WriteByte(v)
		} else {
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(s[i+1 : i+3]))
		}
		i += 2
	}
	return b.String()
}

// removeDotSegments is RFC 3986 §5.2.4's remove_dot_segments.
func removeDotSegments(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	var out []string // output segments, each with its leading "/" if any
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			out = dropLast(out)
		case in == "/..":
			in = "/"
			out = dropLast(out)
		case in == "." || in == "..":
			in = ""
		default:
			j := strings.IndexByte(in[1:], '/')
			if j < 0 {
				out, in = append(out, in), ""
			} else {
				out, in = append(out, in[:j+1]), in[j+1:]
			}
		}
	}
	return strings.Join(out, "")
}

func dropLast(s []string) []string {
	if len(s) > 0 {
		return s[:len(s)-1]
	}
	return s
}

// unreserved reports whether c is an unreserved character (RFC 3986 §2.3).
func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// encodeRaw percent-encodes the spaces and non-ASCII bytes a parser left
// raw in a query (RFC 3986 §2.1; RFC 3987 §3.1 maps an IRI's characters
// so), so that the normal form has no white space to trim at its end.
func encodeRaw(q string) string {
	i := strings.IndexFunc(q, func(r rune) bool { return r == ' ' || r >= 0x80 })
	if i < 0 {
		return q
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString(q[:i])
	for j := i; j < len(q); j++ {
		if c := q[j]; c == ' ' || c >= 0x80 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}
