//go:build cgo

package main

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/internal/slowtest"
)

// TestNoCgoBuild builds repaudit with CGO_ENABLED=0 and checks that it is
// the same auditor: on the demo it writes the same Parquet bytes and the
// same manifest as this (cgo) build, and its report and query commands say
// how to get a build that has them.
//
// What may differ, and so is left out of the comparison: the manifest's
// "timings" (wall-clock seconds per phase) and the --out directory, which
// appears in "command" and in options["out"]. Everything else in
// manifest.json (inputs with sizes and digests, counts, options, as_of,
// started, finished) must be equal, and every .parquet file byte for byte.
func TestNoCgoBuild(t *testing.T) {
	slowtest.Skip(t, "builds repaudit a second time, without cgo")
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("this test builds repaudit with the go command, which is not on PATH: %v", err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "repaudit-nocgo")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build ./cmd/repaudit: %v\n%s", err, out)
	}
	if runtime.GOOS == "linux" {
		checkStatic(t, bin)
	}

	// The same arguments for both builds but --out.
	cgoOut := filepath.Join(tmp, "cgo")
	code, cgoStdout, stderr := runCmd(t, demoArgs(cgoOut)...)
	if code != exitOK {
		t.Fatalf("audit (cgo build): exit %d: %s", code, stderr)
	}
	nocgoOut := filepath.Join(tmp, "nocgo")
	var stdout, errOut bytes.Buffer
	audit := exec.Command(bin, demoArgs(nocgoOut)...)
	audit.Stdout, audit.Stderr = &stdout, &errOut
	if err := audit.Run(); err != nil {
		t.Fatalf("audit (CGO_ENABLED=0 build): %v: %s", err, errOut.String())
	}
	if got, want := strings.ReplaceAll(stdout.String(), nocgoOut, "OUT"), strings.ReplaceAll(cgoStdout, cgoOut, "OUT"); got != want {
		t.Errorf("audit summary differs:\nCGO_ENABLED=0:\n%s\ncgo:\n%s", got, want)
	}

	names := func(dir string) []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, e := range entries {
			n = append(n, e.Name())
		}
		return n
	}
	files := names(cgoOut)
	if got := names(nocgoOut); !slices.Equal(got, files) {
		t.Fatalf("files: CGO_ENABLED=0 build wrote %v, cgo build %v", got, files)
	}
	var parquet int
	for _, name := range files {
		a, err := os.ReadFile(filepath.Join(nocgoOut, name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(cgoOut, name))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(name, ".parquet"):
			parquet++
			if !bytes.Equal(a, b) {
				t.Errorf("%s: the CGO_ENABLED=0 build wrote different bytes (%d, cgo build %d)", name, len(a), len(b))
			}
		case name == "manifest.json":
			got, want := comparableManifest(t, a, nocgoOut), comparableManifest(t, b, cgoOut)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("manifest.json differs beyond timings and --out:\nCGO_ENABLED=0: %v\ncgo: %v", got, want)
			}
		default:
			t.Errorf("unexpected file %s in the audit directory", name)
		}
	}
	if parquet == 0 {
		t.Fatal("no Parquet files compared")
	}

	// report and query explain themselves and fail.
	for _, args := range [][]string{{"report", nocgoOut}, {"query", nocgoOut, "select 1"}} {
		var o, e bytes.Buffer
		c := exec.Command(bin, args...)
		c.Stdout, c.Stderr = &o, &e
		err := c.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitUsage {
			t.Errorf("%s in the CGO_ENABLED=0 build: %v, want exit %d", args[0], err, exitUsage)
		}
		if msg := e.String(); !strings.Contains(msg, "built without cgo") || !strings.Contains(msg, "go build ./cmd/repaudit") {
			t.Errorf("%s in the CGO_ENABLED=0 build says %q, want how to get a cgo build", args[0], msg)
		}
	}
}

// comparableManifest decodes manifest.json without what may differ
// between two runs into different directories: wall-clock timings and the
// output directory.
func comparableManifest(t *testing.T, data []byte, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	if _, ok := m["timings"]; !ok {
		t.Errorf("manifest.json has no timings")
	}
	delete(m, "timings")
	if cmd, ok := m["command"].([]any); ok {
		for i, a := range cmd {
			if a == out {
				cmd[i] = "OUT"
			}
		}
	}
	if opts, ok := m["options"].(map[string]any); ok && opts["out"] == out {
		opts["out"] = "OUT"
	}
	return m
}

// checkStatic fails unless bin is a static ELF executable: no program
// interpreter and no shared libraries.
func checkStatic(t *testing.T, bin string) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s has a program interpreter: not a static binary", bin)
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil {
		t.Fatal(err)
	} else if len(libs) > 0 {
		t.Errorf("%s needs shared libraries %v: not a static binary", bin, libs)
	}
}
