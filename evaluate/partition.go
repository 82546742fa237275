package evaluate

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/extract"
	"github.com/repaudit/repaudit/identity"
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
// Once, over the Shared facts merged from every input:
//
//	shared.Crawlers = shared.SettleCrawlers(opts, catalog, ids) // each WARC file's crawler
//
// Per partition:
//
//	b := evaluate.NewBuilder(opts, catalog, ids)   // the same catalog and identity store everywhere
//	b.AddCapture / AddFetch / AddIndexEntry / AddSnippetEntry for the partition's events
//	b.AddRedirectTarget(c) for robots-like captures of other partitions that its redirects lead to
//	(with Options.DefaultAuthority = shared.SettleSite(opts).Authority, and the
//	site's host-less events and site versions in that site's partition)
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
// all (it is judged, but against nothing). A WARC request record goes to
// the partition of its WARC-Target-URI, that of its response
// (CapturePartition), whatever its Host header says: the two must meet
// to be paired, and a wrong Content-Length may cut the header.
func FetchPartition(f *event.Fetch, defaultAuthority string) string {
	if f.Origin == event.OriginWARC && f.TargetURI != "" {
		if _, hp, _, ok := splitURL(f.TargetURI); ok {
			return hp
		}
	}
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
	// Latest and Earliest are the latest and earliest times among the
	// captures, fetches, listing entries and timed site versions: the
	// default as-of (Options.AsOf), and where site versions without a
	// time start.
	Latest   time.Time
	Earliest time.Time `json:",omitzero"`
	// WARCUserAgents counts the User-Agents of WARC request records (the
	// default archive agent, Options.ArchiveAgent).
	WARCUserAgents map[string]int64
	// FileUserAgents counts them per WARC file, and Warcinfo holds what
	// each WARC file's first warcinfo record names: a file's crawler is
	// settled from the whole file, not from one partition's records.
	FileUserAgents map[string]map[string]int64 `json:",omitempty"`
	Warcinfo       map[string]WarcinfoFields   `json:",omitempty"`
	// CaptureFiles names the input files with HTTP captures: with the
	// files of FileUserAgents and Warcinfo, those whose crawler
	// SettleCrawlers settles.
	CaptureFiles map[string]bool `json:",omitempty"`
	// Crawlers is every WARC file's crawler once SettleCrawlers has run
	// over all inputs; BuildPartition then takes them as they are, and
	// FileUserAgents, Warcinfo and CaptureFiles are no longer needed.
	Crawlers []ArchiveCrawler
	// What settles the site of host-less inputs when Options.DefaultAuthority
	// is not given (the one authority the inputs name, see SettleSite):
	// fetches without a host, site versions without a URL, and the
	// host[:port]s (with their scheme, "" when unknown) named by fetches
	// (at most 64, as Builder.NoteHosts keeps), robots.txt captures and
	// other captures (at most 64 each).
	Hostless     int64             `json:",omitempty"`
	SiteVersions int               `json:",omitempty"`
	FetchHosts   map[string]string `json:",omitempty"`
	RobotsHosts  map[string]string `json:",omitempty"`
	CaptureHosts map[string]string `json:",omitempty"`
}

// WarcinfoFields is what a file's warcinfo records say about its crawler
// and its crawl: the http-header-user-agent and software of the first
// record naming either, the isPartOf of the first naming one.
type WarcinfoFields struct {
	UserAgent string `json:",omitempty"` // http-header-user-agent
	Software  string `json:",omitempty"`
	IsPartOf  string `json:",omitempty"`
}

func (w WarcinfoFields) info() warcinfo {
	return warcinfo{userAgent: w.UserAgent, software: w.Software, crawl: w.IsPartOf}
}

// merge fills what w lacks from the fields of a later record o.
func (w WarcinfoFields) merge(o warcinfo) WarcinfoFields {
	m := w.info().merge(o)
	return WarcinfoFields{UserAgent: m.userAgent, Software: m.software, IsPartOf: m.crawl}
}

// maxSharedHosts caps the capture authorities Shared remembers for site
// inference, as Builder.NoteHosts caps those of fetches: past one the
// answer is "none"; the cap only shortens the count of candidate sites a
// robots-source-no-site problem names, and keeps Shared small on a run
// over many hosts.
const maxSharedHosts = maxSeenHosts

func (s *Shared) note(t time.Time) {
	if t.IsZero() {
		return
	}
	if t = t.UTC(); t.After(s.Latest) {
		s.Latest = t
	}
	if s.Earliest.IsZero() || t.Before(s.Earliest) {
		s.Earliest = t.UTC()
	}
}

// NoteCapture records what Builder.AddCapture(c) records of shared facts.
func (s *Shared) NoteCapture(c *event.Capture) {
	if c == nil || !isHTTPRecord(c.RecordType) {
		return
	}
	auth, hp, target, ok := splitURL(c.URL)
	if !ok {
		return
	}
	s.note(c.Time)
	if s.CaptureFiles == nil {
		s.CaptureFiles = make(map[string]bool)
	}
	s.CaptureFiles[c.Source.File] = true
	scheme := auth[:strings.Index(auth, ":")]
	if robots.IsRobotsTxt(target) {
		s.RobotsHosts = noteHost(s.RobotsHosts, hp, scheme, maxSharedHosts)
	}
	if _, seen := s.CaptureHosts[hp]; !seen {
		s.CaptureHosts = noteHost(s.CaptureHosts, hp, scheme, maxSharedHosts)
	}
}

// noteHost sets m[hp] = scheme within the cap; of two schemes for one
// robots.txt host, "https" is kept, so the result does not depend on the
// order the facts are merged in.
func noteHost(m map[string]string, hp, scheme string, limit int) map[string]string {
	if m == nil {
		m = make(map[string]string)
	}
	prev, ok := m[hp]
	switch {
	case !ok && len(m) >= limit:
	case !ok || prev == "" || scheme == "https":
		m[hp] = scheme
	}
	return m
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
		if s.FileUserAgents == nil {
			s.FileUserAgents = make(map[string]map[string]int64)
		}
		uas := s.FileUserAgents[f.Source.File]
		if uas == nil {
			uas = make(map[string]int64)
			s.FileUserAgents[f.Source.File] = uas
		}
		uas[f.UserAgent]++
	}
}

// NoteWarcinfo records what Builder.AddWarcinfo records of shared facts.
func (s *Shared) NoteWarcinfo(src event.Source, info event.Header) {
	w := infoFields(info)
	if w == (warcinfo{}) {
		return
	}
	if s.Warcinfo == nil {
		s.Warcinfo = make(map[string]WarcinfoFields)
	}
	s.Warcinfo[src.File] = s.Warcinfo[src.File].merge(w)
}

// NoteHosts records what Builder.NoteHosts records: once per input file,
// the authorities its fetches named and how many named none.
func (s *Shared) NoteHosts(hosts []string, hostless int64) {
	for _, h := range hosts {
		scheme, hp := "", h
		if i := strings.Index(h, "://"); i >= 0 {
			scheme, hp = h[:i], h[i+3:]
		}
		if hp = normalizeHost(scheme, hp); hp == "" {
			continue
		}
		if prev, ok := s.FetchHosts[hp]; (!ok && len(s.FetchHosts) < maxSeenHosts) || (ok && prev == "") {
			if s.FetchHosts == nil {
				s.FetchHosts = make(map[string]string)
			}
			s.FetchHosts[hp] = scheme
		}
	}
	s.Hostless += hostless
}

// NoteSiteVersion records what Builder.AddSiteVersion records of shared
// facts.
func (s *Shared) NoteSiteVersion(v SiteVersion) {
	if !v.From.IsZero() {
		s.note(v.From)
	}
	if v.URL == "" {
		s.SiteVersions++
		return
	}
	if auth, hp, _, ok := splitURL(v.URL); ok {
		s.RobotsHosts = noteHost(s.RobotsHosts, hp, auth[:strings.Index(auth, ":")], maxSharedHosts)
	}
}

// NoteEntry records what Builder.AddIndexEntry and AddSnippetEntry record
// of shared facts.
func (s *Shared) NoteEntry(e ListingEntry) { s.note(e.Time) }

// Merge adds o's facts to s.
func (s *Shared) Merge(o Shared) {
	s.note(o.Latest)
	s.note(o.Earliest)
	for ua, n := range o.WARCUserAgents {
		if s.WARCUserAgents == nil {
			s.WARCUserAgents = make(map[string]int64)
		}
		s.WARCUserAgents[ua] += n
	}
	for f, uas := range o.FileUserAgents {
		if s.FileUserAgents == nil {
			s.FileUserAgents = make(map[string]map[string]int64)
		}
		m := s.FileUserAgents[f]
		if m == nil {
			m = make(map[string]int64)
			s.FileUserAgents[f] = m
		}
		for ua, n := range uas {
			m[ua] += n
		}
	}
	for f, w := range o.Warcinfo {
		if s.Warcinfo == nil {
			s.Warcinfo = make(map[string]WarcinfoFields)
		}
		s.Warcinfo[f] = s.Warcinfo[f].merge(w.info())
	}
	for f := range o.CaptureFiles {
		if s.CaptureFiles == nil {
			s.CaptureFiles = make(map[string]bool)
		}
		s.CaptureFiles[f] = true
	}
	if s.Crawlers == nil {
		s.Crawlers = o.Crawlers
	}
	s.Hostless += o.Hostless
	s.SiteVersions += o.SiteVersions
	for _, hp := range slices.Sorted(maps.Keys(o.FetchHosts)) {
		h := hp
		if sc := o.FetchHosts[hp]; sc != "" {
			h = sc + "://" + hp
		}
		s.NoteHosts([]string{h}, 0)
	}
	for hp, sc := range o.RobotsHosts {
		s.RobotsHosts = noteHost(s.RobotsHosts, hp, sc, maxSharedHosts)
	}
	for hp, sc := range o.CaptureHosts {
		if _, seen := s.CaptureHosts[hp]; !seen {
			s.CaptureHosts = noteHost(s.CaptureHosts, hp, sc, maxSharedHosts)
		}
	}
}

// SettleCrawlers settles the crawler of every WARC file the facts name,
// over all inputs, as Build does for one run (docs/semantics.md,
// "Archive crawlers"): the option, else the file's own request records or
// warcinfo record, else — for a file with none — the crawler every other
// file names when they name exactly one. catalog and ids must be those
// the partitions are built with (a card can name a User-Agent's product
// token). A partitioned run settles them once and gives the result to
// every partition in Crawlers, so that a file's crawler does not depend on
// which partition its captures fall in, and the partitions need not carry
// every file's User-Agent counts.
func (s *Shared) SettleCrawlers(opts Options, catalog *bots.Catalog, ids *identity.Store) []ArchiveCrawler {
	if catalog == nil {
		catalog = &bots.Catalog{}
	}
	if ids == nil {
		ids = identity.NewStore()
	}
	b := &Builder{
		warcUAs: make(map[string]int, len(s.WARCUserAgents)),
		fileUAs: make(map[string]map[string]int, len(s.FileUserAgents)),
		infos:   make(map[string]warcinfo, len(s.Warcinfo)),
	}
	for ua, n := range s.WARCUserAgents {
		b.warcUAs[ua] = int(n)
	}
	for f, uas := range s.FileUserAgents {
		m := make(map[string]int, len(uas))
		for ua, n := range uas {
			m[ua] = int(n)
		}
		b.fileUAs[f] = m
	}
	for f, w := range s.Warcinfo {
		b.infos[f] = w.info()
	}
	for f := range s.CaptureFiles {
		b.captures = append(b.captures, newCapRec(&capFields{src: event.Source{File: f}}))
	}
	m := &Model{opts: opts.withDefaults(), catalog: catalog, ids: ids}
	m.cards = ids.Cards()
	m.uaCache.init()
	m.pickArchiveAgents(b)
	m.noteArchivers()
	return m.ArchiveCrawlers()
}

// siteBuilder is a Builder holding only what settleSite reads, from the
// facts of s.
func (s *Shared) siteBuilder() *Builder {
	b := &Builder{hostless: s.Hostless, seenHosts: maps.Clone(s.FetchHosts)}
	for range s.SiteVersions {
		b.siteDocs = append(b.siteDocs, &rdoc{rdocCold: &rdocCold{}})
	}
	for hp, sc := range s.RobotsHosts {
		b.docs = append(b.docs, &rdoc{isRobots: true, rdocCold: &rdocCold{hostport: hp, auth: sc + "://" + hp}})
	}
	for hp, sc := range s.CaptureHosts {
		b.captures = append(b.captures, newCapRec(&capFields{url: sc + "://" + hp + "/"}))
	}
	return b
}

// knownHosts is every authority the facts name, as settleSite collects
// them.
func (s *Shared) knownHosts() map[string]string {
	known := maps.Clone(s.FetchHosts)
	if known == nil {
		known = make(map[string]string)
	}
	maps.Copy(known, s.RobotsHosts)
	for hp, sc := range s.CaptureHosts {
		if _, ok := known[hp]; !ok {
			known[hp] = sc
		}
	}
	return known
}

// SettleSite settles the site of host-less fetches and of site versions
// without a URL over all inputs, as Build does for one (docs/semantics.md,
// "Site inference"): opts.DefaultAuthority when given, else the one
// authority the inputs name. A partitioned run keys those events by the
// site's host[:port] and judges every partition with
// Options.DefaultAuthority set to Site.Authority.
func (s *Shared) SettleSite(opts Options) Site {
	m := &Model{opts: opts}
	if opts.DefaultAuthority != "" {
		if auth, hp, _, ok := splitURL(opts.DefaultAuthority); ok {
			m.defScheme, m.defHost = auth[:strings.Index(auth, ":")], hp
		}
	}
	m.settleSite(s.siteBuilder())
	return m.site
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
	if !s.Earliest.IsZero() && (b.minTime.IsZero() || s.Earliest.Before(b.minTime)) {
		b.minTime = s.Earliest
	}
	// A WARC file's crawler is settled from the whole file: once over
	// all inputs (Crawlers), or here from the facts of every file.
	if s.Crawlers != nil {
		b.crawlers = s.Crawlers
	}
	for f, uas := range s.FileUserAgents {
		m := make(map[string]int, len(uas))
		for ua, n := range uas {
			m[ua] = int(n)
		}
		b.fileUAs[b.intern(f)] = m
	}
	for f, w := range s.Warcinfo {
		b.infos[b.intern(f)] = w.info()
	}
	if key == "" && b.opts.DefaultAuthority == "" {
		// Host-less events that no site could be settled for: the
		// partition's own settleSite must see every authority the inputs
		// name, to say so in the same words as Build.
		for hp, sc := range s.knownHosts() {
			if b.seenHosts == nil {
				b.seenHosts = make(map[string]string)
			}
			b.seenHosts[hp] = sc
		}
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
func NeedsHeader(f *event.Fetch) bool { return hasSignatureFields(f.Header) }

// hasSignatureFields is h.Has("Signature") || h.Has("Signature-Input") in
// one pass over h, asked of every fetch: a field name fold-equals either
// name (strings.EqualFold) only if its first rune folds to 's', that is,
// if it starts with 'S', 's' or the first byte of 'ſ' (U+017F, which
// folds to 's'), so the other fields are skipped on their first byte.
func hasSignatureFields(h event.Header) bool {
	for i := range h {
		n := h[i].Name
		if n == "" || (n[0] != 'S' && n[0] != 's' && n[0] != 0xC5) {
			continue
		}
		if strings.EqualFold(n, "Signature") || strings.EqualFold(n, "Signature-Input") {
			return true
		}
	}
	return false
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
