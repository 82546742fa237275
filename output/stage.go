package output

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Appending a row to a batch (addRow) is a loop over its columns, most of
// it dictionary lookups of strings, and a table's rows come from one
// goroutine: with many cores, that loop became the wall of a table once
// its row groups were encoded in parallel. With more than one worker a
// table therefore stages its rows, stageRows at a time, and appends a run
// of them column by column, each column on whichever worker takes it
// (appendChunk). A column's values are still appended in row order, to
// its own buffers, so each column ends as addRow would leave it.
//
// What must not change is where a row group ends: at the first row that
// takes the batch to its row limit or its byte budget, and the bytes a
// string adds depend on the column's dictionary (a new entry adds its
// bytes; turning the column plain adds every row's value at once). So a
// run is appended in parallel only when no row of it can end the batch:
// safeRows adds up, from the strings' lengths alone, more than the run can
// add (colScan), and a run whose bound reaches the budget is appended row
// by row instead, ending the batch exactly where addRow would. Near the
// end of each row group, and only there, rows are appended one by one.

// stageRows is the most rows a table stages; minChunk the fewest rows
// appended in parallel at once.
const (
	stageRows = 1024
	minChunk  = 64
)

// stage holds copies of the rows handed to a table and not yet appended:
// a slice of the row type, so that the collector sees their strings.
type stage struct {
	rows reflect.Value
	base unsafe.Pointer
	size uintptr
	n    int
}

// put copies the row at p, of type typ, into the stage and returns the
// number of rows staged.
func (s *stage) put(typ reflect.Type, p unsafe.Pointer) int {
	if !s.rows.IsValid() {
		s.rows = reflect.MakeSlice(reflect.SliceOf(typ), stageRows, stageRows)
		s.base, s.size = s.rows.UnsafePointer(), typ.Size()
	}
	reflect.NewAt(typ, s.at(s.n)).Elem().Set(reflect.NewAt(typ, p).Elem())
	s.n++
	return s.n
}

// at returns the address of staged row i.
func (s *stage) at(i int) unsafe.Pointer { return unsafe.Add(s.base, uintptr(i)*s.size) }

// appendStaged appends the staged rows to the batch, in order, handing
// every batch they fill over to be written, and empties the stage.
func (tw *tableWriter) appendStaged() error {
	st := &tw.stage
	defer func() { st.n = 0 }()
	for i := 0; i < st.n; {
		if tw.cur == nil {
			tw.cur = tw.nextBatch()
		}
		if m := tw.safeRows(i); m >= minChunk {
			if err := tw.appendChunk(i, m); err != nil {
				return err
			}
			i += m
			continue
		}
		for end := min(st.n, i+minChunk); i < end; i++ {
			if err := tw.addRow(st.at(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// colScan is safeRows' account of one string column over a run of rows.
type colScan struct {
	col  int     // the column's index
	off  uintptr // its field's offset in a row
	room int     // dictionary page bytes the column may add before it turns plain
	grow int     // what the run may add to them at most
	raw  int     // bytes of the run's values
	risk bool    // the column may turn plain within the run
	// plain is whether the column is plain (the batch's colBuf, which
	// the run does not change); prev and prevLen the address and
	// length of the value before the row being bounded (the column's
	// last value for the run's first row), valid while hasPrev.
	plain   bool
	hasPrev bool
	prev    *byte
	prevLen int
}

// safeRows returns how many staged rows from i on may be appended to the
// current batch without any of them ending it: their row count stays
// under the limit, and an upper bound of the bytes they add stays under
// what is left of the budget. The bound of a string value of n bytes
// (appendString):
//   - in a column already plain: 3n+4 (invalid UTF-8 turns a byte into at
//     most three);
//   - in a dictionary column, 0 if the value equals the previous row's
//     (the dictionary has it), else 4n+96 (a new entry of at most 3n
//     bytes, and for invalid UTF-8 the raw value kept as a key too);
//   - once a column's dictionary page could outgrow its limit within the
//     run (each new value adds at most 3n+4 to it), turning plain may
//     add every value the column holds: raw (3 raw with invalid UTF-8)
//     plus 3n per value of the run, and no value counts as repeated.
//
// With more than one worker this runs on the table's one goroutine for
// every staged row, before the columns are appended in parallel: a
// value that repeats the previous row's (most of them) is told from the
// colScan alone, its address and length, without reading the column's
// colBuf or the previous row again.
func (tw *tableWriter) safeRows(i int) int {
	b, st := tw.cur, &tw.stage
	if tw.scan == nil {
		for k, col := range tw.spec.Cols {
			if col.kind == kString || col.kind == kDict {
				tw.scan = append(tw.scan, colScan{col: k, off: col.off})
			}
		}
	}
	for j := range tw.scan {
		sc := &tw.scan[j]
		c := &b.cols[sc.col]
		*sc = colScan{col: sc.col, off: sc.off, room: tw.dictLimit - len(c.data) - 4*(len(c.offs)-1), plain: c.plain}
		if c.hasLast {
			sc.prev, sc.prevLen, sc.hasPrev = unsafe.StringData(c.last), len(c.last), true
		}
	}
	left, maxRows := tw.budget-b.bytes, tw.limit-b.rows-1
	sum, m := 0, 0
	for r := i; r < st.n && m < maxRows; r++ {
		p := st.at(r)
		add := tw.rowWidth
		for j := range tw.scan {
			sc := &tw.scan[j]
			s := *(*string)(unsafe.Add(p, sc.off))
			if unsafe.StringData(s) == sc.prev && len(s) == sc.prevLen && sc.hasPrev && !sc.plain && !sc.risk {
				continue // a repeat: 0
			}
			add += valueBound(&b.cols[sc.col], sc, s)
		}
		if sum+add >= left {
			break
		}
		sum += add
		m++
	}
	return m
}

// valueBound is safeRows' bound of the bytes appending s to column c adds
// (see there), for a value that is not the previous one's string, which
// it then records as the previous one. Only the same string (the same
// bytes at the same address, as the judge hands over shared strings)
// counts as a repeat: comparing the bytes of every value would cost
// about as much as the dictionary lookup it bounds.
func valueBound(c *colBuf, sc *colScan, s string) int {
	n := len(s)
	if sc.plain {
		return 3*n + 4
	}
	sc.prev, sc.prevLen, sc.hasPrev = unsafe.StringData(s), n, true
	extra := 0
	if !sc.risk {
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

// appendChunk appends staged rows i to i+m-1, which safeRows found cannot
// end the batch, column by column on up to tw.workers goroutines (the
// calling one among them).
func (tw *tableWriter) appendChunk(i, m int) error {
	b, cols := tw.cur, tw.spec.Cols
	errs := make([]error, len(cols))
	var next, added atomic.Int64
	run := func() {
		for {
			k := int(next.Add(1) - 1)
			if k >= len(cols) {
				return
			}
			n, err := tw.appendColumn(b, k, i, m)
			added.Add(int64(n))
			errs[k] = err
		}
	}
	var wg sync.WaitGroup
	for range min(tw.workers, len(cols)) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run()
		}()
	}
	run()
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			return fmt.Errorf("column %s: %w", cols[k].Name, err)
		}
	}
	b.rows += m
	b.bytes += m*tw.rowWidth + int(added.Load())
	if b.bytes >= b.ahead {
		tw.reserveAhead(b)
	}
	return nil
}

// appendColumn appends column k of staged rows i to i+m-1 to batch b, as
// addRow does for one row, and returns the bytes it adds besides the
// rows' fixed width.
func (tw *tableWriter) appendColumn(b *batch, k, i, m int) (int, error) {
	c, off, st := &b.cols[k], tw.spec.Cols[k].off, &tw.stage
	field := func(r int) unsafe.Pointer { return unsafe.Add(st.at(r), off) }
	switch tw.spec.Cols[k].kind {
	case kString, kDict:
		// b.bytes is as of the chunk's start: the columns are appended
		// on several goroutines and it is summed after them.
		added, room := 0, tw.budget-b.bytes
		for r := i; r < i+m; r++ {
			n, err := c.appendString(*(*string)(field(r)), tw.dictLimit, room-added)
			if err != nil {
				return added, err
			}
			added += n
		}
		return added, nil
	case kBool:
		for r := i; r < i+m; r++ {
			c.b = append(c.b, *(*bool)(field(r)))
		}
	case kInt32:
		for r := i; r < i+m; r++ {
			c.i32 = append(c.i32, *(*int32)(field(r)))
		}
	case kInt64:
		for r := i; r < i+m; r++ {
			c.i64 = append(c.i64, *(*int64)(field(r)))
		}
	case kFloat64:
		for r := i; r < i+m; r++ {
			c.f64 = append(c.f64, *(*float64)(field(r)))
		}
	case kTime:
		for r := i; r < i+m; r++ {
			c.appendTime((*time.Time)(field(r)))
		}
	case kTimePtr:
		for r := i; r < i+m; r++ {
			c.appendTime(*(**time.Time)(field(r)))
		}
	}
	return 0, nil
}
