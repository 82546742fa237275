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
	"time"
	"unicode/utf8"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
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

// maxLinks caps the symbolic links followed to reach the file in one
// commit, as the kernel's ELOOP limit does; more is a loop.
const maxLinks = 8

// maxLinkText caps the bytes read of a symbolic link's target.
const maxLinkText = 4096

// ErrBadPath says the PATH of --robots-git DIR:PATH does not name a file
// inside the repository.
var ErrBadPath = errors.New("history: PATH must name a file inside the repository")

// ReadGit reads the history of file (a slash-separated path inside the
// repository; a leading '/' is the repository's root) in the git
// repository at dir (its work tree or any directory below it, a .git
// directory, or a bare repository), from HEAD: one Version for every
// commit whose content of file differs from that of the commit before it
// in committer-time order, in force from its committer time. A commit
// that removes the file gives an Absent version. A file that is a
// symbolic link is followed inside the commit's tree. A shallow clone is
// read back to its boundary, with a problem saying older versions are
// missing. The repository is read with go-git; no git binary is needed.
func ReadGit(dir, file string) ([]Version, []event.Problem, error) {
	file, err := cleanGitPath(file)
	if err != nil {
		return nil, nil, fmt.Errorf("--robots-git %s: %w", dir, err)
	}
	repo, err := openRepo(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--robots-git %s: %w", dir, err)
	}
	head, err := repo.Head()
	if err != nil {
		return nil, nil, fmt.Errorf("--robots-git %s: HEAD: %w", dir, err)
	}
	headCommit, err := repo.CommitObject(head.Hash())
	if err != nil {
		return nil, nil, fmt.Errorf("--robots-git %s: HEAD: %w", dir, err)
	}
	states, probs, err := walkGit(repo, headCommit, dir, file)
	if err != nil {
		return nil, probs, err
	}
	out, vprobs := gitVersions(repo, states, dir, file)
	probs = append(probs, vprobs...)
	if len(out) == 0 {
		return nil, probs, fmt.Errorf("--robots-git %s: no commit reachable from HEAD has %s (the path is relative to the repository's root: 'git -C %s log --oneline -- %s' lists its commits; name another file as DIR:PATH)", dir, file, dir, file)
	}
	return out, probs, nil
}

// gitState is file as one commit has it.
type gitState struct {
	c    *object.Commit
	blob plumbing.Hash // zero when the file is absent (or bad is set)
	via  string        // the file a symbolic link led to, "" when none
	bad  string        // why a symbolic link could not be followed
}

// walkGit walks the commits reachable from head, at most maxCommits of
// them and no further than a shallow clone's boundary, and returns file as
// each has it, oldest first by committer time. A cut history and a
// shallow clone are problems; an error (already wrapped with dir) means
// the walk failed.
func walkGit(repo *git.Repository, head *object.Commit, dir, file string) ([]gitState, []event.Problem, error) {
	var probs []event.Problem
	// A shallow clone lacks the parents of its boundary commits: the walk
	// stops there instead of failing on the first missing object.
	missing, shallow, err := shallowParents(repo)
	if err != nil {
		return nil, nil, fmt.Errorf("--robots-git %s: %w", dir, err)
	}
	iter := object.NewCommitIterCTime(head, missing, nil)
	var states []gitState
	errStop := errors.New("stop")
	boundary := false
	err = iter.ForEach(func(c *object.Commit) error {
		if len(states) >= maxCommits {
			probs = append(probs, warn(dir, problem.RobotsGitHistoryCut,
				fmt.Sprintf("more than %d commits: only the newest are read", maxCommits)))
			return errStop
		}
		if shallow[c.Hash] {
			boundary = true
		}
		tree, err := c.Tree()
		if err != nil {
			return fmt.Errorf("commit %s: tree: %w", c.Hash, err)
		}
		blob, via, err := resolveFile(repo.Storer, tree, file)
		s := gitState{c: c, blob: blob, via: via}
		if err != nil {
			s.blob, s.bad = plumbing.ZeroHash, err.Error()
		}
		states = append(states, s)
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, probs, fmt.Errorf("--robots-git %s: %w (an incomplete clone? try git fetch --unshallow)", dir, err)
		}
		return nil, probs, fmt.Errorf("--robots-git %s: %w", dir, err)
	}
	// Oldest first; equal committer times keep the log's order reversed
	// (a parent before its child).
	for i, j := 0, len(states)-1; i < j; i, j = i+1, j-1 {
		states[i], states[j] = states[j], states[i]
	}
	sort.SliceStable(states, func(i, j int) bool { return states[i].c.Committer.When.Before(states[j].c.Committer.When) })
	if boundary && len(states) > 0 {
		probs = append(probs, warn(dir, problem.RobotsGitShallow, fmt.Sprintf(
			"a shallow clone: history before commit %s (%s) is missing, so older versions of %s are unknown and the first one read may be older than its commit; run git fetch --unshallow to read them all",
			states[0].c.Hash.String()[:12], states[0].c.Committer.When.UTC().Format(time.RFC3339), file)))
	}
	return states, probs, nil
}

// gitVersions turns the states of file, oldest first, into Versions: one
// for each state that differs from the one before, from the file's first
// appearance on. A state whose link could not be followed or whose blob
// cannot be read is a problem and gives no Version.
func gitVersions(repo *git.Repository, states []gitState, dir, file string) ([]Version, []event.Problem) {
	var out []Version
	var probs []event.Problem
	// Versions differ when their blobs' hashes do: a blob is read once,
	// however often it comes back (a revert), and never compared byte
	// by byte.
	bodies := make(map[plumbing.Hash][]byte)
	var prev gitState
	seen := false
	for _, s := range states {
		if seen && s.blob == prev.blob && s.bad == prev.bad {
			continue
		}
		if !seen && s.blob.IsZero() && s.bad == "" {
			continue // before the file first appears
		}
		seen, prev = true, s
		short := s.c.Hash.String()[:12]
		if s.bad != "" {
			probs = append(probs, warn(dir, problem.RobotsGitBadLink,
				"commit "+short+": "+file+": "+s.bad+": not used"))
			continue
		}
		v := Version{
			From:   s.c.Committer.When.UTC(),
			Origin: OriginGit,
			Ref:    dir + "@" + short + ":" + file,
			Detail: commitDetail(s.c),
			File:   dir,
		}
		if s.via != "" {
			v.Detail = strings.TrimSpace(v.Detail + " (a link to " + s.via + ")")
		}
		if s.blob.IsZero() {
			v.Absent = true
		} else {
			body, ok := bodies[s.blob]
			if !ok {
				var err error
				body, err = readBlob(repo, s.blob)
				if err != nil {
					probs = append(probs, warn(dir, problem.RobotsGitUnreadable,
						"commit "+short+": "+file+": "+err.Error()+": not used"))
					continue
				}
				bodies[s.blob] = body
			}
			v.Body = body
		}
		out = append(out, v)
	}
	return out, probs
}

// cleanGitPath checks the PATH of DIR:PATH: a path inside the
// repository, slash-separated; a leading '/' is the repository's root.
// A ".." element or a path naming nothing is refused: the file is read
// from the repository's trees, never from the file system.
func cleanGitPath(file string) (string, error) {
	p := strings.TrimLeft(file, "/")
	for _, el := range strings.Split(p, "/") {
		if el == ".." {
			return "", fmt.Errorf("%w: %q has a \"..\" element", ErrBadPath, file)
		}
	}
	p = path.Clean(p)
	if p == "." || strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: %q names no file", ErrBadPath, file)
	}
	return p, nil
}

// shallowParents returns the parents a shallow clone lacks (those of its
// boundary commits that are not in the repository), for the walk to skip,
// and the boundary commits.
func shallowParents(repo *git.Repository) (missing, boundary map[plumbing.Hash]bool, err error) {
	hs, err := repo.Storer.Shallow()
	if err != nil {
		return nil, nil, fmt.Errorf("shallow: %w", err)
	}
	missing = make(map[plumbing.Hash]bool)
	boundary = make(map[plumbing.Hash]bool, len(hs))
	for _, h := range hs {
		boundary[h] = true
		c, err := repo.CommitObject(h)
		if err != nil {
			continue // a boundary beyond what HEAD reaches, pruned
		}
		for _, p := range c.ParentHashes {
			if repo.Storer.HasEncodedObject(p) != nil {
				missing[p] = true
			}
		}
	}
	return missing, boundary, nil
}

// resolveFile finds file in tree as a checkout would serve it: symbolic
// links (mode 120000) are followed, each relative to its own directory,
// through at most maxLinks links, in any element of the path. It returns
// the blob (zero when there is no file there: missing, a directory, a
// submodule) and, when a link was followed, the path reached. A link
// that is absolute, leaves the repository or loops is an error: the
// link's text is never taken for the file.
func resolveFile(s storer.EncodedObjectStorer, tree *object.Tree, file string) (blob plumbing.Hash, via string, err error) {
	pending := strings.Split(file, "/")
	trees := []*object.Tree{tree}
	var dirs []string // the directories walked into, from the root
	links := 0        // links followed
	for len(pending) > 0 {
		name := pending[0]
		pending = pending[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			if len(dirs) == 0 {
				return plumbing.ZeroHash, "", errors.New("a symbolic link leads out of the repository")
			}
			dirs, trees = dirs[:len(dirs)-1], trees[:len(trees)-1]
			continue
		}
		cur := trees[len(trees)-1]
		e, err := cur.FindEntry(name)
		if err != nil {
			return plumbing.ZeroHash, "", nil // no such file
		}
		switch {
		case e.Mode == filemode.Symlink:
			links++
			if links > maxLinks {
				return plumbing.ZeroHash, "", fmt.Errorf("more than %d symbolic links (a loop?)", maxLinks)
			}
			target, err := readLink(s, e.Hash)
			if err != nil {
				return plumbing.ZeroHash, "", fmt.Errorf("symbolic link %s: %w", path.Join(append(dirs, name)...), err)
			}
			if target == "" || path.IsAbs(target) {
				return plumbing.ZeroHash, "", fmt.Errorf("symbolic link %s -> %s leads out of the repository", path.Join(append(dirs, name)...), target)
			}
			pending = append(strings.Split(target, "/"), pending...)
		case len(pending) > 0:
			if e.Mode != filemode.Dir {
				return plumbing.ZeroHash, "", nil // a file where a directory should be
			}
			sub, err := cur.Tree(name)
			if err != nil {
				return plumbing.ZeroHash, "", err
			}
			dirs, trees = append(dirs, name), append(trees, sub)
		case e.Mode.IsFile():
			if links > 0 {
				via = path.Join(append(dirs, name)...)
			}
			return e.Hash, via, nil
		default:
			return plumbing.ZeroHash, "", nil // a directory or submodule
		}
	}
	return plumbing.ZeroHash, "", nil // the path ends in a directory
}

// readLink reads a symbolic link's target from its blob.
func readLink(s storer.EncodedObjectStorer, h plumbing.Hash) (string, error) {
	b, err := object.GetBlob(s, h)
	if err != nil {
		return "", err
	}
	if b.Size > maxLinkText {
		return "", fmt.Errorf("target longer than %d bytes", maxLinkText)
	}
	r, err := b.Reader()
	if err != nil {
		return "", err
	}
	defer r.Close()
	t, err := io.ReadAll(io.LimitReader(r, maxLinkText))
	return string(t), err
}

// readBlob reads a blob up to MaxFile bytes through its reader: a larger
// blob is never held whole (the repository is opened with objects above
// largeObject read from disk as they are read). A body cut at MaxFile is
// longer than the parsing limit, so the parser marks it truncated, as
// for a --robots file.
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
	body := make([]byte, min(b.Size, MaxFile))
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
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
