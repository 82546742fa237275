package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
)

// Config is one validated pipeline run. It is serialized into the DoFns,
// so every field is plain data; the files it names must be readable by
// every worker (local paths on Prism; a shared mount or a filesystem Beam
// registers, such as gs://, on a cluster).
type Config struct {
	Inputs []string // files, directories, globs; URLs of registered filesystems
	Out    string   // output directory (local or a registered filesystem)
	Force  bool
	// Options are what the input layer reads with, as in the local
	// audit: the launcher reads the site's own robots.txt versions
	// (--robots, --robots-git, --robots-dir) through it, and a
	// MaxProblemsPerFile of 0 is input.DefaultMaxProblems.
	input.Options
	// Workers is how many partitions one judging bundle evaluates side by
	// side (goroutines in the worker process); 0 = GOMAXPROCS there.
	Workers int
	// SplitBytes is the size of the byte ranges a large plain-text log
	// is read in, side by side (split.go): 0 = DefaultSplitBytes, < 0 =
	// every file is read whole.
	SplitBytes int64
	// HotFetches is how many fetches make a partition hot: its fetches
	// are then judged in shards keyed by agent (hot.go). 0 =
	// DefaultHotFetches, < 0 = never; 1 makes every partition with a
	// fetch hot (tests).
	HotFetches int64
	// HotShards is the most shards a hot partition is judged in; 0 =
	// DefaultHotShards.
	HotShards int
	// Version, Command and ManifestOptions (the flags as given) are
	// recorded in the manifest.
	Version         string
	Command         []string
	ManifestOptions map[string]string
}

// fileRef is one input file as the launcher found it. Idx is its place in
// the sorted input list (audit's order, which breaks ties between fetches
// of the same time).
type fileRef struct {
	Idx      int
	Path     string
	Explicit bool   // named on the command line (not found in a directory)
	Role     string // "" (detect), "index" or "snippets"
	// Split and Splits name one byte range [Start, End) of a large
	// plain-text log read in Splits parts (split.go); Splits is 0 for a
	// file read whole.
	Split      int   `json:",omitempty"`
	Splits     int   `json:",omitempty"`
	Start, End int64 `json:",omitempty"`
}

func hasScheme(p string) bool {
	i := strings.Index(p, "://")
	return i > 0 && !strings.ContainsAny(p[:i], "/\\")
}

// expand turns the inputs into files in audit's order: local arguments as
// ingest.Expand does (sorted, directories walked), URLs of registered
// filesystems through their List (a directory URL lists everything under
// it). Files named with --index or --snippets are read as listings only.
func expand(ctx context.Context, cfg *Config) ([]fileRef, []event.Problem, error) {
	var local, remote []string
	for _, in := range cfg.Inputs {
		if hasScheme(in) {
			remote = append(remote, in)
		} else {
			local = append(local, in)
		}
	}
	var paths []string
	// A local input that names nothing is a failed input, as in the local audit;
	// then the directory entries Expand did not read.
	var st input.State
	local = input.ExistingInputs(local, &st)
	skipped := st.Problems
	if len(local) > 0 {
		ps, sk, err := ingest.Expand(local)
		if err != nil {
			return nil, nil, err
		}
		paths = ps
		skipped = append(skipped, sk...)
	}
	for _, pat := range remote {
		fs, err := filesystem.New(ctx, pat)
		if err != nil {
			return nil, nil, err
		}
		glob := pat
		if !strings.ContainsAny(pat, "*?[") {
			if strings.HasSuffix(pat, "/") {
				glob = pat + "**"
			}
		}
		ms, err := fs.List(ctx, glob)
		fs.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("list %s: %w", pat, err)
		}
		if len(ms) == 0 {
			return nil, nil, fmt.Errorf("%w: %q matches nothing", ingest.ErrNoInput, pat)
		}
		paths = append(paths, ms...)
	}
	if len(remote) > 0 {
		sort.Strings(paths)
		paths = dedup(paths)
	}
	named := map[string]bool{}
	for _, p := range append(append([]string(nil), cfg.Index...), cfg.Snippets...) {
		named[filepath.Clean(p)] = true
	}
	explicit := map[string]bool{}
	for _, a := range cfg.Inputs {
		if hasScheme(a) && !strings.ContainsAny(a, "*?[") && !strings.HasSuffix(a, "/") {
			explicit[a] = true
		} else if st, err := os.Stat(a); err == nil && !st.IsDir() {
			explicit[filepath.Clean(a)] = true
		}
	}
	var out []fileRef
	var read []input.Candidate // local files the local audit reads, for its duplicate check
	for _, p := range paths {
		if named[filepath.Clean(p)] {
			continue
		}
		ex := explicit[p] || (!hasScheme(p) && explicit[filepath.Clean(p)])
		if !hasScheme(p) {
			if f, err := ingest.SniffContext(ctx, p, cfg.LogFormat); err == nil && (f.Kind != ingest.KindUnknown || ex) {
				read = append(read, input.Candidate{File: f})
			}
		}
		out = append(out, fileRef{Idx: len(out), Path: p, Explicit: ex})
	}
	// Files with the same content as an earlier one are read once.
	dupSt := input.State{}
	dup := map[string]bool{}
	for i := range input.Duplicates(read, &dupSt) {
		dup[read[i].File.Path] = true
	}
	skipped = append(skipped, dupSt.Problems...)
	out = slices.DeleteFunc(out, func(r fileRef) bool { return dup[r.Path] })
	for i := range out {
		out[i].Idx = i
	}
	for _, p := range cfg.Index {
		out = append(out, fileRef{Idx: len(out), Path: p, Explicit: true, Role: "index"})
	}
	for _, p := range cfg.Snippets {
		out = append(out, fileRef{Idx: len(out), Path: p, Explicit: true, Role: "snippets"})
	}
	return out, skipped, nil
}

func dedup(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// validate checks what can be checked before the pipeline starts: the
// output target and the files every worker will load.
func (cfg *Config) validate() error {
	if cfg.Out == "" {
		return errors.New("no output directory")
	}
	if len(cfg.Inputs) == 0 && len(cfg.Index) == 0 && len(cfg.Snippets) == 0 {
		return errors.New("no inputs")
	}
	if !hasScheme(cfg.Out) {
		if err := checkLocalTarget(cfg.Out, cfg.Force); err != nil {
			return err
		}
	}
	var files []string
	files = append(files, cfg.Bots...)
	files = append(files, cfg.Cards...)
	files = append(files, cfg.JWKS...)
	files = append(files, cfg.Index...)
	files = append(files, cfg.Snippets...)
	for _, ps := range cfg.IPRanges {
		files = append(files, ps...)
	}
	files = append(files, cfg.IPRangesDirs...)
	files = append(files, cfg.DNSDirs...)
	for _, f := range files {
		if hasScheme(f) {
			continue
		}
		if _, err := os.Stat(f); err != nil {
			return err
		}
	}
	return nil
}

// checkLocalTarget refuses an existing non-empty output directory unless
// force is set and it holds a finished repaudit output (manifest.json).
func checkLocalTarget(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if !force {
		return fmt.Errorf("%s: directory exists and is not empty (use --force to replace it)", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		return fmt.Errorf("%s: refusing to replace a directory that is not a repaudit output", dir)
	}
	return nil
}
