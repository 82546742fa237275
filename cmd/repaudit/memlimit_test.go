package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestMemLimitFlag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{"300MiB", 300 << 20, false}, {"1GiB", 1 << 30, false}, {"500MB", 500e6, false},
		{"off", 0, false}, {"0", 0, false}, {"100000000", 100000000, false},
		{"1MiB", 0, true}, {"-5MiB", 0, true}, {"lots", 0, true}, {"12XB", 0, true}, {"", 0, true},
	} {
		var m memLimitFlag
		err := m.Set(c.in)
		if (err != nil) != c.bad || err == nil && (m.bytes != c.want || !m.set) {
			t.Errorf("Set(%q) = %v, bytes %d; want bytes %d, error %v", c.in, err, m.bytes, c.want, c.bad)
		}
	}
}

func TestApplyMemoryLimit(t *testing.T) {
	current := func() int64 { return debug.SetMemoryLimit(-1) }
	before := current()
	noEnv := func(string) string { return "" }

	stop := applyMemoryLimit(memLimitFlag{}, noEnv)
	if got := current(); got != defaultMemoryLimit {
		t.Errorf("default: limit %d, want %d", got, defaultMemoryLimit)
	}
	stop()
	if got := current(); got != before {
		t.Errorf("after stop: limit %d, want %d back", got, before)
	}

	// GOMEMLIMIT in the environment stands.
	stop = applyMemoryLimit(memLimitFlag{}, func(k string) string {
		if k == "GOMEMLIMIT" {
			return "1GiB"
		}
		return ""
	})
	if got := current(); got != before {
		t.Errorf("with GOMEMLIMIT: limit %d changed from %d", got, before)
	}
	stop()

	// The flag wins over GOMEMLIMIT; off means no limit.
	var off memLimitFlag
	off.Set("off")
	stop = applyMemoryLimit(off, func(string) string { return "1GiB" })
	if got := current(); got != math.MaxInt64 {
		t.Errorf("off: limit %d, want none", got)
	}
	stop()

	// A live heap above the limit raises it to 1.5 times the live heap
	// after a collection, so the collector does not run continuously.
	var small memLimitFlag
	small.Set("32MiB")
	stop = applyMemoryLimit(small, noEnv)
	defer stop()
	ballast := make([]*[1 << 20]byte, 64)
	for i := range ballast {
		ballast[i] = new([1 << 20]byte)
	}
	deadline := time.Now().Add(10 * time.Second)
	for current() < 64<<20*3/2 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := current(); got < 64<<20*3/2 {
		t.Errorf("64 MiB live under a 32 MiB limit: limit %d, want at least 1.5 times the live heap", got)
	}
	runtime.KeepAlive(ballast)
}
