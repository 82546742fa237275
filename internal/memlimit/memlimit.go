// Package memlimit sets the soft memory limit (runtime/debug
// SetMemoryLimit, the Go GC guide, "Memory limit") that "repaudit audit"
// runs under, and lifts it while the live heap outgrows it.
package memlimit

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Default is the soft memory limit of "repaudit audit" when neither
// --memory-limit nor GOMEMLIMIT gives one. An audit's live heap is
// bounded by design (docs/design.md, "Memory": table writers, spools,
// robots.txt caches) well below it on ordinary inputs, so the limit only
// makes the garbage collector run before the heap doubles.
const Default = 192 << 20

// Apply sets the soft memory limit an audit runs under: bytes when set
// (0: none), else none of its own when getenv finds GOMEMLIMIT (the
// runtime has read it), else Default; stop puts back the one before. The limit is a floor, not a cap: once a
// collection finds the live heap above two thirds of it, the limit is
// lifted and the collector runs as with GOGC=50 (or the environment's
// GOGC, when lower), so a run whose live heap outgrows it (inputs whose
// memory is not bounded yet, docs/design.md, "Memory") gets 1.5 times its
// live heap rather than collecting continuously; when the live heap
// falls back, the limit returns.
//
// Why not keep a limit and raise it to 1.5 times the live heap: a limit
// counts all of the runtime's memory (stacks, free spans, fragmentation),
// not the heap alone, so such a limit left the heap a tenth of headroom,
// and near its limit the runtime also hands memory back to the system
// and faults it in again: on the standard WARC case that cost far more
// CPU than GOGC=50 for a little less peak RSS (the figures:
// bench/results/2026-11-27-figures-from-comments.md).
func Apply(set bool, bytes int64, getenv func(string) string) (stop func()) {
	limit := int64(Default)
	switch {
	case set:
		limit = bytes
	case getenv("GOMEMLIMIT") != "":
		return func() {} // the runtime has read it
	}
	if limit == 0 {
		old := debug.SetMemoryLimit(math.MaxInt64)
		return func() { debug.SetMemoryLimit(old) }
	}
	old := debug.SetMemoryLimit(limit)
	oldPercent := debug.SetGCPercent(100)
	debug.SetGCPercent(oldPercent)
	bigPercent := 50
	if oldPercent >= 0 && oldPercent < bigPercent {
		bigPercent = oldPercent
	}
	var mu sync.Mutex // orders rearm against stop
	stopped := false
	var rearm func(*gcSentinel)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	rearm = func(*gcSentinel) {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		metrics.Read(sample)
		live := int64(sample[0].Value.Uint64())
		if live > limit/3*2 {
			debug.SetMemoryLimit(math.MaxInt64)
			debug.SetGCPercent(bigPercent)
		} else {
			debug.SetGCPercent(oldPercent)
			debug.SetMemoryLimit(limit)
		}
		runtime.SetFinalizer(&gcSentinel{}, rearm)
	}
	runtime.SetFinalizer(&gcSentinel{}, rearm)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(old)
	}
}

// gcSentinel is garbage as soon as it is made: its finalizer runs after
// the next collection (a pointer field keeps it out of the tiny allocator,
// whose objects may be finalized late or never).
type gcSentinel struct{ _ *int }
