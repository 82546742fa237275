package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
)

// expandInputs is ingest.Expand (a variable for tests: root lists any
// directory, whatever its mode).
var expandInputs = ingest.Expand

// prepare is the first phase: it expands the inputs, loads the bot
// catalog and the identity files, and sniffs what each input holds.
func (r *run) prepare() error {
	cfg := r.cfg
	if err := r.bindInputs(); err != nil {
		return err
	}
	// "-" is standard input: Expand does not know it.
	var named []string
	stdin := false
	for _, a := range r.inputs {
		if a == StdinName {
			stdin = true
			continue
		}
		named = append(named, a)
	}
	paths, skipped, err := expandInputs(input.ExistingInputs(named, r.st))
	if err != nil {
		return err
	}
	if stdin {
		paths = append(paths, StdinName)
	}
	if err := checkArchiveAgents(cfg.Eval.ArchiveAgents, paths); err != nil {
		return err
	}
	if err := r.loadCatalog(); err != nil {
		return err
	}
	r.ids = identity.NewStore()
	r.st.Problems = append(r.st.Problems, skipped...) // directory entries Expand did not read
	for _, p := range skipped {
		// Whatever a subdirectory that could not be listed holds is lost,
		// as an input that could not be read is: the run fails (ErrInputs)
		// once everything else is written.
		if p.Code == ingest.ProblemDirUnreadable {
			r.st.Failed = append(r.st.Failed, p.Source.File)
		}
	}
	if err := input.LoadLocalIdentity(cfg.Options, r.catalog, r.ids, &r.st.Problems); err != nil {
		return err
	}
	if err := r.sniffAll(paths); err != nil {
		return err
	}
	return r.checkRobotsInputs()
}

// loadCatalog merges the --bots files over the default catalog.
func (r *run) loadCatalog() error {
	catalog, err := input.LoadCatalog(r.cfg.Bots)
	if err != nil {
		return err
	}
	r.sum.Catalog = input.CatalogInfo(catalog, r.cfg.Bots)
	r.catalog = catalog
	return nil
}

// sniffAll says what each input holds (r.files). Listings named with
// --index or --snippets are read as such even when a directory input
// also contains them; files found by walking a directory that hold
// nothing repaudit reads are skipped with a note, while a file named
// explicitly must be readable.
func (r *run) sniffAll(paths []string) error {
	named := map[string]bool{}
	for _, p := range append(append([]string(nil), r.cfg.Index...), r.cfg.Snippets...) {
		named[filepath.Clean(p)] = true
	}
	explicit := map[string]bool{StdinName: true}
	for _, a := range r.inputs {
		if st, err := os.Stat(a); err == nil && !st.IsDir() {
			explicit[filepath.Clean(a)] = true
		}
	}
	var files []*fileState
	for _, p := range paths {
		if named[filepath.Clean(p)] {
			continue
		}
		var fs *fileState
		if readOnce(p) {
			var err error
			if fs, err = r.sniffOnce(p); err != nil {
				return err
			}
		} else {
			f, err := ingest.SniffContext(r.ctx, p, r.cfg.LogFormat)
			fs = &fileState{f: f, err: err}
		}
		if fs.err == nil && fs.f.Kind == ingest.KindUnknown && !explicit[filepath.Clean(p)] {
			r.st.Problems = append(r.st.Problems, input.Skipped(p, fs.f.Note))
			continue
		}
		fs.site = r.bound[p]
		fs.explicit = explicit[filepath.Clean(p)]
		files = append(files, fs)
	}
	r.files = dropDuplicates(files, r.st)
	return nil
}

// sniffOnce sniffs an input that can be read only once from its first
// bytes and keeps it open for pass 1, which reads on from there. A
// document, listing or robots.txt file, which is read whole by name, is
// copied to the spool instead. The error is the context's when it is
// done; anything else is the input's.
func (r *run) sniffOnce(p string) (*fileState, error) {
	src, closeSrc, err := openOnce(r.ctx, p, r.cfg.Stdin)
	if err != nil {
		if r.ctx.Err() != nil {
			return nil, r.ctx.Err()
		}
		return &fileState{f: ingest.File{Path: p, Kind: ingest.KindUnknown}, err: err}, nil
	}
	f, rest, err := ingest.SniffReader(p, src, r.cfg.LogFormat)
	fs := &fileState{f: f, err: err, src: rest, closeSrc: closeSrc}
	r.opened = append(r.opened, fs)
	if r.ctx.Err() != nil {
		return nil, r.ctx.Err()
	}
	if err == nil && !streamKind(f.Kind) && f.Kind != ingest.KindUnknown {
		fs.f.Spool, fs.f.Size, fs.sha, fs.err = r.spool.copyInput(p, rest)
		if r.ctx.Err() != nil {
			return nil, r.ctx.Err()
		}
	}
	if fs.err != nil || !streamKind(fs.f.Kind) {
		fs.closeInput()
	}
	return fs, nil
}

// newBuilder makes the evaluation's builder and gives it what is read
// before the inputs: listings and robots.txt versions; it records the
// side inputs for the manifest.
func (r *run) newBuilder() error {
	eopts := r.cfg.Eval
	if eopts.SpillDir == "" {
		eopts.SpillDir = r.spool.base // large robots.txt bodies go beside the output
	}
	r.builder = evaluate.NewBuilder(eopts, r.catalog, r.ids)
	// Pass 2 sees every fetch in time order and settles the bots'
	// robots.txt views as it goes (judge.go, views stage): pass 1 keeps
	// none of a log's robots.txt fetches.
	r.builder.StreamViews()
	for _, p := range r.cfg.Index {
		if err := input.ReadListing(p, r.builder.AddIndexEntry, &r.st.Problems); err != nil {
			return err
		}
	}
	for _, p := range r.cfg.Snippets {
		if err := input.ReadListing(p, r.builder.AddSnippetEntry, &r.st.Problems); err != nil {
			return err
		}
	}
	input.ReadSiteSources(r.cfg.Options, r.builder.AddSiteVersion, r.st)
	input.SideInputs(r.cfg.Options, r.st)
	return nil
}

// checkArchiveAgents fails when --archive-agent FILE=TOKEN names a file
// that is none of the inputs: a typo would otherwise leave the file
// without the crawler the user meant to give it, silently.
func checkArchiveAgents(perFile map[string]string, paths []string) error {
	if len(perFile) == 0 {
		return nil
	}
	in := make(map[string]bool, len(paths))
	for _, p := range paths {
		in[filepath.Clean(p)] = true
	}
	var missing []string
	for f := range perFile {
		if !in[filepath.Clean(f)] {
			missing = append(missing, f)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return fmt.Errorf("%w: --archive-agent FILE=TOKEN names %s, not among the inputs (give FILE as on the command line, or as a path under a directory given)",
		ingest.ErrNoInput, strings.Join(missing, ", "))
}

// dropDuplicates removes the files whose content is the same as an
// earlier file's (input.Duplicates): each content is read once.
func dropDuplicates(files []*fileState, st *input.State) []*fileState {
	var cands []input.Candidate
	var of []*fileState // the file of each candidate
	for _, f := range files {
		if f.err == nil {
			cands = append(cands, input.Candidate{File: f.f, SHA: f.sha})
			of = append(of, f)
		}
	}
	dup := input.Duplicates(cands, st)
	if len(dup) == 0 {
		return files
	}
	drop := make(map[*fileState]bool, len(dup))
	for i := range dup {
		drop[of[i]] = true
	}
	out := files[:0:0]
	for _, f := range files {
		if !drop[f] {
			out = append(out, f)
		}
	}
	return out
}
