// Package parquetread reads a Parquet table back into memory, column by
// column, with arrow-go's low-level reader (parquet/file). Tests use it:
// output's tests check the bytes the writer made, and the Beam module's
// tests compare the pipeline's part files with audit's tables.
//
// It reads through the column chunk readers rather than pqarrow because
// pqarrow imports Arrow Flight (gRPC, protobuf) and the compute kernels,
// which would then be compiled for every test build. In the product,
// report and query read Parquet through DuckDB; only export (package
// retention) reads the retention table back with this package, so that
// it builds without cgo.
//
// Each cell is a string, bool, int64 (INT32 widened), float64 or
// *time.Time (timestamps, in UTC); a null cell is (*time.Time)(nil)
// whatever the column's type, so a test compares cells with one rule.
package parquetread

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// Table is one row group, or a whole file, read back.
type Table struct {
	Names []string // column names, in the file's order
	Cols  [][]any  // Cols[i][r] is column i of row r
	Rows  int64
	// Arrow is the Arrow schema stored under ARROW:schema in the footer,
	// as an Arrow reader (pqarrow, DuckDB's Arrow export) gets it back;
	// nil when the footer has none.
	Arrow *arrow.Schema
}

// Col returns the cells of the named column.
func (t *Table) Col(name string) ([]any, bool) {
	for i, n := range t.Names {
		if n == name {
			return t.Cols[i], true
		}
	}
	return nil, false
}

// Read reads the first limit rows of a Parquet file (all when limit is
// negative), whole row groups at a time, and returns them with the
// number of row groups in the file.
func Read(path string, limit int64) (*Table, int, error) {
	var out *Table
	groups, err := Groups(path, func(g *Table) bool {
		if out == nil {
			out = g
		} else {
			for i := range out.Cols {
				out.Cols[i] = append(out.Cols[i], g.Cols[i]...)
			}
			out.Rows += g.Rows
		}
		return limit < 0 || out.Rows < limit
	})
	if err != nil {
		return nil, groups, err
	}
	if limit >= 0 && out.Rows > limit {
		for i := range out.Cols {
			out.Cols[i] = out.Cols[i][:limit]
		}
		out.Rows = limit
	}
	return out, groups, nil
}

// Groups reads a Parquet file one row group at a time and hands each to
// fn (a file without row groups gives one empty group) until fn returns
// false. It returns the number of row groups in the file.
func Groups(path string, fn func(*Table) bool) (int, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", path, err)
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
			return 0, fmt.Errorf("%s: ARROW:schema: %w", path, err)
		}
		r, err := ipc.NewReader(bytes.NewReader(b))
		if err != nil {
			return 0, fmt.Errorf("%s: ARROW:schema: %w", path, err)
		}
		arrowSchema = r.Schema()
		r.Release()
	}
	for g := 0; g < max(rdr.NumRowGroups(), 1); g++ {
		out := &Table{Names: names, Cols: make([][]any, len(names)), Arrow: arrowSchema}
		if g < rdr.NumRowGroups() {
			rg := rdr.RowGroup(g)
			out.Rows = rg.NumRows()
			for i := range names {
				cr, err := rg.Column(i)
				if err != nil {
					return 0, fmt.Errorf("%s: row group %d column %s: %w", path, g, names[i], err)
				}
				if out.Cols[i], err = column(sch.Column(i), cr, out.Rows); err != nil {
					return 0, fmt.Errorf("%s: row group %d: %w", path, g, err)
				}
			}
		}
		if !fn(out) {
			break
		}
	}
	return rdr.NumRowGroups(), nil
}

// column reads the n values of one column chunk, nulls included.
func column(desc *schema.Column, cr file.ColumnChunkReader, n int64) ([]any, error) {
	def := make([]int16, n)
	var vals []any
	read := 0 // levels read so far
	for int64(read) < n {
		want := n - int64(read)
		var got int64
		var err error
		switch r := cr.(type) {
		case *file.ByteArrayColumnChunkReader:
			got, vals, err = batch(r.ReadBatch, want, def[read:], vals, func(v parquet.ByteArray) any { return string(v) })
		case *file.BooleanColumnChunkReader:
			got, vals, err = batch(r.ReadBatch, want, def[read:], vals, func(v bool) any { return v })
		case *file.Int32ColumnChunkReader:
			got, vals, err = batch(r.ReadBatch, want, def[read:], vals, func(v int32) any { return int64(v) })
		case *file.Int64ColumnChunkReader:
			conv := func(v int64) any { return v }
			if isTimestamp(desc.LogicalType()) {
				conv = func(v int64) any {
					tm := time.UnixMicro(v).UTC()
					return &tm
				}
			}
			got, vals, err = batch(r.ReadBatch, want, def[read:], vals, conv)
		case *file.Float64ColumnChunkReader:
			got, vals, err = batch(r.ReadBatch, want, def[read:], vals, func(v float64) any { return v })
		default:
			return nil, fmt.Errorf("column %s: unexpected reader %T", desc.Name(), cr)
		}
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", desc.Name(), err)
		}
		if got == 0 {
			return nil, fmt.Errorf("column %s: %d of %d values", desc.Name(), read, n)
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
	return out, nil
}

// batch reads up to want levels with a typed column reader's ReadBatch
// into def and appends the values read, converted, to vals.
func batch[T any](read func(int64, []T, []int16, []int16) (int64, int, error), want int64, def []int16, vals []any, conv func(T) any) (int64, []any, error) {
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
