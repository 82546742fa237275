package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/internal/parquetread"
	"github.com/repaudit/repaudit/output"
)

// TestUnreadableInputExits2: as `repaudit audit`, an input that cannot be
// read makes the run exit 2 after writing every table it could, with the
// problems table naming the file. (run parses flag.CommandLine, so this
// binary runs it once.)
func TestUnreadableInputExits2(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "access.log")
	bad := filepath.Join(dir, "broken.log.gz")
	if err := os.WriteFile(good, []byte(`20.171.207.10 - - [01/May/2025:10:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 51 "-" "GPTBot/1.2"`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03not deflate"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	code := run(context.Background(), []string{good, bad, filepath.Join(dir, "nope.log"), "--site", "https://example.org", "--out", out, "--hot-fetches", "1"}, &stderr)
	if code != exitUsage {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr.String())
	}
	if !strings.Contains(stderr.String(), "2 inputs could not be read") {
		t.Errorf("stderr does not say how many inputs failed:\n%s", stderr.String())
	}
	// The hot-host counters are printed: the one host of the one fetch
	// reaches --hot-fetches 1.
	if !strings.Contains(stderr.String(), "hot hosts: 1 host[:port] judged in ") {
		t.Errorf("stderr does not give the hot-host counters:\n%s", stderr.String())
	}
	m, err := output.ReadManifest(out)
	if err != nil {
		t.Fatalf("no finished output: %v", err)
	}
	if m.Counts["fetches"] != 1 {
		t.Errorf("fetches = %d, want the good file's 1", m.Counts["fetches"])
	}
	parts, _ := filepath.Glob(filepath.Join(out, "problems", "*.parquet"))
	unreadable := map[string]bool{}
	for _, p := range parts {
		tbl, _, err := parquetread.Read(p, -1)
		if err != nil {
			t.Fatal(err)
		}
		files, ok := tbl.Col("source_file")
		codes, ok2 := tbl.Col("code")
		if !ok || !ok2 {
			t.Fatalf("problems has no source_file or code column (has %v)", tbl.Names)
		}
		for i := range files {
			if codes[i] == "input-unreadable" {
				name, _ := files[i].(string)
				unreadable[filepath.Base(name)] = true
			}
		}
	}
	for _, name := range []string{"broken.log.gz", "nope.log"} {
		if !unreadable[name] {
			t.Errorf("no input-unreadable row names %s (rows name %v)", name, unreadable)
		}
	}
}
