package problem

import "testing"

func TestCountAtOrAbove(t *testing.T) {
	counts := map[string]int64{Info: 1, Warning: 10, Error: 100, "odd": 1000}
	tests := []struct {
		level string
		want  int64
	}{
		{Info, 1111}, {Warning, 1110}, {Error, 1100},
	}
	for _, tt := range tests {
		if got := CountAtOrAbove(counts, tt.level); got != tt.want {
			t.Errorf("CountAtOrAbove(%q) = %d, want %d", tt.level, got, tt.want)
		}
	}
	if got := CountAtOrAbove(nil, Warning); got != 0 {
		t.Errorf("CountAtOrAbove(nil) = %d, want 0", got)
	}
}
