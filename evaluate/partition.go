package evaluate

import (
	"slices"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/extract"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/robots"
)

// Partitioned evaluation
//
// A distributed run (the Beam pipeline in the nested module beam/) splits
// the evaluation by host[:port]: every verdict on a fetch needs only the
// robots.txt timeline of its authority (both schemes of one host[:port]
// share a partition, because a request without a scheme picks one from the
// timelines of its host), the bots' own robots.txt fetches there, the
// captures and listing entries of its URLs, and facts that are the same
// for every partition: the identity store, the catalog, the latest time in
// the data (the default as-of) and the User-Agents of WARC request records
// (the default archive agent). Shared carries those last two; robots.txt
// redirects to another partition's robots.txt are resolved by giving the
// target's captures to AddRedirectTarget.
//
// Per partition:
//
//	b := evaluate.NewBuilder(opts, catalog, ids)   // the same catalog and identity store everywhere
//	b.AddCapture / AddFetch / AddIndexEntry / AddSnippetEntry for the partition's events
//	b.AddRedirectTarget(c) for robots-like captures of other partitions that its redirects lead to
//	m := b.BuildPartition(key, shared)
//	judge the partition's fetches in time order (Judge, NewTracker) and m.WriteTables(sink)
//
// The rows of all partitions together are those of one Build over all
// events, with two exceptions (docs/semantics.md, "Partitioned runs"): a
// signature replayed on another partition is not seen as a replay, and an
// unresolved revisit whose WARC-Refers-To names a record of another
// partition finds its original only by URL and payload digest.

// FetchPartition returns the partition of a fetch: its host[:port] as the
// reader gave it, or the host of defaultAuthority (Options.DefaultAuthority)
// when the fetch names no host. "" means the fetch names no authority at
// all (it is judged, but against nothing).
func FetchPartition(f *event.Fetch, defaultAuthority string) string {
	if f.Host != "" {
		return f.Host
	}
	if _, hp, _, ok := splitURL(defaultAuthority); ok {
		return hp
	}
	return ""
}

// CapturePartition returns the partition of a capture, and false when
// Builder.AddCapture ignores it (not an HTTP record, or no absolute URL).
func CapturePartition(c *event.Capture) (string, bool) {
	if c == nil || !isHTTPRecord(c.RecordType) {
		return "", false
	}
	_, hp, _, ok := splitURL(c.URL)
	return hp, ok
}

// ListingPartition returns the partition of a listing entry: the
// host[:port] of its URL, "" when it is not an absolute URL.
func ListingPartition(e ListingEntry) string {
	_, hp, _, _ := splitURL(e.URL)
	return hp
}

// URLPartition returns the partition of an absolute URL as URLKey or
// RedirectTarget give it.
func URLPartition(url string) string {
	_, hp, _, _ := splitURL(url)
	return hp
}

// URLKey returns the key under which the Builder files robots-like
// captures of a URL (the URL normalized), for matching RedirectTarget.
func URLKey(raw string) string { return normalizeURL(raw) }

// RobotsLike reports whether the Builder keeps a capture as a robots-like
// document: a capture of /robots.txt, or of a URL whose path contains
// "robots" (a robots.txt redirect may lead there). Only such captures can
// be the target of a robots.txt redirect.
func RobotsLike(c *event.Capture) bool {
	if c == nil || !isHTTPRecord(c.RecordType) {
		return false
	}
	_, _, target, ok := splitURL(c.URL)
	return ok && (robots.IsRobotsTxt(target) || robotsLike(target))
}

// NeedsBody reports whether the Builder reads a capture's body: robots-like
// documents (parsed, digested) and HTML (meta robots tags). A pipeline may
// drop every other body before shipping the capture.
func NeedsBody(c *event.Capture) bool {
	return RobotsLike(c) || (len(c.Body) > 0 && extract.IsHTML(c.ContentType, c.Body))
}

// RedirectTarget returns the URL key a robots-like capture redirects to
// (RFC 9309 §2.3.1.2): its Location resolved against its URL and
// normalized, for 3xx captures other than 304. A chain of redirects is
// followed by asking again for each target's captures.
func RedirectTarget(c *event.Capture) (string, bool) {
	if !RobotsLike(c) || c.Status < 300 || c.Status >= 400 || c.Status == 304 {
		return "", false
	}
	loc := c.Header.Get("Location")
	if loc == "" {
		return "", false
	}
	u := resolveLocation(c.URL, loc)
	return u, u != ""
}

// Shared holds the facts about all inputs that every partition's model
// needs. Fill one per partition or per input file with the same events
// given to the Builders, Merge them, and pass the result to
// BuildPartition.
type Shared struct {
	// Latest is the latest time among the captures, fetches and listing
	// entries (the default as-of, Options.AsOf).
	Latest time.Time
	// WARCUserAgents counts the User-Agents of WARC request records (the
	// default archive agent, Options.ArchiveAgent).
	WARCUserAgents map[string]int64
}

func (s *Shared) note(t time.Time) {
	if t = t.UTC(); t.After(s.Latest) {
		s.Latest = t
	}
}

// NoteCapture records what Builder.AddCapture(c) records of shared facts.
func (s *Shared) NoteCapture(c *event.Capture) {
	if _, ok := CapturePartition(c); ok {
		s.note(c.Time)
	}
}

// NoteFetch records what Builder.AddFetch(f) records of shared facts.
func (s *Shared) NoteFetch(f *event.Fetch) {
	if f == nil {
		return
	}
	s.note(f.Time)
	if f.Origin == event.OriginWARC {
		if s.WARCUserAgents == nil {
			s.WARCUserAgents = make(map[string]int64)
		}
		s.WARCUserAgents[f.UserAgent]++
	}
}

// NoteEntry records what Builder.AddIndexEntry and AddSnippetEntry record
// of shared facts.
func (s *Shared) NoteEntry(e ListingEntry) { s.note(e.Time) }

// Merge adds o's facts to s.
func (s *Shared) Merge(o Shared) {
	s.note(o.Latest)
	for ua, n := range o.WARCUserAgents {
		if s.WARCUserAgents == nil {
			s.WARCUserAgents = make(map[string]int64)
		}
		s.WARCUserAgents[ua] += n
	}
}

// AddRedirectTarget adds a robots-like capture of another partition that a
// robots.txt redirect of this partition may lead to. It is used only to
// follow redirects: BuildPartition writes no version, rule, retention row
// or problem for it, and it does not move the latest time.
func (b *Builder) AddRedirectTarget(c *event.Capture) {
	if !RobotsLike(c) {
		return
	}
	auth, hostport, target, _ := splitURL(c.URL)
	isRobots := robots.IsRobotsTxt(target)
	doc := b.newDoc(c, auth, hostport, target, isRobots, c.RecordType == "revisit" && !c.Resolved)
	b.mu.Lock()
	defer b.mu.Unlock()
	src := c.Source
	src.File = b.intern(src.File)
	doc.src = src
	b.docs = append(b.docs, doc)
}

// BuildPartition finishes pass 1 for the partition key (a host[:port] as
// the Partition functions return it) with the facts shared by all
// partitions: the default as-of is s.Latest and the default archive agent
// is derived from s.WARCUserAgents. Authorities of other partitions (from
// AddRedirectTarget) serve redirects only and are not part of the model.
// The Builder must not be used afterwards.
func (b *Builder) BuildPartition(key string, s Shared) *Model {
	b.mu.Lock()
	if s.Latest.After(b.maxTime) {
		b.maxTime = s.Latest
	}
	if s.WARCUserAgents != nil {
		uas := make(map[string]int, len(s.WARCUserAgents))
		for ua, n := range s.WARCUserAgents {
			uas[ua] = int(n)
		}
		b.warcUAs = uas
	}
	foreign := make(map[event.Source]bool)
	for _, d := range b.docs {
		if d.hostport != key {
			foreign[d.src] = true
		}
	}
	b.mu.Unlock()

	m := b.Build()
	if len(foreign) == 0 {
		return m
	}
	m.authList = slices.DeleteFunc(m.authList, func(a *authority) bool { return a.hostport != key })
	for hp := range m.hosts {
		if hp != key {
			delete(m.hosts, hp)
		}
	}
	if m.defAuth != nil && m.defAuth.hostport != key {
		m.defAuth = nil
	}
	m.problems = slices.DeleteFunc(m.problems, func(p event.Problem) bool {
		return p.Code == problem.RobotsRevisitUnresolved && foreign[p.Source]
	})
	return m
}

// NeedsHeader reports whether Judge reads a fetch's Header: only for a
// signed request (Signature or Signature-Input present, Web Bot Auth).
// A pipeline may drop every other fetch's Header before shipping it.
func NeedsHeader(f *event.Fetch) bool {
	return f.Header.Has("Signature") || f.Header.Has("Signature-Input")
}

// NoteTimes records the span of one input's events, as Builder.NoteTimes
// does for a single-machine run: the default as-of is the latest time of
// any event, not only of those pass 1 keeps.
func (s *Shared) NoteTimes(first, last time.Time) {
	if !first.IsZero() {
		s.note(first)
	}
	if !last.IsZero() {
		s.note(last)
	}
}
