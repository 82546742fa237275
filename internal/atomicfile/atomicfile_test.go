package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestCommitAndAbort(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.warc")

	f, err := Create(name)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "discarded")
	if got := readDir(t, dir); len(got) != 1 || !strings.HasPrefix(got[0], ".out.warc.") {
		t.Errorf("while writing: files %q, want one hidden temporary file", got)
	}
	f.Abort()
	if got := readDir(t, dir); len(got) != 0 {
		t.Errorf("after Abort: files %q, want none", got)
	}

	f, err = Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort() // after Commit: a no-op
	io.WriteString(f, "kept")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	b, err := os.ReadFile(name)
	if err != nil || string(b) != "kept" {
		t.Errorf("after Commit: %q, %v; want \"kept\"", b, err)
	}
	if got := readDir(t, dir); len(got) != 1 {
		t.Errorf("after Commit: files %q, want only out.warc", got)
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "report.md")
	if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	failed := errors.New("render failed")
	err := Write(name, func(w io.Writer) error { io.WriteString(w, "half"); return failed })
	if !errors.Is(err, failed) || !strings.Contains(err.Error(), name) {
		t.Errorf("failed write: err = %v, want it wrapped with the name", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "old" {
		t.Errorf("after a failed write the file holds %q, want the old content", b)
	}
	if err := Write(name, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "new" || st.Mode().Perm() != 0o644 {
		t.Errorf("file holds %q with mode %v, want \"new\" with 0644", b, st.Mode().Perm())
	}
	if got := readDir(t, dir); len(got) != 1 {
		t.Errorf("files %q, want only the report (no temporary files left)", got)
	}
	if err := Write(filepath.Join(dir, "missing", "x"), func(io.Writer) error { return nil }); err == nil {
		t.Error("Write into a missing directory: no error")
	}
}
