package memlimit

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestApply(t *testing.T) {
	current := func() int64 { return debug.SetMemoryLimit(-1) }
	before := current()
	noEnv := func(string) string { return "" }
	withEnv := func(k string) string {
		if k == "GOMEMLIMIT" {
			return "1GiB"
		}
		return ""
	}
	tests := []struct {
		name   string
		set    bool
		bytes  int64
		getenv func(string) string
		want   int64 // -1: unchanged
	}{
		{"default", false, 0, noEnv, Default},
		{"GOMEMLIMIT stands", false, 0, withEnv, -1},
		{"flag over GOMEMLIMIT", true, 64 << 20, withEnv, 64 << 20},
		{"off", true, 0, withEnv, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stop := Apply(tt.set, tt.bytes, tt.getenv)
			want := tt.want
			if want == -1 {
				want = before
			}
			if got := current(); got != want {
				t.Errorf("limit %d, want %d", got, want)
			}
			stop()
			if got := current(); got != before {
				t.Errorf("after stop: limit %d, want %d back", got, before)
			}
		})
	}
}
