package main

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
)

// defaultMemoryLimit is the soft memory limit of `repaudit audit` when
// neither --memory-limit nor GOMEMLIMIT gives one. An audit's live heap is
// bounded by design (docs/semantics.md §16: table writers, spools,
// robots.txt caches) well below it on ordinary inputs, so the limit only
// makes the garbage collector run before the heap doubles.
const defaultMemoryLimit = 192 << 20

// memLimitFlag is --memory-limit: a size (1GiB, 300MiB, 500MB, a number
// of bytes), or off. Unset, GOMEMLIMIT decides when the environment sets
// it, else defaultMemoryLimit.
type memLimitFlag struct {
	set   bool
	bytes int64 // 0: off
}

func (m *memLimitFlag) String() string {
	switch {
	case !m.set:
		return ""
	case m.bytes == 0:
		return "off"
	}
	return strconv.FormatInt(m.bytes, 10)
}

func (m *memLimitFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "off" || s == "0" {
		m.set, m.bytes = true, 0
		return nil
	}
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.TrimSpace(s[i:])
	}
	mult := map[string]float64{
		"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
		"KB": 1e3, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
	}[unit]
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || f <= 0 || f*mult >= math.MaxInt64 {
		return fmt.Errorf("%q is not a size such as 300MiB, 1GiB or off", s)
	}
	if f*mult < 32<<20 {
		return fmt.Errorf("%q is below 32MiB, less than the program itself needs", s)
	}
	m.set, m.bytes = true, int64(f*mult)
	return nil
}

// applyMemoryLimit sets the soft memory limit an audit runs under; stop
// puts back the one before. The limit is a floor, not a cap: after
// every collection the limit becomes at least 1.5 times the live heap, so
// a run whose live heap outgrows it (inputs whose memory is not bounded
// yet, docs/semantics.md §16) collects as with GOGC=50 rather than
// continuously; GOGC's own doubling still applies below the limit.
func applyMemoryLimit(m memLimitFlag, getenv func(string) string) (stop func()) {
	limit := int64(defaultMemoryLimit)
	switch {
	case m.set:
		limit = m.bytes
	case getenv("GOMEMLIMIT") != "":
		return func() {} // the runtime has read it
	}
	if limit == 0 {
		old := debug.SetMemoryLimit(math.MaxInt64)
		return func() { debug.SetMemoryLimit(old) }
	}
	old := debug.SetMemoryLimit(limit)
	var stopped atomic.Bool
	var rearm func(*gcSentinel)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	rearm = func(*gcSentinel) {
		if stopped.Load() {
			return
		}
		metrics.Read(sample)
		live := int64(sample[0].Value.Uint64())
		debug.SetMemoryLimit(max(limit, live+live/2))
		runtime.SetFinalizer(&gcSentinel{}, rearm)
	}
	runtime.SetFinalizer(&gcSentinel{}, rearm)
	return func() {
		stopped.Store(true)
		debug.SetMemoryLimit(old)
	}
}

// gcSentinel is garbage as soon as it is made: its finalizer runs after
// the next collection (a pointer field keeps it out of the tiny allocator,
// whose objects may be finalized late or never).
type gcSentinel struct{ _ *int }
