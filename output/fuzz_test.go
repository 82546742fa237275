package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/table"
)

// FuzzWriteValues writes rows carrying arbitrary bytes and times and reads
// them back: the writer must never fail or panic on input-derived values,
// and must keep every string (as valid UTF-8) and every time in range.
func FuzzWriteValues(f *testing.F) {
	f.Add("GPTBot", "https://example.com/a", int64(1740823200000000), true)
	f.Add("bad\xff\xfe", "", int64(-62135596800000000), false)
	f.Add("", "\x00\n|", int64(1<<62), true)
	f.Fuzz(func(t *testing.T, agent, url string, micros int64, view bool) {
		dir := filepath.Join(t.TempDir(), "o")
		w, err := Create(dir, Options{RowGroupRows: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		at := time.UnixMicro(micros)
		row := table.Fetch{FetchTime: at, Agent: agent, URL: url, UserAgent: agent}
		if view {
			row.RobotsViewTime = &at
		}
		for range 3 {
			if err := w.Fetch(&row); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Commit(nil); err != nil {
			t.Fatal(err)
		}
		tbl, _ := readTable(t, filepath.Join(dir, "fetches.parquet"))
		col := func(name string) []any { return tbl.col(t, name) }
		for i := range 3 {
			if got, want := cell(t, col("agent"), i), strings.ToValidUTF8(agent, "\uFFFD"); got != want {
				t.Fatalf("agent: got %q, want %q", got, want)
			}
			if got, want := cell(t, col("url"), i), strings.ToValidUTF8(url, "\uFFFD"); got != want {
				t.Fatalf("url: got %q, want %q", got, want)
			}
			got := cell(t, col("fetch_time"), i).(*time.Time)
			inRange := !at.IsZero() && !at.Before(minTime) && at.Before(maxTime)
			if inRange != (got != nil) || got != nil && !got.Equal(at.Truncate(time.Microsecond)) {
				t.Fatalf("fetch_time %v: got %v", at, got)
			}
		}
		os.RemoveAll(dir)
	})
}
