package demo

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/demo from the generator")

// TestCommittedDemoMatchesGenerator keeps testdata/demo in step with this
// code: run 'go test ./internal/demo -update' after changing the scenario.
func TestCommittedDemoMatchesGenerator(t *testing.T) {
	committed := filepath.Join("..", "..", "testdata", "demo")
	if *update {
		if err := Generate(committed); err != nil {
			t.Fatal(err)
		}
	}
	fresh := t.TempDir()
	if err := Generate(fresh); err != nil {
		t.Fatal(err)
	}
	for _, name := range Files() {
		want, err := os.ReadFile(filepath.Join(fresh, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(committed, name))
		if err != nil {
			t.Fatalf("%v (run go test ./internal/demo -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/demo/%s differs from the generator's output (run go test ./internal/demo -update)", name)
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := Generate(a); err != nil {
		t.Fatal(err)
	}
	if err := Generate(b); err != nil {
		t.Fatal(err)
	}
	for _, name := range Files() {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s: two runs differ or are empty", name)
		}
	}
}
