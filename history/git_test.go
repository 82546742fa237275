package history

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/repaudit/repaudit/problem"
)

var gitT0 = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

// newRepo makes a repository in a temporary directory.
func newRepo(t *testing.T) (*git.Repository, string) {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	return repo, dir
}

// commitLinks makes each name -> target a symbolic link (target "" removes
// name) in the work tree and commits them at when.
func commitLinks(t *testing.T, repo *git.Repository, dir string, when time.Time, links ...string) {
	t.Helper()
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(links); i += 2 {
		name, target := links[i], links[i+1]
		p := filepath.Join(dir, name)
		os.Remove(p)
		if target == "" {
			if _, err := wt.Remove(name); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			t.Fatal(err)
		}
	}
	sig := &object.Signature{Name: "Site Editor", Email: "editor@example.com", When: when}
	if _, err := wt.Commit("links", &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
		t.Fatal(err)
	}
}

func TestReadGitSymlink(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /private/\n"
	tests := []struct {
		name  string
		links []string // name, target pairs committed after config/robots.txt
		path  string
		// want is the body read, or "" when the version is refused.
		want    string
		via     string
		problem string // a part of the problem's message
	}{
		{name: "relative link", links: []string{"public/robots.txt", "../config/robots.txt"}, path: "public/robots.txt", want: rules, via: "config/robots.txt"},
		{name: "link in the same directory", links: []string{"robots.txt", "config/robots.txt"}, path: "robots.txt", want: rules, via: "config/robots.txt"},
		{name: "chain", links: []string{"a.txt", "config/robots.txt", "public/robots.txt", "../a.txt"}, path: "public/robots.txt", want: rules, via: "config/robots.txt"},
		{name: "directory link", links: []string{"public", "config"}, path: "public/robots.txt", want: rules, via: "config/robots.txt"},
		{name: "dot dot after a directory link", links: []string{"deep/x/public", "../../config", "robots.txt", "deep/x/public/../config/robots.txt"}, path: "robots.txt", want: rules, via: "config/robots.txt"},
		{name: "absolute", links: []string{"public/robots.txt", "/etc/passwd"}, path: "public/robots.txt", problem: "symbolic link public/robots.txt -> /"},
		{name: "leaves the repository", links: []string{"public/robots.txt", "../../outside/robots.txt"}, path: "public/robots.txt", problem: "leads out of the repository"},
		{name: "loop", links: []string{"a.txt", "b.txt", "b.txt", "a.txt"}, path: "a.txt", problem: "more than 8 symbolic links"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo, dir := newRepo(t)
			commitFile(t, repo, dir, "config/robots.txt", []byte(rules), gitT0, "rules")
			commitLinks(t, repo, dir, gitT0.Add(time.Hour), tt.links...)
			vs, probs, err := ReadGit(dir, tt.path)
			if tt.problem != "" {
				if err == nil || len(vs) != 0 {
					t.Errorf("got %d versions (err %v), want none: %+v", len(vs), err, vs)
				}
				if len(probs) != 1 || probs[0].Code != problem.RobotsGitBadLink || !strings.Contains(probs[0].Message, tt.problem) || !strings.Contains(probs[0].Message, "commit ") {
					t.Errorf("problems %+v, want one %s naming the commit and %q", probs, problem.RobotsGitBadLink, tt.problem)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(probs) != 0 {
				t.Errorf("problems: %+v", probs)
			}
			if len(vs) != 1 {
				t.Fatalf("got %d versions, want 1: %+v", len(vs), vs)
			}
			if string(vs[0].Body) != tt.want || !vs[0].From.Equal(gitT0.Add(time.Hour)) {
				t.Errorf("got %q from %v, want %q from %v", vs[0].Body, vs[0].From, tt.want, gitT0.Add(time.Hour))
			}
			if !strings.HasSuffix(vs[0].Ref, ":"+tt.path) || !strings.Contains(vs[0].Detail, "a link to "+tt.via) {
				t.Errorf("ref %q detail %q, want the path asked for and the link to %s", vs[0].Ref, vs[0].Detail, tt.via)
			}
		})
	}
}

// TestReadGitSymlinkHistory: a broken link between good versions is one
// problem, not a version; the link's own file coming back is a version.
func TestReadGitSymlinkHistory(t *testing.T) {
	repo, dir := newRepo(t)
	commitFile(t, repo, dir, "robots.txt", []byte("User-agent: *\nAllow: /\n"), gitT0, "plain")
	commitLinks(t, repo, dir, gitT0.Add(1*time.Hour), "robots.txt", "/srv/robots.txt")
	commitFile(t, repo, dir, "other", []byte("x"), gitT0.Add(2*time.Hour), "unrelated")
	commitFile(t, repo, dir, "conf/robots.txt", []byte("User-agent: *\nDisallow: /\n"), gitT0.Add(3*time.Hour), "conf")
	commitLinks(t, repo, dir, gitT0.Add(4*time.Hour), "robots.txt", "conf/robots.txt")
	vs, probs, err := ReadGit(dir, "robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != 1 || probs[0].Code != problem.RobotsGitBadLink {
		t.Errorf("problems %+v, want one %s", probs, problem.RobotsGitBadLink)
	}
	if len(vs) != 2 || !strings.Contains(string(vs[1].Body), "Disallow: /") || !vs[1].From.Equal(gitT0.Add(4*time.Hour)) {
		t.Errorf("versions %+v, want the plain file and the linked one", vs)
	}
}

func TestReadGitPathRefused(t *testing.T) {
	repo, dir := newRepo(t)
	commitFile(t, repo, dir, "robots.txt", []byte("User-agent: *\nAllow: /\n"), gitT0, "plain")
	for _, p := range []string{"../robots.txt", "public/../../robots.txt", "..", "", "/", "."} {
		if _, _, err := ReadGit(dir, p); !errors.Is(err, ErrBadPath) {
			t.Errorf("ReadGit(%q): err = %v, want ErrBadPath", p, err)
		}
	}
	// A leading '/' is the repository's root, never the file system's.
	if vs, _, err := ReadGit(dir, "/robots.txt"); err != nil || len(vs) != 1 {
		t.Errorf("/robots.txt: %d versions, err %v; want the repository's robots.txt", len(vs), err)
	}
	if _, _, err := ReadGit(dir, "/etc/passwd"); err == nil || !strings.Contains(err.Error(), "etc/passwd") {
		t.Errorf("/etc/passwd: err = %v, want none found in the repository", err)
	}
}

// gitBinary returns the git program, skipping the test without one.
func gitBinary(t *testing.T) string {
	t.Helper()
	g, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git program to make the repository with: ", err)
	}
	return g
}

func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(gitBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestReadGitOpens(t *testing.T) {
	repo, dir := newRepo(t)
	commitFile(t, repo, dir, "robots.txt", []byte("User-agent: *\nAllow: /\n"), gitT0, "allow")
	commitFile(t, repo, dir, "robots.txt", []byte("User-agent: *\nDisallow: /\n"), gitT0.Add(time.Hour), "block")
	commitFile(t, repo, dir, "sub/page.html", []byte("<p>"), gitT0.Add(2*time.Hour), "page")
	bare := filepath.Join(t.TempDir(), "site.git")
	if _, err := git.PlainClone(bare, true, &git.CloneOptions{URL: dir}); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, dir string }{
		{"work tree", dir},
		{"below the work tree", filepath.Join(dir, "sub")},
		{".git", filepath.Join(dir, ".git")},
		{"below .git", filepath.Join(dir, ".git", "refs")},
		{"bare", bare},
		{"below bare", filepath.Join(bare, "objects")},
	}
	if _, err := exec.LookPath("git"); err == nil {
		linked := filepath.Join(t.TempDir(), "linked")
		runGit(t, dir, "worktree", "add", "-q", "--detach", linked)
		tests = append(tests, struct{ name, dir string }{"linked work tree", linked})
	} else {
		t.Log("no git program: linked work tree not tested")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, probs, err := ReadGit(tt.dir, "robots.txt")
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != 2 || len(probs) != 0 || string(vs[1].Body) != "User-agent: *\nDisallow: /\n" {
				t.Errorf("got %d versions %+v, problems %+v; want 2", len(vs), vs, probs)
			}
		})
	}
	if _, _, err := ReadGit(t.TempDir(), "robots.txt"); !errors.Is(err, ErrNotRepository) {
		t.Errorf("not a repository: err = %v, want ErrNotRepository", err)
	}
}

func TestReadGitShallow(t *testing.T) {
	repo, dir := newRepo(t)
	commitFile(t, repo, dir, "robots.txt", []byte("User-agent: *\nAllow: /\n"), gitT0, "allow")
	commitFile(t, repo, dir, "robots.txt", []byte("User-agent: *\nDisallow: /a\n"), gitT0.Add(time.Hour), "block a")
	commitFile(t, repo, dir, "robots.txt", []byte("User-agent: *\nDisallow: /b\n"), gitT0.Add(2*time.Hour), "block b")
	commitFile(t, repo, dir, "page.html", []byte("<p>"), gitT0.Add(3*time.Hour), "page")
	for _, depth := range []int{1, 2, 3} {
		t.Run(strconv.Itoa(depth), func(t *testing.T) {
			clone := t.TempDir()
			if _, err := git.PlainClone(clone, false, &git.CloneOptions{URL: dir, Depth: depth}); err != nil {
				t.Fatal(err)
			}
			vs, probs, err := ReadGit(clone, "robots.txt")
			if err != nil {
				t.Fatal(err)
			}
			want := map[int]int{1: 1, 2: 1, 3: 2}[depth]
			if len(vs) != want || !strings.Contains(string(vs[len(vs)-1].Body), "Disallow: /b") {
				t.Errorf("got %d versions %+v, want %d ending with /b", len(vs), vs, want)
			}
			if len(probs) != 1 || probs[0].Code != problem.RobotsGitShallow || !strings.Contains(probs[0].Message, "git fetch --unshallow") {
				t.Errorf("problems %+v, want one %s suggesting git fetch --unshallow", probs, problem.RobotsGitShallow)
			}
		})
	}
}

// TestReadGitBlobOnce: a blob that comes back (a revert) is read once and
// shared; a blob over MaxFile is cut there (the parser's limit then marks
// it truncated).
func TestReadGitBlobOnce(t *testing.T) {
	repo, dir := newRepo(t)
	a := []byte("User-agent: *\nAllow: /\n")
	big := bytes.Repeat([]byte("Disallow: /x\n"), MaxFile/13+100)
	commitFile(t, repo, dir, "robots.txt", a, gitT0, "a")
	commitFile(t, repo, dir, "robots.txt", big, gitT0.Add(time.Hour), "big")
	commitFile(t, repo, dir, "robots.txt", a, gitT0.Add(2*time.Hour), "revert")
	vs, _, err := ReadGit(dir, "robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 {
		t.Fatalf("got %d versions, want 3", len(vs))
	}
	if &vs[0].Body[0] != &vs[2].Body[0] {
		t.Error("the reverted blob was read twice")
	}
	if len(vs[1].Body) != MaxFile || !bytes.Equal(vs[1].Body, big[:MaxFile]) {
		t.Errorf("big blob: got %d bytes, want its first %d", len(vs[1].Body), MaxFile)
	}
}

// TestReadGitBigBlobMemory reads a blob far over MaxFile and holds the
// bytes allocated to what is kept. It writes REPAUDIT_GIT_BIG_MB
// megabytes (default 200) to a temporary directory, so it runs only when
// that variable is set.
func TestReadGitBigBlobMemory(t *testing.T) {
	mb, _ := strconv.Atoi(os.Getenv("REPAUDIT_GIT_BIG_MB"))
	if mb <= 0 || testing.Short() {
		t.Skip("set REPAUDIT_GIT_BIG_MB (e.g. 200) to read a blob that large")
	}
	repo, dir := newRepo(t)
	commitFile(t, repo, dir, "robots.txt", []byte("User-agent: *\nAllow: /\n"), gitT0, "small")
	f, err := os.Create(filepath.Join(dir, "robots.txt"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := 0; i < mb<<20; i += 20 {
		fmt.Fprintf(w, "Disallow: /%08x\n", uint32(i*2654435761)) // varied, so the object stays large
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "add", "robots.txt")
	runGit(t, dir, "commit", "-q", "-m", "big")
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	vs, _, err := ReadGit(dir, "robots.txt")
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d MB blob: %d versions, %.1f MiB allocated", mb, len(vs), float64(alloc)/(1<<20))
	if len(vs) != 2 || len(vs[1].Body) != MaxFile {
		t.Errorf("got %d versions, want 2, the second cut at %d bytes", len(vs), MaxFile)
	}
	if alloc > 3*MaxFile {
		t.Errorf("%.1f MiB allocated to keep %d MiB", float64(alloc)/(1<<20), MaxFile>>20)
	}
}
