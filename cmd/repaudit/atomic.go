package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/repaudit/repaudit/internal/atomicfile"
	"github.com/repaudit/repaudit/output"
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

// atomicFile is an output file written whole or not at all (see
// package atomicfile); its errors are worded for the commands.
type atomicFile struct{ *atomicfile.File }

func createAtomic(path string) (*atomicFile, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create output: %w", err)
	}
	return &atomicFile{f}, nil
}

// Commit flushes, syncs and renames the file into place.
func (a *atomicFile) Commit() error {
	if err := a.File.Commit(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// refuseAuditFile refuses an -o FILE that is one of the audit's own files
// (output.OwnFile): the report would replace the data it was made from.
func refuseAuditFile(dir, out string) error {
	if n, ok := output.OwnFile(dir, out); ok {
		return fmt.Errorf("-o %s is the audit's own %s; refusing to overwrite it", out, n)
	}
	return nil
}

// writeNew writes body to path whole or not at all, refusing an existing
// file unless force (checkNewOutput).
func writeNew(path string, body []byte, force bool) error {
	if err := checkNewOutput(path, force); err != nil {
		return err
	}
	f, err := createAtomic(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(body); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return f.Commit()
}
