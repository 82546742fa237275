package main

import (
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// envHeapPeak names the file startHeapPeak writes: the in-use heap profile
// taken when the live heap was largest, for finding what holds a run's
// peak memory (REPAUDIT_MEMPROFILE's profile is taken at the end, when
// Prism has let most of it go).
const envHeapPeak = "REPAUDIT_HEAPPEAK"

// heapPeakEvery is how often the live heap is looked at.
const heapPeakEvery = 50 * time.Millisecond

// startHeapPeak watches the live heap when getenv names a file, and
// writes an in-use heap profile there each time the heap has grown by a
// tenth over the last profile's. The returned function stops it; failures
// are reported on stderr, and the run goes on.
func startHeapPeak(getenv func(string) string, stderr io.Writer) (stop func()) {
	path := getenv(envHeapPeak)
	if path == "" {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var last uint64
		tick := time.NewTicker(heapPeakEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > last+last/10 {
				last = v
				if err := writeHeap(path); err != nil {
					fmt.Fprintf(stderr, "repaudit-beam: %s: %v\n", envHeapPeak, err)
					return
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

func writeHeap(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = pprof.Lookup("heap").WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
