package output

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/repaudit/repaudit/internal/slowtest"
)

// indexFile writes a Parquet file of one dictionary-encoded int32
// column whose dictionary has entries entries and whose rows have the
// indices idx (def: the definition levels of a nullable column, nil for
// a required one; a null row's index is ignored), with page size
// pageSize and batch size batch, and returns its bytes: written by
// arrow-go's encoder (w.WriteDictIndices) when arrowEnc, else by
// writeIndices.
func indexFile(t testing.TB, idx []int32, def []int16, entries, pageSize, batch int, arrowEnc bool) []byte {
	t.Helper()
	rep := parquet.Repetitions.Required
	if def != nil {
		rep = parquet.Repetitions.Optional
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(testCodec),
		parquet.WithDictionaryDefault(true), parquet.WithDataPageSize(int64(pageSize)),
		parquet.WithBatchSize(int64(batch)), parquet.WithStats(true))
	var buf bytes.Buffer
	fw, rgw, cw := oneColumnFile(t, &buf, schema.NewInt32Node("i", rep, -1), props)
	dict := make([]int32, entries)
	for k := range dict {
		dict[k] = int32(3*k + 1)
	}
	var p *pageSwap
	if !arrowEnc {
		if p = indexHook(cw, entries); p == nil {
			return nil // writeIndices leaves this chunk to arrow-go
		}
	}
	de := cw.CurrentEncoder().(dictEncoder)
	da := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, entries,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(dict))}, nil, 0, 0))
	defer da.Release()
	if err := de.PutDictionary(da); err != nil {
		t.Fatal(err)
	}
	var err error
	if arrowEnc {
		var valid *memory.Buffer
		nulls := 0
		if def != nil {
			bits := make([]byte, (len(def)+7)/8)
			for r, l := range def {
				if l != 0 {
					bits[r/8] |= 1 << (r % 8)
				} else {
					nulls++
				}
			}
			valid = memory.NewBufferBytes(bits)
		}
		ia := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, len(idx),
			[]*memory.Buffer{valid, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(idx))}, nil, nulls, 0))
		defer ia.Release()
		err = cw.WriteDictIndices(ia, def, nil)
	} else {
		var e encoder
		err = e.writeIndices(cw, p, entries, idx, def, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	closeAll(t, cw, rgw, fw)
	return buf.Bytes()
}

// sameIndexFile checks that writeIndices writes the file arrow-go's
// encoder writes for these indices, and reports whether it wrote one
// (false: it left pages this small to arrow-go).
func sameIndexFile(t testing.TB, idx []int32, def []int16, entries, pageSize, batch int) bool {
	t.Helper()
	theirs := indexFile(t, idx, def, entries, pageSize, batch, true)
	mine := indexFile(t, idx, def, entries, pageSize, batch, false)
	if mine == nil {
		return false
	}
	if !bytes.Equal(mine, theirs) {
		t.Fatalf("%d indices (width %d, page size %d, batch %d, nullable %v): file of %d bytes, arrow-go's encoder %d",
			len(idx), indexWidth(entries), pageSize, batch, def != nil, len(mine), len(theirs))
	}
	return true
}

// runs returns n indices below entries made of runs: each run is one
// index repeated 1 to maxRun times or, one time in three, up to 20
// distinct indices.
func runs(rng *rand.Rand, n, entries, maxRun int) []int32 {
	idx := make([]int32, 0, n)
	for len(idx) < n {
		k := min(n-len(idx), 1+rng.IntN(maxRun))
		if rng.IntN(3) == 0 {
			for range min(k, 20) {
				idx = append(idx, int32(rng.IntN(entries)))
			}
			continue
		}
		v := int32(rng.IntN(entries))
		for range k {
			idx = append(idx, v)
		}
	}
	return idx
}

// TestIndexPagesMatchArrow checks writeIndices against arrow-go's own
// encoder on the run patterns its encoder decides between: short and
// long repeated runs, literal runs up to and past 63 groups, tails of 1
// to 7 values after either, nulls, pages ended by size, bit widths 1 to
// 20. (The choice of runs does not depend on the width; TestRLEDecodes
// covers the packing at every width to 32.)
func TestIndexPagesMatchArrow(t *testing.T) {
	rep := func(v int32, n int) []int32 { return slices.Repeat([]int32{v}, n) }
	seq := func(n int) []int32 {
		s := make([]int32, n)
		for i := range s {
			s[i] = int32(i % 7)
		}
		return s
	}
	cases := []struct {
		name string
		idx  []int32
	}{
		{"one", []int32{1}},
		{"zeros", rep(0, 100)},
		{"seven equal", rep(2, 7)},
		{"eight equal", rep(2, 8)},
		{"nine equal", rep(2, 9)},
		{"literal then tail", append(seq(16), 3, 3, 3)},
		{"literal 63 groups", seq(504)},
		{"literal 64 groups and tail", seq(515)},
		{"run then equal tail", append(rep(4, 20), 5, 5, 5)},
		{"run then mixed tail", append(rep(4, 20), 5, 6)},
		{"7 equal then run", append(append(seq(1), rep(3, 7)...), rep(3, 12)...)},
		{"runs between literals", slices.Concat(seq(24), rep(1, 8), seq(8), rep(2, 30), seq(5))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sameIndexFile(t, c.idx, nil, 7, 1<<20, 1024)
		})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for width := 1; width <= 20; width++ {
		entries := 1<<(width-1) + 1
		t.Run(fmt.Sprintf("width %d", width), func(t *testing.T) {
			if width > 16 {
				slowtest.Skip(t, "dictionaries of 2^16 entries and more")
			}
			for _, maxRun := range []int{3, 12, 40} {
				n := 1 + rng.IntN(3000)
				sameIndexFile(t, runs(rng, n, entries, maxRun), nil, entries, 1<<20, 1024)
			}
		})
	}
	t.Run("pages", func(t *testing.T) {
		// The encoder's estimate for no index at width 9 is 578
		// bytes: a page size of 1 leaves the chunk to arrow-go.
		for _, page := range []int{1, 600, 700, 3000} {
			for _, batch := range []int{1, 7, 64, 1024} {
				if wrote := sameIndexFile(t, runs(rng, 5000, 300, 12), nil, 300, page, batch); wrote != (page > 1) {
					t.Errorf("page size %d: writeIndices wrote %v", page, wrote)
				}
			}
		}
	})
	t.Run("nulls", func(t *testing.T) {
		for _, page := range []int{400, 1 << 20} {
			idx := runs(rng, 4000, 50, 16)
			def := make([]int16, len(idx))
			for r := range def {
				if rng.IntN(5) != 0 || r > 3000 && r < 3100 {
					def[r] = 1
				}
			}
			if !sameIndexFile(t, idx, def, 50, page, 100) {
				t.Errorf("page size %d: writeIndices wrote nothing", page)
			}
		}
	})
}

// testCodec compresses the pages of indexFile and plainFile: zstd, as
// the writer's tables, or snappy in the fuzz tests (zstd's encoder is
// slow to start, a few files a second under the fuzzer).
var testCodec = compress.Codecs.Zstd

// FuzzIndexPages compares writeIndices with arrow-go's encoder on
// indices made from the fuzzer's bytes: each byte adds a run of equal
// indices (its low bits the length, up to 32) or one index.
func FuzzIndexPages(f *testing.F) {
	testCodec = compress.Codecs.Snappy
	defer func() { testCodec = compress.Codecs.Zstd }()
	f.Add([]byte{0x81, 0x02, 0x03, 0xff, 0x10}, uint16(5), uint16(64), false)
	f.Add(bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, 70), uint16(300), uint16(1024), true)
	f.Fuzz(func(t *testing.T, data []byte, entries, page uint16, nullable bool) {
		if len(data) > 1<<12 {
			return
		}
		// Widths 1 to 12 here; TestIndexPagesMatchArrow has wider ones.
		entries = 1 + entries%4096
		var idx []int32
		var def []int16
		for k, b := range data {
			v := (int32(b)*131 + int32(k)) % int32(entries)
			n := 1
			if b&0x80 != 0 {
				n = 1 + int(b&0x1f)
			}
			for range n {
				idx = append(idx, v)
			}
		}
		if len(idx) == 0 || len(idx) > 1<<14 {
			return
		}
		if nullable {
			def = make([]int16, len(idx))
			for r := range def {
				if data[r%len(data)]&1 == 0 {
					def[r] = 1
				}
			}
		}
		sameIndexFile(t, idx, def, int(entries), 1+int(page), 8+int(page)%500)
	})
}

// rleDecode decodes n values at bit width width from the RLE/bit-packed
// hybrid (Parquet format specification, Encodings, "Run Length
// Encoding / Bit-Packing Hybrid (RLE = 3)"): a ULEB128
// header, then for a bit-packed run (low bit 1) header>>1 groups of 8
// values packed from the least significant bit, for a repeated run
// (low bit 0) the value in ceil(width/8) little-endian bytes, repeated
// header>>1 times. It also returns each run's kind and length.
func rleDecode(t *testing.T, data []byte, width, n int) (vals []int32, shape []int) {
	t.Helper()
	for len(vals) < n {
		h, k := binary.Uvarint(data)
		if k <= 0 {
			t.Fatalf("bad run header after %d values", len(vals))
		}
		data = data[k:]
		if h&1 == 1 {
			groups := int(h >> 1)
			nbits := groups * 8 * width
			if len(data) < nbits/8 {
				t.Fatalf("bit-packed run of %d groups: %d bytes left", groups, len(data))
			}
			for v := range groups * 8 {
				var x int32
				for b := range width {
					bit := v*width + b
					x |= int32(data[bit/8]>>(bit%8)&1) << b
				}
				vals = append(vals, x)
			}
			data = data[nbits/8:]
			shape = append(shape, -groups)
			continue
		}
		nb := (width + 7) / 8
		var x uint32
		for b := range nb {
			x |= uint32(data[b]) << (8 * b)
		}
		data = data[nb:]
		for range h >> 1 {
			vals = append(vals, int32(x))
		}
		shape = append(shape, int(h>>1))
	}
	if len(data) != 0 {
		t.Fatalf("%d bytes left after %d values", len(data), n)
	}
	return vals[:n], shape
}

// TestRLEDecodes checks appendRLE at every bit width from 0 to 32 by
// decoding what it writes (rleDecode), with runs of every kind and
// lengths that are not multiples of 8: the values come back, bit-packed
// runs hold at most 63 groups, and repeated runs are at least 8 long
// except a run of equal values at the end.
func TestRLEDecodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for width := 0; width <= 32; width++ {
		for trial := range 20 {
			n := rng.IntN(2000)
			// The shape of runs, then a random value of the width for
			// each index.
			idx := runs(rng, n, 1000, 30)
			vals := map[int32]int32{}
			for i, x := range idx {
				if _, ok := vals[x]; !ok && width > 0 {
					vals[x] = int32(uint32(rng.Uint64()) >> (32 - width))
				}
				idx[i] = vals[x]
			}
			data := appendRLE([]byte{0xee}, idx, width)
			if data[0] != 0xee {
				t.Fatal("appendRLE changed what dst held")
			}
			got, shape := rleDecode(t, data[1:], width, len(idx))
			if !slices.Equal(got, idx) {
				t.Fatalf("width %d trial %d: values differ", width, trial)
			}
			for k, s := range shape {
				if s < -maxLiteralGroups || s > 0 && s < 8 && k != len(shape)-1 {
					t.Fatalf("width %d trial %d: run %d of %d (negative: bit-packed groups)", width, trial, k, s)
				}
			}
		}
	}
}

// BenchmarkIndexPages times writing the indices of a column chunk of
// 100,000 rows of short runs, with arrow-go's encoder and with
// writeIndices.
func BenchmarkIndexPages(b *testing.B) {
	idx := runs(rand.New(rand.NewPCG(5, 6)), 100000, 1000, 6)
	for _, arrowEnc := range []bool{true, false} {
		b.Run(fmt.Sprintf("arrow=%v", arrowEnc), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				indexFile(b, idx, nil, 1000, 1<<20, 1024, arrowEnc)
			}
		})
	}
}

// BenchmarkAppendRLE times appendRLE on 100,000 indices of short runs at
// a few bit widths.
func BenchmarkAppendRLE(b *testing.B) {
	for _, width := range []int{3, 10, 13, 20} {
		idx := runs(rand.New(rand.NewPCG(5, 6)), 100000, 1<<(width-1)+1, 3)
		b.Run(fmt.Sprintf("width=%d", width), func(b *testing.B) {
			var out []byte
			for b.Loop() {
				out = appendRLE(out[:0], idx, width)
			}
		})
	}
}
