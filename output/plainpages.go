package output

import (
	"encoding/binary"
	"slices"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// Plain strings, page by page.
//
// arrow-go's plain encoder copies each string of a page, after its
// 4-byte length, into a buffer from its pool, grown to the page's size
// (the Go allocator zeroes it), and zeroes the buffer again when the page
// is done; its statistics compare every value with the page's bounds,
// which seedStringStats has already set. For a violations table's
// evidence, pages of a megabyte and more, that was about 0.3 CPU-s of a
// 1 M-line log audit. writePlain goes around the encoder as writeIndices
// does (indexpages.go):
//
//   - the column writer gets each batch as nil strings: it counts the
//     values, its statistics keep the bounds seedStringStats set (a nil
//     value is no bound), and its encoder holds 4 bytes a value, the
//     lengths of empty strings;
//   - writePlain knows where arrow-go ends each page, after the batch
//     that takes the page's encoded size to the data page size or past
//     it, and puts the page's encoding (each string after its
//     little-endian length: Parquet format specification, Encodings,
//     "Plain (PLAIN = 0)") in the pageSwap before that batch, so that the page
//     has it whichever of the two ends it;
//   - the pageSwap compresses it in place of the encoder's bytes.
//
// The bytes are those arrow-go writes (TestPlainPagesMatchArrow,
// FuzzPlainPages, TestOwnPagesSameBytes).

// writePlain writes the n strings of a required BYTE_ARRAY column chunk
// plain, with p, its pageHook: str(i) is string i.
func (e *encoder) writePlain(w *file.ByteArrayColumnChunkWriter, p *pageSwap, n int, str func(i int) []byte) error {
	step := int(w.Properties().WriteBatchSize())
	limit := w.Properties().DataPageSize()
	if cap(e.vals) < step {
		e.vals = make([]parquet.ByteArray, step)
	}
	if len(e.nils) < step {
		e.nils = make([]parquet.ByteArray, step)
	}
	for first := 0; first < n; {
		// The page's batches, then its encoding, in a buffer made that
		// size at once: grown as the values came, by a quarter at a time,
		// the first page of a violations table's evidence (a megabyte and
		// more) was copied some twenty times over, in fresh memory.
		size, end := 0, first
		for end < n && int64(size) < limit {
			for i := end; i < min(end+step, n); i++ {
				size += 4 + len(str(i))
			}
			end = min(end+step, n)
		}
		page := slices.Grow(e.page[:0], size)
		for i := first; i < end; i++ {
			s := str(i)
			page = binary.LittleEndian.AppendUint32(page, uint32(len(s)))
			page = append(page, s...)
		}
		e.page = page
		p.set(page, 4*(end-first))
		for start := first; start < end; start += step {
			b := min(start+step, end)
			vals := e.vals[:b-start]
			for j := range vals {
				vals[j] = str(start + j)
			}
			seedStringStats(w, vals)
			if _, err := w.WriteBatch(e.nils[:b-start], nil, nil); err != nil {
				p.page = nil
				return err
			}
		}
		if err := p.flush(w); err != nil {
			return err
		}
		first = end
	}
	return nil
}
