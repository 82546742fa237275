package output

import (
	"bytes"
	"reflect"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// statsTruncate is the most bytes a string column's min or max statistic
// takes. Engines skip row groups by these values (a host, an agent, a URL
// prefix), and a prefix serves that as well as the whole value: DuckDB
// and Spark's Parquet writers keep 64-byte bounds too (parquet-mr's
// truncate length), while arrow-go, given a longer value, drops the
// statistic altogether (MaxStatsSize). The min is cut to a prefix (which
// is not greater than the value); the max is cut to a prefix whose last
// character is incremented (which is greater than every value that
// starts with the prefix), so both stay true bounds.
const statsTruncate = 64

// lowerBound returns v, or when longer than statsTruncate bytes its
// longest prefix of whole UTF-8 characters that fits.
func lowerBound(v []byte) []byte {
	if len(v) <= statsTruncate {
		return v
	}
	n := statsTruncate
	for n > 0 && !utf8.RuneStart(v[n]) {
		n--
	}
	return v[:n]
}

// upperBound returns v, or when longer than statsTruncate bytes a string
// of at most statsTruncate bytes greater than v and than every string
// that shares its prefix; ok is false when there is none (a prefix of
// U+10FFFF only).
func upperBound(v []byte) (b []byte, ok bool) {
	if len(v) <= statsTruncate {
		return v, true
	}
	p := lowerBound(v)
	for len(p) > 0 {
		r, size := utf8.DecodeLastRune(p)
		head := p[:len(p)-size]
		switch {
		case r == utf8.RuneError && size == 1:
			// An invalid byte (not written: strings are made valid
			// UTF-8) is incremented as a byte.
			if c := p[len(p)-1]; c < 0xff {
				return append(bytes.Clone(head), c+1), true
			}
		case r < utf8.MaxRune:
			r++
			if r >= 0xd800 && r <= 0xdfff {
				r = 0xe000 // surrogates are not characters
			}
			return utf8.AppendRune(bytes.Clone(head), r), true
		}
		p = head
	}
	return nil, false
}

// seedStringStats sets the min/max of a string column's page statistics
// to the truncated bounds of vals before they are written. The column
// writer then compares each value with those bounds and keeps them (a
// prefix is less than the value, the incremented prefix greater), so the
// bounds reach the page and column chunk statistics in place of values
// too long to keep.
func seedStringStats(w file.ColumnChunkWriter, vals []parquet.ByteArray) {
	st, ok := w.PageStatistics().(*metadata.ByteArrayStatistics)
	if !ok || len(vals) == 0 {
		return
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals[1:] {
		if bytes.Compare(v, lo) < 0 {
			lo = v
		} else if bytes.Compare(v, hi) > 0 {
			hi = v
		}
	}
	seedBounds(st, lo, hi)
}

// seedBounds widens st's min/max to the truncated bounds of lo and hi.
func seedBounds(st *metadata.ByteArrayStatistics, lo, hi []byte) {
	up, ok := upperBound(hi)
	if !ok {
		up = hi // longer than statsTruncate: the statistic is dropped
	}
	if lo == nil {
		lo = []byte{}
	}
	if up == nil {
		up = []byte{}
	}
	st.SetMinMax(lowerBound(lo), up)
}

// typedStatistics is the type of arrow-go's column writer's statistics.
var typedStatistics = reflect.TypeFor[metadata.TypedStatistics]()

// dropDistinctCount makes the column chunk that w writes carry no
// distinct_count. arrow-go v18.4.1 starts the statistics of each column
// chunk and of its first page with a distinct count of 0 marked as set,
// and never counts: readers would take 0 for the number of distinct
// values. The page statistics are reset through the writer's interface;
// the chunk's are not exported, so they are reached by reflection on
// the writer's field chunkStatistics (TestNoDistinctCount fails if a new
// arrow-go moves it). The null count stays set (0, counted as written).
func dropDistinctCount(w file.ColumnChunkWriter) {
	reset := func(st metadata.TypedStatistics) {
		if st != nil && st.HasDistinctCount() {
			st.Reset()
			st.IncNulls(0)
		}
	}
	reset(w.PageStatistics())
	v := reflect.ValueOf(w)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return
	}
	f := fieldByName(v.Elem(), "chunkStatistics")
	if !f.IsValid() || f.Type() != typedStatistics || !f.CanAddr() {
		return
	}
	st, _ := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(metadata.TypedStatistics)
	reset(st)
}
