package evaluate

import (
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

// buildViews files every robots.txt fetch of pass 1 under its authority and
// product token (matched by product token, never by IP), adds the archive
// crawler's robots.txt captures, and settles what each fetch told the bot.
// When the Builder streams robots.txt fetches (Builder.StreamViews), pass 1
// kept only those of WARC request records: the entries built here are
// also kept unresolved in m.static, for the ViewTracker to apply in time
// order with the log's robots.txt fetches.
func (m *Model) buildViews(b *Builder) {
	m.addFetchedViews(b)
	m.addCapturedViews()
	for _, a := range m.authList {
		for lower, bv := range a.views {
			slices.SortStableFunc(bv.entries, cmpEntry)
			if m.stream {
				for _, e := range bv.entries {
					m.static = append(m.static, staticEntry{a: a, lower: lower, e: e})
				}
			}
			m.resolveEntries(a, bv)
		}
	}
	// Entries of one key keep their order (the sort is stable); entries of
	// different keys never meet, so the map order above does not matter.
	slices.SortStableFunc(m.static, func(x, y staticEntry) int { return cmpEntry(x.e, y.e) })
}

// cmpEntry orders a bot's robots.txt fetches by time, then source.
func cmpEntry(x, y viewEntry) int {
	if c := cmpTime(x.time, y.time); c != 0 {
		return c
	}
	return lessSource(x.src, y.src)
}

// addFetchedViews files the robots.txt fetches of logs and WARC request
// records, in time order, under the bot that made them.
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
		m.viewFor(a, id.token).entries = append(m.viewFor(a, id.token).entries,
			viewEntry{time: rf.time, status: rf.status, src: rf.src})
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
// the crawler of its WARC file.
func (m *Model) addCapturedViews() {
	for _, a := range m.authList {
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
				bv := m.viewFor(a, cr.token)
				bv.entries = append(bv.entries, viewEntry{time: d.time, status: st, src: d.src, capture: d, content: in, ver: in})
			}
		}
	}
}

func (m *Model) viewFor(a *authority, token string) *botView {
	lower := strings.ToLower(token)
	bv := a.views[lower]
	if bv == nil {
		if a.views == nil {
			a.views = make(map[string]*botView)
		}
		bv = &botView{token: token}
		a.views[lower] = bv
	}
	return bv
}

// resolveEntries settles what each robots.txt fetch told the bot
// (DESIGN §3.3), in time order: see resolveEntry.
func (m *Model) resolveEntries(a *authority, bv *botView) {
	for i := range bv.entries {
		var prev *viewEntry
		if i > 0 {
			prev = &bv.entries[i-1]
		}
		m.resolveEntry(a, &bv.entries[i], prev)
	}
}

// resolveEntry settles what one robots.txt fetch told the bot (DESIGN
// §3.3): 2xx the content in force at that moment, 304 the content of its
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
