//go:build unix

package ingest

import (
	"os"
	"syscall"
)

// releaseOpen completes an open for reading that is blocked on the named
// pipe name, by opening and closing its write end without blocking (with
// no reader waiting, that open fails with ENXIO and nothing happens).
// Anything other than a named pipe is left alone.
func releaseOpen(name string) {
	st, err := os.Stat(name)
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	if w, err := os.OpenFile(name, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close()
	}
}
