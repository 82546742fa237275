// Package cputime reads the process's CPU time, so benchmarks can report
// throughput per CPU-second next to wall time. On a shared machine wall
// time is distorted by other load; CPU time per byte or per line is what
// "per core" speed means.
package cputime

import (
	"testing"
	"time"
)

// Report adds cpu-ns/op and, when bytes > 0 (b.SetBytes's value),
// cpu-MB/s metrics to a benchmark; start is Process() taken before the
// benchmark loop. It reports nothing where CPU time cannot be read.
func Report(b *testing.B, start time.Duration, bytes int64) {
	cpu := Process() - start
	if cpu <= 0 || b.N == 0 {
		return
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	if bytes > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}
