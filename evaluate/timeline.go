package evaluate

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/robots"
)

// effect is what a robots.txt version means for crawlers.
type effect int8

const (
	effUnknown     effect = iota // content not known (redirect target missing, unparseable response)
	effRules                     // 2xx: the parsed rules apply (RFC 9309 §2.3.1.1)
	effAllowAll                  // unavailable: any resource may be accessed (§2.3.1.3)
	effDisallowAll               // unreachable: complete disallow (§2.3.1.4)
)

func (e effect) String() string {
	switch e {
	case effRules:
		return "rules"
	case effAllowAll:
		return "allow_all"
	case effDisallowAll:
		return "disallow_all"
	}
	return "unknown"
}

// Status rules (robots_versions.status_rule): which RFC 9309 §2.3.1 rule
// gave a version its effect.
const (
	ruleSuccess          = "success"                     // §2.3.1.1
	ruleRedirect         = "redirect"                    // §2.3.1.2, target reached within five redirects
	ruleTooMany          = "too-many-redirects"          // §2.3.1.2, more than five: unavailable
	ruleLoop             = "redirect-loop"               // a redirect chain that returns to a URL already seen: unavailable
	ruleTargetMissing    = "redirect-target-missing"     // the redirect target has no capture in the inputs: unknown
	ruleNoLocation       = "redirect-no-location"        // 3xx without a Location field: unknown
	ruleNotModified      = "not-modified"                // 304 capture: the previous capture's content
	ruleUnavailable      = "unavailable"                 // §2.3.1.3 (4xx)
	ruleUnreachable      = "unreachable"                 // §2.3.1.4 (5xx, or no response)
	ruleUnreachable30d   = "unreachable-30d-unavailable" // §2.3.1.4, unreachable for longer than UnreachableAfter
	ruleUnparseable      = "unparseable-response"        // status 0 with a body: unknown
	ruleUnexpectedStatus = "unexpected-status"           // 1xx or >599: unknown
	ruleRevisitUnknown   = "revisit-unresolved"          // revisit whose original is not in the inputs: unknown
)

// RuleTargetMissing is the status rule of a version whose robots.txt
// redirects to a URL with no capture in the inputs (robots_versions.
// redirect_target names it): the run's notices say so.
const RuleTargetMissing = ruleTargetMissing

// version is one robots.txt version of an authority: a capture and the
// interval it is in force, or the part of an unreachable version past
// UnreachableAfter.
type version struct {
	id           string
	auth         *authority
	doc          *rdoc // the capture of /robots.txt
	content      *rdoc // the capture whose rules apply (doc, or a redirect target); nil unless effect is effRules
	from         time.Time
	until        time.Time // zero: open (the latest version)
	effect       effect
	statusRule   string
	redirect     string    // final URL of a followed redirect chain
	hops         int       // redirects followed
	chain        string    // the redirect chain, each URL and its status ("URL 301 -> URL 200"); "" when no redirect
	target       *capRec   // the chain's last capture when it is not robots-like (redirectToCapture)
	noRules      bool      // target is a 2xx capture whose body has no rules: allow all
	unreachSince time.Time // start of the continuous unreachable run (effDisallowAll and its 30-day segment)
	segment      bool      // the part past UnreachableAfter of an unreachable version
	unreach      bool      // the capture itself was unreachable (5xx or no response), before the 30-day rule
	// desc is the evidence description (describeVersion), made when a
	// finding first cites the version once Build has fixed it (final):
	// most versions are never cited, and their descriptions were a tenth
	// of the live heap of an archive audit.
	desc  atomic.Pointer[string]
	final bool
	// captures are the later captures identical to doc (same status rule,
	// effect, status, redirect and content) that directly followed it and
	// were collapsed into this version, in time order. Each is still its
	// crawler's own robots.txt fetch (buildViews).
	captures []*rdoc
}

// lastCapture returns the time of the version's last capture.
func (v *version) lastCapture() time.Time {
	if n := len(v.captures); n > 0 {
		return v.captures[n-1].time
	}
	return v.doc.time
}

// sameVersion reports whether version v, resolved, repeats version p: the
// same status rule, effect, status, redirect and content digest, from the
// same kind of source. v then adds nothing to the timeline. A revisit
// whose content resolved to p's (a deduplicating crawler's next visit)
// repeats a response like a response does.
func sameVersion(p, v *version) bool {
	if p.segment || v.segment || p.statusRule != v.statusRule || p.effect != v.effect ||
		p.redirect != v.redirect || p.hops != v.hops || p.unreach != v.unreach {
		return false
	}
	pd, vd := p.doc, v.doc
	if pd.status != vd.status || pd.origin != vd.origin || pd.assumed != vd.assumed {
		return false
	}
	switch {
	case p.content == nil && v.content == nil:
		// No rules (a 4xx, 5xx, no response): the record type is part of
		// what it says, but a revisit by definition repeats a payload.
		return pd.recordType == vd.recordType || vd.recordType == "revisit"
	case p.content == nil || v.content == nil:
		return false
	}
	return p.content.digest == v.content.digest && p.content.truncated == v.content.truncated
}

// authority is the robots.txt state of one scheme://host[:port].
type authority struct {
	key       string // "https://example.com"
	hostport  string
	host      string // url_host_name
	idPrefix  string // "example.com" for https, "http://example.com" otherwise
	versions  []*version
	groups    map[string]bool // lower-cased user-agent tokens of any version's groups; nil when none
	views     viewSet         // (lower-cased product token, scope) -> the bot's own robots.txt fetches
	robotsURL string
}

// versionAt returns the version in force at t (the latest starting at or
// before t), or nil.
func (a *authority) versionAt(t time.Time) *version {
	vs := a.versions
	i := sort.Search(len(vs), func(i int) bool { return vs[i].from.After(t) })
	if i == 0 {
		return nil
	}
	return vs[i-1]
}

// versionAtSrc is versionAt for an archive record at (t, src): a version
// captured in the same file at the same time but further on in it is not
// yet in force (record order is the crawler's own evidence). Versions of
// other files, and a version's later segment, are placed by time alone.
func (a *authority) versionAtSrc(t time.Time, src event.Source) *version {
	return a.versionAtIdx(a.indexAtSrc(t, src))
}

// indexAtSrc is the number of versions in force at or before the record
// at (t, src) (see versionAtSrc); src.File "" places by time alone.
func (a *authority) indexAtSrc(t time.Time, src event.Source) int {
	vs := a.versions
	i := sort.Search(len(vs), func(i int) bool { return vs[i].from.After(t) })
	if src.File == "" {
		return i
	}
	for i > 0 {
		v := vs[i-1]
		if v.segment || v.doc == nil || !v.from.Equal(t) || v.doc.src.File != src.File || v.doc.src.Offset <= src.Offset {
			break
		}
		i--
	}
	return i
}

func (a *authority) versionAtIdx(i int) *version {
	if i == 0 {
		return nil
	}
	return a.versions[i-1]
}

// lastRulesAt returns the latest version starting at or before t whose
// effect is effRules, or nil.
func (a *authority) lastRulesAt(t time.Time) *version {
	vs := a.versions
	i := sort.Search(len(vs), func(i int) bool { return vs[i].from.After(t) })
	for i--; i >= 0; i-- {
		if vs[i].effect == effRules {
			return vs[i]
		}
	}
	return nil
}

// docSorter orders robots-like captures by time, then source, then record
// id, so that Build does not depend on Add order.
func lessSource(a, b event.Source) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if a.Offset != b.Offset {
		if a.Offset < b.Offset {
			return -1
		}
		return 1
	}
	if a.Line != b.Line {
		if a.Line < b.Line {
			return -1
		}
		return 1
	}
	return 0
}

func cmpTime(a, b time.Time) int {
	switch {
	case a.Before(b):
		return -1
	case a.After(b):
		return 1
	}
	return 0
}

func cmpDoc(a, b *rdoc) int {
	if c := cmpTime(a.time, b.time); c != 0 {
		return c
	}
	if c := lessSource(a.src, b.src); c != 0 {
		return c
	}
	if c := strings.Compare(a.recordID, b.recordID); c != 0 {
		return c
	}
	return strings.Compare(a.url, b.url)
}

// buildTimelines turns robots-like captures into per-authority version
// timelines (RFC 9309 §2.3.1): captures indexed by URL and record id,
// unresolved revisits given the content they repeat, then one timeline per
// authority in key order.
func (m *Model) buildTimelines(docs []*rdoc) {
	sp := buildSplit(m.opts)
	sortChunked(sp, docs, cmpDoc, false)
	byURL, byRecord := indexDocs(docs, sp)
	m.resolveRevisits(docs, byURL, byRecord)
	m.docsByURL = byURL
	auths := groupByAuthority(m, docs)
	keys := make([]string, 0, len(auths))
	for k := range auths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	list := make([]*authority, len(keys))
	for i, k := range keys {
		a := auths[k]
		list[i] = a
		m.authList = append(m.authList, a)
		m.addAuthority(a)
	}
	// Each timeline is its authority's own; the group sets they share
	// are settled after, in key order.
	groups := make([]groupKey, len(list))
	sp.forChunks(len(list), func(_, lo, hi int) {
		var scratch []string
		for i := lo; i < hi; i++ {
			groups[i], scratch = m.buildTimeline(list[i], scratch)
		}
	})
	for i, a := range list {
		m.shareGroups(a, groups[i])
	}
}

// indexDocs indexes sorted captures by normalized URL (in time order) and
// by WARC-Record-ID (the first capture with an id wins), the two indexes
// on goroutines of their own when sp has several workers.
func indexDocs(docs []*rdoc, sp split) (byURL map[string][]*rdoc, byRecord map[string]*rdoc) {
	byURL = make(map[string][]*rdoc)
	byRecord = make(map[string]*rdoc)
	ids := func() {
		for _, d := range docs {
			if d.recordID != "" {
				if _, dup := byRecord[d.recordID]; !dup {
					byRecord[d.recordID] = d
				}
			}
		}
	}
	var wg sync.WaitGroup
	if sp.workers > 1 && len(docs) >= sp.min {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids()
		}()
	} else {
		ids()
	}
	for _, d := range docs {
		byURL[d.url] = append(byURL[d.url], d)
	}
	wg.Wait()
	return byURL, byRecord
}

// resolveRevisits gives each unresolved revisit the content of the capture
// it repeats: the one its WARC-Refers-To names, else the latest earlier
// capture of its URL with the same payload digest (or, for a
// server-not-modified revisit without one, the latest earlier capture). A
// revisit with no such capture is reported and left unresolved.
func (m *Model) resolveRevisits(docs []*rdoc, byURL map[string][]*rdoc, byRecord map[string]*rdoc) {
	for _, d := range docs {
		if !d.unresolved {
			continue
		}
		orig := byRecord[d.refersTo]
		if orig == nil || orig.unresolved {
			orig = revisitedBefore(d, byURL[d.url])
		}
		if orig == nil {
			m.problem(d.src, problem.RobotsRevisitUnresolved, event.SevWarning,
				"revisit of "+d.rawURL+" refers to a capture not in the inputs: not used as a robots.txt version")
			continue
		}
		d.unresolved = false
		d.status, d.file, d.digest, d.size, d.truncated, d.location =
			orig.status, orig.file, orig.digest, orig.size, orig.truncated, orig.location
		if d.digest != "" {
			d.idDigest = d.digest[:6]
		}
	}
}

// revisitedBefore returns the latest resolved capture in list (one URL's
// captures, in time order) before revisit d that d repeats, or nil.
func revisitedBefore(d *rdoc, list []*rdoc) *rdoc {
	for i := len(list) - 1; i >= 0; i-- {
		o := list[i]
		if !o.time.Before(d.time) || o.unresolved {
			continue
		}
		if d.payload != "" && o.payload == d.payload {
			return o
		}
		if d.payload == "" && strings.Contains(d.profile, "server-not-modified") {
			return o
		}
	}
	return nil
}

// groupByAuthority makes one authority per scheme://host[:port] with a
// resolved capture of /robots.txt, its versions one per capture in time
// order.
func groupByAuthority(m *Model, docs []*rdoc) map[string]*authority {
	auths := make(map[string]*authority)
	for _, d := range docs {
		if !d.isRobots || d.unresolved {
			continue
		}
		a := auths[d.auth]
		if a == nil {
			a = m.newAuthority(d.auth, d.hostport)
			auths[d.auth] = a
		}
		a.versions = append(a.versions, &version{auth: a, doc: d, from: d.time})
	}
	return auths
}

// groupKey is the product tokens an authority's groups name, sorted,
// distinct and joined by NULs; has is false when they name none. tokens
// holds them too when one holds a NUL itself (a garbled line), which
// the key cannot tell apart.
type groupKey struct {
	key    string
	has    bool
	tokens []string
}

// buildTimeline resolves an authority's versions, collapses identical
// consecutive ones, sets each one's interval and applies the 30-day rule.
// It writes a and its versions only, and only reads m (any goroutine);
// it returns the product tokens its groups name (for shareGroups) and
// scratch for reuse.
func (m *Model) buildTimeline(a *authority, scratch []string) (groupKey, []string) {
	a.versions = m.collapseVersions(a)
	for i, v := range a.versions {
		if i+1 < len(a.versions) {
			v.until = a.versions[i+1].from
		}
	}
	a.versions = m.applyUnreachable(a.versions)
	tokens := scratch[:0]
	for _, v := range a.versions {
		v.final = true
		if v.content != nil && v.content.file != nil {
			tokens = append(tokens, v.content.file.tokens...)
		}
	}
	if len(tokens) == 0 {
		return groupKey{}, tokens
	}
	slices.Sort(tokens)
	tokens = slices.Compact(tokens)
	g := groupKey{key: strings.Join(tokens, "\x00"), has: true}
	if strings.Count(g.key, "\x00") != len(tokens)-1 {
		g.tokens = slices.Clone(tokens)
	}
	return g, tokens[:0]
}

// shareGroups gives a the set of the tokens g names: authorities whose
// robots.txt files name the same tokens (most of a crawl's hosts) share
// one read-only set.
func (m *Model) shareGroups(a *authority, g groupKey) {
	if !g.has {
		return
	}
	if a.groups = m.groupSets[g.key]; a.groups != nil {
		return
	}
	tokens := g.tokens
	if tokens == nil {
		tokens = strings.Split(g.key, "\x00")
	}
	a.groups = make(map[string]bool, len(tokens))
	for _, t := range tokens {
		a.groups[t] = true
	}
	if m.groupSets == nil {
		m.groupSets = make(map[string]map[string]bool)
	}
	m.groupSets[g.key] = a.groups
}

// collapseVersions resolves each version (RFC 9309 §2.3.1) and folds
// identical consecutive captures into one version (docs/semantics.md, "The
// robots.txt timeline"), naming each kept version; it reuses a.versions.
func (m *Model) collapseVersions(a *authority) []*version {
	ids := make(map[string]int)
	var prev *version
	kept := a.versions[:0]
	for _, v := range a.versions {
		m.resolveVersion(v, prev)
		if prev != nil && sameVersion(prev, v) {
			prev.captures = append(prev.captures, v.doc)
			continue
		}
		kept = append(kept, v)
		v.id = a.idPrefix + "@" + v.from.Format(time.RFC3339Nano) + "#" + v.doc.idDigest
		if n := ids[v.id]; n > 0 {
			ids[v.id] = n + 1
			v.id += "~" + itoa(n+1)
		} else {
			ids[v.id] = 1
		}
		prev = v
	}
	clear(a.versions[len(kept):])
	return kept
}

func (m *Model) newAuthority(key, hostport string) *authority {
	a := &authority{
		key:       key,
		hostport:  hostport,
		host:      hostName(hostport),
		robotsURL: key + "/robots.txt",
	}
	if strings.HasPrefix(key, "https://") {
		a.idPrefix = hostport
	} else {
		a.idPrefix = key
	}
	return a
}

// resolveVersion applies the status semantics of RFC 9309 §2.3.1 to one
// capture of /robots.txt.
func (m *Model) resolveVersion(v *version, prev *version) {
	d := v.doc
	if d.status == 304 {
		v.statusRule = ruleNotModified
		if prev == nil {
			v.effect = effUnknown
			return
		}
		v.effect, v.content, v.redirect, v.hops, v.unreach = prev.effect, prev.content, prev.redirect, prev.hops, prev.unreach
		v.chain, v.target, v.noRules = prev.chain, prev.target, prev.noRules
		return
	}
	if d.status >= 300 && d.status < 400 {
		m.followRedirects(v)
		return
	}
	v.effect, v.statusRule = docEffect(d)
	if v.effect == effRules {
		v.content = d
	}
	v.unreach = v.effect == effDisallowAll
}

// docEffect is the effect of a non-redirect capture (RFC 9309 §2.3.1).
func docEffect(d *rdoc) (effect, string) {
	switch {
	case d.recordType == "resource" && d.status == 0:
		return effRules, ruleSuccess // a resource record is the content itself
	case d.status == 0 && d.noResponse:
		return effDisallowAll, ruleUnreachable // network failure (§2.3.1.4)
	case d.status == 0:
		return effUnknown, ruleUnparseable
	case d.status >= 200 && d.status < 300:
		return effRules, ruleSuccess
	case d.status >= 400 && d.status < 500:
		return effAllowAll, ruleUnavailable
	case d.status >= 500 && d.status < 600:
		return effDisallowAll, ruleUnreachable
	}
	return effUnknown, ruleUnexpectedStatus
}

// followRedirects follows a robots.txt redirect chain inside the inputs
// (RFC 9309 §2.3.1.2): the target's rules apply to the original authority.
// Each hop takes the target's capture nearest at or before the time of the
// redirecting capture, or else the first one within RobotsTTL after it:
// a robots-like capture (docNear), else any capture of the URL
// (capNear), whose body, not being robots-like, has no rules. The chain,
// each URL with its status, is kept for robots_versions.
func (m *Model) followRedirects(v *version) {
	t := v.doc.time
	seen := map[string]bool{v.doc.url: true}
	var chain strings.Builder
	hop := func(url, what string) {
		if chain.Len() > 0 {
			chain.WriteString(" -> ")
		}
		chain.WriteString(url + " " + what)
	}
	hop(v.doc.url, itoa(v.doc.status))
	defer func() { v.chain = chain.String() }()
	loc := v.doc.location
	for n := 1; ; n++ {
		if n > MaxRedirects {
			v.effect, v.statusRule, v.hops = effAllowAll, ruleTooMany, n-1
			return
		}
		if loc == "" {
			v.effect, v.statusRule, v.hops = effUnknown, ruleNoLocation, n-1
			return
		}
		v.redirect, v.hops = loc, n
		if seen[loc] {
			hop(loc, "(loop)")
			v.effect, v.statusRule = effAllowAll, ruleLoop
			return
		}
		seen[loc] = true
		if next := m.docNear(loc, t); next != nil {
			hop(loc, itoa(next.status))
			if next.status >= 300 && next.status < 400 && next.status != 304 {
				loc = next.location
				continue
			}
			v.effect, _ = docEffect(next)
			v.statusRule = ruleRedirect
			if v.effect == effRules {
				v.content = next
			}
			v.unreach = v.effect == effDisallowAll
			return
		}
		c := m.capNear(loc, t)
		if c == nil {
			hop(loc, "(not in the inputs)")
			v.effect, v.statusRule = effUnknown, ruleTargetMissing
			return
		}
		hop(loc, itoa(int(c.status)))
		if c.status >= 300 && c.status < 400 {
			loc = c.loc()
			continue
		}
		m.redirectToCapture(v, c)
		return
	}
}

// redirectToCapture ends a redirect chain at a capture that is not
// robots-like: its body has no User-agent or ACAP line (else Builder
// would have kept it as a document), so parsed it has no rules and
// allows all (RFC 9309 §2.3.1.2 parses what the redirect leads to: a
// login page, a home page). A 4xx or 5xx target means what it means for
// robots.txt.
func (m *Model) redirectToCapture(v *version, c *capRec) {
	eff, _ := docEffect(&rdoc{status: int(c.status), rdocCold: &rdocCold{recordType: c.recordType()}})
	if eff == effRules {
		eff, v.noRules = effAllowAll, true
	}
	v.effect, v.statusRule, v.target = eff, ruleRedirect, c
	v.unreach = eff == effDisallowAll
}

// capNear returns the capture summary of url nearest at or before t, or
// the first within RobotsTTL after t, as docNear does; 304 and
// unresolved captures are skipped.
func (m *Model) capNear(url string, t time.Time) *capRec {
	list := m.capsOf(url)
	i := sort.Search(len(list), func(i int) bool { return list[i].time().After(t) })
	for j := i - 1; j >= 0; j-- {
		if c := list[j]; c.status != 304 && !c.unresolved() {
			return c
		}
	}
	for j := i; j < len(list); j++ {
		c := list[j]
		if c.time().Sub(t) > m.opts.RobotsTTL {
			break
		}
		if c.status != 304 && !c.unresolved() {
			return c
		}
	}
	return nil
}

// docNear returns the capture of url nearest at or before t, or the first
// within RobotsTTL after t; 304 and unresolved captures are skipped.
func (m *Model) docNear(url string, t time.Time) *rdoc {
	list := m.docsByURL[url]
	i := sort.Search(len(list), func(i int) bool { return list[i].time.After(t) })
	for j := i - 1; j >= 0; j-- {
		if d := list[j]; d.status != 304 && !d.unresolved {
			return d
		}
	}
	for j := i; j < len(list); j++ {
		d := list[j]
		if d.time.Sub(t) > m.opts.RobotsTTL {
			break
		}
		if d.status != 304 && !d.unresolved {
			return d
		}
	}
	return nil
}

// applyUnreachable implements the 30-day rule of RFC 9309 §2.3.1.4: once
// robots.txt has been unreachable continuously for UnreachableAfter, it is
// treated as unavailable (allow all). A version whose interval crosses
// that point is split: the part after it is a segment of its own.
func (m *Model) applyUnreachable(vs []*version) []*version {
	out := make([]*version, 0, len(vs))
	var runStart time.Time
	inRun := false
	for _, v := range vs {
		if !v.unreach {
			inRun = false
			out = append(out, v)
			continue
		}
		if !inRun {
			runStart, inRun = v.from, true
		}
		v.unreachSince = runStart
		p := runStart.Add(m.opts.UnreachableAfter)
		switch {
		case !p.After(v.from):
			v.effect, v.statusRule, v.content = effAllowAll, ruleUnreachable30d, nil
			out = append(out, v)
		case v.until.IsZero() || p.Before(v.until):
			seg := &version{
				id: v.id + "+unavailable", auth: v.auth, doc: v.doc, captures: v.captures, from: p, until: v.until,
				effect: effAllowAll, statusRule: ruleUnreachable30d, redirect: v.redirect, hops: v.hops, chain: v.chain, target: v.target,
				unreachSince: runStart, segment: true, unreach: true,
			}
			v.until = p
			out = append(out, v, seg)
		default:
			out = append(out, v)
		}
	}
	return out
}

// ruleText returns the evidence text of a rule of the content in force:
// "Disallow: /x".
func (v *version) ruleText(r *robots.Rule) string {
	if r == nil {
		return ""
	}
	return r.String()
}

// file returns the parsed rules in force, or nil. The file may be parsed
// again from its stored body (robotsstore.go); callers keep the result
// rather than asking twice.
func (v *version) file() *robots.File {
	if v == nil || v.content == nil {
		return nil
	}
	return v.content.file.file()
}

// fileStats returns the counts of the rules in force, and false when
// there are none, without parsing the file again.
func (v *version) fileStats() (fileStats, bool) {
	if v == nil || v.content == nil || v.content.file == nil {
		return fileStats{}, false
	}
	return v.content.file.stats, true
}
