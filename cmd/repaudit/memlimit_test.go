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

	// A live heap above two thirds of the limit lifts it after a
	// collection and collects as with GOGC=50 instead, so the collector
	// does not run continuously; once the live heap falls back, the limit
	// and the collector's percentage return.
	percent := func() int { p := debug.SetGCPercent(100); debug.SetGCPercent(p); return p }
	beforePercent := percent()
	bigPercent := 50
	if beforePercent >= 0 && beforePercent < 50 {
		bigPercent = beforePercent
	}
	var small memLimitFlag
	small.Set("32MiB")
	stop = applyMemoryLimit(small, noEnv)
	defer stop()
	ballast := make([]*[1 << 20]byte, 64)
	for i := range ballast {
		ballast[i] = new([1 << 20]byte)
	}
	waitFor := func(ok func() bool) bool {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
			if ok() {
				return true
			}
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
		}
		return ok()
	}
	if !waitFor(func() bool { return current() == math.MaxInt64 && percent() == bigPercent }) {
		t.Errorf("64 MiB live under a 32 MiB limit: limit %d, GOGC %d; want no limit and GOGC %d", current(), percent(), bigPercent)
	}
	runtime.KeepAlive(ballast)
	ballast = nil
	if !waitFor(func() bool { return current() == 32<<20 && percent() == beforePercent }) {
		t.Errorf("live heap gone: limit %d, GOGC %d; want 32 MiB and %d back", current(), percent(), beforePercent)
	}
	runtime.KeepAlive(ballast)
}
