package history

import (
	"errors"
	"fmt"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// DefaultGitPath is the file --robots-git reads when DIR names no PATH.
const DefaultGitPath = "robots.txt"

// maxCommits caps the commits walked in one repository; a larger history
// is cut at its newest maxCommits commits, with a problem saying so.
const maxCommits = 1_000_000

// SplitGitArg splits "DIR[:PATH]" as given to --robots-git. A DIR that
// exists as given (even with a ':' in its name) takes the default path.
func SplitGitArg(arg string) (dir, file string) {
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return arg, DefaultGitPath
	}
	if i := strings.LastIndexByte(arg, ':'); i > 0 {
		return arg[:i], strings.TrimPrefix(arg[i+1:], "/")
	}
	return arg, DefaultGitPath
}

// ReadGit reads the history of file (a slash-separated path inside the
// repository) in the git repository at dir (its work tree or any
// directory below it, or a bare repository), from HEAD: one Version for
// every commit whose content of file differs from that of the commit
// before it in committer-time order, in force from its committer time.
// A commit that removes the file gives an Absent version. The repository
// is read with go-git; no git binary is needed.
func ReadGit(dir, file string) ([]Version, []event.Problem, error) {
	file = path.Clean(strings.TrimPrefix(file, "/"))
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true})
	if err != nil {
		return nil, nil, fmt.Errorf("--robots-git %s: %w", dir, err)
	}
	head, err := repo.Head()
	if err != nil {
		return nil, nil, fmt.Errorf("--robots-git %s: HEAD: %w", dir, err)
	}
	iter, err := repo.Log(&git.LogOptions{From: head.Hash(), Order: git.LogOrderCommitterTime})
	if err != nil {
		return nil, nil, fmt.Errorf("--robots-git %s: log: %w", dir, err)
	}
	type state struct {
		c    *object.Commit
		blob plumbing.Hash // zero when the file is absent
	}
	var states []state
	var probs []event.Problem
	errStop := errors.New("stop")
	err = iter.ForEach(func(c *object.Commit) error {
		if len(states) >= maxCommits {
			probs = append(probs, warn(dir, problem.RobotsGitHistoryCut,
				fmt.Sprintf("more than %d commits: only the newest are read", maxCommits)))
			return errStop
		}
		tree, err := c.Tree()
		if err != nil {
			return fmt.Errorf("commit %s: tree: %w", c.Hash, err)
		}
		var blob plumbing.Hash
		if e, err := tree.FindEntry(file); err == nil && e.Mode.IsFile() {
			blob = e.Hash
		}
		states = append(states, state{c: c, blob: blob})
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return nil, probs, fmt.Errorf("--robots-git %s: %w", dir, err)
	}
	// Oldest first; equal committer times keep the log's order reversed
	// (a parent before its child).
	for i, j := 0, len(states)-1; i < j; i, j = i+1, j-1 {
		states[i], states[j] = states[j], states[i]
	}
	sort.SliceStable(states, func(i, j int) bool { return states[i].c.Committer.When.Before(states[j].c.Committer.When) })

	var out []Version
	var prev plumbing.Hash
	seen := false
	for _, s := range states {
		if seen && s.blob == prev {
			continue
		}
		if !seen && s.blob.IsZero() {
			continue // before the file first appears
		}
		seen, prev = true, s.blob
		short := s.c.Hash.String()[:12]
		v := Version{
			From:   s.c.Committer.When.UTC(),
			Origin: OriginGit,
			Ref:    dir + "@" + short + ":" + file,
			Detail: commitDetail(s.c),
			File:   dir,
		}
		if s.blob.IsZero() {
			v.Absent = true
		} else {
			body, err := readBlob(repo, s.blob)
			if err != nil {
				probs = append(probs, warn(dir, problem.RobotsGitUnreadable,
					"commit "+short+": "+file+": "+err.Error()+": not used"))
				continue
			}
			v.Body = body
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, probs, fmt.Errorf("--robots-git %s: no commit reachable from HEAD has %s (name the file as DIR:PATH)", dir, file)
	}
	return out, probs, nil
}

func readBlob(repo *git.Repository, h plumbing.Hash) ([]byte, error) {
	b, err := repo.BlobObject(h)
	if err != nil {
		return nil, err
	}
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, MaxFile))
}

// commitDetail is the evidence a person recognises a commit by: its
// subject line (cut) and author.
func commitDetail(c *object.Commit) string {
	subject, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	if len(subject) > 80 {
		cut := 77
		for cut > 0 && !utf8.RuneStart(subject[cut]) {
			cut--
		}
		subject = subject[:cut] + "..."
	}
	s := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, subject)
	if s != "" {
		s = "\"" + s + "\""
	}
	if c.Author.Name != "" {
		if s != "" {
			s += " "
		}
		s += "by " + c.Author.Name
	}
	return s
}
