package bots

import (
	"regexp"
	"sort"
	"strings"
)

// Categories a bot can have. "" means unknown (an entry loaded from a file
// that does not say).
const (
	CategoryAITraining  = "ai-training"  // collects content to train models
	CategoryAISearch    = "ai-search"    // indexes content for AI search or answer engines
	CategoryAIAssistant = "ai-assistant" // fetches on behalf of a user of an AI assistant or agent
	CategorySearch      = "search"       // classic search engine crawler
	CategoryArchiver    = "archiver"     // web archive
	CategorySEO         = "seo"          // SEO and marketing tools
	CategoryMonitor     = "monitor"      // uptime, performance and security monitors, scanners
	CategoryFeed        = "feed"         // feed readers and aggregators
	CategoryOther       = "other"        // link previews, ads checks, libraries, ...
)

var categories = map[string]bool{
	CategoryAITraining: true, CategoryAISearch: true, CategoryAIAssistant: true,
	CategorySearch: true, CategoryArchiver: true, CategorySEO: true,
	CategoryMonitor: true, CategoryFeed: true, CategoryOther: true,
}

// Bot is one crawler. Bots returned by a Catalog are shared between
// goroutines: do not modify them.
type Bot struct {
	Token string // product token as the operator documents it (e.g. "GPTBot"); may hold spaces ("Kangaroo Bot")
	// Patterns are the names that identify the bot in a User-Agent
	// (default [Token]), matched as whole words, case-insensitively, never
	// inside a link or after "like"; a leading "^" anchors one at the
	// start of the header. Empty when RobotsTxtOnly.
	Patterns []string
	// RobotsToken is the product token robots.txt groups use for the bot
	// (RFC 9309 §2.2.1); see GroupToken for the default.
	RobotsToken   string
	Operator      string   // who runs it; "" when unknown
	Category      string   // one of the Category* constants; "" when unknown
	UserTriggered bool     // true for fetchers acting on a user's request (e.g. ChatGPT-User)
	Framework     bool     // a crawler framework, HTTP library or automation tool: no operator, agent only when nothing else names one
	URL           string   // documentation URL
	IPRangesURL   string   // the first of IPRangesURLs ("" when none)
	IPRangesURLs  []string // every published IP range list (JAFAR/Google JSON shape) that lists it
	// IPRangesFormerURLs are URLs its lists were published under before
	// the operator moved them (Google's googlebot.json): not fetched, but
	// files named for them still verify the bot.
	IPRangesFormerURLs []string
	RDNSSuffixes       []string // host name suffixes its addresses reverse-resolve to (".googlebot.com")
	RDNSDocURL         string   // the operator's page documenting reverse-DNS verification
	WebBotAuth         string   // Web Bot Auth hint: the Signature-Agent it signs with, when documented
	// RobotsTxtOnly is true for product tokens that exist only in
	// robots.txt (Google-Extended, Applebot-Extended): no client sends them
	// in a User-Agent, so Identify never returns them.
	RobotsTxtOnly bool
	Sources       []string // where the entry comes from: "crawler-user-agents", "ai.robots.txt", "overlay", a --bots file
	Notes         string   // provenance and caveats, free text

	set setFields // which fields the source gave explicitly (for Merge)
	// verify holds, for crawler-user-agents patterns that are regular
	// expressions rather than plain names, the expression a User-Agent
	// must also match.
	verify map[string]*regexp.Regexp
}

// GroupToken returns the product token that selects the bot's robots.txt
// group: RobotsToken when given, else Token up to its first space or '/'
// ("Kangaroo Bot" is "Kangaroo": robots.txt parsers, ours included, read a
// "User-agent: Kangaroo Bot" line as the product token "Kangaroo").
func (b *Bot) GroupToken() string {
	if b.RobotsToken != "" {
		return b.RobotsToken
	}
	return groupToken(b.Token)
}

// GroupTokenOf returns the product token that selects a robots.txt group
// for an agent name: the name up to its first space or '/'.
func GroupTokenOf(name string) string { return groupToken(name) }

func groupToken(name string) string {
	if i := strings.IndexAny(name, " \t/"); i > 0 {
		return name[:i]
	}
	return name
}

// setFields records which fields a source gave explicitly, so that Merge
// can tell "false" and "none" from "not said".
type setFields uint8

const (
	setPatterns setFields = 1 << iota
	setUserTriggered
	setRobotsTxtOnly
	setFramework
	setIPRanges
	setIPRangesFormer
)

// Catalog is an immutable set of bots, safe for concurrent use.
type Catalog struct {
	bots    []*Bot          // sorted by lower-cased token
	byToken map[string]*Bot // lower-cased token
	// byKey indexes every pattern by its first token run, lower-cased:
	// Identify looks each word of a User-Agent up in it. Patterns under
	// one key are sorted longest first.
	byKey    map[string][]*pattern
	maxKey   int // length of the longest key
	versions Versions
}

// pattern is one compiled pattern of a bot.
type pattern struct {
	lit      string         // compared case-insensitively at a word's start
	anchored bool           // must start the User-Agent
	re       *regexp.Regexp // when non-nil the User-Agent must also match it
	bot      *Bot
}

// newCatalog indexes bots; later bots with the same token replace earlier
// ones. Bots are not copied.
func newCatalog(list []*Bot) *Catalog {
	c := &Catalog{byToken: make(map[string]*Bot, len(list)), byKey: make(map[string][]*pattern)}
	for _, b := range list {
		c.byToken[strings.ToLower(b.Token)] = b
	}
	for _, b := range c.byToken {
		c.bots = append(c.bots, b)
	}
	sort.Slice(c.bots, func(i, j int) bool {
		a, b := strings.ToLower(c.bots[i].Token), strings.ToLower(c.bots[j].Token)
		if a != b {
			return a < b
		}
		return c.bots[i].Token < c.bots[j].Token
	})
	// Index in token order so that a pattern shared by two bots goes to the
	// first, whatever the input order.
	seen := map[string]bool{}
	// A pattern that is a bot's own token goes to that bot ("AhrefsSiteAudit"
	// is also a pattern of AhrefsBot in crawler-user-agents); the rest in
	// token order, so that a pattern shared by two bots goes to the first,
	// whatever the input order.
	for _, own := range []bool{true, false} {
		for _, b := range c.bots {
			c.index(b, own, seen)
		}
	}
	for _, ps := range c.byKey {
		sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].lit) > len(ps[j].lit) })
	}
	return c
}

// index adds b's patterns to byKey: only the one equal to its token when
// own, the others otherwise.
func (c *Catalog) index(b *Bot, own bool, seen map[string]bool) {
	{
		if b.RobotsTxtOnly {
			return
		}
		for _, raw := range b.Patterns {
			if strings.EqualFold(strings.TrimPrefix(raw, "^"), b.Token) != own {
				continue
			}
			p := &pattern{lit: raw, bot: b}
			if strings.HasPrefix(p.lit, "^") {
				p.lit, p.anchored = p.lit[1:], true
			}
			p.lit = strings.TrimSpace(p.lit)
			key := firstRun(p.lit)
			// Generic words never name a bot ("Spider" of ai.robots.txt is
			// known by Lookup only), nor with only punctuation after them
			// ("Fetch/" of crawler-user-agents).
			if key == "" || IsGeneric(key) && strings.Trim(p.lit[len(key):], " /;:,()") == "" {
				continue
			}
			p.re = b.verify[raw]
			dk := strings.ToLower(raw)
			if seen[dk] {
				continue
			}
			seen[dk] = true
			k := strings.ToLower(key)
			c.byKey[k] = append(c.byKey[k], p)
			c.maxKey = max(c.maxKey, len(k))
		}
	}
}

// firstRun returns the first run of token characters of s, which must
// start it.
func firstRun(s string) string {
	i := 0
	for i < len(s) && isTokenChar(s[i]) {
		i++
	}
	return s[:i]
}

// Merge returns a new catalog holding c's bots and o's. A bot of o whose
// token equals one of c's (case-insensitive) overrides it field by field:
// every field o's source gave (a non-empty string, patterns, IP lists, or
// an explicit user_triggered / robots_txt_only / framework) replaces c's,
// the others keep c's values. This is what --bots FILE does:
// Default().Merge(loaded). The result keeps c's data versions.
func (c *Catalog) Merge(o *Catalog) *Catalog {
	if o == nil || len(o.bots) == 0 {
		return c
	}
	if c == nil {
		return o
	}
	list := make([]*Bot, 0, len(c.bots)+len(o.bots))
	list = append(list, c.bots...)
	for _, ob := range o.bots {
		cb, ok := c.byToken[strings.ToLower(ob.Token)]
		if !ok {
			list = append(list, ob)
			continue
		}
		list = append(list, overlay(cb, ob))
	}
	m := newCatalog(list)
	m.versions = c.versions
	return m
}

// overlay returns a copy of base with the fields top gave.
func overlay(base, top *Bot) *Bot {
	m := *base
	m.Token = top.Token
	if top.set&setPatterns != 0 {
		m.Patterns = top.Patterns
		m.verify = top.verify
	} else if len(top.Patterns) > 0 {
		// Implicit patterns (the token itself) add to the base's.
		m.Patterns = appendNew(append([]string(nil), base.Patterns...), top.Patterns...)
	}
	if top.RobotsToken != "" {
		m.RobotsToken = top.RobotsToken
	}
	if top.Operator != "" {
		m.Operator = top.Operator
	}
	if top.Category != "" {
		m.Category = top.Category
	}
	if top.set&setUserTriggered != 0 {
		m.UserTriggered = top.UserTriggered
	}
	if top.set&setFramework != 0 {
		m.Framework = top.Framework
	}
	if top.URL != "" {
		m.URL = top.URL
	}
	if top.set&setIPRanges != 0 {
		m.IPRangesURLs = top.IPRangesURLs
		m.IPRangesURL = top.IPRangesURL
	}
	if top.set&setIPRangesFormer != 0 {
		m.IPRangesFormerURLs = top.IPRangesFormerURLs
	}
	if len(top.RDNSSuffixes) > 0 {
		m.RDNSSuffixes = top.RDNSSuffixes
	}
	if top.WebBotAuth != "" {
		m.WebBotAuth = top.WebBotAuth
	}
	if top.RDNSDocURL != "" {
		m.RDNSDocURL = top.RDNSDocURL
	}
	if top.set&setRobotsTxtOnly != 0 {
		m.RobotsTxtOnly = top.RobotsTxtOnly
	}
	if top.Notes != "" {
		m.Notes = top.Notes
	}
	m.Sources = appendNew(append([]string(nil), base.Sources...), top.Sources...)
	m.set |= top.set
	if m.set&setPatterns == 0 && !m.RobotsTxtOnly && len(m.Patterns) == 0 {
		m.Patterns = []string{m.Token}
	}
	if m.RobotsTxtOnly {
		m.Patterns = nil
	}
	if m.Framework {
		m.Operator = ""
	}
	return &m
}

func appendNew(list []string, more ...string) []string {
	for _, s := range more {
		found := false
		for _, t := range list {
			found = found || t == s
		}
		if !found {
			list = append(list, s)
		}
	}
	return list
}

// Lookup returns the bot with the product token, compared
// case-insensitively.
func (c *Catalog) Lookup(token string) (*Bot, bool) {
	if c == nil {
		return nil, false
	}
	var buf [64]byte
	if len(token) <= len(buf) {
		b, ok := c.byToken[string(lowerInto(buf[:0], token))]
		return b, ok
	}
	b, ok := c.byToken[strings.ToLower(token)]
	return b, ok
}

// Bots returns every bot, sorted by token (case-insensitive). The slice is
// the caller's; the bots are shared.
func (c *Catalog) Bots() []*Bot {
	if c == nil {
		return nil
	}
	return append([]*Bot(nil), c.bots...)
}

// Len returns the number of bots.
func (c *Catalog) Len() int {
	if c == nil {
		return 0
	}
	return len(c.bots)
}

// IPRangeList is one published IP range list and the bots it vouches for.
type IPRangeList struct {
	URL    string   // as the operator publishes it (https)
	Tokens []string // product tokens of the bots whose ranges it lists, sorted
	// Former is true for a URL the list is no longer published under
	// (only in bots' IPRangesFormerURLs): files named for it still
	// verify its bots, but it is not fetched.
	Former bool
}

// IPRangeLists returns every list the catalog knows, current and former,
// sorted by URL. A URL that is current for one bot and former for
// another is current, for both.
func (c *Catalog) IPRangeLists() []IPRangeList {
	if c == nil {
		return nil
	}
	by := map[string][]string{}
	current := map[string]bool{}
	add := func(u, tok string) {
		for _, t := range by[u] {
			if t == tok {
				return
			}
		}
		by[u] = append(by[u], tok)
	}
	for _, b := range c.bots {
		for _, u := range b.IPRangesURLs {
			add(u, b.Token)
			current[u] = true
		}
		for _, u := range b.IPRangesFormerURLs {
			add(u, b.Token)
		}
	}
	out := make([]IPRangeList, 0, len(by))
	for u, toks := range by {
		sort.Strings(toks)
		out = append(out, IPRangeList{URL: u, Tokens: toks, Former: !current[u]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URL < out[j].URL })
	return out
}

// Versions says which maintained data a catalog was built from.
type Versions struct {
	CrawlerUserAgents string // npm version of crawler-user-agents
}

// DataVersions returns the versions of the maintained data the catalog was
// built from; zero for a catalog loaded from a file alone.
func (c *Catalog) DataVersions() Versions {
	if c == nil {
		return Versions{}
	}
	return c.versions
}

// lowerInto appends the ASCII lower-case form of s to dst.
func lowerInto(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}
