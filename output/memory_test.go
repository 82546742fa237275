package output

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/repaudit/repaudit/table"
)

// writeAll writes n rows to every table of a new writer in dir, table after
// table as the model writes its tables; finish finishes each table once its
// rows are written, spareLimit sets the spare budget (-1: keep the
// default). It returns the writer, committed.
func writeAll(t *testing.T, dir string, n int, finish bool, spareLimit int64) *Writer {
	t.Helper()
	// Small row groups: every table writes several, so batches are
	// encoded, come back spare, and are reused or dropped.
	w, err := Create(dir, Options{RowGroupRows: 64, RowGroupBytes: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if spareLimit >= 0 {
		w.spares.limit = spareLimit
	}
	for _, info := range table.Tables {
		m := sinkMethod(t, w, info)
		for _, row := range sampleRows(info, n) {
			if out := m.Call([]reflect.Value{row}); !out[0].IsNil() {
				t.Fatalf("%s: %v", info.Name, out[0].Interface())
			}
		}
		if finish {
			if err := w.Finish(info.Name); err != nil {
				t.Fatalf("finish %s: %v", info.Name, err)
			}
		}
	}
	if err := w.Commit(nil); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestMemoryPolicyBytes checks that neither finishing tables early nor
// the spare budget (none kept, or every one) changes a byte of any file.
func TestMemoryPolicyBytes(t *testing.T) {
	const n = 300
	ref := filepath.Join(t.TempDir(), "ref")
	writeAll(t, ref, n, false, -1)
	cases := []struct {
		name   string
		finish bool
		limit  int64
	}{
		{"finish", true, -1},
		{"no-spares", false, 0},
		{"all-spares", false, math.MaxInt64},
		{"finish-no-spares", true, 0},
	}
	for _, c := range cases {
		dir := filepath.Join(t.TempDir(), c.name)
		w := writeAll(t, dir, n, c.finish, c.limit)
		if k := w.spares.kept.Load(); k != 0 {
			t.Errorf("%s: %d spare bytes still counted after Commit", c.name, k)
		}
		for _, info := range table.Tables {
			a, err := os.ReadFile(filepath.Join(ref, info.Name+".parquet"))
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, info.Name+".parquet"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s: %s.parquet differs from the reference (%d vs %d bytes)", c.name, info.Name, len(b), len(a))
			}
			if tbl, _ := readTable(t, filepath.Join(dir, info.Name+".parquet")); tbl.rows != n {
				t.Errorf("%s: %s has %d rows, want %d", c.name, info.Name, tbl.rows, n)
			}
		}
	}
}

// TestSpareBudget checks the budget's accounting: spares within the
// limit keep their buffers, the others are dropped, and a batch taken
// again stops counting.
func TestSpareBudget(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "o")
	w, err := Create(dir, Options{RowGroupRows: 64, RowGroupBytes: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for _, row := range sampleRows(table.Tables[0], 200) {
		if err := w.Fetch(row.Interface().(*table.Fetch)); err != nil {
			t.Fatal(err)
		}
	}
	b := w.fetches.cur
	if b == nil || b.memBytes() == 0 {
		t.Fatal("no batch filling")
	}
	s := &spareBudget{limit: int64(b.memBytes())}
	if !s.keep(b) || s.kept.Load() != int64(b.memBytes()) {
		t.Fatalf("a batch within the limit was not kept (kept %d)", s.kept.Load())
	}
	other := newBatch(w.fetches.spec)
	other.cols[0].i32 = make([]int32, 0, 100)
	if s.keep(other) {
		t.Error("a batch past the limit was kept")
	}
	if other.kept != 0 || s.kept.Load() != int64(b.memBytes()) {
		t.Errorf("a dropped batch is counted: %d, total %d", other.kept, s.kept.Load())
	}
	s.unkeep(b)
	if s.kept.Load() != 0 || b.kept != 0 {
		t.Errorf("after unkeep: %d counted, batch %d", s.kept.Load(), b.kept)
	}
	var none *spareBudget
	if !none.keep(b) {
		t.Error("a nil budget dropped a batch")
	}
}

// TestFinish checks Finish: the table is written whole at once, a row
// after it fails, Finish again is a no-op, an unknown table is an error.
func TestFinish(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "o")
	w, err := Create(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Retention(&table.Retention{URL: "http://a.example/"}); err != nil {
		t.Fatal(err)
	}
	if err := table.Finish(w, "retention"); err != nil {
		t.Fatal(err)
	}
	if tbl, _ := readTable(t, filepath.Join(w.tmp, "retention.parquet")); tbl.rows != 1 {
		t.Errorf("finished table has %d rows before Commit, want 1", tbl.rows)
	}
	if err := w.Finish("retention"); err != nil {
		t.Errorf("second Finish: %v", err)
	}
	if err := w.Retention(&table.Retention{URL: "http://b.example/"}); !errors.Is(err, ErrClosed) {
		t.Errorf("row after Finish: got %v, want ErrClosed", err)
	}
	if err := w.Finish("nope"); err == nil {
		t.Error("Finish of an unknown table: got nil error")
	}
	if err := w.Commit(nil); err == nil {
		t.Error("Commit after a failed write: got nil error")
	}
}
