package output

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/repaudit/repaudit/table"
)

// refSafeRows is safeRows as first written: every value's bound from
// valueBound's rules, the previous value read from the row before (or
// the column's last value for the run's first row), and the column's
// colBuf read for every value. safeRows must give the same count.
func refSafeRows(tw *tableWriter, i int) int {
	b, st := tw.cur, &tw.stage
	type scan struct {
		room, grow, raw int
		risk            bool
	}
	var cols []int
	for k, col := range tw.spec.Cols {
		if col.kind == kString || col.kind == kDict {
			cols = append(cols, k)
		}
	}
	sc := make([]scan, len(cols))
	for j, k := range cols {
		c := &b.cols[k]
		sc[j] = scan{room: tw.dictLimit - len(c.data) - 4*(len(c.offs)-1)}
	}
	bound := func(c *colBuf, sc *scan, s, prev string, hasPrev bool) int {
		n := len(s)
		if c.plain {
			return 3*n + 4
		}
		extra := 0
		if !sc.risk {
			if hasPrev && len(prev) == n && unsafe.StringData(prev) == unsafe.StringData(s) {
				return 0
			}
			if sc.grow += 3*n + 4; sc.grow > sc.room {
				sc.risk = true
				extra = c.raw + 3*sc.raw
				if c.invalid {
					extra += 2 * c.raw
				}
			}
		}
		sc.raw += n
		if sc.risk {
			extra += 3 * n
		}
		return 4*n + 96 + extra
	}
	left, maxRows := tw.budget-b.bytes, tw.limit-b.rows-1
	sum, m := 0, 0
	for r := i; r < st.n && m < maxRows; r++ {
		add := tw.rowWidth
		for j, k := range cols {
			c, off := &b.cols[k], tw.spec.Cols[k].off
			s := *(*string)(unsafe.Add(st.at(r), off))
			if r > i {
				add += bound(c, &sc[j], s, *(*string)(unsafe.Add(st.at(r-1), off)), true)
			} else {
				add += bound(c, &sc[j], s, c.last, c.hasLast)
			}
		}
		if sum+add >= left {
			break
		}
		sum += add
		m++
	}
	return m
}

// safeRow is row i of TestSafeRowsBound: shared strings that repeat from
// row to row (the same address, as the judge hands them over), equal
// strings at other addresses, empty values between runs, invalid UTF-8,
// and long distinct values that outgrow a dictionary page so a column
// turns plain within a row group.
func safeRow(i int, prev *table.Fetch) table.Fetch {
	hosts := []string{"a.example", "b.example", ""}
	r := table.Fetch{
		URLHostName: hosts[i/7%3],
		Agent:       []string{"GPTBot", "", "bad\xffbot"}[i/5%3],
		URL:         fmt.Sprintf("https://a.example/%d", i/3%40), // equal, not shared
		ClientIP:    fmt.Sprintf("192.0.2.%d", i%251),
		FetchStatus: int32(200 + i%3),
	}
	if prev != nil && i%4 != 0 {
		r.UserAgent = prev.UserAgent // shared with the row before
	} else {
		r.UserAgent = strings.Repeat("u", 200) + fmt.Sprint(i)
	}
	if i%97 == 0 {
		r.Operator = "op\xfe" + fmt.Sprint(i)
	}
	return r
}

// TestSafeRowsBound stages rows as a writer with several workers does
// and checks, at every step of appending them, that safeRows gives the
// count of the reference bound, and that appending that many rows one by
// one does not end the batch (what makes them safe to append in
// parallel). A dictionary page limit of 16 KiB (not the default) makes
// user_agent turn plain within the row groups of 1 MiB, and run into
// the limit within staged runs, where a repeated value no longer
// counts as free.
func TestSafeRowsBound(t *testing.T) {
	for _, tc := range []struct{ budget, dictLimit int }{{64 << 10, 0}, {1 << 20, 16 << 10}} {
		budget := tc.budget
		w, err := Create(filepath.Join(t.TempDir(), "o"), Options{RowGroupRows: 3000, RowGroupBytes: budget, Encoders: 2})
		if err != nil {
			t.Fatal(err)
		}
		tw, steps, chunks := w.fetches, 0, 0
		if tc.dictLimit > 0 {
			tw.dictLimit = tc.dictLimit
		}
		var prev *table.Fetch
		for n := 0; n < 12000; {
			st := &tw.stage
			for st.n = 0; st.n < stageRows; n++ {
				r := safeRow(n, prev)
				prev = &r
				st.put(tw.spec.typ, unsafe.Pointer(&r))
			}
			for i := 0; i < st.n; {
				if tw.cur == nil {
					tw.cur = tw.nextBatch()
				}
				m, want := tw.safeRows(i), refSafeRows(tw, i)
				if m != want {
					t.Fatalf("budget %d, staged row %d of %d, batch of %d rows: safeRows %d, want %d", budget, i, st.n, tw.cur.rows, m, want)
				}
				steps++
				if m >= minChunk {
					chunks++
				}
				b := tw.cur
				for end := i + max(m, 1); i < end && i < st.n; i++ {
					if err := tw.addRow(st.at(i)); err != nil {
						t.Fatal(err)
					}
					if tw.cur != b && i < end-1 {
						t.Fatalf("budget %d: row %d ended the batch, within the %d rows safeRows found safe", budget, i, m)
					}
				}
			}
			st.n = 0
		}
		if chunks == 0 || chunks == steps {
			t.Errorf("budget %d: %d of %d steps could be appended in parallel: the rows test one case only", budget, chunks, steps)
		}
		if err := w.Commit(nil); err != nil {
			t.Fatal(err)
		}
	}
}
