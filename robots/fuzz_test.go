package robots

import (
	"runtime"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/internal/slowtest"
)

var fuzzSeeds = []string{
	realisticRobots,
	acapSample,
	"user-agent: *\ndisallow: /\n",
	"\xEF\xBB\xBFUser-agent: a\r\nDisallow: /x*y$\r\nAllow: /%E3%83%84\r\n",
	"user agent b\ndisalow /q?x=http://y\ncrawl-delay: 1.5\nsitemap: /s.xml\n",
	"\xff\xfeu\x00s\x00",
	"ACAP-qualified-usage:\nq present-snippet max-length=3-words\nACAP-crawler: *\nACAP-allow-(q): /a\nx=y\n",
	"ACAP-resource-set: s *.gif /a/\nACAP-crawler: b\nACAP-usage-purpose: n*\nACAP-disallow-index: the-acap:resource-set:s\nACAP-request-take-down: /z\n",
	"disallow: /x\n\n\n#\r\r\n:\n::\n%%%\nuser-agent:\n",
	"\xEF\xBBUser-agent: barbot*\nDisallow: /AnyValue\n",
	"\xEFuser-agent: Mediapartners-Google**\nuser-agent: **\nuser-agent: */1\ndisallow: /\n",
	"\xEF\x11\xBFUser-Agent: foo\nAllow: /AnyValue\n",
	"User-agent: a\nContent-Signal: search=yes,ai-train=no\nUser-agent: b\nContent-Usage: /x Train-AI=n\nLicense: https://e/l\nDisallow: /\n",
}

// FuzzParse checks that any byte sequence parses without panicking, that
// the result is consistent, and that checking against it works.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), "/a/b?c=d", "bot")
	}
	f.Fuzz(func(t *testing.T, body []byte, url, agent string) {
		for _, limit := range []int{0, 64} {
			p := Parse(body, Options{MaxBytes: limit})
			max := limit
			if max == 0 {
				max = DefaultMaxBytes
			}
			if p.Truncated != (len(body) > max) || p.Size != len(body) {
				t.Fatalf("Truncated = %v, Size = %d for %d bytes, limit %d", p.Truncated, p.Size, len(body), max)
			}
			prev := 0
			for _, l := range p.Lines {
				if l.Number != prev+1 {
					t.Fatalf("line numbers jump from %d to %d", prev, l.Number)
				}
				prev = l.Number
				if l.Group < -1 || l.Group >= len(p.Groups) {
					t.Fatalf("line %d: group %d out of range", l.Number, l.Group)
				}
			}
			for _, d := range p.Diagnostics {
				if d.Code == "" || d.Line < 1 || len(d.Text) > diagTextCap {
					t.Fatalf("bad diagnostic %+v", d)
				}
			}
			for _, a := range []string{agent, "*", "bot"} {
				v := p.Check(a, url)
				if v.Rule != nil && (v.Rule.Line < 1 || v.Rule.Line > prev || v.Reason != ReasonRule) {
					t.Fatalf("verdict rule %+v outside the file of %d lines", v.Rule, prev)
				}
				if v.Rule == nil && !v.Allowed {
					t.Fatalf("disallowed without a rule: %+v", v)
				}
				_ = v.Evidence()
				p.CrawlDelay(a)
				for _, u := range []string{"crawl", "index", "present-snippet", "other"} {
					_ = p.ACAPCheck(a, u, url).Evidence()
				}
				p.ACAPCheckPurpose(a, url, "index", url)
				p.TakeDownFor(a, url)
			}
		}
	})
}

// refMatch is a plain dynamic-programming glob matcher over canonical
// forms, the reference FuzzMatch compares the compiled matcher with.
func refMatch(pat, s string) bool {
	anchored := strings.HasSuffix(pat, "$")
	pat = strings.TrimSuffix(pat, "$")
	// ok[i][j]: pat[:i] matches s[:j].
	ok := make([][]bool, len(pat)+1)
	for i := range ok {
		ok[i] = make([]bool, len(s)+1)
	}
	ok[0][0] = true
	for i := 1; i <= len(pat); i++ {
		for j := 0; j <= len(s); j++ {
			if pat[i-1] == '*' {
				ok[i][j] = ok[i-1][j] || j > 0 && ok[i][j-1]
			} else {
				ok[i][j] = j > 0 && ok[i-1][j-1] && pat[i-1] == s[j-1]
			}
		}
	}
	if anchored {
		return ok[len(pat)][len(s)]
	}
	for j := 0; j <= len(s); j++ {
		if ok[len(pat)][j] {
			return true
		}
	}
	return false
}

// FuzzMatch compares the compiled matcher with refMatch.
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"/a*b$", "/axxb"}, {"*.gif$", "/x.gif"}, {"/a**b*", "/ab"}, {"/%2A", "/*"},
		{"/ツ", "/%E3%83%84"}, {"/a$b", "/a$b"}, {"/*?q=http://", "/x?q=http%3A%2F%2F"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, url string) {
		if len(pat) > 64 || len(url) > 64 || strings.ContainsAny(pat, "#\r\n") {
			return
		}
		pat = trimWS(pat)
		if pat == "" {
			return
		}
		if pat[0] != '/' && pat[0] != '*' {
			pat = "/" + pat
		}
		p := Parse([]byte("user-agent: *\ndisallow: "+pat+"\n"), Options{})
		got := !p.Check("x", url).Allowed
		cp, _ := appendCanon(nil, pat, true, false, false)
		cu := appendTarget(nil, url, false)
		want := refMatch(string(cp), string(cu)) && !isRobotsTxt(cu)
		if got != want {
			t.Fatalf("pattern %q (canonical %q) url %q (canonical %q): matched %v, reference %v", pat, cp, url, cu, got, want)
		}
	})
}

// TestMemoryProportional parses adversarial bodies at the parsing limit and
// checks that what stays in memory is proportional to the input.
func TestMemoryProportional(t *testing.T) {
	slowtest.Skip(t, "allocates large bodies")
	fill := func(unit string) []byte {
		return []byte(strings.Repeat(unit, DefaultMaxBytes/len(unit)))
	}
	bodies := map[string][]byte{
		"blank lines":       fill("\n"),
		"short rules":       fill("disallow:*a*b\n"),
		"one group, agents": append(fill("user-agent:a\n"), "disallow:/\n"...),
		"alternating":       fill("user-agent:a\ndisallow:/*x\n"),
		"unknown keys":      fill("zz\n"),
		"garbage":           fill("z\n"),
		"acap":              append([]byte("ACAP-resource-set: s /a /b /c\nACAP-crawler: *\n"), fill("ACAP-allow-index: the-acap:resource-set:s\n")...),
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			f := Parse(body, Options{})
			runtime.GC()
			runtime.ReadMemStats(&after)
			retained := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			ratio := float64(retained) / float64(len(body))
			t.Logf("%s: %d bytes in, %d retained (%.1fx)", name, len(body), retained, ratio)
			if ratio > 70 {
				t.Errorf("retained %d bytes for %d bytes of input (%.1fx), want at most 70x", retained, len(body), ratio)
			}
			runtime.KeepAlive(f)
		})
	}
}
