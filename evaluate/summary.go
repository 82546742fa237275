package evaluate

import (
	"maps"
	"time"
)

// FetchSummary counts the fetches a Tracker observed, for the run summary.
type FetchSummary struct {
	Fetches   int64 // every fetch observed
	NonBot    int64 // clients with no bot identity (browsers): kept, not judged
	Bots      int64 // fetches with a bot identity
	Judged    int64 // bot fetches with a robots verdict other than not_judged
	NotJudged int64 // bot fetches that could not be judged (no host, no known robots.txt version, unknown content)
	// Unverifiable counts bot fetches whose source cannot show signature
	// headers (signature "unrecorded"): absence of a signature there proves
	// nothing, so it is never a finding.
	Unverifiable int64
	// UnverifiableClaimants counts, among those, fetches whose User-Agent
	// claims a Signature Agent Card holder that signs: they would be
	// unsigned_claimant findings if the source recorded signature headers.
	UnverifiableClaimants int64
	UserTriggered         int64
	ByVerdict             map[string]int64 // robots_verdict -> bot fetches
	ByView                map[string]int64 // robots_view -> bot fetches
	ByIdentity            map[string]int64 // identity -> bot fetches
	BySignature           map[string]int64 // signature column -> fetches
	Findings              map[string]int64 // kind -> findings
	FindingsSpoofed       int64            // findings by clients whose identity is spoofed
}

func newFetchSummary() FetchSummary {
	return FetchSummary{
		ByVerdict: map[string]int64{}, ByView: map[string]int64{}, ByIdentity: map[string]int64{},
		BySignature: map[string]int64{}, Findings: map[string]int64{},
	}
}

func (s *FetchSummary) add(j *Judgement) {
	row := &j.Fetch
	s.Fetches++
	s.BySignature[row.Signature]++
	for i := range j.Violations {
		s.Findings[j.Violations[i].Kind]++
		if j.Violations[i].Identity == IdentitySpoofed {
			s.FindingsSpoofed++
		}
	}
	if row.Agent == "" {
		s.NonBot++
		return
	}
	s.Bots++
	if row.RobotsVerdict == VerdictNotJudged {
		s.NotJudged++
	} else {
		s.Judged++
	}
	if row.Signature == SignatureUnrecorded {
		s.Unverifiable++
		if j.claimant {
			s.UnverifiableClaimants++
		}
	}
	if row.UserTriggered {
		s.UserTriggered++
	}
	s.ByVerdict[row.RobotsVerdict]++
	s.ByView[row.RobotsView]++
	s.ByIdentity[row.Identity]++
}

func (s FetchSummary) clone() FetchSummary {
	s.ByVerdict = maps.Clone(s.ByVerdict)
	s.ByView = maps.Clone(s.ByView)
	s.ByIdentity = maps.Clone(s.ByIdentity)
	s.BySignature = maps.Clone(s.BySignature)
	s.Findings = maps.Clone(s.Findings)
	return s
}

// ModelSummary describes what pass 1 reconstructed and, once WriteTables
// has run, what it wrote about listings and archived records.
type ModelSummary struct {
	AsOf                time.Time
	ArchiveAgent        string
	ArchiveAgentDerived bool // derived from WARC request records rather than given
	Authorities         int  // authorities with at least one robots.txt version
	RobotsVersions      int  // versions, including 30-day unavailable segments
	BotViews            int  // (authority, bot) pairs with robots.txt fetches of their own
	RobotsFetches       int64
	Fetches             int64 // fetches seen in pass 1
	Captures            int64 // HTTP captures seen in pass 1
	DirectiveCaptures   int64 // captures carrying at least one directive or diagnostic
	DirectiveSets       int   // distinct directive sets among them
	IndexEntries        int
	SnippetEntries      int
	Problems            int

	// Filled by WriteTables (zero before it ran).
	TablesWritten    bool
	Retention        map[string]int64 // action -> records
	Findings         map[string]int64 // kind -> listing and archive findings
	CaptureFetches   int64            // captures without a paired request, judged as archive fetches
	ListingNoCapture int64            // listing entries with no capture of their URL in force: not judged
	ListingEntries   int64
}

// Summary returns the model's counters.
func (m *Model) Summary() ModelSummary {
	s := ModelSummary{
		AsOf: m.opts.AsOf, ArchiveAgent: m.archiveAgent, ArchiveAgentDerived: m.archiveAgentDerived,
		RobotsFetches: m.nRobotsReq, Fetches: m.nFetches, Captures: m.nCaptures,
		IndexEntries: len(m.index), SnippetEntries: len(m.snippets), Problems: len(m.problems),
	}
	sets := map[*dirSet]bool{}
	for _, c := range m.captures {
		if c.dir != nil {
			s.DirectiveCaptures++
			sets[c.dir] = true
		}
	}
	s.DirectiveSets = len(sets)
	for _, a := range m.authList {
		if len(a.versions) > 0 {
			s.Authorities++
		}
		s.RobotsVersions += len(a.versions)
		s.BotViews += len(a.views)
	}
	m.countsMu.Lock()
	c := m.counts
	m.countsMu.Unlock()
	s.TablesWritten = c.done
	s.Retention = maps.Clone(c.retention)
	s.Findings = maps.Clone(c.findings)
	s.CaptureFetches = c.captureFetches
	s.ListingNoCapture = c.listingNoCapture
	s.ListingEntries = c.listingEntries
	return s
}

// Stats is the whole evaluation's summary: pass 1, every Tracker's
// fetches, and what WriteTables wrote. Call it after the Trackers and
// WriteTables are done.
type Stats struct {
	// Fetches counts fetches rows: every fetch observed by a Tracker plus
	// the captures WriteTables judged as archive fetches.
	Fetches int64
	// Judged counts bot fetches with a robots verdict other than not_judged.
	Judged int64
	// Unverifiable counts bot fetches whose source cannot show signature
	// headers: never findings, reported as unverifiable.
	Unverifiable int64
	// Findings counts every finding by kind (fetch, listing and archive).
	Findings map[string]int64
	Pass2    FetchSummary
	Model    ModelSummary
}

// Stats sums every Tracker of m and the model's own counters.
func (m *Model) Stats() Stats {
	ms := m.Summary()
	fs := newFetchSummary()
	m.trackersMu.Lock()
	for _, tr := range m.trackers {
		tr.mu.Lock()
		fs.merge(&tr.sum)
		tr.mu.Unlock()
	}
	m.trackersMu.Unlock()
	st := Stats{
		Fetches:      fs.Fetches + ms.CaptureFetches,
		Judged:       fs.Judged,
		Unverifiable: fs.Unverifiable,
		Findings:     map[string]int64{},
		Pass2:        fs,
		Model:        ms,
	}
	for k, n := range fs.Findings {
		st.Findings[k] += n
	}
	for k, n := range ms.Findings {
		st.Findings[k] += n
	}
	return st
}

func (s *FetchSummary) merge(o *FetchSummary) {
	s.Fetches += o.Fetches
	s.NonBot += o.NonBot
	s.Bots += o.Bots
	s.Judged += o.Judged
	s.NotJudged += o.NotJudged
	s.Unverifiable += o.Unverifiable
	s.UnverifiableClaimants += o.UnverifiableClaimants
	s.UserTriggered += o.UserTriggered
	s.FindingsSpoofed += o.FindingsSpoofed
	for _, p := range [][2]map[string]int64{
		{s.ByVerdict, o.ByVerdict}, {s.ByView, o.ByView}, {s.ByIdentity, o.ByIdentity},
		{s.BySignature, o.BySignature}, {s.Findings, o.Findings},
	} {
		for k, n := range p[1] {
			p[0][k] += n
		}
	}
}
