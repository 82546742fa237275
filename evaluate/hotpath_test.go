package evaluate

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/event"
)

// hasSignatureFieldsRef is what hasSignatureFields must equal.
func hasSignatureFieldsRef(h event.Header) bool {
	return h.Has("Signature") || h.Has("Signature-Input")
}

func TestHasSignatureFields(t *testing.T) {
	tests := []struct {
		names []string
		want  bool
	}{
		{nil, false},
		{[]string{"Host", "User-Agent", "Referer"}, false},
		{[]string{"Host", "Signature"}, true},
		{[]string{"signature-input"}, true},
		{[]string{"SIGNATURE"}, true},
		{[]string{"Signature-Agent"}, false},
		{[]string{"Sec-Fetch-Mode", "Signatures"}, false},
		{[]string{"", "Signat"}, false},
		{[]string{"ſignature"}, true},                // U+017F folds to 's' (strings.EqualFold)
		{[]string{"Host", "ſignature-ınput"}, false}, // U+0131 does not fold to 'i'
		{[]string{"\xc5", "\xc5\xbfignature-Input"}, true},
	}
	for _, tt := range tests {
		var h event.Header
		for _, n := range tt.names {
			h = append(h, event.Field{Name: n, Value: "v"})
		}
		if got := hasSignatureFields(h); got != tt.want {
			t.Errorf("hasSignatureFields(%q) = %v, want %v", tt.names, got, tt.want)
		}
		if ref := hasSignatureFieldsRef(h); ref != tt.want {
			t.Errorf("Header.Has on %q = %v, want %v (the test's expectation is wrong)", tt.names, ref, tt.want)
		}
	}
}

// FuzzHasSignatureFields checks the first-byte filter against
// Header.Has on any two field names.
func FuzzHasSignatureFields(f *testing.F) {
	f.Add("Host", "Signature")
	f.Add("ſIGNATURE-input", "")
	f.Add("sec-ch-ua", "Signature-Agent")
	f.Fuzz(func(t *testing.T, a, b string) {
		h := event.Header{{Name: a}, {Name: b}}
		if got, want := hasSignatureFields(h), hasSignatureFieldsRef(h); got != want {
			t.Errorf("hasSignatureFields(%q, %q) = %v, Header.Has says %v", a, b, got, want)
		}
	})
}

// TestIPStringBypass checks that the address table gives a.String() in
// both of its modes, stays on for a few clients in turn and turns off
// for a stream of distinct ones.
func TestIPStringBypass(t *testing.T) {
	var c judgeCache
	few := []netip.Addr{netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("::ffff:192.0.2.1")}
	for i := range 3 * 4 * ipSlots {
		a := few[i%len(few)]
		if got := c.ipString(a); got != a.String() {
			t.Fatalf("ipString(%v) = %q", a, got)
		}
	}
	if c.ipRun.bypass != 0 {
		t.Fatalf("bypass = %d after %d lookups of %d addresses, want 0", c.ipRun.bypass, 3*4*ipSlots, len(few))
	}
	for i := range 2 * 4 * ipSlots {
		a := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		if got := c.ipString(a); got != a.String() {
			t.Fatalf("ipString(%v) = %q", a, got)
		}
	}
	if c.ipRun.bypass == 0 {
		t.Fatalf("bypass = 0 after %d distinct addresses, want the table off", 2*4*ipSlots)
	}
	for _, a := range few {
		if got := c.ipString(a); got != a.String() {
			t.Fatalf("bypassed ipString(%v) = %q", a, got)
		}
	}
	var nilCache *judgeCache
	if got := nilCache.ipString(few[1]); got != "2001:db8::1" {
		t.Fatalf("nil cache: %q", got)
	}
}

// TestJudgerEvidenceParts: a Judger's verdicts, from its table of
// robots.txt checks (TestJudgeIntoMatchesJudge compares whole
// judgements), its evidence, made from its tables of
// rule and robots.txt-fetch texts, and its Crawl-delay, from its table
// by file and token, equal Judge's, fetch by fetch, for findings that
// quote a rule and a bot's robots.txt fetch (the benchmark model's
// disallowed fetches) and bots with a Crawl-delay.
func TestJudgerEvidenceParts(t *testing.T) {
	m, fetches := benchModel(t)
	jg := m.NewJudger()
	var j Judgement
	rules, entries, delays := 0, 0, 0
	for range 2 {
		for i, f := range fetches {
			want := m.Judge(f)
			jg.JudgeInto(&j, f)
			if j.crawlDelay != want.crawlDelay || j.delayLine != want.delayLine {
				t.Fatalf("fetch %d: Crawl-delay %v (line %d), Judge's %v (line %d)", i, j.crawlDelay, j.delayLine, want.crawlDelay, want.delayLine)
			}
			if want.crawlDelay > 0 {
				delays++
			}
			if len(j.Violations) != len(want.Violations) {
				t.Fatalf("fetch %d: %d findings, Judge made %d", i, len(j.Violations), len(want.Violations))
			}
			for k, v := range want.Violations {
				if got := j.Violations[k].Evidence; got != v.Evidence {
					t.Fatalf("fetch %d, finding %d: evidence\n%s\nJudge's:\n%s", i, k, got, v.Evidence)
				}
				if strings.Contains(v.Evidence, "\" matches ") {
					rules++
				}
				if strings.Contains(v.Evidence, " last fetched robots.txt ") {
					entries++
				}
			}
		}
	}
	used := 0
	if jg.c.checks != nil {
		for _, s := range jg.c.checks {
			if s.rc != nil {
				used++
			}
		}
	}
	if used == 0 {
		t.Fatal("the Judger's table of robots.txt checks is empty: it goes untested")
	}
	if rules == 0 || entries == 0 || delays == 0 {
		t.Fatalf("%d findings quote a rule, %d a robots.txt fetch, %d fetches have a Crawl-delay: the tables go untested", rules, entries, delays)
	}
}

// TestJudgerUnreachableEvidence: the evidence of fetches while a bot's
// robots.txt was unreachable, from a Judger's table by (entry, token,
// authority), equals Judge's: two bots, two sites, the same 503 entry
// met again, and a later entry of the same bot.
func TestJudgerUnreachableEvidence(t *testing.T) {
	s := newScenario(t)
	other := "https://other.example"
	for _, host := range []string{site, other} {
		s.robots(host+"/robots.txt", t0, 200, "User-agent: *\nDisallow:\n")
		for _, ua := range []string{uaGPTBot, uaCCBot} {
			s.fetch(ua, host+"/robots.txt", hours(1), 503)
			s.fetch(ua, host+"/a", hours(2), 200)
			s.fetch(ua, host+"/b", hours(2.1), 200)
			s.fetch(ua, host+"/robots.txt", hours(3), 500)
			s.fetch(ua, host+"/a", hours(3.5), 200)
		}
	}
	s.run()
	jg := s.model.NewJudger()
	var j Judgement
	n := 0
	for range 2 {
		for i, f := range s.fetches {
			want := s.model.Judge(f)
			jg.JudgeInto(&j, f)
			if len(j.Violations) != len(want.Violations) {
				t.Fatalf("fetch %d: %d findings, Judge made %d", i, len(j.Violations), len(want.Violations))
			}
			for k, v := range want.Violations {
				if got := j.Violations[k].Evidence; got != v.Evidence {
					t.Fatalf("fetch %d, finding %d: evidence\n%s\nJudge's:\n%s", i, k, got, v.Evidence)
				}
				if v.Kind == KindFetchWhileUnreachable {
					n++
				}
			}
		}
	}
	if n != 2*2*2*3 {
		t.Fatalf("%d fetch_while_unreachable findings, want %d", n, 2*2*2*3)
	}
}
