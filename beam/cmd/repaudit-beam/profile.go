package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// Environment variables that write Go profiles of a whole run, as
// repaudit's do (go tool pprof FILE). On Prism the workers run in this
// process, so the profile covers the whole pipeline:
//
//	REPAUDIT_CPUPROFILE=FILE   CPU profile
//	REPAUDIT_MEMPROFILE=FILE   heap profile (allocations since start, and
//	                           what is live) taken when the command ends
const (
	envCPUProfile = "REPAUDIT_CPUPROFILE"
	envMemProfile = "REPAUDIT_MEMPROFILE"
)

// startProfiles starts what the environment asks for; the returned
// function ends it. Failures are reported and the run goes on unprofiled.
func startProfiles(getenv func(string) string) (stop func()) {
	var stops []func()
	if p := getenv(envCPUProfile); p != "" {
		f, err := os.Create(p)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "repaudit-beam: %s: %v\n", envCPUProfile, err)
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if p := getenv(envMemProfile); p != "" {
		runtime.MemProfileRate = 64 << 10
		stops = append(stops, func() {
			f, err := os.Create(p)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "repaudit-beam: %s: %v\n", envMemProfile, err)
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
