package evaluate

import (
	"slices"
	"strings"

	"github.com/repaudit/repaudit/robots"
)

// ACAP usages that matter to an archive, beyond preserve and present
// (docs/semantics.md, "Retention"): which copy a capture is, the
// qualifiers of a present permission, crawl prohibitions and the history
// of take-down requests. Section numbers are ACAP 1.0 Part 1's.

// presentUsage is the present usage asked for the capture: the copy's
// own (§2.5.5.1.2 present-currentcopy for the most recently crawled
// capture of its URL, §2.5.5.1.3 present-oldcopy for every other) when
// the file has a field for either, else present. A query for a derived
// usage also weighs present fields, so the two agree when the file
// speaks of present alone; asking present then keeps the evidence as it
// was and spares looking up the URL's other captures.
func (rj *retentionJudge) presentUsage(a *robots.ACAP) string {
	if !copyFields(a) {
		return "present"
	}
	if rj.isCurrentCopy() {
		return "present-currentcopy"
	}
	return "present-oldcopy"
}

// copyFields reports whether a names present-currentcopy or
// present-oldcopy in a field or a local usage definition.
func copyFields(a *robots.ACAP) bool {
	isCopy := func(u string) bool { return u == "present-currentcopy" || u == "present-oldcopy" }
	for i := range a.Records {
		if isCopy(a.Records[i].Usage) {
			return true
		}
	}
	for i := range a.QualifiedUsages {
		if isCopy(a.QualifiedUsages[i].Usage) {
			return true
		}
	}
	for i := range a.CompositeUsages {
		if slices.ContainsFunc(a.CompositeUsages[i].Usages, isCopy) {
			return true
		}
	}
	return false
}

// isCurrentCopy reports whether the capture is the most recently crawled
// version of its URL among the inputs: the last of the URL's captures in
// time order (ties by file name and offset), or the capture that last
// one, a revisit, names in WARC-Refers-To (its payload is the current
// copy's).
func (rj *retentionJudge) isCurrentCopy() bool {
	c := rj.c
	list := rj.m.capsOf(c.url())
	if len(list) == 0 {
		return true
	}
	last := list[len(list)-1]
	if sameCapture(last, c) {
		return true
	}
	return last.rev() != nil && c.recordID() != "" && last.rev().refersTo == c.recordID()
}

// sameCapture reports whether two summaries are one capture (a spilled
// capture is read back as a new summary).
func sameCapture(x, y *capRec) bool {
	return x.time().Equal(y.time()) && x.src() == y.src() && x.recordID() == y.recordID()
}

// presentForbidden is the reason of a present prohibition.
func presentForbidden(usage string) string {
	switch usage {
	case "present-oldcopy":
		return ReasonOldcopyForbidden
	case "present-currentcopy":
		return ReasonCurrentcopyForbidden
	}
	return ReasonPresentForbidden
}

// presentConditions asks for review when the present permission that
// applies is qualified by prohibited-modification (§2.5.5.2.4: a replay
// that rewrites links or adds a banner modifies the page) or
// must-include-resource (§2.5.5.2.5: what must be shown with it is not
// in the capture's record). Neither forbids keeping or showing; a person
// must decide whether the archive's replay honours them.
func (rj *retentionJudge) presentConditions(vCap *version, av robots.ACAPVerdict) {
	if !av.Applies || !av.Allowed || len(av.Qualifiers) == 0 {
		return
	}
	var mods, incl []string
	for _, q := range av.Qualifiers {
		switch q.Name {
		case "prohibited-modification":
			mods = append(mods, q.Value)
		case "must-include-resource":
			incl = append(incl, q.Value)
		}
	}
	add := func(reason, says string) {
		var sb evBuf
		writeVersionLine(&sb, vCap, "ACAP line", av.Line, av.Record)
		usage := av.Usage
		if av.FieldUsage == "present" {
			usage = "present"
		}
		sb.WriteString(" permits " + usage + " of ")
		sb.WriteString(rj.where())
		sb.WriteString(" " + says)
		rj.reason(retReason{action: ActionReview, reason: reason, due: rj.c.time(), evidence: sb.String()})
	}
	if len(mods) > 0 {
		add(ReasonNoModification, "only without modification ("+strings.Join(mods, ", ")+
			"): a replay that rewrites the page modifies it")
	}
	if len(incl) > 0 {
		add(ReasonMustInclude, "only with "+strings.Join(incl, ", ")+" included: check that the replay shows it")
	}
}

// acapCrawl asks for review of a capture its crawler was prohibited by
// ACAP from crawling (ACAP-disallow-crawl, a local or composite usage
// that includes crawl, or ACAP-disallow-other: the acap_prohibited
// finding of the capture's fetch judgement), as a robots.txt disallow
// does.
func (rj *retentionJudge) acapCrawl(j *Judgement) {
	if j.Fetch.ACAPCrawl != "prohibited" {
		return
	}
	rj.reviewFinding(j, KindACAPProhibited, ReasonACAPCrawlForbidden)
}

// takeDownSpan is a run of consecutive robots.txt versions that carry a
// take-down request covering the capture (§2.6.1).
type takeDownSpan struct {
	from, last *version // first and last version carrying it
	end        *version // the next version, which no longer carries it; nil while it stands as of AsOf
	req        robots.ACAPRequest
}

// takeDownSpans returns the spans of versions in force up to AsOf that
// carry a take-down request for the capture, in time order. A version
// without rules (an outage, a 404) ends a span, as a version without the
// request does.
func (rj *retentionJudge) takeDownSpans(a *authority) []takeDownSpan {
	var spans []takeDownSpan
	var cur *takeDownSpan
	asOf := rj.m.opts.AsOf
	for _, v := range a.versions {
		if v.from.After(asOf) {
			break
		}
		var reqs []robots.ACAPRequest
		if st, ok := v.fileStats(); ok && st.hasACAP {
			reqs = v.file().TakeDownFor(rj.agent, rj.target)
		}
		switch {
		case len(reqs) > 0 && cur == nil:
			spans = append(spans, takeDownSpan{from: v, last: v, req: reqs[0]})
			cur = &spans[len(spans)-1]
		case len(reqs) > 0:
			cur.last = v
		case cur != nil:
			cur.end, cur = v, nil
		}
	}
	return spans
}

// takeDown applies the take-down requests of the robots.txt in force as of
// AsOf: one standing then makes the record a deletion, due since the
// first of the consecutive versions that carry it. Requests that were
// made and withdrawn after the capture are recorded too, as reason
// acap-take-down-withdrawn (keep) with their history, so that a
// withdrawn request leaves a trace.
func (rj *retentionJudge) takeDown(a *authority) {
	var standing *takeDownSpan
	var past []takeDownSpan
	for _, s := range rj.takeDownSpans(a) {
		switch {
		case s.end == nil:
			standing = &s
		case s.end.from.After(rj.c.time()):
			past = append(past, s)
		}
	}
	if standing != nil {
		vNow, req := standing.last, standing.req
		var sb evBuf
		writeVersionLine(&sb, vNow, "line", req.Line, req.Text)
		sb.WriteString(" requests take-down of ")
		sb.WriteString(rj.where())
		if standing.from != vNow {
			sb.WriteString(" (requested since ")
			sb.WriteString(standing.from.id)
			sb.WriteString(")")
		}
		if len(past) > 0 {
			sb.WriteString("; earlier ")
			writeTakeDownHistory(&sb, past)
		}
		due := standing.from.from
		rj.reason(retReason{action: ActionDelete, reason: ReasonACAPTakeDown, due: due, evidence: sb.String()})
		rj.finding(KindACAPProhibited, req.Text, sb.String(), due, vNow, req.Text, req.Line)
		return
	}
	if len(past) > 0 {
		var sb evBuf
		writeTakeDownHistory(&sb, past)
		sb.WriteString(": no take-down request stands for ")
		sb.WriteString(rj.where())
		sb.WriteString(" as of ")
		sb.WriteString(fmtTime(rj.m.opts.AsOf))
		rj.reason(retReason{action: ActionKeep, reason: ReasonTakeDownWithdrawn, evidence: sb.String()})
	}
}

// writeTakeDownHistory writes each withdrawn request: the line, the
// version that first carried it and the one that no longer did.
func writeTakeDownHistory(sb *evBuf, spans []takeDownSpan) {
	for i, s := range spans {
		if i > 0 {
			sb.WriteString("; ")
		}
		sb.WriteString("take-down requested by line ")
		sb.WriteString(itoa(s.req.Line))
		sb.WriteString(" ")
		sb.WriteString(quote(s.req.Text))
		sb.WriteString(" of ")
		sb.WriteString(s.from.id)
		sb.WriteString(", withdrawn by ")
		sb.WriteString(s.end.id)
		sb.WriteString(" (")
		sb.WriteString(s.end.statusRule)
		sb.WriteString(", in force from ")
		sb.WriteString(fmtTime(s.end.from))
		sb.WriteString(")")
	}
}
