package evaluate

import (
	"encoding/binary"
	"hash/maphash"
	"net/netip"
	"strings"
	"time"
	"unsafe"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/robots"
	"github.com/repaudit/repaudit/signature"
	"github.com/repaudit/repaudit/table"
)

// View is a value of fetches.robots_view: which robots.txt the bot is
// judged by. The column holds string(View).
type View string

// Values of fetches.robots_view.
const (
	ViewFresh     View = "fresh"
	ViewStale     View = "stale"
	ViewUnchecked View = "unchecked"
	ViewNone      View = "none"
)

// Verdict is a value of fetches.robots_verdict. The column holds
// string(Verdict).
type Verdict string

// Values of fetches.robots_verdict.
const (
	VerdictAllowed     Verdict = "allowed"
	VerdictDisallowed  Verdict = "disallowed"
	VerdictUnreachable Verdict = "unreachable"
	VerdictPossible    Verdict = "possible"
	VerdictNotJudged   Verdict = "not_judged"
)

// Values of fetches.not_judged_reason: why a fetch got robots_verdict
// not_judged. Each has a fix the audit summary names.
const (
	NotJudgedNoBot          = string(problem.ReasonNoBot)          // a browser or unknown client: not judged by design
	NotJudgedNoHost         = string(problem.ReasonNoHost)         // the log line names no host and no site is known
	NotJudgedNoVersion      = string(problem.ReasonNoVersion)      // no robots.txt version of the authority is known at all
	NotJudgedBeforeFirst    = string(problem.ReasonBeforeFirst)    // the fetch (or the bot's robots.txt fetch) predates the first known version
	NotJudgedUnknownContent = string(problem.ReasonUnknownContent) // the version in force has unknown content (e.g. a redirect target not captured)
)

// missingCode says why no version of a is known at t: none at all, or
// none yet.
func (a *authority) missingCode() string {
	if a == nil || len(a.versions) == 0 {
		return NotJudgedNoVersion
	}
	return NotJudgedBeforeFirst
}

// Identity is a value of fetches.identity and violations.identity: the
// client's identity status. The columns hold string(Identity).
type Identity string

// Values of fetches.identity and violations.identity.
const (
	IdentityVerified Identity = "verified"
	IdentityClaimed  Identity = "claimed"
	IdentitySpoofed  Identity = "spoofed"
)

// Values of fetches.signature beyond signature.Verdict's.
const SignatureUnrecorded = "unrecorded"

// Judgement is the verdict on one fetch: its fetches row and the findings
// it produced. The Tracker adds findings that need the fetches before it.
type Judgement struct {
	Fetch      table.Fetch
	Violations []table.Violation
	// Authority is the scheme://host[:port] the fetch was judged under;
	// "" when it names none.
	Authority string
	// Signature is the verification result of a signed request; nil when
	// the request carries no signature.
	Signature *signature.Result
	// NotJudgedReason says why a bot's fetch got robots_verdict
	// not_judged; "" otherwise (and for clients with no bot identity).
	NotJudgedReason string
	// NotJudgedCode is the NotJudged* constant behind robots_verdict
	// not_judged (fetches.not_judged_reason); "" when judged.
	NotJudgedCode string

	auth       *authority
	agentLower string
	crawlDelay float64 // seconds; 0 when none applies
	delayLine  int
	delayVer   *version
	sigReq     *signature.Request // a copy, for replay detection
	claimant   bool               // the UA claims a card holder that signs
}

// robotsResult is the bot's view and the verdict that came from it.
type robotsResult struct {
	view    View
	entry   *viewEntry // the bot's last robots.txt fetch; nil when none
	verdict Verdict
	kind    string // finding kind, or ""
	version *version
	rv      robots.Verdict
	checked bool // rv is set
	why     string
	code    string // NotJudged* when verdict is not_judged
	windowN int    // unchecked: versions judged in the grace window
	windowD int    // unchecked: of which disallow
	useOwn  bool
	// inForce, for a stale view whose own copy disallows the URL as the
	// version in force does (ownCopyToo), is that version in force and
	// inForceRV its verdict: the finding rests on the copy, and the
	// evidence names both.
	inForce   *version
	inForceRV robots.Verdict
	stale30d  bool      // a 5xx view older than UnreachableAfter: treated as unavailable
	scope     viewScope // whose robots.txt fetches made the view
	src       event.Source
}

// Judge judges one fetch: the client's identity, its robots.txt view at
// the fetch time, the verdict and the findings that need no other fetch.
// f is only read during the call. Judge is safe for concurrent use.
func (m *Model) Judge(f *event.Fetch) Judgement {
	var j Judgement
	m.judgeInto(&j, f, nil, nil)
	return j
}

// JudgeInto is Judge writing its result into *j, for callers that judge
// many fetches and reuse their Judgements: *j is reset first, and the
// array behind j.Violations is reused, so a fetch without findings costs
// no allocation for them. Nothing of the previous content survives.
func (m *Model) JudgeInto(j *Judgement, f *event.Fetch) { m.judgeInto(j, f, nil, nil) }

// JudgeIntoView is JudgeInto with the view a ViewTracker gave f
// (ViewTracker.Step). A model built with Builder.StreamViews keeps no
// robots.txt fetch of a log, and its fetches must be judged this way; for
// any other model it gives what JudgeInto gives when the tracker saw every
// fetch in time order. The zero FetchView is JudgeInto.
func (m *Model) JudgeIntoView(j *Judgement, f *event.Fetch, v *FetchView) {
	if v != nil && !v.tracked {
		v = nil
	}
	m.judgeInto(j, f, nil, v)
}

// Judger is Model.JudgeInto for one goroutine that judges many fetches:
// it keeps the strings of the fetches rows that repeat from fetch to
// fetch (a client address's text, a matched rule's text), so that a
// repeated client or rule costs no allocation. The rows are the same as
// JudgeInto's. A Judger is not safe for concurrent use: make one per
// goroutine.
type Judger struct {
	m *Model
	c judgeCache
}

// NewJudger returns a Judger of m.
func (m *Model) NewJudger() *Judger { return &Judger{m: m} }

// JudgeInto is Model.JudgeInto.
func (jg *Judger) JudgeInto(j *Judgement, f *event.Fetch) { jg.m.judgeWith(j, f, nil, &jg.c, nil, nil) }

// JudgeIntoView is Model.JudgeIntoView.
func (jg *Judger) JudgeIntoView(j *Judgement, f *event.Fetch, v *FetchView) {
	if v != nil && !v.tracked {
		v = nil
	}
	jg.m.judgeWith(j, f, nil, &jg.c, v, nil)
}

// judgeCache holds the strings a Judger reuses; a nil *judgeCache makes
// them anew each time. Addresses are held direct-mapped (a later address
// takes an earlier one's slot), rules in a map cleared when full: both
// bounded.
type judgeCache struct {
	ips   *[ipSlots]ipText
	ipRun hitRun
	// urls holds request URLs and their SURT keys (urltext.go).
	urls    *[urlSets][2]urlSlot
	urlRun  hitRun
	urlSeed maphash.Seed
	rules   map[*robots.Rule]string
	ev      evBuf // evidence being built
	ua      *uaLocal
	// owners is hasIPList's answer by owner string, direct-mapped by
	// the string's address: an owner is a token or URL of the catalog, a
	// card or the UA cache, whose strings are made once (strings.Clone),
	// so the address names the string and a hit costs no hashing.
	owners [ownerSlots]ownerSlot
	// Parts of evidence by rule and by robots.txt fetch (evidence.go).
	verdicts *[evidenceSlots]verdictText
	entries  *[evidenceSlots]entryText
	unreach  *[evidenceSlots]entryText // unreachableEvidence's texts
	who      *[whoSlots]whoSlot        // scopeWho's texts
	// delays is File.CrawlDelay by (file, group token), the token by
	// its string's address as owners.
	delays *[delaySlots]delaySlot
	// checks is robotsContent.Check by (content, group token, target):
	// a site's fetches repeat its paths, and a check walks the group's
	// rules. The target is hashed (it is decoded anew for every fetch).
	checks *[checkSlots]checkSlot
	seed   maphash.Seed
}

// checkSlot is one robots.txt check and its verdict.
type checkSlot struct {
	rc     *robotsContent
	token  strAddr
	target string
	rv     robots.Verdict
}

const checkSlots = 512

// check is rc.Check(token, target) through c (which may be nil). The
// verdict depends on the content, the token and the target alone.
func (c *judgeCache) check(rc *robotsContent, token, target string) robots.Verdict {
	if c == nil {
		return rc.Check(token, target)
	}
	if c.checks == nil {
		c.checks = new([checkSlots]checkSlot)
		c.seed = maphash.MakeSeed()
	}
	k := addrOf(token)
	h := maphash.String(c.seed, target) ^ uint64(uintptr(unsafe.Pointer(rc))>>4) ^ uint64(k.bits())*0x9E3779B97F4A7C15
	s := &c.checks[(h^h>>32)&(checkSlots-1)]
	if s.rc == rc && s.token == k && k.set() && s.target == target {
		return s.rv
	}
	rv := rc.Check(token, target)
	*s = checkSlot{rc: rc, token: k, target: target, rv: rv}
	return rv
}

// delaySlot is the Crawl-delay of one group token in one robots.txt.
type delaySlot struct {
	f     *robots.File
	token strAddr
	cd    robots.CrawlDelay
	ok    bool
}

const delaySlots = 256

// crawlDelay is fl.CrawlDelay(token) through c (which may be nil): asked
// for every judged fetch, it costs a group lookup by agent name.
func (c *judgeCache) crawlDelay(fl *robots.File, token string) (robots.CrawlDelay, bool) {
	if c == nil {
		return fl.CrawlDelay(token)
	}
	if c.delays == nil {
		c.delays = new([delaySlots]delaySlot)
	}
	k := addrOf(token)
	s := &c.delays[slotIn(uintptr(unsafe.Pointer(fl))^k.bits()*3, delaySlots)]
	if s.f != fl || s.token != k || !k.set() {
		cd, ok := fl.CrawlDelay(token)
		*s = delaySlot{f: fl, token: k, cd: cd, ok: ok}
	}
	return s.cd, s.ok
}

// ownerSlot is one owner string, by address and length, and whether the
// identity store holds an IP list for it.
type ownerSlot struct {
	owner strAddr
	has   bool
}

const ownerSlots = 64

// ipText is an address and its text.
type ipText struct {
	a netip.Addr
	s string
}

const (
	ipSlotBits     = 12
	ipSlots        = 1 << ipSlotBits
	maxCachedRules = 1 << 12
)

// hitRun decides whether a Judger's table of strings pays. A log with
// more distinct keys than the table has slots (a CDN's, tens of
// thousands of client addresses in turn) misses nearly every time, and
// each miss costs a load from a table the fetches have pushed out of the
// CPU cache on top of making the string: after a probe of four times the
// table's slots that hit less than a quarter of the time, the next
// tableBypass strings are made without the table, then the table is
// probed again. A probe is four times the table, so that keys that fit
// in it have filled it before most of the probe is counted. The strings
// are the same either way.
type hitRun struct {
	n, hits int // lookups and hits of the current probe
	bypass  int // strings left to make without the table
}

const tableBypass = 1 << 18

// skip reports whether the next string is made without the table.
func (r *hitRun) skip() bool {
	if r.bypass > 0 {
		r.bypass--
		return true
	}
	return false
}

// note counts a lookup of a table of slots entries; a probe ends after
// four times slots lookups.
func (r *hitRun) note(hit bool, slots int) {
	r.n++
	if hit {
		r.hits++
	}
	if r.n < 4*slots {
		return
	}
	if r.hits*4 < r.n {
		r.bypass = tableBypass
	}
	r.n, r.hits = 0, 0
}

// ipString is a.String().
func (c *judgeCache) ipString(a netip.Addr) string {
	if c == nil {
		return a.String()
	}
	if c.ipRun.skip() {
		return a.String()
	}
	if c.ips == nil {
		c.ips = new([ipSlots]ipText)
	}
	b := a.As16()
	h := binary.LittleEndian.Uint64(b[:8]) ^ binary.LittleEndian.Uint64(b[8:])
	slot := &c.ips[(h*0x9E3779B97F4A7C15)>>(64-ipSlotBits)]
	hit := slot.a == a && slot.s != ""
	c.ipRun.note(hit, ipSlots)
	if !hit {
		*slot = ipText{a: a, s: a.String()}
	}
	return slot.s
}

// hasIPList is m.hasIPList(owner) through c (which may be nil): the
// model's answer is a sync.Map lookup, asked for most bot fetches.
func (c *judgeCache) hasIPList(m *Model, owner string) bool {
	if c == nil {
		return m.hasIPList(owner)
	}
	k := addrOf(owner)
	s := &c.owners[slotIn(k.bits(), ownerSlots)]
	if s.owner == k && k.set() {
		return s.has
	}
	has := m.hasIPList(owner)
	*s = ownerSlot{owner: k, has: has}
	return has
}

// ruleText is v.ruleText(r).
func (c *judgeCache) ruleText(v *version, r *robots.Rule) string {
	if c == nil || r == nil {
		return v.ruleText(r)
	}
	if s, ok := c.rules[r]; ok {
		return s
	}
	if c.rules == nil || len(c.rules) >= maxCachedRules {
		c.rules = make(map[*robots.Rule]string, 64)
	}
	s := v.ruleText(r)
	c.rules[r] = s
	return s
}

// judgeInto judges f into j without a Judger's cache.
func (m *Model) judgeInto(j *Judgement, f *event.Fetch, forced *ident, fv *FetchView) {
	m.judgeWith(j, f, forced, nil, fv, nil)
}

// judgeCaptureInto is judgeInto for a capture judged as its archive
// crawler's fetch: hdr, the response's Content-Usage header (nil when
// none), joins the robots.txt usage preferences.
func (m *Model) judgeCaptureInto(j *Judgement, f *event.Fetch, forced *ident, hdr *respUsage) {
	m.judgeWith(j, f, forced, nil, nil, hdr)
}

// judgeWith judges f into j in named steps: the request's columns, the
// client's identity, its signature, its identity status, the robots.txt
// verdict, the robots.txt policies beyond Allow/Disallow, and the identity
// findings. Evidence strings are built only for a finding. c, fv and hdr
// may be nil.
func (m *Model) judgeWith(j *Judgement, f *event.Fetch, forced *ident, c *judgeCache, fv *FetchView, hdr *respUsage) {
	vs := j.Violations[:0]
	*j = Judgement{Violations: vs}
	t := f.Time.UTC()
	a, named := m.requestColumns(j, f, t, c)
	if fv != nil && fv.a != a {
		// An authority a bot's robots.txt fetch created (ViewTracker).
		a, j.auth, j.Authority = fv.a, fv.a, ""
		if a != nil {
			j.Authority = a.key
		}
	}
	j.Fetch.Authority = j.Authority
	if j.Authority == "" && f.Host != "" {
		// No robots.txt is known for the host: the request's own.
		j.Fetch.Authority = orHTTP(f.Scheme) + "://" + f.Host
	}

	var id ident
	switch {
	case forced != nil:
		id = *forced
	case fv != nil && fv.hasID:
		id = fv.id
	default:
		var l *uaLocal
		if c != nil {
			if c.ua == nil {
				c.ua = new(uaLocal)
			}
			l = c.ua
		}
		id = m.identifyUALocal(f.UserAgent, a, t, l)
	}
	if forced == nil {
		m.oneCategory(&id)
	}
	var sig signatureCheck
	if forced == nil {
		sig = m.checkSignature(j, f, t, &id)
	}
	row := &j.Fetch
	switch {
	case sig.res != nil:
	case f.SignatureRecorded:
		row.Signature = string(signature.Unsigned)
	default:
		row.Signature = SignatureUnrecorded
	}
	if id.token == "" {
		row.RobotsVerdict = string(VerdictNotJudged)
		row.RobotsNote = "no bot identity (a browser or an unknown client): not judged against robots.txt"
		row.NotJudgedReason = NotJudgedNoBot
		j.NotJudgedCode = NotJudgedNoBot
		return
	}
	j.agentLower = id.lower
	row.Agent = id.token
	row.Operator = id.operator
	row.Category = id.category
	row.IdentifiedBy = id.by
	row.UserTriggered = id.userTriggered
	if c := id.card; c != nil {
		row.CardURL = cardURL(c)
		row.CardCompliance = c.RFC9309Compliance
		row.CardPurpose = c.Purpose
	}

	st := m.identityStatus(j, f, t, id, sig, forced != nil, c)
	r := m.robotsVerdict(j, f, t, a, named, id, c, fv)
	m.policyFindings(j, f, t, a, &r, &id, c, hdr)
	m.identityFindings(j, f, t, id, sig, st)
	row.Findings = int32(len(j.Violations))
}

// cardURL names a card in fetches.card_url: its client_id, else the
// file or capture it was read from.
func cardURL(c *identity.Card) string {
	if c.ClientID != "" {
		return c.ClientID
	}
	return c.Source
}

// requestColumns fills the columns that come from the request alone and
// finds the authority it is judged under; named is false when the request
// names no host and no site is known.
func (m *Model) requestColumns(j *Judgement, f *event.Fetch, t time.Time, c *judgeCache) (a *authority, named bool) {
	row := &j.Fetch
	row.FetchTime = t
	row.Method = f.Method
	row.URLPath = f.Target
	row.FetchStatus = int32(f.Status)
	row.ResponseBytes = f.Bytes
	row.UserAgent = f.UserAgent
	row.Referrer = f.Referer
	row.SourceFormat = f.Format
	row.SourceFile = f.Source.File
	row.SourceLine = f.Source.Line
	row.WARCRecordOffset = -1
	if f.Origin == event.OriginWARC {
		row.WARCRecordOffset = f.Source.Offset
		row.WARCRecordLength = f.Source.Length
		row.WARCFilename = warcFilename(f.Source.File)
		row.ContentDigest = ccDigest(f.PayloadDigest)
		row.ContentMIMEType = f.ContentType
	}
	row.IsRobotsTxt = robots.IsRobotsTxt(f.Target)
	if f.ClientIP.IsValid() {
		row.ClientIP = c.ipString(f.ClientIP)
	}
	row.ForwardedFor = f.ForwardedFor

	a, named = m.authorityFor(f.Scheme, f.Host)
	host := f.Host
	switch {
	case host != "": // f.URL()
		row.URL, row.URLSurtKey = c.urlText(orHTTP(f.Scheme), host, f.Target)
	case named: // the site's
		host = m.defHost
		row.URL, row.URLSurtKey = c.urlText(m.defScheme, host, f.Target)
	default:
		row.URL, row.URLSurtKey = f.Target, surtKey(f.Target)
	}
	row.URLHostName = hostName(host)
	j.auth = a
	if a != nil {
		j.Authority = a.key
	}
	return a, named
}

// signatureCheck is the outcome of a signed request's verification; res
// is nil when the request carries no signature.
type signatureCheck struct {
	res *signature.Result
}

func (s signatureCheck) signed() bool { return s.res != nil }

// checkSignature verifies a signed request (Web Bot Auth,
// webbotauth-notes.md steps 2-10), fills the signature columns, keeps a
// copy of the request for replay detection and names the agent after the
// card of its Signature-Agent when the User-Agent named none.
func (m *Model) checkSignature(j *Judgement, f *event.Fetch, t time.Time, id *ident) signatureCheck {
	if !hasSignatureFields(f.Header) {
		return signatureCheck{}
	}
	req := &signature.Request{
		Time: t, Method: f.Method, Scheme: f.Scheme, Target: f.Target, IP: f.ClientIP,
		Header: f.Header, HeadersComplete: f.Origin == event.OriginWARC, Where: f.Source.String(),
		Body: f.Body, // WARC request records with Content-Digest (RFC 9530 check)
	}
	if req.Header.Get("Host") == "" {
		req.Authority = f.Host
	}
	r := m.verifier.Verify(req)
	res := &r
	j.Signature = res
	cp := *req
	cp.Body = nil // replay detection does not need it
	cp.Header = cloneHeader(f.Header)
	cp.Target = strings.Clone(f.Target)
	j.sigReq = &cp
	row := &j.Fetch
	row.Signature = string(res.Verdict)
	row.SignatureReasons = strings.Join(res.Reasons, ",")
	row.SignatureKeyID = res.KeyID
	row.SignatureAgent = res.Agent
	if id.card == nil && res.Agent != "" && res.Agent != signature.TrustedStore {
		if c, ok := m.cardForAgent(res.Agent, t); ok {
			id.card = c
			if id.token == "" && c.ProductToken != "" {
				m.fromCard(id)
			}
			if c.Trigger == "fetcher" {
				id.userTriggered = true
			}
		}
	}
	return signatureCheck{res: res}
}

// idStatus is what the identity status was decided from.
type idStatus struct {
	ipc       identity.IPCheck
	dns       identity.DNSCheck
	cardSigns bool // the client's card publishes keys
}

// identityStatus decides fetches.identity (docs/semantics.md,
// "Evaluation" §4.2): a failed check
// makes it spoofed, a passed one verified, otherwise claimed.
func (m *Model) identityStatus(j *Judgement, f *event.Fetch, t time.Time, id ident, sig signatureCheck, forced bool, c *judgeCache) idStatus {
	row := &j.Fetch
	var st idStatus
	if f.ClientIP.IsValid() && !forced {
		st.ipc = m.checkIP(id, f.ClientIP, t, c)
		switch st.ipc.Result {
		case identity.IPInRange, identity.IPNotInRange, identity.IPNotPublished:
			row.IPCheck = st.ipc.Result
		case identity.IPNotGiven:
			row.IPCheck, row.IPListURL = st.ipc.Result, st.ipc.ListSource
		}
		st.dns = m.checkDNS(id, f.ClientIP, t)
		if st.dns.Result != "" {
			row.DNSCheck = st.dns.Result
			row.DNSEvidence = dnsEvidence(f.ClientIP.String(), id, st.dns)
		}
	}
	st.cardSigns = id.cardSigns()
	j.claimant = st.cardSigns
	status := clientIdentity(f, st.ipc, st.dns, sig, st.cardSigns)
	row.Identity = string(status)
	if status == IdentitySpoofed {
		row.Operator = "" // never attributed to the operator
	}
	return st
}

// checkDNS judges the client address against the reverse-DNS snapshots
// in force at t, for a bot whose catalog entry has rdns_suffixes.
func (m *Model) checkDNS(id ident, ip netip.Addr, t time.Time) identity.DNSCheck {
	if id.bot == nil || len(id.bot.RDNSSuffixes) == 0 || !m.ids.HasDNS() {
		return identity.DNSCheck{}
	}
	return m.ids.CheckDNS(ip, id.bot.RDNSSuffixes, t)
}

// cardSigns reports whether the client's card publishes keys.
func (id *ident) cardSigns() bool {
	return id.card != nil && id.card.Invalid == "" && (len(id.card.JWKS) > 0 || id.card.JWKSURI != "")
}

// addressCheck combines the two checks of the client address, the
// published IP ranges and forward-confirmed reverse DNS, which operators
// document as equivalent (docs/semantics.md, "Reverse DNS"): either one
// passing confirms the address; one failing while the other does not
// pass refutes it.
func addressCheck(ipc identity.IPCheck, dns identity.DNSCheck) (confirmed, refuted bool) {
	confirmed = ipc.Result == identity.IPInRange || dns.Result == identity.DNSConfirmed
	refuted = !confirmed && (ipc.Result == identity.IPNotInRange || dnsRefutes(dns.Result))
	return confirmed, refuted
}

// dnsRefutes reports whether a DNS result shows the address is not the
// operator's. no_ptr and lookup_error prove nothing.
func dnsRefutes(result string) bool {
	return result == identity.DNSNameOutsideSuffixes || result == identity.DNSForwardMismatch
}

// clientIdentity is the identity status of f's client from its checks:
// spoofed when one fails, verified when one passes, else claimed.
func clientIdentity(f *event.Fetch, ipc identity.IPCheck, dns identity.DNSCheck, sig signatureCheck, cardSigns bool) Identity {
	signed := sig.signed()
	addrOK, addrBad := addressCheck(ipc, dns)
	switch {
	case addrBad ||
		(signed && sig.res.Verdict == signature.Invalid) ||
		(!signed && f.SignatureRecorded && cardSigns):
		return IdentitySpoofed
	case addrOK || (signed && sig.res.Verdict == signature.Verified) || f.CDNVerifiedBot != "":
		return IdentityVerified
	}
	return IdentityClaimed
}

// robotsScope is the scope of a log's robots.txt fetch f by the bot id
// (docs/semantics.md, Evaluation §5.1): the client's identity status,
// decided by the same checks as its fetches row (a replayed signature,
// found only in write order, is not known here).
func (m *Model) robotsScope(f *event.Fetch, t time.Time, id ident) viewScope {
	var j Judgement
	sig := m.checkSignature(&j, f, t, &id)
	var ipc identity.IPCheck
	var dns identity.DNSCheck
	if f.ClientIP.IsValid() {
		ipc = m.checkIP(id, f.ClientIP, t, nil)
		dns = m.checkDNS(id, f.ClientIP, t)
	}
	switch clientIdentity(f, ipc, dns, sig, id.cardSigns()) {
	case IdentitySpoofed:
		return viewScope{kind: scopeClient, ip: f.ClientIP}
	case IdentityVerified:
		return viewScope{kind: scopeVerified}
	}
	return viewScope{}
}

// robotsVerdict reconstructs the bot's view, judges the fetch under it
// (docs/semantics.md, "Evaluation" §5), fills the robots columns and
// adds the robots finding.
func (m *Model) robotsVerdict(j *Judgement, f *event.Fetch, t time.Time, a *authority, named bool, id ident, c *judgeCache, fv *FetchView) robotsResult {
	row := &j.Fetch
	var r robotsResult
	if named {
		r = m.evalRobots(a, id.groupToken(), id.lower, f, t, m.judgeScope(f, Identity(row.Identity)), fv, c)
	} else {
		r = robotsResult{verdict: VerdictNotJudged, code: NotJudgedNoHost, why: "the request names no host and no site is known (pass --site)"}
	}
	if row.IsRobotsTxt && r.verdict != VerdictNotJudged {
		// RFC 9309 §2.3: /robots.txt itself is always allowed.
		r.verdict, r.kind = VerdictAllowed, ""
	}
	// A capture taken by its own file's crawler (each archive crawler is
	// judged on its own: docs/semantics.md, "Archive crawlers").
	if r.kind != "" && r.kind != KindPossibleViolation && f.Origin == event.OriginWARC {
		if cr := m.crawlerOf(f.Source.File); cr.lower != "" && id.lower == cr.lower {
			r.kind = KindCapturedWhileDisallowed
		}
	}
	m.fillRobotsColumns(row, &r, c)
	if r.verdict == VerdictNotJudged {
		j.NotJudgedReason, j.NotJudgedCode = r.why, r.code
		row.RobotsNote, row.NotJudgedReason = r.why, r.code
	}
	if r.kind != "" {
		v := m.baseViolation(row, r.kind)
		m.robotsEvidence(&v, &r, id.token, a, f.Target, t, c)
		j.Violations = append(j.Violations, v)
	}
	return r
}

// policyFindings applies ACAP crawl permission (ACAP 1.0 §2.5.1) and AI
// usage preferences (usage.go), and notes the Crawl-delay for the Tracker. Both come from the version the
// verdict used; for a bot that never fetched robots.txt, from the version
// in force at t.
func (m *Model) policyFindings(j *Judgement, f *event.Fetch, t time.Time, a *authority, r *robotsResult, id *ident, c *judgeCache, hdr *respUsage) {
	row := &j.Fetch
	ver := r.version
	switch {
	case r.view == ViewUnchecked:
		ver = a.versionAtSrc(t, r.src)
	case r.inForce != nil: // a stale view: policies are the version in force's
		ver = r.inForce
	}
	fl := ver.file()
	if fl == nil {
		m.usageFindings(j, t, f.Target, r, ver, nil, id, c, hdr)
		return
	}
	if fl.ACAP != nil && !j.Fetch.IsRobotsTxt {
		av := fl.ACAPCheck(id.groupToken(), "crawl", f.Target)
		if av.Applies && av.Reason != robots.ACAPReasonConventional {
			if av.Allowed {
				row.ACAPCrawl = "allowed"
			} else {
				row.ACAPCrawl = "prohibited"
				v := m.baseViolation(row, KindACAPProhibited)
				m.acapEvidence(&v, ver, av, f.Target, "crawl")
				j.Violations = append(j.Violations, v)
			}
		}
	}
	m.usageFindings(j, t, f.Target, r, ver, fl, id, c, hdr)
	if r.verdict != VerdictNotJudged {
		if cd, ok := c.crawlDelay(fl, id.groupToken()); ok && cd.Seconds > 0 {
			j.crawlDelay, j.delayLine, j.delayVer = cd.Seconds, cd.Line, ver
		}
	}
}

// identityFindings adds the findings of a failed identity check.
func (m *Model) identityFindings(j *Judgement, f *event.Fetch, t time.Time, id ident, sig signatureCheck, st idStatus) {
	row := &j.Fetch
	if st.ipc.Result == identity.IPNotInRange && st.dns.Result != identity.DNSConfirmed {
		v := m.baseViolation(row, KindIPNotPublished)
		v.Evidence = "client IP " + row.ClientIP + " is not in the IP ranges published for " + id.token +
			" in force at " + fmtTime(t) + " (" + st.ipc.ListSource + listTime(st.ipc.ListTime, st.ipc.Earliest) + ")"
		j.Violations = append(j.Violations, v)
	}
	if dnsRefutes(st.dns.Result) && st.ipc.Result != identity.IPInRange {
		v := m.baseViolation(row, KindRDNSMismatch)
		v.Evidence = row.DNSEvidence
		j.Violations = append(j.Violations, v)
	}
	signed := sig.signed()
	if signed && sig.res.Verdict == signature.Invalid {
		v := m.baseViolation(row, KindInvalidSignature)
		v.SignatureReason = row.SignatureReasons
		v.Evidence = sig.res.Evidence
		if v.Evidence == "" {
			v.Evidence = "signature invalid: " + row.SignatureReasons
		}
		j.Violations = append(j.Violations, v)
	}
	if !signed && f.SignatureRecorded && st.cardSigns {
		v := m.baseViolation(row, KindUnsignedClaimant)
		v.Evidence = "User-Agent " + quote(f.UserAgent) + " claims the Signature Agent Card " + id.card.ClientID +
			" (" + id.card.Name + "), which publishes keys, but the request carries no Signature or Signature-Input although " +
			f.Source.String() + " records those fields"
		j.Violations = append(j.Violations, v)
	}
}

func listTime(t time.Time, earliest bool) string {
	switch {
	case t.IsZero():
		return ", given for the whole run"
	case earliest:
		return ", list of " + fmtTime(t) + ", the earliest given: it also covers earlier fetches"
	}
	return ", list of " + fmtTime(t)
}

// checkIP checks the client address against the ranges published for the
// bot in force at t: under its product token, then the catalog's ranges
// URLs (current, then former: a list captured at a URL the operator has
// since moved still counts), then the card's ips_uri. With no list, it says whether one is
// published: IPNotGiven with the URL in ListSource (the catalog's first,
// else the card's), or IPNotPublished. c may be nil.
func (m *Model) checkIP(id ident, ip netip.Addr, t time.Time, c *judgeCache) identity.IPCheck {
	try := func(owner string) (identity.IPCheck, bool) {
		if owner == "" || !c.hasIPList(m, owner) {
			return identity.IPCheck{}, false
		}
		r := m.ids.CheckIP(owner, ip, t)
		return r, r.Result != identity.IPNotGiven
	}
	if r, ok := try(id.token); ok {
		return r
	}
	if id.bot != nil {
		for _, urls := range [2][]string{id.bot.IPRangesURLs, id.bot.IPRangesFormerURLs} {
			for _, u := range urls {
				if r, ok := try(u); ok {
					return r
				}
			}
		}
	}
	if r, ok := try(id.cardIPURL()); ok {
		return r
	}
	for _, u := range [2]string{id.botIPURL(), id.cardIPURL()} {
		if u != "" {
			return identity.IPCheck{Result: identity.IPNotGiven, ListSource: u}
		}
	}
	return identity.IPCheck{Result: identity.IPNotPublished}
}

func (id *ident) botIPURL() string {
	if id.bot == nil {
		return ""
	}
	return id.bot.IPRangesURL
}

func (id *ident) cardIPURL() string {
	if id.card == nil {
		return ""
	}
	return id.card.IPsURI
}

// probeTime and probeAddr ask the identity store whether an owner has an
// IP list at any time: the latest snapshot is in force in the far future.
var (
	probeTime = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	probeAddr = netip.MustParseAddr("192.0.2.1")
)

// hasIPList reports whether the identity store holds an IP list for owner
// at any time. The store is complete once the model is built, so the
// answer is cached: most bots publish no list, and asking the store costs
// a URL parse per fetch.
//
// The owners are product tokens, and a bot the catalog does not know is
// named by its User-Agent's token: a log of millions of distinct
// User-Agents has as many owners. The cache is bounded (ipOwnerMax, an
// entry evicted at random when full), as the User-Agent cache is.
func (m *Model) hasIPList(owner string) bool {
	m.ipOwners.RLock()
	has, ok := m.ipOwners.m[owner]
	m.ipOwners.RUnlock()
	if ok {
		return has
	}
	has = m.ids.CheckIP(owner, probeAddr, probeTime).Result != identity.IPNotGiven
	m.ipOwners.Lock()
	if m.ipOwners.m == nil {
		m.ipOwners.m = make(map[string]bool)
	}
	if len(m.ipOwners.m) >= ipOwnerMax {
		for k := range m.ipOwners.m {
			delete(m.ipOwners.m, k)
			break
		}
	}
	m.ipOwners.m[strings.Clone(owner)] = has
	m.ipOwners.Unlock()
	return has
}

// ipOwnerMax bounds Model.ipOwners: some 2 MB of owners.
const ipOwnerMax = 16384

func cloneHeader(h event.Header) event.Header {
	out := make(event.Header, len(h))
	for i, f := range h {
		out[i] = event.Field{Name: strings.Clone(f.Name), Value: strings.Clone(f.Value)}
	}
	return out
}

// judgeScope is the view a fetch is judged by (docs/semantics.md,
// Evaluation §5.1): an archive record's crawl's; a spoofed client's own;
// the operator's verified clients'; else every claiming client's.
func (m *Model) judgeScope(f *event.Fetch, identity Identity) viewScope {
	switch {
	case f.Origin == event.OriginWARC:
		return crawlScope(m.crawlOf(f.Source.File))
	case identity == IdentitySpoofed:
		return viewScope{kind: scopeClient, ip: f.ClientIP}
	case identity == IdentityVerified:
		return viewScope{kind: scopeVerified}
	}
	return viewScope{}
}

// evalRobots reconstructs the bot's view of a's robots.txt at the time t
// of f and judges f's target under it (docs/semantics.md, "Evaluation"
// §5). The view is the one
// of scope sc: the ViewTracker's when fv is given and f is not an archive
// record, else the one Build settled. An archive record is placed among
// its crawl's records by file order (botView.atSrc, versionAtSrc).
func (m *Model) evalRobots(a *authority, token, lower string, f *event.Fetch, t time.Time, sc viewScope, fv *FetchView, c *judgeCache) robotsResult {
	var r robotsResult
	r.scope = sc
	target := f.Target
	if a == nil {
		r.view, r.verdict, r.why, r.code = ViewNone, VerdictNotJudged, "no robots.txt capture and no robots.txt fetch by the bot on this authority", NotJudgedNoVersion
		return r
	}
	var src event.Source // placing among a file's records: archive records only
	var e *viewEntry
	switch {
	case sc.kind == scopeCrawl:
		src = f.Source
		e = a.views.get(vkey{lower, sc}).atSrc(t, src)
	case fv != nil:
		e = fv.entry(lower, sc)
	default:
		e = a.views.get(vkey{lower, sc}).at(t)
	}
	if e == nil {
		return m.evalUnchecked(a, token, target, t, src, sc, c)
	}
	r.src = src
	r.entry = e
	if t.Sub(e.time) > m.opts.RobotsTTL {
		r.view = ViewStale
		vt := a.versionAtSrc(t, src)
		switch {
		case vt == nil:
			r.verdict, r.why, r.code = VerdictNotJudged, "the bot's view is stale and no robots.txt version is known at the fetch time", a.missingCode()
			return r
		case vt.effect == effDisallowAll && (e.kind == vkContent || e.kind == vkAllowAll):
			// RFC 9309 §2.4: while robots.txt is unreachable a cached copy
			// may be used beyond 24 hours.
			r.useOwn = true
		default:
			r.version = vt
			switch vt.effect {
			case effRules:
				m.check(&r, vt, token, target, c)
				if !r.rv.Allowed {
					r.verdict, r.kind = VerdictDisallowed, KindStaleRobots
					ownCopyToo(&r, e, token, target, c)
				}
			case effAllowAll:
				r.verdict = VerdictAllowed
			case effDisallowAll:
				r.verdict, r.kind = VerdictUnreachable, KindStaleRobots
			default:
				r.verdict, r.why, r.code = VerdictNotJudged, "the version in force at the fetch time has unknown content ("+vt.statusRule+")", NotJudgedUnknownContent
			}
			return r
		}
	} else {
		r.view = ViewFresh
	}
	switch e.kind {
	case vkContent:
		r.version = e.content
		m.check(&r, e.content, token, target, c)
		if !r.rv.Allowed {
			r.verdict, r.kind = VerdictDisallowed, KindDisallowedFetch
		}
	case vkAllowAll:
		r.verdict = VerdictAllowed
		if e.capture != nil {
			r.version = e.content
		}
	case vkUnreachable:
		if t.Sub(e.runStart) > m.opts.UnreachableAfter {
			r.verdict, r.stale30d = VerdictAllowed, true
		} else {
			r.verdict, r.kind = VerdictUnreachable, KindFetchWhileUnreachable
		}
	default:
		r.view, r.verdict, r.why, r.code = ViewNone, VerdictNotJudged, e.note, NotJudgedUnknownContent
		if e.capture == nil && a.lastRulesAt(e.time) == nil && e.status >= 200 && e.status < 300 {
			// A 2xx robots.txt fetch before any known version.
			r.code = a.missingCode()
		}
	}
	return r
}

// check judges target under version v's rules.
func (m *Model) check(r *robotsResult, v *version, token, target string, c *judgeCache) {
	r.rv = c.check(v.content.file, token, target)
	r.checked = true
	r.verdict = VerdictAllowed
}

// ownCopyToo turns a stale_robots finding into a disallowed_fetch when
// the bot's own copy, stale as it is, disallows the URL too: the bot
// fetched what the copy it held forbade, so the copy's age excuses
// nothing (docs/semantics.md, "Evaluation" §5.2). The finding then rests
// on that copy, the rule the bot was given; the version in force stays
// in the evidence.
func ownCopyToo(r *robotsResult, e *viewEntry, token, target string, c *judgeCache) {
	if e.kind != vkContent || e.content == nil {
		return
	}
	rv := c.check(e.content.content.file, token, target)
	if rv.Allowed {
		return
	}
	r.inForce, r.inForceRV = r.version, r.rv
	r.version, r.rv, r.kind = e.content, rv, KindDisallowedFetch
}

// evalUnchecked judges a fetch by a bot that never fetched robots.txt on a
// before t against every version in force during [t-ttl, t]
// (docs/semantics.md, "Evaluation" §5.3): all disallow is unchecked_disallowed, some is possible_violation.
func (m *Model) evalUnchecked(a *authority, token, target string, t time.Time, src event.Source, sc viewScope, c *judgeCache) robotsResult {
	r := robotsResult{view: ViewUnchecked, scope: sc, src: src}
	end := a.indexAtSrc(t, src)
	vt := a.versionAtIdx(end)
	if vt == nil {
		r.view, r.verdict, r.why, r.code = ViewNone, VerdictNotJudged, "no robots.txt version of this authority is known at or before the fetch time", a.missingCode()
		return r
	}
	w := graceWindow(a, end, token, target, t.Add(-m.opts.RobotsTTL), c)
	r.windowN, r.windowD = w.n, w.d
	switch {
	case w.n == 0:
		r.verdict, r.why, r.code = VerdictNotJudged, "every robots.txt version in the grace window has unknown content", NotJudgedUnknownContent
		r.version = vt
	case w.d == w.n:
		r.kind = KindUncheckedDisallowed
		r.version = vt
		r.verdict = VerdictDisallowed
		if vt.effect == effDisallowAll {
			r.verdict = VerdictUnreachable
		} else if vt.effect == effRules {
			r.rv, r.checked = w.atT, true
		} else {
			r.version = w.lastDis
			if w.lastDis.effect == effRules {
				r.rv, r.checked = w.lastDisRV, true
			}
		}
	case w.d > 0:
		r.kind, r.verdict = KindPossibleViolation, VerdictPossible
		r.version = w.lastDis
		if w.lastDis.effect == effRules {
			r.rv, r.checked = w.lastDisRV, true
		}
	default:
		r.verdict = VerdictAllowed
		r.version = vt
		if vt.effect == effRules {
			r.rv, r.checked = w.atT, true
		}
	}
	return r
}

// window is what the versions in force during a grace window say about
// one target.
type window struct {
	n, d      int            // versions judged, of which disallow
	lastDis   *version       // the last version that disallows; nil when none
	lastDisRV robots.Verdict // its verdict (zero for an unreachable robots.txt)
	atT       robots.Verdict // the verdict of vt, the version at the fetch time
}

// graceWindow judges target under every version of a in force during
// [start, t]: a.versions[:end] are those in force at or before the fetch,
// and the last of them, vt, the one at t. c may be nil.
func graceWindow(a *authority, end int, token, target string, start time.Time, c *judgeCache) window {
	var w window
	vt := a.versionAtIdx(end)
	i := end - 1
	for i > 0 && a.versions[i].from.After(start) {
		i--
	}
	for ; i < end; i++ {
		v := a.versions[i]
		if !v.until.IsZero() && !v.until.After(start) && v != vt {
			continue // ended before the window
		}
		switch v.effect {
		case effRules:
			rv := c.check(v.content.file, token, target)
			w.n++
			if !rv.Allowed {
				w.d++
				w.lastDis, w.lastDisRV = v, rv
			}
			if v == vt {
				w.atT = rv
			}
		case effAllowAll:
			w.n++
		case effDisallowAll:
			w.n++
			w.d++
			w.lastDis, w.lastDisRV = v, robots.Verdict{}
		}
	}
	return w
}

// fillRobotsColumns copies the view and verdict into the fetches row.
func (m *Model) fillRobotsColumns(row *table.Fetch, r *robotsResult, c *judgeCache) {
	row.RobotsView = string(r.view)
	row.RobotsVerdict = string(r.verdict)
	if r.entry != nil {
		row.RobotsViewTime = &r.entry.time
		row.RobotsViewStatus = int32(r.entry.status)
	}
	if r.version != nil {
		row.RobotsVersionID = r.version.id
	}
	if r.checked {
		row.MatchedGroup = r.rv.Group
		if r.rv.Rule != nil {
			row.MatchedRule = c.ruleText(r.version, r.rv.Rule)
			row.MatchedLine = int32(r.rv.Rule.Line)
		}
	}
}

// baseViolation fills the columns every fetch finding shares.
func (m *Model) baseViolation(row *table.Fetch, kind string) table.Violation {
	return table.Violation{
		Kind:             kind,
		Severity:         Severity(kind),
		FetchTime:        row.FetchTime,
		Agent:            row.Agent,
		Operator:         row.Operator,
		Category:         row.Category,
		Identity:         row.Identity,
		UserTriggered:    row.UserTriggered,
		URL:              row.URL,
		URLHostName:      row.URLHostName,
		URLPath:          row.URLPath,
		ClientIP:         row.ClientIP,
		RobotsWARCOffset: -1,
		SourceFile:       row.SourceFile,
		SourceLine:       row.SourceLine,
		WARCRecordOffset: row.WARCRecordOffset,
		WARCRecordLength: row.WARCRecordLength,
		WARCFilename:     row.WARCFilename,
		ContentDigest:    row.ContentDigest,
		ContentMIMEType:  row.ContentMIMEType,
		URLSurtKey:       row.URLSurtKey,
	}
}

// dnsEvidence says, for fetches.dns_evidence and the rdns_mismatch
// finding, what the reverse-DNS snapshot showed, so that it can be
// checked by hand: the PTR name, the forward answer, the snapshot file,
// its resolver and the lookup time. "" when no snapshot holds ip.
func dnsEvidence(ip string, id ident, c identity.DNSCheck) string {
	if c.Result == "" {
		return ""
	}
	suffixes := strings.Join(id.bot.RDNSSuffixes, ", ")
	var what string
	switch c.Result {
	case identity.DNSConfirmed:
		what = "reverse DNS confirms " + ip + " for " + id.token + ": PTR " + c.Name + " (under " + suffixes + ") resolves to " + strings.Join(c.Answers, ", ")
	case identity.DNSNameOutsideSuffixes:
		what = "reverse DNS refutes " + ip + " for " + id.token + ": PTR " + strings.Join(c.PTR, ", ") + " is not under " + suffixes
	case identity.DNSForwardMismatch:
		answers := strings.Join(c.Answers, ", ")
		if answers == "" {
			answers = "no address"
		}
		what = "reverse DNS refutes " + ip + " for " + id.token + ": PTR " + c.Name + " (under " + suffixes + ") resolves to " + answers + ", not " + ip
	case identity.DNSNoPTR:
		what = "reverse DNS: " + ip + " has no PTR record (proves nothing)"
	default:
		what = "reverse DNS: the lookup of " + ip + " failed (proves nothing)"
	}
	when := "lookup of " + fmtTime(c.Looked)
	if c.Earliest {
		when += ", the earliest of the address: it also covers earlier fetches"
	}
	return what + "; " + when + " via " + c.Resolver + " in " + c.File
}
