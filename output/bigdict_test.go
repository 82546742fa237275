package output

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/repaudit/repaudit/internal/slowtest"
	"github.com/repaudit/repaudit/table"
)

// TestLargeDictionary writes a dictionary column whose distinct values
// exceed Parquet's dictionary page limit (1 MiB) within one row group: the
// writer falls back to plain pages and every value must read back.
func TestLargeDictionary(t *testing.T) {
	slowtest.Skip(t, "writes 60000 rows")
	dir := filepath.Join(t.TempDir(), "o")
	w, err := Create(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	const n = 60000
	for i := range n {
		ua := fmt.Sprintf("Mozilla/5.0 (compatible; Bot%06d/1.0; +https://example.com/bots/%06d)", i, i)
		if err := w.Fetch(&table.Fetch{UserAgent: ua, Agent: "GPTBot"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(nil); err != nil {
		t.Fatal(err)
	}
	tbl, _ := readTable(t, filepath.Join(dir, "fetches.parquet"))
	col := tbl.col(t, "user_agent")
	for _, i := range []int{0, 1, n / 2, n - 1} {
		want := fmt.Sprintf("Mozilla/5.0 (compatible; Bot%06d/1.0; +https://example.com/bots/%06d)", i, i)
		if got := cell(t, col, i); got != want {
			t.Errorf("row %d: got %q, want %q", i, got, want)
		}
	}
}
