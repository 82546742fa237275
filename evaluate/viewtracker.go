package evaluate

import (
	"container/heap"
	"hash/maphash"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/robots"
)

// Streamed views (docs/semantics.md, "Evaluation" §5; docs/design.md, "Memory")
//
// A Builder told to StreamViews keeps no robots.txt fetch of a log: every
// one of them is also a fetch of pass 2, which sees the fetches in time
// order. A bot's view at t is its last robots.txt fetch at or before t, and
// settling a fetch needs only the one before it (a 304 keeps its content, a
// 5xx continues its unreachable run), so a ViewTracker that sees the fetches
// in time order holds one entry per (authority, product token, scope)
// instead of every fetch. It applies, in (time, source) order, the
// robots.txt fetches of the log as they come, each under the scopes of its
// client's identity (robotsScope), and the archive crawlers' robots.txt
// captures and WARC request records pass 1 kept (bounded by the archive)
// under the token's claimed view, and gives every fetch the views the
// judge may need (FetchView). The archive crawls' own views are complete
// after Build and are read from the model.
// Entries are immutable once made: a fetch holds the entry it was given,
// and an entry no fetch holds is collected.
//
// Per host the tracker keeps its entries, and the authorities a bot's
// robots.txt fetch creates on a host the archive never captured, only until
// the host's last fetch (pass 1 notes each host's last fetch time, a hash
// and 16 bytes per host): a host seen once costs nothing afterwards.

// staticEntry is a robots.txt fetch pass 1 kept: a WARC request record or a
// capture by an archive crawler, unresolved, for the token's claimed view.
type staticEntry struct {
	a     *authority
	lower string
	e     viewEntry
}

// hostNotes is what pass 1 records of each host[:port] named by a fetch
// ("" for host-less fetches), for the tracker: the second of its last
// fetch, and for each scheme the earliest robots.txt fetch that creates
// an authority (a status of 200-599: Model.authorityOrNew). It is a sorted
// array of 16-byte records, one per (host, scheme of such fetches or
// none), keyed by a 62-bit hash of the host: two hosts whose hashes collide
// share their notes (a chance of about n²/2⁶³ for n hosts). New records
// go to an unsorted tail, merged into the sorted part when the tail grows
// past a quarter of it; consecutive fetches of one host update one record.
type hostNotes struct {
	seed   maphash.Seed
	recs   []noteRec
	sorted int // recs[:sorted] are sorted by key, one record per key
	tmp    []noteRec

	lastHost string // cache: the record of the last host noted
	lastKey  uint64
	lastIdx  int // -1 when none
}

// noteRec is the note of one host and scheme: key is the host's hash with
// the scheme's index (0 none, 1 "", 2 http, 3 https) in its low two bits;
// last and first are Unix seconds, clamped to 0..2³²-1: the last fetch of
// any kind, and the earliest robots.txt fetch of the scheme.
type noteRec struct {
	key         uint64
	last, first uint32
}

func newHostNotes() *hostNotes {
	return &hostNotes{seed: maphash.MakeSeed(), lastIdx: -1}
}

func clampSec(t time.Time) uint32 {
	s := t.Unix()
	switch {
	case s < 0:
		return 0
	case s > math.MaxUint32:
		return math.MaxUint32
	}
	return uint32(s)
}

// schemeIndex is the index of a lower-case scheme in a noteRec's key; 0
// for a scheme that creates no authority.
func schemeIndex(scheme string) uint64 {
	switch scheme {
	case "":
		return 1
	case "http":
		return 2
	case "https":
		return 3
	}
	return 0
}

// note records a fetch at t on host; si is the schemeIndex of a robots.txt
// fetch that creates an authority, 0 for any other fetch.
func (hn *hostNotes) note(host string, t time.Time, si uint64) {
	sec := clampSec(t)
	var key uint64
	if hn.lastIdx >= 0 && host == hn.lastHost {
		key = hn.lastKey&^3 | si
		if key == hn.lastKey {
			r := &hn.recs[hn.lastIdx]
			r.last, r.first = max(r.last, sec), min(r.first, sec)
			return
		}
	} else {
		key = maphash.String(hn.seed, host)&^3 | si
	}
	hn.recs = append(hn.recs, noteRec{key: key, last: sec, first: sec})
	hn.lastHost, hn.lastKey, hn.lastIdx = strings.Clone(host), key, len(hn.recs)-1
	if tail := len(hn.recs) - hn.sorted; tail >= max(hn.sorted/4, 1<<14) {
		hn.compact()
	}
}

// compact sorts the tail, merges records of one key, and merges it into
// the sorted part from the back (the tail is copied aside: a quarter of
// the records at most).
func (hn *hostNotes) compact() {
	hn.lastIdx = -1
	tail := hn.recs[hn.sorted:]
	slices.SortFunc(tail, func(x, y noteRec) int { return cmpU64(x.key, y.key) })
	tail = mergeRecs(tail)
	hn.tmp = append(hn.tmp[:0], tail...)
	b := hn.tmp
	a := hn.recs[:hn.sorted]
	// Merge a and b into recs[:len(a)+len(b)] from the back; a record of
	// b whose key a holds is folded into it.
	out := hn.recs[:len(a)+len(b)]
	i, j, k := len(a)-1, len(b)-1, len(out)-1
	for j >= 0 {
		switch {
		case i >= 0 && a[i].key > b[j].key:
			out[k] = a[i]
			i--
		case i >= 0 && a[i].key == b[j].key:
			r := a[i]
			r.last, r.first = max(r.last, b[j].last), min(r.first, b[j].first)
			out[k] = r
			i--
			j--
		default:
			out[k] = b[j]
			j--
		}
		k--
	}
	// Records folded leave a gap between out[:i+1] (a's rest, in place)
	// and out[k+1:].
	if gap := k - i; gap > 0 {
		copy(out[i+1:], out[k+1:])
		out = out[:len(out)-gap]
	}
	hn.recs = out
	hn.sorted = len(out)
	if cap(hn.tmp) > 1<<16 {
		hn.tmp = nil
	}
}

func cmpU64(x, y uint64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// mergeRecs folds sorted records of one key into one.
func mergeRecs(rs []noteRec) []noteRec {
	if len(rs) == 0 {
		return rs
	}
	w := 0
	for _, r := range rs[1:] {
		if r.key == rs[w].key {
			rs[w].last, rs[w].first = max(rs[w].last, r.last), min(rs[w].first, r.first)
			continue
		}
		w++
		rs[w] = r
	}
	return rs[:w+1]
}

// finish compacts the notes for lookups and releases the spare capacity.
func (hn *hostNotes) finish() {
	if hn == nil {
		return
	}
	hn.compact()
	hn.tmp = nil
	if cap(hn.recs)-len(hn.recs) > len(hn.recs)/8+1024 {
		hn.recs = slices.Clone(hn.recs)
	}
}

// hostNote is what lookup gives of one host.
type hostNote struct {
	last  int64    // Unix second of its last fetch
	first [3]int64 // per scheme ("", http, https): Unix second of the earliest authority-creating robots.txt fetch; MaxInt64 for none
}

// lookup returns the notes of host, and false when pass 1 saw no fetch on
// it. The notes must be finished.
func (hn *hostNotes) lookup(host string) (hostNote, bool) {
	n := hostNote{last: math.MinInt64, first: [3]int64{math.MaxInt64, math.MaxInt64, math.MaxInt64}}
	if hn == nil {
		return n, false
	}
	base := maphash.String(hn.seed, host) &^ 3
	rs := hn.recs[:hn.sorted]
	i, _ := slices.BinarySearchFunc(rs, base, func(r noteRec, k uint64) int { return cmpU64(r.key, k) })
	ok := false
	for ; i < len(rs) && rs[i].key&^3 == base; i++ {
		ok = true
		n.last = max(n.last, int64(rs[i].last))
		if si := rs[i].key & 3; si > 0 {
			n.first[si-1] = int64(rs[i].first)
		}
	}
	return n, ok
}

// FetchView is what the ViewTracker gives the judge for one fetch: the
// authority it is judged under and the bot's robots.txt views there, one
// per scope the judge may pick once it knows the client's identity. The
// zero FetchView means "none given": JudgeIntoView then judges as
// JudgeInto.
type FetchView struct {
	tracked bool
	hasID   bool // id is identifyUA's answer for the fetch
	a       *authority
	id      ident
	e       scopedEntries // the views of id's token
	cards   []cardEntry   // a signed fetch whose User-Agent names no bot: the views of card tokens
}

// scopedEntries are a bot's views at a fetch: every claiming client's,
// the verified clients', and the fetch's own client's (when spoofed).
type scopedEntries struct {
	token, verified, client *viewEntry
}

func (s *scopedEntries) of(sc viewScope) *viewEntry {
	switch sc.kind {
	case scopeVerified:
		return s.verified
	case scopeClient:
		return s.client
	case scopeToken:
		return s.token
	}
	return nil
}

type cardEntry struct {
	lower string
	e     scopedEntries
}

// entry returns the view of scope sc of the bot named lower.
func (fv *FetchView) entry(lower string, sc viewScope) *viewEntry {
	if fv.hasID && lower == fv.id.lower {
		return fv.e.of(sc)
	}
	for i := range fv.cards {
		if fv.cards[i].lower == lower {
			return fv.cards[i].e.of(sc)
		}
	}
	return nil
}

// ViewTracker settles the bots' robots.txt views in time order for a Model
// built with Builder.StreamViews. Give it the fetches of pass 2 in time
// order, all fetches of one time at once (Step); it is not safe for
// concurrent use, but the FetchViews it returns are immutable and may be
// judged on any goroutine. Its memory is one entry per (authority, bot) on
// the hosts whose last fetch is still to come, the entries pass 1 kept, and
// the fetches of one time.
type ViewTracker struct {
	m  *Model
	ua uaLocal // identification by User-Agent
	// static are the entries pass 1 kept (Model.static), in blocks;
	// static[chunk][next:] and the blocks after it are still to apply.
	// With release (OneViewTracker), a block applied is let go.
	static  [][]staticEntry
	chunk   int
	next    int
	release bool
	hosts   map[string]*trackHost
	drops   dropHeap
	clock   time.Time
	begun   bool
	group   []groupEntry
	to      []*FetchView // Step's pointers into its out
	robots  int64        // robots.txt fetches applied, for tests

	// The authorities of the fetches viewed, by the address of their
	// Host string (the fetch decoder shares the strings that repeat) and
	// their scheme: the fetches of a time interleave many hosts, and
	// authorityFor looks the host up in two maps.
	auths *[authSlots]authSlot
}

// authSlot is the authority and host state of one (scheme, Host).
type authSlot struct {
	host   strAddr
	scheme string
	a      *authority
	th     *trackHost
}

const authSlots = 256

// trackHost is the tracker's state of one host[:port].
type trackHost struct {
	hostport    string
	https, http *authority // created by a bot's robots.txt fetch: the archive has no timeline
	cur         curViews
	verified    bool  // cur holds views of verified clients
	clients     bool  // cur holds views of single (spoofed) clients
	last        int64 // Unix second of its last fetch (pass 1); MaxInt64 when unknown
	gone        bool  // swept
}

type viewKey struct {
	a *authority
	k vkey
}

// curViews are a host's current views by authority, bot and scope: one
// or two on most hosts, so a fewMap.
type curViews = fewMap[viewKey, *viewEntry]

type groupEntry struct {
	a       *authority
	lower   string
	sc      viewScope
	e       viewEntry
	capture bool
}

type dropHeap []*trackHost

func (h dropHeap) Len() int           { return len(h) }
func (h dropHeap) Less(i, j int) bool { return h[i].last < h[j].last }
func (h dropHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *dropHeap) Push(x any)        { *h = append(*h, x.(*trackHost)) }
func (h *dropHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return x
}

// Streams reports whether the model was built with Builder.StreamViews:
// its fetches must then be judged through a ViewTracker (JudgeIntoView).
func (m *Model) Streams() bool { return m.stream }

// NewViewTracker returns a ViewTracker for the fetches of m's pass 2.
// After OneViewTracker, the first one takes the entries pass 1 kept, and
// a second one panics.
func (m *Model) NewViewTracker() *ViewTracker {
	vt := &ViewTracker{m: m, hosts: make(map[string]*trackHost)}
	switch {
	case !m.oneTracker:
		vt.static = [][]staticEntry{m.static}
	case m.staticTaken:
		panic("evaluate: a second ViewTracker after OneViewTracker")
	default:
		n := staticChunk
		if m.opts.spillAllCaptures {
			n = 1 // tests: a block of each entry
		}
		vt.static, vt.release = chunkStatic(m.static, n), true
		m.static, m.staticTaken = nil, true
	}
	return vt
}

// OneViewTracker says that one ViewTracker only is made of m, as in
// audit's pass 2. That one then takes the entries pass 1 kept (a WARC
// request or robots.txt capture of each archive crawl's fetch of
// robots.txt, in time order: 168 bytes each, 14 MB on the standard WARC
// case) in blocks of staticChunk, and lets go of each block once it has
// applied it, so that they do not outlive their time in pass 2 (issue
// 29). The views are the same: each entry is applied once, in order.
func (m *Model) OneViewTracker() { m.oneTracker = true }

// staticChunk is how many entries pass 1 kept make a block the one
// ViewTracker lets go of at once (OneViewTracker): 168 KiB.
const staticChunk = 1024

// chunkStatic copies st into blocks of size entries.
func chunkStatic(st []staticEntry, size int) [][]staticEntry {
	var out [][]staticEntry
	for len(st) > 0 {
		n := min(len(st), size)
		out = append(out, slices.Clone(st[:n]))
		st = st[n:]
	}
	return out
}

// peekStatic returns the next entry pass 1 kept that the tracker has not
// applied, or nil when none is left.
func (vt *ViewTracker) peekStatic() *staticEntry {
	for vt.chunk < len(vt.static) {
		if c := vt.static[vt.chunk]; vt.next < len(c) {
			return &c[vt.next]
		}
		if vt.release {
			vt.static[vt.chunk] = nil
		}
		vt.chunk, vt.next = vt.chunk+1, 0
	}
	return nil
}

// isRobotsFetch reports whether f fetches /robots.txt (GET or no method):
// the fetches that make a bot's view (Builder.AddFetch).
func isRobotsFetch(f *event.Fetch) bool {
	return robots.IsRobotsTxt(f.Target) && (f.Method == "" || strings.EqualFold(f.Method, "GET"))
}

// streamed reports whether the tracker applies f as a robots.txt fetch:
// those of WARC request records make their crawl's view, which Build
// settled.
func streamed(f *event.Fetch) bool {
	return f.Origin != event.OriginWARC && isRobotsFetch(f) && f.Status >= 200 && f.Status <= 599
}

// Step applies the robots.txt fetches among fs, which must all have the
// same time, and writes the views of each fs[i] into out[i]. Calls must
// come in time order; a call for an earlier time than the last (a fetch
// merged out of order) gets the views as they stand, and its robots.txt
// fetches count from then on.
func (vt *ViewTracker) Step(fs []*event.Fetch, out []FetchView) {
	to := vt.to[:0]
	for i := range fs {
		to = append(to, &out[i])
	}
	vt.StepTo(fs, to)
	clear(to)
	vt.to = to[:0]
}

// StepTo is Step writing the view of fs[i] into *out[i], for a caller
// whose views are not contiguous (the fetches of one time span tasks).
func (vt *ViewTracker) StepTo(fs []*event.Fetch, out []*FetchView) {
	if len(fs) == 0 {
		return
	}
	m := vt.m
	t := fs[0].Time.UTC()
	if !vt.begun || t.After(vt.clock) {
		vt.clock, vt.begun = t, true
	}
	// The archive entries before t, in order; then those at t, merged
	// with the log's robots.txt fetches of t by source, before any fetch
	// of t is viewed: one at the very time of a request counts for it
	// (docs/semantics.md, Evaluation §1).
	for s := vt.peekStatic(); s != nil && s.e.time.Before(t); s = vt.peekStatic() {
		vt.apply(s.a, s.lower, viewScope{}, s.e)
		vt.next++
	}
	g := vt.group[:0]
	for s := vt.peekStatic(); s != nil && !s.e.time.After(t); s = vt.peekStatic() {
		g = append(g, groupEntry{a: s.a, lower: s.lower, e: s.e, capture: s.e.capture != nil})
		vt.next++
	}
	for _, f := range fs {
		if !streamed(f) {
			continue
		}
		a, _ := vt.authorityFor(strings.ToLower(f.Scheme), f.Host)
		if a == nil {
			continue
		}
		id := m.identifyUALocal(f.UserAgent, a, t, &vt.ua)
		if id.token == "" {
			continue
		}
		e := viewEntry{time: t, status: f.Status, src: f.Source}
		for _, sc := range scopesOf(m.robotsScope(f, t, id)) {
			g = append(g, groupEntry{a: a, lower: id.lower, sc: sc, e: e})
		}
	}
	if len(g) > 1 {
		slices.SortStableFunc(g, func(x, y groupEntry) int {
			if c := lessSource(x.e.src, y.e.src); c != 0 {
				return c
			}
			switch {
			case x.capture == y.capture:
				return 0
			case y.capture:
				return -1 // at one place, a bot's fetch before a capture (buildViews)
			}
			return 1
		})
	}
	for i := range g {
		vt.apply(g[i].a, g[i].lower, g[i].sc, g[i].e)
		g[i] = groupEntry{}
	}
	vt.group = g[:0]
	for i, f := range fs {
		vt.view(out[i], f, t)
	}
	vt.sweep()
}

// apply settles one robots.txt fetch by the bot lower on a and makes it the
// bot's view of scope sc there.
func (vt *ViewTracker) apply(a *authority, lower string, sc viewScope, e viewEntry) {
	th := vt.host(a.hostport)
	k := viewKey{a, vkey{lower, sc}}
	ne := new(viewEntry)
	*ne = e
	vt.m.resolveEntry(a, ne, th.cur.get(k))
	th.cur.set(k, ne)
	switch sc.kind {
	case scopeVerified:
		th.verified = true
	case scopeClient:
		th.clients = true
	}
	vt.robots++
}

// view is the FetchView of f at t.
func (vt *ViewTracker) view(fv *FetchView, f *event.Fetch, t time.Time) {
	if vt.auths == nil {
		vt.auths = new([authSlots]authSlot)
	}
	k := addrOf(f.Host)
	sl := &vt.auths[slotIn(k.bits(), authSlots)]
	a, th := sl.a, sl.th
	if th == nil || th.gone || sl.host != k || sl.scheme != f.Scheme {
		// A host the tracker forgot (gone) is made anew by authorityFor.
		a, th = vt.authorityFor(f.Scheme, f.Host)
		*sl = authSlot{host: k, scheme: f.Scheme, a: a, th: th}
	}
	*fv = FetchView{tracked: true, a: a}
	if a == nil || th.cur.len() == 0 {
		return
	}
	m := vt.m
	fv.id, fv.hasID = m.identifyUALocal(f.UserAgent, a, t, &vt.ua), true
	if fv.id.token != "" {
		fv.e = th.entries(a, fv.id.lower, f)
		return
	}
	if NeedsHeader(f) {
		// A verified signature may name the agent after its card
		// (checkSignature): the views of the cards' product tokens.
		for _, c := range m.cards {
			if c.ProductToken == "" {
				continue
			}
			l := strings.ToLower(c.ProductToken)
			if e := th.entries(a, l, f); e != (scopedEntries{}) {
				fv.cards = append(fv.cards, cardEntry{lower: l, e: e})
			}
		}
	}
}

// entries returns the views of the bot lower on a that f's client may be
// judged by.
func (th *trackHost) entries(a *authority, lower string, f *event.Fetch) scopedEntries {
	s := scopedEntries{token: th.cur.get(viewKey{a, vkey{lower: lower}})}
	if th.verified {
		s.verified = th.cur.get(viewKey{a, vkey{lower, viewScope{kind: scopeVerified}}})
	}
	if th.clients {
		s.client = th.cur.get(viewKey{a, vkey{lower, viewScope{kind: scopeClient, ip: f.ClientIP}}})
	}
	return s
}

// authorityFor is Model.authorityFor over the authorities of the archive
// and those the tracker created, with the tracker's state of the host.
func (vt *ViewTracker) authorityFor(scheme, host string) (*authority, *trackHost) {
	m := vt.m
	if host == "" {
		if m.defHost == "" {
			return nil, nil
		}
		scheme, host = m.defScheme, m.defHost
	}
	th := vt.host(host)
	return m.pickAuthority(vt.entry(th), scheme, host), th
}

// entry is the host's authorities by scheme: the archive's, else the
// tracker's.
func (vt *ViewTracker) entry(th *trackHost) hostEntry {
	var e hostEntry
	if h := vt.m.hosts[th.hostport]; h != nil {
		e = *h
	}
	if e.https == nil {
		e.https = th.https
	}
	if e.http == nil {
		e.http = th.http
	}
	return e
}

// host returns the tracker's state of hostport, making it on first use:
// the authorities its bots' robots.txt fetches create are made at once (in
// the order of their first such fetch), since a Model built whole has
// them from the start.
func (vt *ViewTracker) host(hostport string) *trackHost {
	if th := vt.hosts[hostport]; th != nil {
		return th
	}
	m := vt.m
	th := &trackHost{hostport: strings.Clone(hostport), last: math.MaxInt64}
	n, ok := m.notes.lookup(hostport)
	if hostport == m.defHost && m.defHost != "" {
		// Host-less fetches are the default authority's; their robots.txt
		// fetches create it with the default scheme (authorityOrNew).
		if n2, ok2 := m.notes.lookup(""); ok2 {
			b := schemeIndex(m.defScheme) - 1
			for i := range 3 {
				n.first[b] = min(n.first[b], n2.first[i])
			}
			n.last, ok = max(n.last, n2.last), true
		}
	}
	if ok {
		th.last = n.last
		vt.createAuthorities(th, n.first)
	}
	vt.hosts[th.hostport] = th
	heap.Push(&vt.drops, th)
	return th
}

// createAuthorities makes the authorities of th's bots' robots.txt fetches
// that the archive has no timeline for (Model.authorityOrNew), in the order
// of each scheme's first fetch.
func (vt *ViewTracker) createAuthorities(th *trackHost, at [3]int64) {
	type sc struct {
		scheme string
		at     int64
	}
	var order []sc
	names := [3]string{"", "http", "https"}
	for b := range 3 {
		if at[b] != math.MaxInt64 {
			order = append(order, sc{names[b], at[b]})
		}
	}
	if len(order) == 0 {
		return
	}
	slices.SortStableFunc(order, func(x, y sc) int {
		switch {
		case x.at < y.at:
			return -1
		case x.at > y.at:
			return 1
		}
		return 0
	})
	m := vt.m
	for _, s := range order {
		scheme := s.scheme
		e := vt.entry(th)
		if m.pickAuthority(e, scheme, th.hostport) != nil {
			continue
		}
		if scheme == "" {
			if th.hostport == m.defHost && m.defScheme != "" {
				scheme = m.defScheme
			} else {
				scheme = "https"
			}
		}
		a := m.newAuthority(scheme+"://"+th.hostport, th.hostport)
		switch scheme {
		case "https":
			th.https = a
		case "http":
			th.http = a
		}
	}
}

// sweep forgets the hosts whose last fetch is before the clock's second.
func (vt *ViewTracker) sweep() {
	now := vt.clock.Unix()
	for len(vt.drops) > 0 && vt.drops[0].last < now {
		th := heap.Pop(&vt.drops).(*trackHost)
		th.gone = true
		delete(vt.hosts, th.hostport)
	}
}

// live returns the number of hosts and of views the tracker holds, for
// tests.
func (vt *ViewTracker) live() (hosts, views int) {
	for _, th := range vt.hosts {
		views += th.cur.len()
	}
	return len(vt.hosts), views
}

// HostNoter notes, for a Builder that streams views, the host and time of
// the fetches not given to AddFetch (pass 1 gives it only robots.txt
// fetches and WARC request records): the ViewTracker forgets a host after
// its last fetch. Use one per input, from one goroutine; Flush at its end.
// It gathers the last time of up to hostNoterMax hosts before it takes the
// Builder's lock.
type HostNoter struct {
	b     *Builder
	index map[string]int32 // a host's place in hosts and times
	hosts []string
	times []time.Time // each host's last time
	prev  int32       // the place of the last fetch's host, or -1
}

const hostNoterMax = 4096

// NewHostNoter returns a HostNoter for b; its Note does nothing unless b
// streams views.
func (b *Builder) NewHostNoter() *HostNoter {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.stream {
		return &HostNoter{}
	}
	return &HostNoter{b: b, index: make(map[string]int32), prev: -1}
}

// Note notes f's host and time: one string comparison when the host is
// the last fetch's (a reader interns hosts, so mostly by address), else
// one map lookup.
func (h *HostNoter) Note(f *event.Fetch) {
	if h.b == nil {
		return
	}
	i := h.prev
	if i < 0 || h.hosts[i] != f.Host {
		var ok bool
		if i, ok = h.index[f.Host]; !ok {
			if len(h.hosts) >= hostNoterMax {
				h.Flush()
			}
			i = int32(len(h.hosts))
			host := strings.Clone(f.Host)
			h.index[host] = i
			h.hosts = append(h.hosts, host)
			h.times = append(h.times, f.Time)
		}
		h.prev = i
	}
	if f.Time.After(h.times[i]) {
		h.times[i] = f.Time
	}
}

// Flush gives the Builder what Note holds.
func (h *HostNoter) Flush() {
	if h.b == nil || len(h.hosts) == 0 {
		return
	}
	h.b.mu.Lock()
	for i, host := range h.hosts {
		h.b.notes.note(host, h.times[i], 0)
	}
	h.b.mu.Unlock()
	clear(h.index)
	clear(h.hosts)
	h.hosts, h.times, h.prev = h.hosts[:0], h.times[:0], -1
}
