package robots

// DefaultMaxBytes is the parsing limit used when Options.MaxBytes is 0.
// RFC 9309 §2.5 requires crawlers to parse at least 500 kibibytes.
const DefaultMaxBytes = 500 * 1024

// Options tune Parse.
type Options struct {
	// MaxBytes is the parsing limit; 0 means DefaultMaxBytes
	// (RFC 9309 §2.5: at least 500 KiB). Content past the limit is ignored,
	// including a partial last line, and File.Truncated is set.
	MaxBytes int
}

// File is a parsed robots.txt. It is immutable after Parse and safe for
// concurrent use by many goroutines.
type File struct {
	// Groups are the groups in file order, before merging. Duplicate groups
	// for one token are merged at match time (RFC 9309 §2.2.1).
	Groups []Group
	// Sitemaps are the sitemap lines, wherever they appear (RFC 9309 §2.2.4).
	Sitemaps []Sitemap
	// Licenses are the RSL License lines, wherever they appear.
	Licenses []License
	// Diagnostics list every line the parser could not take as written.
	Diagnostics []Diagnostic
	// Truncated reports that the body exceeded MaxBytes; lines past the
	// limit (a partial last line too) were ignored.
	Truncated bool
	// Size is len(body).
	Size int
	// Lines holds every parsed line as classified, in order.
	Lines []Line
	// ACAP holds the ACAP 1.0 records; nil when the file has none.
	ACAP *ACAP

	m matcher // compiled matching state
}

// Sitemap is one sitemap line (RFC 9309 §2.2.4).
type Sitemap struct {
	URL  string
	Line int
}

// Diagnostic is a problem found on one line. Code is stable and
// machine-readable (see the Diag* constants).
type Diagnostic struct {
	Line    int
	Code    string
	Message string
	Text    string // the line as written (capped)
}

// Line kinds used in Line.Kind.
const (
	KindUserAgent     = "user-agent"
	KindAllow         = "allow"
	KindDisallow      = "disallow"
	KindCrawlDelay    = "crawl-delay"
	KindSitemap       = "sitemap"
	KindACAP          = "acap"
	KindOther         = "other"
	KindContentUsage  = "content-usage"  // aipref attach §3
	KindContentSignal = "content-signal" // Cloudflare Content Signals
	KindLicense       = "license"        // RSL 1.0
	KindComment       = "comment"
	KindBlank         = "blank"
	KindDiagnostic    = "diagnostic"
)

// Line is one line of the file as classified by the parser.
type Line struct {
	Number int
	Kind   string // one of the Kind* constants
	Value  string // the value after the key, trimmed, comment removed
	Group  int    // index into File.Groups; -1 when the line belongs to none
	Note   string // why the line was classified so (e.g. "typo of disallow")
}

// Group is one group of records as written: one or more user-agent lines
// followed by rules (RFC 9309 §2.1).
type Group struct {
	Agents     []Agent
	Rules      []Rule
	CrawlDelay *CrawlDelay     // nil if none
	Usage      []ContentUsage  // Content-Usage rules (aipref attach §3)
	Signals    []ContentSignal // Content-Signal lines
	Line       int             // line of the group's first user-agent line
}

// Agent is one user-agent line of a group.
type Agent struct {
	Token string // as written (product token part, see docs/semantics.md)
	Line  int
}

// CrawlDelay is a crawl-delay record (not part of RFC 9309; widely used).
type CrawlDelay struct {
	Seconds float64
	Line    int
	Text    string // the value as written
}

// Rule is an allow or disallow rule (RFC 9309 §2.2.2).
type Rule struct {
	Allow   bool
	Pattern string // as written (after trimming), e.g. "/private/*.html$"
	Line    int
}

// String returns the rule as evidence: "Disallow: /private/" or "Allow: /x".
func (r Rule) String() string {
	if r.Allow {
		return "Allow: " + r.Pattern
	}
	return "Disallow: " + r.Pattern
}

// Verdict reasons.
const (
	ReasonRule           = "rule"
	ReasonNoMatchingRule = "no-matching-rule"
	ReasonNoGroup        = "no-group"
	ReasonRobotsTxt      = "robots-txt-always-allowed"
)

// Verdict is the answer of File.Check with its evidence.
type Verdict struct {
	Allowed   bool
	Agent     string // the product token asked about
	Group     string // user-agent token(s) of the applied (merged) group, comma-joined; "" when none
	GroupLine int    // line of the first user-agent line of the first matching group; 0 if none
	Rule      *Rule  // deciding rule; nil when no rule matched
	Reason    string // one of the Reason* constants
}

// Parse parses a robots.txt body. It never fails: malformed lines become
// Diagnostics.
func Parse(body []byte, opts Options) *File {
	return parse(body, opts)
}

// Check judges one URL path (path plus optional query, e.g. "/a/b?c=d"; a
// full absolute URL is also accepted and reduced to its path and query) for
// the product token agent.
func (f *File) Check(agent, target string) Verdict {
	return f.check(agent, target)
}

// CrawlDelay returns the crawl-delay of the group applying to agent.
func (f *File) CrawlDelay(agent string) (cd CrawlDelay, ok bool) {
	return f.crawlDelay(agent)
}

// IsRobotsTxt reports whether target (a path, a path and query, or an
// absolute URL) names its authority's robots.txt: the path is exactly
// "/robots.txt", lower case and at the top level (RFC 9309 §2.3), whatever
// the query.
func IsRobotsTxt(target string) bool {
	// Almost every target is a path: "/robots.txt", then nothing, a query
	// or a fragment. Checked first, it saves the general parse for every
	// fetch that is not robots.txt (every fetch is asked, in pass 1, the
	// views and the judge).
	if len(target) > 1 && target[0] == '/' && target[1] != '/' {
		const rt = "/robots.txt"
		return len(target) >= len(rt) && target[:len(rt)] == rt &&
			(len(target) == len(rt) || target[len(rt)] == '?' || target[len(rt)] == '#')
	}
	return isRobotsTxtTarget(target)
}

// isRobotsTxtTarget is IsRobotsTxt for any target (an absolute URL, a
// scheme-relative one, a bare query).
func isRobotsTxtTarget(target string) bool {
	p, slash := targetPath(target)
	if slash {
		return false
	}
	if i := indexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	return p == "/robots.txt"
}
