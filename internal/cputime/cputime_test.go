package cputime

import "testing"

func TestProcessAdvances(t *testing.T) {
	start := Process()
	x := 0
	for i := 0; i < 50_000_000; i++ {
		x += i % 7
	}
	if x == 0 {
		t.Fatal("loop optimized away")
	}
	if start != 0 && Process() <= start {
		t.Errorf("CPU time did not advance over a busy loop: %v then %v", start, Process())
	}
}
