package ingest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/repaudit/repaudit/event"
)

func codes(ps []event.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, string(p.Code)+" "+filepath.Base(p.Source.File))
	}
	slices.Sort(out)
	return out
}

// TestExpandLinks: symbolic links inside a directory input are followed,
// to files and directories, a loop ends with a problem, a file reached by
// two names is listed once, and a broken link is reported, not skipped in
// silence.
func TestExpandLinks(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "logs")
	outside := filepath.Join(root, "elsewhere")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.MkdirAll(outside, 0o755)
	a := write(t, dir, "a.log", []byte(combinedLine))
	write(t, outside, "rotated.log", []byte(combinedLine))
	write(t, outside, "other.log", []byte(combinedLine))
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	link(filepath.Join(outside, "rotated.log"), "current.log") // file outside: followed
	link("a.log", "same-as-a.log")                             // second name of a.log: listed once
	link(outside, "archive")                                   // directory outside: walked
	link("..", "sub/up")                                       // loop back to dir
	link("missing.log", "broken.log")                          // leads nowhere
	got, probs, err := Expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	// current.log and archive/rotated.log are one file: listed once, under
	// the name the walk meets first (entries in name order).
	want := []string{
		a,
		filepath.Join(dir, "archive", "other.log"),
		filepath.Join(dir, "archive", "rotated.log"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("Expand =\n%v\nwant\n%v", got, want)
	}
	wantProbs := []string{string(ProblemLinkBroken) + " broken.log", string(ProblemLinkLoop) + " up"}
	if c := codes(probs); !slices.Equal(c, wantProbs) {
		t.Errorf("problems = %v, want %v", c, wantProbs)
	}
	for _, p := range probs {
		if p.Source.Offset != -1 || p.Message == "" || p.Severity == "" {
			t.Errorf("problem %+v lacks offset -1, message or severity", p)
		}
	}
}

// TestExpandUnreadableDir: one subdirectory that cannot be listed is a
// problem naming it, and every other file is still found.
func TestExpandUnreadableDir(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "locked"), 0o755)
	os.MkdirAll(filepath.Join(dir, "open"), 0o755)
	write(t, filepath.Join(dir, "locked"), "hidden-from-us.log", []byte(combinedLine))
	b := write(t, filepath.Join(dir, "open"), "b.log", []byte(combinedLine))
	c := write(t, dir, "c.log", []byte(combinedLine))
	// Running as root, a mode 000 directory can still be read: make the
	// listing fail where the test asks instead.
	x := expander{seen: map[string]bool{}, walked: map[string]string{}, readDir: func(p string) ([]fs.DirEntry, error) {
		if filepath.Base(p) == "locked" {
			return nil, &fs.PathError{Op: "open", Path: p, Err: syscall.EACCES}
		}
		return os.ReadDir(p)
	}}
	got, probs, err := x.expand([]string{dir})
	if err != nil {
		t.Fatalf("one unreadable subdirectory aborted the expansion: %v", err)
	}
	if want := []string{c, b}; !slices.Equal(got, []string{c, b}) && !slices.Equal(got, []string{b, c}) {
		t.Errorf("Expand = %v, want %v", got, want)
	}
	if len(probs) != 1 || probs[0].Code != ProblemDirUnreadable || probs[0].Source.File != filepath.Join(dir, "locked") ||
		probs[0].Severity != event.SevError || !strings.Contains(probs[0].Message, "permission denied") {
		t.Errorf("problems = %+v, want one %s error naming %s", probs, ProblemDirUnreadable, filepath.Join(dir, "locked"))
	}
	// The same through the real file system when the test can lose the
	// permission (not as root).
	if os.Geteuid() != 0 {
		os.Chmod(filepath.Join(dir, "locked"), 0)
		defer os.Chmod(filepath.Join(dir, "locked"), 0o755)
		_, probs, err := Expand([]string{dir})
		if err != nil || len(probs) != 1 || probs[0].Code != ProblemDirUnreadable {
			t.Errorf("mode 000 subdirectory: err %v, problems %+v", err, probs)
		}
	}
	// A directory named on the command line must be readable.
	x.readDir = func(string) ([]fs.DirEntry, error) { return nil, syscall.EACCES }
	x.walked = map[string]string{}
	if _, _, err := x.expand([]string{dir}); !errors.Is(err, syscall.EACCES) {
		t.Errorf("unreadable named directory: got %v, want the error", err)
	}
}

// TestExpandLiteralNames: a file whose name holds glob characters is read
// by that name, not treated as a pattern.
func TestExpandLiteralNames(t *testing.T) {
	dir := t.TempDir()
	odd := write(t, dir, "access[1].log", []byte(combinedLine))
	write(t, dir, "access1.log", []byte(combinedLine))
	got, _, err := Expand([]string{odd})
	if err != nil || !slices.Equal(got, []string{odd}) {
		t.Errorf("Expand(%q) = %v, %v; want the file itself", odd, got, err)
	}
	bad := filepath.Join(dir, "x[.log")
	if _, _, err := Expand([]string{bad}); err == nil {
		t.Errorf("Expand(%q) of a missing name with a bad pattern: want an error", bad)
	}
}
