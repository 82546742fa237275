package evaluate

import (
	"maps"
	"time"
)

// ModelSummary describes what pass 1 reconstructed and, once WriteTables
// has run, what it wrote about listings and archived records.
type ModelSummary struct {
	AsOf                time.Time
	ArchiveAgent        string
	ArchiveAgentDerived bool             // derived from WARC request records rather than given
	ArchiveAgents       []ArchiveCrawler // each WARC file's crawler, sorted by file
	Authorities         int              // authorities with at least one robots.txt version
	RobotsVersions      int              // versions, including 30-day unavailable segments
	BotViews            int              // (authority, bot) pairs with robots.txt fetches of their own
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
	m.loadCaptures() // an error reading them back is WriteTables'
	s := ModelSummary{
		AsOf: m.opts.AsOf, ArchiveAgent: m.archiveAgent, ArchiveAgentDerived: m.archiveAgentDerived,
		RobotsFetches: m.nRobotsReq, Fetches: m.nFetches, Captures: m.nCaptures,
		ArchiveAgents: m.ArchiveCrawlers(),
		IndexEntries:  len(m.index), SnippetEntries: len(m.snippets), Problems: len(m.problems),
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
		s.BotViews += a.views.len()
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
