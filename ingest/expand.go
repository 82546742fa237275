package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// ErrNoInput is returned by Expand when a pattern matches nothing.
var ErrNoInput = errors.New("ingest: no such input")

// Problem codes of Expand: an entry of a directory input that is not read.
const (
	// ProblemDirUnreadable: a subdirectory could not be listed (error:
	// whatever it holds is not read). The rest of the walk goes on.
	ProblemDirUnreadable = problem.InputDirUnreadable
	// ProblemLinkBroken: a symbolic link whose target cannot be reached
	// (warning).
	ProblemLinkBroken = problem.InputLinkBroken
	// ProblemLinkLoop: a symbolic link to a directory already walked — a
	// loop, or a second way to the same files — not walked again (info:
	// its files are read once, under the first name found).
	ProblemLinkLoop = problem.InputLinkLoop
	// ProblemNotRegular: a named pipe, socket or device inside a directory
	// input, not read (info; reading it could block the run). Name it
	// explicitly to read it.
	ProblemNotRegular = problem.InputNotRegular
)

// Expand turns files, directories and glob patterns into a sorted list of
// files without duplicates, and a problem for each entry of a directory
// input it does not read.
//
// An argument that exists is taken as it is, even when its name holds
// glob characters (out[1].log); otherwise an argument with * ? or [ is a
// pattern (filepath.Glob). A pattern that matches nothing, or a name that
// does not exist, is an error naming it; so is a directory named on the
// command line that cannot be listed.
//
// Directories are walked recursively; hidden entries (names starting with
// ".") are skipped. Symbolic links inside them are followed, to files and
// to directories, with loop detection: a directory already walked is not
// walked again (ProblemLinkLoop), and a file reached under two names is
// listed once, under the first. A link that leads nowhere
// (ProblemLinkBroken), a subdirectory that cannot be listed
// (ProblemDirUnreadable) and a pipe, socket or device
// (ProblemNotRegular) are reported and the walk goes on. Files named
// explicitly are listed whatever their type (a pipe, /dev/stdin).
func Expand(args []string) ([]string, []event.Problem, error) {
	x := expander{readDir: os.ReadDir, seen: map[string]bool{}, walked: map[string]string{}}
	return x.expand(args)
}

// expander holds one expansion's state. readDir is os.ReadDir except in
// tests, which make it fail where running as root cannot.
type expander struct {
	readDir  func(string) ([]fs.DirEntry, error)
	seen     map[string]bool   // real paths of files listed
	walked   map[string]string // real path of each directory walked → the name it was walked under
	out      []string
	problems []event.Problem
}

func (x *expander) expand(args []string) ([]string, []event.Problem, error) {
	for _, arg := range args {
		matches := []string{arg}
		if _, err := os.Lstat(arg); err != nil && strings.ContainsAny(arg, "*?[") {
			m, err := filepath.Glob(arg)
			if err != nil {
				return nil, nil, fmt.Errorf("ingest: pattern %q: %w", arg, err)
			}
			if len(m) == 0 {
				return nil, nil, fmt.Errorf("%w: %q matches nothing", ErrNoInput, arg)
			}
			matches = m
		}
		for _, m := range matches {
			st, err := os.Stat(m)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: %v", ErrNoInput, err)
			}
			if !st.IsDir() {
				x.add(m)
				continue
			}
			real := realPath(m)
			if _, ok := x.walked[real]; ok {
				continue // named twice (a directory and a pattern, say)
			}
			entries, err := x.readDir(m)
			if err != nil {
				return nil, nil, fmt.Errorf("ingest: walk %s: %w", m, err)
			}
			x.walked[real] = m
			x.walkEntries(m, entries)
		}
	}
	sort.Strings(x.out)
	return x.out, x.problems, nil
}

// add lists a file once, however many names lead to it.
func (x *expander) add(p string) {
	if r := realPath(p); !x.seen[r] {
		x.seen[r] = true
		x.out = append(x.out, p)
	}
}

func (x *expander) problem(p string, code problem.Code, sev, msg string) {
	x.problems = append(x.problems, event.Problem{Source: event.Source{File: p, Offset: -1}, Code: code, Severity: sev, Message: msg})
}

// walk lists the directory dir (reached by a link, or a subdirectory).
func (x *expander) walk(dir string) {
	real := realPath(dir)
	if first, ok := x.walked[real]; ok {
		x.problem(dir, ProblemLinkLoop, event.SevInfo,
			"link to a directory already read as "+first+" (a loop, or a second way to the same files); not walked again")
		return
	}
	x.walked[real] = dir
	entries, err := x.readDir(dir)
	if err != nil {
		x.problem(dir, ProblemDirUnreadable, event.SevError,
			fmt.Sprintf("directory could not be listed, so the files in it were not read: %v", err))
		// os.ReadDir returns the entries it read before the error.
	}
	x.walkEntries(dir, entries)
}

func (x *expander) walkEntries(dir string, entries []fs.DirEntry) {
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			if err != nil {
				x.problem(p, ProblemLinkBroken, event.SevWarning, fmt.Sprintf("symbolic link leads nowhere readable; skipped: %v", err))
				continue
			}
			mode = st.Mode().Type()
		}
		switch {
		case mode.IsDir():
			x.walk(p)
		case mode.IsRegular():
			x.add(p)
		default:
			x.problem(p, ProblemNotRegular, event.SevInfo,
				"not a regular file ("+typeName(mode)+"); skipped, since reading it could block: name it explicitly to read it")
		}
	}
}

// realPath is p with every link resolved, made absolute, for telling
// whether two names lead to one file or directory; p itself when that
// fails (a pipe like /dev/stdin).
func realPath(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		r = p
	}
	if a, err := filepath.Abs(r); err == nil {
		return a
	}
	return r
}

func typeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "device"
	}
	return "special file"
}
