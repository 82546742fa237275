package inorder

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDrainOrders(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]int, 200)
	for i := range vals {
		vals[i] = i
	}
	rng.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
	in := make(chan int, len(vals))
	for _, v := range vals {
		in <- v
	}
	close(in)
	var got []int
	if err := Drain(in, func(v int) int { return v }, func(v int) error { got = append(got, v); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(vals) || !slices.IsSorted(got) {
		t.Errorf("got %v, want 0..%d in order", got, len(vals)-1)
	}
}

func TestDrainStopsAtError(t *testing.T) {
	in := make(chan int, 4)
	for _, v := range []int{1, 0, 3, 2} {
		in <- v
	}
	close(in)
	stop := errors.New("stop")
	var got []int
	err := Drain(in, func(v int) int { return v }, func(v int) error {
		got = append(got, v)
		if v == 1 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || !slices.Equal(got, []int{0, 1}) {
		t.Errorf("Drain = %v after %v, want the error after 0, 1", err, got)
	}
}
