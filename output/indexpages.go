package output

import (
	"bytes"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// Dictionary indices, page by page.
//
// arrow-go's dictionary encoder keeps a page's indices and, when the page
// ends, runs them one by one through its RLE encoder (RleEncoder.Put: a
// call, a buffer append and a bit-writer call per value), then zeroes the
// buffer it wrote them to: most of what encoding a dictionary column
// cost. arrow-go offers no way to hand a column writer an encoded page,
// so writeIndices goes around its encoder, keeping every other part of
// the column writer (levels, counts, statistics, page headers, the
// dictionary page) as it is:
//
//   - the column writer gets the indices as all-null arrays, a whole
//     number of batches long, with the real definition levels: it
//     counts the rows and values and writes the levels, and its encoder
//     keeps no index, so its page ends only when writeIndices says so
//     and its encoded page is the bit-width byte alone;
//   - writeIndices ends each page (FlushCurrentPage) after the batch
//     where arrow-go's encoder would have (indexPageEstimate), with the
//     page's indices encoded by appendRLE;
//   - pageSwap, put in place of the column writer's page writer,
//     compresses the levels followed by that encoding where the column
//     writer asks it to compress the levels and the bit-width byte, and
//     writes the page's header with the uncompressed size of what it
//     compressed.
//
// The bytes are those arrow-go writes (TestIndexPagesMatchArrow,
// FuzzIndexPages). The page writer is a field the column writer does not
// export, reached by reflection as pageBuffers reaches the page buffers:
// where it is not found (a new arrow-go), or the pages are not
// compressed version 1 pages, indexHook returns nil and the caller lets
// arrow-go encode the indices. The writer's scratch space for this is
// the encoder's: one page of encoded values, and zeros for the null
// arrays.

// pageSwap is a column writer's page writer while writeIndices (or
// writePlain) encodes the chunk's values itself.
type pageSwap struct {
	file.PageWriter
	// page is the encoded values of the page the column writer is
	// flushing, nil otherwise; stub is the length of what the column
	// writer's encoder has in their place, at the end of the page.
	page []byte
	stub int
	// used reports that Compress put page in.
	used bool
	// sizes are the uncompressed sizes, as the column writer counted
	// them and as compressed, of the pages not yet written.
	sizes [][2]int32
	// scratch holds a page's levels and values.
	scratch []byte
}

// Compress compresses src, a page's levels and its encoder's stand-in
// bytes, with the encoded values in place of the stand-in.
func (p *pageSwap) Compress(buf *bytes.Buffer, src []byte) []byte {
	if p.page == nil {
		return p.PageWriter.Compress(buf, src)
	}
	if len(src) < p.stub {
		panic(fmt.Sprintf("output: a page of %d bytes whose encoder held %d", len(src), p.stub))
	}
	whole := p.page
	if levels := src[:len(src)-p.stub]; len(levels) > 0 {
		p.scratch = append(append(p.scratch[:0], levels...), p.page...)
		whole = p.scratch
	}
	p.sizes = append(p.sizes, [2]int32{int32(len(src)), int32(len(whole))})
	p.used = true
	return p.PageWriter.Compress(buf, whole)
}

// set makes page, the encoded values of the page the column writer is
// filling, what Compress puts in place of the encoder's stub bytes.
func (p *pageSwap) set(page []byte, stub int) {
	p.page, p.stub, p.used = page, stub, false
}

// flush ends the column writer's page, whose values set gave, unless
// the column writer ended it itself (after a batch).
func (p *pageSwap) flush(w file.ColumnChunkWriter) error {
	var err error
	if pendingValues(w) > 0 {
		err = w.(pageFlusher).FlushCurrentPage()
	}
	if err == nil && !p.used {
		err = fmt.Errorf("output: a page of %d bytes was not compressed", len(p.page))
	}
	p.page = nil
	return err
}

// WriteDataPage writes page, with the uncompressed size of what
// Compress compressed for it.
func (p *pageSwap) WriteDataPage(page file.DataPage) (int64, error) {
	if len(p.sizes) == 0 {
		return p.PageWriter.WriteDataPage(page)
	}
	size := p.sizes[0]
	p.sizes = p.sizes[1:]
	v1, ok := page.(*file.DataPageV1)
	if !ok || v1.UncompressedSize() != size[0] {
		return 0, fmt.Errorf("output: a page written is not the one compressed")
	}
	fixed := file.NewDataPageV1WithConfig(memory.NewBufferBytes(v1.Data()),
		v1.DefinitionLevelEncoding(), v1.RepetitionLevelEncoding(), file.DataPageConfig{
			Num:              v1.NumValues(),
			Encoding:         parquet.Encoding(v1.Encoding()),
			UncompressedSize: size[1],
			Stats:            v1.Statistics(),
			FirstRowIndex:    v1.FirstRowIndex(),
		})
	return p.PageWriter.WriteDataPage(fixed)
}

// indexHook returns the pageSwap of w, a column writer with no value
// yet whose dictionary encoder is about to get a dictionary of entries
// entries; nil where writeIndices cannot go around the encoder. That
// includes pages so small that even the encoder's estimate for no index
// reaches the page size: the column writer would then end each page
// itself.
func indexHook(w file.ColumnChunkWriter, entries int) *pageSwap {
	if indexPageEstimate(indexWidth(entries), 0) >= w.Properties().DataPageSize() {
		return nil
	}
	return pageHook(w)
}

// pageHook puts a pageSwap in place of the page writer of w, a column
// writer with no value yet, and returns it; nil where the field is not
// found or the pages are not compressed version 1 pages.
func pageHook(w file.ColumnChunkWriter) *pageSwap {
	if _, ok := w.(pageFlusher); !ok || arrowPages || w.Properties().DataPageVersion() != parquet.DataPageV1 || pendingValues(w) != 0 {
		return nil
	}
	return hookPager(w)
}

// plainHook is pageHook for a column writer whose encoder is plain.
func plainHook(w file.ColumnChunkWriter) *pageSwap {
	if w.CurrentEncoder().Encoding() != parquet.Encodings.Plain {
		return nil
	}
	return pageHook(w)
}

// arrowPages makes the writers leave every page to arrow-go's encoders,
// as before writeIndices and writePlain: tests compare the bytes.
var arrowPages = false

// writeIndices writes idx, the dictionary indices of a column chunk
// whose dictionary w's encoder holds (entries entries), as arrow-go
// writes them with w.WriteDictIndices(idx, def, nil); p is w's
// indexHook. def holds the definition levels of a nullable column (a
// row whose level is 0 has a placeholder index), nil for a required
// one. before, when not nil, is called with each batch's rows before
// the batch is written (for the page statistics).
func (e *encoder) writeIndices(w file.ColumnChunkWriter, p *pageSwap, entries int, idx []int32, def []int16, before func(start, end int) error) error {
	props := w.Properties()
	width := indexWidth(entries)
	step := int(props.WriteBatchSize())
	limit := props.DataPageSize()
	// The column writer gets the rows in calls of up to nullBatches
	// batches, from a batch's start: it splits a call into the same
	// batches, and its own page-size check never ends a page here.
	first, values := 0, 0 // the page's first row, its values
	pending := 0          // the first row not yet given to the writer
	give := func(end int) error {
		if pending == end {
			return nil
		}
		var d []int16
		if def != nil {
			d = def[pending:end]
		}
		nulls := e.nullIndices(end - pending)
		err := w.WriteDictIndices(nulls, d, nil)
		nulls.Release()
		pending = end
		return err
	}
	for start := 0; start < len(idx); start += step {
		end := min(start+step, len(idx))
		if before != nil {
			if err := before(start, end); err != nil {
				return err
			}
		}
		values += end - start
		if def != nil {
			for _, l := range def[start:end] {
				if l == 0 {
					values--
				}
			}
		}
		if indexPageEstimate(width, values) >= limit {
			if err := give(end); err != nil {
				return err
			}
			if err := e.flushIndices(w, p, width, idx[first:end], def, first); err != nil {
				return err
			}
			first, values = end, 0
		} else if end-pending >= nullBatches*step {
			if err := give(end); err != nil {
				return err
			}
		}
	}
	if first < len(idx) {
		if err := give(len(idx)); err != nil {
			return err
		}
		return e.flushIndices(w, p, width, idx[first:], def, first)
	}
	return nil
}

// nullBatches is the most batches writeIndices gives the column writer
// in one call: its all-null index array is 4 bytes a row.
const nullBatches = 64

// flushIndices ends the column writer's page, whose rows have the
// indices idx, from row first of the chunk on.
func (e *encoder) flushIndices(w file.ColumnChunkWriter, p *pageSwap, width int, idx []int32, def []int16, first int) error {
	if def != nil {
		vals := e.pageIdx[:0]
		for r, i := range idx {
			if def[first+r] != 0 {
				vals = append(vals, i)
			}
		}
		e.pageIdx, idx = vals, vals
	}
	e.page = appendRLE(append(e.page[:0], byte(width)), idx, width)
	p.set(e.page, 1)
	return p.flush(w)
}

// nullIndices returns an array of n null int32 indices: the column
// writer counts them as a batch of levels and puts none in its encoder.
// Release it after use.
func (e *encoder) nullIndices(n int) arrow.Array {
	if len(e.zeros) < 4*n {
		e.zeros = make([]byte, 4*n)
	}
	valid := memory.NewBufferBytes(e.zeros[:(n+7)/8])
	vals := memory.NewBufferBytes(e.zeros[:4*n])
	return array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, n,
		[]*memory.Buffer{valid, vals}, nil, n, 0))
}

// hookPager puts a pageSwap in place of w's page writer and returns
// it, or returns nil where the field is not found or the pages are not
// compressed.
func hookPager(w file.ColumnChunkWriter) *pageSwap {
	v := reflect.ValueOf(w)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	field := fieldByName(v.Elem(), "pager")
	if !field.IsValid() || field.Type() != reflect.TypeFor[file.PageWriter]() {
		return nil
	}
	f := (*file.PageWriter)(unsafe.Pointer(field.UnsafeAddr()))
	if p, ok := (*f).(*pageSwap); ok {
		return p
	}
	if *f == nil || !(*f).HasCompressor() {
		return nil
	}
	p := &pageSwap{PageWriter: *f}
	*f = p
	return p
}
