package problem

// Problem codes, by the input they concern. The registry below gives each
// its severity and meaning; producers use these constants, never string
// literals (a test checks), so a code cannot be reported without being
// documented.

// WARC and ARC files (package warc).
const (
	WARCTruncated          Code = "warc-truncated"
	WARCCorruptCompression Code = "warc-corrupt-compression"
	WARCTrailingGarbage    Code = "warc-trailing-garbage"
	WARCGzipChecksum       Code = "warc-gzip-checksum"
	WARCZstdDictionary     Code = "warc-zstd-dictionary"
	WARCZstdWindow         Code = "warc-zstd-window"
	WARCSharedMember       Code = "warc-shared-gzip-member"
	WARCProblemsDropped    Code = "warc-problems-dropped"
	WARCGarbage            Code = "warc-garbage"
	WARCNoContentLength    Code = "warc-missing-content-length"
	WARCBadContentLength   Code = "warc-bad-content-length"
	WARCHeaderTooLong      Code = "warc-header-too-long"
	WARCHeaderLine         Code = "warc-header-line"
	WARCBadDate            Code = "warc-bad-date"
	WARCImpreciseDate      Code = "warc-imprecise-date"
	WARCMissingType        Code = "warc-missing-type"
	WARCMissingNewlines    Code = "warc-missing-newlines"
	WARCARCHeader          Code = "warc-arc-bad-header"
	WARCLengthPastMember   Code = "warc-length-past-member"
	WARCHTTPStatusLine     Code = "warc-http-status-line"
	WARCHTTPHeaderLine     Code = "warc-http-header-line"
	WARCHTTPHeaderLong     Code = "warc-http-header-too-long"
	WARCBadChunk           Code = "warc-payload-bad-chunk"
	WARCNotChunked         Code = "warc-payload-not-chunked"
	WARCNotEncoded         Code = "warc-payload-not-encoded"
	WARCDecode             Code = "warc-payload-decode"
	WARCUnknownCoding      Code = "warc-payload-unknown-coding"
	WARCRevisitReread      Code = "warc-revisit-reread"
)

// Access logs (package accesslog) and their order (package audit).
const (
	LogUnparsedLine     Code = "log-unparsed-line"
	LogLineTooLong      Code = "log-line-too-long"
	LogBadTime          Code = "log-bad-time"
	LogBadRequest       Code = "log-bad-request"
	LogBadField         Code = "log-bad-field"
	LogTruncated        Code = "log-truncated"
	LogCorrupt          Code = "log-corrupt"
	LogCompressionLimit Code = "log-compression-limit"
	LogNoFields         Code = "log-no-fields"
	LogProblemsDropped  Code = "log-problems-dropped"
	LogNotRequest       Code = "log-not-request"
	LogLocalTime        Code = "log-local-time"
	LogNothingRead      Code = "log-nothing-read"
	LogNewestFirst      Code = "log-newest-first"
	LogOutOfOrder       Code = "log-out-of-order"
)

// Listings given with --index and --snippets (package listing).
const (
	ListingLineTooLong Code = "listing-line-too-long"
	ListingCDXLegend   Code = "listing-cdx-legend"
	ListingBadCDX      Code = "listing-bad-cdx"
	ListingBadCDXJ     Code = "listing-bad-cdxj"
	ListingBadCSV      Code = "listing-bad-csv"
	ListingBadTime     Code = "listing-bad-time"
	ListingBadURL      Code = "listing-bad-url"
)

// Input files as a whole (packages ingest and audit).
const (
	InputUnreadable    Code = "input-unreadable"
	InputEmpty         Code = "input-empty"
	TimeOutlier        Code = "time-outlier"
	AsOfBeforeData     Code = "as-of-before-data"
	InputSkipped       Code = "input-skipped"
	InputDuplicate     Code = "input-duplicate"
	SpoolWriteFailed   Code = "spool-write-failed"
	InputDirUnreadable Code = "input-dir-unreadable"
	InputLinkBroken    Code = "input-link-broken"
	InputLinkLoop      Code = "input-link-loop"
	InputNotRegular    Code = "input-not-regular"
	InputJWKSTrusted   Code = "input-jwks-trusted"
)

// robots.txt sources: --robots-git, --robots-dir, robots.txt captures
// (packages history and evaluate).
const (
	RobotsGitHistoryCut      Code = "robots-git-history-cut"
	RobotsGitUnreadable      Code = "robots-git-unreadable"
	RobotsGitBadLink         Code = "robots-git-bad-link"
	RobotsGitShallow         Code = "robots-git-shallow"
	RobotsSnapshotUndated    Code = "robots-snapshot-undated"
	RobotsSnapshotUnreadable Code = "robots-snapshot-unreadable"
	RobotsSnapshotSameTime   Code = "robots-snapshot-same-time"
	RobotsSourceNoSite       Code = "robots-source-no-site"
	RobotsDirNotHost         Code = "robots-dir-not-host"
	RobotsRevisitUnresolved  Code = "robots-revisit-unresolved"
	BadDefaultAuthority      Code = "evaluate-bad-default-authority"
)

// Response directives: diagnostics of the X-Robots-Tag, Robots-Tag and
// robots meta parser (package extract), reported at their capture. The
// codes are Directive(extract.DiagXxx).
const (
	DirectiveHeaderTruncated Code = directivePrefix + "header-truncated"
	DirectiveSFFallback      Code = directivePrefix + "sf-parse-failed-legacy-used"
	DirectiveBareRule        Code = directivePrefix + "robots-tag-bare-rule"
	DirectiveNoRules         Code = directivePrefix + "robots-tag-member-no-rules"
	DirectiveBadMember       Code = directivePrefix + "robots-tag-bad-member"
	DirectiveRuleFalse       Code = directivePrefix + "rule-false"
	DirectiveBadDate         Code = directivePrefix + "bad-date"
	DirectiveBadValue        Code = directivePrefix + "bad-value"
	DirectiveMetaInBody      Code = directivePrefix + "meta-in-body"
	DirectiveMetaNoContent   Code = directivePrefix + "meta-no-content"
	DirectiveHTMLTruncated   Code = directivePrefix + "html-truncated"
)

// Archive-Embargo response header (draft-nottingham-archive-embargo),
// reported at its capture.
const (
	ArchiveEmbargoMalformed Code = "archive-embargo-malformed"
)

// Signature Agent Cards (package identity).
const (
	CardUnreadable         Code = "card-unreadable"
	CardInvalid            Code = "card-invalid"
	CardBadMember          Code = "card-bad-member"
	CardBadJWKS            Code = "card-bad-jwks"
	CardMemberOutside      Code = "card-member-outside-web-bot-auth"
	CardKeysIgnored        Code = "card-keys-ignored"
	CardLegacyKeys         Code = "card-legacy-keys"
	CardKeysAndJWKSURI     Code = "card-keys-and-jwks-uri"
	CardIPsURINotHTTPS     Code = "card-ips-uri-not-https"
	CardUAPatternTooBroad  Code = "card-ua-pattern-too-broad"
	CardNoClientID         Code = "card-no-client-id"
	CardClientIDNormalized Code = "card-client-id-normalized"
	CardOlderDraftShape    Code = "card-older-draft-shape"
	JWKSUnreadable         Code = "jwks-unreadable"
	JWKTooMany             Code = "jwk-too-many"
	JWKNotObject           Code = "jwk-not-object"
	JWKDuplicate           Code = "jwk-duplicate"
	JWKNoKty               Code = "jwk-no-kty"
	JWKUseNotSig           Code = "jwk-use-not-sig"
	JWKSymmetric           Code = "jwk-symmetric"
	JWKUnsupportedKty      Code = "jwk-unsupported-kty"
	JWKUnsupportedCurve    Code = "jwk-unsupported-curve"
	JWKBadKey              Code = "jwk-bad-key"
	JWKMissingMember       Code = "jwk-missing-member"
	JWKBadBase64           Code = "jwk-bad-base64"
	JWKNoncanonicalBase64  Code = "jwk-noncanonical-base64"
	JWKPrivateMember       Code = "jwk-private-member"
	JWKKidMismatch         Code = "jwk-kid-mismatch"
	JWKExpBeforeNbf        Code = "jwk-exp-before-nbf"
	JWKBadDate             Code = "jwk-bad-date"
	IPListUnreadable       Code = "iplist-unreadable"
	IPListUnmapped         Code = "iplist-unmapped"
	IPListZeroWidthSpace   Code = "iplist-zero-width-space"
	IPListBadTime          Code = "iplist-bad-time"
	IPListBadEntry         Code = "iplist-bad-entry"
	IPListBadPrefix        Code = "iplist-bad-prefix"
	IPListWrongFamily      Code = "iplist-wrong-family"
	IPListHostBits         Code = "iplist-host-bits"
	DNSUnreadable          Code = "dns-snapshot-unreadable"
	DNSBadEntry            Code = "dns-snapshot-bad-entry"
	RegistryReadError      Code = "registry-read-error"
	RegistryLineTooLong    Code = "registry-line-too-long"
	RegistryTooMany        Code = "registry-too-many"
	RegistryBadUTF8        Code = "registry-bad-utf8"
	RegistryBadEntry       Code = "registry-bad-entry"
	RegistryBadURL         Code = "registry-bad-url"
	RegistryBadDataURL     Code = "registry-bad-data-url"
	RegistryNotHTTPS       Code = "registry-not-https"
)

// Notice codes (manifest.json "notices", package audit).
const (
	NoticeSiteInferred   Code = "site-inferred"
	NoticeSiteAmbiguous  Code = "site-ambiguous"
	NoticeAssumedRange   Code = "robots-assumed-whole-range"
	NoticeIPListNotGiven Code = "ip-list-not-given"
	NoticeIPListNone     Code = "ip-list-not-published"
	NoticeNoCrawler      Code = "archive-no-crawler"
	NoticeUnknownBots    Code = "bots-not-in-catalog"
	NoticeAsOfOutliers   Code = "as-of-outliers-ignored"
	NoticeAsOfBeforeData Code = "as-of-before-data"
)

// Not-judged reasons (fetches.not_judged_reason, package evaluate). The
// four a run can fix are also notice codes: the notice counts them and
// names the fix.
const (
	ReasonNoBot          Code = "no-bot-identity"
	ReasonNoHost         Code = "no-host"
	ReasonNoVersion      Code = "no-robots-version"
	ReasonBeforeFirst    Code = "before-first-version"
	ReasonUnknownContent Code = "unknown-content"
)

// Groups of docs/problems.md.
const (
	groupWARC      = "WARC and ARC files"
	groupLog       = "Access logs"
	groupListing   = "Listings (--index, --snippets)"
	groupInput     = "Input files"
	groupRobots    = "robots.txt sources"
	groupDirective = "Response directives (X-Robots-Tag, Robots-Tag, robots meta)"
	groupCard      = "Signature Agent Cards"
	groupJWKS      = "Key sets (JWKS)"
	groupIPList    = "IP range lists"
	groupRegistry  = "Registries ('repaudit cards fetch')"
)

// registry is every code with its severity and meaning, in the order
// docs/problems.md lists them.
var registry = []Entry{
	// WARC and ARC files.
	{KindProblem, WARCTruncated, Error, groupWARC, "input ends inside a record or compressed member; every record complete before the cut was read, the one the cut falls in is skipped"},
	{KindProblem, WARCCorruptCompression, Error, groupWARC, "a gzip member or zstd frame does not decode; reading goes on at the next one"},
	{KindProblem, WARCTrailingGarbage, Error, groupWARC, "stored bytes that are not a gzip member or zstd frame; skipped"},
	{KindProblem, WARCGzipChecksum, Warning, groupWARC, "a gzip member's CRC or size does not match; its data is kept"},
	{KindProblem, WARCZstdDictionary, Error, groupWARC, "the dictionary frame of a .warc.zst file is unusable; frames that need it fail"},
	{KindProblem, WARCZstdWindow, Error, groupWARC, "a zstd frame needs a window over 128 MiB; skipped"},
	{KindProblem, WARCSharedMember, Info, groupWARC, "records share compression members; their offsets count decompressed bytes"},
	{KindProblem, WARCProblemsDropped, Warning, groupWARC, "more than 10,000 problems between two reads of the reader's problems; the rest were counted, not kept"},
	{KindProblem, WARCGarbage, Error, groupWARC, "bytes between records that are not a record; skipped"},
	{KindProblem, WARCNoContentLength, Error, groupWARC, "record without Content-Length; skipped"},
	{KindProblem, WARCBadContentLength, Error, groupWARC, "Content-Length is not a non-negative integer; record skipped"},
	{KindProblem, WARCHeaderTooLong, Error, groupWARC, "WARC header block over 128 KiB; record skipped"},
	{KindProblem, WARCHeaderLine, Warning, groupWARC, "WARC header line without a colon; ignored"},
	{KindProblem, WARCBadDate, Warning, groupWARC, "WARC-Date missing or unreadable"},
	{KindProblem, WARCImpreciseDate, Warning, groupWARC, "WARC-Date without seconds or time zone; the message says the time used"},
	{KindProblem, WARCMissingType, Warning, groupWARC, "record without WARC-Type"},
	{KindProblem, WARCMissingNewlines, Info, groupWARC, "record not followed by the two CRLF line ends of WARC 1.1 §4"},
	{KindProblem, WARCARCHeader, Error, groupWARC, "ARC record header line unreadable; record skipped"},
	{KindProblem, WARCLengthPastMember, Error, groupWARC, "Content-Length runs past the record's own gzip member or zstd frame; the record is kept up to it and reading goes on at the next"},
	{KindProblem, WARCHTTPStatusLine, Warning, groupWARC, "block declared HTTP but has no readable status or request line"},
	{KindProblem, WARCHTTPHeaderLine, Warning, groupWARC, "HTTP header line without a colon; ignored"},
	{KindProblem, WARCHTTPHeaderLong, Warning, groupWARC, "HTTP header over 128 KiB; fields past it ignored, body not read"},
	{KindProblem, WARCBadChunk, Warning, groupWARC, "chunked transfer coding broken; body kept up to the break"},
	{KindProblem, WARCNotChunked, Info, groupWARC, "header says chunked but the payload is not; taken as is"},
	{KindProblem, WARCNotEncoded, Info, groupWARC, "header names a content coding the payload does not have; taken as is"},
	{KindProblem, WARCDecode, Warning, groupWARC, "content decoding failed part way; body kept up to the failure"},
	{KindProblem, WARCUnknownCoding, Warning, groupWARC, "content coding not supported, or several stacked; body left encoded"},
	{KindProblem, WARCRevisitReread, Warning, groupWARC, "a revisit's original, remembered by where it is stored, could not be read again from the file (it changed, or cannot be read); the revisit is left unresolved"},

	// Access logs.
	{KindProblem, LogUnparsedLine, Error, groupLog, "line skipped: it does not have the format's shape"},
	{KindProblem, LogLineTooLong, Error, groupLog, "line skipped: longer than 1 MiB"},
	{KindProblem, LogBadTime, Error, groupLog, "line skipped: no readable time (a fetch without a time cannot be judged)"},
	{KindProblem, LogBadRequest, Warning, groupLog, "line kept: request line malformed (\"-\" with a status other than 408, binary junk, no method or no protocol); method empty and target as logged"},
	{KindProblem, LogBadField, Warning, groupLog, "line kept: status or byte count not a number (status 0, bytes -1)"},
	{KindProblem, LogTruncated, Error, groupLog, "compressed input ends early; the lines before the cut were read"},
	{KindProblem, LogCorrupt, Error, groupLog, "compressed input is corrupt; the lines before were read"},
	{KindProblem, LogCompressionLimit, Error, groupLog, "a zstd frame needs a window over 128 MiB; the lines before it were read"},
	{KindProblem, LogNoFields, Info, groupLog, "W3C or CloudFront data before any #Fields directive; the default columns are used"},
	{KindProblem, LogProblemsDropped, Warning, groupLog, "more than 10,000 problems between two reads of the reader's problems; the rest were counted, not kept"},
	{KindProblem, LogNotRequest, Info, groupLog, "line skipped: well formed but records no HTTP request (TCP connection, a connection closed before any request — Apache's \"-\" 408, ELB's \"- - -\" —, proxy event, S3 operation, comment)"},
	{KindProblem, LogLocalTime, Info, groupLog, "once per file: the format writes local time without a zone; times read as UTC"},
	{KindProblem, LogNothingRead, Error, groupLog, "no line of the file could be read; the message names the format the lines come closest to"},
	{KindProblem, LogNewestFirst, Warning, groupLog, "the log is written newest first: info when it was small enough to sort in memory before judging; warning when it was not, and crawl-delay was judged out of order"},
	{KindProblem, LogOutOfOrder, Warning, groupLog, "time goes back further than the reorder window absorbs (rotated logs concatenated newest first): info when the log's ascending runs were merged in time order; warning, naming the first line past the cap of 64 runs, when some fetches were judged out of order"},

	// Listings.
	{KindProblem, ListingLineTooLong, Error, groupListing, "line skipped: longer than the listing line limit"},
	{KindProblem, ListingCDXLegend, Error, groupListing, "CDX legend names no original-URL field; the third field is taken"},
	{KindProblem, ListingBadCDX, Error, groupListing, "CDX line skipped: too few fields"},
	{KindProblem, ListingBadCDXJ, Error, groupListing, "CDXJ line skipped: not 'urlkey timestamp {json}', or the JSON has no url"},
	{KindProblem, ListingBadCSV, Error, groupListing, "CSV line skipped: not valid CSV"},
	{KindProblem, ListingBadTime, Error, groupListing, "line skipped: the timestamp is unreadable"},
	{KindProblem, ListingBadURL, Error, groupListing, "line skipped: not an absolute http(s) URL"},

	// Inputs.
	{KindProblem, InputUnreadable, Error, groupInput, "the input could not be opened or read (or does not exist, or a pattern matched nothing, or it is a log named on the command line none of whose lines could be read); the rest of the run goes on and exits 2"},
	{KindProblem, InputEmpty, Warning, groupInput, "no fetch or capture was read from a log or archive input"},
	{KindProblem, TimeOutlier, Warning, groupInput, "a log line dated long after the day by which 99.9% of its log's lines lie (more than 7 days, or the log's span; a garbled line dated 2099?): ignored for the default --as-of; one row per day, naming its latest line"},
	{KindProblem, AsOfBeforeData, Warning, groupInput, "--as-of is earlier than every time in the data: retention and take-downs are judged before any capture"},
	{KindProblem, InputSkipped, Info, groupInput, "a file found in a directory input holds nothing repaudit reads; skipped"},
	{KindProblem, InputDuplicate, Warning, groupInput, "same content as an input named before; read once (an input read from a pipe can be compared only after pass 1: its robots.txt fetches and captures counted twice, its fetches are judged once)"},
	{KindProblem, SpoolWriteFailed, Error, groupInput, "the fetches read from this input could not be spooled for pass 2 (disk full?); the input counts as failed and its fetches are not judged"},
	{KindProblem, InputDirUnreadable, Error, groupInput, "a subdirectory of a directory input could not be listed; what it holds is not read"},
	{KindProblem, InputLinkBroken, Warning, groupInput, "a symbolic link in a directory input leads nowhere readable; skipped"},
	{KindProblem, InputLinkLoop, Info, groupInput, "a symbolic link to a directory already walked; not walked again (its files are read once)"},
	{KindProblem, InputNotRegular, Info, groupInput, "a named pipe, socket or device inside a directory input; not read (name it explicitly to read it)"},
	{KindProblem, InputJWKSTrusted, Info, groupInput, "a key set given as an input: its keys are trusted for any Signature-Agent, as with --jwks"},

	// robots.txt sources.
	{KindProblem, RobotsGitHistoryCut, Warning, groupRobots, "--robots-git: more commits than are read; only the newest are used, older versions are unknown"},
	{KindProblem, RobotsGitUnreadable, Warning, groupRobots, "--robots-git: the file in a commit could not be read; that version is not used"},
	{KindProblem, RobotsGitBadLink, Warning, groupRobots, "--robots-git: the file in a commit is a symbolic link that leaves the repository or loops; that version is not used"},
	{KindProblem, RobotsGitShallow, Warning, groupRobots, "--robots-git: a shallow clone; versions older than its history are unknown (git fetch --unshallow reads them)"},
	{KindProblem, RobotsSnapshotUndated, Warning, groupRobots, "--robots-dir: a snapshot whose name holds no time; not used"},
	{KindProblem, RobotsSnapshotUnreadable, Warning, groupRobots, "--robots-dir: a snapshot could not be read; not used"},
	{KindProblem, RobotsSnapshotSameTime, Warning, groupRobots, "--robots-dir: two snapshots carry the same time; both kept, ordered by name"},
	{KindProblem, RobotsSourceNoSite, Error, groupRobots, "a robots.txt source names no site and none is known, or several could own it; bind it with URL= (or pass --site); not used, and the run exits 2"},
	{KindProblem, RobotsDirNotHost, Warning, groupRobots, "--robots-dir: a subdirectory not named by a host (host[:port]); not read"},
	{KindProblem, RobotsRevisitUnresolved, Warning, groupRobots, "a revisit record of robots.txt refers to a capture not in the inputs; not used as a version"},
	{KindProblem, BadDefaultAuthority, Warning, groupRobots, "the default authority (--site) is not an absolute http(s) URL; log lines without a host are not judged"},

	// Response directives.
	{KindProblem, DirectiveHeaderTruncated, Warning, groupDirective, "a Robots-Tag or X-Robots-Tag value over the header limit; the cut member and the rest are ignored (repext §3.1.1)"},
	{KindProblem, DirectiveSFFallback, Warning, groupDirective, "Robots-Tag is not a valid Structured Field List; read with the legacy X-Robots-Tag parser"},
	{KindProblem, DirectiveBareRule, Warning, groupDirective, "Robots-Tag member that is a rule name without parameters; read as a global rule"},
	{KindProblem, DirectiveNoRules, Warning, groupDirective, "Robots-Tag member naming a product token with no rule; no instruction"},
	{KindProblem, DirectiveBadMember, Warning, groupDirective, "Robots-Tag member that is not a token item (inner list, string, number); ignored"},
	{KindProblem, DirectiveRuleFalse, Warning, groupDirective, "Structured Field boolean parameter set to ?0; the rule is not applied"},
	{KindProblem, DirectiveBadDate, Warning, groupDirective, "unavailable_after value that no known date format matches"},
	{KindProblem, DirectiveBadValue, Warning, groupDirective, "max-snippet value that is not an integer"},
	{KindProblem, DirectiveMetaInBody, Warning, groupDirective, "robots meta tag after the head ended; ignored (repext §4)"},
	{KindProblem, DirectiveMetaNoContent, Warning, groupDirective, "robots meta tag without a content attribute"},
	{KindProblem, DirectiveHTMLTruncated, Warning, groupDirective, "the HTML head did not end within the bytes read; meta tags after are not seen"},
	{KindProblem, ArchiveEmbargoMalformed, Warning, groupDirective, "an Archive-Embargo value that is not w, m or q, repeats different periods (the longest is used) or is over 256 bytes; the message gives the byte offset in the value"},

	// Cards.
	{KindProblem, CardUnreadable, Warning, groupCard, "a captured card is not a JSON object; not used"},
	{KindProblem, CardInvalid, Warning, groupCard, "the card breaks a MUST of the registry draft; kept so User-Agent claims are recognised, its keys never trusted"},
	{KindProblem, CardBadMember, Warning, groupCard, "a card member of the wrong JSON type; ignored"},
	{KindProblem, CardBadJWKS, Warning, groupCard, "the card's inline jwks is not a usable JWK Set; the card is invalid"},
	{KindProblem, CardMemberOutside, Warning, groupCard, "a registry-03 member at top level instead of inside web_bot_auth; read"},
	{KindProblem, CardKeysIgnored, Warning, groupCard, "the card has both jwks and legacy keys; keys is ignored"},
	{KindProblem, CardLegacyKeys, Warning, groupCard, "inline keys under the legacy name keys; read as jwks"},
	{KindProblem, CardKeysAndJWKSURI, Warning, groupCard, "a legacy card with both inline keys and jwks_uri; the jwks_uri snapshot is preferred when known"},
	{KindProblem, CardIPsURINotHTTPS, Warning, groupCard, "ips_uri is not an https URL (registry-03 requires https)"},
	{KindProblem, CardUAPatternTooBroad, Warning, groupCard, "an expected-user-agent pattern that would match every client; ignored"},
	{KindProblem, CardNoClientID, Warning, groupCard, "a legacy card without client_id; keyed by the URL it was fetched from"},
	{KindProblem, CardClientIDNormalized, Warning, groupCard, "client_id equals the URL the card was fetched from only after normalisation"},
	{KindProblem, CardOlderDraftShape, Info, groupCard, "a card member in the shape of an older registry draft (rfc9309-compliance as a registry-03 list of directives, not the registry-04 boolean); read, the message names the draft"},

	// Key sets.
	{KindProblem, JWKSUnreadable, Warning, groupJWKS, "a captured key set is not a JSON object; not used"},
	{KindProblem, JWKTooMany, Warning, groupJWKS, "more keys than are read; the first ones are used"},
	{KindProblem, JWKNotObject, Warning, groupJWKS, "a key that is not a JSON object; skipped"},
	{KindProblem, JWKDuplicate, Warning, groupJWKS, "a key that appears more than once in the set"},
	{KindProblem, JWKNoKty, Warning, groupJWKS, "a key without a kty string; not used"},
	{KindProblem, JWKUseNotSig, Warning, groupJWKS, "a key whose use is not sig; not used"},
	{KindProblem, JWKSymmetric, Warning, groupJWKS, "a symmetric key or algorithm; never accepted as a public key"},
	{KindProblem, JWKUnsupportedKty, Warning, groupJWKS, "a key type that is not OKP, EC or RSA; not used"},
	{KindProblem, JWKUnsupportedCurve, Warning, groupJWKS, "a curve other than Ed25519, P-256 or P-384; not used"},
	{KindProblem, JWKBadKey, Warning, groupJWKS, "key material of the wrong size, a point off the curve, or an RSA modulus out of range; not used"},
	{KindProblem, JWKMissingMember, Warning, groupJWKS, "a key without a member its type needs; not used"},
	{KindProblem, JWKBadBase64, Warning, groupJWKS, "a key member that is not base64url; not used"},
	{KindProblem, JWKNoncanonicalBase64, Warning, groupJWKS, "a key member that is padded base64 or not minimal (RFC 7515 §2, RFC 7518 §6.3.1.1); read leniently"},
	{KindProblem, JWKPrivateMember, Warning, groupJWKS, "a published key with a private member: the key is compromised"},
	{KindProblem, JWKKidMismatch, Warning, groupJWKS, "the published kid is not the RFC 7638 thumbprint; the thumbprint is used"},
	{KindProblem, JWKExpBeforeNbf, Warning, groupJWKS, "exp is before nbf: the key is never valid"},
	{KindProblem, JWKBadDate, Warning, groupJWKS, "exp or nbf is not a NumericDate; ignored"},

	// IP lists.
	{KindProblem, IPListUnreadable, Error, groupIPList, "an IP list file does not read as an IP range list; not used (a captured IP list that does not read is reported as a warning, like every problem of a captured card or key set)"},
	{KindProblem, IPListUnmapped, Warning, groupIPList, "an IP list file whose name names no list of the bot catalog; not used"},
	{KindProblem, IPListZeroWidthSpace, Info, groupIPList, "zero-width spaces (U+200B) removed before reading, as Bing serves bingbot.json; nothing lost, the list is used"},
	{KindProblem, IPListBadTime, Warning, groupIPList, "creationTime unreadable; ignored"},
	{KindProblem, IPListBadEntry, Warning, groupIPList, "an entry that is not an object with one of ipv4Prefix or ipv6Prefix"},
	{KindProblem, IPListBadPrefix, Warning, groupIPList, "a prefix that is not a CIDR prefix; skipped"},
	{KindProblem, IPListWrongFamily, Warning, groupIPList, "an IPv6 prefix under ipv4Prefix or the reverse; skipped"},
	{KindProblem, IPListHostBits, Warning, groupIPList, "a prefix with host bits set; read as its masked prefix"},
	{KindProblem, DNSUnreadable, Error, groupIPList, "a --dns-dir file is not a reverse-DNS snapshot as 'repaudit dns verify' writes it; not used"},
	{KindProblem, DNSBadEntry, Warning, groupIPList, "a line of a reverse-DNS snapshot that is not a usable entry (bad address, result or time, over a limit); skipped"},

	// Registries.
	{KindProblem, RegistryReadError, Warning, groupRegistry, "the registry could not be read to its end; entries before were used"},
	{KindProblem, RegistryLineTooLong, Warning, groupRegistry, "a line over the registry line limit; skipped"},
	{KindProblem, RegistryTooMany, Warning, groupRegistry, "more entries than are read; the rest are ignored"},
	{KindProblem, RegistryBadUTF8, Warning, groupRegistry, "a line that is not valid UTF-8; skipped"},
	{KindProblem, RegistryBadEntry, Warning, groupRegistry, "an entry that is not an https or data: URL; skipped"},
	{KindProblem, RegistryBadURL, Warning, groupRegistry, "an https URL that cannot be used (unreadable, or with userinfo); skipped"},
	{KindProblem, RegistryBadDataURL, Warning, groupRegistry, "a data: URL that does not decode; skipped"},
	{KindProblem, RegistryNotHTTPS, Warning, groupRegistry, "an http URL; registry entries must be https; skipped"},

	// Notices.
	{KindNotice, NoticeSiteInferred, "", "", "log lines or robots.txt files name no site; judged as the one site the inputs name"},
	{KindNotice, NoticeSiteAmbiguous, "", "", "the inputs name several sites; what names none is not judged until --site chooses"},
	{KindNotice, ReasonNoHost, "", "", "fetches not judged: the log lines name no host (pass --site)"},
	{KindNotice, ReasonNoVersion, "", "", "fetches not judged: no robots.txt version of their site is known (give a robots.txt source)"},
	{KindNotice, ReasonBeforeFirst, "", "", "fetches not judged: they predate the first known robots.txt version"},
	{KindNotice, ReasonUnknownContent, "", "", "fetches not judged: the robots.txt version in force has unknown content; one notice, per host, for robots.txt that redirects to a URL not among the inputs (typically an http:// vhost redirecting to https), another, per host with its status rules, for the other causes"},
	{KindNotice, NoticeAssumedRange, "", "", "robots.txt files given without a time, assumed in force for the whole data range"},
	{KindNotice, NoticeIPListNotGiven, "", "", "a bot's operator publishes IP ranges (bot catalog ip_ranges_url, or its card's ips_uri) but none were given: its IPs are unchecked (fetches.ip_check not_given, the URL in ip_list_url); one notice per bot"},
	{KindNotice, NoticeIPListNone, "", "", "fetches by bots the catalog knows whose operators publish no IP ranges: unverifiable by IP (fetches.ip_check not_published)"},
	{KindNotice, NoticeAsOfOutliers, "", "", "the default --as-of ignored times far after the bulk of the data; the notice names the line that set it and the first ignored"},
	{KindNotice, NoticeAsOfBeforeData, "", "", "--as-of is earlier than every time in the data"},
	{KindNotice, NoticeNoCrawler, "", "", "WARC or ARC files with captures but no crawler named: their captures are not judged (give --archive-agent)"},
	{KindNotice, NoticeUnknownBots, "", "", "fetches by bots the catalog does not know (named by their own product token): no operator or category, so AI usage preferences are not judged for them (merge ai.robots.txt's robots.json with --bots)"},

	// Not-judged reasons.
	{KindReason, ReasonNoBot, "", "", "a browser or unknown client: not judged by design"},
	{KindReason, ReasonNoHost, "", "", "the log line names no host and no site is known"},
	{KindReason, ReasonNoVersion, "", "", "no robots.txt version of the authority is known at all"},
	{KindReason, ReasonBeforeFirst, "", "", "the fetch, or the robots.txt fetch that set the bot's view, predates the first known version"},
	{KindReason, ReasonUnknownContent, "", "", "the version in force has unknown content (a redirect target or revisited capture not in the inputs)"},
}
