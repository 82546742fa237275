package output

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/repaudit/repaudit/internal/parquetread"
)

// readBack is a table read back by internal/parquetread (cells as it
// documents them), with the accessors the writer's tests use. DuckDB, a
// reader of its own, reads the same files in the report and query tests.
type readBack struct {
	names []string
	cols  [][]any
	rows  int64
	// arrow is the Arrow schema stored under ARROW:schema in the footer,
	// as an Arrow reader (pqarrow, DuckDB's Arrow export) gets it back.
	arrow *arrow.Schema
}

// col returns the cells of the named column.
func (r *readBack) col(tb testing.TB, name string) []any {
	tb.Helper()
	for i, n := range r.names {
		if n == name {
			return r.cols[i]
		}
	}
	tb.Fatalf("no column %s (have %v)", name, r.names)
	return nil
}

// cell returns row i of a column read back.
func cell(tb testing.TB, col []any, i int) any {
	tb.Helper()
	if i >= len(col) {
		tb.Fatalf("row %d of %d", i, len(col))
	}
	return col[i]
}

// readTable reads every row of a Parquet file and returns it with the
// number of row groups.
func readTable(tb testing.TB, path string) (*readBack, int) {
	tb.Helper()
	return readRows(tb, path, -1)
}

// readRows reads the first limit rows of a Parquet file (all when limit
// is negative), whole row groups at a time.
func readRows(tb testing.TB, path string, limit int64) (*readBack, int) {
	tb.Helper()
	t, groups, err := parquetread.Read(path, limit)
	if err != nil {
		tb.Fatal(err)
	}
	return fromTable(t), groups
}

// readGroups reads a Parquet file one row group at a time and hands each
// to fn (a file without row groups gives one empty group) until fn returns
// false. It returns the number of row groups in the file.
func readGroups(tb testing.TB, path string, fn func(*readBack) bool) int {
	tb.Helper()
	groups, err := parquetread.Groups(path, func(t *parquetread.Table) bool { return fn(fromTable(t)) })
	if err != nil {
		tb.Fatal(err)
	}
	return groups
}

func fromTable(t *parquetread.Table) *readBack {
	return &readBack{names: t.Names, cols: t.Cols, rows: t.Rows, arrow: t.Arrow}
}
