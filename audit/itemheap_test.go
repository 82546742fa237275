package audit

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestItemHeap: items pushed in any order, and heads replaced as the
// merge replaces them, come out in less order.
func TestItemHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		n := 1 + rng.IntN(40)
		var all []*item
		for i := range n {
			all = append(all, &item{sec: int64(rng.IntN(5)), nsec: int32(rng.IntN(3)), file: rng.IntN(4), seq: int64(round*100 + i)})
		}
		var h itemHeap
		for _, it := range all {
			h.push(it)
		}
		// Replace the head once with a larger item, as the merge does.
		extra := &item{sec: 9, seq: -1}
		h[0] = extra
		h.fixTop()
		want := slices.Clone(all)
		slices.SortFunc(want, func(a, b *item) int {
			if less(a, b) {
				return -1
			}
			return 1
		})
		want = append(want[1:], extra)
		var got []*item
		for h.Len() > 0 {
			got = append(got, h.pop())
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: heap order differs from less order", round)
		}
	}
}
