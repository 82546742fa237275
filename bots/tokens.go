package bots

import (
	"bytes"
	"strings"
)

// isTokenChar reports whether c belongs to a User-Agent token for matching
// purposes: letters, digits, '-', '_' and '.'. "/" ends a product name,
// so "Googlebot/2.1" holds the token "Googlebot"; "-" does not, so
// "Googlebot-Image" is one token and never matches "Googlebot".
func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '_' || c == '.'
}

func isTokenRun(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isTokenChar(s[i]) {
			return false
		}
	}
	return s != ""
}

// ContainsToken reports whether token occurs in ua as a whole token,
// compared case-insensitively (ASCII): the characters next to the match,
// if any, are not token characters (letters, digits, '-', '_', '.').
// "Spider" is not in "Baiduspider/2.0", "LCC" is not in "SLCC2",
// "Googlebot" is not in "Googlebot-Image/1.0", "bingbot" is in
// "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)".
// A token that starts or ends with a non-token character needs no boundary
// on that side.
func ContainsToken(ua, token string) bool {
	n := len(token)
	if n == 0 || n > len(ua) {
		return false
	}
	first := token[0] | 0x20
	for i := 0; i+n <= len(ua); i++ {
		if ua[i]|0x20 != first || !equalFoldASCII(ua[i:i+n], token) {
			continue
		}
		if i > 0 && isTokenChar(token[0]) && isTokenChar(ua[i-1]) {
			continue
		}
		if i+n < len(ua) && isTokenChar(token[n-1]) && isTokenChar(ua[i+n]) {
			continue
		}
		return true
	}
	return false
}

func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// Bounds on the work ProductTokens does on one header.
const (
	maxUALen    = 4096 // bytes of User-Agent read
	maxUATokens = 64   // tokens returned
)

// isTchar reports whether c is an RFC 9110 §5.6.2 tchar.
func isTchar(c byte) bool {
	if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// ProductTokens returns the product names of a User-Agent header in order,
// without versions (RFC 9110 §10.1.5: User-Agent = product *( RWS ( product
// / comment ) ), product = token ["/" product-version]). Comments are read
// too, since bots put their name there: "(compatible; GPTBot/1.2;
// +https://openai.com/gptbot)" gives "compatible" and "GPTBot". Inside a
// comment, each element separated by ";" or "," gives its name when it is
// a single word ("compatible", "GPTBot/1.2") and otherwise the names of its
// "name/version" words ("Nexus 5X Build/MMB29P" gives "Build"); URLs, mail
// addresses and words without a letter are skipped. Only the first 4096
// bytes are read and at most 64 names returned.
func ProductTokens(ua string) []string {
	var out []string
	scanProducts(ua, func(name string) bool {
		out = append(out, name)
		return true
	})
	return out
}

// scanProducts calls yield with each product name of ua, as ProductTokens
// describes, until yield returns false.
func scanProducts(ua string, yield func(string) bool) {
	if len(ua) > maxUALen {
		ua = ua[:maxUALen]
	}
	n := 0
	emit := func(name string) bool {
		if !hasLetter(name) {
			return true
		}
		n++
		return yield(name) && n < maxUATokens
	}
	for i := 0; i < len(ua); {
		c := ua[i]
		switch {
		case c == '(':
			end, content := readComment(ua, i)
			if !commentTokens(content, emit) {
				return
			}
			i = end
		case isTchar(c):
			// A "+https://..." link or a mail address outside a comment is
			// not a product.
			w := i
			for w < len(ua) && !isUASpace(ua[w]) && strings.IndexByte("();,", ua[w]) < 0 {
				w++
			}
			if isLink(ua[i:w]) {
				i = w
				continue
			}
			j := i
			for j < len(ua) && isTchar(ua[j]) {
				j++
			}
			name := ua[i:j]
			if j < len(ua) && ua[j] == '/' {
				j++
				for j < len(ua) && isTchar(ua[j]) {
					j++
				}
			}
			if !emit(name) {
				return
			}
			i = j
		default:
			i++
		}
	}
}

// isLink reports whether a word is a link ("+https://...", "http://...")
// or a mail address rather than a product.
func isLink(w string) bool {
	return w != "" && (w[0] == '+' || strings.Contains(w, "://") || strings.IndexByte(w, '@') >= 0)
}

// readComment returns the end of the comment starting at ua[start] == '('
// and its content with nested comments flattened (their parentheses become
// separators). An unclosed comment runs to the end.
func readComment(ua string, start int) (end int, content string) {
	depth := 0
	nested := false
	for i := start; i < len(ua); i++ {
		switch ua[i] {
		case '\\':
			if i+1 < len(ua) {
				i++
			}
		case '(':
			depth++
			if depth > 1 {
				nested = true
			}
		case ')':
			depth--
			if depth == 0 {
				if !nested {
					return i + 1, ua[start+1 : i]
				}
				return i + 1, flatten(ua[start+1 : i])
			}
		}
	}
	if !nested {
		return len(ua), ua[start+1:]
	}
	return len(ua), flatten(ua[start+1:])
}

// flatten turns the parentheses of nested comments into separators.
func flatten(s string) string {
	r := strings.NewReplacer("(", ";", ")", ";")
	return r.Replace(s)
}

// commentTokens yields the product names found in a comment's content; it
// returns false when yield did.
func commentTokens(content string, yield func(string) bool) bool {
	for len(content) > 0 {
		var el string
		if i := strings.IndexAny(content, ";,"); i >= 0 {
			el, content = content[:i], content[i+1:]
		} else {
			el, content = content, ""
		}
		el = strings.TrimSpace(el)
		if el == "" || len(el) >= 4 && strings.EqualFold(el[:4], "www.") {
			continue
		}
		// Links and mail addresses do not count: "archive.org_bot
		// +http://archive.org/details/archive.org_bot" names one product.
		words, single := 0, ""
		forWords(el, func(w string) {
			if !isLink(w) {
				words++
				single = w
			}
		})
		if words == 1 {
			if name, ok := productName(single); ok && !yield(name) {
				return false
			}
			continue
		}
		ok := true
		forWords(el, func(w string) {
			if !ok || isLink(w) || strings.IndexByte(w, '/') < 0 {
				return
			}
			if name, good := productName(w); good {
				ok = yield(name)
			}
		})
		if !ok {
			return false
		}
	}
	return true
}

// forWords calls f with each space-separated word of s.
func forWords(s string, f func(string)) {
	for len(s) > 0 {
		i := 0
		for i < len(s) && isUASpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isUASpace(s[j]) {
			j++
		}
		if j > i {
			f(s[i:j])
		}
		s = s[j:]
	}
}

// productName returns the name part of "name/version" or "name" when it is
// an RFC 9110 token and not a mail address or URL.
func productName(w string) (string, bool) {
	if strings.IndexByte(w, '@') >= 0 || strings.Contains(w, "://") {
		return "", false
	}
	name := w
	if i := strings.IndexByte(w, '/'); i >= 0 {
		name = w[:i]
	}
	if name == "" {
		return "", false
	}
	for i := 0; i < len(name); i++ {
		if !isTchar(name[i]) {
			return "", false
		}
	}
	return name, true
}

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; 'a' <= c && c <= 'z' {
			return true
		}
	}
	return false
}

// browserTokens are product names of browsers, engines and platforms
// (lower-cased). A User-Agent whose first product is one of them is a
// browser's, or shaped like one.
var browserTokens = map[string]bool{
	"mozilla": true, "opera": true, "applewebkit": true, "khtml": true, "gecko": true,
	"like": true, "chrome": true, "chromium": true, "crios": true, "fxios": true,
	"safari": true, "firefox": true, "edg": true, "edge": true, "edga": true,
	"edgios": true, "opr": true, "version": true, "mobile": true, "compatible": true,
	"windows": true, "win64": true, "x64": true, "wow64": true, "linux": true,
	"android": true, "iphone": true, "ipad": true, "ipod": true, "macintosh": true,
	"x11": true, "u": true, "trident": true, "msie": true, "build": true, "cros": true,
	"ubuntu": true, "samsungbrowser": true, "yabrowser": true, "ucbrowser": true,
	"vivaldi": true, "silk": true, "dalvik": true, "presto": true, "wv": true,
}

// toolTokens name headless browsers, automation tools and crawler
// software whose names say nothing of crawling: in a browser-shaped
// User-Agent they are what identifies the client.
var toolTokens = map[string]bool{
	"headlesschrome": true, "phantomjs": true, "chrome-lighthouse": true,
	"lighthouse": true, "puppeteer": true, "playwright": true, "slimerjs": true,
	"heritrix": true, "nutch": true, "zeno": true, "brozzler": true,
	"browsertrix": true, "warcprox": true, "wget": true, "curl": true,
}

// crawlerWords are parts of names that crawlers give themselves.
var crawlerWords = [][]byte{
	[]byte("bot"), []byte("crawl"), []byte("spider"), []byte("fetch"),
	[]byte("agent"), []byte("scrap"), []byte("archiv"), []byte("slurp"),
	[]byte("preview"), []byte("indexer"), []byte("search"), []byte("checker"),
	[]byte("monitor"), []byte("scanner"), []byte("validator"),
	[]byte("externalhit"), []byte("-user"),
}

// BotToken picks the most likely bot product token from a User-Agent, for
// clients the catalog does not know. It returns the first product name
// (comments included, see ProductTokens) that looks like a crawler's (it
// contains bot, crawl, spider, fetch, agent, scrap, archiv, slurp, preview,
// indexer, search, checker, monitor, scanner, validator, externalhit or
// -user, case-insensitive) and is not a browser or platform name, or that
// names a headless browser, automation tool or crawler software
// (HeadlessChrome, PhantomJS, Lighthouse, heritrix, Zeno, wget, ...). Failing that, a User-Agent whose first product is not a
// browser's ("python-requests/2.31", "curl/8.0") gives its first product
// name, and a browser's gives "".
func BotToken(ua string) string {
	var (
		buf   [64]byte
		first string
		found string
	)
	scanProducts(ua, func(t string) bool {
		if first == "" {
			first = t
		}
		if len(t) > len(buf) {
			return true
		}
		l := lowerInto(buf[:0], t)
		if toolTokens[string(l)] {
			found = t
			return false
		}
		if browserTokens[string(l)] {
			return true
		}
		for _, w := range crawlerWords {
			if bytes.Contains(l, w) {
				found = t
				return false
			}
		}
		return true
	})
	if found != "" || first == "" {
		return found
	}
	if len(first) <= len(buf) && browserTokens[string(lowerInto(buf[:0], first))] {
		return ""
	}
	return first
}

func isUASpace(c byte) bool { return c == ' ' || c == '\t' }
