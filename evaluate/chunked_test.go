package evaluate

import (
	"slices"
	"testing"
)

func TestChunked(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 1000, maxChunk, 3*maxChunk + 7} {
		var c chunked[int]
		want := make([]int, 0, n)
		for i := range n {
			c.add(i)
			want = append(want, i)
		}
		got := c.all()
		if !slices.Equal(got, want) || (n == 0) != (got == nil) {
			t.Errorf("%d added: got %d elements (nil %v), want %d in order", n, len(got), got == nil, n)
		}
		if again := c.all(); again != nil {
			t.Errorf("%d added: all a second time gave %d elements, want none", n, len(again))
		}
	}
}
