package extract

import (
	"strings"
)

// Has reports whether the rule name (case-insensitive) is in force. "none"
// implies "noindex" and "nofollow". For "nosnippet" see Nosnippet.
func (e Effective) Has(name string) bool {
	_, ok := e.Rule(name)
	return ok
}

// Rule returns the rule that establishes name: the first rule of that name,
// or for "noindex" and "nofollow" the first "none" rule when there is no
// rule of that name; for "nosnippet" a "max-snippet" rule with value 0 when
// there is no nosnippet rule.
func (e Effective) Rule(name string) (Rule, bool) {
	name = strings.ToLower(name)
	for _, r := range e.Rules {
		if r.Name == name {
			return r, true
		}
	}
	switch name {
	case RuleNoindex, RuleNofollow:
		for _, r := range e.Rules {
			if r.Name == RuleNone {
				return r, true
			}
		}
	case RuleNosnippet:
		for _, r := range e.Rules {
			if r.Name == RuleMaxSnippet && isZeroSnippet(r.Value) {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// Noindex returns the rule that forbids indexing: noindex, or none.
func (e Effective) Noindex() (Rule, bool) { return e.Rule(RuleNoindex) }

// Nosnippet returns the rule that forbids snippets: nosnippet, or
// max-snippet with the value 0 (which Google documents as equivalent to
// nosnippet). A positive or -1 max-snippet limits snippets but does not
// forbid them.
func (e Effective) Nosnippet() (Rule, bool) { return e.Rule(RuleNosnippet) }

// Noarchive returns the noarchive rule. Neither noindex nor none implies it.
func (e Effective) Noarchive() (Rule, bool) { return e.Rule(RuleNoarchive) }

// UnavailableAfter returns the unavailable_after rule with the earliest
// parsed date. Rules whose date could not be parsed are skipped.
func (e Effective) UnavailableAfter() (Rule, bool) {
	var best Rule
	found := false
	for _, r := range e.Rules {
		if r.Name != RuleUnavailableAfter || r.Time.IsZero() {
			continue
		}
		if !found || r.Time.Before(best.Time) {
			best, found = r, true
		}
	}
	return best, found
}

// isZeroSnippet reports whether a max-snippet value is the integer 0.
func isZeroSnippet(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return false
	}
	v = strings.TrimLeft(v, "+")
	for i := 0; i < len(v); i++ {
		if v[i] != '0' {
			return false
		}
	}
	return v != ""
}
