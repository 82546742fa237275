package evaluate

import (
	"math/rand/v2"
	"slices"
	"testing"
)

type keyed struct{ key, idx int }

// TestSortChunked: sorted in runs on several workers and merged, a slice
// comes out as slices.SortFunc sorts it (a total order) and as
// slices.SortStableFunc does (ties kept in their order).
func TestSortChunked(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	byKey := func(x, y keyed) int { return x.key - y.key }
	total := func(x, y keyed) int {
		if c := x.key - y.key; c != 0 {
			return c
		}
		return x.idx - y.idx
	}
	for _, n := range []int{0, 1, 7, 8, 9, 100, 1001} {
		in := make([]keyed, n)
		for i := range in {
			in[i] = keyed{key: rng.IntN(10), idx: i} // many ties
		}
		stable := slices.Clone(in)
		slices.SortStableFunc(stable, byKey)
		for _, workers := range []int{1, 2, 3, 5, 8} {
			sp := split{workers: workers, min: 1}
			got := slices.Clone(in)
			sortChunked(sp, got, byKey, true)
			if !slices.Equal(got, stable) {
				t.Errorf("n %d, %d workers, stable: got %v, want %v", n, workers, got, stable)
			}
			got = slices.Clone(in)
			rng.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
			sortChunked(sp, got, total, false)
			if !slices.Equal(got, stable) { // the total order sorts as the stable one
				t.Errorf("n %d, %d workers: got %v, want %v", n, workers, got, stable)
			}
		}
	}
}

// TestForChunks: the chunks cover every item once, in order of their
// numbers.
func TestForChunks(t *testing.T) {
	for _, n := range []int{0, 1, 5, 1000, 5000} {
		for _, sp := range []split{{1, 1}, {3, 1}, {4, minChunk}} {
			seen := make([]int, n)
			lows := make([]int, sp.chunkCount(n)+1)
			k := sp.forChunks(n, func(c, lo, hi int) {
				lows[c] = lo
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			if k != sp.chunkCount(n) {
				t.Errorf("n %d, %+v: %d chunks, chunkCount says %d", n, sp, k, sp.chunkCount(n))
			}
			for i, s := range seen {
				if s != 1 {
					t.Fatalf("n %d, %+v: item %d seen %d times", n, sp, i, s)
				}
			}
			if !slices.IsSorted(lows[:k]) {
				t.Errorf("n %d, %+v: chunk starts %v out of order", n, sp, lows[:k])
			}
		}
	}
}
