package input

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
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/problem"
)

// SiteVersion turns a history version into the evaluation's; auth, when
// not "", is the authority the source is bound to (URL=, or a host
// subdirectory of --robots-dir).
func SiteVersion(v history.Version, auth string) evaluate.SiteVersion {
	sv := evaluate.SiteVersion{
		From: v.From, Body: v.Body, Absent: v.Absent, Origin: v.Origin, Ref: v.Ref, Detail: v.Detail,
		Source: event.Source{File: v.File, Offset: -1},
	}
	if auth != "" {
		sv.URL = auth + "/robots.txt"
	}
	return sv
}

// ReadSiteSources reads the robots.txt versions of --robots, --robots-git
// and --robots-dir, giving each to addVersion
// (audit builds its model with them, the Beam pipeline ships them to
// their partition). A source that cannot be read is a problem and a
// failed input in st; the run goes on without it. A source
// bound with URL= gives versions of that authority (SiteVersion.URL).
func ReadSiteSources(cfg Options, addVersion func(evaluate.SiteVersion), st *State) {
	srcs, err := parseSources(cfg)
	if err != nil { // the drivers refuse these first (CheckSources)
		st.Fail("robots.txt sources", "robots", err)
		return
	}
	sites := Sites(cfg.Eval)
	for _, s := range srcs {
		switch s.flag {
		case "--robots":
			file, t, _, err := history.SplitFileTime(s.Rest)
			if err != nil {
				st.Fail(s.Arg, "robots", err)
				continue
			}
			v, err := history.ReadFile(file, t)
			if err != nil {
				st.Fail(file, "robots", err)
				continue
			}
			addVersion(SiteVersion(v, s.Auth))
			st.Input(output.Input{Path: file, Size: int64(len(v.Body)), SHA256: sha(v.Body), Kind: "robots", Format: boundFormat("robots.txt", s.Auth), Records: 1})
		case "--robots-git":
			dir, file := history.SplitGitArg(s.Rest)
			vs, probs, err := history.ReadGit(dir, file)
			st.Problems = append(st.Problems, probs...)
			if err != nil {
				st.Fail(dir, "robots-git", err)
				continue
			}
			for _, v := range vs {
				addVersion(SiteVersion(v, s.Auth))
			}
			st.Input(output.Input{Path: dir, Kind: "robots-git", Format: boundFormat("git:"+file, s.Auth), Records: int64(len(vs)), Problems: int64(len(probs))})
		case "--robots-dir":
			dv, err := readRobotsDir(s.Rest, s.Auth, sites)
			st.Problems = append(st.Problems, dv.probs...)
			if err != nil {
				st.Fail(s.Rest, "robots-dir", err)
				continue
			}
			var size int64
			for i, v := range dv.versions {
				addVersion(SiteVersion(v, dv.auths[i]))
				size += int64(len(v.Body))
			}
			st.Input(output.Input{Path: s.Rest, Size: size, Kind: "robots-dir", Format: boundFormat("dated snapshots", s.Auth), Records: int64(len(dv.versions)), Problems: int64(len(dv.probs))})
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

// State collects what a run reads besides the streamed inputs: problems
// located at local files, inputs that failed, and the manifest entries of
// robots.txt sources and side inputs.
type State struct {
	Problems []event.Problem
	Failed   []string
	Inputs   []output.Input
}

// Fail records path as a failed input with an input-unreadable problem;
// kind says what it was given as.
func (st *State) Fail(path, kind string, err error) {
	st.Failed = append(st.Failed, path)
	st.Problems = append(st.Problems, event.Problem{Source: event.Source{File: path, Offset: -1},
		Code: problem.InputUnreadable, Severity: event.SevError, Message: kind + ": " + err.Error()})
}

// Input records a manifest entry.
func (st *State) Input(in output.Input) { st.Inputs = append(st.Inputs, in) }

// ExistingInputs drops the inputs that name nothing (a path that does not
// exist, a pattern that matches nothing): each is a failed input with a
// problem, and the run goes on with the rest (input errors are reported
// and the tables of what could be read are still written: exit code 2,
// docs/usage.md, "audit: flags and exit codes").
func ExistingInputs(args []string, st *State) []string {
	var out []string
	for _, a := range args {
		if strings.ContainsAny(a, "*?[") {
			if m, err := filepath.Glob(a); err == nil && len(m) == 0 {
				if _, statErr := os.Stat(a); statErr != nil {
					st.Fail(a, "input", fmt.Errorf("%q matches nothing", a))
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
			st.Fail(a, "input", err)
			continue
		}
		out = append(out, a)
	}
	return out
}

// Candidate is an input that Duplicates compares: the file as sniffed
// (read from ReadPath) and its SHA-256 when already known ("" when not).
type Candidate struct {
	File ingest.File
	SHA  string
}

// Duplicates returns the indexes of the files whose content is the same
// as an earlier file's (same size, then same SHA-256), with an
// input-duplicate problem for each in st: reading a log twice would count
// every fetch twice. Only files of equal size are hashed here, and empty
// files are never duplicates.
func Duplicates(files []Candidate, st *State) map[int]bool {
	bySize := make(map[int64][]int)
	for i, f := range files {
		if f.File.Size > 0 {
			bySize[f.File.Size] = append(bySize[f.File.Size], i)
		}
	}
	drop := make(map[int]bool)
	for _, group := range bySize {
		if len(group) < 2 {
			continue
		}
		first := make(map[string]string) // digest -> first path
		for _, i := range group {
			f := files[i]
			d := f.SHA // spooled: hashed when copied
			var err error
			if d == "" {
				d, err = ingest.FileSHA256(f.File.ReadPath())
			}
			if err != nil {
				continue // read errors surface when the file is read
			}
			if p, ok := first[d]; ok {
				drop[i] = true
				st.Problems = append(st.Problems, event.Problem{Source: event.Source{File: f.File.Path, Offset: -1},
					Code: problem.InputDuplicate, Severity: event.SevWarning,
					Message: "same content (SHA-256 " + d[:12] + "…) as " + p + ": read once"})
				continue
			}
			first[d] = f.File.Path
		}
	}
	return drop
}

// SideInputs lists in st's manifest entries the files given with flags
// besides the streamed inputs (catalogs, cards, key sets, IP lists,
// listings), with size and SHA-256, so a run says exactly what it was
// told. A file that cannot be read here was already reported where it is
// used.
func SideInputs(cfg Options, st *State) {
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
			st.Input(in)
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
