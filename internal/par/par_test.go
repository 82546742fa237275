package par

import (
	"sync/atomic"
	"testing"
)

// TestEach checks that every item is run exactly once, whatever the
// number of workers against the number of items.
func TestEach(t *testing.T) {
	for _, tc := range []struct{ workers, n int }{{1, 0}, {1, 5}, {3, 0}, {3, 1}, {3, 100}, {16, 7}} {
		seen := make([]atomic.Int32, tc.n)
		Each(tc.workers, tc.n, func(i int) { seen[i].Add(1) })
		for i := range seen {
			if got := seen[i].Load(); got != 1 {
				t.Errorf("workers %d, n %d: item %d run %d times", tc.workers, tc.n, i, got)
			}
		}
	}
}
