package history

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// largeObject is the size above which go-git reads an object from disk
// as it is read instead of holding all of it: a blob is read only up to
// MaxFile, so a 200 MB robots.txt must not be inflated whole.
const largeObject = 1 << 20

// objectCache caps the objects go-git keeps decoded between lookups
// (trees and commits, which are small).
const objectCache = 16 << 20

// ErrNotRepository says --robots-git DIR is in no git repository.
var ErrNotRepository = errors.New("history: not in a git repository (a work tree, a directory below one, a .git directory or a bare repository)")

// openRepo opens the repository dir belongs to: a work tree or any
// directory below it, a .git directory or one below it, a bare
// repository, or a linked work tree (git worktree add, whose .git is a
// file naming its git directory). Objects larger than largeObject are
// read from disk as they are read.
func openRepo(dir string) (*git.Repository, error) {
	gitDir, err := findGitDir(dir)
	if err != nil {
		return nil, err
	}
	var fs billy.Filesystem = osfs.New(gitDir)
	common, err := commonDir(gitDir)
	if err != nil {
		return nil, err
	}
	if common != "" {
		fs = dotgit.NewRepositoryFilesystem(fs, osfs.New(common))
	}
	st := filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(objectCache),
		filesystem.Options{LargeObjectThreshold: largeObject})
	return git.Open(st, nil)
}

// findGitDir walks up from dir to the git directory it belongs to.
func findGitDir(dir string) (string, error) {
	p, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(p); err != nil {
		return "", err
	} else if !st.IsDir() {
		p = filepath.Dir(p)
	}
	for {
		dotGit := filepath.Join(p, ".git")
		if st, err := os.Stat(dotGit); err == nil {
			if st.IsDir() {
				return dotGit, nil
			}
			return gitFile(dotGit)
		}
		if isGitDir(p) {
			return p, nil
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", ErrNotRepository
		}
		p = parent
	}
}

// isGitDir reports whether p is a git directory itself: a bare
// repository, a .git directory, or a linked work tree's directory under
// .git/worktrees. Git asks for HEAD and objects (or a commondir).
func isGitDir(p string) bool {
	if st, err := os.Stat(filepath.Join(p, "HEAD")); err != nil || !st.Mode().IsRegular() {
		return false
	}
	if st, err := os.Stat(filepath.Join(p, "objects")); err == nil && st.IsDir() {
		return true
	}
	_, err := os.Stat(filepath.Join(p, "commondir"))
	return err == nil
}

// gitFile reads a .git file ("gitdir: PATH", relative to the file's
// directory), as a linked work tree or a submodule has.
func gitFile(name string) (string, error) {
	line, err := firstLine(name)
	if err != nil {
		return "", err
	}
	d, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: not a .git file (no gitdir: line)", name)
	}
	d = strings.TrimSpace(d)
	if !filepath.IsAbs(d) {
		d = filepath.Join(filepath.Dir(name), d)
	}
	if !isGitDir(d) {
		return "", fmt.Errorf("%s: gitdir %s: %w", name, d, ErrNotRepository)
	}
	return d, nil
}

// commonDir is the directory a linked work tree's git directory shares
// objects and refs with ("" when it has no commondir file).
func commonDir(gitDir string) (string, error) {
	line, err := firstLine(filepath.Join(gitDir, "commondir"))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if line == "" {
		return "", nil
	}
	if !filepath.IsAbs(line) {
		line = filepath.Join(gitDir, line)
	}
	return line, nil
}

// firstLine reads the first line of a small file (at most 4 KiB).
func firstLine(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 4096)
	if sc.Scan() {
		return strings.TrimSpace(sc.Text()), nil
	}
	return "", sc.Err()
}
