package evaluate

import (
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/extract"
	"github.com/repaudit/repaudit/robots"
	"github.com/repaudit/repaudit/table"
)

// Retention actions (retention.action), least to most severe.
const (
	ActionKeep    = "keep"
	ActionReview  = "review"
	ActionEmbargo = "embargo"
	ActionDelete  = "delete"
)

// Retention reasons (retention.reason).
const (
	ReasonNoRestriction     = "no-restriction"
	ReasonACAPTakeDown      = "acap-take-down"
	ReasonPreserveForbidden = "acap-preserve-prohibited"
	ReasonPresentForbidden  = "acap-present-prohibited"
	ReasonPreserveLimit     = "acap-time-limit"
	ReasonPresentLimit      = "acap-present-time-limit"
	ReasonUnavailableAfter  = "unavailable_after"
	ReasonNoarchive         = "noarchive"
	ReasonCapturedForbidden = "captured-while-disallowed"

	// ACAP usages an archive must weigh (retention_acap.go).
	ReasonOldcopyForbidden     = "acap-present-oldcopy-prohibited"     // embargo
	ReasonCurrentcopyForbidden = "acap-present-currentcopy-prohibited" // embargo
	ReasonNoModification       = "acap-prohibited-modification"        // review
	ReasonMustInclude          = "acap-must-include-resource"          // review
	ReasonACAPCrawlForbidden   = "acap-crawl-prohibited"               // review
	ReasonTakeDownWithdrawn    = "acap-take-down-withdrawn"            // keep
	ReasonArchiveEmbargo       = "archive-embargo"                     // embargo, or keep until it ends
)

func actionRank(a string) int {
	switch a {
	case ActionReview:
		return 1
	case ActionEmbargo:
		return 2
	case ActionDelete:
		return 3
	}
	return 0
}

// archiveCounts are the counts WriteTables produces, for Summary.
type archiveCounts struct {
	done             bool
	retention        map[string]int64 // action -> records
	findings         map[string]int64 // kind -> findings
	captureFetches   int64            // captures judged as archive fetches
	listingNoCapture int64            // listing entries whose URL has no capture in force
	listingEntries   int64
}

// WriteTables writes robots_versions, robots_rules, directives, retention,
// the findings about listings and archived records, the fetches judged
// from captures without a paired request record, and pass 1 problems to
// sink, in a deterministic order. It finishes (table.Finish) each of
// robots_versions, robots_rules, directives and retention once written:
// a sink shared by several models must not be a table.Finisher. The
// first three are left out when WriteBuiltTables wrote them.
func (m *Model) WriteTables(sink table.Sink) error {
	counts := archiveCounts{retention: map[string]int64{}, findings: map[string]int64{}}
	if !m.builtWritten {
		if err := m.writeBuilt(sink); err != nil {
			return err
		}
	}
	if err := m.writeArchive(sink, &counts); err != nil {
		return err
	}
	if err := table.Finish(sink, "retention"); err != nil {
		return err
	}
	if err := m.writeListings(sink, &counts); err != nil {
		return err
	}
	if sp := m.capSpill; sp != nil && sp.err != nil {
		return sp.err // reading the spilled captures back for capsOf failed
	}
	if err := m.docSpill.failed(); err != nil {
		return err // a version's capture, cited by a finding, did not read back
	}
	for i := range m.problems {
		p := &m.problems[i]
		if err := sink.Problem(&table.Problem{
			SourceFile: p.Source.File, SourceLine: p.Source.Line, Offset: p.Source.Offset,
			Code: string(p.Code), Severity: p.Severity, Message: p.Message,
		}); err != nil {
			return err
		}
	}
	counts.done = true
	m.countsMu.Lock()
	m.counts = counts
	m.countsMu.Unlock()
	return nil
}

// WriteBuiltTables writes the tables Build settles whole, which pass 2
// changes nothing of: robots_versions and robots_rules (the versions; the
// authorities pass 2's view tracker makes have none and are in no list
// of the model's) and directives (the capture summaries). Each is
// finished (table.Finish) once written, so a caller that writes them
// between Build and pass 2 frees their buffers before pass 2's tables
// fill; WriteTables then leaves them out. The rows, and so the files,
// are those WriteTables would write. With a spill directory it then
// spills what only those tables read of the robots.txt captures
// (docspill.go). Call it at most once, after Build and before any
// judging, from one goroutine.
func (m *Model) WriteBuiltTables(sink table.Sink) error {
	m.builtWritten = true
	if err := m.writeBuilt(sink); err != nil {
		return err
	}
	m.spillDocs() // what the tables read and judging does not
	return nil
}

// writeBuilt writes robots_versions, robots_rules and directives.
func (m *Model) writeBuilt(sink table.Sink) error {
	if err := m.writeVersions(sink); err != nil {
		return err
	}
	if err := m.writeDirectives(sink); err != nil {
		return err
	}
	// Each table is whole once written: a sink that can finish it frees
	// its buffers before the next one fills (table.Finisher).
	return table.Finish(sink, "directives")
}

// writeVersions writes robots_versions.parquet, then
// robots_rules.parquet: every version's row, then every version's lines.
func (m *Model) writeVersions(sink table.Sink) error {
	// One row of each table serves every row in turn (the sink copies
	// rows): a row handed to the sink by pointer is otherwise an
	// allocation each.
	var row table.RobotsVersion
	for _, a := range m.authList {
		for _, v := range a.versions {
			row = versionRow(a, v)
			if err := sink.RobotsVersion(&row); err != nil {
				return err
			}
		}
	}
	if err := table.Finish(sink, "robots_versions"); err != nil {
		return err
	}
	var rule table.RobotsRule
	for _, a := range m.authList {
		for _, v := range a.versions {
			if err := writeRules(sink, v, &rule); err != nil {
				return err
			}
		}
	}
	return table.Finish(sink, "robots_rules")
}

// versionRow is the robots_versions row of version v of a.
func versionRow(a *authority, v *version) table.RobotsVersion {
	d := v.doc
	row := table.RobotsVersion{
		VersionID: v.id, Authority: a.key, URLHostName: a.host, URL: d.rawURL,
		FetchTime: d.time, ValidFrom: v.from, FetchStatus: int32(d.status),
		Effect: v.effect.String(), StatusRule: v.statusRule, RedirectTarget: v.redirect, RedirectChain: v.chain,
		ContentDigest: d.digest, Size: d.size,
		WARCFilename: d.src.File, WARCRecordOffset: d.src.Offset, WARCRecordLength: d.src.Length,
		WARCRecordID: d.recordID, Source: d.originName(), SourceRef: d.originRef,
		AssumedWholeRange: d.assumed,
		Captures:          int32(1 + len(v.captures)), LastCaptureTime: v.lastCapture(),
	}
	if !d.inWARC() {
		row.WARCFilename, row.WARCRecordOffset, row.WARCRecordLength = "", -1, 0
	}
	if !v.until.IsZero() {
		u := v.until
		row.ValidUntil = &u
	}
	if st, ok := v.fileStats(); ok {
		row.Truncated = v.content.truncated
		row.Groups, row.Rules, row.Diagnostics, row.HasACAP = st.groups, st.rules, st.diagnostics, st.hasACAP
	}
	return row
}

// writeRules writes the robots_rules rows of version v: each line that is
// not a comment or blank, with the parser's diagnostics of that line in
// its note. row is the caller's, filled for each row in turn.
func writeRules(sink table.Sink, v *version, row *table.RobotsRule) error {
	f := v.file()
	if f == nil || v.segment {
		return nil
	}
	var diags map[int]string
	if len(f.Diagnostics) > 0 {
		diags = make(map[int]string, len(f.Diagnostics))
	}
	for _, dg := range f.Diagnostics {
		n := dg.Code + ": " + dg.Message
		if prev, ok := diags[dg.Line]; ok {
			n = prev + "; " + n
		}
		diags[dg.Line] = n
	}
	from := ""
	if v.content != v.doc {
		from = "from " + v.content.rawURL + " captured " + fmtTime(v.content.time)
	}
	agents := make([]string, len(f.Groups)) // groupAgents of each group, made when first needed
	for _, l := range f.Lines {
		if l.Kind == robots.KindComment || l.Kind == robots.KindBlank {
			continue
		}
		*row = table.RobotsRule{VersionID: v.id, Line: int32(l.Number), Kind: l.Kind, Value: l.Value, Note: l.Note}
		if l.Group >= 0 && l.Group < len(f.Groups) {
			if agents[l.Group] == "" {
				agents[l.Group] = groupAgents(f.Groups[l.Group])
			}
			row.Group = agents[l.Group]
		}
		if d, ok := diags[l.Number]; ok {
			row.Note = joinNote(row.Note, d)
		}
		row.Note = joinNote(row.Note, from)
		if err := sink.RobotsRule(row); err != nil {
			return err
		}
	}
	return nil
}

func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

func groupAgents(g robots.Group) string {
	var sb strings.Builder
	for i, a := range g.Agents {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(a.Token)
	}
	return sb.String()
}

func (m *Model) writeDirectives(sink table.Sink) error {
	var row table.Directive // filled for each row in turn: the sink copies it
	return m.eachCapture(func(c *capRec) error {
		if c.dir == nil {
			return nil
		}
		_, hp, _ := c.parts()
		for _, r := range c.dir.d.Rules {
			row = table.Directive{
				URL: c.rawURL(), URLHostName: hostName(hp), FetchTime: c.time(), Token: r.Token,
				Rule: r.Name, Value: r.Value, Via: r.Via, Evidence: r.Evidence,
				WARCFilename: c.src().File, WARCRecordOffset: c.src().Offset,
			}
			if !r.Time.IsZero() {
				vt := r.Time
				row.ValueTime = &vt
			}
			if err := sink.Directive(&row); err != nil {
				return err
			}
		}
		return nil
	})
}

// retReason is one reason behind a retention action.
type retReason struct {
	action   string
	reason   string
	due      time.Time // zero: none
	pending  bool      // a limit not yet reached as of AsOf: the record is kept until due
	evidence string
}

// identOf is the identity of an archive crawler named by its product
// token: its catalog entry when there is one, else an archiver.
func (m *Model) identOf(token string) ident {
	var id ident
	lower := strings.ToLower(token)
	if b, ok := m.catalog.Lookup(token); ok {
		id.fromBot(b, byCatalog)
	} else {
		id.token, id.lower, id.category, id.by = token, lower, "archiver", byUAToken
	}
	id.token, id.lower = token, lower
	return id
}

// writeArchive writes one retention row per archived record, the archive
// findings, and the fetches judged from captures without a paired request.
func (m *Model) writeArchive(sink table.Sink, counts *archiveCounts) error {
	if n := runtime.GOMAXPROCS(0); n > 1 { // -j sets it
		return m.writeArchiveParallel(sink, counts, n)
	}
	// One fetch, identity and judgement serve every capture in turn (the
	// sink copies rows).
	var (
		f   event.Fetch
		aid ident
		r   archiveRows
	)
	return m.eachCapture(func(c *capRec) error {
		m.judgeArchive(c, &r, &f, &aid)
		return writeArchiveRows(sink, &r, counts)
	})
}

// retention decides what an archive may do with capture c as of AsOf
// (docs/semantics.md, "Retention"), in steps that each add reasons (and
// findings): take-down requests in the robots.txt versions up to now,
// ACAP usages in the one in force at capture, the capture's own
// directives and Archive-Embargo, and a capture taken while the
// crawler's robots.txt view or ACAP crawl permission forbade it. The
// strongest action wins.
func (m *Model) retention(c *capRec, a *authority, target string, cr *crawler, j *Judgement) (table.Retention, []table.Violation) {
	var rj retentionJudge
	m.initRetentionJudge(&rj, c, target, cr)
	if a != nil && !c.isRobots() {
		rj.takeDown(a)
		rj.acap(a)
	}
	rj.ownDirectives()
	rj.archiveEmbargo()
	rj.capturedWhileDisallowed(j)
	rj.decide()
	return rj.row, rj.findings
}

// retentionJudge gathers the reasons and findings of one capture's
// retention row.
type retentionJudge struct {
	m        *Model
	c        *capRec
	cr       *crawler
	target   string // the capture's request-target
	agent    string // the group a take-down request names
	whereS   string // the capture, for evidence; built by where when first needed
	row      table.Retention
	reasons  []retReason
	findings []table.Violation
}

func (m *Model) initRetentionJudge(rj *retentionJudge, c *capRec, target string, cr *crawler) {
	*rj = retentionJudge{m: m, c: c, cr: cr, target: target, agent: cr.token}
	if rj.agent == "" {
		rj.agent = "*"
	}
	url, src := c.rawURL(), c.src()
	rj.row = table.Retention{
		URL: url, FetchTime: c.time(), Agent: cr.token, RecordType: c.recordType(),
		FetchStatus: c.status, WARCFilename: src.File, WARCRecordOffset: src.Offset,
		WARCRecordLength: src.Length, WARCRecordID: c.recordID(), URLSurtKey: surtKey(url),
	}
	_, hp, _ := c.parts()
	rj.row.URLHostName = hostName(hp)
}

// where names the capture in evidence.
func (rj *retentionJudge) where() string {
	if rj.whereS == "" {
		c := rj.c
		rj.whereS = c.rawURL() + " captured " + fmtTime(c.time()) + " (" + c.src().String() + ")"
	}
	return rj.whereS
}

func (rj *retentionJudge) reason(r retReason) { rj.reasons = append(rj.reasons, r) }

// finding adds a finding about the capture; ver, when not nil, is the
// robots.txt version whose line (rule, line) it rests on.
func (rj *retentionJudge) finding(kind, directive, evidence string, due time.Time, ver *version, rule string, line int) {
	// The capture's time, URL and record are already in its retention
	// row (initRetentionJudge): taken from there, not made again.
	c, cr, row := rj.c, rj.cr, &rj.row
	v := table.Violation{
		Kind: kind, Severity: Severity(kind), FetchTime: row.FetchTime, Agent: cr.token,
		URL: row.URL, URLHostName: row.URLHostName, URLPath: rj.target, Evidence: evidence,
		Directive: directive, RobotsWARCOffset: -1, SourceFile: row.WARCFilename,
		WARCRecordOffset: row.WARCRecordOffset, WARCRecordLength: row.WARCRecordLength,
		WARCFilename: warcFilename(row.WARCFilename), ContentDigest: ccDigest(c.digest()), ContentMIMEType: c.mime(),
		URLSurtKey: row.URLSurtKey,
	}
	if cr.token != "" {
		// The crawler's identity as its captures' fetches have it: its
		// catalog entry, else an archiver (docs/semantics.md, "One
		// category per agent").
		v.Operator, v.Category = cr.aid.operator, cr.aid.category
	}
	if !due.IsZero() {
		d := due
		v.DueDate = &d
	}
	if ver != nil {
		setRobotsVersion(&v, ver)
		v.MatchedRule, v.MatchedLine = rule, int32(line)
	}
	rj.findings = append(rj.findings, v)
}

// acap applies ACAP preserve and present of the robots.txt in force at
// capture: prohibitions and time-limits (the present usage asked is the
// copy's own, present-currentcopy or present-oldcopy, when the file
// speaks of them), and the qualifiers of the present permission that a
// replay cannot honour unseen.
func (rj *retentionJudge) acap(a *authority) {
	vCap := a.versionAt(rj.c.time())
	f := vCap.file()
	if f == nil || f.ACAP == nil {
		return
	}
	rj.acapUsage(vCap, f, "preserve")
	av := rj.acapUsage(vCap, f, rj.presentUsage(f.ACAP))
	rj.presentConditions(vCap, av)
}

// acapUsage applies one ACAP usage: a prohibition, or a time-limit that
// has expired or is pending. It returns the verdict.
func (rj *retentionJudge) acapUsage(vCap *version, f *robots.File, usage string) robots.ACAPVerdict {
	c, asOf := rj.c, rj.m.opts.AsOf
	av := f.ACAPCheck(rj.agent, usage, rj.target)
	if !av.Applies {
		return av
	}
	// A present-* usage decided by a plain present field reads as present.
	shown := usage
	if strings.HasPrefix(usage, "present-") && av.FieldUsage == "present" {
		shown = "present"
	}
	var sb evBuf
	writeVersionLine(&sb, vCap, "ACAP line", av.Line, av.Record)
	if !av.Allowed {
		sb.WriteString(" prohibits " + shown + " of ")
		sb.WriteString(rj.where())
		action, reason := ActionDelete, ReasonPreserveForbidden
		if usage != "preserve" {
			action, reason = ActionEmbargo, presentForbidden(shown)
		}
		rj.reason(retReason{action: action, reason: reason, due: c.time(), evidence: sb.String()})
		rj.finding(KindACAPProhibited, av.Record, sb.String(), c.time(), vCap, av.Record, av.Line)
		return av
	}
	if av.TimeLimit == nil {
		return av
	}
	expiry, ok, how := rj.m.limitExpiry(av.TimeLimit, c)
	sb.WriteString(" permits " + shown + " with time-limit " + av.TimeLimit.Text + ": " + how)
	if !ok {
		return av
	}
	action, reason := ActionDelete, ReasonPreserveLimit
	if usage != "preserve" {
		action, reason = ActionEmbargo, ReasonPresentLimit
	}
	if expiry.After(asOf) {
		rj.reason(retReason{action: ActionKeep, reason: reason, due: expiry, pending: true, evidence: sb.String()})
		return av
	}
	sb.WriteString(", expired as of ")
	sb.WriteString(fmtTime(asOf))
	rj.reason(retReason{action: action, reason: reason, due: expiry, evidence: sb.String()})
	rj.finding(KindRetentionExpired, av.Record, sb.String(), expiry, vCap, av.Record, av.Line)
	return av
}

// ownDirectives applies the capture's own unavailable_after and
// noarchive.
func (rj *retentionJudge) ownDirectives() {
	c, asOf := rj.c, rj.m.opts.AsOf
	if c.dir == nil {
		return
	}
	eff := c.dir.d.For(dirToken(rj.cr.token))
	if r, ok := eff.UnavailableAfter(); ok {
		ev := r.Evidence + " (" + r.Via + ") on " + rj.where() + ": unavailable after " + fmtTime(r.Time)
		if r.Time.After(asOf) {
			rj.reason(retReason{action: ActionKeep, reason: ReasonUnavailableAfter, due: r.Time, pending: true, evidence: ev})
		} else {
			ev += ", passed as of " + fmtTime(asOf)
			rj.reason(retReason{action: ActionEmbargo, reason: ReasonUnavailableAfter, due: r.Time, evidence: ev})
			rj.finding(KindRetentionExpired, r.Evidence, ev, r.Time, nil, "", 0)
		}
	}
	if r, ok := eff.Noarchive(); ok {
		rj.reason(retReason{action: ActionEmbargo, reason: ReasonNoarchive, due: c.time(),
			evidence: r.Evidence + " (" + r.Via + ") on " + rj.where() + ": noarchive, do not show a cached copy"})
	}
}

// capturedWhileDisallowed asks for review of a capture taken while the
// crawler's own robots.txt view forbade it, or an ACAP field prohibited
// crawling it.
func (rj *retentionJudge) capturedWhileDisallowed(j *Judgement) {
	if j == nil {
		return
	}
	rj.reviewFinding(j, KindCapturedWhileDisallowed, ReasonCapturedForbidden)
	rj.acapCrawl(j)
}

// reviewFinding asks for review of the capture, for reason, when its
// fetch judgement has a finding of kind: that finding's evidence is the
// reason's.
func (rj *retentionJudge) reviewFinding(j *Judgement, kind, reason string) {
	for i := range j.Violations {
		if j.Violations[i].Kind == kind {
			rj.reason(retReason{action: ActionReview, reason: reason, due: rj.c.time(),
				evidence: j.Violations[i].Evidence})
			return
		}
	}
}

// decide fills the row from the reasons: the strongest action, its
// earliest due date, every reason and its evidence, strongest first.
func (rj *retentionJudge) decide() {
	reasons := rj.reasons
	best := ActionKeep
	for _, r := range reasons {
		if actionRank(r.action) > actionRank(best) {
			best = r.action
		}
	}
	sort.SliceStable(reasons, func(x, y int) bool { return actionRank(reasons[x].action) > actionRank(reasons[y].action) })
	var rs, evs []string
	var due time.Time
	for _, r := range reasons {
		rs = append(rs, r.reason)
		evs = append(evs, r.evidence)
		if r.action == best && !r.due.IsZero() && (due.IsZero() || r.due.Before(due)) {
			due = r.due
		}
	}
	row := &rj.row
	row.Action = best
	if len(rs) == 0 {
		row.Reason = ReasonNoRestriction
	} else {
		row.Reason = strings.Join(dedup(rs), ",")
		row.Evidence = strings.Join(evs, "; ")
	}
	if !due.IsZero() {
		row.DueDate = &due
	}
}

func dedup(s []string) []string {
	out := s[:0:0]
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// dirToken is the token directives are read for: the agent, or the global
// rules only when there is none.
func dirToken(agent string) string {
	if agent == "" {
		return "*"
	}
	return agent
}

// limitExpiry computes when an ACAP time-limit ends for capture c
// (ACAP 1.0 §2.5.4.1): until-recrawled at the next capture of the same URL
// in the inputs, until-DATE at the end of that day (the date is
// included), N-days N×24h after the capture.
func (m *Model) limitExpiry(tl *robots.TimeLimit, c *capRec) (time.Time, bool, string) {
	switch tl.Kind {
	case robots.TimeLimitUntilRecrawled:
		list := m.capsOf(c.url())
		i := sort.Search(len(list), func(i int) bool { return list[i].time().After(c.time()) })
		if i < len(list) {
			n := list[i]
			return n.time(), true, "recrawled " + fmtTime(n.time()) + " (" + n.src().String() + ")"
		}
		return time.Time{}, false, "not recrawled in the inputs"
	case robots.TimeLimitUntilDate:
		e := tl.Until.AddDate(0, 0, 1)
		return e, true, "ends " + fmtTime(e)
	case robots.TimeLimitDays:
		e := c.time().Add(time.Duration(tl.Days) * 24 * time.Hour)
		return e, true, itoa(tl.Days) + " days after the capture: ends " + fmtTime(e)
	}
	return time.Time{}, false, "unknown time-limit"
}

// directivesAt returns the capture of url in force at t: the latest at or
// before t (repext §3.1.4: rules stay in force until the next capture).
func (m *Model) directivesAt(url string, t time.Time) *capRec {
	list := m.capsOf(url)
	i := sort.Search(len(list), func(i int) bool { return list[i].time().After(t) })
	if i == 0 {
		return nil
	}
	return list[i-1]
}

// writeListings judges index and snippet listing entries.
func (m *Model) writeListings(sink table.Sink, counts *archiveCounts) error {
	for _, kind := range []string{KindNoindexIndexed, KindNosnippetSnippeted} {
		entries := m.index
		if kind == KindNosnippetSnippeted {
			entries = m.snippets
		}
		for i := range entries {
			counts.listingEntries++
			vs, matched := m.judgeListing(&entries[i], kind)
			if !matched {
				counts.listingNoCapture++
			}
			for k := range vs {
				counts.findings[vs[k].Kind]++
				if err := sink.Violation(&vs[k]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// judgeListing judges one listing entry: the directives in force at its
// time (or as of AsOf) for its agent, and ACAP index / present-snippet. It
// reports whether a capture of the URL was in force.
func (m *Model) judgeListing(e *ListingEntry, kind string) ([]table.Violation, bool) {
	l := m.newListed(e)
	var out []table.Violation
	c := m.directivesAt(normalizeURL(e.URL), l.t)
	if v, ok := l.directive(c, kind); ok {
		out = append(out, v)
	}
	if v, ok := m.listedACAP(l, kind); ok {
		out = append(out, v)
	}
	return out, c != nil
}

// listed is a listing entry being judged.
type listed struct {
	agent          string
	t              time.Time // the entry's time, or AsOf
	scheme, hp     string
	target         string
	base           table.Violation // a finding's fields that come from the entry
	evidencePrefix string          // "listing FILE:LINE shows URL at TIME"
}

func (m *Model) newListed(e *ListingEntry) *listed {
	l := &listed{agent: e.Agent, t: e.Time}
	if l.agent == "" {
		l.agent = m.opts.IndexAgent
	}
	timed := !e.Time.IsZero()
	if !timed {
		l.t = m.opts.AsOf
	}
	if auth, h, tg, ok := splitURL(e.URL); ok {
		l.scheme, l.hp, l.target = auth[:strings.Index(auth, ":")], h, tg
	}
	l.base = table.Violation{
		FetchTime: l.t, Agent: l.agent, URL: e.URL, URLHostName: hostName(l.hp), URLPath: l.target, URLSurtKey: surtKey(e.URL),
		RobotsWARCOffset: -1, SourceFile: e.Source.File, SourceLine: e.Source.Line, WARCRecordOffset: -1,
	}
	if l.agent != "" {
		if b, ok := m.catalog.Lookup(l.agent); ok {
			l.base.Agent, l.base.Operator, l.base.Category = b.Token, b.Operator, b.Category
		}
	}
	when := "at " + fmtTime(l.t)
	if !timed {
		when = "with no time in the listing, judged as of " + fmtTime(l.t)
	}
	l.evidencePrefix = "listing " + e.Source.String() + " shows " + e.URL + " " + when
	return l
}

// directive judges the entry by the directives of capture c, the one in
// force at its time: noindex for index listings, nosnippet for snippet
// listings.
func (l *listed) directive(c *capRec, kind string) (table.Violation, bool) {
	if c == nil || c.dir == nil {
		return table.Violation{}, false
	}
	eff := c.dir.d.For(dirToken(l.agent))
	var r extract.Rule
	var ok bool
	what := "indexing it"
	if kind == KindNoindexIndexed {
		r, ok = eff.Noindex()
	} else {
		r, ok = eff.Nosnippet()
		what = "showing a snippet of it"
	}
	if !ok {
		return table.Violation{}, false
	}
	v := l.base
	v.Kind, v.Severity, v.Directive = kind, Severity(kind), r.Evidence
	scope := "all agents"
	if r.Token != "*" {
		scope = r.Token
	}
	v.Evidence = l.evidencePrefix + "; the capture in force then, " + c.rawURL() + capturedAt(c.time(), c.src(), int(c.status)) + "), carries " + r.Evidence +
		" (" + r.Via + "): " + r.Name + " for " + scope + ", which forbids " + what
	return v, true
}

// listedACAP judges the entry by ACAP in the robots.txt in force at its
// time: index for index listings, present-snippet for snippet listings.
func (m *Model) listedACAP(l *listed, kind string) (table.Violation, bool) {
	a, _ := m.authorityFor(l.scheme, l.hp)
	if a == nil || l.target == "" {
		return table.Violation{}, false
	}
	ver := a.versionAt(l.t)
	if ver.file() == nil || ver.file().ACAP == nil {
		return table.Violation{}, false
	}
	usage := "index"
	if kind == KindNosnippetSnippeted {
		usage = "present-snippet"
	}
	av := ver.file().ACAPCheck(dirToken(l.agent), usage, l.target)
	if !av.Applies || av.Allowed {
		return table.Violation{}, false
	}
	v := l.base
	v.Kind, v.Severity = KindACAPProhibited, Severity(KindACAPProhibited)
	m.acapEvidence(&v, ver, av, l.target, usage)
	v.Evidence = l.evidencePrefix + "; " + v.Evidence
	return v, true
}
