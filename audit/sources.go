package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/history"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/problem"
)

// siteVersion turns a history version into the evaluation's; auth, when
// not "", is the authority the source is bound to (URL=, or a host
// subdirectory of --robots-dir).
func siteVersion(v history.Version, auth string) evaluate.SiteVersion {
	sv := evaluate.SiteVersion{
		From: v.From, Body: v.Body, Absent: v.Absent, Origin: v.Origin, Ref: v.Ref, Detail: v.Detail,
		Source: event.Source{File: v.File, Offset: -1},
	}
	if auth != "" {
		sv.URL = auth + "/robots.txt"
	}
	return sv
}

// readSiteVersions reads the robots.txt versions named by --robots,
// --robots-git and --robots-dir into b. A source that cannot be read is a
// problem and a failed input; the run goes on without it.
func readSiteVersions(cfg Config, b *evaluate.Builder, st *runState) {
	readSiteSources(cfg, b.AddSiteVersion, st)
}

// readSiteSources is readSiteVersions giving each version to addVersion
// (the Beam pipeline ships them to their partition instead). A source
// bound with URL= gives versions of that authority (SiteVersion.URL).
func readSiteSources(cfg Config, addVersion func(evaluate.SiteVersion), st *runState) {
	srcs, err := parseSources(cfg)
	if err != nil { // Run refuses these first (checkSources)
		st.fail("robots.txt sources", "robots", err)
		return
	}
	sites := runSites(cfg.Eval)
	for _, s := range srcs {
		switch s.flag {
		case "--robots":
			file, t, _, err := history.SplitFileTime(s.rest)
			if err != nil {
				st.fail(s.arg, "robots", err)
				continue
			}
			v, err := history.ReadFile(file, t)
			if err != nil {
				st.fail(file, "robots", err)
				continue
			}
			addVersion(siteVersion(v, s.auth))
			st.input(output.Input{Path: file, Size: int64(len(v.Body)), SHA256: sha(v.Body), Kind: "robots", Format: boundFormat("robots.txt", s.auth), Records: 1})
		case "--robots-git":
			dir, file := history.SplitGitArg(s.rest)
			vs, probs, err := history.ReadGit(dir, file)
			st.historyProblems(probs)
			if err != nil {
				st.fail(dir, "robots-git", err)
				continue
			}
			for _, v := range vs {
				addVersion(siteVersion(v, s.auth))
			}
			st.input(output.Input{Path: dir, Kind: "robots-git", Format: boundFormat("git:"+file, s.auth), Records: int64(len(vs)), Problems: int64(len(probs))})
		case "--robots-dir":
			dv, err := readRobotsDir(s.rest, s.auth, sites)
			st.historyProblems(dv.probs)
			if err != nil {
				st.fail(s.rest, "robots-dir", err)
				continue
			}
			var size int64
			for i, v := range dv.versions {
				addVersion(siteVersion(v, dv.auths[i]))
				size += int64(len(v.Body))
			}
			st.input(output.Input{Path: s.rest, Size: size, Kind: "robots-dir", Format: boundFormat("dated snapshots", s.auth), Records: int64(len(dv.versions)), Problems: int64(len(dv.probs))})
		}
	}
}

// boundFormat is the manifest's format of a robots.txt source, naming
// the site it is bound to.
func boundFormat(format, auth string) string {
	if auth == "" {
		return format
	}
	return format + " for " + auth
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// runState collects what the run reads besides the streamed inputs:
// problems located at local files, inputs that failed, and the manifest
// entries of robots.txt sources.
type runState struct {
	problems []event.Problem
	failed   []string
	inputs   []output.Input
}

func (st *runState) fail(path, kind string, err error) {
	st.failed = append(st.failed, path)
	st.problems = append(st.problems, event.Problem{Source: event.Source{File: path, Offset: -1},
		Code: problem.InputUnreadable, Severity: event.SevError, Message: kind + ": " + err.Error()})
}

func (st *runState) input(in output.Input) { st.inputs = append(st.inputs, in) }

func (st *runState) historyProblems(ps []event.Problem) {
	st.problems = append(st.problems, ps...)
}

// existingInputs drops the inputs that name nothing (a path that does not
// exist, a pattern that matches nothing): each is a failed input with a
// problem, and the run goes on with the rest (input errors are reported
// and the tables of what could be read are still written: exit code 2,
// docs/usage.md, "audit: flags and exit codes").
func existingInputs(args []string, st *runState) []string {
	var out []string
	for _, a := range args {
		if strings.ContainsAny(a, "*?[") {
			if m, err := filepath.Glob(a); err == nil && len(m) == 0 {
				if _, statErr := os.Stat(a); statErr != nil {
					st.fail(a, "input", fmt.Errorf("%q matches nothing", a))
					continue
				}
			}
			out = append(out, a)
			continue
		}
		if _, err := os.Stat(a); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				err = fmt.Errorf("no such file or directory")
			}
			st.fail(a, "input", err)
			continue
		}
		out = append(out, a)
	}
	return out
}

// dropDuplicates removes files whose content is the same as an earlier
// file's (same size, then same SHA-256): reading a log twice would count
// every fetch twice. Only files of equal size are hashed here.
func dropDuplicates(files []*fileState, st *runState) []*fileState {
	bySize := make(map[int64][]*fileState)
	for _, f := range files {
		if f.err == nil && f.f.Size > 0 {
			bySize[f.f.Size] = append(bySize[f.f.Size], f)
		}
	}
	drop := make(map[*fileState]bool)
	for _, group := range bySize {
		if len(group) < 2 {
			continue
		}
		first := make(map[string]string) // digest -> first path
		for _, f := range group {
			d := f.sha // spooled: hashed when copied
			var err error
			if d == "" {
				d, err = ingest.FileSHA256(f.f.ReadPath())
			}
			if err != nil {
				continue // read errors surface when the file is read
			}
			if p, ok := first[d]; ok {
				drop[f] = true
				st.problems = append(st.problems, event.Problem{Source: event.Source{File: f.f.Path, Offset: -1},
					Code: problem.InputDuplicate, Severity: event.SevWarning,
					Message: "same content (SHA-256 " + d[:12] + "…) as " + p + ": read once"})
				continue
			}
			first[d] = f.f.Path
		}
	}
	if len(drop) == 0 {
		return files
	}
	out := files[:0:0]
	for _, f := range files {
		if !drop[f] {
			out = append(out, f)
		}
	}
	return out
}

// recordSideInputs lists in the manifest the files given with flags
// besides the streamed inputs (catalogs, cards, key sets, IP lists,
// listings), with size and SHA-256, so a run says exactly what it was
// told. A file that cannot be read here was already reported where it is
// used.
func recordSideInputs(cfg Config, st *runState) {
	add := func(kind string, paths ...string) {
		for _, p := range paths {
			fi, err := os.Stat(p)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			d, err := ingest.FileSHA256(p)
			if err != nil {
				continue
			}
			in := output.Input{Path: p, Size: fi.Size(), SHA256: d, Kind: kind, Records: 1}
			if kind == "index" || kind == "snippets" {
				in.Records = 0 // counted as entries in the tables, not here
			}
			st.input(in)
		}
	}
	add("bots", cfg.Bots...)
	add("card", cfg.Cards...)
	add("jwks", cfg.JWKS...)
	tokens := make([]string, 0, len(cfg.IPRanges))
	for tok := range cfg.IPRanges {
		tokens = append(tokens, tok)
	}
	sort.Strings(tokens)
	for _, tok := range tokens {
		add("ip-ranges", cfg.IPRanges[tok]...)
	}
	for _, dir := range cfg.IPRangesDirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".") {
				add("ip-ranges", filepath.Join(dir, e.Name()))
			}
		}
	}
	for _, dir := range cfg.DNSDirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".") {
				add("dns", filepath.Join(dir, e.Name()))
			}
		}
	}
	add("index", cfg.Index...)
	add("snippets", cfg.Snippets...)
}

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
	paths, skipped, err := expandInputs(existingInputs(named, r.st))
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
	r.st.problems = append(r.st.problems, skipped...) // directory entries Expand did not read
	for _, p := range skipped {
		// Whatever a subdirectory that could not be listed holds is lost,
		// as an input that could not be read is: the run fails (ErrInputs)
		// once everything else is written.
		if p.Code == ingest.ProblemDirUnreadable {
			r.st.failed = append(r.st.failed, p.Source.File)
		}
	}
	if err := loadLocalIdentity(cfg, r.catalog, r.ids, &r.st.problems); err != nil {
		return err
	}
	if err := r.sniffAll(paths); err != nil {
		return err
	}
	return r.checkRobotsInputs()
}

// loadCatalog merges the --bots files over the default catalog.
func (r *run) loadCatalog() error {
	catalog, err := LoadCatalog(r.cfg.Bots)
	if err != nil {
		return err
	}
	r.sum.Catalog = CatalogInfo(catalog, r.cfg.Bots)
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
			r.st.problems = append(r.st.problems, event.Problem{Source: event.Source{File: p, Offset: -1}, Code: problem.InputSkipped, Severity: event.SevInfo,
				Message: "found in a directory input but holds nothing repaudit reads (" + fs.f.Note + "); skipped"})
			continue
		}
		fs.site = r.bound[p]
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
		if err := readListing(p, r.builder.AddIndexEntry, &r.st.problems); err != nil {
			return err
		}
	}
	for _, p := range r.cfg.Snippets {
		if err := readListing(p, r.builder.AddSnippetEntry, &r.st.problems); err != nil {
			return err
		}
	}
	readSiteVersions(r.cfg, r.builder, r.st)
	recordSideInputs(r.cfg, r.st)
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
