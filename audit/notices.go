package audit

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
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
)

// hostSet notes, for one input file read on one goroutine, the
// authorities its fetches name (capped) and how many name none.
type hostSet struct {
	seen      map[string]bool
	parts     map[hostKey]bool // the (scheme, host) pairs already noted
	list      []string
	hostless  int64
	referrers map[string]int64 // scheme://host of the referrers of host-less lines (capped)
}

func (h *hostSet) note(f *event.Fetch) {
	if f.Host == "" {
		h.hostless++
		if f.Referer != "" && f.Referer != "-" {
			h.noteReferrer(f.Referer)
		}
		return
	}
	if len(h.list) >= 64 {
		return
	}
	// Looked up by its parts first: the key string is built once per
	// (scheme, host), not once per fetch.
	if h.parts[hostKey{f.Scheme, f.Host}] {
		return
	}
	if h.parts == nil {
		h.parts = make(map[hostKey]bool)
		h.seen = make(map[string]bool)
	}
	h.parts[hostKey{strings.Clone(f.Scheme), strings.Clone(f.Host)}] = true
	key := f.Host
	if f.Scheme != "" {
		key = f.Scheme + "://" + f.Host
	}
	if !h.seen[key] {
		h.seen[key] = true
		h.list = append(h.list, strings.Clone(key))
	}
}

// hostKey is an authority as a fetch names it.
type hostKey struct{ scheme, host string }

// noteReferrer counts the site a referrer names: on a site's own log,
// most referrers of page views are its own pages, which suggests the
// --site to pass when the log names no host.
func (h *hostSet) noteReferrer(ref string) {
	scheme, rest, ok := strings.Cut(ref, "://")
	if !ok || (scheme != "http" && scheme != "https") {
		return
	}
	host, _, _ := strings.Cut(rest, "/")
	host, _, _ = strings.Cut(host, "?")
	if host == "" || strings.ContainsAny(host, " \"\\<>") {
		return
	}
	key := scheme + "://" + strings.ToLower(host)
	if h.referrers == nil {
		h.referrers = make(map[string]int64)
	}
	if _, ok := h.referrers[key]; ok || len(h.referrers) < 256 {
		h.referrers[key]++
	}
}

// merge adds one file's referrer counts into the run's (under s.mu).
func (s *Summary) mergeReferrers(h *hostSet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mergeReferrers(s.referrers, h.referrers)
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
func (s *Summary) tally(f *table.Fetch) { tally(s.notJudged, s.noList, f) }

func tally(notJudged, noList map[string]int64, f *table.Fetch) {
	if f.NotJudgedReason != "" && f.NotJudgedReason != evaluate.NotJudgedNoBot {
		notJudged[f.NotJudgedReason]++
	}
	if f.Agent != "" && f.IPCheck == identity.IPNoList && f.ClientIP != "" {
		if _, ok := noList[f.Agent]; ok || len(noList) < 10000 {
			noList[f.Agent]++
		}
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
	// aside); NoList the bot fetches whose IP no list could check, by
	// agent (at most 10,000 agents); Referrers the referrer sites of
	// host-less log lines (HostSet.Referrers, at most 1,024 sites).
	NotJudged map[string]int64 `json:"not_judged,omitempty"`
	NoList    map[string]int64 `json:"no_list,omitempty"`
	Referrers map[string]int64 `json:"referrers,omitempty"`
	// NoCrawler counts the captures (retention rows of response and
	// revisit records) of each WARC or ARC file that has no crawler, by
	// file (at most maxNoCrawlerFiles files).
	NoCrawler map[string]int64 `json:"no_crawler,omitempty"`
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

// Tally counts one fetch row, as Run counts every row it writes.
func (nf *NoticeFacts) Tally(f *table.Fetch) {
	if nf.NotJudged == nil {
		nf.NotJudged, nf.NoList = map[string]int64{}, map[string]int64{}
	}
	tally(nf.NotJudged, nf.NoList, f)
}

// Merge adds o's counts to nf (Site is left as it is; the earliest
// FirstVersion is kept).
func (nf *NoticeFacts) Merge(o NoticeFacts) {
	nf.AssumedVersions += o.AssumedVersions
	if !o.FirstVersion.IsZero() && (nf.FirstVersion.IsZero() || o.FirstVersion.Before(nf.FirstVersion)) {
		nf.FirstVersion = o.FirstVersion
	}
	if nf.NotJudged == nil {
		nf.NotJudged, nf.NoList = map[string]int64{}, map[string]int64{}
	}
	for k, n := range o.NotJudged {
		nf.NotJudged[k] += n
	}
	for a, n := range o.NoList {
		if _, ok := nf.NoList[a]; ok || len(nf.NoList) < 10000 {
			nf.NoList[a] += n
		}
	}
	nf.AddReferrers(o.Referrers)
	for f, n := range o.NoCrawler {
		if nf.NoCrawler == nil {
			nf.NoCrawler = map[string]int64{}
		}
		if _, ok := nf.NoCrawler[f]; ok || len(nf.NoCrawler) < maxNoCrawlerFiles {
			nf.NoCrawler[f] += n
		}
	}
}

// AddReferrers adds one file's referrer counts (HostSet.Referrers).
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
func notices(m *evaluate.Model, catalog *bots.Catalog, s *Summary) []Notice {
	return Notices(&NoticeFacts{
		Site: m.Site(), AssumedVersions: m.AssumedVersions(), FirstVersion: m.FirstVersion(),
		NotJudged: s.notJudged, NoList: s.noList, Referrers: s.referrers, NoCrawler: s.noCrawler,
	}, catalog)
}

// Notices returns the notices of a run from its facts, in the order they
// are written to manifest.json.
func Notices(nf *NoticeFacts, catalog *bots.Catalog) []Notice {
	var nl noticeList
	nl.site(nf.Site)
	nl.notJudged(nf)
	nl.noCrawler(nf.NoCrawler)
	if nf.AssumedVersions > 0 {
		nl.add(NoticeAssumedRange, 0, "%s given without a time: assumed in force for the whole data range — give FILE@TIME, --robots-git or --robots-dir if the file changed",
			plural(int64(nf.AssumedVersions), "robots.txt version", "robots.txt versions"))
	}
	nl.ipLists(catalog, nf.NoList)
	return nl.out
}

// noticeList gathers notices in the order they are written.
type noticeList struct{ out []Notice }

func (nl *noticeList) add(code string, count int64, format string, a ...any) {
	nl.out = append(nl.out, Notice{Code: code, Count: count, Message: fmt.Sprintf(format, a...)})
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
		nl.add(NoticeSiteAmbiguous, site.Hostless, "the inputs name %d sites (%s): log lines and robots.txt files without a host are not judged; pass --site with the one they belong to",
			len(site.Candidates), listSome(site.Candidates, 5))
	}
}

// notJudged counts the fetches not judged, by reason, with the fix for
// each.
func (nl *noticeList) notJudged(nf *NoticeFacts) {
	if c := nf.NotJudged[evaluate.NotJudgedNoHost]; c > 0 {
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
		nl.add(evaluate.NotJudgedNoVersion, c, "%s by bots on sites with no known robots.txt version — give --robots FILE[@TIME], --robots-git DIR[:PATH], --robots-dir DIR, or a WARC from 'repaudit robots history URL'", fetches(c))
	}
	if c := nf.NotJudged[evaluate.NotJudgedBeforeFirst]; c > 0 {
		earliest := ""
		if t := nf.FirstVersion; !t.IsZero() {
			earliest = " (earliest " + t.UTC().Format("2006-01-02T15:04:05Z") + ")"
		}
		nl.add(evaluate.NotJudgedBeforeFirst, c, "%s before the first known robots.txt version%s — give --robots FILE@TIME, --robots-git DIR[:PATH] or a WARC from 'repaudit robots history URL' that reaches back further", fetches(c), earliest)
	}
	if c := nf.NotJudged[evaluate.NotJudgedUnknownContent]; c > 0 {
		nl.add(evaluate.NotJudgedUnknownContent, c, "%s under a robots.txt version whose content is unknown (see robots_versions.status_rule: a redirect target or revisited capture not in the inputs)", fetches(c))
	}
}

// noCrawler names the archive files whose captures no crawler's fetches
// judged, most captures first, with the fix.
func (nl *noticeList) noCrawler(files map[string]int64) {
	if len(files) == 0 {
		return
	}
	names := make([]string, 0, len(files))
	var total int64
	for f, n := range files {
		names = append(names, f)
		total += n
	}
	sort.Slice(names, func(i, j int) bool {
		if files[names[i]] != files[names[j]] {
			return files[names[i]] > files[names[j]]
		}
		return names[i] < names[j]
	})
	listed := make([]string, len(names))
	for i, f := range names {
		listed[i] = fmt.Sprintf("%s (%d)", f, files[f])
	}
	nl.add(NoticeNoCrawler, total, "%s not judged: %s no crawler (no request record, warcinfo or filedesc record names a known bot, and no file of the same crawl does): %s — give --archive-agent TOKEN for every file, or --archive-agent FILE=TOKEN for one",
		plural(total, "capture", "captures"), plural(int64(len(names)), "archive file names", "archive files name"), listSome(listed, 5))
}

// ipLists names, per bot in the order of most fetches, the published IP
// list that was not given; bots whose operators publish none are listed
// together.
func (nl *noticeList) ipLists(catalog *bots.Catalog, noList map[string]int64) {
	agents := make([]string, 0, len(noList))
	for a := range noList {
		agents = append(agents, a)
	}
	sort.Slice(agents, func(i, j int) bool {
		if noList[agents[i]] != noList[agents[j]] {
			return noList[agents[i]] > noList[agents[j]]
		}
		return agents[i] < agents[j]
	})
	var unpublished []string
	var unpublishedN int64
	for _, a := range agents {
		c := noList[a]
		b, ok := catalog.Lookup(a)
		if !ok {
			continue // an unknown bot: nobody vouches for it
		}
		if b.IPRangesURL != "" {
			nl.add(NoticeIPListNotGiven, c, "%s publishes IP ranges at %s; none given: %s unchecked, findings attributed to the claimed operator — run 'repaudit ranges fetch --out DIR' and pass --ip-ranges-dir DIR",
				b.Token, b.IPRangesURL, fetches(c))
			continue
		}
		unpublished = append(unpublished, fmt.Sprintf("%s (%d)", b.Token, c))
		unpublishedN += c
	}
	if len(unpublished) > 0 {
		nl.add(NoticeIPListNone, unpublishedN, "%s by bots whose operators publish no IP ranges, unverifiable by IP: %s",
			fetches(unpublishedN), listSome(unpublished, 8))
	}
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
