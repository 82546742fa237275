package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

// errOutputExists is returned by checkNewOutput for an existing file when
// --force was not given.
var errOutputExists = errors.New("exists (use --force to replace it)")

// checkNewOutput refuses an existing output file unless force. It runs
// before any network work, so nothing is fetched for an output that
// cannot be written.
func checkNewOutput(path string, force bool) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case st.IsDir():
		return fmt.Errorf("%s is a directory", path)
	case !force:
		return fmt.Errorf("%s %w", path, errOutputExists)
	}
	return nil
}

// atomicFile is an output file written under a temporary hidden name in
// the same directory and renamed into place by Commit, so that a run that
// dies leaves no half-written file under the final name (and no file that
// an audit of the directory would read: hidden names are skipped).
type atomicFile struct {
	path string
	tmp  *os.File
	*bufio.Writer
	done bool
}

func createAtomic(path string) (*atomicFile, error) {
	a, err := openAtomic(path)
	if err != nil {
		return nil, fmt.Errorf("create output: %w", err)
	}
	return a, nil
}

// openAtomic is createAtomic with the error unwrapped.
func openAtomic(path string) (*atomicFile, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &atomicFile{path: path, tmp: tmp, Writer: bufio.NewWriter(tmp)}, nil
}

// Commit flushes, syncs and renames the file into place.
func (a *atomicFile) Commit() error {
	if err := a.commit(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// commit is Commit with the error unwrapped.
func (a *atomicFile) commit() error {
	for _, step := range []func() error{a.Flush, func() error { return a.tmp.Chmod(0o644) }, a.tmp.Sync, a.tmp.Close} {
		if err := step(); err != nil {
			return err
		}
	}
	if err := os.Rename(a.tmp.Name(), a.path); err != nil {
		return err
	}
	a.done = true
	return nil
}

// writeFileAtomic writes name through an atomicFile: a failed write
// never leaves a truncated file under the final name, and a written one
// is synced before it takes that name.
func writeFileAtomic(name string, write func(io.Writer) error) error {
	a, err := openAtomic(name)
	if err == nil {
		defer a.Abort()
		if err = write(a); err == nil {
			err = a.commit()
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// Abort removes the temporary file unless Commit succeeded; it is safe to
// defer.
func (a *atomicFile) Abort() {
	if !a.done {
		a.tmp.Close()
		os.Remove(a.tmp.Name())
	}
}

var _ io.Writer = (*atomicFile)(nil)

// refuseAuditFile refuses an -o FILE that is one of the audit's own files
// (a table or manifest.json), by name or through a link: the report would
// replace the data it was made from.
func refuseAuditFile(dir, out string) error {
	ost, err := os.Stat(out)
	if err != nil {
		return nil // a new file cannot be one of the audit's
	}
	names := []string{output.ManifestName}
	for _, t := range table.Tables {
		names = append(names, t.Name+".parquet")
	}
	for _, n := range names {
		if st, err := os.Stat(filepath.Join(dir, n)); err == nil && os.SameFile(st, ost) {
			return fmt.Errorf("-o %s is the audit's own %s; refusing to overwrite it", out, n)
		}
	}
	return nil
}
