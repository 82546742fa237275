package surt

import (
	"strconv"
	"strings"
)

// escapeOnce follows GoogleURLCanonicalizer.escapeOnce: Python's
// urllib.parse.quote_from_bytes with the safe set
// !"$&'()*+,-./:;<=>?@[\]^_`{|}~, so space, control bytes, '#', '%' and
// bytes from 0x7F up become %XX (upper-case hex).
func escapeOnce(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if !safe(s[i]) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if safe(c) {
			b = append(b, c)
		} else {
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}

func safe(c byte) bool {
	return c > ' ' && c < 0x7F && c != '#' && c != '%'
}

// unescapeRepeatedly follows GoogleURLCanonicalizer.unescapeRepeatedly:
// urllib.parse.unquote_to_bytes until nothing changes. A '%' not followed
// by two hex digits stays as it is.
func unescapeRepeatedly(s string) string {
	for {
		u := unquote(s)
		if u == s {
			return s
		}
		s = u
	}
}

func unquote(s string) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// ipv4 follows GoogleURLCanonicalizer.attemptIPFormats: a host of digits
// only is a 32-bit number (masked to its low 32 bits, as the library does
// for old ARC files); a dotted host that matches the library's decimal or
// octal pattern is read as inet_aton reads it (the library hands it to
// socket.gethostbyname_ex, which parses numeric hosts without a lookup).
// ok is false for anything else.
func ipv4(host string) (string, bool) {
	if host == "" {
		return "", false
	}
	if allDigits(host) {
		var v uint32
		for i := 0; i < len(host); i++ {
			v = v*10 + uint32(host[i]-'0')
		}
		return dotted(v), true
	}
	if !decimalIP.MatchString(host) && !octalIP.MatchString(host) {
		return "", false
	}
	v, ok := inetAton(host)
	if !ok {
		return "", false
	}
	return dotted(v), true
}

// inetAton reads a, a.b, a.b.c or a.b.c.d with each part decimal, or
// octal when it starts with 0; the last part fills the remaining bytes.
func inetAton(s string) (uint32, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return 0, false
	}
	var v uint64
	for i, p := range parts {
		base := 10
		if len(p) > 1 && p[0] == '0' {
			base = 8
		}
		n, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return 0, false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return 0, false
			}
			v |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(4-i)) {
			return 0, false
		}
		v |= n
	}
	return uint32(v), true
}

func dotted(v uint32) string {
	return strconv.Itoa(int(v>>24)) + "." + strconv.Itoa(int(v>>16&255)) + "." +
		strconv.Itoa(int(v>>8&255)) + "." + strconv.Itoa(int(v&255))
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
