package robots

import (
	"fmt"
	"slices"
	"strings"
)

// matcher is the compiled matching state of a File, built once by Parse
// and read-only afterwards.
type matcher struct {
	tokens  map[string]int32 // lower-cased product token -> index in entries
	star    int32            // entry of "*", -1 if none
	entries []tokenEntry
	groups  []compiledGroup // parallel to File.Groups

	// acapConv holds the conventional groups with rules inside ACAP
	// records left out (ACAP §2.9.2); nil when there are none, in which
	// case groups serve.
	acapConv []compiledGroup

	// usage holds each group's compiled Content-Usage paths; nil when no
	// group has any (usage.go).
	usage [][]compiledUsage
	// signals is set when some group has a Content-Signal line.
	signals bool
}

// tokenEntry is the merged group of one product token (RFC 9309 §2.2.1).
type tokenEntry struct {
	groups []int32 // indices into File.Groups, in file order
	name   string  // matching user-agent values as written, comma-joined
	line   int     // first user-agent line of the first group
}

// compiledGroup holds a group's non-empty rules, most specific first: by
// length, then allow before disallow (RFC 9309 §2.2.2), then file order.
// The first one that matches decides.
type compiledGroup struct {
	rules []compiledRule
	// wild is set when the group has wildcard rules: with many of them
	// and a long URL, they are matched all at once (wild.go).
	wild *lazyWild
}

type compiledRule struct {
	pat   pattern
	allow bool
	group int32
	index int32 // index into File.Groups[group].Rules
}

func compile(f *File, skip map[int]bool) matcher {
	m := matcher{tokens: make(map[string]int32), star: -1}
	m.groups = compileGroups(f, nil)
	m.usage = compileUsage(f)
	for _, g := range f.Groups {
		m.signals = m.signals || len(g.Signals) > 0
	}
	if len(skip) > 0 {
		m.acapConv = compileGroups(f, skip)
	}
	for gi, g := range f.Groups {
		for _, a := range g.Agents {
			if a.Token == "" {
				continue
			}
			key := lowerString(a.Token)
			ei, ok := m.tokens[key]
			if !ok {
				ei = int32(len(m.entries))
				m.entries = append(m.entries, tokenEntry{line: g.Line})
				m.tokens[key] = ei
			}
			e := &m.entries[ei]
			if n := len(e.groups); n == 0 || e.groups[n-1] != int32(gi) {
				e.groups = append(e.groups, int32(gi))
			}
			if !containsName(e.name, a.Token) {
				if e.name != "" {
					e.name += ","
				}
				e.name += a.Token
			}
		}
	}
	if i, ok := m.tokens["*"]; ok {
		m.star = i
	}
	return m
}

func containsName(list, name string) bool {
	for list != "" {
		i := strings.IndexByte(list, ',')
		if i < 0 {
			return list == name
		}
		if list[:i] == name {
			return true
		}
		list = list[i+1:]
	}
	return false
}

// lowerString lower-cases ASCII letters and leaves every other byte as it
// is (strings.ToLower would rewrite invalid UTF-8).
func lowerString(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerASCII(b[j])
			}
			return string(b)
		}
	}
	return s
}

func compileGroups(f *File, skip map[int]bool) []compiledGroup {
	out := make([]compiledGroup, len(f.Groups))
	for gi, g := range f.Groups {
		rs := make([]compiledRule, 0, len(g.Rules))
		for ri, r := range g.Rules {
			if r.Pattern == "" || skip[r.Line] {
				continue // an empty pattern matches nothing (RFC 9309 §2.2.2)
			}
			p := r.Pattern
			if p[0] != '/' && p[0] != '*' {
				p = "/" + p
			}
			rs = append(rs, compiledRule{pat: compilePattern(p, false), allow: r.Allow, group: int32(gi), index: int32(ri)})
		}
		slices.SortStableFunc(rs, func(a, b compiledRule) int {
			switch {
			case better(&a, &b):
				return -1
			case better(&b, &a):
				return 1
			}
			return 0
		})
		out[gi] = compiledGroup{rules: rs}
		n := 0
		for i := range rs {
			if rs[i].pat.rest != nil {
				n++
			}
		}
		if n > 0 {
			out[gi].wild = &lazyWild{wild: n}
		}
	}
	return out
}

// better reports whether a is more specific than b (RFC 9309 §2.2.2): more
// octets; on a tie allow wins; then the earlier line.
func better(a, b *compiledRule) bool {
	if a.pat.length != b.pat.length {
		return a.pat.length > b.pat.length
	}
	if a.allow != b.allow {
		return a.allow
	}
	if a.group != b.group {
		return a.group < b.group
	}
	return a.index < b.index
}

// entry returns the merged group for agent: its own if any group names it,
// else "*" (RFC 9309 §2.2.1); nil when neither exists.
func (m *matcher) entry(agent string) *tokenEntry {
	var buf [64]byte
	var key string
	agent = trimWS(agent)
	if len(agent) <= len(buf) {
		for i := 0; i < len(agent); i++ {
			buf[i] = lowerASCII(agent[i])
		}
		if i, ok := m.tokens[string(buf[:len(agent)])]; ok && agent != "" {
			return &m.entries[i]
		}
	} else {
		key = lowerString(agent)
		if i, ok := m.tokens[key]; ok {
			return &m.entries[i]
		}
	}
	if m.star >= 0 {
		return &m.entries[m.star]
	}
	return nil
}

// best returns the deciding rule of the merged group e for the canonical
// URL u, or nil.
func best(groups []compiledGroup, e *tokenEntry, u []byte) *compiledRule {
	var win *compiledRule
	for _, gi := range e.groups {
		g := &groups[gi]
		rs := g.rules
		if g.wild != nil && g.wild.wild*len(u) > wildThreshold {
			if r := g.wild.get(g).first(rs, u); r != nil && (win == nil || better(r, win)) {
				win = r
			}
			continue
		}
		for i := range rs {
			r := &rs[i]
			if win != nil && !better(r, win) {
				break // sorted: nothing later in this group can win
			}
			if r.pat.match(u) {
				win = r
				break
			}
		}
	}
	return win
}

// isRobotsTxt reports whether the canonical URL's path is /robots.txt,
// which is always allowed (RFC 9309 §2.2.2).
func isRobotsTxt(u []byte) bool {
	const p = "/robots.txt"
	return len(u) >= len(p) && string(u[:len(p)]) == p && (len(u) == len(p) || u[len(p)] == '?')
}

func (f *File) check(agent, target string) Verdict {
	return f.checkGroups(f.m.groups, agent, target)
}

func (f *File) checkGroups(groups []compiledGroup, agent, target string) Verdict {
	v := Verdict{Allowed: true, Agent: agent}
	var buf [512]byte
	dst := buf[:0]
	if len(target) > len(buf)/3 {
		if n := canonBound(target); n > len(buf) {
			dst = make([]byte, 0, n)
		}
	}
	u := appendTarget(dst, target, false)
	e := f.m.entry(agent)
	if e != nil {
		v.Group, v.GroupLine = e.name, e.line
	}
	switch {
	case isRobotsTxt(u):
		v.Reason = ReasonRobotsTxt
		return v
	case e == nil:
		v.Reason = ReasonNoGroup
		return v
	}
	r := best(groups, e, u)
	if r == nil {
		v.Reason = ReasonNoMatchingRule
		return v
	}
	v.Rule = &f.Groups[r.group].Rules[r.index]
	v.Allowed = r.allow
	v.Reason = ReasonRule
	return v
}

func (f *File) crawlDelay(agent string) (CrawlDelay, bool) {
	e := f.m.entry(agent)
	if e == nil {
		return CrawlDelay{}, false
	}
	for _, gi := range e.groups {
		if cd := f.Groups[gi].CrawlDelay; cd != nil {
			return *cd, true
		}
	}
	return CrawlDelay{}, false
}

// Evidence returns the verdict as human-readable evidence, e.g.
// `group "gptbot" (line 3): line 5 "Disallow: /private/" matched`.
func (v Verdict) Evidence() string {
	switch {
	case v.Reason == ReasonRobotsTxt:
		return "/robots.txt is always allowed (RFC 9309 §2.2.2)"
	case v.Reason == ReasonNoGroup || v.Group == "" && v.Rule == nil:
		return fmt.Sprintf("no group for %q and no \"*\" group: allowed", v.Agent)
	case v.Rule == nil:
		return fmt.Sprintf("group %q (line %d): no rule matched: allowed", v.Group, v.GroupLine)
	}
	return fmt.Sprintf("group %q (line %d): line %d %q matched", v.Group, v.GroupLine, v.Rule.Line, v.Rule.String())
}
