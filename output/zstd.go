package output

import (
	"io"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/zstd"
)

// The Parquet page writer of arrow-go v18 compresses every page with
// Codec.EncodeLevel, and its built-in zstd codec builds a new zstd encoder
// (with its multi-megabyte history buffers) on every such call: writing a
// table spent most of its time and memory there. RegisterCodec is arrow-go's
// documented way to supply a codec; this one keeps one encoder per level,
// which EncodeAll allows to be shared across goroutines. The bytes it writes
// are ordinary zstd frames.
func init() {
	compress.RegisterCodec(compress.Codecs.Zstd, &zstdCodec{})
}

type zstdCodec struct {
	encoders sync.Map // zstd.EncoderLevel -> *zstd.Encoder
	decOnce  sync.Once
	dec      *zstd.Decoder
}

func (z *zstdCodec) encoder(level int) *zstd.Encoder {
	l := zstd.SpeedDefault
	if level != compress.DefaultCompressionLevel {
		l = zstd.EncoderLevelFromZstd(level)
	}
	if e, ok := z.encoders.Load(l); ok {
		return e.(*zstd.Encoder)
	}
	// Pages are about 1 MiB (parquet's default page size), so a window
	// past 2 MiB finds no more matches; the default (8 MiB at this level)
	// kept a 16 MiB history buffer live for the whole run.
	e, err := zstd.NewWriter(nil, zstd.WithZeroFrames(true), zstd.WithEncoderLevel(l), zstd.WithEncoderConcurrency(zstdSlots()),
		zstd.WithWindowSize(2<<20))
	if err != nil {
		panic(err) // only on invalid options, which are constants here
	}
	actual, _ := z.encoders.LoadOrStore(l, e)
	return actual.(*zstd.Encoder)
}

// zstdSlots is how many pages one level's encoder compresses at once: an
// Encoder runs at most its concurrency of EncodeAll calls and makes the
// others wait. Each slot holds about 6 MB (tables and a 2 MiB history)
// once used, so there is one per four cores: compression is about 6 % of
// an audit's CPU (bench/results/2026-11-27-writers.md), and with one
// slot for all tables it would be the wall of the row group encoders at
// 16 cores. Which slot compresses a page does not change its bytes.
func zstdSlots() int {
	return max(1, (runtime.GOMAXPROCS(0)+3)/4)
}

func (z *zstdCodec) decoder() *zstd.Decoder {
	z.decOnce.Do(func() {
		z.dec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
	})
	return z.dec
}

// Encode compresses src at the default level.
func (z *zstdCodec) Encode(dst, src []byte) []byte {
	return z.encoder(compress.DefaultCompressionLevel).EncodeAll(src, dst[:0])
}

// EncodeLevel compresses src at a zstd level.
func (z *zstdCodec) EncodeLevel(dst, src []byte, level int) []byte {
	return z.encoder(level).EncodeAll(src, dst[:0])
}

// Decode decompresses one block. Like arrow-go's own codec, whose interface
// has no error result, it panics on corrupt data; the page reader recovers.
func (z *zstdCodec) Decode(dst, src []byte) []byte {
	out, err := z.decoder().DecodeAll(src, dst[:0])
	if err != nil {
		panic(err)
	}
	return out
}

// CompressBound is ZSTD_COMPRESSBOUND from zstd.h.
func (z *zstdCodec) CompressBound(n int64) int64 {
	extra := ((128 << 10) - n) >> 11
	if n >= 128<<10 {
		extra = 0
	}
	return n + (n >> 8) + extra
}

// NewReader implements compress.StreamingCodec.
func (z *zstdCodec) NewReader(r io.Reader) io.ReadCloser {
	d, err := zstd.NewReader(r)
	if err != nil {
		return io.NopCloser(errReader{err})
	}
	return d.IOReadCloser()
}

// NewWriter implements compress.StreamingCodec.
func (z *zstdCodec) NewWriter(w io.Writer) io.WriteCloser {
	e, _ := zstd.NewWriter(w)
	return e
}

// NewWriterLevel implements compress.StreamingCodec.
func (z *zstdCodec) NewWriterLevel(w io.Writer, level int) (io.WriteCloser, error) {
	l := zstd.SpeedDefault
	if level != compress.DefaultCompressionLevel {
		l = zstd.EncoderLevelFromZstd(level)
	}
	return zstd.NewWriter(w, zstd.WithEncoderLevel(l))
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// zstdFast is the zstd level of column chunks that are not plain strings.
const zstdFast = 1
