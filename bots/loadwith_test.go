package bots

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestLoadWith(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := write("first.json", `{"bots":[{"token":"ExampleBot","operator":"First Inc.","category":"seo"}]}`)
	second := write("second.json", `{"bots":[{"token":"ExampleBot","operator":"Second Inc.","category":"seo"}]}`)
	bad := write("bad.json", `{"bots":[`)

	c, err := LoadWith()
	if err != nil || c != Default() {
		t.Errorf("LoadWith() = %p, %v; want the default catalog", c, err)
	}
	c, err = LoadWith(first, second)
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := c.Lookup("ExampleBot"); !ok || b.Operator != "Second Inc." {
		t.Errorf("ExampleBot = %+v, %v; want the later file's entry", b, ok)
	}
	if c.Len() != Default().Len()+1 {
		t.Errorf("Len = %d, want the default's %d plus one", c.Len(), Default().Len())
	}
	_, err = LoadWith(first, filepath.Join(dir, "missing.json"))
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != filepath.Join(dir, "missing.json") {
		t.Errorf("missing file: err = %v, want a PathError naming it", err)
	}
	_, err = LoadWith(bad)
	var le *LoadError
	if !errors.As(err, &le) || le.File != bad {
		t.Errorf("bad file: err = %v, want a LoadError naming it", err)
	}
}
