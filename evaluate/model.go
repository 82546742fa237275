package evaluate

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/signature"
)

// Model is the result of pass 1: every authority's robots.txt timeline,
// each bot's own robots.txt fetches, the directive timeline of every URL
// and the listings. It is immutable and safe for concurrent Judge calls.
type Model struct {
	opts     Options
	catalog  *bots.Catalog
	ids      *identity.Store
	verifier *signature.Verifier
	robots   *robotsStore     // robots.txt contents of the versions
	cards    []*identity.Card // every card known, for the cheap "may a card match this UA" test
	capSpill *capSpill        // where captures went between Build and the write phase (capspill.go)
	docSpill *docSpill        // where the documents' cold parts went after WriteBuiltTables (docspill.go)
	// groupSets are the distinct token sets of authorities' groups
	// (authority.groups, shared).
	groupSets map[string]map[string]bool

	hosts     map[string]*hostEntry // host[:port] -> authorities by scheme
	authList  []*authority          // sorted by key
	docsByURL map[string][]*rdoc

	archiveAgent        string // product token of the run-wide archive crawler; "" when unknown
	archiveLower        string
	archiveAgentDerived bool
	runCrawler          *crawler            // the option, or the run-wide most frequent bot token
	crawlers            map[string]*crawler // WARC file -> its crawler
	archivers           map[string]ident    // lower-case token -> identity of an archive crawler the catalog does not know

	captures   []*capRec // sorted by url, time, source (capsOf: the captures of one URL)
	index      []ListingEntry
	snippets   []ListingEntry
	problems   []event.Problem
	defAuth    *authority // Options.DefaultAuthority, when it has a timeline
	defScheme  string
	defHost    string
	site       Site // how the site of host-less inputs was settled
	nFetches   int64
	nCaptures  int64
	nRobotsReq int64

	// Streamed views (Builder.StreamViews, viewtracker.go): the archive
	// crawlers' robots.txt fetches pass 1 kept for the claimed views,
	// unresolved, in (time, source) order, and what pass 1 noted of each
	// host.
	stream bool
	static []staticEntry
	notes  *hostNotes
	// oneTracker: OneViewTracker was called; staticTaken: the one
	// ViewTracker took static.
	oneTracker, staticTaken bool

	uaCache uaCache
	// ipOwners caches hasIPList: IP list owner -> the store has a list
	// for it (bounded).
	ipOwners struct {
		sync.RWMutex
		m map[string]bool
	}

	countsMu sync.Mutex
	counts   archiveCounts
	// builtWritten: WriteBuiltTables wrote robots_versions, robots_rules
	// and directives.
	builtWritten bool
}

// hostEntry holds the authorities of one host[:port], by scheme.
type hostEntry struct {
	https, http *authority
}

func (m *Model) problem(src event.Source, code problem.Code, sev, msg string) {
	m.problems = append(m.problems, event.Problem{Source: src, Code: code, Severity: sev, Message: msg})
}

func (m *Model) addAuthority(a *authority) {
	h := m.hosts[a.hostport]
	if h == nil {
		h = &hostEntry{}
		m.hosts[a.hostport] = h
	}
	switch {
	case strings.HasPrefix(a.key, "https://"):
		h.https = a
	case strings.HasPrefix(a.key, "http://"):
		h.http = a
	}
}

// authorityFor resolves the authority of a request. A request without a
// host uses Options.DefaultAuthority; one without a scheme uses the
// default authority's scheme when the host matches, else https when the
// host has an https timeline, else http. It returns nil when there is no
// timeline for the authority, and known=false when the request names no
// authority at all.
func (m *Model) authorityFor(scheme, host string) (a *authority, known bool) {
	if host == "" {
		if m.defHost == "" {
			return nil, false
		}
		scheme, host = m.defScheme, m.defHost
	}
	h := m.hosts[host]
	if h == nil {
		return nil, true
	}
	return m.pickAuthority(*h, scheme, host), true
}

// pickAuthority is the authority of a request with scheme on host among
// h's (authorityFor).
func (m *Model) pickAuthority(h hostEntry, scheme, host string) *authority {
	switch scheme {
	case "https":
		return h.https
	case "http":
		return h.http
	case "":
		if host == m.defHost && m.defScheme != "" {
			if m.defScheme == "https" {
				return h.https
			}
			return h.http
		}
		if h.https != nil {
			return h.https
		}
		return h.http
	}
	return nil
}

// authorityOrNew is authorityFor for pass 1 robots.txt fetches: a bot may
// fetch robots.txt on an authority the archive never captured (its 4xx
// and 5xx answers still decide its view).
func (m *Model) authorityOrNew(scheme, host string) *authority {
	if host == "" {
		if m.defHost == "" {
			return nil
		}
		scheme, host = m.defScheme, m.defHost
	}
	if a, _ := m.authorityFor(scheme, host); a != nil {
		return a
	}
	if scheme == "" {
		if host == m.defHost && m.defScheme != "" {
			scheme = m.defScheme
		} else {
			scheme = "https"
		}
	}
	if scheme != "https" && scheme != "http" {
		return nil
	}
	a := m.newAuthority(scheme+"://"+host, host)
	m.addAuthority(a)
	m.authList = append(m.authList, a)
	return a
}

// SetDefaultAsOf sets the as-of Build takes when Options.AsOf is zero,
// in place of the latest time seen: the caller found the later times to
// be outliers (a garbled line dated 2099).
func (b *Builder) SetDefaultAsOf(t time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.defaultAsOf = t.UTC()
}

// Build finishes pass 1. The Builder must not be used afterwards.
func (b *Builder) Build() *Model {
	b.mu.Lock()
	defer b.mu.Unlock()
	opts := b.opts
	if opts.AsOf.IsZero() {
		opts.AsOf = b.maxTime
		if !b.defaultAsOf.IsZero() {
			opts.AsOf = b.defaultAsOf
		}
	}
	m := &Model{
		opts:       opts,
		catalog:    b.catalog,
		ids:        b.ids,
		robots:     b.robots,
		hosts:      make(map[string]*hostEntry),
		nFetches:   b.nFetches,
		nCaptures:  b.nCaptures,
		nRobotsReq: b.nRobotsReq,
		stream:     b.stream,
		notes:      b.notes,
	}
	b.notes = nil
	m.notes.finish()
	m.verifier = signature.NewVerifier(b.ids, signature.Options{Skew: opts.Skew, AllowTestKeys: opts.AllowTestKeys})
	m.cards = b.ids.Cards()
	m.uaCache.init()
	if opts.DefaultAuthority != "" {
		if auth, hp, _, ok := splitURL(opts.DefaultAuthority); ok {
			m.defScheme, m.defHost = auth[:strings.Index(auth, ":")], hp
		} else {
			m.problem(event.Source{Offset: -1}, problem.BadDefaultAuthority, event.SevWarning,
				"default authority "+opts.DefaultAuthority+" is not an absolute http(s) URL: log lines without a host are not judged")
		}
	}

	m.settleSite(b)
	m.buildCaptures(b) // before the timelines: redirect targets are looked for among the captures
	m.buildTimelines(m.placeSiteDocs(b))
	m.pickArchiveAgents(b)
	m.noteArchivers()
	m.buildViews(b)
	m.docsByURL = nil // Build's own index: redirects followed, requests paired
	if m.defHost != "" {
		m.defAuth, _ = m.authorityFor(m.defScheme, m.defHost)
	}
	slices.SortFunc(m.authList, func(x, y *authority) int { return strings.Compare(x.key, y.key) })

	m.index = sortEntries(b.index)
	m.snippets = sortEntries(b.snippets)
	slices.SortStableFunc(m.problems, func(x, y event.Problem) int {
		if c := lessSource(x.Source, y.Source); c != 0 {
			return c
		}
		return strings.Compare(string(x.Code), string(y.Code))
	})
	m.spillCaptures() // until the write phase: pass 2 does not need them
	return m
}

func sortEntries(es []ListingEntry) []ListingEntry {
	out := slices.Clone(es)
	slices.SortFunc(out, func(x, y ListingEntry) int {
		if c := lessSource(x.Source, y.Source); c != 0 {
			return c
		}
		if c := cmpTime(x.Time, y.Time); c != 0 {
			return c
		}
		if c := strings.Compare(x.URL, y.URL); c != 0 {
			return c
		}
		return strings.Compare(x.Agent, y.Agent)
	})
	return out
}

func cmpCap(a, b *capRec) int {
	if c := strings.Compare(a.url(), b.url()); c != 0 {
		return c
	}
	if c := cmpTime(a.time(), b.time()); c != 0 {
		return c
	}
	if c := lessSource(a.src(), b.src()); c != 0 {
		return c
	}
	return strings.Compare(a.recordID(), b.recordID())
}

// capsOf returns the captures of the normalized URL url, sorted by time
// and source: a range of m.captures, which is sorted by URL first.
func (m *Model) capsOf(url string) []*capRec {
	if m.captures == nil && m.capSpill != nil {
		m.loadCaptures() // an error is WriteTables'
	}
	i, found := slices.BinarySearchFunc(m.captures, url, func(c *capRec, u string) int { return strings.Compare(c.url(), u) })
	if !found {
		return nil
	}
	j := i + 1
	for j < len(m.captures) && m.captures[j].url() == url {
		j++
	}
	return m.captures[i:j:j]
}

// pairKey is the key a request record pairs a capture by: a record ID
// within one WARC file. Pairing never crosses files: copies of one WARC
// (the .warc and .warc.gz of one crawl) repeat record IDs, and a capture
// paired by another file's request would not be judged as its own
// crawler's fetch audited together while it is audited alone.
func pairKey(file, id string) pairHash {
	var buf [192]byte
	b := append(append(append(buf[:0], file...), 0), id...)
	sum := sha256.Sum256(b)
	return pairHash{binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])}
}

// buildCaptures sorts the capture summaries, pairs them with WARC request
// records and resolves revisits' directives.
func (m *Model) buildCaptures(b *Builder) {
	sp := buildSplit(m.opts)
	m.captures = slices.Clone(b.captures)
	sortChunked(sp, m.captures, cmpCap, false)
	reqIDs, reqConc := b.reqIDs.all(), b.reqConc.all()
	sortChunked(sp, reqIDs, cmpPairHash, false)
	sortChunked(sp, reqConc, cmpPairHash, false)
	// Each capture's pairing is its own (setPaired writes its own
	// flags): chunks on workers, their "any unresolved revisit" ORed
	// after.
	revisits := make([]bool, sp.chunkCount(len(m.captures)))
	sp.forChunks(len(m.captures), func(k, lo, hi int) {
		any := false
		for _, c := range m.captures[lo:hi] {
			id := c.recordID()
			c.setPaired((id != "" && hasPair(reqConc, pairKey(c.src().File, id))) ||
				(c.hasConc() && hasPair(reqIDs, c.concKey())))
			any = any || (c.unresolved() && !c.isRobots())
		}
		revisits[k] = any
	})
	if slices.Contains(revisits, true) {
		m.resolveCaptureRevisits()
	}
	m.directiveProblems()
	m.embargoProblems()
}

// resolveCaptureRevisits gives each unresolved revisit the directives of
// the capture it repeats.
func (m *Model) resolveCaptureRevisits() {
	byRecord := make(map[string]*capRec)
	for _, c := range m.captures {
		// recordID makes its string from the capture's 16 bytes: once.
		if id := c.recordID(); id != "" {
			if _, dup := byRecord[id]; !dup {
				byRecord[id] = c
			}
		}
	}
	// An unresolved revisit repeats the payload of an earlier capture: its
	// meta robots tags are that capture's (its own header, when it has
	// one, was already read).
	for _, c := range m.captures {
		if !c.unresolved() || c.isRobots() {
			continue
		}
		orig := byRecord[c.refersTo()]
		if orig == nil {
			list := m.capsOf(c.url())
			for i := len(list) - 1; i >= 0; i-- {
				o := list[i]
				if o.time().Before(c.time()) && !o.unresolved() && c.payload() != "" && o.payload() == c.payload() {
					orig = o
					break
				}
			}
		}
		if orig != nil && orig.dir != nil && c.dir == nil {
			c.dir = orig.dir
		}
	}
}

// directiveProblems makes directive diagnostics problems located at their
// capture.
func (m *Model) directiveProblems() {
	for _, c := range m.captures {
		if c.dir == nil {
			continue
		}
		for _, d := range c.dir.d.Diagnostics {
			msg := d.Message
			if d.Evidence != "" {
				msg += ": " + d.Evidence
			}
			m.problem(c.src(), problem.Directive(d.Code), event.SevWarning, c.rawURL()+": "+msg)
		}
	}
}

// Where a WARC or ARC file's crawler comes from (manifest
// archive_crawlers derived_from).
const (
	CrawlerFromOption           = "option"              // --archive-agent, for every file or for this one
	CrawlerFromRequests         = "request-records"     // the most frequent bot token among the file's request records
	CrawlerFromWarcinfoUA       = "warcinfo-user-agent" // its warcinfo record's (an ARC file's filedesc record's) http-header-user-agent
	CrawlerFromWarcinfoSoftware = "warcinfo-software"   // its warcinfo (filedesc) record's software
	CrawlerFromCrawl            = "crawl-files"         // the only crawler the other files of its crawl name, for a file that names none
	CrawlerFromRun              = "run-request-records" // the run-wide crawler (ArchiveAgent): named by no file's entry
)

// crawler is the archive crawler of one WARC or ARC file: the bot whose
// own robots.txt fetches its robots.txt captures are, and whose fetches
// its other captures are (docs/semantics.md, "Archive crawlers").
type crawler struct {
	token, lower string // product token; "" when unknown
	from         string // CrawlerFrom*
	crawl        string // the file's crawl key (crawlOf); "" for the run-wide crawler
	aid          ident  // its identity, for captures judged as its fetches
}

// ArchiveCrawler names the crawler of one WARC or ARC file.
type ArchiveCrawler struct {
	File  string
	Agent string // product token
	From  string // CrawlerFrom*
	// Crawl is the file's crawl key (docs/semantics.md, "Archive
	// crawlers"): the crawler's lower-case token, ":", and the isPartOf
	// its warcinfo states ("heritrix:archive.org-shallow"); "file:" and
	// the file's name when it states none or has no crawler.
	Crawl string
}

// mostFrequentBot returns the most frequent bot product token among
// User-Agents counted in uas (ties: the smallest token).
func (m *Model) mostFrequentBot(uas map[string]int) string {
	counts := make(map[string]int)
	for ua, n := range uas {
		id := m.identifyUA(ua, nil, time.Time{})
		if id.token != "" {
			counts[id.token] += n
		}
	}
	best, bestN := "", 0
	for tok, n := range counts {
		if n > bestN || (n == bestN && tok < best) {
			best, bestN = tok, n
		}
	}
	return best
}

// catalogToken returns the product token of the bot a warcinfo field
// names (a User-Agent, or software such as "Heritrix/3.4.0
// http://crawler.archive.org") when the catalog knows it, else "".
func (m *Model) catalogToken(s string) string {
	if s == "" {
		return ""
	}
	if id := m.identifyUA(s, nil, time.Time{}); id.by == byCatalog {
		return id.token
	}
	return ""
}

// pickArchiveAgents settles each WARC and ARC file's crawler (issue 12:
// each archive crawler is judged on its own) and its crawl. A file's
// crawler comes from the file itself, so that a file audited alone and
// together with others is judged alike: the option for that file or for
// every file; else the most frequent bot token among the file's own
// request records; else its warcinfo record's http-header-user-agent,
// else its software, when the bot catalog knows it. A file whose request
// records name no bot (a person's browser, as Webrecorder records) has no
// crawler. Only a file with no evidence at all (no request record, no
// warcinfo naming a known bot) borrows one, and only from its own crawl:
// the crawler every other file stating the same isPartOf names, when
// they name exactly one. A file that states no crawl, or whose crawl's
// files name none or several, has none: guessing from other files would
// make its judgement depend on which files are in the run.
func (m *Model) pickArchiveAgents(b *Builder) {
	m.crawlers = make(map[string]*crawler)
	mk := func(tok, from string) *crawler {
		if bot, ok := m.catalog.Lookup(tok); ok && from == CrawlerFromOption {
			tok = bot.Token
		}
		c := &crawler{token: tok, lower: strings.ToLower(tok), from: from}
		if tok != "" {
			c.aid = m.identOf(tok)
		}
		return c
	}
	if m.opts.ArchiveAgent != "" {
		m.runCrawler = mk(m.opts.ArchiveAgent, CrawlerFromOption)
	} else {
		m.runCrawler = mk(m.mostFrequentBot(b.warcUAs), CrawlerFromRun)
	}
	m.archiveAgent, m.archiveLower = m.runCrawler.token, m.runCrawler.lower
	m.archiveAgentDerived = m.opts.ArchiveAgent == "" && m.archiveAgent != ""
	if b.crawlers != nil {
		// A partition of a run whose files' crawlers were settled
		// once, over all inputs (Shared.SettleCrawlers).
		for _, c := range b.crawlers {
			cr := mk(c.Agent, c.From)
			cr.crawl = c.Crawl
			m.crawlers[c.File] = cr
		}
		return
	}
	files := make(map[string]bool)
	for _, c := range b.captures {
		files[c.src().File] = true
	}
	for f := range b.fileUAs {
		files[f] = true
	}
	for f := range b.infos {
		files[f] = true
	}
	var orphans []string
	// The crawlers each crawl's files name by their own evidence:
	// isPartOf -> lower-case token -> the first file's crawler.
	named := make(map[string]map[string]*crawler)
	for f := range files {
		c := m.ownCrawler(b, f, mk)
		switch {
		case c == nil:
			orphans = append(orphans, f)
			continue
		case c.token != "":
			if p := b.infos[f].crawl; p != "" {
				if named[p] == nil {
					named[p] = make(map[string]*crawler)
				}
				if named[p][c.lower] == nil {
					named[p][c.lower] = c
				}
			}
		}
		m.crawlers[f] = c
	}
	for _, f := range orphans {
		c := &crawler{}
		if p := b.infos[f].crawl; p != "" && len(named[p]) == 1 {
			for _, n := range named[p] {
				c = mk(n.token, CrawlerFromCrawl)
			}
		}
		m.crawlers[f] = c
	}
	for f, c := range m.crawlers {
		c.crawl = "file:" + f
		if c.token != "" {
			if p := b.infos[f].crawl; p != "" {
				c.crawl = c.lower + ":" + p
			}
		}
	}
}

// ownCrawler returns the crawler file names itself: by the option, its
// request records or its warcinfo record. It returns a crawler without a
// token when the file's request records name no bot, and nil when the
// file says nothing about its crawler. Each call returns a crawler of its
// own (pickArchiveAgents sets its crawl).
func (m *Model) ownCrawler(b *Builder, file string, mk func(tok, from string) *crawler) *crawler {
	if tok := m.opts.archiveAgentFor(file); tok != "" {
		return mk(tok, CrawlerFromOption)
	}
	uas, hasRequests := b.fileUAs[file]
	if tok := m.mostFrequentBot(uas); tok != "" {
		return mk(tok, CrawlerFromRequests)
	}
	if info, ok := b.infos[file]; ok {
		// Only a crawler the catalog knows: tools that write WARCs of
		// what others captured (repaudit robots history, a demo
		// generator, warcprox) name themselves here too.
		if tok := m.catalogToken(info.userAgent); tok != "" {
			return mk(tok, CrawlerFromWarcinfoUA)
		}
		if tok := m.catalogToken(info.software); tok != "" {
			return mk(tok, CrawlerFromWarcinfoSoftware)
		}
	}
	if hasRequests {
		return &crawler{from: CrawlerFromRequests}
	}
	return nil
}

// crawlerOf returns the crawler of the WARC file file (the run-wide one
// for a file the model has not seen). Never nil.
func (m *Model) crawlerOf(file string) *crawler {
	if c := m.crawlers[file]; c != nil {
		return c
	}
	return m.runCrawler
}

// crawlOf returns the crawl key of the WARC or ARC file file: its
// crawler's lower-case token, ":", and the isPartOf the file's first
// warcinfo (or ARC filedesc) record stating one gives (so two crawlers
// never share a crawl), or "file:"+file when the file states no crawl,
// has no crawler, or is not known to the model: each such file is a
// crawl of its own.
// Every file the model knows has its key made once (pickArchiveAgents):
// crawlOf is asked for each archive record judged.
func (m *Model) crawlOf(file string) string {
	if c := m.crawlers[file]; c != nil && c.crawl != "" {
		return c.crawl
	}
	return "file:" + file
}

// ArchiveAgent returns the run-wide archive crawler's product token (the
// option, or the most frequent bot token among every WARC file's request
// records) and whether it was derived rather than given. Each file's own
// crawler is in ArchiveCrawlers.
func (m *Model) ArchiveAgent() (token string, derived bool) {
	return m.archiveAgent, m.archiveAgentDerived
}

// ArchiveCrawlers returns the crawler of every WARC file with captures or
// request records, sorted by file.
func (m *Model) ArchiveCrawlers() []ArchiveCrawler {
	out := make([]ArchiveCrawler, 0, len(m.crawlers))
	for f, c := range m.crawlers {
		if f == "" {
			continue
		}
		from := c.from
		if c.token == "" {
			from = ""
		}
		out = append(out, ArchiveCrawler{File: f, Agent: c.token, From: from, Crawl: m.crawlOf(f)})
	}
	slices.SortFunc(out, func(x, y ArchiveCrawler) int { return strings.Compare(x.File, y.File) })
	return out
}

// Close releases the temporary files robots.txt bodies and documents were
// spilled to (Options.SpillDir) and returns the first error reading or
// writing them,
// after which some judgements may be wrong. Judge, WriteTables and every
// method that reads robots.txt rules must not be called afterwards.
func (m *Model) Close() error {
	if sp := m.capSpill; sp != nil {
		sp.once.Do(func() { sp.err = errors.New("evaluate: captures read after Close") })
		sp.close()
	}
	derr := m.docSpill.failed()
	m.docSpill.close()
	if err := m.robots.close(); err != nil {
		return err
	}
	return derr
}

// AsOf returns the time retention and latest directives are judged at.
func (m *Model) AsOf() time.Time { return m.opts.AsOf }

// Problems returns what pass 1 could not use or read only leniently:
// unresolved robots.txt revisits and directive diagnostics, located at
// their capture. WriteTables writes them to the problems table too.
func (m *Model) Problems() []event.Problem { return slices.Clone(m.problems) }

// noteArchivers keeps the identity of each archive crawler the bot
// catalog does not know (an archiver, identOf), so that its fetches from
// request records and logs get the category its captures have: one
// category per agent across a run (docs/semantics.md).
func (m *Model) noteArchivers() {
	m.archivers = nil
	add := func(c *crawler) {
		if c == nil || c.token == "" || c.aid.bot != nil {
			return
		}
		if m.archivers == nil {
			m.archivers = make(map[string]ident)
		}
		if _, ok := m.archivers[c.lower]; !ok {
			m.archivers[c.lower] = c.aid
		}
	}
	add(m.runCrawler)
	for _, c := range m.crawlers {
		add(c)
	}
}

// oneCategory gives an agent that neither the catalog nor a card names,
// and that is an input archive's crawler, the category and operator it
// has as that crawler.
func (m *Model) oneCategory(id *ident) {
	if id.token == "" || id.bot != nil || id.card != nil || len(m.archivers) == 0 {
		return
	}
	if aid, ok := m.archivers[id.lower]; ok {
		id.category = aid.category
		if id.operator == "" {
			id.operator = aid.operator
		}
	}
}
