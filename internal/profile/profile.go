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
//	REPAUDIT_MEMPROFILE_PHASES=DIR
//	                           one in-use heap profile per phase of an
//	                           audit (DIR/NN-PHASE.heap), each taken after
//	                           a collection at the phase's end (Phase)
package profile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sync"
)

// The environment variables Start reads.
const (
	EnvCPU   = "REPAUDIT_CPUPROFILE"
	EnvMem   = "REPAUDIT_MEMPROFILE"
	EnvTrace = "REPAUDIT_TRACE"
	// EnvMemPhases names a directory for Phase's profiles.
	EnvMemPhases = "REPAUDIT_MEMPROFILE_PHASES"
)

// phases is the state of REPAUDIT_MEMPROFILE_PHASES: the directory
// (empty: off), the profiles written so far, where failures go.
var phases struct {
	sync.Mutex
	dir    string
	n      int
	prog   string
	stderr io.Writer
}

// Phase writes an in-use heap profile named after the phase that just
// ended, when REPAUDIT_MEMPROFILE_PHASES asked for them (a no-op
// otherwise). It collects garbage first, so the profile shows what the
// phase left live: the collection changes the run's timing, which is why
// it is off unless asked for.
func Phase(name string) {
	phases.Lock()
	defer phases.Unlock()
	if phases.dir == "" {
		return
	}
	phases.n++
	runtime.GC()
	p := filepath.Join(phases.dir, fmt.Sprintf("%02d-%s.heap", phases.n, name))
	f, err := os.Create(p)
	if err == nil {
		err = pprof.Lookup("heap").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(phases.stderr, "%s: %s: %v\n", phases.prog, EnvMemPhases, err)
	}
}

// Start starts what getenv asks for; the returned function ends it.
// Failures are reported on stderr, prefixed with prog, and the run goes on
// unprofiled.
func Start(prog string, getenv func(string) string, stderr io.Writer) (stop func()) {
	var stops []func()
	// toFile starts writing what env names to its file.
	toFile := func(env string, start func(io.Writer) error, end func()) {
		p := getenv(env)
		if p == "" {
			return
		}
		f, err := os.Create(p)
		if err == nil {
			err = start(f)
		}
		if err != nil {
			if f != nil {
				f.Close()
			}
			fmt.Fprintf(stderr, "%s: %s: %v\n", prog, env, err)
			return
		}
		stops = append(stops, func() { end(); f.Close() })
	}
	toFile(EnvCPU, pprof.StartCPUProfile, pprof.StopCPUProfile)
	toFile(EnvTrace, trace.Start, trace.Stop)
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
	if d := getenv(EnvMemPhases); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			fmt.Fprintf(stderr, "%s: %s: %v\n", prog, EnvMemPhases, err)
		} else {
			runtime.MemProfileRate = 64 << 10
			phases.Lock()
			phases.dir, phases.n, phases.prog, phases.stderr = d, 0, prog, stderr
			phases.Unlock()
			stops = append(stops, func() { phases.Lock(); phases.dir = ""; phases.Unlock() })
		}
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
