package evaluate

import (
	"slices"
	"strings"
)

// Finding kinds (violations.kind). The registry below declares each
// once: its severity, its meaning and the columns it fills. docs/findings.md
// explains each to users (its index is rendered from the registry, see
// KindIndex); docs/semantics.md gives the exact rules.
const (
	KindDisallowedFetch         = "disallowed_fetch"
	KindFetchWhileUnreachable   = "fetch_while_unreachable"
	KindStaleRobots             = "stale_robots"
	KindUncheckedDisallowed     = "unchecked_disallowed"
	KindPossibleViolation       = "possible_violation"
	KindNoindexIndexed          = "noindex_indexed"
	KindNosnippetSnippeted      = "nosnippet_snippeted"
	KindACAPProhibited          = "acap_prohibited"
	KindUsageReserved           = "usage_reserved"
	KindRetentionExpired        = "retention_expired"
	KindCapturedWhileDisallowed = "captured_while_disallowed"
	KindUnsignedClaimant        = "unsigned_claimant"
	KindInvalidSignature        = "invalid_signature"
	KindIPNotPublished          = "ip_not_published"
	KindCrawlDelayIgnored       = "crawl_delay_ignored"
	KindRDNSMismatch            = "rdns_mismatch"
)

// Severities (violations.severity). docs/findings.md ("Every finding
// has") says what each level means.
const (
	SeverityHigh   = "high"
	SeverityMedium = "medium"
	SeverityLow    = "low"
	SeverityInfo   = "info"
)

// KindInfo is the registry entry of one finding kind.
type KindInfo struct {
	Name     string // violations.kind
	Severity string // violations.severity of every finding of the kind
	Meaning  string // one sentence for docs/findings.md's index
	// Columns are the violations columns, beyond those every finding
	// fills (kind, severity, fetch_time, who, what, evidence and where it
	// came from), that findings of this kind may fill.
	Columns []string
}

// Column sets shared by several kinds.
var (
	// colsVersion name the robots.txt version a finding rests on
	// (setRobotsVersion).
	colsVersion = []string{"robots_version_id", "robots_capture_time", "robots_warc_filename",
		"robots_warc_record_offset", "robots_status", "robots_source"}
	// colsMatch name the deciding robots.txt group and rule.
	colsMatch = []string{"matched_group", "matched_rule", "matched_line"}
	// colsRobots are both: a robots.txt verdict (robotsEvidence).
	colsRobots = cols(colsVersion, colsMatch)
)

// cols joins column lists and single columns into one list.
func cols(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// kindRegistry declares every finding kind, in the fixed order of Kinds.
//
// To add a kind: its constant above and one row here; the code that
// produces it uses the constant (a test refuses literals). Then, as the
// tests ask: append its name to violations.kind's doc tag in
// table/table.go (KindDoc), add a "### `kind` (severity)" section to
// docs/findings.md and rerender its index with
// 'go test ./evaluate -run TestFindingsDoc -update', and make the demo
// (internal/demo) produce one, pinned in cmd/repaudit's
// TestAuditDemoFindings.
var kindRegistry = []KindInfo{
	{KindDisallowedFetch, SeverityHigh, "A bot fetched a URL its own copy of robots.txt disallows for it: a fresh copy, or a stale one the version in force agrees with.", colsRobots},
	{KindFetchWhileUnreachable, SeverityHigh, "A bot fetched pages after its own last robots.txt fetch got a 5xx answer (disallow everything).", colsRobots},
	{KindStaleRobots, SeverityMedium, "A bot's copy of robots.txt was older than the cache lifetime and allowed the URL, and the version in force disallows it.", colsRobots},
	{KindUncheckedDisallowed, SeverityMedium, "A bot that never fetched robots.txt fetched a URL every version it could have had disallows.", colsRobots},
	{KindPossibleViolation, SeverityLow, "A bot that never fetched robots.txt fetched a URL only some version it could have had disallows.", colsRobots},
	{KindNoindexIndexed, SeverityHigh, "A listing shows a URL whose capture in force said noindex for that agent.", []string{"directive"}},
	{KindNosnippetSnippeted, SeverityHigh, "A snippet listing shows a URL whose capture in force said nosnippet.", []string{"directive"}},
	{KindACAPProhibited, SeverityMedium, "An ACAP record prohibits the crawl, index, snippet or archive use made of a URL.",
		cols(colsVersion, []string{"matched_rule", "matched_line", "directive", "due_date"})},
	{KindUsageReserved, SeverityMedium, "A usage label of the bot's robots.txt group says no to the bot's purpose for the URL.",
		cols(colsRobots, []string{"directive", "usage"})},
	{KindRetentionExpired, SeverityMedium, "An archived record is past its end date as of --as-of.",
		cols(colsVersion, []string{"matched_rule", "matched_line", "directive", "due_date"})},
	{KindCapturedWhileDisallowed, SeverityHigh, "An archive's own crawler captured a URL its own view of robots.txt forbade.", colsRobots},
	{KindUnsignedClaimant, SeverityMedium, "A client claims a bot whose Signature Agent Card publishes keys, and its request has no signature.", nil},
	{KindInvalidSignature, SeverityHigh, "A request signature (RFC 9421, Web Bot Auth) is present and fails.", []string{"signature_reason"}},
	{KindIPNotPublished, SeverityHigh, "A client claiming a bot came from an IP outside the ranges the bot publishes.", nil},
	{KindCrawlDelayIgnored, SeverityLow, "Two fetches by a bot on one host came closer together than its group's Crawl-delay.",
		cols(colsVersion, []string{"observed_interval_seconds", "crawl_delay_seconds"})},
	{KindRDNSMismatch, SeverityHigh, "A client claiming a bot came from an address whose reverse DNS names a host outside the operator's domains, or whose name does not resolve back to it.", nil},
}

// Kinds lists every finding kind in a fixed order.
var Kinds = kindNames()

// kindByName indexes the registry.
var kindByName = func() map[string]*KindInfo {
	m := make(map[string]*KindInfo, len(kindRegistry))
	for i := range kindRegistry {
		m[kindRegistry[i].Name] = &kindRegistry[i]
	}
	return m
}()

func kindNames() []string {
	names := make([]string, len(kindRegistry))
	for i, k := range kindRegistry {
		names[i] = k.Name
	}
	return names
}

// KindEntries returns the registry, in the order of Kinds. The caller
// must not modify it.
func KindEntries() []KindInfo { return kindRegistry }

// LookupKind returns the registry entry of a finding kind.
func LookupKind(kind string) (KindInfo, bool) {
	if k, ok := kindByName[kind]; ok {
		return *k, true
	}
	return KindInfo{}, false
}

// Severity returns the severity of a finding kind from the registry
// (docs/semantics.md explains each choice); info for a kind the
// registry does not know, which no producer reports (a test checks).
func Severity(kind string) string {
	if k, ok := kindByName[kind]; ok {
		return k.Severity
	}
	return SeverityInfo
}

// KindDoc is the doc string of violations.kind: the kinds, in order. A
// test keeps table.Violation's doc tag equal to it.
func KindDoc() string {
	return "Finding kind (see docs/semantics.md): " + strings.Join(Kinds, ", ") + "."
}

// KindIndex renders the index of docs/findings.md: one row per kind
// with its severity, meaning and the columns it fills.
func KindIndex() string {
	var b strings.Builder
	b.WriteString("\n| Kind | Severity | Meaning | Also fills |\n|---|---|---|---|\n")
	for _, k := range kindRegistry {
		b.WriteString("| `" + k.Name + "` | " + k.Severity + " | " + k.Meaning + " | " + columnsCell(k.Columns) + " |\n")
	}
	return b.String()
}

// columnsCell renders a kind's columns for KindIndex, the robots.txt
// version's six as one item.
func columnsCell(c []string) string {
	var items []string
	if len(c) >= len(colsVersion) && slices.Equal(c[:len(colsVersion)], colsVersion) {
		items = append(items, "the robots.txt version's `robots_*` columns")
		c = c[len(colsVersion):]
	}
	for _, col := range c {
		items = append(items, "`"+col+"`")
	}
	if len(items) == 0 {
		return "—"
	}
	return strings.Join(items, ", ")
}
