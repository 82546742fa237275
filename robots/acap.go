package robots

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ACAP holds the ACAP 1.0 content of a robots.txt file ("Communicating
// access and usage policies to crawlers using extensions to the Robots
// Exclusion Protocol, Part 1", 2007). Section numbers below are that
// document's.
type ACAP struct {
	Version            string // from the "##ACAP version=" comment (§2.9.3); "" if absent
	IgnoreConventional bool   // ACAP-ignore-conventional-records is present (§2.9.1)

	Records               []ACAPRecord  // permission and prohibition fields, in file order (§2.4)
	Blocks                []ACAPBlock   // records as addressed: crawler identification fields (§2.3)
	TakeDowns             []ACAPRequest // ACAP-request-take-down (§2.6.1)
	ReCrawls              []ACAPRequest // ACAP-request-re-crawl (§2.6.2)
	PermissionsReferences []string      // ACAP-permissions-reference values (§2.3.2); never fetched

	QualifiedUsages []ACAPQualifiedUsage // §2.7.1
	CompositeUsages []ACAPCompositeUsage // §2.7.2
	ResourceSets    []ACAPResourceSet    // §2.7.3

	rules    []acapRule
	requests []acapRequest
}

// ACAPBlock is one ACAP record's addressing: the crawler identification
// fields that start it (§2.3.1) and its permissions reference (§2.3.2).
type ACAPBlock struct {
	Crawlers             []string // as written; "*" means any crawler
	Line                 int      // first ACAP-crawler line
	PermissionsReference string   // "" if none
	ReferenceLine        int
}

// ACAPRecord is one permission (ACAP-allow-*) or prohibition
// (ACAP-disallow-*) field (§2.4).
type ACAPRecord struct {
	Block      int      // index into ACAP.Blocks
	Crawlers   []string // the block's crawler names as written
	Purposes   []string // usage purpose patterns of its sub-record (§2.3.3); nil for general fields
	Allow      bool
	Usage      string // usage as written, lower-cased: "index", "present-snippet", "(cache)"
	Resource   string // resource path pattern or "the-acap:resource-set:name" as written (§2.4.3)
	Qualifiers []Qualifier
	TimeLimit  *TimeLimit // parsed time-limit qualifier, if any
	Line       int
	Text       string // the field as written
}

// ACAPRequest is an action request field (§2.6): ACAP-request-take-down or
// ACAP-request-re-crawl.
type ACAPRequest struct {
	Crawler  string // the block's crawler names, comma-joined ("*" for any)
	Resource string
	Line     int
	Text     string
}

// ACAPQualifiedUsage is an ACAP-qualified-usage definition (§2.7.1).
type ACAPQualifiedUsage struct {
	Name       string // lower-cased
	Usage      string // standard usage, lower-cased
	Qualifiers []Qualifier
	TimeLimit  *TimeLimit
	Line       int
	Text       string
}

// ACAPCompositeUsage is an ACAP-composite-usage definition (§2.7.2).
type ACAPCompositeUsage struct {
	Name   string   // lower-cased
	Usages []string // standard usages or "(qualified-name)", lower-cased
	Line   int
	Text   string
}

// ACAPResourceSet is an ACAP-resource-set definition (§2.7.3).
type ACAPResourceSet struct {
	Name     string // lower-cased
	Patterns []string
	Line     int
	Text     string
}

// Qualifier is a usage qualifier such as max-length=250-chars (§2.4.1.2).
type Qualifier struct {
	Name  string // lower-cased
	Value string
}

// TimeLimit kinds (§2.5.3.1).
const (
	TimeLimitUntilRecrawled = "until-recrawled"
	TimeLimitUntilDate      = "until-date"
	TimeLimitDays           = "days"
)

// TimeLimit is a parsed time-limit qualifier (§2.5.3.1, §2.5.4.1,
// §2.5.5.2.1).
type TimeLimit struct {
	Kind  string    // TimeLimitUntilRecrawled, TimeLimitUntilDate or TimeLimitDays
	Until time.Time // UTC midnight of the date, for TimeLimitUntilDate; the date itself is included
	Days  int       // for TimeLimitDays
	Text  string    // the value as written
}

// ACAP verdict reasons.
const (
	ACAPReasonNoACAP         = "no-acap"                       // the file has no ACAP content
	ACAPReasonNoRecord       = "no-acap-record"                // no ACAP field speaks to this crawler, usage and resource
	ACAPReasonRecord         = "record"                        // matching fields all agree
	ACAPReasonNamedOverrides = "named-crawler-overrides-*"     // named-crawler fields replaced matching "*" fields (§2.2)
	ACAPReasonNarrowest      = "narrowest-scope"               // conflict resolved by narrowest scope (§2.4.5)
	ACAPReasonUndecidable    = "undecidable-prohibited"        // conflict without a narrowest field: prohibited (§2.4.5)
	ACAPReasonOther          = "usage-other"                   // decided by an ACAP-*-other field (§2.5.6)
	ACAPReasonConventional   = "conventional"                  // decided by a conventional rule (§2.9.2)
	ACAPReasonACAPOverConv   = "acap-overrides-conventional"   // same pattern, conflicting: conventional ignored (§2.9.2)
	ACAPReasonIgnoreNoRecord = "ignore-conventional-no-record" // crawl with conventional records ignored (§2.9.1) and no ACAP field
	ACAPReasonRobotsTxt      = ReasonRobotsTxt                 // crawling /robots.txt is always allowed (RFC 9309 §2.2.2)
	ACAPReasonNoUsage        = "no-usage"                      // the usage asked about is empty
)

// ACAPVerdict is the answer of File.ACAPCheck with its evidence.
type ACAPVerdict struct {
	// Applies is false when no ACAP field speaks to this crawler, usage and
	// resource; the caller then relies on conventional records for crawl
	// (Allowed already says what they decide) and on nothing for the rest.
	Applies    bool
	Allowed    bool
	Crawler    string // crawler name of the record block used ("*" or the name as written)
	Usage      string // usage asked about, lower-cased
	Record     string // deciding field as written (a conventional rule as "Disallow: /x")
	FieldUsage string // standard usage of the deciding ACAP field ("present", "present-oldcopy", "other"), local usages expanded; "" when none
	Line       int    // line of the deciding field; 0 if none
	TimeLimit  *TimeLimit
	Qualifiers []Qualifier
	Reason     string // one of the ACAPReason* constants
	Note       string // extra evidence (overridden fields, unresolved permission references)
}

// Evidence returns the ACAP verdict as human-readable evidence.
func (v ACAPVerdict) Evidence() string {
	verdict := "prohibited"
	if v.Allowed {
		verdict = "permitted"
	}
	var s string
	switch {
	case v.Reason == ACAPReasonRobotsTxt:
		s = "ACAP crawl: /robots.txt is always allowed (RFC 9309 §2.2.2)"
	case v.Line == 0:
		s = fmt.Sprintf("ACAP %s: no field for crawler and resource (%s): %s", v.Usage, v.Reason, verdict)
	case v.Reason == ACAPReasonConventional:
		s = fmt.Sprintf("ACAP %s: conventional group %q: line %d %q decides (ACAP §2.9.2): %s", v.Usage, v.Crawler, v.Line, v.Record, verdict)
	default:
		s = fmt.Sprintf("ACAP %s: crawler %q: line %d %q (%s): %s", v.Usage, v.Crawler, v.Line, v.Record, v.Reason, verdict)
	}
	if v.Note != "" {
		s += "; " + v.Note
	}
	return s
}

// ACAPCheck answers "may crawler agent do usage on target" under ACAP 1.0.
// usage is an ACAP usage type as spelled in §2.5 ("crawl", "index",
// "present-snippet", ...), case-insensitive. Fields inside usage-purpose
// sub-records are not considered; see ACAPCheckPurpose.
func (f *File) ACAPCheck(agent, usage, target string) ACAPVerdict {
	return f.acapEval(agent, "", usage, target)
}

// ACAPCheckPurpose is ACAPCheck for a crawler acting for a usage purpose
// (§2.3.3), such as "news": fields of sub-records whose purpose pattern
// matches purpose are considered too, and take precedence over the
// record's general fields.
func (f *File) ACAPCheckPurpose(agent, purpose, usage, target string) ACAPVerdict {
	return f.acapEval(agent, purpose, usage, target)
}

// TakeDownFor returns the take-down requests (§2.6.1) addressed to agent
// or to any crawler that cover target: the request's resource path equals
// target's path (and query, if the request has one), compared
// case-insensitively (§2.8); a resource with '*' or '$' is a pattern.
func (f *File) TakeDownFor(agent, target string) []ACAPRequest {
	if f.ACAP == nil {
		return nil
	}
	a := f.ACAP
	lagent := lowerString(trimWS(agent))
	u := appendTarget(nil, target, true)
	path := u
	if i := indexQuery(u); i >= 0 {
		path = u[:i]
	}
	var out []ACAPRequest
	for i := range a.requests {
		r := &a.requests[i]
		if !r.takeDown || !r.addresses(lagent) {
			continue
		}
		var ok bool
		switch {
		case r.wild:
			ok = r.pat.match(u)
		case r.hasQuery:
			ok = string(u) == r.canon
		default:
			ok = string(path) == r.canon
		}
		if ok {
			out = append(out, a.TakeDowns[r.index])
		}
	}
	return out
}

func indexQuery(u []byte) int {
	for i, c := range u {
		if c == '?' {
			return i
		}
	}
	return -1
}

// standardUsages are the usage types of §2.5 and §2.5.5.1.
var standardUsages = map[string]bool{
	"crawl": true, "follow": true, "index": true, "preserve": true, "present": true, "other": true,
	"present-original": true, "present-currentcopy": true, "present-oldcopy": true,
	"present-snippet": true, "present-thumbnail": true, "present-oldsnippet": true,
	"present-oldthumbnail": true, "present-link": true,
}

// knownQualifiers are the qualifier types of §2.5.
var knownQualifiers = map[string]bool{
	"time-limit": true, "must-use-resource": true, "max-length": true,
	"prohibited-modification": true, "must-include-resource": true,
	"prohibited-context": true, "required-context": true,
}

// ACAP diagnostic codes.
const (
	DiagACAPUnknownField      = "acap-unknown-field"         // ACAP- key not defined by ACAP 1.0
	DiagACAPOutsideRecord     = "acap-outside-record"        // field before any ACAP-crawler line; ignored (§2.3)
	DiagACAPUnknownUsage      = "acap-unknown-usage"         // usage type not in §2.5; kept, matched by name only
	DiagACAPUndefinedUsage    = "acap-undefined-usage"       // (local-usage) without a definition; field ignored (§2.4.1.3)
	DiagACAPUndefinedSet      = "acap-undefined-set"         // resource set without a definition; field ignored (§2.4.4)
	DiagACAPBadQualifier      = "acap-bad-qualifier"         // qualifier not of the form name=value, or bad value
	DiagACAPUnknownQualifier  = "acap-unknown-qualifier"     // qualifier type not in §2.5; kept
	DiagACAPQualifierIgnored  = "acap-qualifier-ignored"     // qualifier where none is allowed (§2.4.1.3, §2.4.2); ignored
	DiagACAPLocalProhibition  = "acap-local-prohibition"     // prohibition naming a local usage (§2.4.2); its standard usages prohibited
	DiagACAPDefinitionLate    = "acap-definition-late"       // definition after an ACAP record (§2.7); still used
	DiagACAPAnyCrawlerMixed   = "acap-any-crawler-mixed"     // "*" with named crawlers in one record (§2.3.1)
	DiagACAPBadDefinition     = "acap-bad-definition"        // definition missing its parts; ignored
	DiagACAPEmptyValue        = "acap-empty-value"           // field without a value; ignored
	DiagACAPContinuation      = "acap-continuation"          // line joined to the ACAP field before it
	DiagACAPRequestInPurpose  = "acap-request-in-purpose"    // action request inside a sub-record (§2.3); kept
	DiagACAPReferenceWithMore = "acap-reference-with-fields" // permissions reference with other fields in the record (§2.3)
	DiagACAPIgnoreLate        = "acap-ignore-late"           // ignore-conventional-records after definitions or records (§2.9.1); honoured
)

// acapVersionComment recognizes "##ACAP version=1.0" (§2.9.3).
func acapVersionComment(s string) (string, bool) {
	if len(s) < 6 || !strings.EqualFold(s[:6], "##acap") {
		return "", false
	}
	rest := trimWS(s[6:])
	if len(rest) >= 7 && strings.EqualFold(rest[:7], "version") {
		rest = trimWS(rest[7:])
		rest = trimWS(strings.TrimPrefix(rest, "="))
		if i := strings.IndexAny(rest, " \t"); i >= 0 {
			rest = rest[:i]
		}
		return rest, true
	}
	return "", true
}

// acapParser is the ACAP state of a Parse call.
type acapParser struct {
	p *parser
	a *ACAP

	block        int  // current block, -1 before the first ACAP-crawler
	blockFields  bool // the block has fields after its crawler lines
	purposes     []string
	purposeRules bool // the current sub-record has permission fields
	seenRecord   bool
	seenDef      bool

	pendingKey  string // definition key awaiting its value on the next line
	pendingLine int
	pendingRaw  string
	lastAllow   int // index into a.Records of the field on the previous line, -1
}

func (p *parser) acapParser() *acapParser {
	if p.acap == nil {
		p.acap = &acapParser{p: p, a: &ACAP{}, block: -1, lastAllow: -1}
	}
	return p.acap
}

func (ap *acapParser) version(_ int, v string) {
	if ap.a.Version == "" {
		ap.a.Version = v
	}
}

func (ap *acapParser) diag(n int, code, msg, raw string) { ap.p.diag(n, code, msg, raw) }

// flush reports a definition whose value never came.
func (ap *acapParser) flush() {
	if ap.pendingKey != "" {
		ap.diag(ap.pendingLine, DiagACAPEmptyValue, ap.pendingKey+" without a value; ignored", ap.pendingRaw)
		ap.pendingKey = ""
	}
}

// continuation takes a keyless line after an ACAP field as its
// continuation: the value of a definition written on the next line (as the
// specification's own examples are typeset, §2.7.1), or more qualifiers of
// a permission (§2.5.5.2.4). It reports whether it did.
func (ap *acapParser) continuation(n int, content string) bool {
	if ap.pendingKey != "" {
		key, line := ap.pendingKey, ap.pendingLine
		ap.pendingKey = ""
		ap.diag(n, DiagACAPContinuation, "line read as the value of "+key+" on line "+strconv.Itoa(line), content)
		ap.field(line, key, content, content)
		return true
	}
	if ap.lastAllow >= 0 {
		toks := splitQualifierTokens(content)
		for _, t := range toks {
			if strings.IndexByte(t, '=') <= 0 {
				return false
			}
		}
		r := &ap.a.Records[ap.lastAllow]
		ap.diag(n, DiagACAPContinuation, "line read as more qualifiers of the field on line "+strconv.Itoa(r.Line), content)
		qs, tl := ap.parseQualifiers(n, toks, content)
		r.Qualifiers = append(r.Qualifiers, qs...)
		if r.TimeLimit == nil {
			r.TimeLimit = tl
		}
		r.Text += " " + content
		return true
	}
	return false
}

func (p *parser) acapLine(n int, key, value, raw, note string, missingColon bool) {
	ap := p.acapParser()
	lkey := lowerString(key)
	if missingColon && lkey != "acap-ignore-conventional-records" {
		p.diag(n, DiagMissingColon, "no ':' after "+strconv.Quote(key), raw)
		note = joinNote(note, "missing ':'")
	}
	ap.lastAllow = -1
	ap.field(n, lkey, value, trimWS(raw))
	p.addLine(Line{Number: n, Kind: KindACAP, Value: value, Group: -1, Note: joinNote(note, lkey)})
	p.prevACAPIdx = len(p.f.Lines) - 1
}

// field handles one ACAP field; lkey is the lower-cased key.
func (ap *acapParser) field(n int, lkey, value, text string) {
	a := ap.a
	switch {
	case lkey == "acap-crawler":
		ap.crawler(n, value, text)
	case lkey == "acap-ignore-conventional-records":
		if ap.seenDef || ap.seenRecord {
			ap.diag(n, DiagACAPIgnoreLate, "ACAP-ignore-conventional-records after ACAP definitions or records; honoured anyway (ACAP §2.9.1)", text)
		}
		a.IgnoreConventional = true
	case lkey == "acap-qualified-usage", lkey == "acap-composite-usage", lkey == "acap-resource-set":
		if value == "" {
			ap.pendingKey, ap.pendingLine, ap.pendingRaw = lkey, n, text
			return
		}
		ap.definition(n, lkey, value, text)
	case lkey == "acap-permissions-reference":
		ap.permissionsReference(n, value, text)
	case lkey == "acap-usage-purpose":
		if !ap.inBlock(n, text) {
			return
		}
		if value == "" {
			ap.diag(n, DiagACAPEmptyValue, "ACAP-usage-purpose without a pattern; ignored", text)
			return
		}
		if ap.purposeRules || ap.purposes == nil {
			ap.purposes = nil
			ap.purposeRules = false
		}
		ap.purposes = append(ap.purposes, value)
		ap.blockFields = true
	case lkey == "acap-request-take-down", lkey == "acap-request-re-crawl":
		ap.request(n, lkey, value, text)
	case strings.HasPrefix(lkey, "acap-allow-"), strings.HasPrefix(lkey, "acap-disallow-"):
		if !ap.inBlock(n, text) {
			return
		}
		allow := strings.HasPrefix(lkey, "acap-allow-")
		usage := strings.TrimPrefix(strings.TrimPrefix(lkey, "acap-allow-"), "acap-disallow-")
		ap.permission(n, allow, usage, value, text)
		ap.blockFields = true
		ap.purposeRules = true
	default:
		ap.diag(n, DiagACAPUnknownField, "unknown ACAP field "+strconv.Quote(lkey)+"; ignored", text)
	}
}

// crawler handles an ACAP-crawler field: it starts a record, unless it
// continues the crawler lines that open the current one.
func (ap *acapParser) crawler(n int, value, text string) {
	a := ap.a
	ap.p.inACAP = true
	if value == "" {
		ap.diag(n, DiagACAPEmptyValue, "ACAP-crawler without a crawler name; ignored", text)
		return
	}
	if ap.block < 0 || ap.blockFields {
		a.Blocks = append(a.Blocks, ACAPBlock{Line: n})
		ap.block = len(a.Blocks) - 1
		ap.blockFields = false
		ap.purposes = nil
		ap.purposeRules = false
	}
	b := &a.Blocks[ap.block]
	b.Crawlers = append(b.Crawlers, value)
	if len(b.Crawlers) > 1 {
		for _, c := range b.Crawlers {
			if c == "*" {
				ap.diag(n, DiagACAPAnyCrawlerMixed, "record addresses \"*\" and named crawlers; \"*\" must stand alone (ACAP §2.3.1)", text)
				break
			}
		}
	}
	ap.seenRecord = true
}

// permissionsReference handles an ACAP-permissions-reference field: the
// record's first one is kept on its block, every one in
// a.PermissionsReferences.
func (ap *acapParser) permissionsReference(n int, value, text string) {
	a := ap.a
	if !ap.inBlock(n, text) {
		return
	}
	if value == "" {
		ap.diag(n, DiagACAPEmptyValue, "ACAP-permissions-reference without a value; ignored", text)
		return
	}
	b := &a.Blocks[ap.block]
	if ap.blockFields {
		ap.diag(n, DiagACAPReferenceWithMore, "permissions reference in a record with other fields (ACAP §2.3)", text)
	}
	if b.PermissionsReference == "" {
		b.PermissionsReference, b.ReferenceLine = value, n
	}
	a.PermissionsReferences = append(a.PermissionsReferences, value)
	ap.blockFields = true
}

// request handles an ACAP-request-take-down or ACAP-request-re-crawl
// field (lkey): the request is kept for the record's crawlers.
func (ap *acapParser) request(n int, lkey, value, text string) {
	a := ap.a
	if !ap.inBlock(n, text) {
		return
	}
	if value == "" {
		ap.diag(n, DiagACAPEmptyValue, lkey+" without a resource; ignored", text)
		return
	}
	if ap.purposes != nil {
		ap.diag(n, DiagACAPRequestInPurpose, "action request inside a usage-purpose sub-record (ACAP §2.3); kept", text)
	}
	res := value
	if i := strings.IndexAny(res, " \t"); i >= 0 {
		res = res[:i]
	}
	b := &a.Blocks[ap.block]
	req := ACAPRequest{Crawler: strings.Join(b.Crawlers, ","), Resource: res, Line: n, Text: text}
	take := lkey == "acap-request-take-down"
	idx := 0
	if take {
		a.TakeDowns = append(a.TakeDowns, req)
		idx = len(a.TakeDowns) - 1
	} else {
		a.ReCrawls = append(a.ReCrawls, req)
		idx = len(a.ReCrawls) - 1
	}
	a.requests = append(a.requests, newACAPRequest(b.Crawlers, res, take, idx))
	ap.blockFields = true
}

func (ap *acapParser) inBlock(n int, text string) bool {
	if ap.block < 0 {
		ap.diag(n, DiagACAPOutsideRecord, "ACAP field before any ACAP-crawler line; ignored (ACAP §2.3)", text)
		return false
	}
	return true
}

// splitQualifierTokens splits at whitespace but keeps "name = value"
// together (§3: qualifier-specification allows *WSP around '=').
func splitQualifierTokens(s string) []string {
	raw := strings.Fields(s)
	var out []string
	for i := 0; i < len(raw); i++ {
		t := raw[i]
		for i+1 < len(raw) && (strings.HasSuffix(t, "=") || strings.HasPrefix(raw[i+1], "=")) {
			t += raw[i+1]
			i++
		}
		out = append(out, t)
	}
	return out
}

func (ap *acapParser) parseQualifiers(n int, toks []string, text string) ([]Qualifier, *TimeLimit) {
	var qs []Qualifier
	var tl *TimeLimit
	for _, t := range toks {
		i := strings.IndexByte(t, '=')
		if i <= 0 || i == len(t)-1 {
			ap.diag(n, DiagACAPBadQualifier, "qualifier "+strconv.Quote(t)+" is not name=value; kept as written", text)
			qs = append(qs, Qualifier{Name: lowerString(t)})
			continue
		}
		q := Qualifier{Name: lowerString(t[:i]), Value: t[i+1:]}
		qs = append(qs, q)
		if !knownQualifiers[q.Name] {
			ap.diag(n, DiagACAPUnknownQualifier, "qualifier type "+strconv.Quote(q.Name)+" is not defined by ACAP 1.0 §2.5; kept", text)
		}
		if q.Name == "time-limit" {
			parsed, ok := parseTimeLimit(q.Value)
			switch {
			case !ok:
				ap.diag(n, DiagACAPBadQualifier, "time-limit "+strconv.Quote(q.Value)+" is not until-recrawled, until-YYYY-MM-DD or N-days (ACAP §2.5.3.1)", text)
			case tl != nil:
				ap.diag(n, DiagACAPBadQualifier, "second time-limit; the first is kept (ACAP §2.5.5.2)", text)
			default:
				tl = parsed
			}
		}
	}
	return qs, tl
}

// parseTimeLimit parses a time-limit value (§2.5.3.1). "until-recrawl", the
// spelling of the example in §2.4.1.2, is accepted as until-recrawled.
func parseTimeLimit(v string) (*TimeLimit, bool) {
	lv := lowerString(v)
	switch {
	case lv == "until-recrawled" || lv == "until-recrawl" || lv == "until-re-crawled":
		return &TimeLimit{Kind: TimeLimitUntilRecrawled, Text: v}, true
	case strings.HasPrefix(lv, "until-"):
		d, err := time.Parse("2006-01-02", lv[len("until-"):])
		if err != nil {
			return nil, false
		}
		return &TimeLimit{Kind: TimeLimitUntilDate, Until: d.UTC(), Text: v}, true
	case strings.HasSuffix(lv, "-days") || strings.HasSuffix(lv, "-day"):
		num := strings.TrimSuffix(strings.TrimSuffix(lv, "-days"), "-day")
		d, err := strconv.Atoi(num)
		if err != nil || d < 0 {
			return nil, false
		}
		return &TimeLimit{Kind: TimeLimitDays, Days: d, Text: v}, true
	}
	return nil, false
}

func (ap *acapParser) permission(n int, allow bool, usage, value, text string) {
	a := ap.a
	if value == "" {
		ap.diag(n, DiagACAPEmptyValue, "ACAP permission or prohibition without a resource; ignored", text)
		return
	}
	toks := splitQualifierTokens(value)
	res := toks[0]
	b := &a.Blocks[ap.block]
	rec := ACAPRecord{Block: ap.block, Crawlers: b.Crawlers, Purposes: ap.purposes, Allow: allow,
		Usage: usage, Resource: res, Line: n, Text: text}
	if len(toks) > 1 {
		switch {
		case !allow:
			ap.diag(n, DiagACAPQualifierIgnored, "a prohibition may not have qualifiers (ACAP §2.4.2); ignored", text)
		case strings.HasPrefix(usage, "("):
			ap.diag(n, DiagACAPQualifierIgnored, "a locally-defined usage may not have explicit qualifiers (ACAP §2.4.1.3); ignored", text)
		default:
			rec.Qualifiers, rec.TimeLimit = ap.parseQualifiers(n, toks[1:], text)
		}
	}
	if !strings.HasPrefix(usage, "(") && !standardUsages[usage] {
		ap.diag(n, DiagACAPUnknownUsage, "usage type "+strconv.Quote(usage)+" is not defined by ACAP 1.0 §2.5; matched by name only", text)
	}
	if !allow && strings.HasPrefix(usage, "(") {
		ap.diag(n, DiagACAPLocalProhibition, "a prohibition may not name a locally-defined usage (ACAP §2.4.2); its standard usages are prohibited", text)
	}
	a.Records = append(a.Records, rec)
	if allow && !strings.HasPrefix(usage, "(") {
		ap.lastAllow = len(a.Records) - 1
	}
}

func (ap *acapParser) definition(n int, lkey, value, text string) {
	a := ap.a
	ap.seenDef = true
	if ap.seenRecord {
		ap.diag(n, DiagACAPDefinitionLate, "definition after an ACAP record (ACAP §2.7 puts them first); used anyway", text)
	}
	toks := strings.Fields(value)
	if len(toks) < 2 {
		ap.diag(n, DiagACAPBadDefinition, lkey+" needs a name and a definition; ignored", text)
		return
	}
	name := lowerString(toks[0])
	switch lkey {
	case "acap-qualified-usage":
		qt := splitQualifierTokens(strings.Join(toks[2:], " "))
		q := ACAPQualifiedUsage{Name: name, Usage: lowerString(toks[1]), Line: n, Text: text}
		if len(qt) == 0 {
			ap.diag(n, DiagACAPBadDefinition, "qualified usage without qualifiers (ACAP §2.7.1); kept", text)
		}
		q.Qualifiers, q.TimeLimit = ap.parseQualifiers(n, qt, text)
		if !standardUsages[q.Usage] {
			ap.diag(n, DiagACAPUnknownUsage, "usage type "+strconv.Quote(q.Usage)+" is not defined by ACAP 1.0 §2.5; matched by name only", text)
		}
		a.QualifiedUsages = append(a.QualifiedUsages, q)
	case "acap-composite-usage":
		c := ACAPCompositeUsage{Name: name, Line: n, Text: text}
		for _, t := range toks[1:] {
			c.Usages = append(c.Usages, lowerString(t))
		}
		a.CompositeUsages = append(a.CompositeUsages, c)
	case "acap-resource-set":
		a.ResourceSets = append(a.ResourceSets, ACAPResourceSet{Name: name, Patterns: toks[1:], Line: n, Text: text})
	}
}

// acapRule is a permission or prohibition after expanding local usages and
// resource sets: one standard usage, one or more patterns.
type acapRule struct {
	rec      int // index into ACAP.Records
	usage    string
	allow    bool
	pats     []pattern // folded
	cmp      []string  // the patterns compared by §2.4.5, folded canonical form
	quals    []Qualifier
	tl       *TimeLimit
	crawlers []string // lower-cased named crawlers
	any      bool     // addressed to "*"
	purposes []string // lower-cased purpose patterns; nil for general fields
}

type acapRequest struct {
	takeDown bool
	index    int
	crawlers []string
	any      bool
	wild     bool
	hasQuery bool
	canon    string
	pat      pattern
}

func newACAPRequest(crawlers []string, res string, take bool, idx int) acapRequest {
	r := acapRequest{takeDown: take, index: idx}
	r.crawlers, r.any = lowerCrawlers(crawlers)
	if res[0] != '/' && res[0] != '*' {
		res = "/" + res
	}
	r.wild = strings.ContainsAny(res, "*$")
	r.hasQuery = strings.IndexByte(res, '?') >= 0
	if r.wild {
		r.pat = compilePattern(res, true)
	} else {
		c, _ := appendCanon(nil, res, false, true, false)
		r.canon = string(c)
	}
	return r
}

func (r *acapRequest) addresses(lagent string) bool {
	if r.any {
		return true
	}
	for _, c := range r.crawlers {
		if c == lagent {
			return true
		}
	}
	return false
}

func lowerCrawlers(cs []string) (named []string, any bool) {
	for _, c := range cs {
		if c == "*" {
			any = true
			continue
		}
		named = append(named, lowerString(c))
	}
	return named, any
}

// finish resolves local usages and resource sets and compiles the rules.
func (ap *acapParser) finish() *ACAP {
	ap.flush()
	a := ap.a
	quals := map[string]*ACAPQualifiedUsage{}
	for i := range a.QualifiedUsages {
		q := &a.QualifiedUsages[i]
		if _, ok := quals[q.Name]; !ok {
			quals[q.Name] = q
		}
	}
	comps := map[string]*ACAPCompositeUsage{}
	for i := range a.CompositeUsages {
		c := &a.CompositeUsages[i]
		if _, ok := comps[c.Name]; !ok {
			comps[c.Name] = c
		}
	}
	sets := map[string]*ACAPResourceSet{}
	for i := range a.ResourceSets {
		s := &a.ResourceSets[i]
		if _, ok := sets[s.Name]; !ok {
			sets[s.Name] = s
		}
	}
	for ri := range a.Records {
		rec := &a.Records[ri]
		// Resource specification (§2.4.3).
		var raws []string
		const setPrefix = "the-acap:resource-set:"
		if len(rec.Resource) >= len(setPrefix) && strings.EqualFold(rec.Resource[:len(setPrefix)], setPrefix) {
			s, ok := sets[lowerString(rec.Resource[len(setPrefix):])]
			if !ok {
				ap.diag(rec.Line, DiagACAPUndefinedSet, "resource set "+strconv.Quote(rec.Resource[len(setPrefix):])+" is not defined (ACAP §2.7.3); field ignored", rec.Text)
				continue
			}
			raws = s.Patterns
		} else {
			raws = []string{rec.Resource}
		}
		var pats []pattern
		var cmps []string
		for _, r := range raws {
			if r[0] != '/' && r[0] != '*' {
				r = "/" + r
			}
			pats = append(pats, compilePattern(r, true))
			c, _ := appendCanon(nil, r, true, true, false)
			cmps = append(cmps, string(c))
		}
		// Usage (§2.4.1, §2.7).
		type use struct {
			usage string
			quals []Qualifier
			tl    *TimeLimit
		}
		var uses []use
		var expand func(name string, depth int) bool
		expand = func(u string, depth int) bool {
			if !strings.HasPrefix(u, "(") {
				uses = append(uses, use{usage: u})
				return true
			}
			name := strings.TrimSuffix(strings.TrimPrefix(u, "("), ")")
			if q, ok := quals[name]; ok {
				uses = append(uses, use{usage: q.Usage, quals: q.Qualifiers, tl: q.TimeLimit})
				return true
			}
			if c, ok := comps[name]; ok && depth < 4 {
				for _, cu := range c.Usages {
					if !expand(cu, depth+1) {
						return false
					}
				}
				return true
			}
			return false
		}
		if !expand(rec.Usage, 0) {
			ap.diag(rec.Line, DiagACAPUndefinedUsage, "usage "+strconv.Quote(rec.Usage)+" is not defined by an ACAP-qualified-usage or ACAP-composite-usage field; field ignored (ACAP §2.4.1.3)", rec.Text)
			continue
		}
		named, any := lowerCrawlers(rec.Crawlers)
		var purposes []string
		for _, p := range rec.Purposes {
			purposes = append(purposes, lowerString(p))
		}
		for _, u := range uses {
			r := acapRule{rec: ri, usage: u.usage, allow: rec.Allow, pats: pats, cmp: cmps,
				crawlers: named, any: any, purposes: purposes}
			if rec.Allow {
				r.quals, r.tl = u.quals, u.tl
				if !strings.HasPrefix(rec.Usage, "(") {
					r.quals, r.tl = rec.Qualifiers, rec.TimeLimit
				}
			}
			a.rules = append(a.rules, r)
		}
	}
	return a
}

// narrower compares two resource path patterns by the character-by-
// character method of ACAP §2.4.5. It returns -1 when a has the narrower
// scope, +1 when b has, and 0 when the method cannot tell (including equal
// patterns).
func narrower(a, b string) int {
	for i := 0; ; i++ {
		switch {
		case i == len(a) && i == len(b):
			return 0
		case i == len(a):
			return 1
		case i == len(b):
			return -1
		}
		ca, cb := a[i], b[i]
		switch {
		case ca == cb:
			continue
		case ca == '$':
			return 1
		case cb == '$':
			return -1
		case ca == '*':
			return 1
		case cb == '*':
			return -1
		}
		return 0
	}
}

// acapCand is one field that matches the resource asked about.
type acapCand struct {
	allow bool
	exact bool // the field names the usage asked about, not its basic type
	cmp   string
	rule  *acapRule // nil for a conventional rule
	conv  *Rule     // the conventional rule
}

// globFold matches a usage purpose against a purpose pattern (§2.8).
func globFold(pat, s string) bool {
	p := compilePattern(pat, true)
	c, _ := appendCanon(nil, s, false, true, false)
	return p.match(c)
}

// acapEval answers ACAPCheck and ACAPCheckPurpose: whether crawler agent,
// acting for purpose ("" for none), may do usage on target.
func (f *File) acapEval(agent, purpose, usage, target string) ACAPVerdict {
	u := lowerString(trimWS(usage))
	v := ACAPVerdict{Usage: u}
	a := f.ACAP
	if a == nil {
		v.Reason = ACAPReasonNoACAP
		f.convFallback(&v, agent, target, u)
		return v
	}
	q := acapQuery{
		a:       a,
		usage:   u,
		lagent:  lowerString(trimWS(agent)),
		purpose: trimWS(purpose),
		target:  appendTarget(nil, target, true),
	}
	switch {
	case u == "":
		v.Allowed, v.Reason = true, ACAPReasonNoUsage
		return v
	case u == "crawl" && isRobotsTxt(appendTarget(nil, target, false)):
		// ACAP extends RFC 9309; a crawler must read the file to learn
		// its permissions.
		v.Applies, v.Allowed, v.Reason = true, true, ACAPReasonRobotsTxt
		return v
	}

	v.Note = a.referenceNotes(v.Note, q.lagent)

	// Named-crawler fields override "*" fields for the same usage and
	// resource (§2.2).
	cands := q.collect(false, true)
	overridden := 0
	crawler := ""
	if len(cands) > 0 {
		overridden = len(q.collect(false, false))
	} else {
		cands = q.collect(false, false)
		if len(cands) > 0 {
			crawler = "*"
		}
	}
	// Conventional records join in for crawl unless ignored (§2.9.2).
	var conv []acapCand
	var convGroup string
	if u == "crawl" && !a.IgnoreConventional {
		conv, convGroup = f.convCands(agent, target)
	}
	if len(cands) == 0 {
		f.acapNoRecord(&v, &q, len(conv) > 0, agent, target)
		return v
	}
	v.Applies = true
	pool := append(cands, conv...)
	f.acapDecide(&v, pool, q.lagent, crawler)
	if v.Reason == ACAPReasonConventional {
		v.Crawler = convGroup
	}
	if overridden > 0 && v.Reason == ACAPReasonRecord {
		v.Reason = ACAPReasonNamedOverrides
		v.Note = joinNote(v.Note, strconv.Itoa(overridden)+` matching "*" field(s) overridden`)
	}
	return v
}

// acapQuery is one ACAP question: may the crawler lagent, acting for
// purpose, do usage on target (canonical, case-folded).
type acapQuery struct {
	a       *ACAP
	usage   string // lower case
	lagent  string // lower case
	purpose string // "" for none
	target  []byte
}

// inFamily reports whether a field's usage ru answers the query's usage:
// the same usage, or "present" for any "present-…" usage. With other set,
// only the "other" usage does (§2.5.6).
func (q *acapQuery) inFamily(ru string, other bool) bool {
	if other {
		return ru == "other"
	}
	return ru == q.usage || strings.HasPrefix(q.usage, "present-") && ru == "present"
}

// collect returns the fields that match the target, of the query's usage
// family (or of usage "other"), for the named crawler or for "*",
// preferring purpose sub-records over general fields.
func (q *acapQuery) collect(other, named bool) []acapCand {
	var general, special []acapCand
	for i := range q.a.rules {
		r := &q.a.rules[i]
		if !q.inFamily(r.usage, other) {
			continue
		}
		if named && !contains(r.crawlers, q.lagent) || !named && !r.any {
			continue
		}
		isPurpose := r.purposes != nil
		if isPurpose && !q.forPurpose(r) {
			continue
		}
		for pi := range r.pats {
			if r.pats[pi].match(q.target) {
				c := acapCand{allow: r.allow, exact: r.usage == q.usage, cmp: r.cmp[pi], rule: r}
				if isPurpose {
					special = append(special, c)
				} else {
					general = append(general, c)
				}
			}
		}
	}
	if len(special) > 0 {
		return special
	}
	return general
}

// forPurpose reports whether the purpose sub-record r applies: the query
// has a purpose and it matches one of r's purpose patterns (§2.3.3).
func (q *acapQuery) forPurpose(r *acapRule) bool {
	if q.purpose == "" {
		return false
	}
	for _, pp := range r.purposes {
		if globFold(pp, q.purpose) {
			return true
		}
	}
	return false
}

// referenceNotes adds to note, and returns, a note for each
// ACAP-permissions-reference that applies to crawler lagent: references
// are never fetched (§2.3.2).
func (a *ACAP) referenceNotes(note, lagent string) string {
	for _, b := range a.Blocks {
		if b.PermissionsReference == "" {
			continue
		}
		named, any := lowerCrawlers(b.Crawlers)
		if any || contains(named, lagent) {
			note = joinNote(note, "ACAP-permissions-reference "+strconv.Quote(b.PermissionsReference)+" on line "+strconv.Itoa(b.ReferenceLine)+" not fetched")
		}
	}
	return note
}

// acapNoRecord decides v when no field of the query's usage matches: by
// the fields of usage "other", unless conventional records matched
// (hasConv), else as the absence of a record, falling back to the
// conventional rules.
func (f *File) acapNoRecord(v *ACAPVerdict, q *acapQuery, hasConv bool, agent, target string) {
	a, u := q.a, q.usage
	// Usage type other: blanket prohibition (or permission) of usages
	// not explicitly permitted (§2.5.6). Conventional rules count as
	// explicit for crawl.
	if u != "other" && !hasConv {
		crawler := ""
		cands := q.collect(true, true)
		if len(cands) == 0 {
			cands = q.collect(true, false)
			if len(cands) > 0 {
				crawler = "*"
			}
		}
		if len(cands) > 0 {
			f.acapDecide(v, cands, q.lagent, crawler)
			v.Applies = true
			if v.Reason != ACAPReasonUndecidable {
				v.Reason = ACAPReasonOther
			}
			return
		}
	}
	if u == "crawl" && a.IgnoreConventional {
		v.Applies, v.Allowed, v.Reason = true, true, ACAPReasonIgnoreNoRecord
		return
	}
	v.Reason = ACAPReasonNoRecord
	f.convFallback(v, agent, target, u)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// convFallback fills v from conventional records when ACAP does not speak:
// crawl follows them (RFC 9309); other usages are not restricted by them.
func (f *File) convFallback(v *ACAPVerdict, agent, target, u string) {
	v.Allowed = true
	if u != "crawl" || f.ACAP != nil && f.ACAP.IgnoreConventional {
		return
	}
	groups := f.m.groups
	if f.m.acapConv != nil {
		groups = f.m.acapConv // rules inside ACAP records do not count (§2.9.2)
	}
	cv := f.checkGroups(groups, agent, target)
	v.Allowed = cv.Allowed
	if cv.Rule != nil {
		v.Record, v.Line, v.Crawler = cv.Rule.String(), cv.Rule.Line, cv.Group
		v.Note = joinNote(v.Note, "conventional "+cv.Evidence())
	}
}

// convCands returns every conventional rule of the group applying to agent
// that matches target, except rules inside ACAP records (§2.9.2).
func (f *File) convCands(agent, target string) ([]acapCand, string) {
	e := f.m.entry(agent)
	if e == nil {
		return nil, ""
	}
	groups := f.m.groups
	if f.m.acapConv != nil {
		groups = f.m.acapConv
	}
	u := appendTarget(nil, target, false)
	if isRobotsTxt(u) {
		return nil, e.name
	}
	var out []acapCand
	for _, gi := range e.groups {
		for i := range groups[gi].rules {
			r := &groups[gi].rules[i]
			if !r.pat.match(u) {
				continue
			}
			rule := &f.Groups[r.group].Rules[r.index]
			p := rule.Pattern
			if p[0] != '/' && p[0] != '*' {
				p = "/" + p
			}
			c, _ := appendCanon(nil, p, true, true, false)
			out = append(out, acapCand{allow: r.allow, exact: true, cmp: string(c), conv: rule})
		}
	}
	return out, e.name
}

// acapDecide applies the conflict resolution of §2.4.5 to the matching
// fields: when they disagree, the field narrower than every field of the
// other decision wins; if there is none, the usage is prohibited. An ACAP
// field and a conventional rule with the same pattern: the conventional
// rule is ignored (§2.9.2).
func (f *File) acapDecide(v *ACAPVerdict, pool []acapCand, lagent, crawler string) {
	mixed := false
	for _, c := range pool[1:] {
		if c.allow != pool[0].allow {
			mixed = true
			break
		}
	}
	var win *acapCand
	reason := ACAPReasonRecord
	if !mixed {
		win = &pool[0]
		for i := 1; i < len(pool); i++ {
			if beats(&pool[i], win) || win.rule == nil && pool[i].rule != nil && pool[i].cmp == win.cmp {
				win = &pool[i]
			}
		}
	} else {
		reason = ACAPReasonNarrowest
		for i := range pool {
			w := &pool[i]
			ok := true
			overConv := false
			for j := range pool {
				c := &pool[j]
				if c.allow == w.allow {
					continue
				}
				if beats(w, c) {
					continue
				}
				if w.cmp == c.cmp && w.rule != nil && c.rule == nil {
					overConv = true
					continue
				}
				ok = false
				break
			}
			if ok && (win == nil || beats(w, win)) {
				win = w
				reason = ACAPReasonNarrowest
				if overConv {
					reason = ACAPReasonACAPOverConv
				}
			}
		}
		if win == nil {
			v.Allowed = false
			v.Reason = ACAPReasonUndecidable
			// Report the first ACAP field involved as the evidence.
			for i := range pool {
				if pool[i].rule != nil {
					f.fillFromRule(v, pool[i].rule, lagent, crawler)
					break
				}
			}
			v.Note = joinNote(v.Note, strconv.Itoa(len(pool))+" conflicting fields, none narrowest (ACAP §2.4.5)")
			return
		}
	}
	v.Allowed = win.allow
	v.Reason = reason
	if win.rule == nil {
		v.Reason = ACAPReasonConventional
		v.Record, v.Line = win.conv.String(), win.conv.Line
		return
	}
	f.fillFromRule(v, win.rule, lagent, crawler)
}

// beats reports whether field a has a narrower effective scope than b: a
// narrower pattern (§2.4.5); with the same pattern, a field naming the
// derived usage asked about ("present-snippet") beats one naming its basic
// type ("present"), and an ACAP field beats a conventional rule only
// through the caller's §2.9.2 handling, not here.
func beats(a, b *acapCand) bool {
	switch narrower(a.cmp, b.cmp) {
	case -1:
		return true
	case 1:
		return false
	}
	return a.cmp == b.cmp && a.exact && !b.exact && a.rule != nil && b.rule != nil
}

func (f *File) fillFromRule(v *ACAPVerdict, r *acapRule, lagent, crawler string) {
	rec := &f.ACAP.Records[r.rec]
	v.Record, v.Line, v.FieldUsage = rec.Text, rec.Line, r.usage
	if crawler == "*" {
		v.Crawler = "*"
	} else {
		for _, c := range rec.Crawlers {
			if lowerString(c) == lagent {
				v.Crawler = c
				break
			}
		}
	}
	if r.allow {
		v.TimeLimit, v.Qualifiers = r.tl, r.quals
	}
}
