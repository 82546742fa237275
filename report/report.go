package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

// Report is the summary of one audit directory: the manifest's header, the
// overall totals and one Section per report query, in a fixed order.
type Report struct {
	Manifest output.Manifest
	Totals   Section // one row, from totals.sql
	Sections []Section
	// Location is the zone the report's times and days are shown in (the
	// tables themselves stay UTC); Build sets it from Options, UTC when none.
	Location *time.Location
	// Width is the width of the terminal tables of WriteText in columns;
	// 0 means 120. Callers set it from the terminal (COLUMNS).
	Width int
}

// Section is one table of the report.
type Section struct {
	ID      string // stable identifier, used as JSON id and HTML anchor
	Title   string
	Note    string   // one or two sentences shown under the title
	Query   string   // the queries/ file it came from
	Columns []string // column names
	Types   []string // DuckDB type names
	Rows    [][]any  // normalized values (see Result)
	// More counts rows past maxSectionRows that Build left out.
	More int64
	// TextColumns are the columns shown in a terminal table (all when nil),
	// so the text report stays readable in 80-120 columns.
	TextColumns []string
	// Remarks are sentences computed from the data, shown under the note
	// (e.g. how many fetches could not show a signature).
	Remarks []string
	// Lead marks the sections that answer the report's question (what the
	// bots did): every format shows them first, before the notices of
	// what could not be judged and before the other sections.
	Lead bool
}

// Section returns the section with the given id, or nil.
func (r *Report) Section(id string) *Section {
	for i := range r.Sections {
		if r.Sections[i].ID == id {
			return &r.Sections[i]
		}
	}
	return nil
}

// Col returns the index of a column, or -1.
func (s *Section) Col(name string) int {
	for i, c := range s.Columns {
		if c == name {
			return i
		}
	}
	return -1
}

// sectionSpec says how one query becomes one or more sections.
type sectionSpec struct {
	id, title, note, query string
	textCols               []string
	lead                   bool // see Section.Lead
	// split partitions the rows by the value of a column into sections
	// (value -> id, title, note), in the order given.
	split *splitSpec
	// optional sections are left out of the report when they have no
	// rows, or when the audit's fetches table lacks a column in needs (an
	// audit written before the column existed).
	optional bool
	needs    []string
}

type splitSpec struct {
	column string
	parts  []splitPart
}

// splitPart is one section cut from a split query: the rows whose column
// has value, without the columns in drop (constant or empty in this part).
type splitPart struct {
	value, id, title, note string
	drop                   []string
}

// sectionSpecs is the report's content, in order: the lead sections (what
// the bots did) first, then the details. A new section is one entry here
// and one query file in package queries; the writers need no change.
var sectionSpecs = []sectionSpec{
	{id: "findings_by_bot", title: "Findings by bot", query: "findings_by_bot", lead: true,
		note:     "What each bot did, worst first: its findings by severity and kind. Clients that failed a bot's identity check are their own rows, '<agent> (spoofed)', never counted for the bot or its operator.",
		textCols: []string{"agent", "operator", "findings", "high", "medium", "low", "findings_by_kind", "last_seen"}},
	{id: "findings_by_kind", title: "Findings by kind", query: "findings_by_kind",
		note:     "attributed: by verified or claimed bots; spoofed: by clients that failed an identity check, never attributed to an operator.",
		textCols: []string{"kind", "severity", "findings", "attributed", "spoofed", "agents", "hosts", "last_seen"}},
	{query: "bots",
		textCols: []string{"agent", "operator", "fetches", "verified", "claimed", "spoofed", "findings", "findings_by_kind", "last_robots_check"},
		split: &splitSpec{column: "fetcher", parts: []splitPart{
			{"crawler", "crawlers", "Crawlers",
				"Per bot: fetches by identity (verified, claimed; spoofed fetches are counted but their findings are not attributed), findings by kind, last robots.txt check.", nil},
			{"user-triggered", "user_fetchers", "User-triggered fetchers",
				"Fetchers acting for a person (ai-assistant category or card trigger=fetcher); some operators exempt them from robots.txt.", nil},
		}}},
	{id: "compliance_by_bot", title: "Compliance by bot", query: "compliance_by_bot",
		note:     "Per bot and identity: robots.txt fetches, pct_fresh: percentage of page fetches (not /robots.txt) made with a fresh robots.txt view, disallowed: fetches judged disallowed or made while robots.txt was unreachable, usage_reserved: fetches of pages an AI usage preference reserved from the bot's purpose, first and last robots.txt fetch. Spoofed rows are clients that failed the bot's identity check, never its operator.",
		textCols: []string{"agent", "operator", "identity", "fetches", "robots_fetches", "pct_fresh", "disallowed", "usage_reserved", "first_robots_check", "last_robots_check"}},
	{id: "crawl_to_refer", title: "Crawl-to-refer ratio", query: "crawl_to_refer",
		note: "Per operator, as Cloudflare Radar computes it: HTML pages its bots fetched (status 200, not robots.txt or a static asset; spoofed clients left out) for each page a reader fetched coming from one of its products (Referer host from the bot catalog). -: no referrals. Operators whose products the catalog does not list are not shown."},
	{id: "usage_prefs", title: "AI use of your content: preferences in force", query: "usage_prefs",
		note:     "AI usage preferences robots.txt stated, per authority over time: Content-Signal and Content-Usage lines as written with their line numbers, by group, and License URLs. Consecutive versions with the same lines are one span (versions counts them); valid_until empty: in force now; 'no preferences': the versions of that span stated none.",
		textCols: []string{"authority", "valid_from", "valid_until", "versions", "group", "preferences", "licenses"}},
	{id: "usage_reserved", title: "AI use of your content: reserved fetches", query: "usage_reserved",
		note:     "usage_reserved findings per bot, identity and usage label: fetches of pages a preference reserved from the bot's purpose, distinct URLs, the lines that reserved them, first and last seen. Spoofed rows are clients that failed the bot's identity check, never its operator.",
		textCols: []string{"agent", "operator", "identity", "usage", "findings", "urls", "rules", "first_seen", "last_seen"}},
	{id: "crawler_vs_user", title: "Crawlers and user-triggered fetchers", query: "user_triggered",
		note: "Findings exclude spoofed clients."},
	{id: "spoofed", title: "Spoofed traffic", query: "spoofed",
		note:     "Clients that claimed a bot's identity and failed a signature, IP-range or reverse-DNS check. Their findings are kept here, not blamed on the bot's operator.",
		textCols: []string{"claimed_agent", "fetches", "client_ips", "findings", "findings_by_kind", "last_seen"}},
	{query: "traffic_by_bot",
		textCols: []string{"day", "traffic", "agent", "operator", "category", "requests", "size", "unsized", "pct_bytes"},
		split: &splitSpec{column: "period", parts: []splitPart{
			{"total", "traffic_by_bot", "Traffic by bot",
				"Requests and response bytes per bot over the whole range. spoofed: clients that failed a bot's identity check, by claimed token, never counted for the bot or its operator; other: clients that are not bots, for scale. Bytes as the logs give them; unsized: requests whose source gave no size (WARC records, '-' in a log); pct_bytes: percentage of all known bytes.",
				[]string{"period", "day"}},
			{"day", "traffic_per_day", "Traffic by bot per day",
				"The same per {tz} day; pct_bytes is the percentage of that day's known bytes.",
				[]string{"period"}},
		}}},
	{id: "impersonation", title: "Identity checks", query: "impersonation",
		note: "Per claimed bot: identity outcome, published IP range check, signature verdicts, identity findings. Bots with nothing to check are not listed.",
		textCols: []string{"agent", "verified", "claimed", "spoofed", "ip_not_in_range", "sig_invalid",
			"ip_not_published", "invalid_signature"}},
	{id: "signatures", title: "Signature outcomes", query: "signatures",
		note:     "Web Bot Auth verdicts with their named reasons; fetches from sources that cannot show signature headers are under Unverifiable.",
		textCols: []string{"agent", "signature", "reasons", "fetches", "keyids", "last_seen"}},
	{id: "declared_compliance", title: "Declared robots.txt compliance, broken", query: "declared_compliance",
		note:     "Bots whose Signature Agent Card declares rfc9309-compliance true (draft-meunier-webbotauth-registry-04 §3.2.3) while their verified fetches (identity confirmed by a signature or published IP range; claimed and spoofed clients never count) have robots.txt findings: the card, its declaration and purpose, the verified fetches, and their robots.txt findings by kind.",
		textCols: []string{"agent", "card_url", "declaration", "purpose", "verified_fetches", "robots_findings", "findings_by_kind", "last_seen"},
		optional: true, needs: []string{"card_url", "card_rfc9309_compliance", "card_purpose"}},
	{id: "unverifiable", title: "Unverifiable", query: "unverifiable",
		note: "Bot fetches whose source cannot show signature headers are unverifiable, not violations."},
	{id: "top_paths", title: "Top offending paths", query: "top_paths",
		textCols: []string{"url_host_name", "url_path", "findings", "spoofed", "agents", "kinds"}},
	{id: "findings_over_time", title: "Findings per bot per day", query: "findings_over_time",
		note: "{tz} days. Spoofed clients are their own series."},
	{id: "robots_timeline", title: "robots.txt versions", query: "robots_timeline",
		note:     "effect: rules (2xx), allow_all (4xx, too many redirects), disallow_all (5xx, unreachable); valid_until empty for the latest version.",
		textCols: []string{"authority", "valid_from", "valid_until", "fetch_status", "effect", "status_rule", "rules"}},
	{id: "retention_due", title: "Retention actions", query: "retention_due",
		note:     "Archive records to delete, embargo or review, due as of the audit's as-of time, and those still to come.",
		textCols: []string{"action", "reason", "status", "records", "earliest_due", "example_url"}},
	{id: "retention_upcoming", title: "Retention deadlines to come", query: "retention_upcoming",
		note:     "Archive records kept as of the audit's as-of time whose ACAP time-limit or unavailable_after ends later, earliest first (at most 50); when one passes, the record's action changes. repaudit export lists them too.",
		textCols: []string{"due_date", "reason", "url", "record"}},
	{id: "problems", title: "Input problems", query: "problems",
		note:     "Input lines and records that could not be used or were read leniently; the example is the first occurrence.",
		textCols: []string{"code", "severity", "problems", "files", "example_location", "example_message"}},
}

// Options say how Build shapes a report.
type Options struct {
	// Location is the zone report times are shown in and per-day sections
	// count days in; nil means UTC. The tables are not changed.
	Location *time.Location
}

// zoneNote puts the zone's name into a note's {tz}.
func zoneNote(note string, loc *time.Location) string {
	return strings.ReplaceAll(note, "{tz}", loc.String())
}

// localize converts the timestamps of rows to loc in place. DATE columns
// are left alone: the queries already made them days of the zone.
func localize(rows [][]any, types []string, loc *time.Location) {
	var conv func(v any) any
	conv = func(v any) any {
		switch x := v.(type) {
		case time.Time:
			return x.In(loc)
		case []any:
			for i := range x {
				x[i] = conv(x[i])
			}
		case map[string]any:
			for k, e := range x {
				x[k] = conv(e)
			}
		}
		return v
	}
	for _, row := range rows {
		for i, v := range row {
			if !isDate(types[i]) {
				row[i] = conv(v)
			}
		}
	}
}

// dropColumns removes the named columns from the section.
func (s *Section) dropColumns(names []string) {
	var keep []int
	for i, c := range s.Columns {
		if !slices.Contains(names, c) {
			keep = append(keep, i)
		}
	}
	cols, types := make([]string, len(keep)), make([]string, len(keep))
	for j, i := range keep {
		cols[j], types[j] = s.Columns[i], s.Types[i]
	}
	rows := make([][]any, len(s.Rows))
	for r, row := range s.Rows {
		rows[r] = make([]any, len(keep))
		for j, i := range keep {
			rows[r][j] = row[i]
		}
	}
	s.Columns, s.Types, s.Rows = cols, types, rows
}

// zone is the name of the report's time zone.
func (r *Report) zone() string {
	if r.Location == nil {
		return "UTC"
	}
	return r.Location.String()
}

// manifestTime shows one of the manifest's RFC 3339 times in the report's
// zone; other text is returned as it is.
func (r *Report) manifestTime(s string) string {
	if r.Location == nil || r.Location == time.UTC {
		return s
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.In(r.Location).Format(time.RFC3339Nano)
}

// total returns a named value of the totals row as int64 (0 when absent).
func (r *Report) total(name string) int64 {
	i := r.Totals.Col(name)
	if i < 0 || len(r.Totals.Rows) == 0 {
		return 0
	}
	n, _ := r.Totals.Rows[0][i].(int64)
	return n
}

// plural writes n and the noun, in the plural unless n is 1.
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// summaryLines are the headline numbers followed by the notices, as JSON's
// summary holds them.
func (r *Report) summaryLines() []string {
	lines := r.headlineLines()
	for _, n := range r.noticeLines() {
		lines = append(lines, noticesTitle+": "+n)
	}
	return lines
}

// noticeLines are what the audit judged less than it could, and the fix
// (the manifest's notices): a run that judged nothing must say why. The
// text, Markdown and HTML reports show them together after the lead
// sections, under noticesTitle.
func (r *Report) noticeLines() []string {
	var lines []string
	for _, n := range r.Manifest.Notices {
		lines = append(lines, n.Message)
	}
	return lines
}

// noticesTitle heads the notices; JSON's summary prefixes each with it.
const noticesTitle = "Judged less than it could"

// split returns the lead sections and the others, each in report order.
func (r *Report) split() (lead, rest []*Section) {
	for i := range r.Sections {
		if r.Sections[i].Lead {
			lead = append(lead, &r.Sections[i])
		} else {
			rest = append(rest, &r.Sections[i])
		}
	}
	return lead, rest
}

// headlineLines are the report's headline numbers, shared by every format.
func (r *Report) headlineLines() []string {
	lines := []string{
		fmt.Sprintf("%s: %d by %s, %d by other clients; %d judged against robots.txt.",
			plural(r.total("fetches"), "fetch", "fetches"), r.total("bot_fetches"), plural(r.total("bots"), "bot", "bots"),
			r.total("other_fetches"), r.total("judged")),
		fmt.Sprintf("%s: %d attributed to bots, %d by spoofed clients (not attributed to any operator).",
			plural(r.total("findings"), "finding", "findings"), r.total("attributed_findings"), r.total("spoofed_findings")),
		fmt.Sprintf("%s on %s.", plural(r.total("robots_versions"), "robots.txt version", "robots.txt versions"),
			plural(r.total("authorities"), "authority", "authorities")),
	}
	if l := archiveCrawlersLine(r.Manifest.ArchiveCrawlers); l != "" {
		lines = append(lines, l)
	}
	if n := r.total("problems"); n > 0 {
		lines = append(lines, fmt.Sprintf("%s (see Input problems).", plural(n, "input problem", "input problems")))
	}
	return lines
}

// archiveCrawlersLine names the crawler each WARC file is attributed to:
// "Archive crawler: heritrix (a.warc.gz, b.warc.gz)." or, with several,
// "Archive crawlers: heritrix (a.warc.gz); wpull (b.warc.gz).". Files
// whose crawler is unknown are left out; "" when none is known.
func archiveCrawlersLine(cs []output.ArchiveCrawler) string {
	var agents []string
	files := make(map[string][]string)
	for _, c := range cs {
		if c.Agent == "" {
			continue
		}
		if _, ok := files[c.Agent]; !ok {
			agents = append(agents, c.Agent)
		}
		files[c.Agent] = append(files[c.Agent], filepath.Base(c.File))
	}
	if len(agents) == 0 {
		return ""
	}
	parts := make([]string, len(agents))
	for i, a := range agents {
		parts[i] = a + " (" + strings.Join(files[a], ", ") + ")"
	}
	label := "Archive crawler: "
	if len(agents) > 1 {
		label = "Archive crawlers: "
	}
	return label + strings.Join(parts, "; ") + "."
}

// tableCount is the row count of one table.
type tableCount struct {
	Name string
	N    int64
}

// countsInOrder lists the manifest's row counts in table order, then any
// table this version does not know, by name.
func (r *Report) countsInOrder() []tableCount {
	var out []tableCount
	seen := make(map[string]bool)
	for _, t := range table.Tables {
		if n, ok := r.Manifest.Counts[t.Name]; ok {
			out = append(out, tableCount{t.Name, n})
			seen[t.Name] = true
		}
	}
	var extra []string
	for name := range r.Manifest.Counts {
		if !seen[name] {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, name := range extra {
		out = append(out, tableCount{name, r.Manifest.Counts[name]})
	}
	return out
}
