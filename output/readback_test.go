package output

import (
	"bytes"
	"encoding/base64"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// readBack is a table read back with arrow-go's low-level Parquet reader
// (parquet/file), column by column. Each cell is a string, bool, int64
// (INT32 widened), float64 or *time.Time (timestamps, in UTC); a null cell
// is (*time.Time)(nil) whatever the column's type. The tests read through
// the column readers rather than pqarrow so that no package of the module
// needs pqarrow, which imports Arrow Flight and the compute kernels;
// DuckDB, a reader of its own, reads the same files in the report and
// query tests.
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
	var out *readBack
	groups := readGroups(tb, path, func(g *readBack) bool {
		if out == nil {
			out = g
		} else {
			for i := range out.cols {
				out.cols[i] = append(out.cols[i], g.cols[i]...)
			}
			out.rows += g.rows
		}
		return limit < 0 || out.rows < limit
	})
	if limit >= 0 && out.rows > limit {
		for i := range out.cols {
			out.cols[i] = out.cols[i][:limit]
		}
		out.rows = limit
	}
	return out, groups
}

// readGroups reads a Parquet file one row group at a time and hands each
// to fn (a file without row groups gives one empty group) until fn returns
// false. It returns the number of row groups in the file.
func readGroups(tb testing.TB, path string, fn func(*readBack) bool) int {
	tb.Helper()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	defer rdr.Close()
	sch := rdr.MetaData().Schema
	var names []string
	for i := range sch.NumColumns() {
		names = append(names, sch.Column(i).Name())
	}
	var arrowSchema *arrow.Schema
	if v := rdr.MetaData().KeyValueMetadata().FindValue("ARROW:schema"); v != nil {
		b, err := base64.StdEncoding.DecodeString(*v)
		if err != nil {
			tb.Fatalf("%s: ARROW:schema: %v", path, err)
		}
		r, err := ipc.NewReader(bytes.NewReader(b))
		if err != nil {
			tb.Fatalf("%s: ARROW:schema: %v", path, err)
		}
		arrowSchema = r.Schema()
		r.Release()
	}
	for g := 0; g < max(rdr.NumRowGroups(), 1); g++ {
		out := &readBack{names: names, cols: make([][]any, len(names)), arrow: arrowSchema}
		if g < rdr.NumRowGroups() {
			rg := rdr.RowGroup(g)
			out.rows = rg.NumRows()
			for i := range names {
				cr, err := rg.Column(i)
				if err != nil {
					tb.Fatalf("%s: row group %d column %s: %v", path, g, names[i], err)
				}
				out.cols[i] = readColumn(tb, path, sch.Column(i), cr, out.rows)
			}
		}
		if !fn(out) {
			break
		}
	}
	return rdr.NumRowGroups()
}

// readColumn reads the n values of one column chunk, nulls included.
func readColumn(tb testing.TB, path string, desc *schema.Column, cr file.ColumnChunkReader, n int64) []any {
	tb.Helper()
	def := make([]int16, n)
	var vals []any
	read := 0 // levels read so far
	for int64(read) < n {
		want := n - int64(read)
		var got int64
		var err error
		switch r := cr.(type) {
		case *file.ByteArrayColumnChunkReader:
			got, vals, err = readBatch(r.ReadBatch, want, def[read:], vals, func(v parquet.ByteArray) any { return string(v) })
		case *file.BooleanColumnChunkReader:
			got, vals, err = readBatch(r.ReadBatch, want, def[read:], vals, func(v bool) any { return v })
		case *file.Int32ColumnChunkReader:
			got, vals, err = readBatch(r.ReadBatch, want, def[read:], vals, func(v int32) any { return int64(v) })
		case *file.Int64ColumnChunkReader:
			conv := func(v int64) any { return v }
			if isTimestamp(desc.LogicalType()) {
				conv = func(v int64) any {
					tm := time.UnixMicro(v).UTC()
					return &tm
				}
			}
			got, vals, err = readBatch(r.ReadBatch, want, def[read:], vals, conv)
		case *file.Float64ColumnChunkReader:
			got, vals, err = readBatch(r.ReadBatch, want, def[read:], vals, func(v float64) any { return v })
		default:
			tb.Fatalf("%s: column %s: unexpected reader %T", path, desc.Name(), cr)
		}
		if err != nil {
			tb.Fatalf("%s: column %s: %v", path, desc.Name(), err)
		}
		if got == 0 {
			tb.Fatalf("%s: column %s: %d of %d values", path, desc.Name(), read, n)
		}
		read += int(got)
	}
	// Spread the values over the rows: a row below the column's maximum
	// definition level is null.
	out := make([]any, n)
	maxDef := desc.MaxDefinitionLevel()
	next := 0
	for i := range out {
		if maxDef > 0 && def[i] < maxDef {
			out[i] = (*time.Time)(nil)
			continue
		}
		out[i] = vals[next]
		next++
	}
	return out
}

// readBatch reads up to want levels with a typed column reader's
// ReadBatch into def and appends the values read, converted, to vals.
func readBatch[T any](read func(int64, []T, []int16, []int16) (int64, int, error), want int64, def []int16, vals []any, conv func(T) any) (int64, []any, error) {
	buf := make([]T, want)
	got, nv, err := read(want, buf, def, nil)
	for _, v := range buf[:nv] {
		vals = append(vals, conv(v))
	}
	return got, vals, err
}

// isTimestamp reports whether a column's logical type is a timestamp.
func isTimestamp(lt schema.LogicalType) bool {
	switch lt.(type) {
	case schema.TimestampLogicalType, *schema.TimestampLogicalType:
		return true
	}
	return false
}
