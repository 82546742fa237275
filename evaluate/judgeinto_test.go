package evaluate

import (
	"reflect"
	"testing"

	"github.com/repaudit/repaudit/event"
)

// TestJudgeIntoMatchesJudge: judging into a reused Judgement gives what
// Judge gives, whatever the Judgement held before (findings included).
func TestJudgeIntoMatchesJudge(t *testing.T) {
	m, fetches := benchModel(t)
	var j, jj Judgement
	jg := m.NewJudger()
	findings, rules := 0, 0
	// Twice over: the second round takes the Judger's strings from its
	// caches.
	for round := range 2 {
		for i, f := range fetches {
			want := m.Judge(f)
			m.JudgeInto(&j, f)
			jg.JudgeInto(&jj, f)
			if round == 0 {
				findings += len(want.Violations)
				if want.Fetch.MatchedRule != "" && want.Fetch.ClientIP != "" {
					rules++
				}
			}
			for name, got := range map[string]Judgement{"JudgeInto": j, "Judger.JudgeInto": jj} {
				if len(got.Violations) == 0 {
					got.Violations = nil // a reused, emptied array
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d, fetch %d: %s = %+v, Judge = %+v", round, i, name, got, want)
				}
			}
		}
	}
	if rules == 0 {
		t.Fatal("no fetch with a client address matched a rule: the Judger's caches go untested")
	}
	if findings == 0 {
		t.Fatal("no fetch made a finding: the test proves little")
	}
}

// TestJudgeIntoAllocations: judging a bot's fetch that makes no finding
// allocates its URL and client address strings and nothing else: the
// User-Agent's identification is cached, and no map, evidence string or
// findings array is made.
func TestJudgeIntoAllocations(t *testing.T) {
	m, fetches := benchModel(t)
	var clean []*event.Fetch
	for _, f := range fetches {
		if j := m.Judge(f); len(j.Violations) == 0 && j.Fetch.Agent != "" && j.Fetch.RobotsVerdict == string(VerdictAllowed) {
			clean = append(clean, f)
		}
	}
	if len(clean) < 10 {
		t.Fatalf("only %d clean fetches", len(clean))
	}
	var j Judgement
	for _, f := range clean {
		m.JudgeInto(&j, f) // every User-Agent seen once
	}
	// The url_surtkey column costs what package surt allocates for the
	// URL; the judge's own allocations are counted apart from it.
	i := 0
	surtAllocs := testing.AllocsPerRun(200, func() {
		m.JudgeInto(&j, clean[i%len(clean)])
		surtKey(j.Fetch.URL)
		i++
	})
	i = 0
	judged := testing.AllocsPerRun(200, func() {
		m.JudgeInto(&j, clean[i%len(clean)])
		i++
	})
	surtAllocs -= judged
	allocs := judged - surtAllocs
	if allocs > 2 {
		t.Errorf("JudgeInto of a clean fetch: %.1f allocations besides the SURT key's %.1f, want at most 2 (URL, client IP)", allocs, surtAllocs)
	}
	// A Judger keeps the client address's text, and the URL and its SURT
	// key: a fetch of a URL it has judged before allocates nothing.
	jg := m.NewJudger()
	for _, f := range clean {
		jg.JudgeInto(&j, f)
	}
	allocs = testing.AllocsPerRun(200, func() {
		jg.JudgeInto(&j, clean[i%len(clean)])
		i++
	})
	if allocs > 0 {
		t.Errorf("Judger.JudgeInto of a clean fetch of a URL judged before: %.1f allocations, want 0", allocs)
	}
}
