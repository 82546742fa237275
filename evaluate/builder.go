package evaluate

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"iter"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/extract"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/robots"
)

// ListingEntry is one URL an index or snippet listing shows.
type ListingEntry struct {
	URL    string
	Time   time.Time // zero when the listing has no time: judged as of Options.AsOf
	Agent  string    // "" = Options.IndexAgent
	Source event.Source
}

// Builder collects the state of pass 1: robots.txt captures, each bot's
// own robots.txt fetches, the directives of every other capture, and
// listing entries. Its Add methods are safe for concurrent use; Build's
// result does not depend on the order of Add calls.
type Builder struct {
	opts    Options
	catalog *bots.Catalog
	ids     *identity.Store
	robots  *robotsStore // distinct robots.txt contents

	mu          sync.Mutex
	docs        []*rdoc   // robots-like captures (every /robots.txt, and redirect-target candidates)
	captures    []*capRec // every archived capture, compact
	dirSets     map[string]*dirSet
	files       map[string]string         // interned source file names
	filePtrs    map[string]*string        // a *string of each interned file name (capRec.file)
	rfetches    chunked[robotsFetch]      // robots.txt fetches from logs and WARC request records
	rwho        []fetchWho                // scheme, User-Agent and origin of rfetches
	rwhoIdx     map[fetchWho]uint32       // index into rwho
	strs        map[string]string         // interned hosts of rfetches
	warcUAs     map[string]int            // User-Agent of WARC request records -> count
	fileUAs     map[string]map[string]int // WARC file -> User-Agent of its request records -> count
	infos       map[string]warcinfo       // WARC file -> what its first warcinfo record names
	crawlers    []ArchiveCrawler          // settled over all inputs (Shared.Crawlers): taken as they are
	reqIDs      chunked[pairHash]         // pairKey(file, WARC-Record-ID) of request records, unsorted
	reqConc     chunked[pairHash]         // pairKey(file, WARC-Concurrent-To) of request records, unsorted
	index       []ListingEntry
	snippets    []ListingEntry
	maxTime     time.Time
	defaultAsOf time.Time         // SetDefaultAsOf: the as-of when Options.AsOf is zero, if not maxTime
	minTime     time.Time         // earliest non-zero time seen; site versions without a time start here
	siteDocs    []*rdoc           // robots.txt versions as the site keeps them (AddSiteVersion)
	seenHosts   map[string]string // host[:port] named by fetches -> scheme ("" unknown), for site inference
	hostless    int64             // fetches whose source names no host
	nCaptures   int64
	nFetches    int64
	nRobotsReq  int64

	stream bool       // StreamViews: log robots.txt fetches are not kept
	notes  *hostNotes // StreamViews: each host's last fetch (viewtracker.go)
}

// StreamViews tells the Builder not to keep the robots.txt fetches of logs:
// pass 2 must then judge every fetch through a ViewTracker, in time order
// (Model.NewViewTracker, JudgeIntoView), which settles the bots' views as
// it goes. Pass 1 keeps instead, per host[:port] named by a fetch, a hash
// and 16 bytes: its last fetch time and the schemes of the robots.txt
// fetches that create an authority (docs/design.md, "Memory"). Call it before
// the first Add.
func (b *Builder) StreamViews() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stream = true
	if b.notes == nil {
		b.notes = newHostNotes()
	}
}

// NewBuilder returns an empty Builder. catalog and ids may be nil (no
// catalog bots, no cards, keys or IP lists).
func NewBuilder(opts Options, catalog *bots.Catalog, ids *identity.Store) *Builder {
	if catalog == nil {
		catalog = &bots.Catalog{}
	}
	if ids == nil {
		ids = identity.NewStore()
	}
	return &Builder{
		opts:    opts.withDefaults(),
		catalog: catalog,
		ids:     ids,
		robots:  newRobotsStore(opts),
		dirSets: make(map[string]*dirSet),
		files:   make(map[string]string),
		strs:    make(map[string]string),
		rwhoIdx: make(map[fetchWho]uint32),
		warcUAs: make(map[string]int),
		fileUAs: make(map[string]map[string]int),
		infos:   make(map[string]warcinfo),
	}
}

// rdoc is one robots-like capture: a capture of /robots.txt (a timeline
// version) or of another URL that a robots.txt redirect may lead to.
type rdoc struct {
	// The fields pass 2 reads: the judging, the view tracker, a finding's
	// robots.txt columns.
	time       time.Time
	src        event.Source
	file       *robotsContent // parsed body of a success; nil otherwise
	origin     string         // OriginWARC ("" too), OriginFile, OriginGit, ...: see SiteVersion
	status     int
	isRobots   bool // path is exactly /robots.txt
	truncated  bool
	noResponse bool // status 0 with WARC-Truncated or no body: network failure
	assumed    bool // no time given: in force for the whole data range
	unresolved bool // revisit whose payload the reader could not resolve
	// The rest, read by Build, by the robots_versions and robots_rules
	// tables and by a version's description when a finding first cites
	// it: nil once spilled after the tables are written (docspill.go),
	// when full reads it back from spill at coldAt.
	*rdocCold
	spill  *docSpill
	coldAt int64
}

// rdocCold is the part of an rdoc judging does not read (rdoc.full).
type rdocCold struct {
	rawURL     string
	url        string // normalized
	auth       string // authority key
	hostport   string
	recordType string
	location   string // normalized absolute redirect target; "" when none
	digest     string // SHA-256 of the body, hex; "" when no body
	idDigest   string // 6 hex digits for version ids
	size       int64
	recordID   string
	refersTo   string
	payload    string // WARC-Payload-Digest
	profile    string
	conc       []string
	originRef  string // file, REPO@COMMIT:PATH or snapshot name; the Wayback URL
	detail     string // extra evidence (a commit's subject)
}

// maxUsageHeader bounds the Content-Usage header value kept per capture:
// the value comes from outside, and real ones are a few labels long.
const maxUsageHeader = 1 << 10

// usageHeader returns the capture's Content-Usage field value, its field
// lines joined with ", " (RFC 9110 §5.3), cut when longer than
// maxUsageHeader at the last member separator that fits, so that what
// is kept still reads as whole members.
func usageHeader(h event.Header) (v string, cut bool) {
	vs := h.Values("Content-Usage")
	if len(vs) == 0 {
		return "", false
	}
	v = strings.Join(vs, ", ")
	if len(v) <= maxUsageHeader {
		return strings.Clone(v), false
	}
	v = v[:maxUsageHeader]
	if i := strings.LastIndexByte(v, ','); i >= 0 {
		v = v[:i]
	}
	return strings.Clone(v), true
}

// capTypes are the WARC-Types of captures (isHTTPRecord).
var capTypes = [...]string{"response", "revisit", "resource"}

// recordType is the capture's WARC-Type.
func (c *capRec) recordType() string { return capTypes[c.rtype] }

// capType is the index of an HTTP record type in capTypes.
func capType(rt string) uint8 {
	switch rt {
	case "revisit":
		return 1
	case "resource":
		return 2
	}
	return 0
}

// capRevisit is what a revisit record adds to its capRec.
type capRevisit struct {
	refersTo string // WARC-Refers-To
	payload  string // WARC-Payload-Digest
}

// parts returns the scheme, host[:port] and request-target of the
// capture's URL, as splitURL(c.rawURL()) does, without parsing it again.
func (c *capRec) parts() (scheme, hostport, target string) {
	if c.schemeEnd == 0 {
		auth, hp, tg, ok := splitURL(c.rawURL())
		if !ok {
			return "", "", ""
		}
		return auth[:strings.Index(auth, ":")], hp, tg
	}
	u := c.url()
	return u[:c.schemeEnd], u[c.schemeEnd+3 : c.hostEnd], u[c.hostEnd:]
}

// refersTo and payload are the revisit's WARC-Refers-To and
// WARC-Payload-Digest; "" for other records.
func (c *capRec) refersTo() string {
	if r := c.rev(); r != nil {
		return r.refersTo
	}
	return ""
}

func (c *capRec) payload() string {
	if r := c.rev(); r != nil {
		return r.payload
	}
	return ""
}

// pairHash is a 128-bit key of a (WARC file, record ID) pair: the first
// 16 bytes of its SHA-256. Pass 1 keeps one per request record instead of
// two strings in two maps; two different pairs share a key with a
// probability near 2^-128 times the square of the number of records.
type pairHash struct{ hi, lo uint64 }

func cmpPairHash(x, y pairHash) int {
	if c := cmp.Compare(x.hi, y.hi); c != 0 {
		return c
	}
	return cmp.Compare(x.lo, y.lo)
}

// hasPair reports whether the sorted keys hold k.
func hasPair(sorted []pairHash, k pairHash) bool {
	_, ok := slices.BinarySearchFunc(sorted, k, cmpPairHash)
	return ok
}

// dirSet is one deduplicated set of directives; many captures share one.
type dirSet struct {
	d *extract.Directives
}

// rfetch is one fetch of /robots.txt seen in pass 1, as buildViews reads
// it (Builder.robotsFetches).
type rfetch struct {
	time     time.Time
	src      event.Source
	scheme   string
	host     string
	ua       string
	origin   string
	recordID string   // WARC request records only
	conc     []string // WARC request records only
	status   int
	fetch    *event.Fetch // a log's fetch: what its client's identity is decided from
}

// robotsFetch is how pass 1 keeps an rfetch: 104 bytes by value, the
// host interned, scheme, User-Agent and origin one shared triple, WARC
// fields one string. A log of millions of robots.txt requests from a
// few bots costs little more than the slice.
type robotsFetch struct {
	sec    int64 // time, UTC
	nsec   int32
	status int32  // -1 when outside 0..999
	who    uint32 // index into Builder.rwho
	host   string
	src    event.Source
	warc   string       // a WARC request record's id and the records it is concurrent to (warcIDs); "" for logs
	fetch  *event.Fetch // a log's fetch (identityFacts); nil for WARC request records
}

// fetchWho is the scheme, User-Agent and origin of robots.txt fetches.
type fetchWho struct{ scheme, ua, origin string }

// warcIDs codes what a WARC request record of /robots.txt adds, its id
// and the records it is concurrent to, in one string: for each, a 1 and
// its 16 bytes when it has the standard form (recordIDBytes), else a 0,
// its length (uvarint) and its bytes. "" when it has neither.
func warcIDs(recordID string, conc []string) string {
	if recordID == "" && len(conc) == 0 {
		return ""
	}
	var buf []byte
	for _, id := range append([]string{recordID}, conc...) {
		if b, ok := recordIDBytes(id); ok {
			buf = append(append(buf, 1), b[:]...)
			continue
		}
		buf = binary.AppendUvarint(append(buf, 0), uint64(len(id)))
		buf = append(buf, id...)
	}
	return string(buf)
}

// fromWARCIDs reads what warcIDs wrote.
func fromWARCIDs(s string) (recordID string, conc []string) {
	for k := 0; s != ""; k++ {
		var id string
		if s[0] == 1 {
			id, s = recordIDString(s[1:17]), s[17:]
		} else {
			n, w := binary.Uvarint([]byte(s[1:min(len(s), 11)]))
			id, s = s[1+w:1+w+int(n)], s[1+w+int(n):]
		}
		if k == 0 {
			recordID = id
		} else {
			conc = append(conc, id)
		}
	}
	return recordID, conc
}

func cmpRobotsFetch(x, y robotsFetch) int {
	switch {
	case x.sec != y.sec:
		return cmp.Compare(x.sec, y.sec)
	case x.nsec != y.nsec:
		return cmp.Compare(x.nsec, y.nsec)
	}
	return lessSource(x.src, y.src)
}

// robotsFetches yields the robots.txt fetches of pass 1 in time, then
// source order (the same *rfetch, refilled), and releases them: the
// Builder is done.
func (b *Builder) robotsFetches() iter.Seq[*rfetch] {
	rfs := b.rfetches.all()
	slices.SortFunc(rfs, cmpRobotsFetch)
	return func(yield func(*rfetch) bool) {
		var rf rfetch
		for i := range rfs {
			c := &rfs[i]
			w := b.rwho[c.who]
			rf = rfetch{time: time.Unix(c.sec, int64(c.nsec)).UTC(), src: c.src, scheme: w.scheme, host: c.host,
				ua: w.ua, origin: w.origin, status: int(c.status)}
			rf.recordID, rf.conc = fromWARCIDs(c.warc)
			rf.fetch = c.fetch
			if !yield(&rf) {
				return
			}
		}
	}
}

func (b *Builder) noteTime(t time.Time) {
	if t.After(b.maxTime) {
		b.maxTime = t
	}
	if !t.IsZero() && (b.minTime.IsZero() || t.Before(b.minTime)) {
		b.minTime = t
	}
}

// filePtr returns the one *string kept for the interned file name;
// nil for "". b.mu is held.
func (b *Builder) filePtr(file string) *string {
	if file == "" {
		return nil
	}
	if p, ok := b.filePtrs[file]; ok {
		return p
	}
	if b.filePtrs == nil {
		b.filePtrs = make(map[string]*string)
	}
	p := &file
	b.filePtrs[file] = p
	return p
}

func (b *Builder) intern(file string) string {
	if s, ok := b.files[file]; ok {
		return s
	}
	s := strings.Clone(file)
	b.files[s] = s
	return s
}

// whoOf returns the index of w in b.rwho, adding a copy. b.mu is held.
func (b *Builder) whoOf(w fetchWho) uint32 {
	if i, ok := b.rwhoIdx[w]; ok {
		return i
	}
	w = fetchWho{strings.Clone(w.scheme), strings.Clone(w.ua), strings.Clone(w.origin)}
	i := uint32(len(b.rwho))
	b.rwho = append(b.rwho, w)
	b.rwhoIdx[w] = i
	return i
}

// internStr returns the one copy of s kept for robots.txt fetches. b.mu
// is held.
func (b *Builder) internStr(s string) string {
	if v, ok := b.strs[s]; ok {
		return v
	}
	v := strings.Clone(s)
	b.strs[v] = v
	return v
}

func isHTTPRecord(rt string) bool {
	return rt == "response" || rt == "revisit" || rt == "resource"
}

// robotsLike reports whether a capture may be a robots.txt or the target
// of a robots.txt redirect: its path contains "robots" (case-insensitive).
// Other redirect targets are "not in the inputs" (see docs/semantics.md).
func robotsLike(target string) bool {
	return strings.Contains(strings.ToLower(pathOf(target)), "robots")
}

// mayHoldRules reports whether a successful capture's body may hold
// robots.txt rules, wherever it is: a line whose key could start a group
// (a user-agent line, typos included) or an ACAP record, within the
// default parsing limit. A robots.txt redirect may lead to it (RFC 9309
// §2.3.1.2), so it is kept as a document; any other body parses to no
// group and no ACAP record, so it has no rules and needs no document
// (timeline.go, redirectToCapture). The test errs towards keeping: a
// line counts when, skipping what is not a letter, it starts with "u"
// then "s" or "e" (skipping '-', '_', blanks, as robots.lookupKey does),
// or with "acap"; a UTF-16 body always counts.
func mayHoldRules(c *event.Capture) bool {
	if !(c.Status >= 200 && c.Status < 300 || c.RecordType == "resource" && c.Status == 0) {
		return false
	}
	body := c.Body
	if len(body) > robots.DefaultMaxBytes {
		body = body[:robots.DefaultMaxBytes]
	}
	if len(body) >= 2 && (body[0] == 0xFF && body[1] == 0xFE || body[0] == 0xFE && body[1] == 0xFF) {
		return true
	}
	for len(body) > 0 {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		for { // a lone CR ends a line too
			if ruleKeyStart(line) {
				return true
			}
			j := bytes.IndexByte(line, '\r')
			if j < 0 {
				break
			}
			line = line[j+1:]
		}
	}
	return false
}

// ruleKeyStart reports whether a line may start with a user-agent or
// ACAP key (see mayHoldRules).
func ruleKeyStart(line []byte) bool {
	i := 0
	for i < len(line) && !isASCIILetter(line[i]) && line[i] != '\r' {
		i++
	}
	if i == len(line) {
		return false
	}
	switch line[i] | 0x20 {
	case 'a':
		return len(line)-i >= 4 && bytes.EqualFold(line[i:i+4], []byte("acap"))
	case 'u':
		for i++; i < len(line); i++ {
			switch line[i] {
			case '-', '_', ' ', '\t':
				continue
			}
			c := line[i] | 0x20
			return c == 's' || c == 'e'
		}
	}
	return false
}

func isASCIILetter(c byte) bool { c |= 0x20; return c >= 'a' && c <= 'z' }

// AddCapture adds one archived response. A capture of /robots.txt becomes a
// version of its authority's robots.txt timeline; every other HTTP capture
// contributes its directives (Robots-Tag, X-Robots-Tag, meta robots) and
// becomes an archived record for retention. Only a compact summary is
// kept, never the body.
func (b *Builder) AddCapture(c *event.Capture) {
	if c == nil || !isHTTPRecord(c.RecordType) {
		return
	}
	auth, hostport, target, ok := splitURL(c.URL)
	if !ok {
		return
	}
	t := c.Time.UTC()
	isRobots := robots.IsRobotsTxt(target)
	unresolved := c.RecordType == "revisit" && !c.Resolved

	var doc *rdoc
	if isRobots || robotsLike(target) || !unresolved && mayHoldRules(c) {
		doc = b.newDoc(c, auth, hostport, target, isRobots, unresolved)
	}
	var dir *extract.Directives
	var key string
	if !isRobots && (len(c.Header) > 0 || len(c.Body) > 0) {
		dir = extract.FromResponse(c.Header, c.Body, c.ContentType, extract.Options{})
		if dir != nil && len(dir.Rules) == 0 && len(dir.Diagnostics) == 0 {
			dir = nil
		}
		if dir != nil {
			key = dirKey(dir)
		}
	}
	f := capFields{
		rawURL: c.URL, url: c.URL, time: t, status: int32(c.Status), rtype: capType(c.RecordType),
		recordID: c.RecordID, digest: c.PayloadDigest, mime: mediaType(c.ContentType),
		isRobots: isRobots, unresolved: unresolved, src: c.Source,
	}
	if !isJoin(c.URL, auth, target) {
		f.url = auth + target
	}
	if se := strings.Index(auth, ":"); se <= 255 && len(auth) <= math.MaxInt32 {
		f.schemeEnd, f.hostEnd = uint8(se), int32(len(auth))
	}
	if c.RecordType == "revisit" {
		f.rev = &capRevisit{refersTo: strings.Clone(c.RefersTo), payload: strings.Clone(c.PayloadDigest)}
	}
	f.usage, f.usageCut = usageHeader(c.Header)
	f.emb = embargoHeader(c.Header)
	if c.Status >= 300 && c.Status < 400 {
		if loc := c.Header.Get("Location"); loc != "" {
			f.loc = resolveLocation(c.URL, loc)
		}
	}
	if len(c.ConcurrentTo) > 0 {
		f.concKey, f.hasConc = pairKey(c.Source.File, c.ConcurrentTo[0]), true
	}
	f.src.File = ""
	rec := newCapRec(&f)

	b.mu.Lock()
	defer b.mu.Unlock()
	b.nCaptures++
	b.noteTime(t)
	src := c.Source
	src.File = b.intern(src.File)
	rec.file = b.filePtr(src.File)
	if doc != nil {
		doc.src = src
		b.docs = append(b.docs, doc)
	}
	if dir != nil {
		ds, ok := b.dirSets[key]
		if !ok {
			ds = &dirSet{d: dir}
			b.dirSets[key] = ds
		}
		rec.dir = ds
	}
	b.captures = append(b.captures, rec)
}

func recordTypeConst(rt string) string {
	switch rt {
	case "response":
		return "response"
	case "revisit":
		return "revisit"
	case "resource":
		return "resource"
	}
	return strings.Clone(rt)
}

// isJoin reports whether s is a+b.
func isJoin(s, a, b string) bool {
	return len(a)+len(b) == len(s) && strings.HasPrefix(s, a) && strings.HasSuffix(s, b)
}

// newDoc parses a robots-like capture outside any lock. auth and hostport
// are splitURL's (auth its own allocation, hostport part of it or of
// c.URL, which is the reader's: the doc keeps the part of auth).
func (b *Builder) newDoc(c *event.Capture, auth, hostport, target string, isRobots, unresolved bool) *rdoc {
	raw := strings.Clone(c.URL)
	u := raw
	if !isJoin(raw, auth, target) {
		u = auth + target
	}
	if i := strings.Index(auth, "://"); i >= 0 && auth[i+3:] == hostport {
		hostport = auth[i+3:]
	} else {
		hostport = strings.Clone(hostport)
	}
	d := &rdoc{
		isRobots:   isRobots,
		time:       c.Time.UTC(),
		status:     c.Status,
		unresolved: unresolved,
		rdocCold: &rdocCold{
			rawURL:     raw,
			url:        u,
			auth:       auth,
			hostport:   hostport,
			recordType: recordTypeConst(c.RecordType),
			size:       int64(len(c.Body)),
			recordID:   strings.Clone(c.RecordID),
			refersTo:   strings.Clone(c.RefersTo),
			payload:    strings.Clone(c.PayloadDigest),
			profile:    strings.Clone(c.Profile),
		},
	}
	for _, ct := range c.ConcurrentTo {
		d.conc = append(d.conc, strings.Clone(ct))
	}
	if isWayback(c.SourceURI) {
		// Saved by `repaudit robots history`: the Wayback Machine's capture,
		// not the input archive crawler's own fetch.
		d.origin, d.originRef = OriginWayback, strings.Clone(c.SourceURI)
	}
	if c.Status >= 300 && c.Status < 400 {
		if loc := c.Header.Get("Location"); loc != "" {
			d.location = resolveLocation(c.URL, loc)
		}
	}
	if c.RecordType == "response" && c.Status == 0 && (c.WARCTruncated != "" || len(c.Body) == 0) {
		d.noResponse = true
	}
	h := sha256.New()
	if len(c.Body) > 0 {
		h.Write(c.Body)
		sum := h.Sum(nil)
		d.digest = hex.EncodeToString(sum)
		d.idDigest = d.digest[:6]
	} else {
		h.Write([]byte(strings.Join([]string{c.RecordType, itoa(c.Status), d.location, c.PayloadDigest}, "\n")))
		d.idDigest = hex.EncodeToString(h.Sum(nil))[:6]
	}
	success := (c.Status >= 200 && c.Status < 300) || (c.RecordType == "resource" && c.Status == 0)
	if success && !unresolved {
		d.file = b.robots.add(d.digest, c.Body)
		d.truncated = d.file.trunc || c.BodyTruncated
	}
	return d
}

// resolveLocation resolves a Location value against the URL that carried
// it and normalizes the result.
func resolveLocation(base, loc string) string {
	loc = strings.TrimSpace(loc)
	if _, _, _, ok := splitURL(loc); ok {
		return normalizeURL(loc)
	}
	auth, _, _, ok := splitURL(base)
	if !ok {
		return ""
	}
	switch {
	case strings.HasPrefix(loc, "//"):
		return normalizeURL(auth[:strings.Index(auth, ":")] + ":" + loc)
	case strings.HasPrefix(loc, "/"):
		return normalizeURL(auth + loc)
	default:
		// Relative path: resolve against the base path's directory.
		_, _, bt, _ := splitURL(base)
		p := pathOf(bt)
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			p = p[:i+1]
		}
		return normalizeURL(auth + p + loc)
	}
}

// dirKey is the deduplication key of a directive set.
func dirKey(d *extract.Directives) string {
	var sb strings.Builder
	for _, r := range d.Rules {
		sb.WriteString(r.Token)
		sb.WriteByte(0)
		sb.WriteString(r.Name)
		sb.WriteByte(0)
		sb.WriteString(r.Value)
		sb.WriteByte(0)
		sb.WriteString(r.Via)
		sb.WriteByte(0)
		sb.WriteString(r.Evidence)
		sb.WriteByte(1)
	}
	sb.WriteByte(2)
	for _, g := range d.Diagnostics {
		sb.WriteString(g.Code)
		sb.WriteByte(0)
		sb.WriteString(g.Message)
		sb.WriteByte(0)
		sb.WriteString(g.Evidence)
		sb.WriteByte(1)
	}
	return sb.String()
}

// AddFetch adds one fetch seen in pass 1. Only fetches of /robots.txt are
// kept (they build each bot's own robots.txt view); WARC request records
// also tell the archive crawler's User-Agent and pair captures with their
// requests. Every other fetch is judged in pass 2 by Model.Judge.
func (b *Builder) AddFetch(f *event.Fetch) {
	if f == nil {
		return
	}
	t := f.Time.UTC()
	isRobots := robots.IsRobotsTxt(f.Target) && (f.Method == "" || strings.EqualFold(f.Method, "GET"))
	// Pairing keys are hashed outside the lock.
	var idKey pairHash
	var concBuf [2]pairHash
	concKeys := concBuf[:0]
	if f.Origin == event.OriginWARC {
		if f.RecordID != "" {
			idKey = pairKey(f.Source.File, f.RecordID)
		}
		for _, c := range f.ConcurrentTo {
			concKeys = append(concKeys, pairKey(f.Source.File, c))
		}
	}
	var warc string
	if isRobots {
		warc = warcIDs(f.RecordID, f.ConcurrentTo)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.nFetches++
	b.noteTime(t)
	if f.Origin == event.OriginWARC {
		if n, ok := b.warcUAs[f.UserAgent]; ok {
			b.warcUAs[f.UserAgent] = n + 1
		} else {
			b.warcUAs[strings.Clone(f.UserAgent)] = 1
		}
		file := b.intern(f.Source.File)
		uas := b.fileUAs[file]
		if uas == nil {
			uas = make(map[string]int)
			b.fileUAs[file] = uas
		}
		if n, ok := uas[f.UserAgent]; ok {
			uas[f.UserAgent] = n + 1
		} else {
			uas[strings.Clone(f.UserAgent)] = 1
		}
		if f.RecordID != "" {
			b.reqIDs.add(idKey)
		}
		for _, k := range concKeys {
			b.reqConc.add(k)
		}
	}
	if b.stream {
		var si uint64
		if isRobots && f.Origin != event.OriginWARC && f.Status >= 200 && f.Status <= 599 {
			si = schemeIndex(strings.ToLower(f.Scheme))
		}
		b.notes.note(f.Host, t, si)
		if isRobots && f.Origin != event.OriginWARC {
			b.nRobotsReq++
			return // the ViewTracker applies it in pass 2
		}
	}
	if isRobots {
		src := f.Source
		src.File = b.intern(src.File)
		st := int32(-1)
		if f.Status >= 0 && f.Status <= 999 {
			st = int32(f.Status)
		}
		var fx *event.Fetch
		if f.Origin != event.OriginWARC {
			fx = identityFacts(f)
		}
		b.rfetches.add(robotsFetch{
			sec: t.Unix(), nsec: int32(t.Nanosecond()), status: st, src: src, warc: warc, fetch: fx,
			who:  b.whoOf(fetchWho{strings.ToLower(f.Scheme), f.UserAgent, f.Origin}),
			host: b.internStr(f.Host),
		})
		b.nRobotsReq++
	}
}

// identityFacts copies what the identity of f's client is decided from
// (Model.robotsScope): a model that keeps the logs' robots.txt fetches
// (no StreamViews) keys each bot's view by who fetched.
func identityFacts(f *event.Fetch) *event.Fetch {
	return &event.Fetch{
		Time: f.Time, Method: strings.Clone(f.Method), Scheme: strings.Clone(f.Scheme), Host: strings.Clone(f.Host),
		Target: strings.Clone(f.Target), ClientIP: f.ClientIP, UserAgent: strings.Clone(f.UserAgent),
		Header: cloneHeader(f.Header), SignatureRecorded: f.SignatureRecorded,
		CDNVerifiedBot: strings.Clone(f.CDNVerifiedBot), Origin: f.Origin, Source: f.Source,
	}
}

// warcinfo is what a WARC file's warcinfo records (or an ARC file's
// filedesc record) say about its crawler and its crawl.
type warcinfo struct {
	userAgent string // http-header-user-agent } of the first record naming either
	software  string // software               }
	crawl     string // isPartOf of the first record naming one
}

// merge fills what w lacks from o, a later record of the same file.
func (w warcinfo) merge(o warcinfo) warcinfo {
	if w.userAgent == "" && w.software == "" {
		w.userAgent, w.software = o.userAgent, o.software
	}
	if w.crawl == "" {
		w.crawl = o.crawl
	}
	return w
}

// infoFields reads the fields of a warcinfo record that pass 1 keeps.
func infoFields(info event.Header) warcinfo {
	return warcinfo{
		userAgent: strings.TrimSpace(info.Get("http-header-user-agent")),
		software:  strings.TrimSpace(info.Get("software")),
		crawl:     strings.TrimSpace(info.Get("isPartOf")),
	}
}

// AddWarcinfo adds the fields of a warcinfo record (WARC 1.1 §6.2) of the
// WARC file src.File, or of an ARC file's filedesc record. Its
// http-header-user-agent, else its software, names the file's crawler
// when no request record does (the first record of a file that names
// either counts); its isPartOf names the file's crawl (the first record
// that names one counts).
func (b *Builder) AddWarcinfo(src event.Source, info event.Header) {
	w := infoFields(info)
	if w == (warcinfo{}) {
		return
	}
	w.userAgent, w.software, w.crawl = strings.Clone(w.userAgent), strings.Clone(w.software), strings.Clone(w.crawl)
	b.mu.Lock()
	defer b.mu.Unlock()
	file := b.intern(src.File)
	b.infos[file] = b.infos[file].merge(w)
}

// AddIndexEntry adds one entry of an index listing (--index): a URL a
// service shows in its public index.
func (b *Builder) AddIndexEntry(e ListingEntry) {
	e = cloneEntry(e)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.noteTime(e.Time)
	b.index = append(b.index, e)
}

// AddSnippetEntry adds one entry of a snippet listing (--snippets): a URL
// a service shows with an excerpt.
func (b *Builder) AddSnippetEntry(e ListingEntry) {
	e = cloneEntry(e)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.noteTime(e.Time)
	b.snippets = append(b.snippets, e)
}

func cloneEntry(e ListingEntry) ListingEntry {
	e.URL = strings.Clone(e.URL)
	e.Agent = strings.Clone(e.Agent)
	e.Source.File = strings.Clone(e.Source.File)
	e.Time = e.Time.UTC()
	return e
}

func itoa(n int) string {
	var buf [20]byte
	i := len(buf)
	neg := n < 0
	if neg {
		n = -n
	}
	for {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}
