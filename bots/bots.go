package bots

import (
	"errors"
	"io"
)

// Categories a bot can have. "" means unknown (for entries loaded from a
// file that does not say).
const (
	CategoryAITraining  = "ai-training"  // collects content to train models
	CategoryAISearch    = "ai-search"    // indexes content for AI search or answer engines
	CategoryAIAssistant = "ai-assistant" // fetches on behalf of a user of an AI assistant or agent
	CategorySearch      = "search"       // classic search engine crawler
	CategoryArchiver    = "archiver"     // web archive
	CategorySEO         = "seo"          // SEO and marketing tools
	CategoryOther       = "other"        // link previews, ads checks, monitoring, ...
)

// ErrFormat is wrapped by Load errors for input that is not a catalog.
var ErrFormat = errors.New("bots: bad catalog")

// Bot is one crawler. Bots returned by a Catalog are shared: do not modify
// them.
type Bot struct {
	Token         string   // RFC 9309 product token as the operator documents it (e.g. "GPTBot")
	Patterns      []string // User-Agent tokens that identify it (default: [Token]); matched as whole tokens; empty for RobotsTxtOnly tokens
	Operator      string   // who runs it
	Category      string   // one of the Category* constants; "" when unknown
	UserTriggered bool     // true for fetchers acting on a user's request (e.g. ChatGPT-User)
	URL           string   // documentation URL
	IPRangesURL   string   // published IP ranges (JAFAR/Google JSON shape) when known
	// RobotsTxtOnly is true for product tokens that only exist in
	// robots.txt (e.g. Google-Extended): no client sends them in a
	// User-Agent, so Identify never returns them.
	RobotsTxtOnly bool
	Notes         string // free text: provenance, caveats

	userTriggeredSet bool // the source said UserTriggered explicitly (for Merge)
}

// Catalog is an immutable set of bots, safe for concurrent use.
type Catalog struct {
	bots []*Bot
}

// Default returns the embedded catalog (bots/catalog.json).
func Default() *Catalog { return &Catalog{} }

// Load reads a catalog in this package's JSON shape or in the ai.robots.txt
// robots.json shape. name is used in error messages.
func Load(r io.Reader, name string) (*Catalog, error) { return &Catalog{}, nil }

// Merge returns a new catalog: c's bots with o's added; a bot of o whose
// token equals one of c's (case-insensitive) overrides it.
func (c *Catalog) Merge(o *Catalog) *Catalog { return c }

// Lookup returns the bot with the product token (case-insensitive).
func (c *Catalog) Lookup(token string) (*Bot, bool) { return nil, false }

// Identify returns the catalog bot one of whose patterns appears in ua as a
// whole token; when several match, the longest pattern wins.
func (c *Catalog) Identify(ua string) (*Bot, bool) { return nil, false }

// Bots returns every bot, sorted by token.
func (c *Catalog) Bots() []*Bot { return c.bots }

// ProductTokens returns the product tokens of a User-Agent header in order
// (RFC 9110 §10.1.5), plus tokens found inside comments, without versions.
func ProductTokens(ua string) []string { return nil }

// BotToken picks the most likely bot product token from a User-Agent for
// bots not in the catalog; "" for a plain browser.
func BotToken(ua string) string { return "" }

// ContainsToken reports whether token occurs in ua as a whole token,
// case-insensitively.
func ContainsToken(ua, token string) bool { return false }
