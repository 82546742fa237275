package output

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOwnFile(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, ManifestName)
	table := filepath.Join(dir, "violations.parquet")
	other := filepath.Join(dir, "report.html")
	for _, p := range []string{manifest, table, other} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(t.TempDir(), "v.parquet")
	if err := os.Symlink(table, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	for _, tt := range []struct {
		path, want string
		ok         bool
	}{
		{manifest, ManifestName, true},
		{link, "violations.parquet", true},
		{other, "", false},
		{filepath.Join(dir, "new.md"), "", false},
	} {
		if name, ok := OwnFile(dir, tt.path); name != tt.want || ok != tt.ok {
			t.Errorf("OwnFile(%s) = %q, %v; want %q, %v", tt.path, name, ok, tt.want, tt.ok)
		}
	}
}
