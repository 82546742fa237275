package bots

import (
	"strings"
)

// isTokenChar reports whether c belongs to a User-Agent token for matching
// purposes: letters, digits, '-', '_', '.' and '!' ("Y!J-BRW"). "/" ends a product name,
// so "Googlebot/2.1" holds the token "Googlebot"; "-" does not, so
// "Googlebot-Image" is one token and never matches "Googlebot".
func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '_' || c == '.' || c == '!'
}

// ContainsToken reports whether token occurs in ua as a whole token,
// compared case-insensitively (ASCII): the characters next to the match,
// if any, are not token characters (letters, digits, '-', '_', '.', '!').
// "Spider" is not in "Baiduspider/2.0", "LCC" is not in "SLCC2",
// "Googlebot" is not in "Googlebot-Image/1.0", "bingbot" is in
// "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)".
// A token that starts or ends with a non-token character needs no boundary
// on that side. ContainsToken knows nothing of "like X" or links: Identify
// applies those rules.
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
	if len(a) != len(b) {
		return false
	}
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

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && equalFoldASCII(s[:len(prefix)], prefix)
}

// Bounds on the work done on one header.
const (
	maxUALen    = 4096 // bytes of User-Agent read
	maxUATokens = 64   // tokens ProductTokens returns
	maxWords    = 96   // words the scanner keeps
	maxNameLen  = 128  // bytes of a name built from several words
	maxNameWord = 4    // words in a name built around a generic word
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
// bytes are read and at most 64 names returned. ProductTokens is the
// syntax only; Names applies the identification rules.
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

// isLink reports whether a word is a link ("+https://...", "http://...",
// "www.example.com") or a mail address rather than a product.
func isLink(w string) bool {
	return w != "" && (w[0] == '+' || strings.Contains(w, "://") || strings.IndexByte(w, '@') >= 0 ||
		hasPrefixFold(w, "www.") || hasPrefixFold(w, "http:") || hasPrefixFold(w, "https:"))
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

func isUASpace(c byte) bool { return c == ' ' || c == '\t' }

// word is one word of a User-Agent as the identification rules see it.
type word struct {
	start, end int    // the raw word: ua[start:end]
	name       string // its leading token run ("Googlebot" of "Googlebot/2.1"); "" for links
	nameStart  int    // where name starts in ua
	version    bool   // name is followed by "/"
	comment    int    // 0 at the top level, else the number of the top-level comment it is in
	verPart    bool   // the word follows a "/" (a version, or a name given as one: "Agent/AmazonBuyForMe")
	elem       int    // element number: comments and ';' ',' '(' ')' separate elements
	elemFirst  bool   // first word of its element
	link       bool   // a URL, "+http..." link, "www." host or mail address
	mentioned  bool   // follows "like", "treat like", "compatible with", "similar to"
	platform   bool   // inside the platform comment of a browser-shaped User-Agent
	oddFirst   bool   // first word of the first comment of a browser-shaped User-Agent, and not a platform's
}

func isSep(c byte) bool {
	switch c {
	case ' ', '\t', '(', ')', ';', ',':
		return true
	}
	return false
}

// plusSep reports whether a '+' at ua[i] stands for a space (IIS logs write
// "Mozilla/5.0+(compatible;+Googlebot/2.1;++http://...)") rather than
// starting a "+http" link.
func plusSep(ua string, i int) bool {
	r := ua[i+1:]
	return !(hasPrefixFold(r, "http") || hasPrefixFold(r, "www."))
}

// pctSpace reports whether ua[i:] starts with "%20", a space that a
// client or logger percent-encoded (RFC 3986 §2.1):
// "Quokka%20Bot/1.0".
func pctSpace(ua string, i int) bool {
	return i+2 < len(ua) && ua[i+1] == '2' && ua[i+2] == '0'
}

// scanWords splits ua into words, appending them to buf. Only the first
// maxUALen bytes and maxWords words are read.
func scanWords(ua string, buf []word) []word {
	if len(ua) > maxUALen {
		ua = ua[:maxUALen]
	}
	var (
		depth, comment, elem int
		newElem              = true
		prev1, prev2         string // names of the previous words of this element
		browserFirst         bool   // the first word is a browser's product
		platformOpen         bool   // inside comment 1 of a browser-shaped UA, not "compatible"
		first                = true
	)
	for i := 0; i < len(ua) && len(buf) < maxWords; {
		c := ua[i]
		switch {
		case c == ' ' || c == '\t' || c == '+' && plusSep(ua, i):
			i++
			continue
		case c == '%' && pctSpace(ua, i):
			i += 3
			continue
		case c == '(' || c == ')' || c == ';' || c == ',':
			if c == '(' {
				if depth == 0 {
					comment++
					platformOpen = comment == 1 && browserFirst
				}
				depth++
			} else if c == ')' && depth > 0 {
				depth--
				if depth == 0 {
					platformOpen = false
				}
			}
			elem++
			newElem, prev1, prev2 = true, "", ""
			i++
			continue
		}
		j := i
		for j < len(ua) && !isSep(ua[j]) && !(ua[j] == '+' && j > i && plusSep(ua, j)) && !(ua[j] == '%' && pctSpace(ua, j)) {
			j++
		}
		w := word{start: i, end: j, elem: elem, elemFirst: newElem}
		if depth > 0 {
			w.comment = comment
		}
		raw := ua[i:j]
		w.link = isLink(raw)
		if !w.link {
			k := i
			for k < j && !isTokenChar(ua[k]) {
				k++
			}
			m := nameEnd(ua[:j], k)
			w.name, w.nameStart = ua[k:m], k
			// "name/version", and "name:1.2" outside comments.
			w.version = m < j && (ua[m] == '/' || depth == 0 && ua[m] == ':' && m+1 < j && isDigit(ua[m+1]))
			if w.version {
				// What follows the '/' is a word of its own.
				j, w.end = m+1, m
			}
			if first && len(buf) == 0 && m < j && ua[m] == ':' && equalFoldASCII(w.name, "User-Agent") {
				// A header logged with its field name ("User-Agent:
				// Foo/1.0"): the name is no word of the value.
				i = m + 1
				continue
			}
			w.mentioned = mentions(prev1, prev2)
		}
		if first {
			first = false
			browserFirst = w.version && isBrowserToken(w.name)
		}
		if depth > 0 && comment == 1 && platformOpen {
			first := depth == 1 && w.start > 0 && ua[w.start-1] == '('
			switch {
			case first && (equalFoldASCII(w.name, "compatible") || equalFoldASCII(w.name, "KHTML")):
				// "(KHTML, like Gecko; ...)" first is the engine's
				// comment of a shell with no platform comment.
				platformOpen = false
			case first && !isPlatformWord(w.name):
				// "Mozilla/5.0 (Morningscore/1.0)": no platform there.
				platformOpen, w.oddFirst = false, !equalFoldASCII(w.name, "compatible")
			default:
				w.platform = true
			}
		}
		w.verPart = i > 0 && (ua[i-1] == '/' || ua[i-1] == ':' && len(buf) > 0 && buf[len(buf)-1].version && buf[len(buf)-1].end == i-1)
		buf = append(buf, w)
		newElem = false
		prev2, prev1 = prev1, w.name
		i = j
	}
	return buf
}

// nameEnd returns the end of the name that starts at s[k]: a run of
// token characters, joined by "::", "\\" or ':' before a letter to the
// next run, as library names are written ("WWW::Mechanize",
// "Zend\\Http\\Client", "quokka:client"); a logged "User-Agent:" is no
// part of a name.
func nameEnd(s string, k int) int {
	m := k
	for {
		for m < len(s) && isTokenChar(s[m]) {
			m++
		}
		switch {
		case m > k && m+2 < len(s) && s[m] == ':' && s[m+1] == ':' && isTokenChar(s[m+2]):
			m += 2
		case m > k && m+1 < len(s) && s[m] == '\\' && isTokenChar(s[m+1]):
			m++
		case m > k && m+1 < len(s) && s[m] == ':' && isLetter(s[m+1]) && colonJoins(s[k:m]):
			m++ // "quokka:client/1.2"
		default:
			return m
		}
	}
}

// colonJoins reports whether a name run may go on across ':': a word
// of letters, '-' and '_' ("quokka:client"), not a version
// ("Quokka-iOS-10.4.0:Lib"), a URI scheme ("mailto:", "http:") or a
// logged "User-Agent:".
func colonJoins(run string) bool {
	for i := 0; i < len(run); i++ {
		if c := run[i]; !isLetter(c) && c != '-' && c != '_' {
			return false
		}
	}
	return !equalFoldASCII(run, "User-Agent") && !equalFoldASCII(run, "mailto") && !equalFoldASCII(run, "http") &&
		!equalFoldASCII(run, "https") && !equalFoldASCII(run, "tel")
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// mentions reports whether a word that follows prev2 prev1 is only
// mentioned: after "like" (also ending a word: "inoreader.com-like"),
// "compatible with", "similar to", or a negation ("not", "not a", "no",
// "non"): "not Googlebot" is not Googlebot.
func mentions(prev1, prev2 string) bool {
	n := len(prev1)
	if n < 1 || n > 4 && prev1[n-1]|0x20 != 'e' {
		return false // the words below are short, or end in "like"
	}
	return equalFoldASCII(prev1, "like") ||
		n > 5 && (prev1[n-5] == '-' || prev1[n-5] == '.' || prev1[n-5] == '_') && equalFoldASCII(prev1[n-4:], "like") ||
		equalFoldASCII(prev1, "with") && equalFoldASCII(prev2, "compatible") ||
		equalFoldASCII(prev1, "to") && equalFoldASCII(prev2, "similar") ||
		equalFoldASCII(prev1, "not") || equalFoldASCII(prev1, "no") || equalFoldASCII(prev1, "non") ||
		(equalFoldASCII(prev1, "a") || equalFoldASCII(prev1, "an")) && equalFoldASCII(prev2, "not")
}

// browserTokens are product names of browsers, engines and platforms
// (lower-cased): never a bot's name.
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
	"cpu": true, "os": true, "mac": true, "intel": true, "nt": true, "rv": true,
	"electron": true, "webkit": true, "mobile safari": true, "kaios": true,
	"tizen": true, "smart-tv": true, "smarttv": true, "webview": true,
}

// platformWords start the platform comment of browsers and devices
// (lower-cased), besides the browser tokens.
var platformWords = map[string]bool{
	"tablet": true, "tv": true, "playstation": true, "nintendo": true, "bb10": true,
	"blackberry": true, "web0s": true, "webos": true, "fuchsia": true, "crkey": true,
	"series40": true, "series60": true, "symbian": true, "symbianos": true,
	"meego": true, "maemo": true, "hp-tablet": true, "unknown": true, "directfb": true,
	"sailfish": true, "haiku": true, "freebsd": true, "openbsd": true, "netbsd": true,
	"sunos": true, "qtembedded": true, "kindle": true, "wayland": true, "j2me": true,
	"arm": true, "armv7l": true, "aarch64": true, "x86_64": true, "i686": true,
	"amd64": true, "win32": true, "winnt": true, "x86": true, "nokia": true,
	"platform": true, "wii": true, "xbox": true, "ps4": true, "ps3": true, "psp": true,
	"smart": true, "en": true, "en-us": true, "iphone-os": true, "darwin": true,
	"gnu": true, "solaris": true, "beos": true, "amigaos": true, "riscos": true,
	"os": true, "linux-gnu": true, "chromeos": true, "mobile-tv": true, "i386": true,
	"ppc": true, "pc": true, "plan9": true, "minix": true, "unix": true, "cygwin": true,
	"playbook": true, "risc": true,
}

// isPlatformWord reports whether the first word of a browser-shaped
// User-Agent's first comment names a platform or a device.
func isPlatformWord(name string) bool {
	if isBrowserToken(name) {
		return true
	}
	var buf [32]byte
	if len(name) > len(buf) {
		return true
	}
	l := string(lowerInto(buf[:0], name))
	if platformWords[l] || strings.HasPrefix(l, "windows") || strings.HasPrefix(l, "linux") || !hasLetter(l) || locale(name) || winVersion(l) {
		return true
	}
	for _, d := range devicePrefixes {
		if strings.HasPrefix(l, d) {
			return true
		}
	}
	return false
}

// winVersion reports whether a lower-cased word is an old Windows
// version as browsers of the time wrote it: "win95", "win98", "win3.11",
// "winxp", "winme", "win2k".
func winVersion(l string) bool {
	switch l {
	case "winxp", "winme", "win2k", "winvista":
		return true
	}
	return len(l) > 3 && strings.HasPrefix(l, "win") && isDigit(l[3]) && strings.Trim(l[3:], "0123456789.") == ""
}

// locale reports whether a word is a language tag as old browsers put
// it in their comment (RFC 5646 §2.1, language and region only): "de",
// "en-US", "pt_BR".
func locale(n string) bool {
	if len(n) != 2 && len(n) != 5 {
		return false
	}
	if !('a' <= n[0] && n[0] <= 'z' && 'a' <= n[1] && n[1] <= 'z') {
		return false
	}
	return len(n) == 2 || (n[2] == '-' || n[2] == '_') && lettersOnly(n[3:])
}

func isBrowserToken(s string) bool {
	var buf [32]byte
	if len(s) > len(buf) {
		return false
	}
	return browserTokens[string(lowerInto(buf[:0], s))]
}

// genericWords are words no bot is named by alone (lower-cased): "Spider"
// in "Sogou News Spider/4.0" names nothing; the full name does. The ones
// marked true are crawler words, around which the full name is built.
var genericWords = map[string]bool{
	"bot": true, "bots": true, "spider": true, "spiders": true, "crawler": true,
	"crawlers": true, "robot": true, "robots": true, "agent": true, "agents": true,
	"fetch": true, "fetcher": true, "fetchers": true, "scraper": true, "scrapers": true,
	"indexer": true, "checker": true, "checkers": true, "scanner": true, "scanners": true,
	"monitor": true, "validator": true, "inspector": true, "analyzer": true, "analyser": true,
	"detector": true, "extractor": true, "verifier": true, "downloader": true,
	"aggregator": true, "collector": true, "harvester": true, "screenshot": true,
	"preview": true, "archiver": true, "finder": true, "research": true,
	"diagnostics": true, "measurement": true, "transcoder": true,
	"synthetic": true, "synthetics": true, "observatory": true, "probe": true,
	"uptime": true, "audit": true, "tester": true,
	"user-agent": true, "useragent": true, "crawl": false, "web": false, "www": false, "http": false,
	"https": false, "internet": false, "search": false, "engine": false, "the": false,
	"news": false, "client": false, "user": false, "service": false,
	"unknown": false, "platform": false, "test": false, "mozilla": false,
}

// isCrawlerWord reports whether name is a generic crawler word (bot,
// spider, crawler, robot, agent, fetcher, scraper, indexer, and the
// crawler stems alone: checker, scanner, analyzer, monitor, ...).
func isCrawlerWord(name string) bool {
	var buf [32]byte
	if len(name) > len(buf) {
		return false
	}
	return genericWords[string(lowerInto(buf[:0], name))]
}

// IsGeneric reports whether name is a generic word (bot, spider, crawler,
// robot, agent, fetcher, scraper, indexer, web, search, ...) that never
// names a bot by itself.
func IsGeneric(name string) bool {
	var buf [32]byte
	if len(name) > len(buf) {
		return false
	}
	_, ok := genericWords[string(lowerInto(buf[:0], name))]
	return ok
}

// frameworkTokens are crawler frameworks, HTTP libraries, command-line
// clients and automation tools (lower-cased): the agent only when no other
// name is present, and never a sign of an operator. The catalog adds the
// crawler-user-agents entries tagged http-library or browser-automation,
// and the ones other entries depend on.
var frameworkTokens = map[string]bool{
	"heritrix": true, "nutch": true, "scrapy": true, "python-requests": true,
	"python-urllib": true, "python-httpx": true, "aiohttp": true, "httpx": true,
	"curl": true, "libcurl": true, "pycurl": true, "wget": true, "go-http-client": true,
	"java": true, "okhttp": true, "apache-httpclient": true, "axios": true,
	"node-fetch": true, "undici": true, "got": true, "libwww-perl": true,
	"lwp-trivial": true, "guzzlehttp": true, "php": true, "ruby": true,
	"faraday": true, "httpie": true, "headlesschrome": true, "phantomjs": true,
	"puppeteer": true, "playwright": true, "selenium": true, "slimerjs": true,
	"zeno": true, "brozzler": true, "browsertrix": true, "browsertrix-crawler": true,
	"warcprox": true, "wpull": true, "lightpanda": true, "colly": true,
	"reqwest": true, "dart": true, "restsharp": true, "winhttp": true,
	"httpclient": true, "http.rb": true, "mechanize": true,
	"jakarta": true, "httrack": true, "crawler4j": true, "stormcrawler": true,
}

func isFramework(name string) bool {
	var buf [32]byte
	if len(name) > len(buf) {
		return false
	}
	return frameworkTokens[string(lowerInto(buf[:0], name))]
}

// crawlerStems are the parts of names that crawlers give themselves. A
// stem counts only at the end of a name or before '-', '.' or a digit
// ("Googlebot", "msnbot-media", "trendictionbot0.5", "Bytespider"), never
// before '_' or a letter ("CUBOT_P20" is a phone, "AgentWeb" a browser).
var crawlerStems = []string{
	"bot", "bots", "spider", "crawler", "crawl", "scraper", "fetcher", "fetch",
	"slurp", "archiver", "indexer", "checker", "monitor", "scanner",
	"validator", "externalhit", "preview", "agent", "robot", "inspector",
	"analyzer", "analyser", "detector", "extractor", "finder", "verifier",
	"research", "diagnostics", "measurement", "prerender", "transcoder",
	"screenshot", "harvester", "downloader", "collector", "aggregator",
	"synthetic", "synthetics", "observatory", "probe", "uptime", "audit",
	"tester",
}

// hasCrawlerStem reports whether name looks like a crawler's: it holds a
// crawler stem as described at crawlerStems, or ends in "-User" or a
// CamelCase "User" (Perplexity-User, PerplexityUser).
func hasCrawlerStem(name string) bool {
	if len(name) < 3 {
		return false
	}
	if strings.Contains(strings.ToLower(name), "browser") {
		// Browsers' names hold stems ("...BrowserAgent"); a name that
		// ends in a CamelCase "Bot" after the word ("QuokkaBrowserBot",
		// "BrowserQuokkaBot") calls itself a bot all the same.
		n := len(name)
		return n >= 10 && strings.HasSuffix(name, "Bot") && 'a' <= name[n-4] && name[n-4] <= 'z' && strings.Contains(strings.ToLower(name[:n-3]), "browser")
	}
	// A stem counts where it ends: at the end of the name or before
	// '-', '.' or a digit. Only those few places are tried.
	for j := len(name); j > 0; j-- {
		if j < len(name) && name[j] != '-' && name[j] != '.' && !isDigit(name[j]) {
			continue
		}
		last := name[j-1] | 0x20
		for _, st := range crawlerStems {
			if len(st) <= j && st[len(st)-1] == last && equalFoldASCII(name[j-len(st):j], st) {
				return true
			}
		}
	}
	if camelCrawler(name) {
		return true
	}
	if n := len(name); n > 5 && strings.HasSuffix(name, "User") && (name[n-5] == '-' || 'a' <= name[n-5] && name[n-5] <= 'z') {
		return true
	}
	if n := len(name); n > 5 && name[n-5] == '-' && equalFoldASCII(name[n-4:], "user") && hasLetter(name[:n-5]) {
		return true
	}
	return false
}

// camelCrawler reports whether a name opens with Crawler or Scraper
// and goes on in CamelCase ("CrawlerProcess", "ScraperJob"): words no
// browser, app or handset starts its name with ("Spider" is not one:
// "SpiderI" is a handset).
func camelCrawler(name string) bool {
	if len(name) < 9 || name[0] != 'C' && name[0] != 'S' || !(strings.HasPrefix(name, "Crawler") || strings.HasPrefix(name, "Scraper")) {
		return false
	}
	return 'A' <= name[7] && name[7] <= 'Z' && 'a' <= name[8] && name[8] <= 'z'
}

// goodName reports whether a word's name may name an agent at all.
func goodName(w *word) bool {
	return !w.link && !w.mentioned && len(w.name) >= 2 && len(w.name) <= maxTokenLen &&
		hasLetter(w.name) && !isBrowserToken(w.name)
}

// hasBrowse reports whether a name says it is a browser ("YaSearchBrowser",
// "IBrowse").
func hasBrowse(name string) bool {
	return indexFold(name, "browse") >= 0
}

// devicePrefixes start the first product of phones and TVs
// ("iPhone12Pro", "Nokia6300/2.0", "smarttv_AFTSO001...").
var devicePrefixes = []string{
	"iphone", "ipad", "ipod", "smarttv", "docomo", "nokia", "samsung", "sonyericsson",
	"blackberry", "lg", "mot-", "htc", "huawei", "zte", "alcatel", "lenovo", "sec-",
	"sie-", "sharp", "kddi", "softbank", "vodafone", "hbbtv",
	"pantech", "motorola", "kyocera", "kwc-", "audiovox", "amoi", "philips",
	"archos", "asus", "roku", "appletv", "sanyo", "sagem", "panasonic",
	"gt-", "sm-", "sgh-", "sch-", "sph-",
	"palm", "psion", "epoc", "ericsson", "j-phone", "sony",
}

// devicePrefix reports whether a name starts with a device prefix.
func devicePrefix(name string) bool {
	for _, d := range devicePrefixes {
		if hasPrefixFold(name, d) {
			return true
		}
	}
	return false
}

// buildFingerprint reports whether ua holds an Android build fingerprint
// ("brand/product/device:13/TQ3A/123:user/release-keys"), which apps
// report and bots do not.
func buildFingerprint(ua string) bool {
	return indexFold(ua, "/release-keys") >= 0 || indexFold(ua, "/test-keys") >= 0 || indexFold(ua, "/dev-keys") >= 0
}

// bundleID reports whether a name is an app's reverse-DNS identifier
// ("com.example.reader", "org.example.app.mobile"): a first label of two
// or three lower-case letters and at least two dots.
func bundleID(name string) bool {
	i := strings.IndexByte(name, '.')
	if i < 2 || i > 3 || strings.Count(name, ".") < 2 {
		return false
	}
	for k := 0; k < i; k++ {
		if name[k] < 'a' || name[k] > 'z' {
			return false
		}
	}
	return true
}

// guess is a bot name read from the words of a User-Agent without the
// catalog.
type guess struct {
	name      string
	framework bool
	start     int // byte offset of the name in the User-Agent
	end       int // end of the text that gave the name; 0 means start+len(name)
	rule      string
}

// span returns the text of ua that gave the name.
func (g guess) span(ua string) string {
	end := g.end
	if end == 0 {
		end = g.start + len(g.name)
	}
	if g.start < 0 || end > len(ua) || g.start > end {
		return g.name
	}
	return ua[g.start:end]
}

// guessName applies the rules for bots the catalog does not know (see
// BotToken) to the words of ua.
func guessName(ua string, ws []word, sh uaShape) guess {
	if g := guessWords(ua, ws, sh); g.name != "" {
		return g
	}
	for i := range ws {
		// "Quokka Spider/Nutch-1.19": a crawler built on a framework
		// that writes its version after a dash, when nothing else
		// names one.
		n := ws[i].name
		if !ws[i].verPart || n == "" || !isLetter(n[0]) {
			continue // the framework is given as the version: "Quokka/Nutch-1.19"
		}
		if p := dashVersioned(n); p != "" && isFramework(p) && !sh.handset && !ws[i].link && !ws[i].mentioned {
			return guess{name: p, framework: true, start: ws[i].nameStart, rule: RuleFramework}
		}
	}
	return guess{}
}

// guessWords applies the rules of guessName but the last.
func guessWords(ua string, ws []word, sh uaShape) guess {
	var fw guess
	hasLinkOrMail := false
	for i := range ws {
		w := &ws[i]
		if w.link {
			hasLinkOrMail = hasLinkOrMail || isContact(ua[w.start:w.end]) && !platformLink(ua, ws, i)
			continue
		}
		if !goodName(w) {
			continue
		}
		if isFramework(w.name) {
			if fw.name == "" && (versionFollows(ua, w) || i == 0) && !sh.handset && !deviceApp(ws) {
				fw = guess{name: w.name, framework: true, start: w.nameStart, rule: RuleFramework}
			}
			continue
		}
		if w.platform && !w.version && !((sh.pc || sh.desktop && sh.ie) && hasCrawlerStem(w.name)) {
			continue
		}
		if isCrawlerWord(w.name) {
			if n, s, e := fullName(ua, ws, i); n != "" && !deviceAgent(n, w.name) {
				return guess{name: n, start: s, end: e, rule: RuleFullName}
			}
			continue
		}
		if IsGeneric(w.name) {
			continue
		}
		if hasCrawlerStem(w.name) {
			return guess{name: w.name, start: w.nameStart, rule: RuleCrawlerStem}
		}
	}
	if sh.app || sh.platformFirst || sh.handset {
		// An Electron app names itself like a bot would; "(Android)(15)
		// (...)" is an app's report of its platform; a Java ME handset
		// puts its model and profiles anywhere.
		return fw
	}
	if g := headlessName(ua, ws); g.name != "" {
		return g
	}
	if g := shapeName(ua, ws); g.name != "" {
		return g
	}
	if g := platformTool(ua, ws, sh); g.name != "" {
		return g
	}
	if g := rvTool(ua, ws, sh); g.name != "" {
		return g
	}
	if g := qtAppName(ua, ws, sh); g.name != "" {
		return g
	}
	if g := appended(ua, ws, sh); g.name != "" {
		return g
	}
	if g := ieAppended(ua, ws, sh); g.name != "" {
		return g
	}
	if hasLinkOrMail {
		if g := contactName(ua, ws, sh); g.name != "" {
			return g
		}
	}
	if fw.name != "" {
		return fw
	}
	if g := nonBrowser(ua, ws, sh); g.name != "" {
		return g
	}
	if hasLinkOrMail && !namesBrowser(ws) {
		if g := contactHost(ua, ws, sh); g.name != "" {
			return g
		}
	}
	return desktopHost(ua, ws, sh)
}

// contactName names the bot of a header with a contact link or mail
// address ("(compatible; Name/1.0; +http://...)"): the first product or
// one-word element that is not a browser's.
func contactName(ua string, ws []word, sh uaShape) guess {
	for i := range ws {
		w := &ws[i]
		if !goodName(w) || w.platform || IsGeneric(w.name) || isFramework(w.name) || hasBrowse(w.name) || w.name != ua[w.nameStart:w.end] && !w.version {
			continue
		}
		if sh.ie && (!w.version || w.comment == 0 && i == 0) {
			// Internet Explorer's comment holds OEM and toolbar
			// tokens (SLCC2, GTB7.1, SV1): only a product with a
			// version names a bot there.
			continue
		}
		single := w.elemFirst && (i+1 == len(ws) || ws[i+1].elem != w.elem || ws[i+1].link)
		if w.version || single {
			return guess{name: w.name, start: w.nameStart, rule: RuleContactLink}
		}
	}
	return guess{}
}

// contactHost names a bot that gives no other name by the host its link
// or mail address points to. No browser sends a link or a mail address,
// but embedded Internet Explorer with an OEM's link (unless the link
// says it is a crawler's) and a browser that names itself one ("Quokka
// Browser/1.2 (http://quokka.example)", which the caller rules out).
func contactHost(ua string, ws []word, sh uaShape) guess {
	for i := range ws {
		if ws[i].link && (!sh.ie || crawlerLink(ua[ws[i].start:ws[i].end]) || ieContact(ua, ws, i)) {
			if h, at := linkHost(ua, &ws[i]); h != "" {
				return guess{name: h, start: at, rule: RuleLinkHost}
			}
		}
	}
	return guess{}
}

// ieContact reports whether the link ws[i] of an Internet Explorer
// shaped header is a bot's contact rather than an OEM's or a toolbar's:
// a mail address anywhere ("(compatible; MSIE 6.0; Windows NT 5.0)
// (quokka@wombat.example)"; toolbars give a home page, never a mail
// box), or a link that is an element of its own in the MSIE comment
// ("(compatible; MSIE 8.0; Windows NT 6.3; www.quokka.example)"), where
// toolbars write their name beside it ("Quokka Radio
// http://quokka.example").
func ieContact(ua string, ws []word, i int) bool {
	w := &ws[i]
	if strings.IndexByte(ua[w.start:w.end], '@') >= 0 {
		return true
	}
	if w.comment != 1 || !w.elemFirst || i+1 < len(ws) && ws[i+1].elem == w.elem {
		return false
	}
	// Its own parentheses inside the comment are a product's
	// ("Quokka 10.1 (www.quokka.example)").
	return w.start > 0 && ua[w.start-1] != '('
}

// linkHost returns the host name of a link or mail address word, without
// "www.": "+https://www.sitebulb.com/x" gives "sitebulb.com".
func linkHost(ua string, w *word) (string, int) {
	s, at := ua[w.start:w.end], w.start
	if i := strings.Index(s, "://"); i >= 0 {
		s, at = s[i+3:], at+i+3
	} else if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s, at = s[i+1:], at+i+1
	} else {
		for len(s) > 0 && !isTokenChar(s[0]) {
			s, at = s[1:], at+1
		}
	}
	if hasPrefixFold(s, "www.") {
		s, at = s[4:], at+4
	}
	end := 0
	for end < len(s) && (isTokenChar(s[end]) && s[end] != '!') {
		end++
	}
	h := strings.TrimRight(s[:end], ".-")
	if strings.IndexByte(h, '.') <= 0 || !hasLetter(h) || len(h) > maxNameLen || !lettersOnly(h[strings.LastIndexByte(h, '.')+1:]) {
		return "", 0
	}
	return h, at
}

// crawlerLink reports whether a link names a crawler
// ("http://example.com/bot.html", "http://archive.example").
func crawlerLink(l string) bool {
	for _, s := range [...]string{"bot", "crawl", "spider", "robot", "archiv"} {
		if indexFold(l, s) >= 0 {
			return true
		}
	}
	return false
}

// isContact reports whether a link word is one a bot gives for contact: a
// URL, or a mail address whose domain ends in a label of letters
// ("ops@example.com"); "ICS@ROM_04.06.2012" in a phone's build and
// "Domain/@carrier" are not.
func isContact(w string) bool {
	at := strings.LastIndexByte(w, '@')
	if at < 0 || w[0] == '+' || strings.Contains(w, "://") || hasPrefixFold(w, "www.") || hasPrefixFold(w, "http") {
		return true
	}
	d := w[at+1:]
	for k := 0; k < len(d); k++ {
		if !isTokenChar(d[k]) {
			d = d[:k]
			break
		}
	}
	d = strings.TrimRight(d, ".-")
	dot := strings.LastIndexByte(d, '.')
	return dot > 0 && dot+3 <= len(d) && lettersOnly(d[dot+1:])
}

// shapeName reads a bot's name from where only bots put one: the element
// right after "compatible" ("Mozilla/5.0 (compatible; Dormouse/1.0)";
// browsers put "MSIE 9.0" there), an element after "like Gecko" in the
// same comment ("(KHTML, like Gecko; Google-Assess)"), and the product
// after a Mozilla/x token in a User-Agent without any comment
// ("Mozilla/5.0 infrawatch/0.1": every browser has a platform comment).
func shapeName(ua string, ws []word) guess {
	noComment := strings.IndexByte(ua, '(') < 0
	for i := range ws {
		if tvWord(ws[i].name) {
			return guess{} // TV sets put their platform anywhere
		}
	}
	for i := range ws {
		w := &ws[i]
		if !goodName(w) || w.verPart || isFramework(w.name) || IsGeneric(w.name) || familyOf(w.name) {
			continue
		}
		if !w.version && w.name != ua[w.start:w.end] {
			continue
		}
		if w.oddFirst && !hasBrowse(w.name) && (w.version || oneElement(ua, w)) && !platformFollows(ws, i) && !screenIn(ws, w.comment) {
			return guess{name: w.name, start: w.nameStart, rule: RuleCommentSlot}
		}
		single := w.elemFirst && (i+1 == len(ws) || ws[i+1].elem != w.elem || ws[i+1].link || ws[i+1].verPart && (i+2 == len(ws) || ws[i+2].elem != w.elem))
		if !single && w.elemFirst && i > 0 {
			if g := slotElementName(ua, ws, i); g.name != "" {
				return g
			}
		}
		if !single || i == 0 {
			if noComment && i > 0 && ws[0].version && equalFoldASCII(ws[0].name, "Mozilla") && prevNamed(ws, i) == 0 && !devicePrefix(w.name) && !screenSize(w.name) {
				return guess{name: w.name, start: w.nameStart, rule: RuleMozillaProduct}
			}
			continue
		}
		// The previous element's words.
		j := i - 1
		for j >= 0 && ws[j].verPart {
			j--
		}
		if j < 0 || ws[j].elem == w.elem {
			continue
		}
		if equalFoldASCII(ws[j].name, "compatible") && ws[j].elemFirst && ws[j].end == ws[j].start+len("compatible") && !platformFollows(ws, i) && (w.version || !namesBrowser(ws)) {
			return guess{name: w.name, start: w.nameStart, rule: RuleCommentSlot}
		}
		if equalFoldASCII(ws[j].name, "Gecko") && ws[j].mentioned && !w.platform && w.comment != 0 && w.comment == ws[j].comment && !hasBrowse(w.name) &&
			!(len(w.name) <= 32 && isPlatformWord(w.name)) && !connectionWord(w.name) && !familyProduct(ws) && !hasSuffixFold(w.name, "WebKit") {
			return guess{name: w.name, start: w.nameStart, rule: RuleCommentSlot}
		}
	}
	return guess{}
}

// slotElementName names a tool by an element of several words where only
// bots put a name: right after "like Gecko" in the same comment
// ("(KHTML, like Gecko; Quokka Page Insights)") or right after
// "compatible" ("(compatible; Quokka Link Service)"); browsers put
// nothing after like Gecko and "MSIE 9.0" after compatible. The element
// is two to four plain words, none a platform's, a browser's or a
// handset brand's.
func slotElementName(ua string, ws []word, i int) guess {
	w := &ws[i]
	j := i - 1
	if w.comment == 0 || w.platform || ws[j].elem == w.elem || ws[j].comment != w.comment {
		return guess{}
	}
	gecko := ws[j].mentioned && equalFoldASCII(ws[j].name, "Gecko") && !familyProduct(ws)
	compatible := ws[j].elemFirst && equalFoldASCII(ws[j].name, "compatible") && ws[j].end == ws[j].start+len("compatible")
	if !gecko && !compatible {
		return guess{}
	}
	// A version may end the element in a browser-shaped header's
	// compatible slot; a handset's ("QK 7110 v0.13 (compatible;
	// Quokka Emulator 1.0)") names its emulator there.
	ext := compatible && ws[0].version && equalFoldASCII(ws[0].name, "Mozilla")
	end, last := i, -1
	for end < len(ws) && ws[end].elem == w.elem {
		n := ws[end].name
		if hasSuffixFold(n, "-like") {
			return guess{} // "quokka.example-like Wombat-Fetcher": a mention follows
		}
		if ext && end > i+1 && elemLast(ws, end) && ((numberWord(n) || dashedVersion(n)) && n == ua[ws[end].start:ws[end].end] || ws[end].verPart && ws[end-1].version) {
			// The tool's version ends the element: "Quokka Catalog/2.1",
			// "Quokka Mining Tool 1.0", "Quokka Tool Version-3.2-Build-1".
			end++
			continue
		}
		if ws[end].link || ws[end].version && !(ext && end > i && elemLast(ws, end+1)) || ws[end].verPart || !hasLetter(n) || isPlatformWord(n) || hasBrowse(n) ||
			!ws[end].version && n != ua[ws[end].start:ws[end].end] ||
			compatible && (!plainWord(n) || devicePrefix(n)) {
			return guess{}
		}
		last = end
		end++
	}
	if last-i > 3 || compatible && platformFollows(ws, end-1) {
		return guess{}
	}
	return guess{name: ua[w.nameStart : ws[last].nameStart+len(ws[last].name)], start: w.nameStart, end: ws[last].nameStart + len(ws[last].name), rule: RuleCommentSlot}
}

// dashedVersion reports whether a word is a version written
// "Version-3.2" (and on: "Version-3.2-Build-1").
func dashedVersion(n string) bool {
	return len(n) > 8 && hasPrefixFold(n, "Version-") && isDigit(n[8])
}

// plainWord reports whether a word is letters, with '-' or '.' inside
// ("Quokka-Link", "quokka.example").
func plainWord(n string) bool {
	for k := 0; k < len(n); k++ {
		if c := n[k]; !isLetter(c) && !((c == '-' || c == '.') && k > 0 && k < len(n)-1) {
			return false
		}
	}
	return n != ""
}

// elemLast reports whether ws[k] is the last word of its element.
func elemLast(ws []word, k int) bool {
	return k+1 >= len(ws) || ws[k+1].elem != ws[k].elem
}

// screenSize reports whether a word is a screen's size in pixels, as
// handsets give it ("240x320", "480X854", "240*320").
func screenSize(n string) bool {
	i := strings.IndexAny(n, "xX*")
	return i > 0 && digitsOnly(n[:i]) && digitsOnly(n[i+1:])
}

// screenIn reports whether a word of the header's comment number c (0:
// anywhere) is a screen's size: "(QK-716/1.0;U;Quokka/2.1;240*320)",
// "Wombat/1.0 [en] (v. 4.1; 153x130; g4)". Handhelds, phones and old
// browsers give it; bots do not.
func screenIn(ws []word, c int) bool {
	for i := range ws {
		if (c == 0 || ws[i].comment == c) && len(ws[i].name) >= 5 && isDigit(ws[i].name[0]) && screenSize(ws[i].name) {
			return true
		}
	}
	return false
}

// oneElement reports whether w is the whole of its comment:
// "Mozilla/5.0 (Mixnode) AppleWebKit/537.36".
func oneElement(ua string, w *word) bool {
	return w.start > 0 && ua[w.start-1] == '(' && w.end < len(ua) && ua[w.end] == ')' &&
		strings.ToUpper(w.name) != w.name
}

// prevNamed returns the index of the last word before ws[i] that is not a
// version part.
func prevNamed(ws []word, i int) int {
	j := i - 1
	for j > 0 && ws[j].verPart {
		j--
	}
	return j
}

// familyOf reports whether name is a browser family's.
func familyOf(name string) bool {
	var buf [32]byte
	return len(name) <= len(buf) && browserFamilies[string(lowerInto(buf[:0], name))]
}

// browserFamilies are first products of browsers that are not shaped like
// Mozilla's (lower-cased).
var browserFamilies = map[string]bool{
	"lynx": true, "links": true, "elinks": true, "w3m": true, "netsurf": true,
	"dillo": true, "icab": true, "konqueror": true, "midori": true, "epiphany": true,
	"seamonkey": true, "iceweasel": true, "galeon": true, "k-meleon": true,
	"camino": true, "omniweb": true, "ucweb": true, "uc": true, "openwave": true,
	"netfront": true, "obigo": true, "blazer": true, "minimo": true, "fennec": true,
	"maxthon": true, "puffin": true, "teleca": true, "polaris": true, "dolfin": true,
	"bolt": true, "skyfire": true, "teashark": true, "iron": true, "amaya": true,
	"arora": true, "qupzilla": true, "falkon": true, "qutebrowser": true,
	"palemoon": true, "waterfox": true, "brave": true, "mobilesafari": true,
	"rekonq": true, "flock": true, "sleipnir": true, "avant": true,
	// The first browsers (CERN's WorldWideWeb and Line Mode Browser),
	// the Sega Dreamcast's (DreamPassport, DreamKey, Planetweb),
	// embedded and handheld ones (AVE-Front, ANT Fresco, WinWAP) and a
	// Firefox for PowerPC Macs (TenFourFox): they write a lone product
	// or put it first in the comment, where a bot's name stands.
	"worldwideweb": true, "cern-linemode": true, "dreampassport": true, "dreamkey": true,
	"planetweb": true, "avefront": true, "ave-front": true, "antfresco": true,
	"winwap": true, "tenfourfox": true,
}

// deviceWords are words of phone, TV and console User-Agents that are not
// Mozilla-shaped ("Nokia6300/2.0 (05.50) Profile/MIDP-2.0
// Configuration/CLDC-1.1"): with one of them a User-Agent is a device's.
var deviceWords = []string{
	"midp", "cldc", "profile", "configuration", "up.browser", "up.link", "browser",
	"mobile", "android", "iphone", "ipad", "ios", "darwin", "cfnetwork", "symbian",
	"symbianos", "series60", "series40", "blackberry", "windows", "linux", "mac",
	"macintosh", "safari", "gecko", "applewebkit", "trident", "presto", "tizen",
	"kaios", "webos", "bada", "brew", "smarttv", "smart-tv", "hbbtv", "tv", "playstation",
	"nintendo", "xbox", "vendorid", "java", "j2me", "wap", "opera", "mmp",
	"model", "manufacturer", "device", "device_model", "build",
}

// systemWords name an operating system of desktops, phones and
// consoles (lower-cased) that a product's comment may start with:
// "Quokka/3.2 (AmigaOS/68k)" is an app of that system's.
var systemWords = map[string]bool{
	"x11": true, "wince": true, "amigaos": true, "morphos": true, "beos": true,
	"haiku": true, "riscos": true, "symbianos": true, "series60": true,
	"series40": true, "webos": true, "kaios": true, "bada": true, "palmos": true,
	"tvos": true, "watchos": true, "ipados": true, "visionos": true,
}

// nonBrowser names a client whose User-Agent is not a browser's or a
// device's: its first product ("Spotify/1.0", "collectd/5.5.1"). A
// User-Agent that starts with a browser's product, names a known browser
// family, or holds a device word (MIDP, CLDC, Profile, Mobile, Android,
// Linux, Windows, ...) is a browser's or device's.
func nonBrowser(ua string, ws []word, sh uaShape) guess {
	if len(ws) == 0 || ua[0] == '[' || sh.handset || featurePhone(ua, ws) || appOnPlatform(ws[0].name) {
		// "[FBAN/...;FBAV/...]": an app's key/value pairs.
		return guess{}
	}
	if g := shellAfter(ua, ws, sh); g.name != "" {
		return g
	}
	w := &ws[0]
	if w.comment != 0 || w.link || w.name == "" || !hasLetter(w.name) || isBrowserToken(w.name) || len(w.name) < 2 || IsGeneric(w.name) {
		return guess{}
	}
	if hasPrefixFold(w.name, "Mozilla") {
		return guess{} // a browser's header with its punctuation lost: "MOZILLA40 (COMPATIBLE MSIE 50 ..."
	}
	if !w.version && w.name != ua[w.start:w.end] {
		return guess{}
	}
	var buf [32]byte
	if len(w.name) <= len(buf) && browserFamilies[string(lowerInto(buf[:0], w.name))] {
		return guess{}
	}
	if devicePrefix(w.name) || bundleID(w.name) || buildFingerprint(ua) || modelIdentifier(ua, w) {
		return guess{}
	}
	program := runtimeProduct(ws) || programMeta(ua, ws)
	for i := range ws {
		if hasBrowse(ws[i].name) || browserWord(ws, i) || i > 0 && ws[i].version && ws[i].comment == 0 && familyOf(ws[i].name) {
			return guess{} // "Quokka-w3m/1.4 w3m/0.5": a browser family's product after the first
		}
		n := ws[i].name
		if len(n) > len(buf) || ws[i].link {
			continue
		}
		if indexFold(n, "android") >= 0 {
			return guess{} // "Android_SDK", "X-Android"
		}
		if len(n) >= 5 && isDigit(n[0]) && screenSize(n) {
			return guess{} // "Quokka/1.0 [en] (v. 4.1; 153x130)": a handheld's screen
		}
		if deviceVersion(&ws[i]) || i > 0 && len(n) > 6 && hasSuffixFold(n, "webkit") || i > 0 && modelIdentifier(ua, &ws[i]) || cpuReport(ua, &ws[i]) {
			// "Quokka 2.0 WAP1.1", "QK-716/REV 2.1/Teleca Q03", "QuokkaTV
			// qkwebkit 537", "quokkad [Watch OS,8.4,Watch3,4]", "(cpu=IA32;os=...)"
			return guess{}
		}
		if program {
			continue // "Quokka/1.2 Python/3.11 Linux/6.1": a program's system
		}
		l := lowerInto(buf[:0], n)
		// "cfnetwork" and "darwin" are device words: "Quokka/2
		// CFNetwork/1400 Darwin/22.0" is an iOS or macOS app's.
		for _, d := range deviceWords {
			if string(l) == d {
				return guess{}
			}
		}
		if tvWord(n) || connectionWord(n) {
			return guess{} // "QK-TV/1.0 Espial/6.5", "Quokka/1.0 (Wombat Fiber, QK100, wired)"
		}
		if i > 0 && ws[i].version && ws[i].comment == 0 && devicePrefix(n) {
			return guess{} // "QK900i DoCoMo/2.0 ...": a handset names its carrier or brand
		}
		if i > 0 && ws[i].elemFirst && (devicePrefix(n) || systemWords[string(l)]) {
			return guess{} // "Quokka/2.1 (AmigaOS/68k)", "Quokka;2.1;HTC;...": a device's or system's
		}
	}
	return guess{name: w.name, start: w.nameStart, rule: RuleProduct}
}

// modelIdentifier reports whether a word is an Apple machine identifier,
// a name, digits, a comma and digits ("Watch4,3", "QuokkaPad7,11"), as
// system daemons and apps on those devices put first.
func modelIdentifier(ua string, w *word) bool {
	n, e := w.name, w.nameStart+len(w.name)
	if n == "" || !isDigit(n[len(n)-1]) || !isLetter(n[0]) || e+1 >= len(ua) || ua[e] != ',' || !isDigit(ua[e+1]) {
		return false
	}
	k := len(n) - 1
	for k > 0 && isDigit(n[k]) {
		k--
	}
	return lettersOnly(n[:k+1])
}

// dashVersioned returns the name part of a name that carries its version
// after a dash ("Nutch-1.19-SNAPSHOT" gives "Nutch"), or "".
func dashVersioned(n string) string {
	i := strings.IndexByte(n, '-')
	if i < 2 || i+1 >= len(n) || !isDigit(n[i+1]) {
		return ""
	}
	return n[:i]
}

// runtimes are language runtimes that programs and libraries name after
// their own product (lower-cased): "Quokka/1.2 Python/3.11 Linux/6.1",
// "quokka-cli/6.1 node/v18.0.0 linux x64". Java is not one: handsets
// name their Java runtime.
var runtimes = map[string]bool{
	"python": true, "cpython": true, "node": true, "node.js": true, "nodejs": true,
	"ruby": true, "perl": true, "go": true,
}

// runtimeProduct reports whether a top-level product after the first
// names a language runtime with a version that starts with a digit (or
// "v" and a digit), or a comment names one before its version, as
// libraries report the runtime they run on ("Quokka/1.4 (Node.js
// v18.14.2; linux x64)"); no browser or device names one.
func runtimeProduct(ws []word) bool {
	var buf [8]byte
	for i := 1; i+1 < len(ws); i++ {
		w := &ws[i]
		if !w.version && (w.comment == 0 || ws[i+1].elem != w.elem) || len(w.name) > len(buf) || !runtimes[string(lowerInto(buf[:0], w.name))] {
			continue
		}
		v := ws[i+1].name
		if v != "" && (isDigit(v[0]) || len(v) > 1 && v[0] == 'v' && isDigit(v[1])) {
			return true
		}
	}
	return false
}

// goSystems and goArchs are the operating systems and CPU architectures
// of Go's GOOS/GOARCH build targets (the Go toolchain's "go tool dist
// list"), lower-cased, as programs built with Go report them
// ("(linux/amd64)", "linux amd64"). "x64" and "x86_64" are not among
// the architectures: browsers write those in their platform comments.
var (
	goSystems = map[string]bool{"linux": true, "darwin": true, "windows": true, "freebsd": true, "openbsd": true, "netbsd": true}
	goArchs   = map[string]bool{"amd64": true, "arm64": true, "386": true, "arm": true, "ppc64le": true, "s390x": true, "riscv64": true, "aarch64": true}
)

// programMeta reports whether a header carries a program's build or SDK
// metadata, which no browser or device sends: a JSON object (pip's
// "pip/21.0 {"ci":null,...}"), an operating system and CPU
// architecture in Go's GOOS/GOARCH notation ("(linux/amd64)", "linux
// amd64"), an architecture standing alone as an element of a comment
// ("(Linux;6.1.0-generic;amd64)"), a Go toolchain version
// ("go/go1.21.0"), or the "lang/" and "arch/" pairs of the AWS SDKs'
// User-Agent format ("lang/python#3.11", AWS SDKs and Tools Reference
// Guide, "User agent").
func programMeta(ua string, ws []word) bool {
	if strings.Contains(ua, "{\"") {
		return true
	}
	var buf, buf2 [8]byte
	for i := 1; i < len(ws); i++ {
		w := &ws[i]
		if len(w.name) > len(buf) {
			continue
		}
		l := lowerInto(buf[:0], w.name)
		if w.comment != 0 && w.elemFirst && elemLast(ws, i) &&
			(string(l) == "amd64" || string(l) == "arm64" || string(l) == "aarch64") {
			return true
		}
		if i+1 == len(ws) || len(ws[i+1].name) > len(buf2) {
			continue
		}
		next := &ws[i+1]
		switch {
		case w.version && string(l) == "lang" && next.verPart && next.name != "" && isLetter(next.name[0]):
			return true // "lang/python#3.11", not a handset's "lang/3"
		case w.version && string(l) == "go" && len(next.name) > 2 && hasPrefixFold(next.name, "go") && isDigit(next.name[2]):
			return true
		case (string(l) == "arch" || goSystems[string(l)]) && (w.version && next.verPart || w.comment == 0 && !w.version && next.comment == 0 && !next.verPart):
			if goArchs[string(lowerInto(buf2[:0], next.name))] {
				return true
			}
		}
	}
	return false
}

// deviceAgent reports whether a full name built around the generic word
// g is a handset's software ("Quokkaphone Self-Update Agent" of a
// Samsung, "HTC Agent"): "agent" after a handset brand. Browsers and
// apps call themselves agents too; crawlers after a brand say bot,
// spider or crawler.
func deviceAgent(name, g string) bool {
	return (equalFoldASCII(g, "agent") || equalFoldASCII(g, "user-agent") || equalFoldASCII(g, "useragent")) && devicePrefix(name)
}

// numberWord reports whether a word is a version number: digits and
// inner dots ("6.0", "2024").
func numberWord(n string) bool {
	if n == "" || !isDigit(n[0]) || !isDigit(n[len(n)-1]) {
		return false
	}
	for i := 0; i < len(n); i++ {
		if !isDigit(n[i]) && n[i] != '.' {
			return false
		}
	}
	return true
}

// fullName builds the name around the generic word ws[i] ("Spider" of
// "Sogou News Spider/4.0"): the words before it in its element, back to a
// product with a version, a link or the element's start, at most four
// words in all. It returns "" when no other word is there.
func fullName(ua string, ws []word, i int) (name string, start, end int) {
	if ws[i].nameStart != ws[i].start {
		return "", 0, 0 // `A "Bot`: punctuation parts the words
	}
	j := i
	for j > 0 && i-j+1 < maxNameWord {
		p := &ws[j-1]
		// A version number between words belongs to the name when a
		// word comes before it: "Quokka Search 6.0 Robot".
		num := !hasLetter(p.name) && numberWord(p.name) && j > 1 && hasLetter(ws[j-2].name) && ws[j-2].elem == p.elem
		// So does a lone dash right before the word in a comment, when
		// nothing else would name the client: "(Quokka Search - spider
		// 1.0)"; at the top level the product before it names one.
		dash := j == i && ws[i].comment != 0 && ua[p.start:p.end] == "-" && j > 1 && hasLetter(ws[j-2].name) && ws[j-2].elem == p.elem && !ws[j-2].version && !ws[j-2].verPart
		if dash {
			j--
			continue
		}
		if p.elem != ws[i].elem || p.link || p.version || p.verPart || !hasLetter(p.name) && !num || p.mentioned || p.name == "" ||
			p.name != ua[p.start:p.end] || isBrowserToken(p.name) {
			break
		}
		j--
	}
	for j < i && !hasLetter(ws[j].name) {
		j++
	}
	if j == i {
		return "", 0, 0
	}
	allGeneric := true
	for k := j; k < i; k++ {
		if !IsGeneric(ws[k].name) && hasLetter(ws[k].name) {
			allGeneric = false
		}
	}
	if allGeneric {
		return "", 0, 0
	}
	start, end = ws[j].nameStart, ws[i].nameStart+len(ws[i].name)
	if end-start > maxNameLen {
		return "", 0, 0
	}
	// Collapse runs of spaces: the name is the words joined by one space.
	s := ua[start:end]
	if !strings.Contains(s, "  ") && !strings.ContainsAny(s, "\t+%") {
		return s, start, end
	}
	var sb strings.Builder
	for k := j; k <= i; k++ {
		if k > j {
			sb.WriteByte(' ')
		}
		sb.WriteString(ws[k].name)
	}
	return sb.String(), start, end
}

// BotToken names a bot the catalog does not know from its User-Agent, or
// returns "" for a browser. The rules, in order (docs/semantics.md, "Bot
// identification"):
//
//   - words of links, mail addresses and "www." hosts never count, nor a
//     word that follows "like", "treat like", "compatible with" or
//     "similar to" (FreshRSS "like Googlebot" is not Googlebot);
//   - a name that holds a crawler stem (bot, spider, crawler, fetcher,
//     scraper, slurp, indexer, checker, monitor, scanner, validator,
//     preview, agent, "-User", ...) at its end or before '-', '.', a digit
//     or a capital letter is the agent ("Googlebot", "coccocbot-web");
//     the stem must stand there, so "CUBOT_P20" is not a bot;
//   - a bare generic word (bot, spider, crawler, robot, agent, fetcher,
//     ...) never names a bot: the words before it in its element make the
//     full name ("Kangaroo Bot", "SISTRIX Crawler", "Sogou News Spider");
//   - in a User-Agent with a contact link or mail address ("(compatible;
//     Name/1.0; +http://...)"), the first product or one-word element
//     that is not a browser's is a bot's name;
//   - the platform comment of a browser-shaped User-Agent ("Mozilla/5.0
//     (Linux; Android 8.0.0; CUBOT_P20)") names a device, so only a
//     "Name/version" word there can name a bot;
//   - crawler frameworks and HTTP clients (heritrix, Nutch, Scrapy,
//     python-requests, curl, wget, Go-http-client, HeadlessChrome, ...) are
//     the agent only when nothing else names one.
//
// Only the first 4096 bytes of ua are read.
func BotToken(ua string) string {
	var arr [maxWords]word
	ws := scanWords(ua, arr[:0])
	return guessName(ua, ws, readShape(ws)).name
}

// Names returns the names a User-Agent gives its client, in order, as
// candidates for robots.txt group selection: every product or one-word
// comment element that is not a browser's or platform's, generic words
// replaced by their full names, without links, mail addresses and words
// that follow "like" (see BotToken). Frameworks come last.
func Names(ua string) []string {
	var arr [maxWords]word
	ws := scanWords(ua, arr[:0])
	var out, fws []string
	seen := map[string]bool{}
	add := func(n string, fw bool) {
		k := strings.ToLower(n)
		if n == "" || seen[k] || len(out)+len(fws) >= maxUATokens {
			return
		}
		seen[k] = true
		if fw {
			fws = append(fws, n)
		} else {
			out = append(out, n)
		}
	}
	for i := range ws {
		w := &ws[i]
		if !goodName(w) || w.platform {
			continue
		}
		if isCrawlerWord(w.name) {
			n, _, _ := fullName(ua, ws, i)
			add(n, false)
			continue
		}
		if IsGeneric(w.name) {
			continue
		}
		single := w.elemFirst && (i+1 == len(ws) || ws[i+1].elem != w.elem || ws[i+1].link)
		if w.version || single || hasCrawlerStem(w.name) {
			add(w.name, isFramework(w.name))
		}
	}
	return append(out, fws...)
}

// hasSuffixFold reports whether s ends with suffix, ASCII case-insensitively.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && equalFoldASCII(s[len(s)-len(suffix):], suffix)
}

// deviceVersion reports whether a word says a handset's software: the
// WAP version handsets give ("WAP1.1", "WAP2.0"), a browser family's
// name given as a product's version ("QK-716/REV 2.1/Teleca Q03",
// "quokka-vm/UCWEB8.2.0/70"), as phones write their browser, or a
// handset brand and a dash opening a version part.
func deviceVersion(w *word) bool {
	n := w.name
	if len(n) > 3 && hasPrefixFold(n, "WAP") && isDigit(n[3]) {
		return true
	}
	if !w.verPart {
		return false
	}
	k := 0
	for k < len(n) && isLetter(n[k]) {
		k++
	}
	// A handset brand opening a version part ("Quokka/HTC-Kaiser",
	// "Wombat /samsung-2.3.6-QK-I9050-800x480") names the device.
	return k >= 4 && familyOf(n[:k]) || k >= 3 && k < len(n) && n[k] == '-' && devicePrefix(n)
}

// platformLink reports whether the link ws[i] stands in a comment that
// opens with a system's name after the first product ("Quokka/12.0
// (Windows NT 6.1; WOW64; http://quokka.example)", "(iOS; 11.0;
// http://...)"): an app's home page beside its platform, not a bot's
// contact. Bots put their link beside their name ("(compatible;
// Name/1.0; +http://...)") or on its own, and in a browser's platform
// comment ("Mozilla/5.0 (X11; Linux x86_64; Quokka http://...)"), which
// does not count here.
func platformLink(ua string, ws []word, i int) bool {
	c := ws[i].comment
	if c == 0 || strings.IndexByte(ua[ws[i].start:ws[i].end], '@') >= 0 {
		return false // a mail address is a contact wherever it stands
	}
	k := i
	for k > 0 && ws[k-1].comment == c {
		k--
	}
	f := &ws[k]
	if k == 0 || isBrowserToken(ws[0].name) || f.start == 0 || ua[f.start-1] != '(' || f.link || !hasLetter(f.name) || equalFoldASCII(f.name, "compatible") || len(f.name) < 3 {
		return false
	}
	var buf [32]byte
	if len(f.name) > len(buf) {
		return false
	}
	l := string(lowerInto(buf[:0], f.name))
	return strings.HasPrefix(l, "windows") || systemWords[l] || l == "ios"
}

// cpuReport reports whether a word is a "cpu=" pair in a comment, as
// media players and handhelds report their processor ("Quokka/7.6
// (qkver=7.6;cpu=IA32;os=Mac 10.5.8)", "(... CPU=M32R; Storage=NO)"),
// or a "hw=" pair, as games on phones report their hardware ("Quokka
// Empire/1.80 cv=180011 hw=QUOKKA QK371").
func cpuReport(ua string, w *word) bool {
	e := w.nameStart + len(w.name)
	if e >= len(ua) || ua[e] != '=' {
		return false
	}
	return w.comment != 0 && w.elemFirst && equalFoldASCII(w.name, "cpu") || equalFoldASCII(w.name, "hw")
}
