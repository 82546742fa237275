package output

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// serialFetchesSHA256 is the SHA-256 of the fetches.parquet that
// writeAdaptive writes, as the writer wrote it before the column chunks
// of a row group were encoded in parallel: one column after the other,
// with arrow-go's serial row group writer (file.Writer.AppendRowGroup).
// Dictionary, delta, plain and plain-fast chunks, columns that turn plain
// in a row group, nullable times and a last row group too small to be
// adaptive are all in it.
const serialFetchesSHA256 = "620f4ebcd679ff78a79648f0cac411578106e6e876f640ef5ae66a359e69f073"

// serialFetchesBytesSHA256 is serialFetchesSHA256 for row groups of at
// most 4 MiB of buffered rows (Options.RowGroupBytes).
const serialFetchesBytesSHA256 = "ed33763180304d0b45c8cb44e5bf7f4748f20462c1c2b1408c033a91d6431db4"

// writeAdaptive writes 20,000 rows of adaptiveRow in row groups of at
// most 8192 rows and rgBytes bytes (0: the default) with the given number
// of encoders and returns the fetches file.
func writeAdaptive(t *testing.T, encoders, rgBytes int) []byte {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "o")
	w, err := Create(dir, Options{RowGroupRows: 8192, RowGroupBytes: rgBytes, Encoders: encoders})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for i := range 20000 {
		r := adaptiveRow(i)
		if err := w.Fetch(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "fetches.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestEncodersSameBytes checks that the number of goroutines appending
// rows and encoding row groups changes no byte of the file, and that the
// file is the one the serial writer wrote: with row groups ended by their
// row count, and with row groups of 4 MiB ended by their bytes, where a
// column's dictionary outgrows its page and the column turns plain inside
// each row group (user_agent after about 3450 rows), which moves the
// buffered bytes past the budget about 1600 rows later.
func TestEncodersSameBytes(t *testing.T) {
	for _, tc := range []struct {
		rgBytes int
		sha256  string
	}{
		{0, serialFetchesSHA256},
		{4 << 20, serialFetchesBytesSHA256},
	} {
		ref := writeAdaptive(t, 1, tc.rgBytes)
		sum := sha256.Sum256(ref)
		if got := hex.EncodeToString(sum[:]); got != tc.sha256 {
			t.Errorf("budget %d, one encoder: SHA-256 %s, want %s (the serial writer's)", tc.rgBytes, got, tc.sha256)
		}
		for _, n := range []int{2, 3, 16} {
			if got := writeAdaptive(t, n, tc.rgBytes); !bytes.Equal(got, ref) {
				t.Errorf("budget %d, %d encoders: %d bytes differ from one encoder's %d", tc.rgBytes, n, len(got), len(ref))
			}
		}
	}
}

// TestPendingValues checks that pendingValues finds the count of values
// a column writer holds for its next page (arrow-go's private field), so
// that flushPage compresses the last page on a worker: 0 before a write,
// the values written after, 0 again once the page is flushed.
func TestPendingValues(t *testing.T) {
	var buf bytes.Buffer
	fw, rgw := int64File(t, &buf, nil, "v")
	cw, err := rgw.Column(0)
	if err != nil {
		t.Fatal(err)
	}
	if got := pendingValues(cw); got != 0 {
		t.Fatalf("before a write: %d pending values, want 0", got)
	}
	if _, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch([]int64{1, 2, 3}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := pendingValues(cw); got != 3 {
		t.Fatalf("after 3 values: %d pending values, want 3 (has arrow-go renamed numBufferedValues?)", got)
	}
	if err := flushPage(cw); err != nil {
		t.Fatal(err)
	}
	if got := pendingValues(cw); got != 0 {
		t.Errorf("after flushPage: %d pending values, want 0", got)
	}
	if err := rgw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDropPageBuffers checks that dropPageBuffers finds the page buffers
// of a closed column writer (arrow-go's private fields) and empties
// them.
func TestDropPageBuffers(t *testing.T) {
	var buf bytes.Buffer
	fw, rgw := int64File(t, &buf, plainZstd(), "v")
	cw, err := rgw.Column(0)
	if err != nil {
		t.Fatal(err)
	}
	vals := squares(10000)
	if _, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch(vals, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := cw.Close(); err != nil {
		t.Fatal(err)
	}
	if got := pageBufferCap(cw); got < 8*len(vals) {
		t.Fatalf("page buffers of a closed writer of %d int64: %d bytes (has arrow-go renamed uncompressedData or compressedTemp?)", len(vals), got)
	}
	dropPageBuffers(cw)
	if got := pageBufferCap(cw); got != 0 {
		t.Errorf("after dropPageBuffers: %d bytes of page buffers, want 0", got)
	}
	if err := rgw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestLendPageBuffers checks that a pagePool's buffers go to each
// column writer and come back with what the pages grew them to, so that
// the next column chunk's writer starts with them (arrow-go's private
// fields: it fails if a new arrow-go moves them), and that the bytes
// written are those of writers that grow their own.
func TestLendPageBuffers(t *testing.T) {
	vals := squares(10000)
	write := func(pp *pagePool) []byte {
		var buf bytes.Buffer
		fw, rgw := int64File(t, &buf, plainZstd(), "a", "b")
		for c := range 2 {
			cw, err := rgw.Column(c)
			if err != nil {
				t.Fatal(err)
			}
			var lent *pageBufs
			if pp != nil {
				lent = pp.lend(cw)
				if c == 1 {
					if got := pageBufferCap(cw); got < 8*len(vals) {
						t.Errorf("second column writer: %d bytes of page buffers lent, want at least %d", got, 8*len(vals))
					}
				}
			}
			if _, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch(vals, nil, nil); err != nil {
				t.Fatal(err)
			}
			if err := flushPage(cw); err != nil {
				t.Fatal(err)
			}
			if pp != nil {
				pp.takeBack(cw, lent)
				if got := pageBufferCap(cw); got != 0 {
					t.Errorf("column %d: writer keeps %d bytes of page buffers after takeBack, want 0", c, got)
				}
			}
			closeAll(t, cw)
		}
		closeAll(t, rgw, fw)
		return buf.Bytes()
	}
	var pp pagePool
	lent, own := write(&pp), write(nil)
	if pp.spare == nil {
		t.Errorf("pool has no spare page buffers after two chunks")
	} else if got := pp.spare.cap(); got < 8*len(vals) {
		t.Errorf("pool's spare page buffers after two chunks: %d bytes, want at least %d", got, 8*len(vals))
	}
	if !bytes.Equal(lent, own) {
		t.Errorf("file written with lent page buffers differs from one written without (%d and %d bytes)", len(lent), len(own))
	}
}

// int64File starts a Parquet file in buf of required int64 columns
// named names, written with props (nil: arrow-go's defaults), and its
// buffered row group.
func int64File(t *testing.T, buf *bytes.Buffer, props *parquet.WriterProperties, names ...string) (*file.Writer, file.BufferedRowGroupWriter) {
	t.Helper()
	fields := make(schema.FieldList, len(names))
	for i, n := range names {
		fields[i] = schema.NewInt64Node(n, parquet.Repetitions.Required, -1)
	}
	root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, fields, -1)
	if err != nil {
		t.Fatal(err)
	}
	var opts []file.WriteOption
	if props != nil {
		opts = append(opts, file.WithWriterProps(props))
	}
	fw := file.NewParquetWriter(buf, root, opts...)
	return fw, fw.AppendBufferedRowGroup()
}

// oneColumnFile starts a Parquet file in buf whose schema is the one
// column col, written with props: its writer, its row group's and the
// column's.
func oneColumnFile(t testing.TB, buf *bytes.Buffer, col schema.Node, props *parquet.WriterProperties) (*file.Writer, file.BufferedRowGroupWriter, file.ColumnChunkWriter) {
	t.Helper()
	root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{col}, -1)
	if err != nil {
		t.Fatal(err)
	}
	fw := file.NewParquetWriter(buf, root, file.WithWriterProps(props))
	rgw := fw.AppendBufferedRowGroup()
	cw, err := rgw.Column(0)
	if err != nil {
		t.Fatal(err)
	}
	return fw, rgw, cw
}

// closeAll closes the writers in order: a column's, its row group's,
// the file's.
func closeAll(t testing.TB, ws ...interface{ Close() error }) {
	t.Helper()
	for _, w := range ws {
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// plainZstd are writer properties with zstd pages and no dictionary.
func plainZstd() *parquet.WriterProperties {
	return parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDictionaryDefault(false))
}

// squares returns n int64 values, i*i.
func squares(n int) []int64 {
	vals := make([]int64, n)
	for i := range vals {
		vals[i] = int64(i * i)
	}
	return vals
}
