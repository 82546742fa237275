package evaluate

import (
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
)

// Defaults applied by NewBuilder to zero Options fields.
const (
	// DefaultRobotsTTL is how long a fetched robots.txt may be used
	// (RFC 9309 §2.4: SHOULD NOT be used for more than 24 hours).
	DefaultRobotsTTL = 24 * time.Hour
	// DefaultUnreachableAfter is how long a robots.txt must be unreachable
	// before it may be treated as unavailable (RFC 9309 §2.3.1.4, "for
	// example, 30 days").
	DefaultUnreachableAfter = 30 * 24 * time.Hour
	// DefaultSkew is the clock skew allowed on signature created/expires.
	DefaultSkew = 60 * time.Second
	// MaxRedirects is how many consecutive redirects of a robots.txt are
	// followed inside the inputs (RFC 9309 §2.3.1.2: at least five).
	MaxRedirects = 5
)

// Options tune the evaluation. Every time comes from the data or from
// AsOf: the evaluation never reads the wall clock.
type Options struct {
	// AsOf is the moment retention and "latest" directives are judged at;
	// zero means the latest time seen in the data (captures, fetches and
	// listing entries given to the Builder).
	AsOf time.Time
	// RobotsTTL is the robots.txt cache lifetime; 0 means DefaultRobotsTTL.
	RobotsTTL time.Duration
	// UnreachableAfter is how long continuous unreachability lasts before
	// robots.txt is treated as unavailable; 0 means DefaultUnreachableAfter.
	UnreachableAfter time.Duration
	// Skew is the signature clock skew; 0 means DefaultSkew.
	Skew time.Duration
	// AllowTestKeys accepts signatures made with the public RFC 9421 test
	// keys as verified (they are flagged otherwise).
	AllowTestKeys bool
	// RobotsMaxBytes is the robots.txt parsing limit (robots.Options.MaxBytes).
	RobotsMaxBytes int
	// ArchiveAgent is the product token of the crawler that wrote every
	// input WARC file. "" means: each file's own crawler, from its request
	// records' User-Agents (the most frequent bot token, ties broken by
	// lexical order) or its warcinfo record (docs/semantics.md, "Archive
	// crawlers"); a file with none has its captures not judged as
	// fetches.
	ArchiveAgent string
	// ArchiveAgents gives the product token of the crawler of single
	// WARC or ARC files, by file name as the events' Source.File names
	// it (compared after filepath.Clean); it takes precedence over
	// ArchiveAgent for those files (--archive-agent FILE=TOKEN).
	ArchiveAgents map[string]string `json:",omitempty"`
	// IndexAgent is the product token whose directives an index or snippet
	// listing entry without an agent is judged under; "" means the global
	// rules only.
	IndexAgent string
	// DefaultAuthority ("https://example.com") is the authority of log
	// lines that carry no host. "" means such fetches are not judged
	// against robots.txt (robots_verdict not_judged).
	DefaultAuthority string
	// Sites are the authorities named with --site, when more than one:
	// host-less inputs are then not given a site by inference (any of
	// them could own them), and the notices list them. Inputs bound to
	// one of them carry its host already (package audit).
	Sites []string
	// SpillDir is where robots.txt bodies go once those kept in memory
	// pass a quarter of RobotsCacheBytes (one unlinked temporary file),
	// and the capture summaries between Build and WriteTables (another;
	// capspill.go), and the robots.txt documents' cold parts after
	// WriteBuiltTables (a third; docspill.go); "" keeps them in memory.
	SpillDir string
	// spillAllCaptures spills the capture summaries and the robots.txt
	// documents however few they are, and has the one ViewTracker let go
	// of each entry pass 1 kept on its own (tests; capspill.go,
	// docspill.go, OneViewTracker).
	spillAllCaptures bool
	// buildSplit, when > 0, runs Build's steps on that many workers and
	// cuts even a few items into chunks (tests; buildpar.go).
	buildSplit int
	// RobotsCacheBytes bounds the estimated size of the parsed robots.txt
	// files kept in memory; 0 means DefaultRobotsCacheBytes. A file
	// evicted is parsed again from its body when needed.
	RobotsCacheBytes int64
}

func (o Options) withDefaults() Options {
	if o.RobotsTTL <= 0 {
		o.RobotsTTL = DefaultRobotsTTL
	}
	if o.UnreachableAfter <= 0 {
		o.UnreachableAfter = DefaultUnreachableAfter
	}
	if o.Skew <= 0 {
		o.Skew = DefaultSkew
	}
	o.AsOf = o.AsOf.UTC()
	o.ArchiveAgent = strings.TrimSpace(o.ArchiveAgent)
	if len(o.ArchiveAgents) > 0 {
		agents := make(map[string]string, len(o.ArchiveAgents))
		for f, tok := range o.ArchiveAgents {
			if tok = strings.TrimSpace(tok); tok != "" {
				agents[filepath.Clean(f)] = tok
			}
		}
		o.ArchiveAgents = agents
	}
	o.IndexAgent = strings.TrimSpace(o.IndexAgent)
	return o
}

// archiveAgentFor returns the token the options give the crawler of
// file: its own (ArchiveAgents), else every file's (ArchiveAgent), else "".
func (o *Options) archiveAgentFor(file string) string {
	if len(o.ArchiveAgents) > 0 {
		if tok, ok := o.ArchiveAgents[filepath.Clean(file)]; ok {
			return tok
		}
	}
	return o.ArchiveAgent
}

// splitURL normalizes an absolute http(s) URL for use as a key: scheme and
// host lower-cased, default port removed, fragment dropped, an empty path
// made "/". It returns the authority key ("https://example.com:8080"), the
// host[:port] part, and the path with query as written. ok is false for
// anything that is not an absolute URL with a host.
func splitURL(raw string) (auth, hostport, target string, ok bool) {
	if auth, hostport, target, ok = splitPlainURL(raw); ok {
		return auth, hostport, target, true
	}
	return parseSplitURL(raw)
}

// splitPlainURL is splitURL, without url.Parse and its allocation, for
// the URLs crawlers write most: "http://" or "https://", a host of
// lower-case letters, digits, '-' and '.' (not last) without a port, and
// no path or one of unreserved characters (RFC 3986 §2.3) and '/' only.
// splitURL's answer for those is what this returns (FuzzSplitPlainURL);
// ok is false for any other URL.
func splitPlainURL(raw string) (auth, hostport, target string, ok bool) {
	var scheme string
	switch {
	case strings.HasPrefix(raw, "https://"):
		scheme = "https"
	case strings.HasPrefix(raw, "http://"):
		scheme = "http"
	default:
		return "", "", "", false
	}
	rest := raw[len(scheme)+len("://"):]
	i := 0
	for i < len(rest) && (rest[i] >= 'a' && rest[i] <= 'z' || rest[i] >= '0' && rest[i] <= '9' || rest[i] == '-' || rest[i] == '.') {
		i++
	}
	if i == 0 || rest[i-1] == '.' {
		return "", "", "", false
	}
	hostport, target = rest[:i], rest[i:]
	if target == "" {
		target = "/"
	}
	if target[0] != '/' {
		return "", "", "", false
	}
	for j := 1; j < len(target); j++ {
		c := target[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
			return "", "", "", false
		}
	}
	return scheme + "://" + hostport, hostport, target, true
}

// parseSplitURL is splitURL through url.Parse, for any URL.
func parseSplitURL(raw string) (auth, hostport, target string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.Scheme == "" {
		return "", "", "", false
	}
	scheme := strings.ToLower(u.Scheme)
	hostport = normalizeHost(scheme, u.Host)
	target = u.EscapedPath()
	if u.Opaque != "" {
		return "", "", "", false
	}
	if target == "" {
		target = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		target += "?" + u.RawQuery
	}
	return scheme + "://" + hostport, hostport, target, true
}

// normalizeHost lower-cases a host[:port] and removes the scheme's default
// port, as readers do for event.Fetch.Host.
func normalizeHost(scheme, h string) string {
	h = strings.ToLower(event.ASCIIHost(h))
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		port := h[i+1:]
		if port == "" || (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
			h = h[:i]
		}
	}
	return strings.TrimSuffix(h, ".")
}

// normalizeURL returns the key of an absolute URL ("scheme://host/path?q"),
// or raw trimmed when it is not one.
func normalizeURL(raw string) string {
	auth, _, target, ok := splitURL(raw)
	if !ok {
		return strings.TrimSpace(raw)
	}
	return auth + target
}

// hostName returns host[:port] without the port and without IPv6 brackets.
func hostName(hostport string) string {
	if strings.HasPrefix(hostport, "[") {
		if i := strings.IndexByte(hostport, ']'); i > 0 {
			return hostport[1:i]
		}
		return hostport
	}
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		return hostport[:i]
	}
	return hostport
}

// pathOf returns the path of a request-target (absolute-form targets are
// reduced to their path), without query.
func pathOf(target string) string {
	if i := strings.Index(target, "://"); i >= 0 && i < 10 {
		rest := target[i+3:]
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			return "/"
		}
		target = rest[j:]
	}
	if i := strings.IndexAny(target, "?#"); i >= 0 {
		target = target[:i]
	}
	return target
}
