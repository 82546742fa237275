package robots

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/internal/slowtest"
)

// sequentialFirst is the rule-by-rule reference: the first rule of rules
// whose pattern matches u.
func sequentialFirst(rules []compiledRule, u []byte) *compiledRule {
	for i := range rules {
		if rules[i].pat.match(u) {
			return &rules[i]
		}
	}
	return nil
}

// wildAgrees compiles patterns as one group and checks that the index
// picks the same rule as the sequential scan for url.
func wildAgrees(t *testing.T, patterns []string, url string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	for i, p := range patterns {
		if i%3 == 0 {
			b.WriteString("allow: ")
		} else {
			b.WriteString("disallow: ")
		}
		b.WriteString(p)
		b.WriteByte('\n')
	}
	f := Parse([]byte(b.String()), Options{})
	if len(f.m.groups) == 0 {
		return
	}
	g := &f.m.groups[0]
	if g.wild == nil {
		return
	}
	u := appendTarget(nil, url, false)
	want := sequentialFirst(g.rules, u)
	got := g.wild.get(g).first(g.rules, u)
	if got != want {
		desc := func(r *compiledRule) string {
			if r == nil {
				return "none"
			}
			return r.pat.String()
		}
		t.Fatalf("patterns %q url %q (canonical %q): index picked %s, sequential %s", patterns, url, u, desc(got), desc(want))
	}
}

// TestWildIndexDifferential compares the index with the sequential scan on
// random groups over a small alphabet, where segments overlap, repeat and
// share prefixes and suffixes.
func TestWildIndexDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alpha := "ab*$/"
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(alpha[rng.IntN(len(alpha))])
		}
		return b.String()
	}
	n := 4000
	if testing.Short() {
		n = 500
	}
	for range n {
		var pats []string
		for range 1 + rng.IntN(12) {
			p := "/" + word(rng.IntN(9))
			pats = append(pats, strings.ReplaceAll(p, "$", "")+map[bool]string{true: "$"}[rng.IntN(3) == 0])
		}
		url := "/" + strings.ReplaceAll(strings.ReplaceAll(word(rng.IntN(40)), "*", "a"), "$", "b")
		wildAgrees(t, pats, url)
	}
}

// FuzzWildIndex is the same comparison on fuzzed groups: patterns are the
// lines of pats.
func FuzzWildIndex(f *testing.F) {
	f.Add("/*aa*b\n/*a$\n/a*\n/*ab*ab", "/aabab")
	f.Add("/*"+strings.Repeat("a", 8)+"b\n/*a*a*a\n/x*y$", "/"+strings.Repeat("a", 30)+"b")
	f.Add("/*.php$\n/fish*.php\n/*?q=\n/*/amp$", "/fish/x.php?q=1/amp")
	f.Add("/*%2A*\n/*ツ*\n/*%41", "/*ツA")
	f.Fuzz(func(t *testing.T, pats, url string) {
		if len(pats) > 512 || len(url) > 256 || strings.ContainsAny(pats, "#\r") {
			return
		}
		var ps []string
		for _, p := range strings.Split(pats, "\n") {
			if p = trimWS(p); p != "" && len(ps) < 32 {
				ps = append(ps, p)
			}
		}
		if len(ps) == 0 {
			return
		}
		wildAgrees(t, ps, url)
	})
}

// TestWildThresholdSameVerdicts checks whole verdicts on both sides of the
// threshold: the worst-case file against URLs that do and do not match.
func TestWildThresholdSameVerdicts(t *testing.T) {
	slowtest.Skip(t, "scans the worst-case file rule by rule against 100 kB URLs")
	f := Parse(worstRobots(), Options{})
	for _, u := range []string{worstURL, worstURL + "b", "/x" + strings.Repeat("a", 64) + "b", "/short"} {
		v := f.Check("bot", u)
		g := &f.m.groups[0]
		want := sequentialFirst(g.rules, appendTarget(nil, u, false))
		if (want == nil) != (v.Rule == nil) || want != nil && v.Rule.Line != f.Groups[want.group].Rules[want.index].Line {
			t.Errorf("url of %d bytes: verdict %+v, sequential rule %v", len(u), v, want)
		}
	}
}
