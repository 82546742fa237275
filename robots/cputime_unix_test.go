//go:build unix

package robots

import (
	"syscall"
	"testing"
	"time"
)

// processCPU returns the user+system CPU time of the process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds CPU-time metrics to a benchmark, which stay meaningful on
// a loaded machine where wall-clock ns/op does not. Call it with the CPU
// time taken before the loop; bytes is b.SetBytes's value, 0 for none.
func reportCPU(b *testing.B, start time.Duration, bytes int64) {
	cpu := processCPU() - start
	if cpu <= 0 || b.N == 0 {
		return
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	if bytes > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}
