package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// The judging stage's world travels as a file, not as side inputs.
//
// Prism (the default runner, Beam 2.77.0) re-plans a stage that reads
// side inputs in a busy loop for as long as one of its bundles runs with
// no more elements pending: its watermark loop finds such a stage ready
// (every side input done), builds an empty bundle, and marks the stage
// for another look at once, because an ordinary stage always says it may
// be schedulable again. On the 1M-line benchmark corpus the loop turned
// about 2 million times, most of them while the judging stage ran, and
// cost 3 to 5 CPU-s of about 15 (beam/README.md). So the side inputs
// every judging bundle loads (the shared facts, the identity documents,
// the line offsets of split files) are written once, by worldFn, to one
// file under the run's temporary directory, and judgeFn reads that file.
// worldFn's (empty) output goes into the judging stage's GroupByKey, which
// fires only once all of its input is done (gate.go): the file is
// complete before any partition is judged, on any runner.

// worldFile is what worldFn writes: the elements of each side input.
type worldFile struct {
	Shared   [][]byte `json:"shared"`
	Identity [][]byte `json:"identity"`
	Offsets  [][]byte `json:"offsets"`
}

// worldFn writes the side inputs of the judging stage to Path. Its main
// input is an impulse; it emits nothing, so its output is a gate.
type worldFn struct {
	Path string `json:"path"`
}

func (fn *worldFn) ProcessElement(ctx context.Context, _ []byte, sharedSI, identitySI, offsetsSI func(*[]byte) bool,
	emit func(string, []byte)) error {
	var w worldFile
	for _, in := range []struct {
		si  func(*[]byte) bool
		dst *[][]byte
	}{{sharedSI, &w.Shared}, {identitySI, &w.Identity}, {offsetsSI, &w.Offsets}} {
		var b []byte
		for in.si(&b) {
			*in.dst = append(*in.dst, b)
			b = nil
		}
	}
	if err := mkdirFor(fn.Path); err != nil {
		return err
	}
	// A retried bundle writes the same content again.
	if err := writeFile(ctx, fn.Path, encode(&w)); err != nil {
		return fmt.Errorf("write the judging stage's world: %w", err)
	}
	return nil
}

// mkdirFor makes the local directory a file is written in.
func mkdirFor(path string) error {
	if hasScheme(path) {
		return nil
	}
	return os.MkdirAll(filepath.Dir(path), 0o755)
}

// readWorld loads the world worldFn wrote to path.
func readWorld(ctx context.Context, cfg *Config, path string) (*world, error) {
	local, cleanup, err := fetchLocal(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("read the judging stage's world: %w", err)
	}
	defer cleanup()
	data, err := os.ReadFile(local)
	if err != nil {
		return nil, fmt.Errorf("read the judging stage's world: %w", err)
	}
	var w worldFile
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("read the judging stage's world %s: %w", path, err)
	}
	return loadWorld(ctx, cfg, iterOf(w.Shared), iterOf(w.Identity), iterOf(w.Offsets))
}

// iterOf returns an iterator over elems of the form side inputs have.
func iterOf(elems [][]byte) func(*[]byte) bool {
	return func(b *[]byte) bool {
		if len(elems) == 0 {
			return false
		}
		*b, elems = elems[0], elems[1:]
		return true
	}
}
