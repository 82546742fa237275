package surt

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// ErrPort is returned for a URL whose port is not a decimal number in
// 0-65535 (Python's urllib raises ValueError there, and so does surt).
var ErrPort = errors.New("surt: invalid port")

// ErrTooLong is returned for a URL longer than MaxLen bytes. The library
// has no limit; one is kept here because unescaping to a fixed point
// costs time quadratic in the length for crafted input.
var ErrTooLong = errors.New("surt: url too long")

// MaxLen is the longest URL Key accepts, in bytes.
const MaxLen = 64 << 10

// ErrEmpty is returned for a URL of white space only, which the library
// cannot parse either. The empty string itself has the key "-".
var ErrEmpty = errors.New("surt: blank url")

// url is the parsed URL the canonicalisers work on (handyurl). hasX
// flags stand for Python's None versus an empty byte string.
type url struct {
	scheme   string
	host     string
	hasHost  bool
	port     int // 0: none
	path     string
	hasPath  bool
	query    string
	hasQuery bool
}

// Key returns the SURT key of rawURL as surt.surt(rawURL) does with its
// default options. The errors are ErrPort, for a port that is not a
// number in 0-65535, and ErrEmpty, for a URL of white space only, and ErrTooLong.
//
// Key allocates only the returned string for the common shape of crawled
// URLs (see appendFast); AppendKey lets a caller reuse a buffer instead.
func Key(rawURL string) (string, error) {
	var buf [256]byte
	if b, ok := appendFast(buf[:0], rawURL); ok {
		return string(b), nil
	}
	return keySlow(rawURL)
}

// AppendKey appends the SURT key of rawURL to dst and returns the
// extended buffer, with the same keys and errors as Key; on error dst is
// returned unchanged.
func AppendKey(dst []byte, rawURL string) ([]byte, error) {
	if b, ok := appendFast(dst, rawURL); ok {
		return b, nil
	}
	k, err := keySlow(rawURL)
	if err != nil {
		return dst, err
	}
	return append(dst, k...), nil
}

// keySlow is the full algorithm, step by step as doc.go lists them. It
// handles every input and is the reference the fast path is tested
// against.
func keySlow(rawURL string) (string, error) {
	if rawURL == "" {
		return "-", nil
	}
	if len(rawURL) > MaxLen {
		return "", ErrTooLong
	}
	if strings.HasPrefix(rawURL, "filedesc") {
		return rawURL, nil
	}
	u, err := parse(rawURL)
	if err != nil {
		return "", err
	}
	googleCanon(u)
	iaCanon(u)
	return u.key(), nil
}

var (
	dropTabsNewlines = strings.NewReplacer("\n", "", "\r", "", "\t", "")

	hasScheme      = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+\-.]*:`)
	multiProtocols = regexp.MustCompile(`^(https?://)+`)
	// RFC 2396 appendix B, as handyurl.RFC2396REGEX narrows it.
	rfc2396 = regexp.MustCompile(`^(([a-zA-Z][a-zA-Z0-9+.-]*):)?((//([^/?#]*))?([^?#]*)(\?([^#]*))?)?(#(.*))?$`)

	decimalIP = regexp.MustCompile(`^([1-9][0-9]*)(\.[0-9]+)?(\.[0-9]+)?(\.[0-9]+)?$`)
	octalIP   = regexp.MustCompile(`^(0[0-7]*)(\.[0-7]+)?(\.[0-7]+)?(\.[0-7]+)?$`)
)

// parse follows handyurl.parse.
func parse(s string) (*url, error) {
	s = strings.Trim(s, " \t\n\r\v\f")
	if s == "" {
		// The library fails here (no scheme to test).
		return nil, ErrEmpty
	}
	s = dropTabsNewlines.Replace(s)
	if !hasScheme.MatchString(s) {
		s = "http://" + s
	}
	if m := multiProtocols.FindStringSubmatchIndex(s); m != nil {
		s = s[m[2]:] // the last repetition of the group
	}
	m := rfc2396.FindStringSubmatch(s)
	if m == nil {
		// Unreachable: every part of the expression is optional and
		// (?s) is not needed once CR and LF are gone.
		return nil, fmt.Errorf("surt: unparsable url %q", s)
	}
	u := &url{scheme: m[2]}
	netloc := strings.TrimRight(m[5], ":")
	host, port, err := hostPort(netloc)
	if err != nil {
		return nil, err
	}
	u.host, u.hasHost, u.port = host, host != "", port
	u.path, u.hasPath = m[6], m[6] != ""
	u.query, u.hasQuery = m[8], m[8] != ""
	if strings.HasPrefix(u.scheme, "http") && !u.hasHost && u.hasPath {
		// "http:////host/x": the host is the first segment.
		h, rest, _ := strings.Cut(strings.TrimLeft(u.path, "/"), "/")
		u.host, u.hasHost = h, true
		u.path, u.hasPath = "/"+rest, true
	}
	return u, nil
}

// hostPort splits a network location as urllib's SplitResult.hostname and
// .port do: user information dropped, brackets around IPv6 removed, the
// host lower-cased (but not an IPv6 zone) and port 0 meaning none.
func hostPort(netloc string) (string, int, error) {
	if i := strings.LastIndexByte(netloc, '@'); i >= 0 {
		netloc = netloc[i+1:]
	}
	var host, port string
	if _, bracketed, ok := strings.Cut(netloc, "["); ok {
		var rest string
		host, rest, _ = strings.Cut(bracketed, "]")
		_, port, _ = strings.Cut(rest, ":")
	} else {
		host, port, _ = strings.Cut(netloc, ":")
	}
	if h, zone, ok := strings.Cut(host, "%"); ok {
		host = asciiLower(h) + "%" + zone
	} else {
		host = asciiLower(host)
	}
	if port == "" {
		return host, 0, nil
	}
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return "", 0, fmt.Errorf("%w %q", ErrPort, port)
		}
	}
	n, err := strconv.Atoi(port)
	if err != nil || n > 65535 {
		return "", 0, fmt.Errorf("%w %q", ErrPort, port)
	}
	return host, n, nil
}

// googleCanon follows GoogleURLCanonicalizer.canonicalize.
func googleCanon(u *url) {
	if u.hasQuery {
		u.query = escapeOnce(unescapeRepeatedly(u.query))
	}
	if u.hasHost {
		host := unescapeRepeatedly(u.host)
		if !isASCII(host) {
			host = toASCII(host)
		}
		host = strings.Trim(strings.ReplaceAll(host, "..", "."), ".")
		if ip, ok := ipv4(host); ok {
			host = ip
		} else {
			host = escapeOnce(asciiLower(host))
		}
		u.host = host
		u.hasHost = host != ""
	}
	if !u.hasPath && !u.hasHost {
		return
	}
	path := unescapeRepeatedly(u.path)
	if u.hasHost {
		path = normalizePath(path)
	}
	u.path = escapeOnce(path)
	u.hasPath = true
}

// idnaProfile approximates Python's "idna" codec (IDNA 2003 ToASCII
// without the STD3 ASCII rules): transitional mapping, no strict host
// name character check.
var idnaProfile = idna.New(idna.MapForLookup(), idna.Transitional(true),
	idna.StrictDomainName(false), idna.CheckHyphens(false), idna.CheckJoiners(false))

// toASCII converts a host as the library does: the UTF-8 bytes decoded
// with invalid sequences dropped, then IDNA ToASCII; on failure the host
// is kept as it was.
func toASCII(host string) string {
	valid := strings.ToValidUTF8(host, "")
	if valid == "" {
		return ""
	}
	// Python's codec splits labels at these four dots (RFC 3490 §3.1)
	// and refuses an empty label other than a trailing one, and a
	// non-ASCII label that starts with the ACE prefix.
	labels := strings.FieldsFunc(valid+"x", func(r rune) bool {
		return r == '.' || r == '\u3002' || r == '\uff0e' || r == '\uff61'
	})
	n := strings.Count(valid, ".") + strings.Count(valid, "\u3002") +
		strings.Count(valid, "\uff0e") + strings.Count(valid, "\uff61")
	if len(labels) != n+1 {
		return host
	}
	for _, l := range labels {
		if !isASCII(l) && len(l) >= 4 && asciiLower(l[:4]) == "xn--" {
			return host
		}
	}
	a, err := idnaProfile.ToASCII(valid)
	if err != nil {
		return host
	}
	for _, l := range strings.Split(strings.TrimSuffix(a, "."), ".") {
		if l == "" || len(l) > 63 {
			return host
		}
	}
	return a
}

// normalizePath follows GoogleURLCanonicalizer.normalizePath: "." segments
// go, ".." removes the previous segment (kept when there is none), empty
// segments go except a trailing one.
func normalizePath(path string) string {
	if path == "" {
		return "/"
	}
	parts := strings.Split(path, "/")[1:]
	kept := make([]string, 0, len(parts))
	for _, p := range parts {
		switch {
		case p == ".":
		case p == ".." && len(kept) > 0:
			kept = kept[:len(kept)-1]
		default:
			kept = append(kept, p)
		}
	}
	var b strings.Builder
	b.WriteByte('/')
	for i, p := range kept {
		if i == len(kept)-1 {
			b.WriteString(p)
		} else if p != "" {
			b.WriteString(p)
			b.WriteByte('/')
		}
	}
	return b.String()
}

var wwwPrefix = regexp.MustCompile(`^www\d*\.`)

// iaCanon follows IAURLCanonicalizer.canonicalize with its defaults.
func iaCanon(u *url) {
	if u.hasHost {
		u.host = asciiLower(u.host)
		if u.scheme != "dns" {
			if m := wwwPrefix.FindString(u.host); m != "" {
				u.host = u.host[len(m):]
			}
		}
	}
	if u.scheme != "" && u.port != 0 && u.port == defaultPort(u.scheme) {
		u.port = 0
	}
	if u.hasPath && u.path != "" {
		p := stripPathSessionID(asciiLower(u.path))
		if len(p) > 1 && strings.HasSuffix(p, "/") {
			p = p[:len(p)-1]
		}
		u.path = p
	}
	if u.hasQuery {
		q := asciiLower(stripQuerySessionID(u.query))
		u.query = alphaReorder(q)
		u.hasQuery = u.query != ""
	}
}

func defaultPort(scheme string) int {
	switch asciiLower(scheme) {
	case "http":
		return 80
	case "https":
		return 443
	}
	return 0
}

var (
	pathSessionIDs = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^\?]+\.aspx.*)$`),
		regexp.MustCompile(`(?i)^(.*/)(\([0-9a-z]{24}\)/)([^\?]+\.aspx.*)$`),
	}
	querySessionIDs = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$`),
		regexp.MustCompile(`(?i)^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$`),
	}
)

// stripPathSessionID follows URLRegexTransformer.stripPathSessionID.
func stripPathSessionID(path string) string {
	for _, re := range pathSessionIDs {
		if m := re.FindStringSubmatch(path); m != nil {
			path = m[1] + m[3]
		}
	}
	return path
}

// stripQuerySessionID follows URLRegexTransformer.stripQuerySessionID:
// each pattern in turn removes its id and the '&' after it.
func stripQuerySessionID(query string) string {
	for _, re := range querySessionIDs {
		if m := re.FindStringSubmatch(query); m != nil {
			query = m[1] + m[2]
		}
	}
	return query
}

// alphaReorder follows IAURLCanonicalizer.alphaReorderQuery: arguments
// sorted as Python sorts the tuples (name,) and (name, value), so "a"
// sorts before "a=" and "a=x".
func alphaReorder(q string) string {
	if len(q) <= 1 {
		return q
	}
	args := strings.Split(q, "&")
	sort.SliceStable(args, func(i, j int) bool {
		ni, vi, hi := strings.Cut(args[i], "=")
		nj, vj, hj := strings.Cut(args[j], "=")
		if ni != nj {
			return ni < nj
		}
		if hi != hj {
			return !hi
		}
		return vi < vj
	})
	return strings.Join(args, "&")
}

// key writes the URL as handyurl.geturl_bytes(surt=True,
// with_scheme=False) does.
func (u *url) key() string {
	var b strings.Builder
	if u.host == "" {
		b.WriteString(u.scheme)
		b.WriteByte(':')
	} else {
		labels := strings.Split(u.host, ".")
		for i := len(labels) - 1; i >= 0; i-- {
			b.WriteString(labels[i])
			if i > 0 {
				b.WriteByte(',')
			}
		}
		if u.port != 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(u.port))
		}
		b.WriteByte(')')
	}
	if u.path != "" {
		b.WriteString(u.path)
	} else if u.hasQuery {
		b.WriteByte('/')
	}
	if u.hasQuery {
		b.WriteByte('?')
		b.WriteString(u.query)
	}
	return b.String()
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
