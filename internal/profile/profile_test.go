package profile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStartWritesEveryProfile(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{EnvCPU: filepath.Join(dir, "cpu.prof"), EnvMem: filepath.Join(dir, "mem.prof"), EnvTrace: filepath.Join(dir, "trace.out")}
	var stderr bytes.Buffer
	stop := Start("prog", func(k string) string { return env[k] }, &stderr)
	stop()
	for _, p := range env {
		fi, err := os.Stat(p)
		if err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v, size %v", p, err, fi)
		}
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %q", stderr.String())
	}
}

func TestStartReportsAndGoesOn(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "missing", "x.prof")
	env := map[string]string{EnvCPU: bad, EnvMem: bad, EnvTrace: bad}
	var stderr bytes.Buffer
	Start("prog", func(k string) string { return env[k] }, &stderr)()
	for _, want := range []string{"prog: " + EnvCPU + ": ", "prog: " + EnvMem + ": ", "prog: " + EnvTrace + ": "} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr %q lacks %q", stderr.String(), want)
		}
	}
}

func TestStartNothingAsked(t *testing.T) {
	var stderr bytes.Buffer
	Start("prog", func(string) string { return "" }, &stderr)()
	if stderr.Len() != 0 {
		t.Errorf("stderr: %q", stderr.String())
	}
}

func TestPhaseProfiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "phases")
	Phase("before") // not asked for yet: nothing written
	var stderr bytes.Buffer
	stop := Start("prog", func(k string) string {
		if k == EnvMemPhases {
			return dir
		}
		return ""
	}, &stderr)
	Phase("pass1")
	Phase("pass2")
	stop()
	Phase("after") // ended: nothing written
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		if fi, err := e.Info(); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v, empty", e.Name(), err)
		}
	}
	if got := strings.Join(names, " "); got != "01-pass1.heap 02-pass2.heap" {
		t.Errorf("profiles %q, want 01-pass1.heap 02-pass2.heap", got)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %q", stderr.String())
	}
}
