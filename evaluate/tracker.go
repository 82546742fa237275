package evaluate

import (
	"strconv"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/signature"
	"github.com/repaudit/repaudit/table"
)

// Tracker holds the small sequential state of pass 2: the previous fetch
// per (agent, identity, authority) for crawl-delay, and signature replay.
// Feed it every Judgement in time order; it is not safe for concurrent
// use. Its memory is bounded by the number of (agent, identity, authority)
// triples and the replay window, not by the number of fetches.
type Tracker struct {
	m      *Model
	last   map[delayKey]*lastFetch // one lookup per fetch: updated in place
	replay *signature.ReplayDetector
}

type delayKey struct {
	auth     *authority
	agent    string
	identity string
}

type lastFetch struct {
	t      time.Time
	src    event.Source
	target string
}

// NewTracker returns a Tracker for fetches judged by m.
func (m *Model) NewTracker() *Tracker {
	tr := &Tracker{
		m:      m,
		last:   make(map[delayKey]*lastFetch),
		replay: signature.NewReplayDetector(0),
	}
	return tr
}

// wholeSecond reports whether t has no sub-second part: the timestamps of
// most access logs have one-second resolution.
func wholeSecond(t time.Time) bool { return t.Nanosecond() == 0 }

// Observe adds the findings that need earlier fetches to j (crawl_delay_ignored,
// signature replays as invalid_signature) and updates j.Fetch.Findings.
// Judgements must come in time order.
func (tr *Tracker) Observe(j *Judgement) {
	tr.observeReplay(j)
	tr.observeCrawlDelay(j)
	j.Fetch.Findings = int32(len(j.Violations))
}

// observeReplay finds a signature seen before (webbotauth-notes.md step
// 10): the fetch's identity becomes spoofed, with an invalid_signature
// finding.
func (tr *Tracker) observeReplay(j *Judgement) {
	if j.sigReq == nil || j.Signature == nil {
		return
	}
	replay, reason := tr.replay.Observe(j.sigReq, *j.Signature)
	if !replay {
		return
	}
	row := &j.Fetch
	if row.Agent != "" {
		row.Identity = string(IdentitySpoofed)
		row.Operator = ""
		for i := range j.Violations {
			j.Violations[i].Identity = string(IdentitySpoofed)
			j.Violations[i].Operator = ""
		}
		v := tr.m.baseViolation(row, KindInvalidSignature)
		v.SignatureReason = "replay"
		v.Evidence = reason
		j.Violations = append(j.Violations, v)
	}
	if row.SignatureReasons == "" {
		row.SignatureReasons = "replay"
	} else {
		row.SignatureReasons += ",replay"
	}
}

// observeCrawlDelay finds consecutive fetches of one agent and identity
// status on one authority closer than the Crawl-delay of its group.
func (tr *Tracker) observeCrawlDelay(j *Judgement) {
	row := &j.Fetch
	t := row.FetchTime
	if j.auth == nil || j.agentLower == "" || len(j.auth.versions) == 0 {
		// Without a version no fetch on j.auth has a Crawl-delay
		// (policyFindings): nothing to keep for the robots.txt fetches
		// of hosts the archive never captured.
		return
	}
	k := delayKey{auth: j.auth, agent: j.agentLower, identity: row.Identity}
	p := tr.last[k]
	if p != nil && !t.Before(p.t) && j.crawlDelay > 0 {
		interval := t.Sub(p.t)
		var res time.Duration
		if wholeSecond(t) && wholeSecond(p.t) {
			res = time.Second
		}
		delay := time.Duration(j.crawlDelay * float64(time.Second))
		if interval+res <= delay {
			j.Violations = append(j.Violations, tr.crawlDelayViolation(j, *p, interval, res))
		}
	}
	switch {
	case p == nil:
		p = new(lastFetch)
		tr.last[k] = p
	case t.Before(p.t):
		return // an earlier fetch, out of order: the later one stays
	}
	*p = lastFetch{t: t, src: event.Source{File: row.SourceFile, Line: row.SourceLine, Offset: row.WARCRecordOffset}, target: row.URLPath}
}

// crawlDelayViolation is the crawl_delay_ignored finding of j, interval
// after prev; res is the timestamps' resolution (0 when finer than a
// second).
func (tr *Tracker) crawlDelayViolation(j *Judgement, prev lastFetch, interval, res time.Duration) table.Violation {
	row := &j.Fetch
	v := tr.m.baseViolation(row, KindCrawlDelayIgnored)
	v.ObservedInterval = interval.Seconds()
	v.CrawlDelay = j.crawlDelay
	var sb evBuf
	writeVersion(&sb, j.delayVer)
	sb.WriteString(": line ")
	sb.WriteString(itoa(j.delayLine))
	sb.WriteString(" Crawl-delay ")
	sb.WriteString(fmtSeconds(j.crawlDelay))
	sb.WriteString(" applies to ")
	sb.WriteString(row.Agent)
	sb.WriteString("; previous fetch by ")
	sb.WriteString(row.Agent)
	sb.WriteString(" (")
	sb.WriteString(row.Identity)
	sb.WriteString(") on ")
	sb.WriteString(j.auth.key)
	sb.WriteString(" was ")
	sb.WriteString(prev.target)
	sb.WriteString(" at ")
	sb.WriteString(fmtTime(prev.t))
	sb.WriteString(" (")
	sb.WriteString(prev.src.String())
	sb.WriteString("), ")
	sb.WriteString(strconv.FormatFloat(interval.Seconds(), 'f', -1, 64))
	sb.WriteString("s before this one")
	if res > 0 {
		sb.WriteString(" (timestamps have one-second resolution: at most ")
		sb.WriteString(strconv.FormatFloat((interval + res).Seconds(), 'f', -1, 64))
		sb.WriteString("s)")
	}
	v.Evidence = sb.String()
	if ver := j.delayVer; ver != nil {
		setRobotsVersion(&v, ver)
	}
	return v
}
