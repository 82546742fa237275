package robots

import "bytes"

// This file holds the one canonical form that rule patterns and URLs are
// both reduced to before they are compared octet by octet
// (RFC 9309 §2.2.2, Table 4; §2.2.3, Table 6). The rules, in docs/semantics.md
// terms:
//
//   - Unreserved characters (RFC 3986 §2.3: ALPHA DIGIT - . _ ~) are
//     written raw; their percent-encoded forms are decoded.
//   - Every other percent-encoded octet stays encoded, with upper-case hex
//     ("%2f" and "%2F" are the same octets afterwards).
//   - Octets that may not appear raw in a URI (controls, space, non-ASCII,
//     " < > \ ^ ` { | } [ ] DEL) are percent-encoded, so a raw UTF-8 "ツ" and
//     "%E3%83%84" compare equal.
//   - '*' and '$' in a URL are always written "%2A" and "%24". In a rule a
//     raw '*' is the wildcard and a final raw '$' the end anchor; written
//     "%2A"/"%24" they are literal and then match a URL's '*'/'$'
//     (RFC 9309 §2.2.3, Table 6).
//   - Other reserved characters (RFC 3986 §2.2) keep their meaning: raw
//     stays raw, encoded stays encoded ("/" and "%2F" differ), except that
//     inside the query component ':', '/', '?' and '@' are data, not
//     delimiters (RFC 3986 §3.4), and are written encoded, as Table 4 of
//     RFC 9309 shows ("?baz=http://foo.bar" is matched as
//     "?baz=http%3A%2F%2Ffoo.bar").
//   - A '%' not followed by two hex digits is a literal percent: "%25".
//
// The canonical form of a rule therefore contains raw '*' only as the
// wildcard and raw '$' only as the final anchor.

const upperHex = "0123456789ABCDEF"

// byteClass values.
const (
	clUnreserved = iota // written raw, decoded when percent-encoded
	clReserved          // keeps its meaning: raw stays raw
	clEncode            // always written percent-encoded
	clQueryData         // reserved in the path, encoded in the query
)

var byteClass = func() (t [256]uint8) {
	for i := range t {
		t[i] = clEncode
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = clUnreserved
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = clUnreserved
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clUnreserved
	}
	for _, c := range "-._~" {
		t[c] = clUnreserved
	}
	// Reserved characters that keep a delimiter role everywhere.
	for _, c := range "!&'()+,;=" {
		t[c] = clReserved
	}
	// Delimiters in the path that are plain data in the query.
	for _, c := range ":/?@" {
		t[c] = clQueryData
	}
	// '*', '$', '#', '[', ']' and '%' stay clEncode ('%' is handled apart).
	return t
}()

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// appendCanon appends the canonical form of s to dst. When pattern is set,
// raw '*' is kept as the wildcard and a raw '$' that ends s is kept as the
// anchor. When fold is set, letters outside percent escapes are lower-cased
// (ACAP matching is case-insensitive, ACAP §2.8). query tells whether s
// starts inside the query component; it returns whether s ended inside it.
func appendCanon(dst []byte, s string, pattern, fold, query bool) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if i+2 < len(s) {
				hi, ok1 := unhex(s[i+1])
				lo, ok2 := unhex(s[i+2])
				if ok1 && ok2 {
					v := hi<<4 | lo
					i += 2
					if byteClass[v] == clUnreserved {
						if fold {
							v = lowerASCII(v)
						}
						dst = append(dst, v)
					} else {
						dst = append(dst, '%', upperHex[v>>4], upperHex[v&15])
					}
					continue
				}
			}
			dst = append(dst, '%', '2', '5')
			continue
		}
		if pattern {
			if c == '*' {
				dst = append(dst, '*')
				continue
			}
			if c == '$' && i == len(s)-1 {
				dst = append(dst, '$')
				continue
			}
		}
		switch byteClass[c] {
		case clUnreserved:
			if fold {
				c = lowerASCII(c)
			}
			dst = append(dst, c)
		case clReserved:
			dst = append(dst, c)
		case clQueryData:
			if query {
				dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
			} else {
				if c == '?' {
					query = true
				}
				dst = append(dst, c)
			}
		default:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return dst, query
}

// targetPath reduces a target to its path and query: an absolute URL
// ("https://host/a?b#c") or a network-path reference ("//host/a") loses its
// scheme and authority, every target loses its fragment, and an empty path
// becomes "/". A target that does not start with '/' is taken as relative
// to the root ("a/b" is "/a/b"); the second result tells whether a '/' has
// to be prepended.
func targetPath(t string) (s string, slash bool) {
	if i := indexByte(t, '#'); i >= 0 {
		t = t[:i]
	}
	if n := schemeLen(t); n > 0 && len(t) >= n+3 && t[n] == ':' && t[n+1] == '/' && t[n+2] == '/' {
		t = stripAuthority(t[n+3:])
	} else if len(t) >= 2 && t[0] == '/' && t[1] == '/' {
		t = stripAuthority(t[2:])
	}
	if t == "" || t[0] != '/' {
		return t, true
	}
	return t, false
}

func stripAuthority(t string) string {
	for i := 0; i < len(t); i++ {
		if t[i] == '/' || t[i] == '?' {
			return t[i:]
		}
	}
	return ""
}

// schemeLen returns the length of a leading RFC 3986 scheme, 0 if none.
func schemeLen(t string) int {
	if t == "" || !isAlpha(t[0]) {
		return 0
	}
	for i := 1; i < len(t); i++ {
		c := t[i]
		if isAlpha(c) || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.' {
			continue
		}
		if c == ':' {
			return i
		}
		return 0
	}
	return 0
}

func isAlpha(c byte) bool { c |= 0x20; return 'a' <= c && c <= 'z' }

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// canonBound returns an upper bound of the canonical length of target: a
// leading '/' plus three octets for every byte that may be percent-encoded.
func canonBound(target string) int {
	n := len(target) + 1
	query := false
	for i := 0; i < len(target); i++ {
		switch byteClass[target[i]] {
		case clUnreserved, clReserved:
		case clQueryData:
			if query {
				n += 2
			}
			query = query || target[i] == '?'
		default:
			n += 2
		}
	}
	return n
}

// appendTarget appends the canonical form of a target URL or path.
func appendTarget(dst []byte, target string, fold bool) []byte {
	p, slash := targetPath(target)
	if slash {
		dst = append(dst, '/')
	}
	dst, _ = appendCanon(dst, p, false, fold, false)
	return dst
}

// pattern is a compiled rule pattern in canonical form.
type pattern struct {
	first    []byte   // literal part before the first '*'
	rest     [][]byte // literal parts after each '*'; nil when there is no '*'
	anchored bool     // ended with '$'
	length   int      // octets of the normalized canonical pattern
}

// String returns the normalized canonical pattern: '*' is the wildcard, a
// final '$' the anchor.
func (p *pattern) String() string {
	var b []byte
	b = append(b, p.first...)
	for _, r := range p.rest {
		b = append(append(b, '*'), r...)
	}
	if p.anchored {
		b = append(b, '$')
	}
	return string(b)
}

// compilePattern normalizes a rule pattern as written: it is percent
// normalized like a URL, runs of '*' collapse to one, and a trailing '*'
// (or "*$") is dropped since it adds nothing to a prefix match. The length
// used for "most specific" (RFC 9309 §2.2.2) is that of the result, so
// equivalent rules have equal lengths ("/a" and "/%61*" both count 2).
func compilePattern(p string, fold bool) pattern {
	buf, _ := appendCanon(make([]byte, 0, len(p)+8), p, true, fold, false)
	// collapse "**"
	w := 0
	for i := 0; i < len(buf); i++ {
		if buf[i] == '*' && w > 0 && buf[w-1] == '*' {
			continue
		}
		buf[w] = buf[i]
		w++
	}
	buf = buf[:w]
	anchored := false
	if len(buf) > 0 && buf[len(buf)-1] == '$' {
		anchored = true
		buf = buf[:len(buf)-1]
	}
	if len(buf) > 0 && buf[len(buf)-1] == '*' {
		// "x*" and "x*$" match exactly what "x" matches as a prefix.
		buf = buf[:len(buf)-1]
		anchored = false
	}
	pt := pattern{anchored: anchored, length: len(buf)}
	if anchored {
		pt.length++
	}
	if i := bytes.IndexByte(buf, '*'); i < 0 {
		pt.first = buf
	} else {
		pt.first = buf[:i]
		pt.rest = bytes.Split(buf[i+1:], []byte{'*'})
	}
	return pt
}

// match reports whether the canonical URL s matches the pattern: matching
// starts at the first octet of s (RFC 9309 §2.2.2), '*' matches any run of
// octets and an anchored pattern must reach the end of s (§2.2.3).
func (p *pattern) match(s []byte) bool {
	if p.rest == nil {
		if p.anchored {
			return string(s) == string(p.first)
		}
		return bytes.HasPrefix(s, p.first)
	}
	if !bytes.HasPrefix(s, p.first) {
		return false
	}
	pos := len(p.first)
	last := len(p.rest) - 1
	// Leftmost placement of each middle part is optimal for '*'-only
	// globs: any later placement leaves less room for the rest.
	for _, seg := range p.rest[:last] {
		j := bytes.Index(s[pos:], seg)
		if j < 0 {
			return false
		}
		pos += j + len(seg)
	}
	tail := p.rest[last]
	if p.anchored {
		return len(s)-len(tail) >= pos && bytes.HasSuffix(s, tail)
	}
	return bytes.Contains(s[pos:], tail)
}
