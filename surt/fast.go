package surt

import "strconv"

// The fast path. Most URLs a crawler fetches are already in the shape
// the canonicalisers would leave them in: a lower-case "http" or "https"
// scheme, a host name of letters, digits, dots and hyphens, a path and
// maybe a short query of printable ASCII with no escapes. For those the
// steps in doc.go reduce to lower-casing, dropping "www.", a default port,
// empty path segments and a trailing slash, and sorting the query; appendFast
// does that in one pass over the input. Anything else it declines (ok is
// false) and Key runs the full algorithm (keySlow), which stays the
// reference: the differential tests require both to agree on every input
// the fast path accepts.

// Byte classes for the fast path.
const (
	cHost  = 1 << iota // a-z A-Z 0-9 . - _: may appear in a fast host
	cPlain             // printable ASCII other than '%': passes escapeOnce and unescaping unchanged
)

var class = func() (t [256]uint8) {
	for c := 0x21; c < 0x7F; c++ {
		if c != '%' && c != '#' {
			t[c] |= cPlain
		}
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= cHost
		t[c-'a'+'A'] |= cHost
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= cHost
	}
	t['.'] |= cHost
	t['-'] |= cHost
	t['_'] |= cHost
	return t
}()

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// maxFastArgs is the most query arguments the fast path sorts; longer
// queries go the slow way.
const maxFastArgs = 16

// appendFast appends the key of s to dst when s has the common shape
// described above; ok is false (and dst unchanged) otherwise.
func appendFast(dst []byte, s string) (_ []byte, ok bool) {
	rest, defPort, ok := fastRest(s)
	if !ok {
		return dst, false
	}
	host, port, i, ok := fastAuthority(rest, defPort)
	if !ok {
		return dst, false
	}
	path, query := rest[i:], ""
	for k := 0; k < len(path); k++ {
		if path[k] == '?' {
			path, query = path[:k], path[k+1:]
			break
		}
	}
	if !fastPath(path) {
		return dst, false
	}
	var args [maxFastArgs][2]int32
	nargs, ok := fastArgs(query, &args)
	if !ok {
		return dst, false
	}
	dst = appendFastHost(dst, host, port)
	dst = appendFastPath(dst, path)
	return appendFastQuery(dst, query, args[:nargs]), true
}

// fastRest returns s after its http:// or https:// scheme and before its
// fragment, and the scheme's default port; ok is false when s is not
// such a URL, is longer than MaxLen, repeats its scheme or has a byte
// before the fragment that is not plain.
func fastRest(s string) (rest string, defPort int, ok bool) {
	switch {
	case len(s) > 8 && s[:8] == "https://":
		rest, defPort = s[8:], 443
	case len(s) > 7 && s[:7] == "http://":
		rest, defPort = s[7:], 80
	default:
		return "", 0, false
	}
	if len(s) > MaxLen {
		return "", 0, false
	}
	// "http://http://x" collapses to its last scheme: leave it.
	if len(rest) >= 5 && rest[:4] == "http" && (rest[4] == ':' || rest[4] == 's') {
		return "", 0, false
	}
	// The fragment goes; before it every byte must be plain (no white
	// space or tabs to remove, nothing to escape or unescape).
	end := len(rest)
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if class[c]&cPlain == 0 {
			if c == '#' {
				end = i
				break
			}
			return "", 0, false
		}
	}
	return rest[:end], defPort, true
}

// fastAuthority reads the authority at the start of rest: host[:port],
// host of [a-zA-Z0-9._-] only (so no user information, brackets or
// escapes). It returns the host without a leading "www." or
// "www<digits>.", the port (0 for the default port defPort) and the
// index in rest where the path or query starts; ok is false for an
// authority the fast path does not handle.
func fastAuthority(rest string, defPort int) (host string, port, i int, ok bool) {
	digitsDots := true
	for i < len(rest) && class[rest[i]]&cHost != 0 {
		if c := rest[i]; (c < '0' || c > '9') && c != '.' {
			digitsDots = false
		}
		i++
	}
	host = rest[:i]
	if host == "" || host[0] == '.' || host[len(host)-1] == '.' {
		return "", 0, 0, false
	}
	if i < len(rest) && rest[i] == ':' {
		j := i + 1
		for j < len(rest) && '0' <= rest[j] && rest[j] <= '9' {
			j++
		}
		if j == i+1 || j-i-1 > 5 {
			return "", 0, 0, false
		}
		n, _ := strconv.Atoi(rest[i+1 : j])
		if n > 65535 {
			return "", 0, 0, false
		}
		if n != defPort {
			port = n
		}
		i = j
	}
	if i < len(rest) && rest[i] != '/' && rest[i] != '?' {
		return "", 0, 0, false
	}
	// Dots: no "..", and a host of digits and dots only must be a
	// dotted quad without leading zeros, which inet_aton would give back
	// unchanged (or refuse, leaving it a name: unchanged too).
	dots := 0
	for k := 0; k < len(host); k++ {
		if host[k] != '.' {
			continue
		}
		dots++
		if host[k+1] == '.' {
			return "", 0, 0, false
		}
		if digitsDots && host[k+1] == '0' && k+2 < len(host) && host[k+2] != '.' {
			return "", 0, 0, false
		}
	}
	if digitsDots && (dots != 3 || host[0] == '0' && host[1] != '.') {
		return "", 0, 0, false
	}
	// Drop "www." or "www<digits>." (after lower-casing).
	if len(host) > 4 && lower(host[0]) == 'w' && lower(host[1]) == 'w' && lower(host[2]) == 'w' {
		k := 3
		for k < len(host) && '0' <= host[k] && host[k] <= '9' {
			k++
		}
		if k < len(host)-1 && host[k] == '.' {
			host = host[k+1:]
		}
	}
	return host, port, i, true
}

// fastPath reports whether path has no dot segments to resolve and no
// '(' (ASP.NET session ids).
func fastPath(path string) bool {
	for k := 0; k < len(path); k++ {
		switch path[k] {
		case '(':
			return false
		case '.':
			if path[k-1] == '/' && (k+1 == len(path) || path[k+1] == '/' ||
				path[k+1] == '.' && (k+2 == len(path) || path[k+2] == '/')) {
				return false
			}
		}
	}
	return true
}

// fastArgs splits query at '&' into args (start and end offsets) and
// returns their number; ok is false when the query is too long, has more
// than maxFastArgs arguments or may hold a session id to strip.
func fastArgs(query string, args *[maxFastArgs][2]int32) (nargs int, ok bool) {
	if query == "" {
		return 0, true
	}
	if len(query) >= MaxLen {
		return 0, false
	}
	// Ignoring case, "sid=" covers phpsessid and sid, "sessionid"
	// jsessionid and ASPSESSIONID.
	start := 0
	for k := 0; k <= len(query); k++ {
		if k == len(query) || query[k] == '&' {
			if nargs == maxFastArgs {
				return 0, false
			}
			args[nargs] = [2]int32{int32(start), int32(k)}
			nargs++
			start = k + 1
			continue
		}
		if k >= 3 && query[k] == '=' && lower(query[k-1]) == 'd' && lower(query[k-2]) == 'i' && lower(query[k-3]) == 's' ||
			hasFoldAt(query, k, "sessionid") || hasFoldAt(query, k, "cfid=") {
			return 0, false
		}
	}
	return nargs, true
}

// appendFastHost appends host's labels lower-cased and reversed, the
// port when not 0, and ')'.
func appendFastHost(dst []byte, host string, port int) []byte {
	for e := len(host); e > 0; {
		b := e - 1
		for b > 0 && host[b-1] != '.' {
			b--
		}
		for k := b; k < e; k++ {
			dst = append(dst, lower(host[k]))
		}
		if b > 0 {
			dst = append(dst, ',')
		}
		e = b - 1
	}
	if port != 0 {
		dst = append(dst, ':')
		dst = strconv.AppendInt(dst, int64(port), 10)
	}
	return append(dst, ')')
}

// appendFastPath appends "/" then the non-empty segments of path,
// lower-cased and joined by '/': empty segments go, and a trailing slash
// goes unless the path is "/".
func appendFastPath(dst []byte, path string) []byte {
	dst = append(dst, '/')
	first := true
	for k := 0; k < len(path); {
		for k < len(path) && path[k] == '/' {
			k++
		}
		b := k
		for k < len(path) && path[k] != '/' {
			k++
		}
		if b == k {
			break
		}
		if !first {
			dst = append(dst, '/')
		}
		first = false
		for m := b; m < k; m++ {
			dst = append(dst, lower(path[m]))
		}
	}
	return dst
}

// appendFastQuery appends the query, lower-cased, its arguments a (as
// fastArgs found them) sorted as alphaReorder sorts them; nothing for an
// empty query.
func appendFastQuery(dst []byte, query string, a [][2]int32) []byte {
	if len(a) == 0 || len(query) <= 1 {
		if query != "" {
			dst = append(dst, '?', lower(query[0]))
		}
		return dst
	}
	// Stable insertion sort of the arguments as alphaReorder sorts them.
	for k := 1; k < len(a); k++ {
		for m := k; m > 0 && argLess(query, a[m], a[m-1]); m-- {
			a[m], a[m-1] = a[m-1], a[m]
		}
	}
	dst = append(dst, '?')
	for k, arg := range a {
		if k > 0 {
			dst = append(dst, '&')
		}
		for m := arg[0]; m < arg[1]; m++ {
			dst = append(dst, lower(query[m]))
		}
	}
	return dst
}

// hasFoldAt reports whether s[i:] starts with the lower-case word w,
// ignoring ASCII case.
func hasFoldAt(s string, i int, w string) bool {
	if len(s)-i < len(w) || lower(s[i]) != w[0] {
		return false
	}
	for k := 1; k < len(w); k++ {
		if lower(s[i+k]) != w[k] {
			return false
		}
	}
	return true
}

// argLess compares two query arguments, lower-cased, as alphaReorder
// does: by name, then an argument without '=' first, then by value.
func argLess(q string, x, y [2]int32) bool {
	xn, xv, xeq := splitArg(q, x)
	yn, yv, yeq := splitArg(q, y)
	if c := compareFold(q, xn, yn); c != 0 {
		return c < 0
	}
	if xeq != yeq {
		return !xeq
	}
	return compareFold(q, xv, yv) < 0
}

func splitArg(q string, a [2]int32) (name, value [2]int32, eq bool) {
	for k := a[0]; k < a[1]; k++ {
		if q[k] == '=' {
			return [2]int32{a[0], k}, [2]int32{k + 1, a[1]}, true
		}
	}
	return a, [2]int32{a[1], a[1]}, false
}

// compareFold compares two spans of q as their lower-cased bytes compare.
func compareFold(q string, x, y [2]int32) int {
	n := min(x[1]-x[0], y[1]-y[0])
	for k := int32(0); k < n; k++ {
		cx, cy := lower(q[x[0]+k]), lower(q[y[0]+k])
		if cx != cy {
			if cx < cy {
				return -1
			}
			return 1
		}
	}
	return int(x[1]-x[0]) - int(y[1]-y[0])
}
