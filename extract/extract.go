package extract

import (
	"slices"
	"strings"
	"time"
)

// Parsing limits.
const (
	// DefaultMaxHeaderBytes is the parsing limit for the Robots-Tag and
	// X-Robots-Tag field values (repext §3.1.1: at least 8 KiB).
	DefaultMaxHeaderBytes = 8 * 1024
	// DefaultMaxHTMLBytes is how much of an HTML body is scanned for meta
	// robots tags.
	DefaultMaxHTMLBytes = 64 * 1024
)

// Options bounds the work done on one response. Zero values mean the
// defaults.
type Options struct {
	MaxHeaderBytes int // limit on the joined field value of each header name; 0 = DefaultMaxHeaderBytes
	MaxHTMLBytes   int // limit on the HTML prefix scanned for meta tags; 0 = DefaultMaxHTMLBytes
	// BodyTruncated says the body given is a prefix of a longer payload
	// (a reader kept only so many bytes, event.Capture.BodyTruncated), so
	// a head still open at its end may hide meta tags. A body at least
	// MaxHTMLBytes long is treated as cut whatever this says.
	BodyTruncated bool
}

func (o Options) maxHeader() int {
	if o.MaxHeaderBytes <= 0 {
		return DefaultMaxHeaderBytes
	}
	return o.MaxHeaderBytes
}

func (o Options) maxHTML() int {
	if o.MaxHTMLBytes <= 0 {
		return DefaultMaxHTMLBytes
	}
	return o.MaxHTMLBytes
}

// Where a rule was found.
const (
	ViaRobotsTag  = "robots-tag"
	ViaXRobotsTag = "x-robots-tag"
	ViaMeta       = "meta"
)

// Rule names this package interprets. Any other rule is kept with its name
// lower-cased as written.
const (
	RuleNoindex          = "noindex"
	RuleNosnippet        = "nosnippet"
	RuleNone             = "none" // noindex + nofollow
	RuleNofollow         = "nofollow"
	RuleNoarchive        = "noarchive"
	RuleNoimageindex     = "noimageindex"
	RuleMaxSnippet       = "max-snippet"
	RuleUnavailableAfter = "unavailable_after"
	RuleAll              = "all" // no restriction; never cancels one
)

// Rule is one robots rule found in a response, with the evidence that
// establishes it.
type Rule struct {
	Token    string    // "*" for global rules, else the product token lower-cased
	Name     string    // rule name lower-cased (see the Rule* constants); unknown rules as written, lower-cased
	Value    string    // the rule's value as written (max-snippet number, unavailable_after date, max-image-preview size ...); "" for boolean rules
	Time     time.Time // unavailable_after parsed to UTC; zero when unparseable (a "bad-date" Diagnostic says so)
	Via      string    // ViaRobotsTag, ViaXRobotsTag or ViaMeta
	Evidence string    // the header line ("X-Robots-Tag: googlebot: noindex") or the meta tag as written
}

// Diagnostic codes. They are stable: users count and filter them.
const (
	DiagHeaderTruncated = "header-truncated"            // field value over MaxHeaderBytes: the cut member and the rest ignored (repext §3.1.1)
	DiagSFFallback      = "sf-parse-failed-legacy-used" // Robots-Tag is not a valid Structured Field List; read with the legacy X-Robots-Tag parser
	DiagBareRule        = "robots-tag-bare-rule"        // Robots-Tag member that is a rule name without parameters, read as a global rule
	DiagNoRules         = "robots-tag-member-no-rules"  // Robots-Tag member naming a product token with no rule: no instruction
	DiagBadMember       = "robots-tag-bad-member"       // Robots-Tag member that is not a token item (inner list, string, number)
	DiagRuleFalse       = "rule-false"                  // SF boolean parameter set to ?0: the rule is not applied
	DiagBadDate         = "bad-date"                    // unavailable_after value that no known date format matches
	DiagBadValue        = "bad-value"                   // max-snippet value that is not an integer
	DiagMetaInBody      = "meta-in-body"                // robots meta tag after the head ended: ignored (repext §4)
	DiagMetaNoContent   = "meta-no-content"             // robots meta tag without a content attribute
	DiagHTMLTruncated   = "html-truncated"              // the head did not end within MaxHTMLBytes
)

// Diagnostic is a problem met while extracting rules: input read leniently
// or partly. Code is one of the Diag* constants.
type Diagnostic struct {
	Code     string
	Message  string
	Evidence string // the header line or tag concerned, capped
}

// Directives is everything a response says about its own use.
type Directives struct {
	Rules       []Rule
	Diagnostics []Diagnostic
}

// Effective is the set of rules that apply to one product token: the union
// of the global rules and that token's rules (repext §3.1.1, §3.1.2).
type Effective struct {
	Rules []Rule
}

// For returns the effective rules for a product token: the union of global
// ("*") rules and the rules given for that token, compared
// case-insensitively (repext §3.1). Each rule keeps its evidence. For("*")
// or For("") returns the global rules only.
func (d *Directives) For(token string) Effective {
	if d == nil {
		return Effective{}
	}
	var e Effective
	for _, r := range d.Rules {
		if r.Token == "*" || (token != "" && token != "*" && strings.EqualFold(r.Token, token)) {
			e.Rules = append(e.Rules, r)
		}
	}
	return e
}

// Tokens returns the product tokens that have rules of their own (not "*"),
// lower-cased, sorted, each once.
func (d *Directives) Tokens() []string {
	if d == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range d.Rules {
		if r.Token != "*" && !seen[r.Token] {
			seen[r.Token] = true
			out = append(out, r.Token)
		}
	}
	slices.Sort(out)
	return out
}
