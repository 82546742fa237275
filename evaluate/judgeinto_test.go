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
	var j Judgement
	findings := 0
	for i, f := range fetches {
		want := m.Judge(f)
		m.JudgeInto(&j, f)
		got := j
		findings += len(want.Violations)
		if len(got.Violations) == 0 {
			got.Violations = nil // a reused, emptied array
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("fetch %d: JudgeInto = %+v, Judge = %+v", i, got, want)
		}
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
		if j := m.Judge(f); len(j.Violations) == 0 && j.Fetch.Agent != "" && j.Fetch.RobotsVerdict == VerdictAllowed {
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
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		m.JudgeInto(&j, clean[i%len(clean)])
		i++
	})
	if allocs > 2 {
		t.Errorf("JudgeInto of a clean fetch: %.1f allocations, want at most 2 (URL, client IP)", allocs)
	}
}
