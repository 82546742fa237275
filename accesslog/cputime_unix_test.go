//go:build unix

package accesslog

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user+system CPU time, so benchmarks can
// report throughput per CPU second, which a busy shared machine does not
// distort the way it distorts wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
