package robots

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestLenientKeys(t *testing.T) {
	tests := []struct {
		name string
		body string
		diag map[int]string
		chk  []check
	}{
		{"case-insensitive keys", "USER-AGENT: a\nDISALLOW: /x\nAllow: /x/y\n", nil,
			[]check{{"a", "/x", false, 2}, {"a", "/x/y", true, 3}}},
		{"typos", "user agent: a\ndisalow: /x\ndissallow: /y\nuseragent: b\nuser-agnet: c\nDissalow: /z\n",
			map[int]string{1: DiagKeyTypo, 2: DiagKeyTypo, 3: DiagKeyTypo, 4: DiagKeyTypo, 5: DiagKeyTypo, 6: DiagKeyTypo},
			[]check{{"a", "/x", false, 2}, {"a", "/y", false, 3}, {"b", "/z", false, 6}, {"c", "/z", false, 6}}},
		{"missing colon", "User-agent a\nDisallow /x\nDisallow /y:z\nuser agent b\n",
			map[int]string{1: DiagMissingColon, 2: DiagMissingColon, 3: DiagMissingColon, 4: DiagMissingColon + "," + DiagKeyTypo},
			[]check{{"a", "/x", false, 2}, {"a", "/y:z", false, 3}, {"b", "/x", true, 0}}},
		{"whitespace everywhere", "  \tuser-agent \t:\t a \t\n\t disallow :  /x  \n", nil,
			[]check{{"a", "/x", false, 2}, {"a", "/y", true, 0}}},
		{"comments anywhere", "# head\nuser-agent: a # the bot\ndisallow: /x#y\n   # indented\ndisallow: /z # z\n", nil,
			[]check{{"a", "/x", false, 3}, {"a", "/xy", false, 3}, {"a", "/z", false, 5}}},
		{"unknown lines", "user-agent: a\nfoo: bar\nwhat is this\n: nokey\ndisallow: /x\n",
			map[int]string{2: DiagUnknownKey, 3: DiagUnknownKey, 4: DiagNoKey},
			[]check{{"a", "/x", false, 5}}},
		{"known non-standard records", "user-agent: a\nhost: example.com\nclean-param: x\nrequest-rate: 1/5\ndisallow: /x\n", nil,
			[]check{{"a", "/x", false, 5}}},
		{"rule outside group", "disallow: /x\nuser-agent: a\n",
			map[int]string{1: DiagRuleOutsideGroup}, []check{{"a", "/x", true, 0}}},
		{"pattern without slash", "user-agent: a\ndisallow: x\n",
			map[int]string{2: DiagPatternNoSlash}, []check{{"a", "/x", false, 2}}},
		{"dollar in middle", "user-agent: a\ndisallow: /a$b\n",
			map[int]string{2: DiagPatternDollar}, []check{{"a", "/a$b", false, 2}}},
		{"user-agent with version", "user-agent: Foo/1.0\ndisallow: /\n",
			map[int]string{1: DiagUserAgentVersion}, []check{{"foo", "/", false, 2}}},
		{"user-agent odd chars", "user-agent: foo.bar\ndisallow: /\n",
			map[int]string{1: DiagUserAgentChars}, []check{{"foo.bar", "/", false, 2}}},
		{"empty user-agent", "user-agent:\ndisallow: /\n",
			map[int]string{1: DiagUserAgentEmpty}, []check{{"x", "/", true, 0}}},
		{"sitemap anywhere", "sitemap: https://e.com/a.xml\nuser-agent: a\nsitemap: https://e.com/b.xml\ndisallow: /x\nsitemap:\n",
			map[int]string{5: DiagSitemapEmpty}, []check{{"a", "/x", false, 4}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runChecks(t, tc.body, tc.chk)
			wantCodes(t, Parse([]byte(tc.body), Options{}), tc.diag)
		})
	}
}

func TestLineEndingsAndBOM(t *testing.T) {
	base := []string{"user-agent: a", "disallow: /x", "", "user-agent: b", "disallow: /y"}
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		for _, bom := range []string{"", "\xEF\xBB\xBF"} {
			name := fmt.Sprintf("nl=%q bom=%v", nl, bom != "")
			t.Run(name, func(t *testing.T) {
				body := bom + strings.Join(base, nl) + nl
				f := Parse([]byte(body), Options{})
				if len(f.Lines) != 5 {
					t.Fatalf("got %d lines, want 5", len(f.Lines))
				}
				runChecks(t, body, []check{{"a", "/x", false, 2}, {"b", "/y", false, 5}, {"a", "/y", true, 0}})
				if len(f.Diagnostics) != 0 {
					t.Errorf("diagnostics = %+v", f.Diagnostics)
				}
			})
		}
	}
	// Mixed line endings in one file.
	runChecks(t, "user-agent: a\r\ndisallow: /x\rdisallow: /y\ndisallow: /z", []check{
		{"a", "/x", false, 2}, {"a", "/y", false, 3}, {"a", "/z", false, 4},
	})
}

func TestLines(t *testing.T) {
	body := "\xEF\xBB\xBFUser-agent: a\n\n# c\ndisalow: /x # why\nSitemap: https://e.com/s.xml\ncrawl-delay: 2\nhost: e.com\nbogus\nACAP-crawler: *\nAllow:\n"
	f := Parse([]byte(body), Options{})
	want := []Line{
		{Number: 1, Kind: KindUserAgent, Value: "a", Group: 0, Note: "byte order mark removed"},
		{Number: 2, Kind: KindBlank, Group: -1},
		{Number: 3, Kind: KindComment, Value: "# c", Group: -1},
		{Number: 4, Kind: KindDisallow, Value: "/x", Group: 0, Note: `"disalow" read as disallow`},
		{Number: 5, Kind: KindSitemap, Value: "https://e.com/s.xml", Group: -1},
		{Number: 6, Kind: KindCrawlDelay, Value: "2", Group: 0},
		{Number: 7, Kind: KindOther, Value: "e.com", Group: -1, Note: "host record (not part of RFC 9309; not evaluated)"},
		{Number: 8, Kind: KindDiagnostic, Value: "bogus", Group: -1, Note: DiagUnknownKey},
		{Number: 9, Kind: KindACAP, Value: "*", Group: -1, Note: "acap-crawler"},
		{Number: 10, Kind: KindAllow, Value: "", Group: 0, Note: "empty allow: matches nothing"},
	}
	if !reflect.DeepEqual(f.Lines, want) {
		for i := range max(len(f.Lines), len(want)) {
			var g, w Line
			if i < len(f.Lines) {
				g = f.Lines[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("line %d: got %+v, want %+v", i+1, g, w)
			}
		}
	}
	if want := []Sitemap{{URL: "https://e.com/s.xml", Line: 5}}; !reflect.DeepEqual(f.Sitemaps, want) {
		t.Errorf("Sitemaps = %+v, want %+v", f.Sitemaps, want)
	}
	if f.Size != len(body) {
		t.Errorf("Size = %d, want %d", f.Size, len(body))
	}
	wantCodes(t, f, map[int]string{4: DiagKeyTypo, 8: DiagUnknownKey, 10: DiagConventionalInACAP})
}

func TestInvalidUTF8(t *testing.T) {
	body := "user-agent: a\xff\ndisallow: /\xfe\xff\nuser-agent: b\ndisallow: /ok\n"
	f := Parse([]byte(body), Options{})
	wantCodes(t, f, map[int]string{1: DiagInvalidUTF8 + "," + DiagUserAgentChars, 2: DiagInvalidUTF8})
	runChecks(t, body, []check{{"a\xff", "/%FE%FF", false, 2}, {"b", "/ok", false, 4}})
}

func TestUTF16(t *testing.T) {
	text := "user-agent: a\ndisallow: /x\n"
	le := []byte{0xFF, 0xFE}
	be := []byte{0xFE, 0xFF}
	for _, r := range text {
		le = append(le, byte(r), 0)
		be = append(be, 0, byte(r))
	}
	for name, body := range map[string][]byte{"le": le, "be": be} {
		t.Run(name, func(t *testing.T) {
			f := Parse(body, Options{})
			if v := f.Check("a", "/x"); v.Allowed || v.Rule == nil || v.Rule.Line != 2 {
				t.Errorf("Check = %+v, want disallowed by line 2", v)
			}
			wantCodes(t, f, map[int]string{1: DiagUTF16})
		})
	}
}

func TestTruncation(t *testing.T) {
	line := "disallow: /x\n" // 13 bytes
	tests := []struct {
		name      string
		body      string
		max       int
		truncated bool
		lines     int
	}{
		{"under", "user-agent: a\n" + line, 100, false, 2},
		{"exact", "user-agent: a\n" + line, 27, false, 2},
		{"cut mid line drops the partial line", "user-agent: a\n" + line, 26, true, 1},
		{"cut after CR of CRLF keeps the line", "user-agent: a\r\ndisallow: /x\r\n", 28, true, 2},
		{"cut before any line end", "user-agent: a\n", 5, true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte(tc.body), Options{MaxBytes: tc.max})
			if f.Truncated != tc.truncated || len(f.Lines) != tc.lines {
				t.Errorf("Truncated = %v, lines = %d; want %v, %d", f.Truncated, len(f.Lines), tc.truncated, tc.lines)
			}
			n := 0
			for _, d := range f.Diagnostics {
				if d.Code == DiagTruncated {
					n++
					if d.Line != tc.lines+1 {
						t.Errorf("truncated diagnostic line = %d, want %d", d.Line, tc.lines+1)
					}
				}
			}
			if (n == 1) != tc.truncated || n > 1 {
				t.Errorf("%d truncated diagnostics, truncated = %v", n, tc.truncated)
			}
		})
	}
	// Default limit: a rule past 500 KiB is ignored.
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	for b.Len() < DefaultMaxBytes {
		b.WriteString("# padding padding padding padding padding padding\n")
	}
	b.WriteString("disallow: /late\n")
	f := Parse([]byte(b.String()), Options{})
	if !f.Truncated {
		t.Errorf("Truncated = false, want true")
	}
	if v := f.Check("x", "/late"); !v.Allowed {
		t.Errorf("rule past the limit applied: %s", v.Evidence())
	}
	g := Parse([]byte(b.String()), Options{MaxBytes: 2 * DefaultMaxBytes})
	if v := g.Check("x", "/late"); v.Allowed || g.Truncated {
		t.Errorf("with a larger limit: truncated %v, allowed %v; want false, false", g.Truncated, v.Allowed)
	}
}

func TestRuleString(t *testing.T) {
	if got := (Rule{Allow: true, Pattern: "/x"}).String(); got != "Allow: /x" {
		t.Errorf("String() = %q", got)
	}
	if got := (Rule{Pattern: "/private/"}).String(); got != "Disallow: /private/" {
		t.Errorf("String() = %q", got)
	}
}

// A File is read-only after Parse: many goroutines may Check at once
// (run with -race).
func TestConcurrentCheck(t *testing.T) {
	f := Parse([]byte(realisticRobots), Options{})
	done := make(chan bool)
	for i := range 8 {
		go func() {
			ok := true
			for j := range 200 {
				v := f.Check(benchAgents[(i+j)%len(benchAgents)], benchURLs[j%len(benchURLs)])
				w := f.Check(benchAgents[(i+j)%len(benchAgents)], benchURLs[j%len(benchURLs)])
				ok = ok && v == w
			}
			done <- ok
		}()
	}
	for range 8 {
		if !<-done {
			t.Errorf("concurrent checks disagreed")
		}
	}
}

func TestDiagnosticsCap(t *testing.T) {
	body := strings.Repeat("zz\n", MaxDiagnostics+10)
	f := Parse([]byte(body), Options{})
	if len(f.Diagnostics) != MaxDiagnostics+1 {
		t.Fatalf("got %d diagnostics, want %d", len(f.Diagnostics), MaxDiagnostics+1)
	}
	last := f.Diagnostics[MaxDiagnostics]
	if last.Code != DiagTooMany || last.Line != MaxDiagnostics+1 || !strings.Contains(last.Message, "10 more") {
		t.Errorf("last diagnostic = %+v", last)
	}
	if len(f.Lines) != MaxDiagnostics+10 {
		t.Errorf("got %d lines, want %d", len(f.Lines), MaxDiagnostics+10)
	}
}
