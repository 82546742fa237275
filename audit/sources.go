package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/history"
	"github.com/repaudit/repaudit/output"
)

// siteVersion turns a history version into the evaluation's.
func siteVersion(v history.Version) evaluate.SiteVersion {
	return evaluate.SiteVersion{
		From: v.From, Body: v.Body, Absent: v.Absent, Origin: v.Origin, Ref: v.Ref, Detail: v.Detail,
		Source: event.Source{File: v.File, Offset: -1},
	}
}

// readSiteVersions reads the robots.txt versions named by --robots,
// --robots-git and --robots-dir into b. A source that cannot be read is a
// problem and a failed input; the run goes on without it.
func readSiteVersions(cfg Config, b *evaluate.Builder, st *runState) {
	readSiteSources(cfg, b.AddSiteVersion, st)
}

// readSiteSources is readSiteVersions giving each version to addVersion
// (the Beam pipeline ships them to their partition instead).
func readSiteSources(cfg Config, addVersion func(evaluate.SiteVersion), st *runState) {
	add := func(vs []history.Version) {
		for _, v := range vs {
			addVersion(siteVersion(v))
		}
	}
	for _, arg := range cfg.Robots {
		file, t, _, err := history.SplitFileTime(arg)
		if err != nil {
			st.fail(arg, "robots", err)
			continue
		}
		v, err := history.ReadFile(file, t)
		if err != nil {
			st.fail(file, "robots", err)
			continue
		}
		add([]history.Version{v})
		st.input(output.Input{Path: file, Size: int64(len(v.Body)), SHA256: sha(v.Body), Kind: "robots", Format: "robots.txt", Records: 1})
	}
	for _, arg := range cfg.RobotsGit {
		dir, file := history.SplitGitArg(arg)
		vs, probs, err := history.ReadGit(dir, file)
		st.historyProblems(probs)
		if err != nil {
			st.fail(dir, "robots-git", err)
			continue
		}
		add(vs)
		st.input(output.Input{Path: dir, Kind: "robots-git", Format: "git:" + file, Records: int64(len(vs)), Problems: int64(len(probs))})
	}
	for _, dir := range cfg.RobotsDir {
		vs, probs, err := history.ReadDir(dir)
		st.historyProblems(probs)
		if err != nil {
			st.fail(dir, "robots-dir", err)
			continue
		}
		add(vs)
		var size int64
		for _, v := range vs {
			size += int64(len(v.Body))
		}
		st.input(output.Input{Path: dir, Size: size, Kind: "robots-dir", Format: "dated snapshots", Records: int64(len(vs)), Problems: int64(len(probs))})
	}
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
		Code: "input-unreadable", Severity: event.SevError, Message: kind + ": " + err.Error()})
}

func (st *runState) input(in output.Input) { st.inputs = append(st.inputs, in) }

func (st *runState) historyProblems(ps []history.Problem) {
	for _, p := range ps {
		st.problems = append(st.problems, event.Problem{Source: event.Source{File: p.File, Offset: -1},
			Code: p.Code, Severity: event.SevWarning, Message: p.Message})
	}
}

// existingInputs drops the inputs that name nothing (a path that does not
// exist, a pattern that matches nothing): each is a failed input with a
// problem, and the run goes on with the rest (DESIGN §6: input errors are
// reported, the tables of what could be read are still written).
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
				d, err = fileSHA256(f.f.ReadPath())
			}
			if err != nil {
				continue // read errors surface when the file is read
			}
			if p, ok := first[d]; ok {
				drop[f] = true
				st.problems = append(st.problems, event.Problem{Source: event.Source{File: f.f.Path, Offset: -1},
					Code: "input-duplicate", Severity: event.SevWarning,
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

var _ = io.EOF

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
			d, err := fileSHA256(p)
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
	add("index", cfg.Index...)
	add("snippets", cfg.Snippets...)
}
