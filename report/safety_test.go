//go:build cgo

package report

import (
	"bytes"
	"context"
	"errors"
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// TestNoWrites: without AllowExternal no statement can write a file, the
// audit's own tables included (DuckDB's allowed_paths allows writing
// where it allows reading), nor touch DuckDB's default temp directory
// ./.tmp; statements that only change the session still run.
func TestNoWrites(t *testing.T) {
	ctx := context.Background()
	dir := writeAudit(t, fixture(), fixtureManifest())
	t.Chdir(t.TempDir())
	if err := os.Mkdir(".tmp", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(".tmp", "secret"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	violations := filepath.Join(dir, "violations.parquet")
	fetches := filepath.Join(dir, "fetches.parquet")
	before := map[string][]byte{}
	for _, p := range []string{violations, fetches} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		before[p] = data
	}
	db, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"create temp table v as select * from violations where agent <> 'GPTBot'; copy v to " + quote(violations) + " (format parquet, use_tmp_file false)",
		"COPY fetches TO " + quote(fetches) + " (FORMAT parquet)",
		"COPY (SELECT * FROM fetches) TO " + quote(fetches) + " (FORMAT parquet, use_tmp_file false)",
		"COPY (SELECT 1) TO './.tmp/x'",
		"SELECT * FROM read_text('./.tmp/secret')",
		"SELECT * FROM read_text('/etc/passwd')",
		"EXPORT DATABASE " + quote(t.TempDir()),
		"ATTACH ':memory:' AS m2",
		"ATTACH " + quote(filepath.Join(t.TempDir(), "x.db")),
		"INSTALL parquet",
		"LOAD parquet",
		"SET enable_external_access = true",
		"SET temp_directory = '.'",
		"RESET allowed_paths",
		"EXPLAIN ANALYZE COPY (SELECT 1) TO " + quote(fetches) + " (FORMAT csv, use_tmp_file false)",
		"PREPARE p AS COPY (SELECT 1) TO " + quote(fetches) + " (FORMAT csv, use_tmp_file false)",
		"CALL checkpoint()",
		"select 1; /* ; */ copy (select 2) to " + quote(fetches),
	} {
		if _, err := db.Query(ctx, q); err == nil {
			t.Errorf("%s: allowed, want refused", q)
		}
	}
	for p, want := range before {
		if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s changed: %d bytes, was %d (%v)", filepath.Base(p), len(got), len(want), err)
		}
	}
	if _, err := os.Stat(filepath.Join(".tmp", "x")); err == nil {
		t.Error("COPY wrote ./.tmp/x")
	}
	for _, q := range []string{
		"create temp table v2 as select agent from violations; select count(*) from v2",
		"set variable n = 2; select getvariable('n')",
		"begin; create temp table w (a int); insert into w values (1); update w set a = 2; delete from w; commit; select count(*) from w",
		"EXPLAIN SELECT count(*) FROM fetches",
		"SELECT ';' AS semicolon",
	} {
		if _, err := db.Query(ctx, q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}

// TestOpenChangedTable: a table file edited after the audit is refused,
// naming the table: a different size or row count always, a same-size
// edit with Verify (the SHA-256).
func TestOpenChangedTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	full := fixture()
	other := writeAudit(t, &table.Collector{Violations: full.Violations[:1]}, fixtureManifest())
	for _, c := range []struct {
		name   string
		edit   func(dir string)
		verify bool
		want   string
	}{
		{"fewer rows", func(dir string) {
			must(t, os.Rename(filepath.Join(other, "violations.parquet"), filepath.Join(dir, "violations.parquet")))
		}, false, "table violations"},
		{"same size", func(dir string) {
			p := filepath.Join(dir, "violations.parquet")
			data, err := os.ReadFile(p)
			must(t, err)
			data[len(data)/2] ^= 1
			must(t, os.WriteFile(p, data, 0o644))
		}, true, "SHA-256"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeAudit(t, full, fixtureManifest())
			c.edit(dir)
			_, err := OpenWith(ctx, dir, OpenOptions{Verify: c.verify})
			if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %v naming %s", err, ErrChanged, c.want)
			}
		})
	}
	// Untouched, with and without Verify.
	dir := writeAudit(t, full, fixtureManifest())
	for _, v := range []bool{false, true} {
		db, err := OpenWith(ctx, dir, OpenOptions{Verify: v})
		if err != nil {
			t.Fatalf("verify %v: %v", v, err)
		}
		db.Close()
	}
}
