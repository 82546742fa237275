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

// FuzzDictionary writes one row group whose string columns take more
// distinct values than a dictionary searches one by one (smallDict), so
// that they are indexed by a map, from pieces of arbitrary bytes
// (invalid UTF-8 among them, given raw and as its valid form, empty
// strings, values that differ in their last byte only), and reads every
// value back.
func FuzzDictionary(f *testing.F) {
	f.Add([]byte("GPTBot ClaudeBot bad\xff \xfe\xff a\uFFFD a\xff x"), uint8(3))
	f.Add([]byte("0123456789abcdefghijklmnopqrstuvwxyz"), uint8(1))
	f.Add([]byte{}, uint8(0))
	f.Fuzz(fuzzDictBody)
}

func fuzzDictBody(t *testing.T, data []byte, step uint8) {
	{
		const n = 60
		vals := make([]string, n)
		for i := range vals {
			// A piece of data, then a counter that makes about 40
			// distinct values recur.
			if len(data) > 0 {
				at := i * (int(step) + 1) % len(data)
				vals[i] = string(data[at:min(len(data), at+i%7)])
			}
			vals[i] += string(rune('a' + i%40/2))
			if i%5 == 0 {
				vals[i] += "\xff"
			}
		}
		dir := filepath.Join(t.TempDir(), "o")
		w, err := Create(dir, Options{RowGroupRows: 1000})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		for i := range n {
			row := table.Fetch{Agent: vals[i], URL: vals[(i*7)%n], UserAgent: strings.ToValidUTF8(vals[i], "\uFFFD")}
			if err := w.Fetch(&row); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Commit(nil); err != nil {
			t.Fatal(err)
		}
		tbl, _ := readTable(t, filepath.Join(dir, "fetches.parquet"))
		agent, url, ua := tbl.col(t, "agent"), tbl.col(t, "url"), tbl.col(t, "user_agent")
		for i := range n {
			for _, c := range []struct {
				name string
				col  []any
				want string
			}{{"agent", agent, vals[i]}, {"url", url, vals[(i*7)%n]}, {"user_agent", ua, vals[i]}} {
				if got, want := cell(t, c.col, i), strings.ToValidUTF8(c.want, "\uFFFD"); got != want {
					t.Fatalf("row %d %s: got %q, want %q", i, c.name, got, want)
				}
			}
		}
	}
}
