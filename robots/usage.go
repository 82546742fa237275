package robots

import (
	"strconv"
	"strings"

	"github.com/dunglas/httpsfv"
)

// Pref is one usage preference: unknown, yes (allow) or no (disallow).
// The zero value is PrefUnknown.
type Pref uint8

// Preference values.
const (
	PrefUnknown Pref = iota // no statement, or one this parser cannot read
	PrefYes                 // aipref "y", Content-Signal "yes"
	PrefNo                  // aipref "n", Content-Signal "no"
)

// String returns "unknown", "yes" or "no".
func (p Pref) String() string {
	switch p {
	case PrefYes:
		return "yes"
	case PrefNo:
		return "no"
	}
	return "unknown"
}

// combine returns the most restrictive of two preferences (aipref vocab
// §5.1): any no wins, else any yes, else unknown.
func combine(a, b Pref) Pref {
	if a == PrefNo || b == PrefNo {
		return PrefNo
	}
	if a == PrefYes || b == PrefYes {
		return PrefYes
	}
	return PrefUnknown
}

// ContentUsage is a Content-Usage rule of a group (aipref attach §3): an
// optional path pattern and a Structured Fields Dictionary of preferences
// with the labels train-ai and search (aipref vocab §6).
type ContentUsage struct {
	Path    string // path pattern as written; "" when absent (the rule applies to every path)
	Prefs   string // the statement of preference as written
	TrainAI Pref
	Search  Pref
	Line    int
}

// String returns the rule as evidence: "Content-Usage: /a train-ai=n".
func (c ContentUsage) String() string {
	if c.Path == "" {
		return "Content-Usage: " + c.Prefs
	}
	return "Content-Usage: " + c.Path + " " + c.Prefs
}

// ContentSignal is a Content-Signal line of a group (Cloudflare Content
// Signals; draft-romm-aipref-contentsignals): it applies to the whole group.
type ContentSignal struct {
	Value   string // as written
	Search  Pref
	AIInput Pref
	AITrain Pref
	Use     string // "immediate", "reference" or "full"; "" when absent or unknown
	Line    int
}

// String returns the line as evidence: "Content-Signal: search=yes, ai-train=no".
func (c ContentSignal) String() string { return "Content-Signal: " + c.Value }

// License is an RSL License line (RSL 1.0): global, and repeatable.
type License struct {
	URL  string
	Line int
}

// UsageLabel is the preference for one usage category with its evidence:
// the deciding line and its text (0 and "" when no line decided). When
// several lines decide together, the one that gave Value is named.
type UsageLabel struct {
	Value Pref
	Line  int
	Text  string
}

// UsageVerdict is the answer of File.UsagePrefs: the preferences that apply
// to one product token at one path, after RFC 9309 group selection.
//
// Preferences attach only to paths the group allows (aipref attach §3.1);
// Access is the crawl verdict for the same token and path, so a judge can
// tell a "no" about content it may fetch from one about content it may not.
type UsageVerdict struct {
	Agent     string
	Group     string // user-agent token(s) of the applied (merged) group; "" when none
	GroupLine int

	// aipref Content-Usage (vocab §4): the longest matching rule(s) decide.
	TrainAI UsageLabel
	Search  UsageLabel

	// Cloudflare Content-Signal: every line of the group applies.
	SignalSearch  UsageLabel
	SignalAIInput UsageLabel
	SignalAITrain UsageLabel
	SignalUse     string // "immediate", "reference", "full", or ""

	Access Verdict
}

// UsagePrefs returns the AI usage preferences for the product token agent
// at target (a path, path and query, or absolute URL). Group selection is
// that of Check: a group naming the agent replaces "*" for these rules too.
func (f *File) UsagePrefs(agent, target string) UsageVerdict {
	v := UsageVerdict{Agent: agent, Access: f.Check(agent, target)}
	e := f.m.entry(agent)
	if e == nil {
		return v
	}
	v.Group, v.GroupLine = e.name, e.line
	for _, gi := range e.groups {
		for i := range f.Groups[gi].Signals {
			s := &f.Groups[gi].Signals[i]
			text := s.String()
			mergeLabel(&v.SignalSearch, s.Search, s.Line, text)
			mergeLabel(&v.SignalAIInput, s.AIInput, s.Line, text)
			mergeLabel(&v.SignalAITrain, s.AITrain, s.Line, text)
			if s.Use != "" {
				v.SignalUse = s.Use // the last line that names one
			}
		}
	}
	if len(f.m.usage) == 0 {
		return v
	}
	var buf [512]byte
	dst := buf[:0]
	if len(target) > len(buf)/3 {
		if n := canonBound(target); n > len(buf) {
			dst = make([]byte, 0, n)
		}
	}
	u := appendTarget(dst, target, false)
	best := -1
	for _, gi := range e.groups {
		for _, cu := range f.m.usage[gi] {
			if cu.pat.length < best || !cu.pat.match(u) {
				continue
			}
			if cu.pat.length > best {
				best = cu.pat.length
				v.TrainAI, v.Search = UsageLabel{}, UsageLabel{}
			}
			r := &f.Groups[gi].Usage[cu.index]
			text := r.String()
			mergeLabel(&v.TrainAI, r.TrainAI, r.Line, text)
			mergeLabel(&v.Search, r.Search, r.Line, text)
		}
	}
	return v
}

// HasUsage reports whether some group of f has a Content-Usage or a
// Content-Signal line, so that a caller can skip UsagePrefs (which also
// checks access) for the many files without any.
func (f *File) HasUsage() bool { return len(f.m.usage) > 0 || f.m.signals }

// mergeLabel folds one statement into l, most restrictive first; the line
// named is the first that gave the resulting value, or the first line seen
// when the value stays unknown.
func mergeLabel(l *UsageLabel, p Pref, line int, text string) {
	c := combine(l.Value, p)
	if l.Line == 0 || c != l.Value {
		l.Line, l.Text = line, text
	}
	l.Value = c
}

// compiledUsage is a Content-Usage rule's compiled path.
type compiledUsage struct {
	pat   pattern
	index int32 // into Group.Usage
}

func compileUsage(f *File) [][]compiledUsage {
	var out [][]compiledUsage
	for gi, g := range f.Groups {
		if len(g.Usage) == 0 {
			continue
		}
		if out == nil {
			out = make([][]compiledUsage, len(f.Groups))
		}
		cs := make([]compiledUsage, len(g.Usage))
		for i, r := range g.Usage {
			cs[i] = compiledUsage{pat: compilePattern(r.Path, false), index: int32(i)}
		}
		out[gi] = cs
	}
	return out
}

// Labels of earlier aipref vocabulary drafts, removed in 2026-08.
var outdatedLabels = map[string]bool{"train-genai": true, "bots": true, "ai-output": true, "ai-use": true, "genai": true, "ai": true}

// contentUsage parses a Content-Usage line (aipref attach §3.3). value has
// already lost its comment ('#' on) and surrounding whitespace.
func (p *parser) contentUsage(n int, value, raw, note string) {
	if p.outsideGroup(n, KindContentUsage, DiagUsageOutsideGroup, "content-usage before the first user-agent line; ignored (aipref attach §3)", value, raw, note) {
		return
	}
	// A Content-Usage rule is a rule of its group (attach §3 extends the
	// rule production), so it ends the run of user-agent lines.
	p.inAgentRun = false
	r := ContentUsage{Line: n, Prefs: value}
	if value != "" && value[0] == '/' {
		i := strings.IndexAny(value, " \t")
		if i < 0 {
			r.Path, r.Prefs = value, ""
		} else {
			r.Path, r.Prefs = value[:i], trimWS(value[i:])
		}
		if j := strings.IndexByte(r.Path, '$'); j >= 0 && j != len(r.Path)-1 {
			p.diag(n, DiagPatternDollar, "'$' inside pattern "+strconv.Quote(r.Path)+" is matched literally (only a final '$' anchors)", raw)
		}
	}
	note = joinNote(note, p.usagePrefs(n, &r, raw))
	g := &p.f.Groups[p.group]
	g.Usage = append(g.Usage, r)
	p.addLine(Line{Number: n, Kind: KindContentUsage, Value: value, Group: p.group, Note: note})
}

// usagePrefs reads r.Prefs as an aipref statement (vocab §6.5) into r and
// returns a note for the line.
func (p *parser) usagePrefs(n int, r *ContentUsage, raw string) string {
	if r.Prefs == "" {
		p.diag(n, DiagUsageInvalid, "content-usage without a statement of preference; every preference unknown", raw)
		return "no preference; unknown"
	}
	var ok bool
	r.TrainAI, r.Search, ok = readStatement(r.Prefs, func(code, msg string) { p.diag(n, code, msg, raw) })
	if !ok {
		return "invalid; unknown"
	}
	return ""
}

// readStatement reads an aipref statement of preference (vocab §6.5), a
// Structured Fields Dictionary, as the robots.txt rule and the HTTP
// header share it: labels are case-sensitive, only train-ai and search
// are known, and a value other than the token y or n is unknown. diag is
// called for each problem; ok is false when s is not a dictionary.
func readStatement(s string, diag func(code, msg string)) (trainAI, search Pref, ok bool) {
	d, err := httpsfv.UnmarshalDictionary([]string{s})
	if err != nil {
		msg := "statement " + strconv.Quote(s) + " is not a Structured Fields Dictionary; every preference unknown (aipref vocab §6.5)"
		if d2, err2 := httpsfv.UnmarshalDictionary([]string{strings.ToLower(s)}); err2 == nil && len(d2.Names()) > 0 {
			msg = "labels are case-sensitive: " + strconv.Quote(s) + " is not lower case, so it reserves nothing; every preference unknown (aipref vocab §6.2, §6.5)"
		}
		diag(DiagUsageInvalid, msg)
		return PrefUnknown, PrefUnknown, false
	}
	for _, name := range d.Names() {
		m, _ := d.Get(name)
		var dst *Pref
		switch name {
		case "train-ai":
			dst = &trainAI
		case "search":
			dst = &search
		default:
			if outdatedLabels[name] {
				diag(DiagUsageOutdated, "label "+strconv.Quote(name)+" is from an earlier aipref draft; ignored (aipref vocab §4: train-ai, search)")
			} else {
				diag(DiagUsageLabel, "unknown label "+strconv.Quote(name)+"; ignored (aipref vocab §6.4)")
			}
			continue
		}
		it, isItem := m.(httpsfv.Item)
		tok, _ := it.Value.(httpsfv.Token)
		switch {
		case isItem && tok == "y":
			*dst = PrefYes
		case isItem && tok == "n":
			*dst = PrefNo
		default:
			diag(DiagUsageValue, "value of "+name+" is not the token y or n; unknown (aipref vocab §6.5)")
		}
	}
	return trainAI, search, true
}

// UsageHeader is a Content-Usage HTTP response header field (aipref
// attach §2): a statement of preference about the content of the message
// that carries it, read as the robots.txt rule's statement is.
type UsageHeader struct {
	Value   string // the field value as given
	TrainAI Pref
	Search  Pref
}

// String returns the field as evidence: "Content-Usage: train-ai=n".
func (h UsageHeader) String() string { return "Content-Usage: " + h.Value }

// ParseUsageHeader reads value, a Content-Usage response header field
// value (several field lines joined with ", "), with the label and value
// rules of the robots.txt rule (aipref vocab §6). Malformed input is
// data: the result holds what could be read and the diagnostics, with
// Line 0 and the codes DiagUsage*, say what could not. An empty value
// states nothing.
func ParseUsageHeader(value string) (UsageHeader, []Diagnostic) {
	h := UsageHeader{Value: value}
	var ds []Diagnostic
	diag := func(code, msg string) {
		if len(ds) < MaxDiagnostics {
			ds = append(ds, Diagnostic{Code: code, Message: msg, Text: capText(value)})
		}
	}
	if trimWS(value) == "" {
		diag(DiagUsageInvalid, "empty Content-Usage header; every preference unknown")
		return h, ds
	}
	h.TrainAI, h.Search, _ = readStatement(value, diag)
	return h, ds
}

// contentSignal parses a Content-Signal line: comma-separated key=value.
// Keys and values are matched without regard to case.
func (p *parser) contentSignal(n int, value, raw, note string) {
	if p.outsideGroup(n, KindContentSignal, DiagUsageOutsideGroup, "content-signal before the first user-agent line; ignored", value, raw, note) {
		return
	}
	p.inAgentRun = false
	s := ContentSignal{Value: value, Line: n}
	if value == "" {
		p.diag(n, DiagSignalSyntax, "content-signal without a value", raw)
	}
	for part := range strings.SplitSeq(value, ",") {
		part = trimWS(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.ToLower(trimWS(k)), strings.ToLower(trimWS(v))
		if !ok {
			p.diag(n, DiagSignalSyntax, "content-signal item "+strconv.Quote(part)+" has no '='; ignored", raw)
			continue
		}
		var dst *Pref
		switch k {
		case "search":
			dst = &s.Search
		case "ai-input":
			dst = &s.AIInput
		case "ai-train":
			dst = &s.AITrain
		case "use":
			switch v {
			case "immediate", "reference", "full":
				s.Use = v
			default:
				p.diag(n, DiagSignalValue, "content-signal use="+strconv.Quote(v)+" is not immediate, reference or full; unknown", raw)
			}
			continue
		default:
			p.diag(n, DiagSignalKey, "unknown content-signal key "+strconv.Quote(k)+"; ignored (keys: search, ai-input, ai-train, use)", raw)
			continue
		}
		switch v {
		case "yes":
			*dst = PrefYes
		case "no":
			*dst = PrefNo
		default:
			*dst = PrefUnknown // the last item for a key wins
			p.diag(n, DiagSignalValue, "content-signal "+k+"="+strconv.Quote(v)+" is not yes or no; unknown", raw)
		}
	}
	g := &p.f.Groups[p.group]
	g.Signals = append(g.Signals, s)
	p.addLine(Line{Number: n, Kind: KindContentSignal, Value: value, Group: p.group, Note: note})
}

// license records an RSL License line; it is global, like sitemap.
func (p *parser) license(n int, value, raw, note string) {
	switch {
	case value == "":
		p.diag(n, DiagLicenseInvalid, "license line without a URL", raw)
	case schemeLen(value) == 0:
		p.diag(n, DiagLicenseInvalid, "license "+strconv.Quote(value)+" is not an absolute URL (RSL 1.0); kept as written", raw)
		fallthrough
	default:
		p.f.Licenses = append(p.f.Licenses, License{URL: value, Line: n})
	}
	p.addLine(Line{Number: n, Kind: KindLicense, Value: value, Group: -1, Note: note})
}
