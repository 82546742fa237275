package evaluate

import (
	"encoding/binary"
	"net/netip"
	"slices"
	"strconv"
	"time"
	"unsafe"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/robots"
	"github.com/repaudit/repaudit/table"
)

func fmtTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// evBuf builds an evidence string. A Judger reuses one (judgeCache.ev),
// so that a finding costs one allocation of its evidence's exact size
// rather than a growing builder's.
type evBuf struct{ b []byte }

func (e *evBuf) WriteString(s string) { e.b = append(e.b, s...) }

// time writes t as fmtTime does.
func (e *evBuf) time(t time.Time) { e.b = t.UTC().AppendFormat(e.b, time.RFC3339Nano) }

// int writes n in decimal.
func (e *evBuf) int(n int) { e.b = strconv.AppendInt(e.b, int64(n), 10) }

// source writes src as event.Source.String does.
func (e *evBuf) source(src event.Source) {
	e.b = append(e.b, src.File...)
	switch {
	case src.Line > 0:
		e.b = strconv.AppendInt(append(e.b, ':'), src.Line, 10)
	case src.Offset >= 0:
		e.b = strconv.AppendInt(append(e.b, '@'), src.Offset, 10)
	}
}

// quote writes s as strconv.Quote does.
func (e *evBuf) quote(s string) { e.b = strconv.AppendQuote(e.b, s) }

// quoteRule writes strconv.Quote(r.String()) without building the
// rule's text: its "Allow: " or "Disallow: " prefix is ASCII, which
// quotes as itself.
func (e *evBuf) quoteRule(r *robots.Rule) {
	n := len(e.b)
	e.quote(r.Pattern)
	prefix := "Disallow: "
	if r.Allow {
		prefix = "Allow: "
	}
	e.b = slices.Insert(e.b, n+1, []byte(prefix)...)
}

// String returns what was written, as a string of its own.
func (e *evBuf) String() string { return string(e.b) }

// reset empties e for the next evidence, keeping its memory.
func (e *evBuf) reset() { e.b = e.b[:0] }

// dur writes a duration for evidence: whole hours as "24h", else
// Duration.String of d rounded to the second ("1h2m3s", "4m0s", "5s",
// "0s", negative with a "-"), without making a string.
func (e *evBuf) dur(d time.Duration) {
	if d%time.Hour == 0 {
		e.b = append(strconv.AppendInt(e.b, int64(d/time.Hour), 10), 'h')
		return
	}
	d = d.Round(time.Second)
	if d%time.Second != 0 { // Round saturated at the ends of Duration's range
		e.b = append(e.b, d.String()...)
		return
	}
	s := int64(d / time.Second)
	if s < 0 {
		e.b = append(e.b, '-')
		s = -s
	}
	if s >= 3600 {
		e.b = append(strconv.AppendInt(e.b, s/3600, 10), 'h')
	}
	if s >= 60 {
		e.b = append(strconv.AppendInt(e.b, s/60%60, 10), 'm')
	}
	e.b = append(strconv.AppendInt(e.b, s%60, 10), 's')
}

func quote(s string) string {
	if len(s) > 256 {
		s = s[:256] + "…"
	}
	return strconv.Quote(s)
}

func fmtSeconds(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) + "s" }

// writeVersion writes the description of a robots.txt version, made
// once when first needed after Build (judging workers may race to make
// it: they make the same string, and one is kept).
func writeVersion(sb *evBuf, v *version) {
	if p := v.desc.Load(); p != nil {
		sb.WriteString(*p)
		return
	}
	d := describeVersion(v)
	if v.final { // before, the version may still change
		v.desc.Store(&d)
	}
	sb.WriteString(d)
}

// writeVersionLine writes a robots.txt version's description and one of
// its lines: "<version>: <label> <n> <quoted text>", the form retention
// evidence cites ACAP records and take-down requests in.
func writeVersionLine(sb *evBuf, v *version, label string, line int, text string) {
	writeVersion(sb, v)
	sb.WriteString(": ")
	sb.WriteString(label)
	sb.WriteString(" ")
	sb.WriteString(itoa(line))
	sb.WriteString(" ")
	sb.WriteString(quote(text))
}

// describeVersion describes a robots.txt version: the capture, a followed
// redirect and what its status means.
func describeVersion(v *version) string {
	var b evBuf
	sb := &b
	d := v.doc.full() // read back once spilled (docspill.go)
	sb.WriteString("robots.txt ")
	sb.WriteString(d.rawURL)
	sb.WriteString(versionOrigin(d))
	sb.WriteString(", version ")
	sb.WriteString(v.id)
	sb.WriteString(")")
	if v.redirect != "" {
		sb.WriteString(", redirected")
		if v.hops > 1 {
			sb.WriteString(" (" + itoa(v.hops) + " hops)")
		}
		sb.WriteString(" to ")
		sb.WriteString(v.redirect)
		if c := v.content; c != nil && c != v.doc {
			sb.WriteString(capturedAt(c.time, c.src, c.status))
			sb.WriteString("), whose rules apply to the original authority (RFC 9309 §2.3.1.2)")
		} else if c := v.target; c != nil {
			sb.WriteString(capturedAt(c.time(), c.src(), int(c.status)))
			sb.WriteString(")")
		}
	}
	switch v.effect {
	case effRules:
		if v.statusRule == ruleNotModified {
			sb.WriteString(": 304 Not Modified, the previous capture's rules apply")
		}
	case effAllowAll:
		switch v.statusRule {
		case ruleTooMany:
			sb.WriteString(": more than five consecutive redirects, unavailable: allow all (RFC 9309 §2.3.1.2)")
		case ruleLoop:
			sb.WriteString(": redirect loop, unavailable: allow all (RFC 9309 §2.3.1.2)")
		case ruleRedirect:
			if v.noRules {
				sb.WriteString(": not a robots.txt (no User-agent or ACAP line), no rules: allow all (RFC 9309 §2.3.1.2)")
			} else {
				sb.WriteString(": unavailable, allow all (RFC 9309 §2.3.1.3)")
			}
		case ruleUnreachable30d:
			sb.WriteString(": unreachable since ")
			sb.time(v.unreachSince)
			sb.WriteString(", for longer than the unreachability limit: treated as unavailable, allow all (RFC 9309 §2.3.1.4)")
		default:
			sb.WriteString(": unavailable, allow all (RFC 9309 §2.3.1.3)")
		}
	case effDisallowAll:
		if d.status == 0 {
			sb.WriteString(": no response, unreachable: complete disallow (RFC 9309 §2.3.1.4)")
		} else {
			sb.WriteString(": unreachable, complete disallow (RFC 9309 §2.3.1.4)")
		}
	default:
		sb.WriteString(": content unknown (" + v.statusRule + ")")
	}
	return b.String()
}

// writeVerdict describes the deciding group and rule.
func writeVerdict(sb *evBuf, v *version, rv robots.Verdict, target string) {
	sb.WriteString(": ")
	if rv.Group == "" {
		sb.WriteString("no group applies to ")
		sb.WriteString(rv.Agent)
		return
	}
	sb.WriteString("group ")
	sb.quote(rv.Group)
	sb.WriteString(" (line ")
	sb.int(rv.GroupLine)
	sb.WriteString(")")
	if rv.Rule == nil {
		sb.WriteString(", no rule matches ")
		sb.WriteString(target)
		return
	}
	sb.WriteString(", line ")
	sb.int(rv.Rule.Line)
	sb.WriteString(" ")
	sb.quoteRule(rv.Rule)
	sb.WriteString(" matches ")
	sb.WriteString(target)
}

// evidenceSlots is the size of a Judger's tables of evidence parts.
const evidenceSlots = 256

// verdictText is the text writeVerdict writes before the target for a
// matched rule; entryText the text writeEntry writes. Both are the same
// for every finding under one rule (or one robots.txt fetch of a bot),
// and a Judger keeps the last one per slot (judgeCache), so that a
// finding copies them instead of quoting rules and formatting times
// again. A miss writes the text in place and copies it into the slot's
// buffer, which is reused: no allocation either way. A slot holds its
// key's pointer, so the rule or entry cannot be freed and its address
// reused while the slot names it.
type verdictText struct {
	rule  *robots.Rule
	group string
	gline int
	text  []byte
}

type entryText struct {
	e     *viewEntry
	a     *authority // unreachableEvidence's; nil in writeEntry's table
	token string
	text  []byte
}

// slotOf maps a pointer to a slot of a table of evidenceSlots.
func slotOf(p unsafe.Pointer) uintptr { return slotIn(uintptr(p), evidenceSlots) }

// writeVerdict is writeVerdict through c's table (c may be nil).
func (c *judgeCache) writeVerdict(sb *evBuf, v *version, rv robots.Verdict, target string) {
	if c == nil || rv.Group == "" || rv.Rule == nil {
		writeVerdict(sb, v, rv, target)
		return
	}
	if c.verdicts == nil {
		c.verdicts = new([evidenceSlots]verdictText)
	}
	s := &c.verdicts[slotOf(unsafe.Pointer(rv.Rule))]
	if s.rule == rv.Rule && s.gline == rv.GroupLine && s.group == rv.Group {
		sb.b = append(sb.b, s.text...)
	} else {
		n := len(sb.b)
		writeVerdict(sb, v, rv, "")
		s.rule, s.group, s.gline = rv.Rule, rv.Group, rv.GroupLine
		s.text = append(s.text[:0], sb.b[n:]...)
	}
	sb.WriteString(target)
}

// writeEntry is writeEntry through c's table (c may be nil).
func (c *judgeCache) writeEntry(sb *evBuf, token string, e *viewEntry) {
	if c == nil {
		writeEntry(sb, token, e)
		return
	}
	if c.entries == nil {
		c.entries = new([evidenceSlots]entryText)
	}
	s := &c.entries[slotOf(unsafe.Pointer(e))]
	if s.e == e && s.token == token {
		sb.b = append(sb.b, s.text...)
		return
	}
	n := len(sb.b)
	writeEntry(sb, token, e)
	s.e, s.token = e, token
	s.text = append(s.text[:0], sb.b[n:]...)
}

// unreachableEvidence is unreachableEvidence through c's table (c may be
// nil): its text depends on the entry, the token and the authority alone.
func (c *judgeCache) unreachableEvidence(sb *evBuf, e *viewEntry, token string, a *authority) {
	if c == nil {
		unreachableEvidence(sb, e, token, a)
		return
	}
	if c.unreach == nil {
		c.unreach = new([evidenceSlots]entryText)
	}
	s := &c.unreach[slotOf(unsafe.Pointer(e))]
	if s.e == e && s.a == a && s.token == token {
		sb.b = append(sb.b, s.text...)
		return
	}
	n := len(sb.b)
	unreachableEvidence(sb, e, token, a)
	s.e, s.a, s.token = e, a, token
	s.text = append(s.text[:0], sb.b[n:]...)
}

// writeEntry writes the description of a bot's own robots.txt fetch. It
// is not kept per fetch: a log may hold millions of robots.txt requests.
func writeEntry(sb *evBuf, token string, e *viewEntry) {
	sb.WriteString(token)
	if e.capture != nil {
		sb.WriteString(" (the archive crawler) captured robots.txt ")
	} else {
		sb.WriteString(" last fetched robots.txt ")
	}
	sb.time(e.time)
	sb.WriteString(" (")
	sb.source(e.src)
	sb.WriteString(", status ")
	sb.int(e.status)
	sb.WriteString(")")
	if e.note != "" {
		sb.WriteString(": ")
		sb.WriteString(e.note)
	}
}

// robotsEvidence fills a robots.txt finding's columns and evidence: what
// the bot's view was (never fetched, fresh but unreachable, or a fetch of
// a version), then the request.
func (m *Model) robotsEvidence(v *table.Violation, r *robotsResult, token string, a *authority, target string, t time.Time, c *judgeCache) {
	sb := new(evBuf)
	if c != nil {
		sb = &c.ev
		sb.reset()
	}
	if ver := r.version; ver != nil {
		setRobotsVersion(v, ver)
	}
	if r.checked {
		v.MatchedGroup = r.rv.Group
		if r.rv.Rule != nil {
			v.MatchedRule = c.ruleText(r.version, r.rv.Rule)
			v.MatchedLine = int32(r.rv.Rule.Line)
		}
	}
	e := r.entry
	who := c.scopeWho(token, r.scope)
	switch {
	case r.view == ViewUnchecked:
		m.neverFetchedEvidence(sb, r, who, a, target, c)
	case e != nil && e.kind == vkUnreachable && r.view == ViewFresh:
		v.RobotsStatus = int32(e.status)
		c.unreachableEvidence(sb, e, who, a)
	default:
		m.viewEvidence(sb, r, who, target, t, c)
	}
	sb.WriteString("; fetched ")
	sb.WriteString(target)
	sb.WriteString(" at ")
	sb.time(t)
	v.Evidence = sb.String()
}

// scopeWho names whose robots.txt fetches made the view of scope sc of
// the bot token (docs/semantics.md, Evaluation §5.1), as evidence starts
// a sentence about them: "GPTBot's verified clients last fetched …".
func scopeWho(token string, sc viewScope) string {
	switch sc.kind {
	case scopeVerified:
		return token + "'s verified clients"
	case scopeClient:
		ip := "with no address"
		if sc.ip.IsValid() {
			ip = sc.ip.String()
		}
		return "this spoofed client (" + ip + ", claiming " + token + "; only its own robots.txt fetches count)"
	case scopeToken:
		return token + " (any client claiming it: its identity could not be checked)"
	}
	return token
}

// whoSlot is one text of scopeWho, kept by a Judger: by the token's
// address (the catalog's or the UA cache's string), the scope's kind
// and, for a spoofed client, its address.
type whoSlot struct {
	token strAddr
	kind  scopeKind
	ip    netip.Addr
	text  string
}

const whoSlots = 64

// scopeWho is scopeWho through c's table (c may be nil): a finding
// names whose robots.txt fetches made the view, and a bot's findings
// name the same few.
func (c *judgeCache) scopeWho(token string, sc viewScope) string {
	k := addrOf(token)
	if c == nil || sc.kind == scopeCrawl || !k.set() {
		return scopeWho(token, sc) // the crawl's: the token itself
	}
	if c.who == nil {
		c.who = new([whoSlots]whoSlot)
	}
	u := k.bits() ^ uintptr(sc.kind)<<5
	if sc.kind == scopeClient {
		b := sc.ip.As16()
		u ^= uintptr(binary.LittleEndian.Uint64(b[8:])*0x9E3779B97F4A7C15) >> 40 << 4
	}
	s := &c.who[slotIn(u, whoSlots)]
	if s.token != k || s.kind != sc.kind || s.ip != sc.ip || s.text == "" {
		*s = whoSlot{token: k, kind: sc.kind, ip: sc.ip, text: scopeWho(token, sc)}
	}
	return s.text
}

// neverFetchedEvidence says that the bot never fetched robots.txt before
// the request, and how many versions in force in the cache lifetime
// before it disallow the target.
func (m *Model) neverFetchedEvidence(sb *evBuf, r *robotsResult, token string, a *authority, target string, c *judgeCache) {
	if r.version != nil {
		writeVersion(sb, r.version)
		if r.checked {
			c.writeVerdict(sb, r.version, r.rv, target)
		}
		sb.WriteString("; ")
	}
	sb.WriteString(token)
	sb.WriteString(" never fetched ")
	sb.WriteString(a.robotsURL)
	sb.WriteString(" before this request: ")
	sb.int(r.windowD)
	sb.WriteString(" of ")
	sb.int(r.windowN)
	sb.WriteString(" robots.txt versions in force during the ")
	sb.dur(m.opts.RobotsTTL)
	sb.WriteString(" before it disallow ")
	sb.WriteString(target)
	sb.WriteString(" (RFC 9309 §2.4 cache lifetime)")
}

// unreachableEvidence says that the bot's last robots.txt fetch found it
// unreachable: a complete disallow.
func unreachableEvidence(sb *evBuf, e *viewEntry, token string, a *authority) {
	if e.capture == nil {
		sb.WriteString(token)
		sb.WriteString(" got status ")
		sb.int(e.status)
		sb.WriteString(" for ")
		sb.WriteString(a.robotsURL)
		sb.WriteString(" at ")
		sb.time(e.time)
		sb.WriteString(" (")
		sb.source(e.src)
		sb.WriteString("): unreachable, complete disallow (RFC 9309 §2.3.1.4)")
		if in := a.versionAt(e.time); in != nil && in.effect != effDisallowAll {
			sb.WriteString("; the archive's version in force then was ")
			sb.WriteString(in.id)
			sb.WriteString(" (status ")
			sb.int(in.doc.status)
			sb.WriteString("), which this bot did not get")
		}
	} else {
		writeVersion(sb, e.content0())
	}
	if e.runStart.Before(e.time) {
		sb.WriteString("; unreachable for this bot since ")
		sb.time(e.runStart)
	}
}

// viewEvidence names the version the finding rests on and the bot's
// robots.txt fetch behind its view, with why a stale view was or was not
// used.
func (m *Model) viewEvidence(sb *evBuf, r *robotsResult, token, target string, t time.Time, c *judgeCache) {
	if r.version != nil {
		writeVersion(sb, r.version)
		if r.checked {
			c.writeVerdict(sb, r.version, r.rv, target)
		}
	}
	e := r.entry
	if e == nil {
		return
	}
	sb.WriteString("; ")
	c.writeEntry(sb, token, e)
	if r.view != ViewStale {
		return
	}
	sb.WriteString(", ")
	sb.dur(t.Sub(e.time))
	sb.WriteString(" before this request: older than the ")
	sb.dur(m.opts.RobotsTTL)
	sb.WriteString(" cache lifetime (RFC 9309 §2.4)")
	switch {
	case r.useOwn:
		sb.WriteString("; robots.txt was unreachable at the request, so the cached copy still applies (RFC 9309 §2.4)")
	case r.inForce == r.version && r.inForce != nil:
		sb.WriteString(", but that copy is still the version in force at the request, and it disallows the URL")
	case r.inForce != nil:
		sb.WriteString(", but that copy disallows the URL, and so does the version in force at the request: ")
		writeVersion(sb, r.inForce)
		c.writeVerdict(sb, r.inForce, r.inForceRV, target)
	default:
		sb.WriteString(", so judged by the version in force at the request")
	}
}

// content0 returns the version an archive capture entry stands for.
func (e *viewEntry) content0() *version { return e.ver }

// acapEvidence fills an ACAP finding's columns and evidence.
func (m *Model) acapEvidence(v *table.Violation, ver *version, av robots.ACAPVerdict, target, usage string) {
	var sb evBuf
	writeVersion(&sb, ver)
	sb.WriteString(": ACAP line ")
	sb.int(av.Line)
	sb.WriteString(" ")
	sb.WriteString(strconv.Quote(av.Record))
	sb.WriteString(" prohibits ")
	sb.WriteString(usage)
	sb.WriteString(" of ")
	sb.WriteString(target)
	sb.WriteString(" for crawler ")
	sb.WriteString(strconv.Quote(av.Crawler))
	if av.Reason != "" {
		sb.WriteString(" (")
		sb.WriteString(av.Reason)
		sb.WriteString(")")
	}
	if av.Note != "" {
		sb.WriteString("; ")
		sb.WriteString(av.Note)
	}
	v.Evidence = sb.String()
	setRobotsVersion(v, ver)
	v.MatchedRule = av.Record
	v.MatchedLine = int32(av.Line)
	v.Directive = av.Record
}

// setRobotsVersion fills a finding's columns naming the robots.txt version
// it relies on and where that version was captured.
func setRobotsVersion(v *table.Violation, ver *version) {
	v.RobotsVersionID = ver.id
	// The capture's own time, as fetches.robots_view_time points at its
	// entry's: a model is not changed after Build, and the rows only
	// read it (a copy cost an allocation per finding).
	v.RobotsCaptureTime = &ver.doc.time
	v.RobotsWARCFile = ver.doc.src.File
	v.RobotsWARCOffset = ver.doc.src.Offset
	v.RobotsStatus = int32(ver.doc.status)
	v.RobotsSource = ver.doc.originName()
}

// capturedAt says when and where a capture was made, for evidence:
// " captured TIME (file@offset, status N" after its URL; the caller closes
// the parenthesis, often after adding more.
func capturedAt(t time.Time, src event.Source, status int) string {
	return " captured " + fmtTime(t) + " (" + src.String() + ", status " + itoa(status)
}
