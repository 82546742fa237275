package extract

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
)

// Canonical field names used in evidence.
const (
	fieldRobotsTag  = "Robots-Tag"
	fieldXRobotsTag = "X-Robots-Tag"
)

// maxEvidence caps the evidence string kept for one header line or tag.
// Longer evidence keeps its first maxEvidence bytes and an ellipsis.
const maxEvidence = 2048

// knownRules are the rule names a robots header or meta tag may carry:
// those this package interprets plus the other rules search engines
// document. They decide whether a bare Robots-Tag member is a rule and
// whether a meta tag's content "parses entirely as robots rules".
var knownRules = map[string]bool{
	RuleNoindex: true, RuleNosnippet: true, RuleNone: true, RuleNofollow: true,
	RuleNoarchive: true, RuleNoimageindex: true, RuleMaxSnippet: true,
	RuleUnavailableAfter: true, RuleAll: true,
	"index": true, "follow": true, "max-image-preview": true,
	"max-video-preview": true, "notranslate": true, "indexifembedded": true,
	"nocache": true, "noodp": true, "noydir": true, "nositelinkssearchbox": true,
	"noai": true, "noimageai": true, "noyaca": true,
}

// valuedRules are the rules whose legacy form is "name: value". A legacy
// "name:" prefix with one of these names is a rule, never a product token.
var valuedRules = map[string]bool{
	RuleMaxSnippet: true, RuleUnavailableAfter: true,
	"max-image-preview": true, "max-video-preview": true,
}

// ParseRobotsTag parses the values of the Robots-Tag field, one per header
// line, as a Structured Field List (repext §3.1.1, RFC 8941 §3.1): each
// member is a token Item naming a product token or "*", its Parameters are
// the rules. Several lines are one field, joined with ", " (RFC 9110 §5.3).
//
// The joined value is cut at opts.MaxHeaderBytes: complete members before
// the limit are honoured, the member cut by it and everything after are
// ignored (a DiagHeaderTruncated diagnostic says so).
//
// Leniency, each with a diagnostic: a member without parameters whose name
// is a rule ("Robots-Tag: noindex") is read as a global rule, and one of the
// form "token:rule" is read as the legacy X-Robots-Tag form; a value that is
// not a valid Structured Field List is read with the legacy X-Robots-Tag
// parser (DiagSFFallback).
func ParseRobotsTag(values []string, opts Options) ([]Rule, []Diagnostic) {
	var p headerParser
	p.field, p.via = fieldRobotsTag, ViaRobotsTag
	lines := p.limit(values, opts.maxHeader())
	if len(lines) == 0 {
		return p.rules, p.diags
	}
	// Parse line by line when every line is a valid list on its own, so that
	// each rule's evidence is its own line.
	lists := make([]httpsfv.List, len(lines))
	perLine := true
	for i, l := range lines {
		list, err := httpsfv.UnmarshalList([]string{l})
		if err != nil {
			perLine = false
			break
		}
		lists[i] = list
	}
	if perLine {
		for i, l := range lines {
			p.sfList(lists[i], p.evidence(l), true)
		}
		return p.rules, p.diags
	}
	// A member may span lines (a string containing ", "): the field as a
	// whole may still be valid.
	joined := strings.Join(lines, ", ")
	if list, err := httpsfv.UnmarshalList([]string{joined}); err == nil {
		p.sfList(list, p.evidence(joined), true)
		return p.rules, p.diags
	}
	p.diag(DiagSFFallback, "Robots-Tag is not a valid Structured Field List (RFC 8941); read with the legacy X-Robots-Tag rules", p.evidence(joined))
	for _, l := range lines {
		p.legacyLine(l)
	}
	return p.rules, p.diags
}

// ParseXRobotsTag parses the values of the legacy X-Robots-Tag field, one
// per header line. Most real values are not Structured Fields:
//
//	X-Robots-Tag: noindex, nofollow
//	X-Robots-Tag: googlebot: noindex, nofollow
//	X-Robots-Tag: unavailable_after: 25 Jun 2010 15:00:00 PST
//	X-Robots-Tag: max-snippet:20, max-image-preview:large
//
// Each line is read on its own. A line that parses as a Structured Field
// List whose every member is a token Item with at least one parameter
// ("*;noindex, googlebot;nosnippet") is read as Robots-Tag is; any other
// line is read in the legacy form: comma separated rules, where a leading
// "token:" naming something that is not a rule scopes the rules after it,
// up to the end of the line or the next "token:", to that product token
// (Google's documented behaviour). The value of unavailable_after may
// contain commas ("Friday, 25-Jun-10 15:00:00 PST"): a value that is only
// a weekday name takes the next element too.
//
// The limit of opts.MaxHeaderBytes applies to the joined field value as for
// Robots-Tag.
func ParseXRobotsTag(values []string, opts Options) ([]Rule, []Diagnostic) {
	var p headerParser
	p.field, p.via = fieldXRobotsTag, ViaXRobotsTag
	for _, l := range p.limit(values, opts.maxHeader()) {
		if list, ok := sfShaped(l); ok {
			p.sfList(list, p.evidence(l), false)
			continue
		}
		p.legacyLine(l)
	}
	return p.rules, p.diags
}

// sfShaped reports whether a legacy X-Robots-Tag line is meant as a
// Structured Field List: it parses as one and every member is a token Item
// that is not a rule name and has parameters. "noindex, nofollow" parses
// too, but as product tokens without rules, which is not what its author
// meant; "noindex;nofollow" is two rules.
func sfShaped(line string) (httpsfv.List, bool) {
	if strings.IndexByte(line, ';') < 0 {
		return nil, false
	}
	list, err := httpsfv.UnmarshalList([]string{line})
	if err != nil || len(list) == 0 {
		return nil, false
	}
	for _, m := range list {
		it, ok := m.(httpsfv.Item)
		if !ok {
			return nil, false
		}
		tok, ok := it.Value.(httpsfv.Token)
		if !ok || knownRules[strings.ToLower(string(tok))] {
			// "noindex;nofollow" is two rules, not a product token.
			return nil, false
		}
		if it.Params == nil || len(it.Params.Names()) == 0 {
			return nil, false
		}
	}
	return list, true
}

// headerParser collects the rules and diagnostics of one header field.
type headerParser struct {
	field string // canonical field name for evidence
	via   string
	rules []Rule
	diags []Diagnostic
}

func (p *headerParser) diag(code, msg, evidence string) {
	p.diags = append(p.diags, Diagnostic{Code: code, Message: msg, Evidence: capEvidence(evidence)})
}

func (p *headerParser) evidence(line string) string {
	return capEvidence(p.field + ": " + line)
}

func capEvidence(s string) string {
	if len(s) <= maxEvidence {
		return s
	}
	cut := maxEvidence
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 { // keep UTF-8 whole
		cut--
	}
	return s[:cut] + "…"
}

// limit applies the parsing limit of repext §3.1.1 to the field value made
// of values joined with ", ": it returns the lines to parse, the last one
// cut after its last complete member when the limit falls inside it.
func (p *headerParser) limit(values []string, max int) []string {
	total := 0
	for i, v := range values {
		if i > 0 {
			total += 2 // ", "
		}
		start := total
		total += len(v)
		if total <= max {
			continue
		}
		// The limit falls inside this line (or inside the separator
		// before it).
		kept := values[:i:i]
		budget := max - start
		if budget > 0 {
			cut := v[:budget]
			rest := v[budget:]
			// The member ending at the limit is complete when the next
			// thing after it is a list separator.
			if r := strings.TrimLeft(rest, " \t"); r == "" || r[0] == ',' {
				cut = strings.TrimRight(cut, " \t")
			} else if j := lastTopLevelComma(cut); j >= 0 {
				cut = strings.TrimRight(cut[:j], " \t")
			} else {
				cut = ""
			}
			if cut != "" {
				kept = append(kept, cut)
			}
		}
		p.diag(DiagHeaderTruncated,
			p.field+" field value is "+strconv.Itoa(joinedLen(values))+" bytes, over the parsing limit of "+strconv.Itoa(max)+": the member cut by the limit and the rest are ignored (repext §3.1.1)",
			p.evidence(v))
		return kept
	}
	return values
}

func joinedLen(values []string) int {
	n := 0
	for i, v := range values {
		if i > 0 {
			n += 2
		}
		n += len(v)
	}
	return n
}

// lastTopLevelComma returns the index of the last comma of s that is
// outside quoted strings and parentheses, or -1.
func lastTopLevelComma(s string) int {
	last := -1
	forTopLevelCommas(s, func(i int) { last = i })
	return last
}

// splitTopLevel splits s at commas outside quoted strings and parentheses.
func splitTopLevel(s string) []string {
	var parts []string
	start := 0
	forTopLevelCommas(s, func(i int) {
		parts = append(parts, s[start:i])
		start = i + 1
	})
	return append(parts, s[start:])
}

func forTopLevelCommas(s string, f func(int)) {
	inStr, esc, depth := false, false, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '(':
			depth++
		case c == ')':
			if depth > 0 {
				depth--
			}
		case c == ',' && depth == 0:
			f(i)
		}
	}
}

// sfList reads a Structured Field List of product tokens with rule
// parameters (repext §3.1.1). robotsTag enables the leniency for bare
// members described at ParseRobotsTag.
func (p *headerParser) sfList(list httpsfv.List, ev string, robotsTag bool) {
	for _, m := range list {
		it, ok := m.(httpsfv.Item)
		if !ok {
			p.diag(DiagBadMember, p.field+" member is an inner list, not a product token", ev)
			continue
		}
		tok, ok := it.Value.(httpsfv.Token)
		if !ok {
			p.diag(DiagBadMember, p.field+" member is not a token naming a product token or *", ev)
			continue
		}
		name := string(tok)
		var params []string
		if it.Params != nil {
			params = it.Params.Names()
		}
		if len(params) == 0 {
			lower := strings.ToLower(name)
			switch {
			case knownRules[lower]:
				p.diag(DiagBareRule, p.field+" member "+strconv.Quote(name)+" has no parameters; read as a global rule", ev)
				p.add("*", lower, "", ev)
			case robotsTag && strings.IndexByte(name, ':') > 0:
				p.diag(DiagBareRule, p.field+" member "+strconv.Quote(name)+" is in the legacy X-Robots-Tag form; read as such", ev)
				scope := "*"
				p.legacySegment(name, &scope, ev, true)
			default:
				p.diag(DiagNoRules, p.field+" member "+strconv.Quote(name)+" carries no rule: no instruction", ev)
			}
			continue
		}
		token := scopeToken(name)
		for _, k := range params {
			v, _ := it.Params.Get(k)
			switch v := v.(type) {
			case bool:
				if !v {
					p.diag(DiagRuleFalse, "rule "+k+"=?0 for "+name+" is not applied", ev)
					continue
				}
				p.add(token, k, "", ev)
			case time.Time:
				p.addTime(token, k, strconv.FormatInt(v.Unix(), 10), v.UTC(), ev)
			default:
				p.add(token, k, sfValueString(v), ev)
			}
		}
	}
}

// scopeToken normalizes a product token for Rule.Token.
func scopeToken(name string) string {
	if name == "*" {
		return "*"
	}
	return strings.ToLower(name)
}

func sfValueString(v any) string {
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	case httpsfv.Token:
		return string(v)
	case httpsfv.DisplayString:
		return string(v)
	case []byte:
		return base64.StdEncoding.EncodeToString(v)
	default:
		return ""
	}
}

// legacyLine reads one X-Robots-Tag line in the legacy form.
func (p *headerParser) legacyLine(line string) {
	p.ruleList(line, "*", p.evidence(line), true)
}

// ruleList reads a comma separated list of legacy rules for scope.
// allowScope permits "token:" prefixes (header lines, not meta content).
func (p *headerParser) ruleList(line, scope, ev string, allowScope bool) {
	// Some sites quote the whole value or each rule: X-Robots-Tag:
	// "noindex, nofollow".
	line = strings.TrimSpace(line)
	if len(line) >= 2 && line[0] == '"' {
		if u, err := strconv.Unquote(line); err == nil {
			line = u
		}
	}
	segs := splitTopLevel(line)
	for i := 0; i < len(segs); i++ {
		s := unquote(strings.TrimSpace(segs[i]))
		if s == "" {
			continue
		}
		// unavailable_after: Friday, 25-Jun-10 15:00:00 PST — the date's
		// own comma split it. Join the next element while this one ends in
		// a weekday name or the next starts with a digit (no rule does).
		if isDateSegment(s) {
			for i+1 < len(segs) && len(s) <= maxDateLen && (isWeekday(lastWord(s)) || startsWithDigit(segs[i+1])) {
				i++
				s += "," + segs[i]
			}
		}
		p.legacySegment(s, &scope, ev, allowScope)
	}
}

// legacySegment reads one comma separated element of a legacy rule list:
// "noindex", "max-snippet:20", "max-snippet=20", "googlebot: noindex",
// "googlebot;noindex;max-snippet=5" or "noindex nofollow". allowScope
// permits "token:" prefixes that change *scope for the rest of the line.
func (p *headerParser) legacySegment(s string, scope *string, ev string, allowScope bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	// An SF-shaped member inside a legacy value: token;rule;rule=value.
	if strings.IndexByte(s, ';') >= 0 && !strings.ContainsAny(s[:strings.IndexByte(s, ';')], ": ") {
		parts := strings.Split(s, ";")
		tok := strings.TrimSpace(parts[0])
		if knownRules[strings.ToLower(tok)] {
			// "noindex;nofollow": rules separated by the wrong character.
			for _, r := range parts {
				p.legacySegment(r, scope, ev, false)
			}
			return
		}
		if tok == "" || !isProductToken(tok) && tok != "*" {
			p.addRule(*scope, s, ev)
			return
		}
		t := scopeToken(tok)
		for _, r := range parts[1:] {
			r = strings.TrimSpace(r)
			if r == "" {
				continue
			}
			if k, v, ok := strings.Cut(r, "="); ok {
				p.add(t, strings.ToLower(strings.TrimSpace(k)), unquote(strings.TrimSpace(v)), ev)
			} else {
				p.add(t, strings.ToLower(r), "", ev)
			}
		}
		return
	}
	if n, v, ok := splitNameValue(s); ok && allowScope && isScopeName(n) {
		*scope = legacyScope(n)
		if v != "" {
			p.legacySegment(v, scope, ev, false)
		}
		return
	}
	p.addRule(*scope, s, ev)
}

// addRule adds one legacy rule: "name", "name: value", "name=value", or
// several space separated rule names.
func (p *headerParser) addRule(scope, s, ev string) {
	if n, v, ok := splitNameValue(s); ok {
		p.add(scope, strings.ToLower(n), v, ev)
		return
	}
	if k, v, ok := strings.Cut(s, "="); ok && !strings.ContainsAny(k, " \t") {
		p.add(scope, strings.ToLower(strings.TrimSpace(k)), unquote(strings.TrimSpace(v)), ev)
		return
	}
	if f := strings.Fields(s); len(f) > 1 {
		all := true
		for _, w := range f {
			all = all && knownRules[strings.ToLower(w)]
		}
		if all {
			for _, w := range f {
				p.add(scope, strings.ToLower(w), "", ev)
			}
			return
		}
	}
	p.add(scope, strings.ToLower(s), "", ev)
}

// splitNameValue splits "name: value" at its first colon when name is a
// single word.
func splitNameValue(s string) (name, value string, ok bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", "", false
	}
	name = strings.TrimSpace(s[:i])
	if name == "" || strings.ContainsAny(name, " \t") {
		return "", "", false
	}
	return name, strings.TrimSpace(s[i+1:]), true
}

// isScopeName reports whether a legacy "name:" prefix names a product
// token rather than a rule: it has product token syntax and is not a rule
// name.
func isScopeName(n string) bool {
	l := strings.ToLower(n)
	if knownRules[l] || valuedRules[l] {
		return false
	}
	return isProductToken(n) || n == "*"
}

// legacyScope maps a legacy scope name to Rule.Token. "robots" and "*"
// are global.
func legacyScope(n string) string {
	if n == "*" || strings.EqualFold(n, "robots") {
		return "*"
	}
	return strings.ToLower(n)
}

// isProductToken reports whether s has the syntax of an RFC 9309 §2.2.1
// product token (letters, "-" and "_"), leniently also allowing digits and
// "." as real tokens do ("archive.org_bot", "AI2Bot").
func isProductToken(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
			letter = true
		case '0' <= c && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return letter
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return s[1 : len(s)-1]
	}
	return s
}

// isDateSegment reports whether a legacy element is an unavailable_after
// rule, possibly scoped: "unavailable_after: ..." or
// "googlebot: unavailable_after: ...".
func isDateSegment(s string) bool {
	n, v, ok := splitNameValue(s)
	if !ok {
		return false
	}
	if strings.EqualFold(n, RuleUnavailableAfter) {
		return true
	}
	if !isScopeName(n) {
		return false
	}
	n, _, ok = splitNameValue(v)
	return ok && strings.EqualFold(n, RuleUnavailableAfter)
}

func startsWithDigit(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && '0' <= s[0] && s[0] <= '9'
}

func lastWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexAny(s, " \t:"); i >= 0 {
		return s[i+1:]
	}
	return s
}

var weekdays = map[string]bool{
	"mon": true, "tue": true, "wed": true, "thu": true, "fri": true, "sat": true, "sun": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
	"saturday": true, "sunday": true, "tues": true, "thur": true, "thurs": true,
}

func isWeekday(w string) bool { return weekdays[strings.ToLower(w)] }

// add appends a rule, checking the values of the rules this package
// interprets.
func (p *headerParser) add(token, name, value, ev string) {
	if name == RuleUnavailableAfter {
		t, ok := ParseDate(value)
		if !ok {
			p.diag(DiagBadDate, "unavailable_after date "+strconv.Quote(value)+" matches no known date format", ev)
		}
		p.addTime(token, name, value, t, ev)
		return
	}
	if name == RuleMaxSnippet {
		if _, err := strconv.Atoi(strings.TrimSpace(value)); err != nil {
			p.diag(DiagBadValue, "max-snippet value "+strconv.Quote(value)+" is not an integer", ev)
		}
	}
	p.rules = append(p.rules, Rule{Token: token, Name: name, Value: value, Via: p.via, Evidence: ev})
}

func (p *headerParser) addTime(token, name, value string, t time.Time, ev string) {
	p.rules = append(p.rules, Rule{Token: token, Name: name, Value: value, Time: t, Via: p.via, Evidence: ev})
}
