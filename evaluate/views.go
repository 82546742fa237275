package evaluate

import (
	"net/netip"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
)

// viewKind is what a bot's own robots.txt fetch told it.
type viewKind int8

const (
	vkUnknown     viewKind = iota // content not known: not judged
	vkContent                     // rules of a known version
	vkAllowAll                    // 4xx (or a version that allows all): unavailable
	vkUnreachable                 // 5xx or no response: complete disallow
)

// viewEntry is one fetch of /robots.txt by a bot on an authority: a log
// line, a WARC request record, or (for the archive crawler) a robots.txt
// capture.
type viewEntry struct {
	time     time.Time
	status   int
	src      event.Source
	capture  *rdoc    // set when the entry is an archive capture
	ver      *version // the version of that capture
	kind     viewKind
	content  *version // vkContent: the version whose rules the bot got
	runStart time.Time
	note     string // how the content was chosen, for evidence
}

// scopeKind says whose robots.txt fetches make a view (docs/semantics.md,
// Evaluation §5.1): a bot's view is keyed by its product token and by
// who fetched, so that a spoofer's robots.txt fetch never changes the
// operator's view, nor one crawl's capture another crawl's.
type scopeKind uint8

const (
	// scopeToken: every client claiming the token that no check found
	// false (claimed and verified ones). Clients whose identity cannot
	// be checked are judged by it.
	scopeToken scopeKind = iota
	// scopeVerified: the operator's verified clients only (an operator's
	// crawler fleet shares one robots.txt cache).
	scopeVerified
	// scopeClient: one spoofed client, by its address.
	scopeClient
	// scopeCrawl: the files of one archive crawl (Model.crawlOf).
	scopeCrawl
)

// viewScope is the part of a view's key beside the product token.
type viewScope struct {
	kind  scopeKind
	ip    netip.Addr // scopeClient
	crawl string     // scopeCrawl
}

// vkey keys a bot's view on an authority: its lower-cased product token
// and whose fetches count.
type vkey struct {
	lower string
	sc    viewScope
}

func crawlScope(crawl string) viewScope { return viewScope{kind: scopeCrawl, crawl: crawl} }

// viewSet holds an authority's bots' views by key: one to four on most
// authorities (an archive's crawler under its crawl's scope and the
// token's), so a fewMap.
type viewSet = fewMap[vkey, *botView]

// botView is one bot's robots.txt fetches on one authority, in time order.
type botView struct {
	token   string // product token as first seen
	entries []viewEntry
}

// at returns the bot's last robots.txt fetch at or before t, or nil.
func (bv *botView) at(t time.Time) *viewEntry {
	if bv == nil {
		return nil
	}
	es := bv.entries
	i := sort.Search(len(es), func(i int) bool { return es[i].time.After(t) })
	if i == 0 {
		return nil
	}
	return &es[i-1]
}

// atSrc returns the crawl's last robots.txt fetch at or before the record
// at (t, src). Within one file, records of the same time follow their
// order in it: a crawler's robots.txt capture written after a page it
// stamped with the same second was fetched after it (record order is the
// crawler's own evidence of what it knew), and a robots.txt capture is
// its own view, as a log's robots.txt fetch is. Records of other files
// of the crawl count at their time, as a log's do (Evaluation §1): the
// order of two files says nothing of the order of their records.
func (bv *botView) atSrc(t time.Time, src event.Source) *viewEntry {
	if bv == nil {
		return nil
	}
	es := bv.entries
	i := sort.Search(len(es), func(i int) bool { return es[i].time.After(t) })
	for ; i > 0; i-- {
		e := &es[i-1]
		if e.time.Equal(t) && e.src.File == src.File && lessSource(e.src, src) > 0 {
			continue // further on in the same file: fetched after the record
		}
		return e
	}
	return nil
}

// buildViews files every robots.txt fetch of pass 1 under its authority,
// product token and scope (viewScope), adds the archive crawlers'
// robots.txt captures, and settles what each fetch told the bot. An
// archive crawl's robots.txt fetch (a capture, or a WARC request record)
// counts for its crawl's view and, as the fetch of a client nothing can
// check, for the token's claimed view (§5.1). When the Builder streams
// robots.txt fetches (Builder.StreamViews), pass 1 kept only those of WARC
// request records: the crawl views built here are complete, and the
// claimed views' archive entries are kept unresolved in m.static only,
// for the ViewTracker to apply in time order with the log's robots.txt
// fetches (addEntry).
func (m *Model) buildViews(b *Builder) {
	sp := buildSplit(m.opts)
	m.addFetchedViews(b)
	m.addCapturedViews(sp)
	// Each authority's views are its own: settled on workers.
	sp.forChunks(len(m.authList), func(_, lo, hi int) {
		for _, a := range m.authList[lo:hi] {
			a.views.each(func(k vkey, bv *botView) {
				slices.SortStableFunc(bv.entries, cmpEntry)
				m.resolveEntries(a, bv)
			})
		}
	})
	// Entries of one key keep the order they were filed in (the sort is
	// stable), as those of a view do; entries of different keys never
	// meet, so the order between them does not matter.
	sortChunked(sp, m.static, func(x, y staticEntry) int { return cmpEntry(x.e, y.e) }, true)
}

// addEntry files e under the view of the bot token, scope sc, on a. When
// the Builder streams views, the token's claimed view (scopeToken) is the
// ViewTracker's: its entries are kept unresolved in m.static only, not
// also in a view no fetch would read (pass 2 judges every fetch through
// the tracker, and archive records by their crawl's view).
func (m *Model) addEntry(a *authority, token string, sc viewScope, e viewEntry) {
	if m.stream && sc.kind == scopeToken {
		m.static = append(m.static, staticEntry{a: a, lower: strings.ToLower(token), e: e})
		return
	}
	bv := m.viewFor(a, token, sc)
	bv.entries = append(bv.entries, e)
}

// cmpEntry orders a bot's robots.txt fetches by time, then source.
func cmpEntry(x, y viewEntry) int {
	if c := cmpTime(x.time, y.time); c != 0 {
		return c
	}
	return lessSource(x.src, y.src)
}

// addFetchedViews files the robots.txt fetches of logs and WARC request
// records, in time order, under the bot that made them: a WARC request
// record under its file's crawl, a log's under the client's identity
// (robotsScope).
func (m *Model) addFetchedViews(b *Builder) {
	paired := m.robotsCapturePairs()
	for rf := range b.robotsFetches() {
		if rf.origin == event.OriginWARC && paired(rf) {
			continue
		}
		if rf.status < 200 || rf.status > 599 {
			continue // status unknown: says nothing about the bot's view
		}
		a := m.authorityOrNew(rf.scheme, rf.host)
		if a == nil {
			continue
		}
		id := m.identifyUA(rf.ua, a, rf.time)
		if id.token == "" {
			continue
		}
		e := viewEntry{time: rf.time, status: rf.status, src: rf.src}
		var scopes []viewScope
		switch {
		case rf.origin == event.OriginWARC:
			scopes = []viewScope{crawlScope(m.crawlOf(rf.src.File)), {}}
		case rf.fetch == nil:
			scopes = []viewScope{{}}
		default:
			scopes = scopesOf(m.robotsScope(rf.fetch, rf.time, id))
		}
		for _, sc := range scopes {
			m.addEntry(a, id.token, sc, e)
		}
	}
}

// robotsCapturePairs returns whether a WARC request record of /robots.txt
// pairs with a robots.txt capture: robots captures are the archive
// crawler's own robots.txt fetches, and their request records add nothing.
func (m *Model) robotsCapturePairs() func(rf *rfetch) bool {
	robotsByID := make(map[string]bool)
	robotsConc := make(map[string]bool)
	for _, list := range m.docsByURL {
		for _, d := range list {
			if !d.isRobots {
				continue
			}
			if d.recordID != "" {
				robotsByID[d.recordID] = true
			}
			for _, c := range d.conc {
				robotsConc[c] = true
			}
		}
	}
	return func(rf *rfetch) bool {
		paired := rf.recordID != "" && robotsConc[rf.recordID]
		for _, c := range rf.conc {
			paired = paired || robotsByID[c]
		}
		return paired
	}
}

// addCapturedViews files each archived robots.txt capture as a fetch by
// the crawler of its WARC file. Authorities are filed on workers, in
// chunks: a chunk's views are its authorities' own, and its entries for
// m.static (streamed views) go to a region of m.static sized for the
// chunk's captures, closed up after in chunk order, so that m.static is
// the serial loop's.
func (m *Model) addCapturedViews(sp split) {
	auths := m.authList
	k := sp.chunkCount(len(auths))
	var start []int // each chunk's region of m.static, when streaming
	if m.stream {
		// Each capture adds one entry to m.static at most: room for them
		// at once, where growing a list this long by appends allocates
		// about five times its final size.
		start = make([]int, k+1)
		start[0] = len(m.static)
		for c := range k {
			lo, hi := chunkBounds(len(auths), k, c)
			start[c+1] = start[c] + archivedCaptures(auths[lo:hi])
		}
		m.static = slices.Grow(m.static, start[k]-len(m.static))[:start[k]]
	}
	filled := make([]int, k) // entries each chunk put in its region
	sp.forChunks(len(auths), func(c, lo, hi int) {
		var region []staticEntry
		if start != nil {
			region = m.static[start[c]:start[c]:start[c+1]]
		}
		for _, a := range auths[lo:hi] {
			region = m.addCapturesOf(a, region)
		}
		filled[c] = len(region)
	})
	if start == nil {
		return
	}
	n := start[0]
	for c := range k {
		n += copy(m.static[n:], m.static[start[c]:start[c]+filled[c]])
	}
	clear(m.static[n:])
	m.static = m.static[:n]
}

// addCapturesOf files a's archived robots.txt captures (addCapturedViews)
// under a's views, and appends those for m.static to region, which has
// room for them all.
func (m *Model) addCapturesOf(a *authority, region []staticEntry) []staticEntry {
	for _, v := range a.versions {
		if v.segment || !v.doc.archived() {
			continue // a git commit or a Wayback capture is not the archive crawler's fetch
		}
		// One entry per capture, collapsed ones included: the
		// crawler fetched robots.txt each time. Each capture is
		// the fetch of its own file's crawler.
		for i := -1; i < len(v.captures); i++ {
			d, in := v.doc, v
			if i >= 0 {
				d = v.captures[i]
				// A later capture may lie past the 30-day point of
				// an unreachable version: its segment is in force.
				if at := a.versionAt(d.time); at != nil && at.doc == v.doc {
					in = at
				}
			}
			cr := m.crawlerOf(d.src.File)
			if cr.token == "" {
				continue
			}
			st := d.status
			if st == 0 && d.recordType == "resource" {
				st = 200
			}
			e := viewEntry{time: d.time, status: st, src: d.src, capture: d, content: in, ver: in}
			for _, sc := range [2]viewScope{crawlScope(m.crawlOf(d.src.File)), {}} {
				if m.stream && sc.kind == scopeToken { // addEntry
					region = append(region, staticEntry{a: a, lower: strings.ToLower(cr.token), e: e})
					continue
				}
				bv := m.viewFor(a, cr.token, sc)
				bv.entries = append(bv.entries, e)
			}
		}
	}
	return region
}

// archivedCaptures counts the robots.txt captures addCapturedViews files
// on auths.
func archivedCaptures(auths []*authority) int {
	n := 0
	for _, a := range auths {
		for _, v := range a.versions {
			if !v.segment && v.doc.archived() {
				n += 1 + len(v.captures)
			}
		}
	}
	return n
}

func (m *Model) viewFor(a *authority, token string, sc viewScope) *botView {
	k := vkey{lower: strings.ToLower(token), sc: sc}
	bv := a.views.get(k)
	if bv == nil {
		bv = &botView{token: token}
		a.views.set(k, bv)
	}
	return bv
}

// scopesOf returns the views a log's robots.txt fetch of scope sc counts
// for: a verified client's fetch counts for the operator's verified
// clients and for every client of the token whose identity could not be
// checked; a claimed client's for the latter only; a spoofed client's for
// itself only.
func scopesOf(sc viewScope) []viewScope {
	if sc.kind == scopeVerified {
		return []viewScope{sc, {}}
	}
	return []viewScope{sc}
}

// resolveEntries settles what each robots.txt fetch told the bot
// (docs/semantics.md, "Evaluation" §5.1), in time order: see
// resolveEntry.
func (m *Model) resolveEntries(a *authority, bv *botView) {
	for i := range bv.entries {
		var prev *viewEntry
		if i > 0 {
			prev = &bv.entries[i-1]
		}
		m.resolveEntry(a, &bv.entries[i], prev)
	}
}

// resolveEntry settles what one robots.txt fetch told the bot
// (docs/semantics.md, "Evaluation" §5.1): 2xx the content in force at that moment, 304 the content of its
// previous fetch, 3xx the version in force (its redirect resolved), 4xx
// allow all, 5xx complete disallow. prev is the bot's previous fetch on a
// (nil when none), already resolved: a 304 keeps its content and a 5xx
// continues its unreachable run.
func (m *Model) resolveEntry(a *authority, e, prev *viewEntry) {
	switch {
	case e.capture != nil:
		e.kind = kindOfVersion(e.content)
		if e.kind != vkContent {
			e.content = nil
		}
		if e.capture.status == 0 && e.kind == vkUnreachable {
			e.note = "no response"
		}
		if e.content == nil && e.kind == vkUnknown {
			e.note = "the capture's content is unknown"
		}
	case e.status >= 200 && e.status < 300:
		v := a.lastRulesAt(e.time)
		if v == nil {
			e.kind = vkUnknown
			e.note = "no successful capture of robots.txt at or before that fetch: its content is unknown"
			break
		}
		e.kind, e.content = vkContent, v
		if in := a.versionAt(e.time); in != v {
			e.note = "the archive's version in force then (" + in.id + ", status " + itoa(in.doc.status) + ") has no rules: the last successful capture is used"
		}
	case e.status == 304:
		if prev != nil && prev.kind == vkContent {
			e.kind, e.content = vkContent, prev.content
			e.note = "304 Not Modified keeps the version of its previous fetch (" + fmtTime(prev.time) + ")"
			break
		}
		if v := a.versionAt(e.time); v != nil && v.effect == effRules {
			e.kind, e.content = vkContent, v
			e.note = "304 Not Modified with no earlier successful fetch seen: the version in force then is used"
			break
		}
		e.kind = vkUnknown
		e.note = "304 Not Modified with no earlier successful fetch and no known version"
	case e.status >= 300 && e.status < 400:
		v := a.versionAt(e.time)
		e.kind = kindOfVersion(v)
		if e.kind == vkContent {
			e.content = v
		}
		e.note = "redirect: the archive's version in force then is used"
		if v == nil {
			e.note = "redirect, and no archived version to follow it"
		}
	case e.status >= 400 && e.status < 500:
		e.kind = vkAllowAll
	case e.status >= 500:
		e.kind = vkUnreachable
	}
	if e.kind == vkUnreachable {
		if prev != nil && prev.kind == vkUnreachable {
			e.runStart = prev.runStart
		} else {
			e.runStart = e.time
		}
	}
}

func kindOfVersion(v *version) viewKind {
	if v == nil {
		return vkUnknown
	}
	switch v.effect {
	case effRules:
		return vkContent
	case effAllowAll:
		return vkAllowAll
	case effDisallowAll:
		return vkUnreachable
	}
	return vkUnknown
}
