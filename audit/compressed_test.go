package audit

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestCompressedIndex: --index index.csv.gz is decompressed like every
// other input (it used to be read raw: two binary "bad URL" problems and
// the noindex_indexed findings lost, exit 0).
func TestCompressedIndex(t *testing.T) {
	tmp := t.TempDir()
	plain, err := Run(context.Background(), demoConfig(filepath.Join(tmp, "plain"), 1))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(demo + "/index.csv")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	// A copy of the demo whose index is gzipped.
	in := filepath.Join(tmp, "demo")
	if err := os.CopyFS(in, os.DirFS(demo)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(in, "index.csv"))
	gz := filepath.Join(in, "index.csv.gz")
	if err := os.WriteFile(gz, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := demoConfig(filepath.Join(tmp, "gz"), 1)
	cfg.Inputs = []string{in}
	cfg.Index = []string{gz}
	cfg.Snippets = []string{filepath.Join(in, "snippets.csv")}
	got, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Findings["noindex_indexed"] == 0 {
		t.Fatal("the demo has no noindex_indexed finding to compare")
	}
	if got.Findings["noindex_indexed"] != plain.Findings["noindex_indexed"] || got.Counts["problems"] != plain.Counts["problems"] {
		t.Errorf("gzip index: %d noindex_indexed, %d problems; plain: %d, %d",
			got.Findings["noindex_indexed"], got.Counts["problems"], plain.Findings["noindex_indexed"], plain.Counts["problems"])
	}
}
