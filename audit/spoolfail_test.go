package audit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

// fullFile is a spool file on a disk that is full after limit bytes:
// writes past it fail with ENOSPC, as a real full disk's do.
type fullFile struct {
	*os.File
	limit, n int64
}

func (f *fullFile) Write(p []byte) (int, error) {
	if f.n+int64(len(p)) > f.limit {
		k := int(max(0, f.limit-f.n))
		n, _ := f.File.Write(p[:k])
		f.n += int64(n)
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	n, err := f.File.Write(p)
	f.n += int64(n)
	return n, err
}

// TestSpoolFullReleasesSpace: a spool that fills the disk is closed and
// removed at once, so that the other inputs and the tables still have
// room; its input is a spool-write-failed error naming the input, the
// spool file and the cause, and every table is written.
func TestSpoolFullReleasesSpace(t *testing.T) {
	defer func(n int, c func(string, string) (spoolFile, error)) { spoolMemPerFile, createSpoolFile = n, c }(spoolMemPerFile, createSpoolFile)
	spoolMemPerFile = 4 << 10 // the big log moves to a file of its own
	var mu sync.Mutex
	var failing []string // the files made to fail
	createSpoolFile = func(dir, pattern string) (spoolFile, error) {
		f, err := os.CreateTemp(dir, pattern)
		if err != nil || !strings.HasPrefix(pattern, "fetches-") {
			return f, err
		}
		mu.Lock()
		failing = append(failing, f.Name())
		mu.Unlock()
		return &fullFile{File: f, limit: 16 << 10}, nil
	}
	tmp := t.TempDir()
	big := filepath.Join(tmp, "big.log")
	os.WriteFile(big, genLog(5000, false), 0o644)
	inputs := []string{big}
	for i := range 3 {
		p := filepath.Join(tmp, fmt.Sprintf("small-%d.log", i))
		os.WriteFile(p, genLog(20+i, false), 0o644) // not duplicates
		inputs = append(inputs, p)
	}
	var left []string
	beforePass2 = func() {
		for _, f := range failing {
			if _, err := os.Stat(f); err == nil {
				left = append(left, f)
			}
		}
	}
	defer func() { beforePass2 = nil }()

	col := &table.Collector{}
	sum, _, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "col"), inputs...), col)
	if !errors.Is(err, ErrInputs) || len(sum.Failed) != 1 || sum.Failed[0] != big {
		t.Errorf("err = %v, failed %v; want ErrInputs naming %s", err, sum.Failed, big)
	}
	if len(failing) != 1 || len(left) != 0 {
		t.Errorf("spool files that failed %v, still there before pass 2 %v; want one, removed", failing, left)
	}
	var msg string
	for _, pr := range col.Problems {
		if pr.Code == "spool-write-failed" && pr.SourceFile == big {
			msg = pr.Message
		}
	}
	if len(failing) == 1 && (!strings.Contains(msg, failing[0]) || !strings.Contains(msg, "no space left") || !strings.Contains(msg, "5000 fetches")) {
		t.Errorf("spool-write-failed message %q does not name the spool file %v, the cause and what is lost", msg, failing)
	}
	if got := len(col.Fetches); got != 63 {
		t.Errorf("fetches = %d, want the 63 of the small logs", got)
	}

	// The same through the Parquet writer: every table is written.
	failing = nil
	out := filepath.Join(tmp, "out")
	cfg := onceConfig(out, inputs...)
	if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrInputs) {
		t.Errorf("Run: err = %v, want ErrInputs", err)
	}
	m, err := output.ReadManifest(out)
	if err != nil {
		t.Fatalf("no manifest: %v", err)
	}
	if m.Counts["fetches"] != 63 || m.Counts["problems"] == 0 {
		t.Errorf("manifest counts %v, want 63 fetches and the problem rows", m.Counts)
	}
}

// TestSpoolShared: small spools beyond the run's memory budget share one
// file, so descriptors do not grow with the number of inputs, and every
// fetch is judged.
func TestSpoolShared(t *testing.T) {
	defer func(n int) { spoolMemTotal = n }(spoolMemTotal)
	spoolMemTotal = 0
	tmp := t.TempDir()
	var inputs []string
	for i := range 40 {
		p := filepath.Join(tmp, fmt.Sprintf("s3-%02d.log", i))
		os.WriteFile(p, genLog(3+i, false), 0o644)
		inputs = append(inputs, p)
	}
	var files []string
	beforePass2 = func() { files, _ = filepath.Glob(filepath.Join(tmp, ".repaudit-spool-*", "*")) }
	defer func() { beforePass2 = nil }()
	col := &table.Collector{}
	if _, _, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), inputs...), col); err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || !strings.Contains(filepath.Base(files[0]), "shared-") {
		t.Errorf("spool files during pass 2 = %v, want one shared file", files)
	}
	if got, want := len(col.Fetches), 40*3+39*40/2; got != want {
		t.Errorf("fetches = %d, want %d", got, want)
	}
}
