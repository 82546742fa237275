// Package atomicfile writes output files whole or not at all: a File is
// written under a temporary hidden name in the same directory and renamed
// into place by Commit (rename(2) replaces the target atomically within
// one file system, POSIX.1-2017, "rename"), so that a run that dies
// leaves no half-written file under the final name, and no file an audit
// of the directory would read: hidden names are skipped.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File is an output file being written; it buffers writes.
type File struct {
	path string
	tmp  *os.File
	*bufio.Writer
	done bool
}

var _ io.Writer = (*File)(nil)

// Create starts writing path: a temporary file ".BASE.*.tmp" beside it.
func Create(path string) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &File{path: path, tmp: tmp, Writer: bufio.NewWriter(tmp)}, nil
}

// Commit flushes, makes the file world-readable (0644), syncs it and
// renames it into place.
func (f *File) Commit() error {
	for _, step := range []func() error{f.Flush, func() error { return f.tmp.Chmod(0o644) }, f.tmp.Sync, f.tmp.Close} {
		if err := step(); err != nil {
			return err
		}
	}
	if err := os.Rename(f.tmp.Name(), f.path); err != nil {
		return err
	}
	f.done = true
	return nil
}

// Abort removes the temporary file unless Commit succeeded; it is safe to
// defer.
func (f *File) Abort() {
	if !f.done {
		f.tmp.Close()
		os.Remove(f.tmp.Name())
	}
}

// Write writes name through a File: a failed write never leaves a
// truncated file under the final name, and a written one is synced
// before it takes that name. The error names the file.
func Write(name string, write func(io.Writer) error) error {
	f, err := Create(name)
	if err == nil {
		defer f.Abort()
		if err = write(f); err == nil {
			err = f.Commit()
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}
