//go:build unix

package ingest

import (
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestExpandFIFOInDirectory: a named pipe inside a directory input is not
// opened (that could block the run) and the skip is reported; named
// explicitly, it is listed.
func TestExpandFIFOInDirectory(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.log")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	a := write(t, dir, "a.log", []byte(combinedLine))
	got, probs, err := Expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{a}) {
		t.Errorf("Expand = %v, want [%s]", got, a)
	}
	if c := codes(probs); !slices.Equal(c, []string{string(ProblemNotRegular) + " pipe.log"}) {
		t.Errorf("problems = %v", c)
	}
	got, _, err = Expand([]string{fifo})
	if err != nil || !slices.Equal(got, []string{fifo}) {
		t.Errorf("Expand(fifo) = %v, %v; want it listed", got, err)
	}
}
