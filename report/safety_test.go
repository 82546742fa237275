//go:build cgo

package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/table"
)

// TestOpenGlobDir: an audit directory whose name holds DuckDB glob
// characters reads its own tables only, never a sibling's that the name
// would match as a pattern.
func TestOpenGlobDir(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	place := func(c *table.Collector, name string) string {
		src := writeAudit(t, c, fixtureManifest())
		dst := filepath.Join(parent, name)
		if err := os.Rename(src, dst); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	full := fixture()
	one := &table.Collector{Fetches: full.Fetches[:1]}
	for _, c := range []struct{ target, decoy string }{
		{"q*", "q1"},
		{"r[1]", "r1"},
		{"x?", "xy"},
		{"a[[]b", "a[b-not"},
	} {
		t.Run(c.target, func(t *testing.T) {
			// The decoy is a sibling the target's name matches as a glob;
			// it has one fetch, the target all of the fixture's.
			place(one, c.decoy)
			dir := place(full, c.target)
			db, err := Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			res, err := db.Query(ctx, "SELECT count(*) FROM fetches")
			if err != nil {
				t.Fatal(err)
			}
			if got, want := res.Rows[0][0], int64(len(full.Fetches)); got != want {
				t.Errorf("fetches in %s: got %v rows, want %d (its own table only)", c.target, got, want)
			}
		})
	}
}

// TestExternalAccess: by default a query reads the audit's tables and
// nothing else, writes nothing, and cannot switch that back on; the report
// still builds. With AllowExternal it may read and write files.
func TestExternalAccess(t *testing.T) {
	ctx := context.Background()
	dir := writeAudit(t, fixture(), fixtureManifest())
	other := filepath.Join(t.TempDir(), "other.csv")
	if err := os.WriteFile(other, []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sink := filepath.Join(t.TempDir(), "exfil.csv")

	db, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Build(ctx); err != nil {
		t.Fatalf("report on a locked-down session: %v", err)
	}
	for _, q := range []string{
		"SELECT * FROM read_csv(" + quote(other) + ")",
		"SELECT * FROM read_text(" + quote(filepath.Join(dir, "manifest.json")) + ")",
		"COPY (SELECT url FROM fetches) TO " + quote(sink),
		"INSTALL httpfs",
		"LOAD httpfs",
		"ATTACH " + quote(filepath.Join(t.TempDir(), "x.db")),
		"SET enable_external_access = true",
		"SET allowed_directories = ['/']",
	} {
		if _, err := db.Query(ctx, q); err == nil {
			t.Errorf("%s: allowed, want refused", q)
		}
	}
	if _, err := os.Stat(sink); err == nil {
		t.Errorf("COPY TO wrote %s", sink)
	}
	if res, err := db.Query(ctx, "SELECT count(*) FROM violations"); err != nil || res.Rows[0][0] == int64(0) {
		t.Errorf("views after the refusals: %v, %v", res, err)
	}

	open, err := OpenWith(ctx, dir, OpenOptions{AllowExternal: true})
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()
	if res, err := open.Query(ctx, "SELECT b FROM read_csv("+quote(other)+")"); err != nil || len(res.Rows) != 1 {
		t.Errorf("read_csv with AllowExternal: %v, %v", res, err)
	}
	if _, err := open.Query(ctx, "COPY (SELECT url FROM fetches) TO "+quote(sink)); err != nil {
		t.Errorf("COPY TO with AllowExternal: %v", err)
	}
	if data, err := os.ReadFile(sink); err != nil || !strings.Contains(string(data), "example.com") {
		t.Errorf("COPY TO with AllowExternal wrote %q, %v", data, err)
	}
}

func TestGlobEscape(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b/fetches.parquet": "/a/b/fetches.parquet",
		"/out/q*/x":            "/out/q[*]/x",
		"/r[1]/x":              "/r[[]1]/x",
		"/a?b/]x":              "/a[?]b/]x",
		`/a\b/x`:               `/a\b/x`,
	} {
		if got := globEscape(in); got != want {
			t.Errorf("globEscape(%q) = %q, want %q", in, got, want)
		}
	}
}
