package output

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/repaudit/repaudit/table"
)

// writeAll writes n rows to every table of a new writer in dir, table after
// table as the model writes its tables; finish finishes each table once its
// rows are written, trim trims the writer every 50 rows. It commits.
func writeAll(t *testing.T, dir string, n int, finish, trim bool) {
	t.Helper()
	// Small row groups: every table writes several, so the encoding
	// goroutine runs and the spare batch is freed by Finish.
	w, err := Create(dir, Options{RowGroupRows: 64, RowGroupBytes: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range table.Tables {
		m := sinkMethod(t, w, info)
		for i, row := range sampleRows(info, n) {
			if out := m.Call([]reflect.Value{row}); !out[0].IsNil() {
				t.Fatalf("%s: %v", info.Name, out[0].Interface())
			}
			if trim && i%50 == 49 {
				w.Trim()
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
}

// TestFinishTrimSameBytes checks that neither finishing each table as
// soon as its rows are written nor trimming the writer between rows
// changes a byte of any file.
func TestFinishTrimSameBytes(t *testing.T) {
	const n = 300
	ref, dir := filepath.Join(t.TempDir(), "ref"), filepath.Join(t.TempDir(), "finish")
	writeAll(t, ref, n, false, false)
	writeAll(t, dir, n, true, true)
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
			t.Errorf("%s.parquet differs when finished early (%d vs %d bytes)", info.Name, len(b), len(a))
		}
		if tbl, _ := readTable(t, filepath.Join(dir, info.Name+".parquet")); tbl.rows != n {
			t.Errorf("%s has %d rows, want %d", info.Name, tbl.rows, n)
		}
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
