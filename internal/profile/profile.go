// Package profile writes Go profiles of a whole run when the environment
// asks for them, for bench/run and anyone measuring (go tool pprof FILE).
// repaudit and repaudit-beam (where Prism runs the workers in the same
// process, so the profile covers the whole pipeline) both use it:
//
//	REPAUDIT_CPUPROFILE=FILE   CPU profile
//	REPAUDIT_MEMPROFILE=FILE   heap profile (allocations since start, and
//	                           what is live) taken when the command ends
//	REPAUDIT_TRACE=FILE        execution trace (go tool trace FILE): where
//	                           goroutines wait and cores idle
package profile

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// The environment variables Start reads.
const (
	EnvCPU   = "REPAUDIT_CPUPROFILE"
	EnvMem   = "REPAUDIT_MEMPROFILE"
	EnvTrace = "REPAUDIT_TRACE"
)

// Start starts what getenv asks for; the returned function ends it.
// Failures are reported on stderr, prefixed with prog, and the run goes on
// unprofiled.
func Start(prog string, getenv func(string) string, stderr io.Writer) (stop func()) {
	var stops []func()
	if p := getenv(EnvCPU); p != "" {
		f, err := os.Create(p)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %s: %v\n", prog, EnvCPU, err)
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if p := getenv(EnvTrace); p != "" {
		f, err := os.Create(p)
		if err == nil {
			err = trace.Start(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %s: %v\n", prog, EnvTrace, err)
		} else {
			stops = append(stops, func() { trace.Stop(); f.Close() })
		}
	}
	if p := getenv(EnvMem); p != "" {
		runtime.MemProfileRate = 64 << 10
		stops = append(stops, func() {
			f, err := os.Create(p)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
			if err != nil {
				fmt.Fprintf(stderr, "%s: %s: %v\n", prog, EnvMem, err)
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
