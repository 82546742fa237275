package evaluate

import (
	"slices"
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
// sink, in a deterministic order.
func (m *Model) WriteTables(sink table.Sink) error {
	counts := archiveCounts{retention: map[string]int64{}, findings: map[string]int64{}}
	if err := m.writeVersions(sink); err != nil {
		return err
	}
	if err := m.writeDirectives(sink); err != nil {
		return err
	}
	if err := m.writeArchive(sink, &counts); err != nil {
		return err
	}
	if err := m.writeListings(sink, &counts); err != nil {
		return err
	}
	for i := range m.problems {
		p := &m.problems[i]
		if err := sink.Problem(&table.Problem{
			SourceFile: p.Source.File, SourceLine: p.Source.Line, Offset: p.Source.Offset,
			Code: p.Code, Severity: p.Severity, Message: p.Message,
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

func (m *Model) writeVersions(sink table.Sink) error {
	for _, a := range m.authList {
		for _, v := range a.versions {
			d := v.doc
			row := table.RobotsVersion{
				VersionID: v.id, Authority: a.key, URLHostName: a.host, URL: d.rawURL,
				FetchTime: d.time, ValidFrom: v.from, FetchStatus: int32(d.status),
				Effect: v.effect.String(), StatusRule: v.statusRule, RedirectTarget: v.redirect,
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
			if err := sink.RobotsVersion(&row); err != nil {
				return err
			}
		}
	}
	for _, a := range m.authList {
		for _, v := range a.versions {
			f := v.file()
			if f == nil || v.segment {
				continue
			}
			diags := make(map[int]string)
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
			for _, l := range f.Lines {
				if l.Kind == robots.KindComment || l.Kind == robots.KindBlank {
					continue
				}
				row := table.RobotsRule{VersionID: v.id, Line: int32(l.Number), Kind: l.Kind, Value: l.Value, Note: l.Note}
				if l.Group >= 0 && l.Group < len(f.Groups) {
					row.Group = groupAgents(f.Groups[l.Group])
				}
				if d, ok := diags[l.Number]; ok {
					row.Note = joinNote(row.Note, d)
				}
				row.Note = joinNote(row.Note, from)
				if err := sink.RobotsRule(&row); err != nil {
					return err
				}
			}
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
	for _, c := range m.captures {
		if c.dir == nil {
			continue
		}
		_, hp, _, _ := splitURL(c.rawURL)
		for _, r := range c.dir.d.Rules {
			row := table.Directive{
				URL: c.rawURL, URLHostName: hostName(hp), FetchTime: c.time, Token: r.Token,
				Rule: r.Name, Value: r.Value, Via: r.Via, Evidence: r.Evidence,
				WARCFilename: c.src.File, WARCRecordOffset: c.src.Offset,
			}
			if !r.Time.IsZero() {
				vt := r.Time
				row.ValueTime = &vt
			}
			if err := sink.Directive(&row); err != nil {
				return err
			}
		}
	}
	return nil
}

// retReason is one reason behind a retention action.
type retReason struct {
	action   string
	reason   string
	due      time.Time // zero: none
	pending  bool      // a limit not yet reached as of AsOf: the record is kept until due
	evidence string
}

// captureParts splits a capture's URL.
func captureParts(c *capRec) (scheme, hostport, target string) {
	auth, hp, tg, ok := splitURL(c.rawURL)
	if !ok {
		return "", "", ""
	}
	return auth[:strings.Index(auth, ":")], hp, tg
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
	for _, c := range m.captures {
		scheme, hp, target := captureParts(c)
		a, _ := m.authorityFor(scheme, hp)
		cr := m.crawlerOf(c.src.File) // each capture is its own file's crawler's fetch
		aid := cr.aid
		var j *Judgement
		if cr.token != "" && (c.recordType == "response" || c.recordType == "revisit") {
			f := event.Fetch{
				Time: c.time, Method: "GET", Scheme: scheme, Host: hp, Target: target, Status: int(c.status),
				Bytes: -1, Origin: event.OriginWARC, Format: "warc-capture", RecordID: c.recordID, Source: c.src,
			}
			jj := m.judge(&f, &aid)
			j = &jj
			if !c.paired {
				counts.captureFetches++
				jj.Fetch.Findings = int32(len(jj.Violations))
				if err := sink.Fetch(&jj.Fetch); err != nil {
					return err
				}
				for i := range jj.Violations {
					counts.findings[jj.Violations[i].Kind]++
					if err := sink.Violation(&jj.Violations[i]); err != nil {
						return err
					}
				}
			}
		}
		row, findings := m.retention(c, a, target, cr, j)
		counts.retention[row.Action]++
		if err := sink.Retention(&row); err != nil {
			return err
		}
		for i := range findings {
			counts.findings[findings[i].Kind]++
			if err := sink.Violation(&findings[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// retention decides what an archive may do with capture c as of AsOf
// (docs/semantics.md, "Retention").
func (m *Model) retention(c *capRec, a *authority, target string, cr *crawler, j *Judgement) (table.Retention, []table.Violation) {
	asOf := m.opts.AsOf
	agent := cr.token // the group a take-down request names
	if agent == "" {
		agent = "*"
	}
	row := table.Retention{
		URL: c.rawURL, FetchTime: c.time, Agent: cr.token, RecordType: c.recordType,
		FetchStatus: c.status, WARCFilename: c.src.File, WARCRecordOffset: c.src.Offset,
		WARCRecordLength: c.src.Length, WARCRecordID: c.recordID,
	}
	_, hp, _, _ := splitURL(c.rawURL)
	row.URLHostName = hostName(hp)
	var reasons []retReason
	var findings []table.Violation
	finding := func(kind, directive, evidence string, due time.Time) {
		v := table.Violation{
			Kind: kind, Severity: Severity(kind), FetchTime: c.time, Agent: cr.token,
			URL: c.rawURL, URLHostName: row.URLHostName, URLPath: target, Evidence: evidence,
			Directive: directive, RobotsWARCOffset: -1, SourceFile: c.src.File,
			WARCRecordOffset: c.src.Offset, WARCRecordLength: c.src.Length,
		}
		if b, ok := m.catalog.Lookup(cr.token); ok && cr.token != "" {
			v.Operator, v.Category = b.Operator, b.Category
		}
		if !due.IsZero() {
			d := due
			v.DueDate = &d
		}
		findings = append(findings, v)
	}
	where := c.rawURL + " captured " + fmtTime(c.time) + " (" + c.src.String() + ")"

	if a != nil && !c.isRobots {
		// Take-down requests: the robots.txt in force as of AsOf.
		if vNow := a.versionAt(asOf); vNow.file() != nil {
			if reqs := vNow.file().TakeDownFor(agent, target); len(reqs) > 0 {
				// The request has stood since the first of the consecutive
				// versions up to vNow that carry it.
				since := vNow
				idx := slices.Index(a.versions, vNow)
				for i := idx - 1; i >= 0; i-- {
					pv := a.versions[i]
					if pv.file() == nil || len(pv.file().TakeDownFor(agent, target)) == 0 {
						break
					}
					since = pv
				}
				var sb strings.Builder
				writeVersion(&sb, vNow)
				sb.WriteString(": line ")
				sb.WriteString(itoa(reqs[0].Line))
				sb.WriteString(" ")
				sb.WriteString(quote(reqs[0].Text))
				sb.WriteString(" requests take-down of ")
				sb.WriteString(where)
				if since != vNow {
					sb.WriteString(" (requested since ")
					sb.WriteString(since.id)
					sb.WriteString(")")
				}
				due := since.from
				reasons = append(reasons, retReason{action: ActionDelete, reason: ReasonACAPTakeDown, due: due, evidence: sb.String()})
				finding(KindACAPProhibited, reqs[0].Text, sb.String(), due)
				setRobotsVersion(&findings[len(findings)-1], vNow)
				findings[len(findings)-1].MatchedRule = reqs[0].Text
				findings[len(findings)-1].MatchedLine = int32(reqs[0].Line)
			}
		}
		// ACAP preserve and present: the robots.txt in force at capture.
		if vCap := a.versionAt(c.time); vCap.file() != nil && vCap.file().ACAP != nil {
			for _, usage := range []string{"preserve", "present"} {
				av := vCap.file().ACAPCheck(agent, usage, target)
				if !av.Applies {
					continue
				}
				var sb strings.Builder
				writeVersion(&sb, vCap)
				sb.WriteString(": ACAP line ")
				sb.WriteString(itoa(av.Line))
				sb.WriteString(" ")
				sb.WriteString(quote(av.Record))
				if !av.Allowed {
					sb.WriteString(" prohibits " + usage + " of ")
					sb.WriteString(where)
					action, reason := ActionDelete, ReasonPreserveForbidden
					if usage == "present" {
						action, reason = ActionEmbargo, ReasonPresentForbidden
					}
					reasons = append(reasons, retReason{action: action, reason: reason, due: c.time, evidence: sb.String()})
					var v table.Violation
					finding(KindACAPProhibited, av.Record, sb.String(), c.time)
					v = findings[len(findings)-1]
					setRobotsVersion(&v, vCap)
					v.MatchedRule, v.MatchedLine = av.Record, int32(av.Line)
					findings[len(findings)-1] = v
					continue
				}
				if av.TimeLimit == nil {
					continue
				}
				expiry, ok, how := m.limitExpiry(av.TimeLimit, c)
				sb.WriteString(" permits " + usage + " with time-limit " + av.TimeLimit.Text + ": " + how)
				if !ok {
					continue
				}
				action, reason := ActionDelete, ReasonPreserveLimit
				if usage == "present" {
					action, reason = ActionEmbargo, ReasonPresentLimit
				}
				if expiry.After(asOf) {
					reasons = append(reasons, retReason{action: ActionKeep, reason: reason, due: expiry, pending: true, evidence: sb.String()})
					continue
				}
				sb.WriteString(", expired as of ")
				sb.WriteString(fmtTime(asOf))
				reasons = append(reasons, retReason{action: action, reason: reason, due: expiry, evidence: sb.String()})
				finding(KindRetentionExpired, av.Record, sb.String(), expiry)
				setRobotsVersion(&findings[len(findings)-1], vCap)
				findings[len(findings)-1].MatchedRule = av.Record
				findings[len(findings)-1].MatchedLine = int32(av.Line)
			}
		}
	}
	// The capture's own directives.
	if c.dir != nil {
		eff := c.dir.d.For(dirToken(cr.token))
		if r, ok := eff.UnavailableAfter(); ok {
			ev := r.Evidence + " (" + r.Via + ") on " + where + ": unavailable after " + fmtTime(r.Time)
			if r.Time.After(asOf) {
				reasons = append(reasons, retReason{action: ActionKeep, reason: ReasonUnavailableAfter, due: r.Time, pending: true, evidence: ev})
			} else {
				ev += ", passed as of " + fmtTime(asOf)
				reasons = append(reasons, retReason{action: ActionEmbargo, reason: ReasonUnavailableAfter, due: r.Time, evidence: ev})
				finding(KindRetentionExpired, r.Evidence, ev, r.Time)
			}
		}
		if r, ok := eff.Noarchive(); ok {
			reasons = append(reasons, retReason{action: ActionEmbargo, reason: ReasonNoarchive, due: c.time,
				evidence: r.Evidence + " (" + r.Via + ") on " + where + ": noarchive, do not show a cached copy"})
		}
	}
	// Taken while the crawler's own robots.txt view forbade it.
	if j != nil {
		for i := range j.Violations {
			if j.Violations[i].Kind == KindCapturedWhileDisallowed {
				reasons = append(reasons, retReason{action: ActionReview, reason: ReasonCapturedForbidden, due: c.time,
					evidence: j.Violations[i].Evidence})
				break
			}
		}
	}

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
	return row, findings
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
		list := m.capsByURL[c.url]
		i := sort.Search(len(list), func(i int) bool { return list[i].time.After(c.time) })
		if i < len(list) {
			n := list[i]
			return n.time, true, "recrawled " + fmtTime(n.time) + " (" + n.src.String() + ")"
		}
		return time.Time{}, false, "not recrawled in the inputs"
	case robots.TimeLimitUntilDate:
		e := tl.Until.AddDate(0, 0, 1)
		return e, true, "ends " + fmtTime(e)
	case robots.TimeLimitDays:
		e := c.time.Add(time.Duration(tl.Days) * 24 * time.Hour)
		return e, true, itoa(tl.Days) + " days after the capture: ends " + fmtTime(e)
	}
	return time.Time{}, false, "unknown time-limit"
}

// directivesAt returns the capture of url in force at t: the latest at or
// before t (repext §3.1.4: rules stay in force until the next capture).
func (m *Model) directivesAt(url string, t time.Time) *capRec {
	list := m.capsByURL[url]
	i := sort.Search(len(list), func(i int) bool { return list[i].time.After(t) })
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
// time (or as of AsOf) for its agent, and ACAP index / present-snippet.
func (m *Model) judgeListing(e *ListingEntry, kind string) ([]table.Violation, bool) {
	agent := e.Agent
	if agent == "" {
		agent = m.opts.IndexAgent
	}
	t, timed := e.Time, !e.Time.IsZero()
	if !timed {
		t = m.opts.AsOf
	}
	url := normalizeURL(e.URL)
	scheme, hp, target := "", "", ""
	if auth, h, tg, ok := splitURL(e.URL); ok {
		scheme, hp, target = auth[:strings.Index(auth, ":")], h, tg
	}
	base := table.Violation{
		FetchTime: t, Agent: agent, URL: e.URL, URLHostName: hostName(hp), URLPath: target,
		RobotsWARCOffset: -1, SourceFile: e.Source.File, SourceLine: e.Source.Line, WARCRecordOffset: -1,
	}
	if agent != "" {
		if b, ok := m.catalog.Lookup(agent); ok {
			base.Agent, base.Operator, base.Category = b.Token, b.Operator, b.Category
		}
	}
	when := "at " + fmtTime(t)
	if !timed {
		when = "with no time in the listing, judged as of " + fmtTime(t)
	}
	listed := "listing " + e.Source.String() + " shows " + e.URL + " " + when
	var out []table.Violation
	c := m.directivesAt(url, t)
	if c != nil && c.dir != nil {
		eff := c.dir.d.For(dirToken(agent))
		var r extract.Rule
		var ok bool
		what := "indexing it"
		if kind == KindNoindexIndexed {
			r, ok = eff.Noindex()
		} else {
			r, ok = eff.Nosnippet()
			what = "showing a snippet of it"
		}
		if ok {
			v := base
			v.Kind, v.Severity, v.Directive = kind, Severity(kind), r.Evidence
			scope := "all agents"
			if r.Token != "*" {
				scope = r.Token
			}
			v.Evidence = listed + "; the capture in force then, " + c.rawURL + capturedAt(c.time, c.src, int(c.status)) + "), carries " + r.Evidence +
				" (" + r.Via + "): " + r.Name + " for " + scope + ", which forbids " + what
			out = append(out, v)
		}
	}
	// ACAP: index for index listings, present-snippet for snippet listings.
	if a, _ := m.authorityFor(scheme, hp); a != nil && target != "" {
		if ver := a.versionAt(t); ver.file() != nil && ver.file().ACAP != nil {
			usage := "index"
			if kind == KindNosnippetSnippeted {
				usage = "present-snippet"
			}
			av := ver.file().ACAPCheck(dirToken(agent), usage, target)
			if av.Applies && !av.Allowed {
				v := base
				v.Kind, v.Severity = KindACAPProhibited, Severity(KindACAPProhibited)
				m.acapEvidence(&v, ver, av, target, usage)
				v.Evidence = listed + "; " + v.Evidence
				out = append(out, v)
			}
		}
	}
	return out, c != nil
}
