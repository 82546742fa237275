package bots

import (
	"bytes"
	_ "embed"
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
	CategoryOther       = "other"        // link previews, ads checks, feeds, ...
)

var categories = map[string]bool{
	CategoryAITraining: true, CategoryAISearch: true, CategoryAIAssistant: true,
	CategorySearch: true, CategoryArchiver: true, CategorySEO: true, CategoryOther: true,
}

// Bot is one crawler. Bots returned by a Catalog are shared between
// goroutines: do not modify them.
type Bot struct {
	Token         string   // RFC 9309 product token as the operator documents it (e.g. "GPTBot")
	Patterns      []string // User-Agent tokens that identify it (default: [Token]); matched as whole tokens; empty when RobotsTxtOnly
	Operator      string   // who runs it
	Category      string   // one of the Category* constants; "" when unknown
	UserTriggered bool     // true for fetchers acting on a user's request (e.g. ChatGPT-User)
	URL           string   // documentation URL
	IPRangesURL   string   // published IP ranges (JAFAR/Google JSON shape) when known
	// RobotsTxtOnly is true for product tokens that exist only in
	// robots.txt (Google-Extended, Applebot-Extended): no client sends them
	// in a User-Agent, so Identify never returns them.
	RobotsTxtOnly bool
	Notes         string // provenance and caveats, free text

	set setFields // which fields the source gave explicitly (for Merge)
}

// setFields records which fields a source gave explicitly, so that Merge
// can tell "false" and "none" from "not said".
type setFields uint8

const (
	setPatterns setFields = 1 << iota
	setUserTriggered
	setRobotsTxtOnly
)

// Catalog is an immutable set of bots, safe for concurrent use.
type Catalog struct {
	bots    []*Bot          // sorted by lower-cased token
	byToken map[string]*Bot // lower-cased token
	// byPattern indexes the patterns made only of token characters (see
	// ContainsToken), lower-cased: Identify looks each token of a
	// User-Agent up in it.
	byPattern map[string]*Bot
	maxPat    int // length of the longest pattern in byPattern
	// firstLast[n] has bit charClass(c) set for the first and the last
	// character c of every pattern of length n in byPattern (bits 0-31
	// first, 32-63 last): a cheap filter before the map lookup.
	firstLast []uint64
	// multi holds the patterns with other characters ("Sogou web spider"),
	// checked with ContainsToken.
	multi []patternRef
}

type patternRef struct {
	pattern string
	bot     *Bot
}

//go:embed catalog.json
var defaultJSON []byte

// Default returns the embedded catalog (bots/catalog.json). It panics only
// if the embedded file is broken, which the package tests rule out.
func Default() *Catalog {
	c, err := Load(bytes.NewReader(defaultJSON), "bots/catalog.json")
	if err != nil {
		panic("bots: embedded catalog: " + err.Error())
	}
	return c
}

// newCatalog indexes bots; later bots with the same token replace earlier
// ones. Bots are not copied.
func newCatalog(list []*Bot) *Catalog {
	c := &Catalog{byToken: make(map[string]*Bot, len(list)), byPattern: make(map[string]*Bot)}
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
	for _, b := range c.bots {
		if b.RobotsTxtOnly {
			continue
		}
		for _, p := range b.Patterns {
			if p == "" {
				continue
			}
			if isTokenRun(p) {
				k := strings.ToLower(p)
				if _, dup := c.byPattern[k]; !dup {
					c.byPattern[k] = b
					c.maxPat = max(c.maxPat, len(k))
				}
				continue
			}
			c.multi = append(c.multi, patternRef{p, b})
		}
	}
	c.firstLast = make([]uint64, c.maxPat+1)
	for k := range c.byPattern {
		c.firstLast[len(k)] |= 1<<charClass(k[0]) | 1<<(32+charClass(k[len(k)-1]))
	}
	// Longest first, so that Identify can stop at the first match.
	sort.SliceStable(c.multi, func(i, j int) bool { return len(c.multi[i].pattern) > len(c.multi[j].pattern) })
	return c
}

// Merge returns a new catalog holding c's bots and o's. A bot of o whose
// token equals one of c's (case-insensitive) overrides it field by field:
// every field o's source gave (a non-empty string, patterns, or an
// explicit user_triggered / robots_txt_only) replaces c's, the others keep
// c's values. This is what --bots FILE does: Default().Merge(loaded).
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
	return newCatalog(list)
}

// overlay returns a copy of base with the fields top gave.
func overlay(base, top *Bot) *Bot {
	m := *base
	m.Token = top.Token
	if top.set&setPatterns != 0 {
		m.Patterns = top.Patterns
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
	if top.URL != "" {
		m.URL = top.URL
	}
	if top.IPRangesURL != "" {
		m.IPRangesURL = top.IPRangesURL
	}
	if top.set&setRobotsTxtOnly != 0 {
		m.RobotsTxtOnly = top.RobotsTxtOnly
	}
	if top.Notes != "" {
		m.Notes = top.Notes
	}
	m.set |= top.set
	if m.set&setPatterns == 0 && !m.RobotsTxtOnly {
		m.Patterns = []string{m.Token}
	}
	return &m
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

// Identify returns the catalog bot one of whose patterns appears in ua as a
// whole token (see ContainsToken). When several match, the longest pattern
// wins ("Googlebot-Image" over "Googlebot"), then the one that comes first
// in ua. Words of URLs ("+https://openai.com/gptbot") and mail addresses
// ("claudebot@anthropic.com") do not count: a bot's documentation link may
// name another bot. Only the first 4096 bytes of ua are read. Identify
// does not allocate.
func (c *Catalog) Identify(ua string) (*Bot, bool) {
	if c == nil || ua == "" {
		return nil, false
	}
	if len(ua) > maxUALen {
		ua = ua[:maxUALen]
	}
	var (
		buf     [64]byte
		best    *Bot
		bestLen int
	)
	for i := 0; i < len(ua); {
		if !isTokenChar(ua[i]) {
			i++
			continue
		}
		j := i
		for j < len(ua) && isTokenChar(ua[j]) {
			j++
		}
		if j < len(ua) && (ua[j] == '@' || ua[j] == ':' && strings.HasPrefix(ua[j:], "://")) {
			// A mail address or a URL: its words name no product.
			i = endOfWord(ua, j)
			continue
		}
		if n := j - i; n > bestLen && n <= c.maxPat && n <= len(buf) &&
			c.firstLast[n]&(1<<charClass(ua[i])) != 0 && c.firstLast[n]&(1<<(32+charClass(ua[j-1]))) != 0 {
			if b, ok := c.byPattern[string(lowerInto(buf[:0], ua[i:j]))]; ok {
				best, bestLen = b, n
			}
		}
		i = j
	}
	for _, m := range c.multi {
		if len(m.pattern) <= bestLen {
			break
		}
		if ContainsToken(ua, m.pattern) {
			return m.bot, true
		}
	}
	return best, best != nil
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

// charClass maps a token character to 0-31: letters case-insensitively to
// 0-25, digits to 26, '-' '_' '.' to 27-29.
func charClass(c byte) uint {
	switch {
	case 'a' <= c && c <= 'z':
		return uint(c - 'a')
	case 'A' <= c && c <= 'Z':
		return uint(c - 'A')
	case '0' <= c && c <= '9':
		return 26
	case c == '-':
		return 27
	case c == '_':
		return 28
	default:
		return 29
	}
}

// endOfWord returns the index of the first space, ';', ',' or ')' at or
// after i.
func endOfWord(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', ';', ',', ')':
			return i
		}
		i++
	}
	return i
}
