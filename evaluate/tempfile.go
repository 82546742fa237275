package evaluate

import (
	"errors"
	"os"
)

// tempFile is a spill file of the model (robots.txt bodies, capture
// summaries): created in the spill directory and unlinked at once where
// the system allows it, so that nothing is left behind however the run
// ends; close removes it otherwise.
type tempFile struct {
	*os.File
	removed bool // unlinked when created
}

// createTemp creates a tempFile in dir named after pattern.
func createTemp(dir, pattern string) (*tempFile, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &tempFile{File: f, removed: os.Remove(f.Name()) == nil}, nil
}

// close closes the file and removes it if it was not unlinked; it
// returns the first error.
func (t *tempFile) close() error {
	name := t.Name()
	err := t.Close()
	if !t.removed {
		if rerr := os.Remove(name); err == nil && rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = rerr
		}
	}
	return err
}
