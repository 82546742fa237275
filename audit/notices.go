package audit

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/table"
)

// Notice is something the run could not judge, or judged on an
// assumption, with what to pass to judge it: a run that judges less than
// it could must say why and how to fix it, never stay silent. It is
// written to manifest.json.
type Notice = output.Notice

// Notice codes, as the strings output.Notice carries; their meanings are
// in package problem's registry.
const (
	NoticeSiteInferred   = string(problem.NoticeSiteInferred)
	NoticeSiteAmbiguous  = string(problem.NoticeSiteAmbiguous)
	NoticeAssumedRange   = string(problem.NoticeAssumedRange)
	NoticeIPListNotGiven = string(problem.NoticeIPListNotGiven)
	NoticeIPListNone     = string(problem.NoticeIPListNone)
	NoticeNoCrawler      = string(problem.NoticeNoCrawler)
	NoticeUnknownBots    = string(problem.NoticeUnknownBots)
	NoticeAsOfOutliers   = string(problem.NoticeAsOfOutliers)
	NoticeAsOfBeforeData = string(problem.NoticeAsOfBeforeData)
)

// merge adds one file's referrer counts into the run's (under s.mu).
func (s *Summary) mergeReferrers(h *input.HostSet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mergeReferrers(s.referrers, h.Referrers())
}

// mergeReferrers adds the referrer counts of one file into a run's,
// keeping at most 1024 sites.
func mergeReferrers(into, from map[string]int64) {
	for k, n := range from {
		if _, ok := into[k]; ok || len(into) < 1024 {
			into[k] += n
		}
	}
}

// topReferrer is the site most referrers of host-less lines name, when
// it is at least a quarter of them: a hint, said as one.
func topReferrer(referrers map[string]int64) string {
	best, bestN, total := "", int64(0), int64(0)
	for k, n := range referrers {
		total += n
		if n > bestN || (n == bestN && k < best) {
			best, bestN = k, n
		}
	}
	if bestN == 0 || bestN*4 < total {
		return ""
	}
	return best
}

// tally counts, as rows pass, what notices need: fetches not judged by
// reason, and per bot the fetches whose IP could not be checked.
func (s *Summary) tally(f *table.Fetch) { s.facts.Tally(f) }

// maxAgents caps the bots NoticeFacts counts fetches of.
const maxAgents = 10000

// maxNoticeHosts caps the sites counted for the no-robots-version notice.
const maxNoticeHosts = 10000

// addCapped adds n to m[k] while m has fewer than maxAgents keys, or
// already has k.
func addCapped(m map[string]int64, k string, n int64) {
	if _, ok := m[k]; ok || len(m) < maxAgents {
		m[k] += n
	}
}

// NoticeFacts is what the notices of a run are written from. Run takes
// the first three from its model and counts the rest as rows pass and
// files are read; a partitioned run (the Beam pipeline in beam/) adds up
// those of its partitions and files (Tally, Merge) and writes the same
// notices.
type NoticeFacts struct {
	Site            evaluate.Site `json:"site"`              // Model.Site (or Shared.SettleSite)
	AssumedVersions int           `json:"assumed,omitempty"` // Model.AssumedVersions
	FirstVersion    time.Time     `json:"first,omitzero"`    // Model.FirstVersion
	// NotJudged counts the fetch rows not judged, by reason (no-bot
	// aside); NotGiven and NotPublished the bot fetches whose IP no list
	// could check (ip_check not_given, not_published), by agent (at most
	// 10,000 agents each), and ListURLs the ip_list_url of the agents of
	// NotGiven (the least, when rows name several); Referrers the
	// referrer sites of host-less log lines (input.HostSet.Referrers, at most
	// 1,024 sites).
	NotJudged    map[string]int64  `json:"not_judged,omitempty"`
	NotGiven     map[string]int64  `json:"ip_not_given,omitempty"`
	ListURLs     map[string]string `json:"ip_list_urls,omitempty"`
	NotPublished map[string]int64  `json:"ip_not_published,omitempty"`
	Referrers    map[string]int64  `json:"referrers,omitempty"`
	// UnknownHosts counts the fetches not judged for unknown content by
	// url_host_name (at most 10,000 hosts); UnknownRobots says, per host,
	// what its robots.txt versions of unknown content are
	// (TallyVersion), so that the notice can say what happened.
	UnknownHosts  map[string]int64         `json:"unknown_hosts,omitempty"`
	UnknownRobots map[string]UnknownRobots `json:"unknown_robots,omitempty"`
	// NoVersion counts the fetches not judged for want of any robots.txt
	// version, by authority (at most 10,000); SourcesGiven says that the
	// run was given robots.txt sources (for other sites, then).
	NoVersion    map[string]int64 `json:"no_version,omitempty"`
	SourcesGiven bool             `json:"sources_given,omitempty"`
	// DNSGiven says that the run was given reverse-DNS snapshots
	// (--dns-dir): the IP list notices then do not suggest making one.
	DNSGiven bool `json:"dns_given,omitempty"`
	// NoDNSAnswer counts, by agent, the fetches of NotGiven and
	// NotPublished whose address no reverse-DNS snapshot holds: with
	// snapshots given, the notices say these were not looked up.
	NoDNSAnswer map[string]int64 `json:"no_dns_answer,omitempty"`
	// UnusedIPLists and UnusedRobots name, by file, the IP list files and
	// robots.txt sources the run was given and could not use, with why
	// (from their problem rows, TallyProblem): the notices that would
	// otherwise say "none given" or "for other sites" name them.
	UnusedIPLists map[string]string `json:"unused_ip_lists,omitempty"`
	UnusedRobots  map[string]string `json:"unused_robots,omitempty"`
	// Sites are the sites named with --site when several were, and
	// Unbound the inputs bound to none of them whose lines named no host,
	// with their counts.
	Sites   []string         `json:"sites,omitempty"`
	Unbound map[string]int64 `json:"unbound,omitempty"`
	// NoCrawler counts the captures (retention rows of response and
	// revisit records) of each WARC or ARC file that has no crawler, by
	// file (at most maxNoCrawlerFiles files).
	NoCrawler map[string]int64 `json:"no_crawler,omitempty"`
	// UnknownBots counts the fetches of bots named only by their own
	// product token (identified_by ua-token), by agent (at most
	// maxAgents).
	UnknownBots map[string]int64 `json:"unknown_bots,omitempty"`
}

// UnknownRobots is what a host's robots.txt versions of unknown content
// (robots_versions.effect unknown) are.
type UnknownRobots struct {
	Rules []string `json:"rules"` // their status rules, distinct and sorted
	// URL and Target are, for a version whose redirect leads out of the
	// inputs (redirect-target-missing), the robots.txt URL and where it
	// redirects (the least URL, when there are several).
	URL    string `json:"url,omitempty"`
	Target string `json:"target,omitempty"`
}

// merge adds o's rules and keeps the least redirect.
func (u UnknownRobots) merge(o UnknownRobots) UnknownRobots {
	for _, r := range o.Rules {
		if i, found := slices.BinarySearch(u.Rules, r); !found {
			u.Rules = slices.Insert(slices.Clone(u.Rules), i, r)
		}
	}
	if o.Target != "" && (u.Target == "" || o.URL < u.URL || o.URL == u.URL && o.Target < u.Target) {
		u.URL, u.Target = o.URL, o.Target
	}
	return u
}

func (nf *NoticeFacts) init() {
	if nf.NotJudged == nil {
		nf.NotJudged, nf.NotGiven, nf.NotPublished = map[string]int64{}, map[string]int64{}, map[string]int64{}
		nf.ListURLs, nf.UnknownHosts = map[string]string{}, map[string]int64{}
	}
}

// TallyVersion notes one robots_versions row: the notice on fetches of
// unknown content names what the host's versions of unknown content are.
// It touches only UnknownRobots, so it may run beside Tally.
func (nf *NoticeFacts) TallyVersion(v *table.RobotsVersion) {
	if v.Effect != "unknown" {
		return
	}
	if nf.UnknownRobots == nil {
		nf.UnknownRobots = map[string]UnknownRobots{}
	}
	u := UnknownRobots{Rules: []string{v.StatusRule}}
	if v.StatusRule == evaluate.RuleTargetMissing && v.RedirectTarget != "" {
		u.URL, u.Target = v.URL, v.RedirectTarget
	}
	old, ok := nf.UnknownRobots[v.URLHostName]
	if !ok && len(nf.UnknownRobots) >= maxAgents {
		return
	}
	nf.UnknownRobots[strings.Clone(v.URLHostName)] = old.merge(u)

}

// maxNoCrawlerFiles caps the files NoticeFacts.NoCrawler counts: the
// notice names the first few and counts the rest.
const maxNoCrawlerFiles = 10000

// TallyRetention counts one retention row, as Run counts every row it
// writes.
func (nf *NoticeFacts) TallyRetention(r *table.Retention) {
	if nf.NoCrawler == nil {
		nf.NoCrawler = map[string]int64{}
	}
	tallyRetention(nf.NoCrawler, r)
}

// tallyRetention counts r in noCrawler when it is a capture of a file
// with no crawler: one not judged as any crawler's fetch.
func tallyRetention(noCrawler map[string]int64, r *table.Retention) {
	if r.Agent != "" || (r.RecordType != "response" && r.RecordType != "revisit") {
		return
	}
	if _, ok := noCrawler[r.WARCFilename]; ok || len(noCrawler) < maxNoCrawlerFiles {
		noCrawler[r.WARCFilename]++
	}
}

// TallyProblem notes a problem row that says a given IP list file or
// robots.txt source was not used.
func (nf *NoticeFacts) TallyProblem(p *table.Problem) {
	switch problem.Code(p.Code) {
	case problem.IPListUnmapped, problem.IPListUnreadable:
		nf.UnusedIPLists = noteUnused(nf.UnusedIPLists, p.SourceFile, strings.TrimPrefix(p.Message, "IP range list not used: "))
	case problem.RobotsGitUnreadable, problem.RobotsSnapshotUnreadable:
		nf.UnusedRobots = noteUnused(nf.UnusedRobots, p.SourceFile, p.Message)
	case problem.InputUnreadable:
		for _, kind := range []string{"robots: ", "robots-git: ", "robots-dir: "} {
			if msg, ok := strings.CutPrefix(p.Message, kind); ok {
				nf.UnusedRobots = noteUnused(nf.UnusedRobots, p.SourceFile, msg)
			}
		}
	}
}

// noteUnused keeps why file was not used, the least message when it has
// several (so that partitions merge in any order), for at most
// maxNoticeHosts files.
func noteUnused(m map[string]string, file, why string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	if old, ok := m[file]; ok && old <= why || !ok && len(m) >= maxNoticeHosts {
		return m
	}
	m[file] = strings.Clone(why)
	return m
}

// Tally counts one fetch row, as Run counts every row it writes.
func (nf *NoticeFacts) Tally(f *table.Fetch) {
	nf.init()
	if f.IdentifiedBy == evaluate.IdentifiedByUAToken && f.Identity != string(evaluate.IdentitySpoofed) {
		if nf.UnknownBots == nil {
			nf.UnknownBots = map[string]int64{}
		}
		addCapped(nf.UnknownBots, f.Agent, 1)
	}
	if f.NotJudgedReason != "" && f.NotJudgedReason != evaluate.NotJudgedNoBot {
		nf.NotJudged[f.NotJudgedReason]++
		switch f.NotJudgedReason {
		case evaluate.NotJudgedUnknownContent:
			addCapped(nf.UnknownHosts, f.URLHostName, 1)
		case evaluate.NotJudgedNoVersion:
			if nf.NoVersion == nil {
				nf.NoVersion = map[string]int64{}
			}
			a := urlAuthority(f.URL)
			if _, ok := nf.NoVersion[a]; ok || len(nf.NoVersion) < maxNoticeHosts {
				nf.NoVersion[a]++
			}
		}
	}
	if f.Agent == "" || f.ClientIP == "" || dnsDecided(f.DNSCheck) {
		return
	}
	switch f.IPCheck {
	case identity.IPNotGiven:
		addCapped(nf.NotGiven, f.Agent, 1)
		nf.noteListURL(f.Agent, f.IPListURL)
	case identity.IPNotPublished:
		addCapped(nf.NotPublished, f.Agent, 1)
	default:
		return
	}
	if f.DNSCheck == "" {
		if nf.NoDNSAnswer == nil {
			nf.NoDNSAnswer = map[string]int64{}
		}
		addCapped(nf.NoDNSAnswer, f.Agent, 1)
	}
}

// dnsDecided reports whether a reverse-DNS answer settled the client's
// identity (confirmed, or a name that refutes it): its address was
// checked, so it is not one of the fetches a missing IP list left
// unchecked, and a refuted one is attributed to no operator.
func dnsDecided(check string) bool {
	switch check {
	case identity.DNSConfirmed, identity.DNSNameOutsideSuffixes, identity.DNSForwardMismatch:
		return true
	}
	return false
}

// noteListURL keeps the least list URL named for agent, so that the
// notice does not depend on the order rows and partitions come in.
func (nf *NoticeFacts) noteListURL(agent, u string) {
	if _, counted := nf.NotGiven[agent]; !counted || u == "" {
		return
	}
	if old, ok := nf.ListURLs[agent]; !ok || u < old {
		nf.ListURLs[agent] = strings.Clone(u)
	}
}

// Merge adds o's counts to nf (Site is left as it is; the earliest
// FirstVersion is kept).
func (nf *NoticeFacts) Merge(o NoticeFacts) {
	nf.AssumedVersions += o.AssumedVersions
	if !o.FirstVersion.IsZero() && (nf.FirstVersion.IsZero() || o.FirstVersion.Before(nf.FirstVersion)) {
		nf.FirstVersion = o.FirstVersion
	}
	nf.init()
	for k, n := range o.NotJudged {
		nf.NotJudged[k] += n
	}
	for a, n := range o.NotGiven {
		addCapped(nf.NotGiven, a, n)
		nf.noteListURL(a, o.ListURLs[a])
	}
	for a, n := range o.NotPublished {
		addCapped(nf.NotPublished, a, n)
	}
	for h, n := range o.UnknownHosts {
		addCapped(nf.UnknownHosts, h, n)
	}
	for h, u := range o.UnknownRobots {
		if nf.UnknownRobots == nil {
			nf.UnknownRobots = map[string]UnknownRobots{}
		}
		if old, ok := nf.UnknownRobots[h]; ok || len(nf.UnknownRobots) < maxAgents {
			nf.UnknownRobots[h] = old.merge(u)
		}
	}
	if len(o.NoVersion) > 0 && nf.NoVersion == nil {
		nf.NoVersion = map[string]int64{}
	}
	for a, n := range o.NoVersion {
		if _, ok := nf.NoVersion[a]; ok || len(nf.NoVersion) < maxNoticeHosts {
			nf.NoVersion[a] += n
		}
	}
	nf.SourcesGiven = nf.SourcesGiven || o.SourcesGiven
	nf.DNSGiven = nf.DNSGiven || o.DNSGiven
	for f, why := range o.UnusedIPLists {
		nf.UnusedIPLists = noteUnused(nf.UnusedIPLists, f, why)
	}
	for f, why := range o.UnusedRobots {
		nf.UnusedRobots = noteUnused(nf.UnusedRobots, f, why)
	}
	for a, n := range o.NoDNSAnswer {
		if nf.NoDNSAnswer == nil {
			nf.NoDNSAnswer = map[string]int64{}
		}
		addCapped(nf.NoDNSAnswer, a, n)
	}
	nf.AddReferrers(o.Referrers)
	for a, n := range o.UnknownBots {
		if nf.UnknownBots == nil {
			nf.UnknownBots = map[string]int64{}
		}
		addCapped(nf.UnknownBots, a, n)
	}
	for f, n := range o.NoCrawler {
		if nf.NoCrawler == nil {
			nf.NoCrawler = map[string]int64{}
		}
		if _, ok := nf.NoCrawler[f]; ok || len(nf.NoCrawler) < maxNoCrawlerFiles {
			nf.NoCrawler[f] += n
		}
	}
}

// AddReferrers adds one file's referrer counts (input.HostSet.Referrers).
func (nf *NoticeFacts) AddReferrers(refs map[string]int64) {
	if len(refs) == 0 {
		return
	}
	if nf.Referrers == nil {
		nf.Referrers = map[string]int64{}
	}
	mergeReferrers(nf.Referrers, refs)
}

// notices says what the run judged less than it could, and why: the site
// it judged host-less lines as, fetches not judged by reason, robots.txt
// versions assumed for the whole range, and bots whose IPs went unchecked.
func notices(m *evaluate.Model, catalog *bots.Catalog, s *Summary, cfg Config, unbound map[string]int64) []Notice {
	nf := s.facts
	nf.Site, nf.AssumedVersions, nf.FirstVersion = m.Site(), m.AssumedVersions(), m.FirstVersion()
	nf.Referrers = s.referrers
	nf.SourcesGiven = len(cfg.Robots)+len(cfg.RobotsGit)+len(cfg.RobotsDir) > 0
	nf.DNSGiven = nf.DNSGiven || len(cfg.DNSDirs) > 0 // or a snapshot among the inputs (Run)
	nf.Sites, nf.Unbound = cfg.Eval.Sites, unbound
	return Notices(&nf, catalog)
}

// Notices returns the notices of a run from its facts, in the order they
// are written to manifest.json.
func Notices(nf *NoticeFacts, catalog *bots.Catalog) []Notice {
	var nl noticeList
	if len(nf.Sites) < 2 { // with several, the no-host notice names them
		nl.site(nf.Site)
	}
	nl.notJudged(nf)
	nl.noCrawler(nf.NoCrawler)
	if len(nf.UnknownBots) > 0 {
		var n int64
		for _, c := range nf.UnknownBots {
			n += c
		}
		nl.add(NoticeUnknownBots, n, "%s by %s the bot catalog does not know, named by their own product token: %s — no operator or category, so AI usage preferences are not judged for them; merge ai.robots.txt's robots.json (github.com/ai-robots-txt/ai.robots.txt) or a catalog file of your own with --bots FILE",
			fetches(n), plural(int64(len(nf.UnknownBots)), "bot", "bots"), listSome(byCountLabeled(nf.UnknownBots), 8))
	}
	if nf.AssumedVersions > 0 {
		nl.add(NoticeAssumedRange, 0, "%s given without a time: assumed in force for the whole data range — give FILE@TIME, --robots-git or --robots-dir if the file changed",
			plural(int64(nf.AssumedVersions), "robots.txt version", "robots.txt versions"))
	}
	nl.ipLists(catalog, nf)
	return nl.out
}

// noticeList gathers notices in the order they are written.
type noticeList struct{ out []Notice }

func (nl *noticeList) add(code string, count int64, format string, a ...any) {
	nl.out = append(nl.out, Notice{Code: code, Count: count, Message: fmt.Sprintf(format, a...)})
}

// byCountLabeled lists the keys of counts, most first (ties by name),
// each as "KEY (N)".
func byCountLabeled(counts map[string]int64) []string {
	keys := byCount(counts)
	for i, k := range keys {
		keys[i] = k + " (" + count(counts[k]) + ")"
	}
	return keys
}

// urlAuthority is the scheme://host[:port] of an absolute URL as the
// fetches table writes it.
func urlAuthority(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	if j := strings.IndexAny(u[i+3:], "/?#"); j >= 0 {
		return u[:i+3+j]
	}
	return u
}

// site says which site host-less inputs were judged as, or that several
// were named and none chosen.
func (nl *noticeList) site(site evaluate.Site) {
	switch {
	case site.Inferred:
		what := plural(site.Hostless, "log line names", "log lines name") + " no host"
		if site.Hostless == 0 {
			what = plural(int64(site.Versions), "robots.txt file names", "robots.txt files name") + " no site"
		}
		nl.add(NoticeSiteInferred, site.Hostless, "%s: judged as %s, the one site the inputs name (pass --site to choose another)",
			what, site.Authority)
	case site.Needed() && site.Authority == "" && len(site.Candidates) > 1:
		nl.add(NoticeSiteAmbiguous, site.Hostless, "the inputs name %d sites (%s): log lines and robots.txt files without a host are not judged; pass --site with the one they belong to, or bind each to its site with URL= (a log as URL=PATH, a source as --robots-dir URL=DIR)",
			len(site.Candidates), listSome(site.Candidates, 5))
	}
}

// notJudged counts the fetches not judged, by reason, with the fix for
// each.
func (nl *noticeList) notJudged(nf *NoticeFacts) {
	if c := nf.NotJudged[evaluate.NotJudgedNoHost]; c > 0 && len(nf.Sites) > 1 {
		inputs := byCountLabeled(nf.Unbound)
		example := nf.Sites[0] + "=FILE"
		for _, in := range inputs {
			example = nf.Sites[0] + "=" + in[:strings.LastIndex(in, " (")]
			break
		}
		n := Notice{Code: evaluate.NotJudgedNoHost, Count: c, Message: fmt.Sprintf(
			"%s: log lines name no host, in %s bound to no site: %s; %d sites were given (%s) and any could own them — bind each such log to its site with URL=PATH, e.g. %s",
			fetches(c), plural(int64(len(inputs)), "input", "inputs"), listSome(inputs, 5), len(nf.Sites), listSome(nf.Sites, 5), example)}
		nl.out = append(nl.out, n)
	} else if c > 0 {
		hint := "pass --site https://YOUR-SITE (the site these logs are from)"
		if ref := topReferrer(nf.Referrers); ref != "" {
			hint = "pass --site with the site these logs are from (most of their referrers are " + ref + ": if that is it, --site " + ref + ")"
		}
		if nf.Site.Versions > 0 {
			hint += "; the robots.txt versions given name no site either and were not used"
		}
		nl.add(evaluate.NotJudgedNoHost, c, "%s: log lines name no host — %s", fetches(c), hint)
	}
	if c := nf.NotJudged[evaluate.NotJudgedNoVersion]; c > 0 {
		nl.noVersion(c, nf)
	}
	if c := nf.NotJudged[evaluate.NotJudgedBeforeFirst]; c > 0 {
		earliest := ""
		if t := nf.FirstVersion; !t.IsZero() {
			earliest = " (earliest " + t.UTC().Format("2006-01-02T15:04:05Z") + ")"
		}
		nl.add(evaluate.NotJudgedBeforeFirst, c, "%s before the first known robots.txt version%s — give --robots FILE@TIME, --robots-git DIR[:PATH] or a WARC from 'repaudit robots history URL' that reaches back further", fetches(c), earliest)
	}
	if c := nf.NotJudged[evaluate.NotJudgedUnknownContent]; c > 0 {
		nl.unknownContent(nf, c)
	}
}

// noCrawler names the archive files whose captures no crawler's fetches
// judged, most captures first, with the fix.
func (nl *noticeList) noCrawler(files map[string]int64) {
	if len(files) == 0 {
		return
	}
	var total int64
	for _, n := range files {
		total += n
	}
	names, listed := byCount(files), byCountLabeled(files)
	nl.add(NoticeNoCrawler, total, "%s not judged: %s no crawler (no request record, warcinfo or filedesc record names a known bot, and no file of the same crawl does): %s — give --archive-agent TOKEN for every file, or --archive-agent FILE=TOKEN for one",
		plural(total, "capture", "captures"), plural(int64(len(names)), "archive file names", "archive files name"), listSome(listed, 5))
}

// noticeHosts is how many sites the no-robots-version notice names, most
// fetches first, before "and N more".
const noticeHosts = 20

// noVersion names the sites whose bots' fetches had no robots.txt
// version at all, most fetches first, with the fix. When the run was
// given sources they were for other sites: the notice says so rather
// than ask for a source already given.
func (nl *noticeList) noVersion(c int64, nf *NoticeFacts) {
	hosts := byCountLabeled(nf.NoVersion)
	if len(hosts) == 0 { // a partitioned run that counted none by site
		nl.add(evaluate.NotJudgedNoVersion, c, "%s by bots on sites with no known robots.txt version — give --robots FILE[@TIME], --robots-git DIR[:PATH], --robots-dir DIR, or a WARC from 'repaudit robots history URL'", fetches(c))
		return
	}
	given := ""
	switch {
	case nf.Site.Versions > 0 && nf.Site.Authority == "":
		given = "; the robots.txt sources given name no site and were not used: bind each to its site with URL="
	case len(nf.UnusedRobots) > 0:
		given = "; robots.txt sources given could not be used: " + unusedList(nf.UnusedRobots)
	case nf.SourcesGiven:
		given = "; the robots.txt sources given are for other sites"
	}
	fix := "--robots-dir DIR"
	if nf.SourcesGiven || len(hosts) > 1 {
		fix = "--robots-dir URL=DIR, a --robots-dir DIR with a subdirectory per host (DIR/HOST/2025-03-01.txt), --robots-git URL=DIR[:PATH], --robots URL=FILE[@TIME]"
	} else {
		fix = "--robots FILE[@TIME], --robots-git DIR[:PATH], " + fix
	}
	nl.add(evaluate.NotJudgedNoVersion, c, "%s by bots on %s with no known robots.txt version: %s%s — give each a source: %s, or a WARC from 'repaudit robots history URL'",
		fetches(c), plural(int64(len(hosts)), "site", "sites"), listSome(hosts, noticeHosts), given, fix)
}

// unknownContent says what the c fetches of unknown content were under,
// by host: a robots.txt that redirects out of the inputs (typically an
// http:// vhost sending everything to https), in one notice; the other
// causes, with their status rules, in another.
func (nl *noticeList) unknownContent(nf *NoticeFacts, c int64) {
	var redirects, others []string
	var redirectN int64
	for _, h := range byCount(nf.UnknownHosts) {
		n, u := nf.UnknownHosts[h], nf.UnknownRobots[h]
		if u.Target != "" && len(u.Rules) == 1 {
			redirects = append(redirects, fmt.Sprintf("robots.txt on %s redirects to %s (not among the inputs): %s",
				siteOf(u.URL), u.Target, fetches(n)))
			redirectN += n
			continue
		}
		what := fetches(n)
		if len(u.Rules) > 0 {
			what += "; status_rule " + strings.Join(u.Rules, ", ")
		}
		if h == "" {
			h = "(no host)"
		}
		others = append(others, h+" ("+what+")")
	}
	if redirectN > 0 {
		nl.add(evaluate.NotJudgedUnknownContent, redirectN, "%s under a robots.txt that redirects to a URL not among the inputs — %s — give a robots.txt source for the target (--robots FILE@TIME, --robots-git DIR[:PATH], --robots-dir DIR, or a WARC that captures it); if the host is a redirect vhost (an http:// site sending everything to https), its fetches were answered with redirects and there is nothing to judge",
			fetches(redirectN), joinSome(redirects, 5, "hosts"))
	}
	if rest := c - redirectN; rest > 0 {
		where := ""
		if len(others) > 0 {
			where = ", by host: " + joinSome(others, 5, "hosts")
		}
		nl.add(evaluate.NotJudgedUnknownContent, rest, "%s under a robots.txt version whose content is unknown%s — see robots_versions.status_rule: a redirect whose target is not in the inputs (redirect-target-missing) or that names none (redirect-no-location), a revisit whose original is not in the inputs (revisit-unresolved), a response that does not parse; or a bot's own robots.txt fetch that was a redirect or a 304 with no known version to follow — give the capture it needs",
			fetches(rest), where)
	}
}

// siteOf is the scheme://authority of a URL (the whole string when it
// has no path).
func siteOf(u string) string {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		return u[:len(u)-len(rest)+i]
	}
	return u
}

// joinSome joins at most max of xs with "; ", saying how many more.
func joinSome(xs []string, max int, more string) string {
	if len(xs) <= max {
		return strings.Join(xs, "; ")
	}
	return strings.Join(xs[:max], "; ") + fmt.Sprintf("; and %d more %s", len(xs)-max, more)
}

// ipLists names, per bot in the order of most fetches, the published IP
// list that was not given (ip_check not_given); bots the catalog knows
// whose operators publish none (not_published) are listed together.
func (nl *noticeList) ipLists(catalog *bots.Catalog, nf *NoticeFacts) {
	named := false // the unused IP list files were named
	for _, a := range byCount(nf.NotGiven) {
		c, u := nf.NotGiven[a], nf.ListURLs[a]
		name := a
		b, known := catalog.Lookup(a)
		if known {
			name = b.Token
		}
		switch {
		case known && (slices.Contains(b.IPRangesURLs, u) || u == b.IPRangesURL) && len(nf.UnusedIPLists) > 0:
			// The files and why come once, in the first such notice.
			unused := "see above"
			if !named {
				unused, named = unusedList(nf.UnusedIPLists), true
			}
			nl.add(NoticeIPListNotGiven, c, "%s publishes IP ranges at %s; none used: %s unchecked, findings attributed to the claimed operator — IP list files given were not used (%s); name each as 'repaudit ranges fetch' does, or run it and pass --ip-ranges-dir DIR%s",
				name, u, fetches(c), unused, dnsFix(b, nf))
		case known && (slices.Contains(b.IPRangesURLs, u) || u == b.IPRangesURL):
			nl.add(NoticeIPListNotGiven, c, "%s publishes IP ranges at %s; none given: %s unchecked, findings attributed to the claimed operator — run 'repaudit ranges fetch --out DIR' and pass --ip-ranges-dir DIR%s",
				name, u, fetches(c), dnsFix(b, nf))
		default: // a card's ips_uri
			nl.add(NoticeIPListNotGiven, c, "%s publishes IP ranges at %s (its Signature Agent Card's ips_uri); none given: %s unchecked, findings attributed to the claimed operator — give a WARC that captures it ('repaudit cards fetch' records it)",
				name, u, fetches(c))
		}
	}
	var unpublished, byDNS []string
	var unpublishedN int64
	for _, a := range byCount(nf.NotPublished) {
		c := nf.NotPublished[a]
		b, ok := catalog.Lookup(a)
		if !ok {
			continue // an unknown bot: nobody vouches for it
		}
		unpublished = append(unpublished, fmt.Sprintf("%s (%d)", b.Token, c))
		unpublishedN += c
		if byReverseDNS(b, nf) {
			byDNS = append(byDNS, b.Token)
		}
	}
	if len(unpublished) > 0 {
		fix := ""
		switch {
		case len(byDNS) > 0 && nf.DNSGiven:
			fix = " — " + listSome(byDNS, 8) + " can be verified by reverse DNS, but the snapshots given hold no lookup of these addresses: run 'repaudit dns verify' on these inputs and pass its --out DIR with --dns-dir"
		case len(byDNS) > 0:
			fix = " — " + listSome(byDNS, 8) + " can be verified by reverse DNS: run 'repaudit dns verify INPUT... --out DIR' and pass --dns-dir DIR"
		}
		nl.add(NoticeIPListNone, unpublishedN, "%s by bots whose operators publish no IP ranges, unverifiable by IP: %s%s",
			fetches(unpublishedN), listSome(unpublished, 8), fix)
	}
}

// byReverseDNS reports whether a bot can be verified by reverse DNS (its
// operator documents it: rdns_suffixes) and the run has no lookup of
// some of its fetches' addresses: it was given no --dns-dir, or the
// snapshots given do not hold those addresses (made from other inputs,
// or before these fetches were logged).
func byReverseDNS(b *bots.Bot, nf *NoticeFacts) bool {
	return b != nil && len(b.RDNSSuffixes) > 0 && (!nf.DNSGiven || nf.NoDNSAnswer[b.Token] > 0)
}

// dnsFix names 'repaudit dns verify' as the other fix of the IP list
// notice, when byReverseDNS; "" otherwise.
func dnsFix(b *bots.Bot, nf *NoticeFacts) string {
	switch {
	case !byReverseDNS(b, nf):
		return ""
	case nf.DNSGiven:
		return fmt.Sprintf(" (or verify by reverse DNS: the snapshots given hold no lookup of the addresses of %s; run 'repaudit dns verify' on these inputs and pass its --out DIR with --dns-dir)", fetches(nf.NoDNSAnswer[b.Token]))
	}
	return " (or verify by reverse DNS: run 'repaudit dns verify INPUT... --out DIR' and pass --dns-dir DIR)"
}

// byCount returns the keys of m, most counted first, then in order.
func byCount(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

func fetches(n int64) string { return plural(n, "fetch", "fetches") }

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return count(n) + " " + many
}

// count writes n with thousands separators (1,671).
func count(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func listSome(xs []string, max int) string {
	if len(xs) <= max {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:max], ", ") + fmt.Sprintf(" and %d more", len(xs)-max)
}

// unusedList names the files of m with why each was not used, in file
// order, at most 3 before "and N more".
func unusedList(m map[string]string) string {
	files := slices.Sorted(maps.Keys(m))
	var parts []string
	for _, f := range files[:min(len(files), 3)] {
		parts = append(parts, f+" ("+m[f]+")")
	}
	if n := len(files) - 3; n > 0 {
		parts = append(parts, fmt.Sprintf("and %d more (problems.parquet lists them)", n))
	}
	return strings.Join(parts, "; ")
}
