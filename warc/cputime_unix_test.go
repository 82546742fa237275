//go:build unix

package warc

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user plus system CPU time. Benchmarks
// report it next to wall time because the machines they run on are often
// shared: CPU time per byte is what "per core" speed means.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
