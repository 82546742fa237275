package bots

import "strings"

// Identity is what a User-Agent header says about its client.
type Identity struct {
	// Agent is the agent's product token: the catalog bot's Token, or the
	// name BotToken reads for a bot the catalog does not know; "" for a
	// browser.
	Agent string
	// Bot is the catalog entry; nil for a bot the catalog does not know
	// (whose operator is then unknown) and for a browser.
	Bot *Bot
	// Matched is the text of the User-Agent that named the agent.
	Matched string
	// Framework is true when the agent is a crawler framework, HTTP
	// library or automation tool (no other name was present).
	Framework bool
	// Rule is the rule that named the agent (one of the Rule constants);
	// "" for a browser.
	Rule string
}

// The rules IdentifyUA names an agent by (Identity.Rule), as
// docs/semantics.md, "Bot identification", states them.
const (
	// RuleCatalog: a catalog bot's pattern stands in the User-Agent.
	RuleCatalog = "catalog-literal"
	// RuleCrawlerStem: a product whose name holds a crawler stem
	// ("Kangaroobot/1.0", "site-checker").
	RuleCrawlerStem = "crawler-stem"
	// RuleFullName: the words before a generic crawler word ("Sogou News
	// Spider").
	RuleFullName = "generic-word-full-name"
	// RuleCommentSlot: a name where only bots put one: the element after
	// "compatible", after "like Gecko", or a first comment that is no
	// platform.
	RuleCommentSlot = "comment-slot"
	// RuleMozillaProduct: the product after Mozilla/x in a User-Agent
	// without a platform comment.
	RuleMozillaProduct = "mozilla-product"
	// RuleContactLink: the first product of a User-Agent with a contact
	// link or mail address.
	RuleContactLink = "contact-link"
	// RuleProduct: the first product of a User-Agent that is no
	// browser's or device's ("collectd/5.5.1").
	RuleProduct = "generic-product-token"
	// RuleLinkHost: the host of the only link a bot gives.
	RuleLinkHost = "link-host"
	// RuleFramework: a crawler framework or HTTP library, named when
	// nothing else is.
	RuleFramework = "framework"
	// RuleUnnamed: a generic crawler word ("bot", "Spider/1.0") with no
	// name of its own, when nothing else names the agent: Unnamed.
	RuleUnnamed = "generic-word-unnamed"
)

// Identify returns the catalog bot a User-Agent names, as IdentifyUA
// decides; false when IdentifyUA finds none (a browser, or a bot the
// catalog does not know). Identify does not allocate.
func (c *Catalog) Identify(ua string) (*Bot, bool) {
	id := c.IdentifyUA(ua)
	return id.Bot, id.Bot != nil
}

// IdentifyUA says who a User-Agent header names (docs/semantics.md, "Bot
// identification"). In order:
//
//  1. a catalog bot one of whose patterns stands in ua as whole words,
//     outside links and mail addresses and not after "like", "treat
//     like", "compatible with" or "similar to"; when several match, the
//     longest pattern wins, then the first in ua, except that a pattern
//     without a version inside a comment yields to a product with one
//     (outranks); frameworks only when no other bot matches;
//  2. else a bot the catalog does not know, named by BotToken's rules;
//  3. else a catalog framework, then a framework BotToken knows.
//
// A User-Agent with none of these is a browser's: the zero Identity. Only
// the first 4096 bytes of ua are read. IdentifyUA does not allocate for
// headers whose names are single words.
func (c *Catalog) IdentifyUA(ua string) Identity {
	if ua == "" {
		return Identity{}
	}
	var arr [maxWords]word
	ws := scanWords(ua, arr[:0])
	var best, bestFW *pattern
	var at, atFW int
	if c != nil {
		best, at, bestFW, atFW = c.match(ua, ws)
	}
	if best != nil && deviceReport(ws) {
		// "Quokka/2.11 Android/4.2 Device/QK-716": an app on a handset
		// reports it; a bot that fetches for that app does not.
		best = nil
	}
	if best != nil {
		return Identity{Agent: best.bot.Token, Bot: best.bot, Matched: matchedText(ua[at : at+len(best.lit)]), Rule: RuleCatalog}
	}
	sh := readShape(ws)
	if sh.handset || bestFW != nil && deviceApp(ws) {
		// Java ME handsets name their Java runtime ("Java/HWJa/1.0
		// Profile/MIDP-2.0"), apps on a device their HTTP library: no
		// agent.
		bestFW = nil
	}
	g := guessName(ua, ws, sh)
	if g.name != "" && !g.framework && (bestFW == nil || !strings.EqualFold(g.name, bestFW.bot.Token) && g.start != atFW) {
		return Identity{Agent: g.name, Matched: g.span(ua), Rule: g.rule}
	}
	if bestFW != nil {
		return Identity{Agent: bestFW.bot.Token, Bot: bestFW.bot, Matched: matchedText(ua[atFW : atFW+len(bestFW.lit)]), Framework: true, Rule: RuleFramework}
	}
	if g.name != "" {
		return Identity{Agent: g.name, Matched: g.span(ua), Framework: true, Rule: RuleFramework}
	}
	if at, end := bareCrawlerWord(ua, ws, sh); end > 0 {
		return Identity{Agent: Unnamed, Matched: ua[at:end], Rule: RuleUnnamed}
	}
	return Identity{}
}

// Unnamed is the agent of a header that says it is a crawler but gives
// no name of its own ("bot", "Mozilla/5.0 (compatible; Robot/1.3)").
const Unnamed = "(unnamed)"

// unnamedWord reports whether name is one of the generic words that make
// a header a crawler's even without a name: bot, spider, crawler, robot,
// scraper, fetch, fetcher, indexer, harvester (and plurals); not "agent"
// or "preview", which browsers and apps use too. It runs for every word
// of a browser's header, so it compares, never hashes.
func unnamedWord(name string) bool {
	if n := len(name); n < 3 || n > 9 {
		return false
	}
	n := strings.TrimSuffix(strings.TrimSuffix(name, "s"), "S")
	switch name[0] | 0x20 {
	case 'b':
		return equalFoldASCII(n, "bot")
	case 's':
		return equalFoldASCII(n, "spider") || equalFoldASCII(n, "scraper")
	case 'c':
		return equalFoldASCII(n, "crawler")
	case 'r':
		return equalFoldASCII(n, "robot")
	case 'f':
		return equalFoldASCII(name, "fetch") || equalFoldASCII(n, "fetcher")
	case 'i':
		return equalFoldASCII(name, "indexer")
	case 'h':
		return equalFoldASCII(name, "harvester")
	}
	return false
}

// bareCrawlerWord finds a generic crawler word that stands for the
// client: a product or a comment element of its own, outside a browser's
// platform comment, links and mentions ("not a bot").
func bareCrawlerWord(ua string, ws []word, sh uaShape) (start, end int) {
	if sh.handset {
		return 0, 0
	}
	for i := range ws {
		w := &ws[i]
		if w.platform || w.verPart || !unnamedWord(w.name) || !goodName(w) {
			continue
		}
		if w.version || w.elemFirst || i == 0 || w.comment == 0 {
			return w.nameStart, w.nameStart + len(w.name)
		}
	}
	return 0, 0
}

// match finds the best pattern match among non-framework bots and among
// frameworks.
func (c *Catalog) match(ua string, ws []word) (best *pattern, at int, fw *pattern, atFW int) {
	if len(ua) > maxUALen {
		ua = ua[:maxUALen]
	}
	var buf [64]byte
	var bestVer, bestWeak bool // best names a product with a version; an unversioned one inside a comment
	for i := range ws {
		w := &ws[i]
		n := len(w.name)
		if w.link || w.mentioned || n == 0 || n > c.maxKey || n > len(buf) {
			continue
		}
		key := w.name
		if k := strings.IndexAny(key, ":\\"); k > 0 {
			key = key[:k] // catalog keys are runs of token characters
		}
		ps := c.byKey[string(lowerInto(buf[:0], key))]
		for _, p := range ps {
			if p.anchored && (i != 0 || w.nameStart != w.start || !startOnly(ua, w.start)) {
				continue
			}
			s := w.nameStart
			spaced := spacedVersion(ua, s, p.lit)
			if !spaced && !hasPrefixFold(ua[s:], p.lit) {
				continue
			}
			if e := s + len(p.lit); e < len(ua) && isTokenChar(p.lit[len(p.lit)-1]) && isTokenChar(ua[e]) {
				continue
			}
			if p.re != nil && !p.re.MatchString(ua) {
				continue
			}
			// A device model in a browser's platform comment ("Linux;
			// Android 5.1; DART KZ07") and a library's name without a
			// version ("UCWEB/2.0 (Java; U; MIDP-2.0)") name no bot.
			if w.platform && !w.version && !spaced && !hasCrawlerStem(w.name) || p.bot.Framework && i != 0 && !versionFollows(ua, w) {
				continue
			}
			// A model after its brand ("HTC Quokka; 4.1.1") is a handset's.
			if !w.version && i > 0 && ws[i-1].elem == w.elem && !hasCrawlerStem(w.name) && devicePrefix(ws[i-1].name) {
				continue
			}
			if p.bot.Framework {
				if fw == nil || len(p.lit) > len(fw.lit) {
					fw, atFW = p, s
				}
			} else if ver := versionedAt(ua, s, p.lit); best == nil || outranks(ver, !ver && w.comment > 0, len(p.lit), bestVer, bestWeak, len(best.lit)) {
				best, at, bestVer, bestWeak = p, s, ver, !ver && w.comment > 0
			}
			break // longest first: the rest are shorter
		}
	}
	return best, at, fw, atFW
}

// outranks reports whether a catalog pattern found in a User-Agent
// beats the best one so far. A pattern standing without a version
// inside a comment yields to a product with a version elsewhere: "(KHTML,
// like Gecko; Google Web Preview Analytics) ... (compatible;
// Googlebot/2.1; +http://www.google.com/bot.html)" is Googlebot, whose
// token the client declares. Otherwise the longer pattern wins
// ("AdsBot-Google-Mobile" over "AdsBot-Google"), then the first.
func outranks(ver, weak bool, n int, bestVer, bestWeak bool, bestN int) bool {
	switch {
	case bestWeak && ver:
		return true
	case weak && bestVer:
		return false
	}
	return n > bestN
}

// spacedVersion reports whether a product pattern ("PTST/") stands at
// ua[s:] in the old comment grammar: its version after a space, ending
// an element of a comment ("(compatible; MSIE 8.0; Windows NT 6.1;
// PTST 2.295)"), as Internet Explorer writes its own and add-ons write
// theirs. A handset's model goes on ("RED 30 Build/QP1A"): no product.
func spacedVersion(ua string, s int, lit string) bool {
	name, ok := strings.CutSuffix(lit, "/")
	e := s + len(name)
	if !ok || e+1 >= len(ua) || ua[e] != ' ' || !isDigit(ua[e+1]) || !hasPrefixFold(ua[s:], name) ||
		strings.LastIndexByte(ua[:s], '(') <= strings.LastIndexByte(ua[:s], ')') {
		return false
	}
	v := e + 1
	for v < len(ua) && (isDigit(ua[v]) || ua[v] == '.') {
		v++
	}
	return v < len(ua) && (ua[v] == ';' || ua[v] == ')')
}

// versionedAt reports whether the pattern lit, found at ua[s:], names a
// product with a version: "Googlebot/", or "NAVER Blog Rssbot" followed
// by "/".
func versionedAt(ua string, s int, lit string) bool {
	e := s + len(lit)
	return strings.HasSuffix(lit, "/") || e < len(ua) && ua[e] == '/'
}

// versionFollows reports whether w is a product whose version starts
// with a digit, as a library's does ("Java/1.8.0_402"); a handset's
// "Java/ASVM/1.1" names its Java runtime, not an HTTP library.
func versionFollows(ua string, w *word) bool {
	return w.version && w.end+1 < len(ua) && isDigit(ua[w.end+1])
}

// deviceReport reports whether a header names its handset in a
// top-level "Device/..." or "Model/..." product after the first, as apps
// on phones do.
func deviceReport(ws []word) bool {
	for i := 1; i < len(ws); i++ {
		if w := &ws[i]; w.comment == 0 && w.version && (equalFoldASCII(w.name, "Device") || equalFoldASCII(w.name, "Model")) {
			return true
		}
	}
	return false
}

// startOnly reports whether only white space comes before ua[i].
func startOnly(ua string, i int) bool {
	for j := 0; j < i; j++ {
		if !isUASpace(ua[j]) {
			return false
		}
	}
	return true
}

// matchedText drops the punctuation a crawler-user-agents pattern ends
// with ("Googlebot/", "Odin;") from the matched text.
func matchedText(s string) string {
	return strings.TrimRight(s, " /;:,()")
}
