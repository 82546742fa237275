//go:build cgo

package report

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

// TestOpenPartFiles opens a table written as a directory of part files
// (DIR/fetches/*.parquet, as the Beam pipeline writes it).
func TestOpenPartFiles(t *testing.T) {
	t.Parallel()
	c := fixture()
	dir := writeAudit(t, c, fixtureManifest())
	half := len(c.Fetches) / 2
	first := &table.Collector{Fetches: c.Fetches[:half]}
	second := &table.Collector{Fetches: c.Fetches[half:]}
	parts := filepath.Join(dir, "fetches")
	must(t, os.Remove(filepath.Join(dir, "fetches.parquet")))
	must(t, os.Mkdir(parts, 0o755))
	for i, part := range []*table.Collector{first, second} {
		src := filepath.Join(writeAudit(t, part, fixtureManifest()), "fetches.parquet")
		must(t, os.Rename(src, filepath.Join(parts, "part-0000"+string(rune('0'+i))+".parquet")))
	}
	// The Beam pipeline's manifest records no table files, only counts.
	dropTableFiles(t, dir)
	db, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Query(context.Background(), "SELECT count(*), count(DISTINCT source_line) FROM fetches")
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Rows[0][0]; got != int64(len(c.Fetches)) {
		t.Errorf("fetches from two parts: got %v rows, want %d", got, len(c.Fetches))
	}

	// A directory without part files is a missing table.
	must(t, os.RemoveAll(parts))
	must(t, os.Mkdir(parts, 0o755))
	if _, err := Open(context.Background(), dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty part directory: got %v, want a missing table", err)
	}
}

// dropTableFiles rewrites dir's manifest.json without its tables list.
func dropTableFiles(t *testing.T, dir string) {
	t.Helper()
	m, err := output.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.Tables = nil
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(dir, output.ManifestName), data, 0o644))
}
