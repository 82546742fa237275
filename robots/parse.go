package robots

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Diagnostic codes. They are stable: tools and tests may depend on them.
const (
	DiagTruncated          = "truncated"            // body exceeded the parsing limit (RFC 9309 §2.5)
	DiagUTF16              = "utf16"                // body had a UTF-16 byte order mark and was transcoded
	DiagInvalidUTF8        = "invalid-utf8"         // line is not valid UTF-8 (RFC 9309 §2.3); bytes kept as they are
	DiagUnknownKey         = "unknown-key"          // line with a key this parser does not know; ignored
	DiagNoKey              = "no-key"               // line with no recognizable key at all; ignored
	DiagKeyTypo            = "key-typo"             // key accepted as a misspelling of a known one (RFC 9309 §2.2.4)
	DiagMissingColon       = "missing-colon"        // key and value separated by whitespace only
	DiagRuleOutsideGroup   = "rule-outside-group"   // allow/disallow before any user-agent line; ignored (§2.2.2)
	DiagUserAgentEmpty     = "user-agent-empty"     // user-agent line without a value; starts a group no crawler matches
	DiagUserAgentVersion   = "user-agent-trimmed"   // user-agent value with '/' or whitespace; product token taken before it
	DiagUserAgentChars     = "user-agent-chars"     // product token with characters outside RFC 9309 §2.2.1 (and digits)
	DiagPatternNoSlash     = "pattern-no-slash"     // pattern not starting with '/' or '*'; '/' prepended
	DiagPatternDollar      = "pattern-dollar"       // '$' not at the end of a pattern; taken literally
	DiagCrawlDelayInvalid  = "crawl-delay-invalid"  // crawl-delay value is not a non-negative number; ignored
	DiagCrawlDelayOutside  = "crawl-delay-outside"  // crawl-delay before any user-agent line; ignored
	DiagCrawlDelayRepeated = "crawl-delay-repeated" // second crawl-delay in one group; the first is kept
	DiagSitemapEmpty       = "sitemap-empty"        // sitemap line without a URL
	DiagConventionalInACAP = "conventional-in-acap" // allow/disallow inside an ACAP record (ACAP §2.9.2)
	DiagTooMany            = "too-many-diagnostics" // more than MaxDiagnostics; the rest are counted, not kept
	DiagNotRobotsTxt       = "not-robots-txt"       // body starts like an HTML, XML or JSON document ('<', '{', '['); read line by line all the same

	// AI usage preferences (aipref attach §3, Content Signals, RSL).
	DiagUsageOutsideGroup = "usage-outside-group"    // content-usage or content-signal before any user-agent line; ignored
	DiagUsageInvalid      = "content-usage-invalid"  // statement is empty or not a Structured Fields Dictionary (wrong case too); all unknown
	DiagUsageLabel        = "content-usage-label"    // label other than train-ai and search; ignored
	DiagUsageOutdated     = "content-usage-outdated" // label of an earlier aipref draft (train-genai, bots, ai-output); ignored
	DiagUsageValue        = "content-usage-value"    // train-ai or search not the token y or n; unknown
	DiagSignalSyntax      = "content-signal-syntax"  // empty content-signal, or an item without '='; ignored
	DiagSignalKey         = "content-signal-key"     // key other than search, ai-input, ai-train, use; ignored
	DiagSignalValue       = "content-signal-value"   // value other than yes/no (use: immediate/reference/full); unknown
	DiagLicenseInvalid    = "license-invalid"        // license line without a URL, or not an absolute one
)

// diagTextCap caps the line text copied into a Diagnostic.
const diagTextCap = 256

// MaxDiagnostics caps File.Diagnostics; past it one final diagnostic with
// code DiagTooMany counts the rest. Lines still classifies every line.
const MaxDiagnostics = 1000

// keyword identifies what a line's key means.
type keyword uint8

const (
	kwUnknown keyword = iota
	kwUserAgent
	kwAllow
	kwDisallow
	kwCrawlDelay
	kwSitemap
	kwOther // known non-standard record kept as "other"
	kwACAP
	kwContentUsage  // aipref attach §3
	kwContentSignal // Cloudflare Content Signals
	kwLicense       // RSL 1.0
)

// keys maps a key, lower-cased with '-', '_' and spaces removed, to its
// meaning and its proper spelling. A lookup whose proper spelling, once
// compacted the same way, differs from the key is a typo (RFC 9309 §2.2.4
// allows accepting "common typos of the record").
var keys = map[string]struct {
	kw     keyword
	proper string
}{
	"useragent":  {kwUserAgent, "user-agent"},
	"useragents": {kwUserAgent, "user-agent"},
	"useragnet":  {kwUserAgent, "user-agent"},
	"usergent":   {kwUserAgent, "user-agent"},
	"useraget":   {kwUserAgent, "user-agent"},
	"usragent":   {kwUserAgent, "user-agent"},
	"useeragent": {kwUserAgent, "user-agent"},
	"uesragent":  {kwUserAgent, "user-agent"},
	"allow":      {kwAllow, "allow"},
	"disallow":   {kwDisallow, "disallow"},
	"disalow":    {kwDisallow, "disallow"},
	"dissallow":  {kwDisallow, "disallow"},
	"dissalow":   {kwDisallow, "disallow"},
	"diasllow":   {kwDisallow, "disallow"},
	"disallaw":   {kwDisallow, "disallow"},
	"dissallaw":  {kwDisallow, "disallow"},
	"disallows":  {kwDisallow, "disallow"},
	"dsallow":    {kwDisallow, "disallow"},
	"crawldelay": {kwCrawlDelay, "crawl-delay"},
	"sitemap":    {kwSitemap, "sitemap"},
	"sitemaps":   {kwSitemap, "sitemap"},
	"sitmap":     {kwSitemap, "sitemap"},
	// Records some crawlers read and this package keeps as "other"; they
	// do not take part in grouping (RFC 9309 §2.2.4: they MUST NOT
	// interfere with the explicitly defined records).
	"host":         {kwOther, "host"},
	"cleanparam":   {kwOther, "clean-param"},
	"requestrate":  {kwOther, "request-rate"},
	"visittime":    {kwOther, "visit-time"},
	"noindex":      {kwOther, "noindex"},
	"nofollow":     {kwOther, "nofollow"},
	"noarchive":    {kwOther, "noarchive"},
	"robotversion": {kwOther, "robot-version"},
	"comment":      {kwOther, "comment"},
	// AI usage preferences, parsed by usage.go.
	"contentsignal":  {kwContentSignal, "content-signal"},
	"contentsignals": {kwContentSignal, "content-signal"},
	"contentusage":   {kwContentUsage, "content-usage"},
	"license":        {kwLicense, "license"},
}

// lookupKey classifies a key as written. It returns the keyword, the
// proper spelling and whether the key was a misspelling or an unusual
// spelling ("user agent", "useragent").
func lookupKey(k string) (kw keyword, proper string, typo bool) {
	if len(k) >= 5 && strings.EqualFold(k[:5], "acap-") {
		return kwACAP, "", false
	}
	if strings.EqualFold(k, "acap") {
		return kwACAP, "", false
	}
	var buf [32]byte
	n := 0
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c == '-' || c == '_' || c == ' ' || c == '\t' {
			continue
		}
		if n == len(buf) {
			return kwUnknown, "", false
		}
		buf[n] = lowerASCII(c)
		n++
	}
	e, ok := keys[string(buf[:n])]
	if !ok {
		return kwUnknown, "", false
	}
	return e.kw, e.proper, !strings.EqualFold(k, e.proper)
}

// parser holds the state of one Parse call.
type parser struct {
	f *File

	group       int  // current group, -1 before the first user-agent line
	inAgentRun  bool // the last group line was a user-agent line
	inACAP      bool // inside an ACAP record (after ACAP-crawler, before user-agent)
	acap        *acapParser
	ruleInACAP  map[int]bool // lines of conventional rules inside ACAP records
	prevACAPIdx int          // index in f.Lines of the previous ACAP line, -1 if the previous line was not ACAP

	dropped      int // diagnostics past MaxDiagnostics
	firstDropped int // line of the first of them
}

func parse(body []byte, opts Options) *File {
	f := &File{Size: len(body)}
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	data := body
	truncatedAt := -1
	if len(data) > limit {
		f.Truncated = true
		// Keep whole lines only: cut after the last line end inside the
		// limit (RFC 9309 §2.5; the partial last line is dropped too).
		cut := 0
		for i := limit - 1; i >= 0; i-- {
			if data[i] == '\n' || data[i] == '\r' {
				cut = i + 1
				break
			}
		}
		data = data[:cut]
		truncatedAt = cut
	}
	p := &parser{f: f, group: -1, prevACAPIdx: -1}

	var text string
	var utf16Note bool
	switch {
	case len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF):
		text = decodeUTF16(data)
		utf16Note = true
	default:
		text = string(data)
	}
	// A UTF-8 byte order mark is skipped, and so is a cut one (EF BB, or
	// EF alone), as Google's parser does: a file that starts with one
	// would otherwise lose its first line to an unknown key.
	bom := false
	const bomBytes = "\xEF\xBB\xBF"
	for i := 0; i < len(bomBytes) && i < len(text) && text[i] == bomBytes[i]; i++ {
		bom = true
		if i == len(bomBytes)-1 || i+1 == len(text) || text[i+1] != bomBytes[i+1] {
			text = text[i+1:]
			break
		}
	}
	if utf16Note {
		f.Diagnostics = append(f.Diagnostics, Diagnostic{Line: 1, Code: DiagUTF16,
			Message: "robots.txt is UTF-16 (byte order mark); transcoded to UTF-8 (RFC 9309 §2.3 requires UTF-8)"})
	}
	if t := strings.TrimLeft(text, " \t\r\n"); t != "" && (t[0] == '<' || t[0] == '{' || t[0] == '[') {
		// A robots.txt that redirects to a login or error page (RFC 9309
		// §2.3.1.2 parses what the redirect leads to).
		f.Diagnostics = append(f.Diagnostics, Diagnostic{Line: 1, Code: DiagNotRobotsTxt,
			Message: "body looks like an HTML, XML or JSON document, not robots.txt; its lines are read as any other, so it usually has no rules and allows all"})
	}

	// Size Lines once: every line gets an entry.
	f.Lines = make([]Line, 0, strings.Count(text, "\n")+strings.Count(text, "\r")+1)
	lineNo := 0
	for len(text) > 0 {
		end, next := lineEnd(text)
		lineNo++
		p.line(lineNo, text[:end], lineNo == 1 && bom)
		text = text[next:]
	}
	if p.acap != nil {
		f.ACAP = p.acap.finish()
	}
	if p.dropped > 0 {
		f.Diagnostics = append(f.Diagnostics, Diagnostic{Line: p.firstDropped, Code: DiagTooMany,
			Message: strconv.Itoa(p.dropped) + " more diagnostics from line " + strconv.Itoa(p.firstDropped) + " on not kept"})
	}
	if f.Truncated {
		f.Diagnostics = append(f.Diagnostics, Diagnostic{Line: lineNo + 1, Code: DiagTruncated,
			Message: "body of " + strconv.Itoa(len(body)) + " bytes exceeds the parsing limit of " +
				strconv.Itoa(limit) + " bytes; content after byte " + strconv.Itoa(truncatedAt) + " ignored (RFC 9309 §2.5)"})
	}
	f.m = compile(f, p.ruleInACAP)
	return f
}

// lineEnd returns the end of the first line of s and the start of the next
// one; lines end in "\n", "\r\n" or "\r" (RFC 9309 §2.2: NL).
func lineEnd(s string) (end, next int) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			return i, i + 1
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				return i, i + 2
			}
			return i, i + 1
		}
	}
	return len(s), len(s)
}

func decodeUTF16(b []byte) string {
	big := b[0] == 0xFE
	b = b[2:]
	u := make([]uint16, len(b)/2)
	for i := range u {
		if big {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return string(utf16.Decode(u))
}

func isWS(c byte) bool { return c == ' ' || c == '\t' }

func trimWS(s string) string {
	i, j := 0, len(s)
	for i < j && isWS(s[i]) {
		i++
	}
	for j > i && isWS(s[j-1]) {
		j--
	}
	return s[i:j]
}

func capText(s string) string {
	if len(s) <= diagTextCap {
		return s
	}
	return s[:diagTextCap]
}

// outsideGroup reports whether a group record at line n comes before any
// user-agent line; if so it records the line as ignored, with a
// diagnostic (code, msg), and the caller drops it.
func (p *parser) outsideGroup(n int, kind, code, msg, value, raw, note string) bool {
	if p.group >= 0 {
		return false
	}
	p.diag(n, code, msg, raw)
	p.addLine(Line{Number: n, Kind: kind, Value: value, Group: -1, Note: joinNote(note, "outside any group; ignored")})
	return true
}

func (p *parser) diag(line int, code, msg, text string) {
	if len(p.f.Diagnostics) >= MaxDiagnostics {
		if p.dropped == 0 {
			p.firstDropped = line
		}
		p.dropped++
		return
	}
	p.f.Diagnostics = append(p.f.Diagnostics, Diagnostic{Line: line, Code: code, Message: msg, Text: capText(text)})
}

func (p *parser) addLine(l Line) {
	p.f.Lines = append(p.f.Lines, l)
}

// line parses one line.
func (p *parser) line(n int, raw string, bom bool) {
	f := p.f
	var note string
	if bom {
		note = "byte order mark removed"
	}
	if !utf8.ValidString(raw) {
		p.diag(n, DiagInvalidUTF8, "line is not valid UTF-8; its bytes are matched percent-encoded", raw)
	}
	trimmed := trimWS(raw)
	prevACAP := p.prevACAPIdx
	p.prevACAPIdx = -1
	if trimmed == "" {
		p.flushACAP()
		p.addLine(Line{Number: n, Kind: KindBlank, Group: -1, Note: note})
		return
	}
	if trimmed[0] == '#' {
		p.flushACAP()
		if v, ok := acapVersionComment(trimmed); ok {
			p.acapParser().version(n, v)
			note = joinNote(note, "ACAP version comment (ACAP §2.9.3)")
		}
		p.addLine(Line{Number: n, Kind: KindComment, Value: trimmed, Group: -1, Note: note})
		return
	}
	content := trimmed
	if i := strings.IndexByte(content, '#'); i >= 0 {
		content = trimWS(content[:i])
	}

	key, value, missingColon := splitKey(content)
	kw, proper, typo := lookupKey(key)
	if kw == kwUnknown && strings.IndexByte(content, ':') >= 0 {
		// "Disallow /a:b": the colon found belongs to the value.
		if k2, v2, ok := splitWS(content); ok {
			if kw2, proper2, typo2 := lookupKey(k2); kw2 != kwUnknown {
				key, value, missingColon = k2, v2, true
				kw, proper, typo = kw2, proper2, typo2
			}
		}
	}
	if kw == kwUnknown && prevACAP >= 0 && p.acap != nil {
		// A line with no key right after an ACAP field may continue it.
		if p.acap.continuation(n, content) {
			p.addLine(Line{Number: n, Kind: KindACAP, Value: content, Group: -1,
				Note: joinNote(note, "continuation of the ACAP field on line "+strconv.Itoa(f.Lines[prevACAP].Number))})
			p.prevACAPIdx = len(f.Lines) - 1
			return
		}
	}
	p.flushACAP()
	if missingColon && kw != kwUnknown && kw != kwACAP {
		p.diag(n, DiagMissingColon, "no ':' after "+strconv.Quote(key)+"; read as "+proper, raw)
		note = joinNote(note, "missing ':'")
	}
	if typo {
		p.diag(n, DiagKeyTypo, strconv.Quote(key)+" read as "+proper+" (RFC 9309 §2.2.4)", raw)
		note = joinNote(note, strconv.Quote(key)+" read as "+proper)
	}

	switch kw {
	case kwUserAgent:
		p.userAgent(n, value, raw, note)
	case kwAllow, kwDisallow:
		p.rule(n, kw == kwAllow, value, raw, note)
	case kwCrawlDelay:
		p.crawlDelay(n, value, raw, note)
	case kwSitemap:
		if value == "" {
			p.diag(n, DiagSitemapEmpty, "sitemap line without a URL", raw)
		} else {
			f.Sitemaps = append(f.Sitemaps, Sitemap{URL: value, Line: n})
		}
		p.addLine(Line{Number: n, Kind: KindSitemap, Value: value, Group: -1, Note: note})
	case kwOther:
		p.addLine(Line{Number: n, Kind: KindOther, Value: value, Group: -1,
			Note: joinNote(note, proper+" record (not part of RFC 9309; not evaluated)")})
	case kwContentUsage:
		p.contentUsage(n, value, raw, note)
	case kwContentSignal:
		p.contentSignal(n, value, raw, note)
	case kwLicense:
		p.license(n, value, raw, note)
	case kwACAP:
		p.acapLine(n, key, value, raw, note, missingColon)
	default:
		code, msg := DiagUnknownKey, "unknown key "+strconv.Quote(key)+"; line ignored"
		if key == "" {
			code, msg = DiagNoKey, "line has no key; ignored"
		}
		p.diag(n, code, msg, raw)
		p.addLine(Line{Number: n, Kind: KindDiagnostic, Value: content, Group: -1, Note: joinNote(note, code)})
	}
}

// flushACAP reports an ACAP definition left without a value once the line
// after it has been read.
func (p *parser) flushACAP() {
	if p.acap != nil {
		p.acap.flush()
	}
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// splitKey splits "key: value". Without a colon it splits at the first
// whitespace ("Disallow /x"), accepting "user agent x" as a two-word key.
func splitKey(s string) (key, value string, missingColon bool) {
	if i := strings.IndexByte(s, ':'); i >= 0 {
		return trimWS(s[:i]), trimWS(s[i+1:]), false
	}
	k, v, ok := splitWS(s)
	if !ok {
		return s, "", true
	}
	return k, v, true
}

// splitWS splits at the first run of whitespace; a leading "user agent"
// (two words) stays one key.
func splitWS(s string) (key, value string, ok bool) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, "", false
	}
	if strings.EqualFold(s[:i], "user") {
		rest := trimWS(s[i:])
		if len(rest) >= 5 && strings.EqualFold(rest[:5], "agent") {
			j := strings.IndexAny(rest, " \t:")
			if j < 0 {
				return s, "", true
			}
			return s[:len(s)-len(rest)+j], trimWS(strings.TrimPrefix(trimWS(rest[j:]), ":")), true
		}
	}
	return s[:i], trimWS(s[i:]), true
}

// productToken reduces a user-agent value to its product token: the part
// before the first '/' or whitespace ("Googlebot/2.1" is "Googlebot",
// "Mozilla/5.0 (compatible; Foo)" is "Mozilla"), without trailing '*'s
// ("Googlebot*" and "Mediapartners-Google*" name the bot before the star).
// "*" alone stays "*". See docs/semantics.md.
func productToken(v string) (tok string, trimmed bool) {
	tok = v
	for i := 0; i < len(v); i++ {
		if v[i] == '/' || isWS(v[i]) {
			tok, trimmed = v[:i], true
			break
		}
	}
	for len(tok) > 1 && tok[len(tok)-1] == '*' {
		tok, trimmed = tok[:len(tok)-1], true
	}
	if strings.Trim(tok, "*") == "" && tok != "" {
		tok = "*"
	}
	return tok, trimmed
}

// validTokenChars reports whether tok uses only the characters of the RFC
// 9309 §2.2.1 product-token grammar, plus digits (see docs/semantics.md).
func validTokenChars(tok string) bool {
	if tok == "*" {
		return true
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if isAlpha(c) || '0' <= c && c <= '9' || c == '-' || c == '_' {
			continue
		}
		return false
	}
	return true
}

func (p *parser) userAgent(n int, value, raw, note string) {
	f := p.f
	p.inACAP = false
	if p.group < 0 || !p.inAgentRun {
		f.Groups = append(f.Groups, Group{Line: n})
		p.group = len(f.Groups) - 1
	}
	p.inAgentRun = true
	tok, trimmed := productToken(value)
	switch {
	case value == "":
		p.diag(n, DiagUserAgentEmpty, "user-agent line without a product token; its group applies to no crawler", raw)
	case tok == "":
		p.diag(n, DiagUserAgentEmpty, "user-agent value "+strconv.Quote(value)+" has no product token; its group applies to no crawler", raw)
	case trimmed:
		p.diag(n, DiagUserAgentVersion, "user-agent value "+strconv.Quote(value)+" read as product token "+strconv.Quote(tok), raw)
		note = joinNote(note, "product token "+strconv.Quote(tok)+" taken from "+strconv.Quote(value))
	}
	if tok != "" && !validTokenChars(tok) {
		p.diag(n, DiagUserAgentChars, "product token "+strconv.Quote(tok)+" has characters outside RFC 9309 §2.2.1; matched as written", raw)
	}
	g := &f.Groups[p.group]
	g.Agents = append(g.Agents, Agent{Token: tok, Line: n})
	p.addLine(Line{Number: n, Kind: KindUserAgent, Value: tok, Group: p.group, Note: note})
}

func (p *parser) rule(n int, allow bool, value, raw, note string) {
	f := p.f
	kind := KindDisallow
	if allow {
		kind = KindAllow
	}
	if p.outsideGroup(n, kind, DiagRuleOutsideGroup, kind+" before the first user-agent line; ignored (RFC 9309 §2.2.2)", value, raw, note) {
		return
	}
	p.inAgentRun = false
	if value != "" && value[0] != '/' && value[0] != '*' {
		p.diag(n, DiagPatternNoSlash, "pattern "+strconv.Quote(value)+" does not start with '/' or '*'; matched as "+strconv.Quote("/"+value), raw)
		note = joinNote(note, "'/' prepended")
	}
	if i := strings.IndexByte(value, '$'); i >= 0 && i != len(value)-1 {
		p.diag(n, DiagPatternDollar, "'$' inside pattern "+strconv.Quote(value)+" is matched literally (only a final '$' anchors)", raw)
	}
	switch {
	case value == "" && allow:
		note = joinNote(note, "empty allow: matches nothing")
	case value == "":
		note = joinNote(note, "empty disallow: matches nothing")
	}
	if p.inACAP {
		if p.ruleInACAP == nil {
			p.ruleInACAP = make(map[int]bool)
		}
		p.ruleInACAP[n] = true
		p.diag(n, DiagConventionalInACAP, kind+" inside an ACAP record: used by conventional matching, ignored by ACAP (ACAP §2.9.2)", raw)
	}
	g := &f.Groups[p.group]
	g.Rules = append(g.Rules, Rule{Allow: allow, Pattern: value, Line: n})
	p.addLine(Line{Number: n, Kind: kind, Value: value, Group: p.group, Note: note})
}

func (p *parser) crawlDelay(n int, value, raw, note string) {
	f := p.f
	if p.outsideGroup(n, KindCrawlDelay, DiagCrawlDelayOutside, "crawl-delay before the first user-agent line; ignored", value, raw, note) {
		return
	}
	// A crawl-delay belongs to its group like a rule does, so it ends the
	// run of user-agent lines (see docs/semantics.md).
	p.inAgentRun = false
	g := &f.Groups[p.group]
	secs, err := strconv.ParseFloat(value, 64)
	switch {
	case err != nil || secs < 0 || secs != secs || secs > 1e9:
		p.diag(n, DiagCrawlDelayInvalid, "crawl-delay "+strconv.Quote(value)+" is not a number of seconds; ignored", raw)
		note = joinNote(note, "invalid; ignored")
	case g.CrawlDelay != nil:
		p.diag(n, DiagCrawlDelayRepeated, "second crawl-delay in the group; the one on line "+strconv.Itoa(g.CrawlDelay.Line)+" is kept", raw)
		note = joinNote(note, "repeated; ignored")
	default:
		g.CrawlDelay = &CrawlDelay{Seconds: secs, Line: n, Text: value}
	}
	p.addLine(Line{Number: n, Kind: KindCrawlDelay, Value: value, Group: p.group, Note: note})
}
