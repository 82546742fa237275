package table

import "time"

// Each row type below is one output table. The struct tag `parquet` names the
// column (stable across versions: users' SQL depends on it) and the tag `doc`
// documents it; docs/schema.md is generated from these tags (see Tables).
// Supported field types: string, bool, int32, int64, float64, time.Time
// (UTC timestamp, microseconds) and *time.Time (nullable timestamp).

// SchemaVersion changes whenever a column is renamed, removed or changes
// meaning. Adding columns does not change it.
//
// 2: fetches.ip_check no_list split into not_given and not_published
// (fetches.ip_list_url added).
// 3: fetches.identity also verified or spoofed by forward-confirmed
// reverse DNS (audit --dns-dir; fetches.dns_check, dns_evidence added).
// Also 3: robots_versions.redirect_chain added; a robots.txt redirect to
// a capture that is not robots.txt is followed (status_rule redirect),
// so redirect-target-missing means the target has no capture at all.
// Also 3: an agent has one category across a run: the archive crawler of an
// input WARC keeps its archiver category on its request records and its
// archive findings (other and empty before); join columns added.
const SchemaVersion = 3

// Fetch is one row of fetches.parquet: one client request, with the bot's
// identity, its robots.txt view and the verdict.
type Fetch struct {
	FetchTime        time.Time  `parquet:"fetch_time" doc:"Time of the request, UTC, from the log line or WARC-Date."`
	Agent            string     `parquet:"agent" doc:"Product token of the bot (e.g. GPTBot), or the full name a bot gives itself when it has spaces (Kangaroo Bot); never a generic word: a User-Agent that is only a crawler word (bot, spider) gives (unnamed), judged by the * group alone; empty for clients with no bot identity (browsers)."`
	Operator         string     `parquet:"operator" doc:"Operator of the bot per the catalog or card; empty when unknown (a bot the catalog does not know, or a framework such as heritrix or curl)."`
	Category         string     `parquet:"category" doc:"Bot category: ai-training, ai-search, ai-assistant, search, archiver, seo, monitor, feed, other; empty for non-bots."`
	IdentifiedBy     string     `parquet:"identified_by" doc:"How the agent was identified: catalog, robots-group, ua-token, card; empty for non-bots."`
	Identity         string     `parquet:"identity" doc:"verified (signature, published IP range or forward-confirmed reverse DNS confirms it), claimed (User-Agent only), spoofed (a check failed); empty for non-bots."`
	UserTriggered    bool       `parquet:"user_triggered" doc:"True for user-triggered fetchers (ai-assistant category or card trigger=fetcher), which some operators exempt from robots.txt."`
	ClientIP         string     `parquet:"client_ip" doc:"Client IP address as logged; empty when unknown. When the log's client field is an X-Forwarded-For list, its first address."`
	ForwardedFor     string     `parquet:"forwarded_for" doc:"The whole X-Forwarded-For chain when the log's client field lists several addresses (nginx/Apache with a forwarded-for client field), comma-and-space separated, first address first; empty otherwise."`
	Method           string     `parquet:"method" doc:"HTTP method."`
	URL              string     `parquet:"url" doc:"Absolute URL of the request."`
	URLHostName      string     `parquet:"url_host_name" doc:"Host name of the URL, lower-case, without port."`
	URLPath          string     `parquet:"url_path" doc:"Path and query of the URL as requested."`
	FetchStatus      int32      `parquet:"fetch_status" doc:"HTTP status the server answered; 0 when unknown."`
	ResponseBytes    int64      `parquet:"response_bytes" doc:"Response size in bytes as the log gives it (%b, %O, body_bytes_sent, sc-bytes, ...: body or whole response, as the log's format defines it); -1 when the source does not say, as for WARC request records and '-' in a log."`
	UserAgent        string     `parquet:"user_agent" doc:"User-Agent header as sent."`
	Referrer         string     `parquet:"referrer" doc:"Referer header as sent or logged; empty when absent or logged as '-'."`
	RobotsView       string     `parquet:"robots_view" doc:"The bot's robots.txt view: fresh, stale, unchecked (never fetched robots.txt: judged against the grace window), none (no known robots.txt version); empty when not judged."`
	RobotsViewTime   *time.Time `parquet:"robots_view_time" doc:"When the bot last fetched robots.txt on this authority before this request; null when it never did."`
	RobotsViewStatus int32      `parquet:"robots_view_status" doc:"HTTP status the bot got for that robots.txt fetch; 0 when unknown or never fetched."`
	RobotsVerdict    string     `parquet:"robots_verdict" doc:"allowed, disallowed, unreachable (view was a 5xx: complete disallow), possible (disallowed by only some versions of the grace window), not_judged."`
	RobotsNote       string     `parquet:"robots_note" doc:"Why the fetch was not judged (robots_verdict not_judged): no bot identity, no host and no --site, no known robots.txt version, unknown content; empty when judged."`
	NotJudgedReason  string     `parquet:"not_judged_reason" doc:"Code of why the fetch was not judged: no-bot-identity, no-host (pass --site), no-robots-version (give a robots.txt source), before-first-version (the fetch predates the first known version), unknown-content; empty when judged."`
	RobotsVersionID  string     `parquet:"robots_version_id" doc:"Id of the robots.txt version the verdict used (robots_versions.version_id); empty when none."`
	MatchedGroup     string     `parquet:"matched_group" doc:"User-agent(s) of the robots.txt group applied, e.g. 'gptbot' or '*'; empty when no group applied."`
	MatchedRule      string     `parquet:"matched_rule" doc:"The deciding rule as written, e.g. 'Disallow: /private/'; empty when no rule matched."`
	MatchedLine      int32      `parquet:"matched_line" doc:"Line number of the deciding rule in that robots.txt version; 0 when none."`
	ACAPCrawl        string     `parquet:"acap_crawl" doc:"ACAP crawl permission for this agent and path: allowed, prohibited, or empty when the version has no applicable ACAP record."`
	UsagePrefs       string     `parquet:"usage_prefs" doc:"AI usage preferences in force for this agent and path in the bot's view: the Content-Signal and Content-Usage labels of the robots.txt version the verdict used (the one in force at the fetch for a bot that never fetched robots.txt), comma-joined and sorted, labels and values as written (ai-train=no,search=yes,train-ai=n); empty when none, and for /robots.txt."`
	Signature        string     `parquet:"signature" doc:"Web Bot Auth signature outcome: verified, invalid, unverified (no key to check against), unsigned, unrecorded (the source cannot show signature headers)."`
	SignatureReasons string     `parquet:"signature_reasons" doc:"Comma-separated named reasons behind the signature outcome (bad-signature, expired, key-unknown, ...)."`
	SignatureKeyID   string     `parquet:"signature_keyid" doc:"keyid of the signature (RFC 7638 JWK thumbprint)."`
	SignatureAgent   string     `parquet:"signature_agent" doc:"Signature-Agent (card client_id, directory or JWKS URL) the key was looked up under."`
	IPCheck          string     `parquet:"ip_check" doc:"Client IP against the bot's published ranges at fetch time: in_range, not_in_range, not_given (the bot publishes a list, ip_list_url, but none was given: pass --ip-ranges-dir), not_published (no published list is known for the bot: neither the bot catalog nor its card names one), empty when not checked (no client address). Schema 1 wrote no_list for both not_given and not_published."`
	IPListURL        string     `parquet:"ip_list_url" doc:"When ip_check is not_given: the URL of the published list that was not given (the bot catalog's ip_ranges_url, else the card's ips_uri); empty otherwise."`
	DNSCheck         string     `parquet:"dns_check" doc:"Client IP against forward-confirmed reverse DNS, from the --dns-dir snapshot ('repaudit dns verify') in force at fetch time, for bots whose catalog entry has rdns_suffixes: confirmed (a PTR name under the suffixes resolves back to the address: verified), name_outside_suffixes or forward_mismatch (spoofed, unless the published IP ranges confirm the address), no_ptr, lookup_error (prove nothing); empty when not checked (no --dns-dir, address not in the snapshot, or a bot without suffixes)."`
	DNSEvidence      string     `parquet:"dns_evidence" doc:"When dns_check is set: the PTR name(s), the forward answer, the snapshot file, its resolver and the lookup time, to check by hand."`
	Findings         int32      `parquet:"findings" doc:"Number of violations rows this fetch produced."`
	CardURL          string     `parquet:"card_url" doc:"Signature Agent Card the bot's identity was matched to (by User-Agent or by the Signature-Agent of its signature): its client_id, else where it was read; empty when none."`
	CardCompliance   string     `parquet:"card_rfc9309_compliance" doc:"That card's rfc9309-compliance declaration (draft-meunier-webbotauth-registry-04 §3.2.3): true, false, or empty when the card does not say or there is no card. A registry-03 card's list of directives reads as true when it names one."`
	CardPurpose      string     `parquet:"card_purpose" doc:"That card's purpose (registry-04 §3.2.5), e.g. search or tdm, as written (an array comma-joined); empty when none."`
	SourceFormat     string     `parquet:"source_format" doc:"Input format: combined, common, nginx-json, warc, ..."`
	SourceFile       string     `parquet:"source_file" doc:"Input file the fetch was read from."`
	SourceLine       int64      `parquet:"source_line" doc:"Line number in source_file (logs); 0 for WARC."`
	WARCRecordOffset int64      `parquet:"warc_record_offset" doc:"Byte offset of the WARC request record in source_file; -1 for logs."`
	WARCRecordLength int64      `parquet:"warc_record_length" doc:"Stored length of the WARC record; 0 for logs."`
	WARCFilename     string     `parquet:"warc_filename" doc:"Base name of source_file for WARC rows (the name the archive was stored under, as in Common Crawl's index, whose warc_filename is a path that ends in it; not the warcinfo record's WARC-Filename); empty for logs."`
	ContentDigest    string     `parquet:"content_digest" doc:"WARC-Payload-Digest of the response paired with the request record (or of the capture itself), as Common Crawl's index writes it: the SHA-1 in base32 without its 'sha1:' label (other algorithms keep theirs); empty for logs and records without one."`
	ContentMIMEType  string     `parquet:"content_mime_type" doc:"Media type of that response's Content-Type header, lower-case, without parameters (text/html), as Common Crawl's content_mime_type; empty for logs and when absent."`
	Authority        string     `parquet:"authority" doc:"scheme://host[:port] the fetch was judged under (robots_versions.authority), else the request's own (scheme http when the source does not say); empty when the request names no host and no --site is known."`
	IsRobotsTxt      bool       `parquet:"is_robots_txt" doc:"True for a request of /robots.txt (the path, without query), which builds the bot's robots.txt view and is always allowed."`
	URLSurtKey       string     `parquet:"url_surtkey" doc:"SURT key of url as Common Crawl's index (url_surtkey) and pywb make it (the Python surt library's default canonicaliser), e.g. com,example)/private/a; empty when url cannot be keyed."`
}

// Violation is one row of violations.parquet: a finding with its evidence.
type Violation struct {
	Kind              string     `parquet:"kind" doc:"Finding kind (see docs/semantics.md): disallowed_fetch, fetch_while_unreachable, stale_robots, unchecked_disallowed, possible_violation, noindex_indexed, nosnippet_snippeted, acap_prohibited, usage_reserved, retention_expired, captured_while_disallowed, unsigned_claimant, invalid_signature, ip_not_published, crawl_delay_ignored, rdns_mismatch."`
	Severity          string     `parquet:"severity" doc:"high, medium, low or info."`
	FetchTime         time.Time  `parquet:"fetch_time" doc:"Time of the fetch, index entry or capture the finding is about, UTC."`
	Agent             string     `parquet:"agent" doc:"Product token of the bot."`
	Operator          string     `parquet:"operator" doc:"Operator of the bot. Findings by spoofed clients are never attributed to the operator: identity says spoofed."`
	Category          string     `parquet:"category" doc:"Bot category."`
	Identity          string     `parquet:"identity" doc:"verified, claimed or spoofed."`
	UserTriggered     bool       `parquet:"user_triggered" doc:"True for user-triggered fetchers."`
	URL               string     `parquet:"url" doc:"URL concerned."`
	URLHostName       string     `parquet:"url_host_name" doc:"Host name of the URL."`
	URLPath           string     `parquet:"url_path" doc:"Path and query of the URL."`
	ClientIP          string     `parquet:"client_ip" doc:"Client IP of the fetch; empty when not a fetch finding."`
	Evidence          string     `parquet:"evidence" doc:"Human-readable evidence: enough to check the finding by hand."`
	RobotsVersionID   string     `parquet:"robots_version_id" doc:"robots.txt version the finding relies on; empty when none."`
	RobotsCaptureTime *time.Time `parquet:"robots_capture_time" doc:"Capture time of that robots.txt version."`
	RobotsWARCFile    string     `parquet:"robots_warc_filename" doc:"WARC file holding that robots.txt capture."`
	RobotsWARCOffset  int64      `parquet:"robots_warc_record_offset" doc:"Offset of that robots.txt capture in its WARC file; -1 when none."`
	RobotsStatus      int32      `parquet:"robots_status" doc:"HTTP status of that robots.txt version (or of the bot's own robots.txt fetch)."`
	RobotsSource      string     `parquet:"robots_source" doc:"Where that robots.txt version came from: warc, wayback, file, git or dir (robots_versions.source)."`
	MatchedGroup      string     `parquet:"matched_group" doc:"User-agent(s) of the deciding robots.txt group."`
	MatchedRule       string     `parquet:"matched_rule" doc:"Deciding rule as written."`
	MatchedLine       int32      `parquet:"matched_line" doc:"Line number of the deciding rule; 0 when none."`
	Directive         string     `parquet:"directive" doc:"The header line or meta tag that carried the directive (noindex_indexed, nosnippet_snippeted, retention_expired)."`
	Usage             string     `parquet:"usage" doc:"usage_reserved: the usage label that reserved the URL for the bot's purpose, as written: ai-train, ai-input, search (Content-Signal) or train-ai, search (Content-Usage)."`
	SignatureReason   string     `parquet:"signature_reason" doc:"Named signature failure reason(s)."`
	ObservedInterval  float64    `parquet:"observed_interval_seconds" doc:"crawl_delay_ignored: observed interval between two fetches, seconds."`
	CrawlDelay        float64    `parquet:"crawl_delay_seconds" doc:"crawl_delay_ignored: the Crawl-delay of the group, seconds."`
	DueDate           *time.Time `parquet:"due_date" doc:"retention_expired: when the retention ended."`
	SourceFile        string     `parquet:"source_file" doc:"Input file of the fetch, index entry or capture."`
	SourceLine        int64      `parquet:"source_line" doc:"Line number in source_file (logs, listings); 0 for WARC."`
	WARCRecordOffset  int64      `parquet:"warc_record_offset" doc:"Offset of the WARC record in source_file; -1 for logs."`
	WARCRecordLength  int64      `parquet:"warc_record_length" doc:"Stored length of the WARC record; 0 for logs."`
	WARCFilename      string     `parquet:"warc_filename" doc:"Base name of source_file for findings about a WARC record (as fetches.warc_filename); empty otherwise."`
	ContentDigest     string     `parquet:"content_digest" doc:"Payload digest of the fetch's or capture's response, as fetches.content_digest; empty when unknown."`
	ContentMIMEType   string     `parquet:"content_mime_type" doc:"Media type of that response, as fetches.content_mime_type; empty when unknown."`
	URLSurtKey        string     `parquet:"url_surtkey" doc:"SURT key of url, as fetches.url_surtkey."`
}

// RobotsVersion is one row of robots_versions.parquet: one capture of a
// robots.txt file and how long it was in force.
type RobotsVersion struct {
	VersionID         string     `parquet:"version_id" doc:"Stable id of the version: authority and capture time, with a short digest."`
	Authority         string     `parquet:"authority" doc:"scheme://host[:port] the version governs."`
	URLHostName       string     `parquet:"url_host_name" doc:"Host name of the authority."`
	URL               string     `parquet:"url" doc:"URL captured (the robots.txt URL)."`
	FetchTime         time.Time  `parquet:"fetch_time" doc:"Capture time (WARC-Date)."`
	ValidFrom         time.Time  `parquet:"valid_from" doc:"Start of the validity interval: the capture time, or for a row whose status_rule is unreachable-30d-unavailable, the moment continuous unreachability passed --unreachable-after."`
	ValidUntil        *time.Time `parquet:"valid_until" doc:"End of the validity interval (the next capture of the same authority that is a different version: identical consecutive captures are collapsed, see captures); null for the latest."`
	FetchStatus       int32      `parquet:"fetch_status" doc:"HTTP status of the capture."`
	Effect            string     `parquet:"effect" doc:"rules (2xx parsed, or the rules of a redirect target), allow_all (4xx unavailable, more than five redirects, a redirect loop, or unreachable longer than --unreachable-after), disallow_all (5xx or no response: unreachable), unknown (content not in the inputs; never produces a finding)."`
	StatusRule        string     `parquet:"status_rule" doc:"Which RFC 9309 §2.3.1 rule applied: success, redirect, too-many-redirects, redirect-loop, unavailable, unreachable, unreachable-30d-unavailable, not-modified (a 304: the previous content); unknown content: redirect-target-missing, redirect-no-location, unparseable-response, unexpected-status, revisit-unresolved."`
	RedirectTarget    string     `parquet:"redirect_target" doc:"Final URL of a followed redirect chain; empty otherwise."`
	RedirectChain     string     `parquet:"redirect_chain" doc:"The redirect chain followed (RFC 9309 §2.3.1.2), each URL with its status, joined by ' -> ' ('https://a.example/robots.txt 301 -> https://a.example/login 200'); a URL is followed by (loop) or (not in the inputs) where the chain ended so; empty when the capture is no redirect."`
	ContentDigest     string     `parquet:"content_digest" doc:"SHA-256 of the body, hex; empty when no body."`
	Size              int64      `parquet:"size" doc:"Body size in bytes as captured."`
	Truncated         bool       `parquet:"truncated" doc:"True when the body exceeded the parsing limit; rules past it are ignored."`
	Groups            int32      `parquet:"groups" doc:"Number of groups."`
	Rules             int32      `parquet:"rules" doc:"Number of allow/disallow rules."`
	Diagnostics       int32      `parquet:"diagnostics" doc:"Number of lines the parser could not use (see robots_rules kind=diagnostic)."`
	HasACAP           bool       `parquet:"has_acap" doc:"True when the file carries ACAP records."`
	WARCFilename      string     `parquet:"warc_filename" doc:"WARC file of the capture; empty when the version is not a WARC record (see source)."`
	WARCRecordOffset  int64      `parquet:"warc_record_offset" doc:"Offset of the capture record; -1 when not a WARC record."`
	WARCRecordLength  int64      `parquet:"warc_record_length" doc:"Stored length of the capture record."`
	WARCRecordID      string     `parquet:"warc_record_id" doc:"WARC-Record-ID of the capture."`
	Source            string     `parquet:"source" doc:"Where the version came from: warc (a capture in an input WARC), wayback (a Wayback Machine capture saved by repaudit robots history), file (--robots FILE[@TIME] or a robots.txt among the inputs), git (a commit, --robots-git), dir (a dated snapshot, --robots-dir)."`
	SourceRef         string     `parquet:"source_ref" doc:"What to open to check it: the file, REPO@COMMIT:PATH for git, the snapshot file, the Wayback URL; empty for WARC captures (see warc_filename)."`
	AssumedWholeRange bool       `parquet:"assumed_whole_range" doc:"True when the version was given without a time and is assumed in force for the whole data range (from the earliest time in the data)."`
	Captures          int32      `parquet:"captures" doc:"Captures of robots.txt the version stands for: its own and the identical consecutive captures of the authority collapsed into it (same status rule, effect, status, redirect and content digest); 1 when none. A 30-day segment repeats its version's count."`
	LastCaptureTime   time.Time  `parquet:"last_capture_time" doc:"Time of the last capture the version stands for (fetch_time when captures is 1)."`
}

// RobotsRule is one row of robots_rules.parquet: one line of one robots.txt
// version as the parser understood it.
type RobotsRule struct {
	VersionID string `parquet:"version_id" doc:"robots_versions.version_id."`
	Line      int32  `parquet:"line" doc:"Line number in the file (1-based)."`
	Kind      string `parquet:"kind" doc:"user-agent, allow, disallow, crawl-delay, sitemap, acap, other, diagnostic."`
	Group     string `parquet:"group" doc:"User-agents of the group this line belongs to, comma-separated; empty outside groups."`
	Value     string `parquet:"value" doc:"The value as written (pattern, token, seconds, URL, or the whole line for acap/other)."`
	Note      string `parquet:"note" doc:"Parser note: diagnostic code and message, or how a lenient reading was applied."`
}

// Directive is one row of directives.parquet: one effective rule for one
// token on one capture.
type Directive struct {
	URL              string     `parquet:"url" doc:"URL of the capture."`
	URLHostName      string     `parquet:"url_host_name" doc:"Host name of the URL."`
	FetchTime        time.Time  `parquet:"fetch_time" doc:"Capture time."`
	Token            string     `parquet:"token" doc:"Product token the rule applies to, or '*' for all."`
	Rule             string     `parquet:"rule" doc:"noindex, nosnippet, none, nofollow, noarchive, noimageindex, max-snippet, unavailable_after, all, or an unknown rule as written."`
	Value            string     `parquet:"value" doc:"Rule value (max-snippet length, unavailable_after date as written)."`
	ValueTime        *time.Time `parquet:"value_time" doc:"unavailable_after parsed to UTC; null otherwise."`
	Via              string     `parquet:"via" doc:"robots-tag (header), x-robots-tag (header) or meta."`
	Evidence         string     `parquet:"evidence" doc:"The header line or meta tag that carried the rule."`
	WARCFilename     string     `parquet:"warc_filename" doc:"WARC file of the capture."`
	WARCRecordOffset int64      `parquet:"warc_record_offset" doc:"Offset of the capture record."`
}

// Retention is one row of retention.parquet: what an archive may do with
// one archived record as of --as-of.
type Retention struct {
	URL              string     `parquet:"url" doc:"URL of the archived record."`
	URLHostName      string     `parquet:"url_host_name" doc:"Host name of the URL."`
	FetchTime        time.Time  `parquet:"fetch_time" doc:"Capture time."`
	Action           string     `parquet:"action" doc:"keep, delete, embargo (keep but do not show), review (a person must decide)."`
	Reason           string     `parquet:"reason" doc:"Why: e.g. acap-time-limit, unavailable_after, acap-preserve-prohibited, acap-present-prohibited, take-down, captured-while-disallowed, no-restriction."`
	DueDate          *time.Time `parquet:"due_date" doc:"When the action is or was due; null for keep without limit."`
	Evidence         string     `parquet:"evidence" doc:"The ACAP record, header or meta tag with its location."`
	Agent            string     `parquet:"agent" doc:"Archive crawler the record is judged for."`
	RecordType       string     `parquet:"record_type" doc:"WARC record type."`
	FetchStatus      int32      `parquet:"fetch_status" doc:"HTTP status of the capture."`
	WARCFilename     string     `parquet:"warc_filename" doc:"WARC file."`
	WARCRecordOffset int64      `parquet:"warc_record_offset" doc:"Offset of the record."`
	WARCRecordLength int64      `parquet:"warc_record_length" doc:"Stored length of the record."`
	WARCRecordID     string     `parquet:"warc_record_id" doc:"WARC-Record-ID."`
	URLSurtKey       string     `parquet:"url_surtkey" doc:"SURT key of url, as fetches.url_surtkey."`
}

// Problem is one row of problems.parquet: an input line or record that could
// not be used, and why.
type Problem struct {
	SourceFile string `parquet:"source_file" doc:"Input file."`
	SourceLine int64  `parquet:"source_line" doc:"Line number (line-oriented inputs); 0 otherwise."`
	Offset     int64  `parquet:"offset" doc:"Byte offset (WARC and binary inputs); -1 otherwise."`
	Code       string `parquet:"code" doc:"Stable problem code (docs/problems.md lists every one), e.g. log-unparsed-line, warc-truncated, input-unreadable."`
	Severity   string `parquet:"severity" doc:"error (input lost), warning (read leniently), info."`
	Message    string `parquet:"message" doc:"What went wrong, for a person."`
}

// Sink receives rows. Implementations decide where they go (Parquet files,
// memory in tests). Methods may be called from one goroutine only unless the
// implementation says otherwise.
type Sink interface {
	Fetch(*Fetch) error
	Violation(*Violation) error
	RobotsVersion(*RobotsVersion) error
	RobotsRule(*RobotsRule) error
	Directive(*Directive) error
	Retention(*Retention) error
	Problem(*Problem) error
}

// Finisher is a Sink that can finish one table before the others, to
// free what it holds for it: Finish(name) says that no row of table name
// follows. A writer that knows it wrote a table's last row calls Finish
// (through the function of that name); a sink that several writers
// share must not implement it.
type Finisher interface {
	Finish(name string) error
}

// Finish tells s that table name gets no more rows, when s is a
// Finisher; it does nothing otherwise.
func Finish(s Sink, name string) error {
	if f, ok := s.(Finisher); ok {
		return f.Finish(name)
	}
	return nil
}

// Info names one table and the row type behind it.
type Info struct {
	Name string // table name, also the file stem: fetches -> fetches.parquet
	Doc  string // one-paragraph description
	Row  any    // zero value of the row type
}

// Tables lists every output table in a fixed order.
var Tables = []Info{
	{"fetches", "One row per fetch (log line or WARC request record) with the bot's identity, its robots.txt view, the verdict and its evidence.", Fetch{}},
	{"violations", "One row per finding, with human-checkable evidence and the source location of the fetch, listing entry or capture.", Violation{}},
	{"robots_versions", "The reconstructed robots.txt timeline: one row per capture of a robots.txt, with its validity interval and status semantics.", RobotsVersion{}},
	{"robots_rules", "Every line of every robots.txt version as parsed, with line numbers, so evidence can be checked.", RobotsRule{}},
	{"directives", "Effective Robots-Tag, X-Robots-Tag and meta robots rules per capture and token, with the header or tag that carried each.", Directive{}},
	{"retention", "One row per archived record: the action an archive should take as of --as-of, why, and by when.", Retention{}},
	{"problems", "Every input line or record that could not be used, or was read leniently, with its location.", Problem{}},
}

// Collector is a Sink that keeps every row in memory; for tests and small
// runs.
type Collector struct {
	Fetches        []Fetch
	Violations     []Violation
	RobotsVersions []RobotsVersion
	RobotsRules    []RobotsRule
	Directives     []Directive
	Retentions     []Retention
	Problems       []Problem
}

func (c *Collector) Fetch(r *Fetch) error { c.Fetches = append(c.Fetches, *r); return nil }
func (c *Collector) Violation(r *Violation) error {
	c.Violations = append(c.Violations, *r)
	return nil
}
func (c *Collector) RobotsVersion(r *RobotsVersion) error {
	c.RobotsVersions = append(c.RobotsVersions, *r)
	return nil
}
func (c *Collector) RobotsRule(r *RobotsRule) error {
	c.RobotsRules = append(c.RobotsRules, *r)
	return nil
}
func (c *Collector) Directive(r *Directive) error {
	c.Directives = append(c.Directives, *r)
	return nil
}
func (c *Collector) Retention(r *Retention) error {
	c.Retentions = append(c.Retentions, *r)
	return nil
}
func (c *Collector) Problem(r *Problem) error { c.Problems = append(c.Problems, *r); return nil }
