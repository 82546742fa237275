// Package decompress is the one way repaudit opens a possibly compressed
// input: it tells gzip (also multi-member, as logrotate and CDNs write it),
// bzip2, zstd and plain input apart by their magic bytes, never by the
// file name, and gives back the decompressed bytes.
//
// Sniffing, access logs, listings and documents all read through Reader.
// The WARC reader keeps its own member-by-member gzip and zstd stream
// (record offsets are offsets of members), but it decodes zstd with the
// same options and the same window limit, ZstdOptions and MaxZstdWindow,
// so one file is either readable everywhere or refused everywhere with the
// same message.
//
// # Limits
//
// A zstd frame names the window (history) its decoder must keep. The
// limit is MaxZstdWindow, 128 MiB: the largest window the zstd command
// line tool writes or reads without --long, so every file zstd compresses
// by default is read. A frame that needs more is refused with an *Error
// of kind KindWindow that says how large the window is (RFC 8878
// §3.1.1.1.2), instead of letting one input take gigabytes of memory.
//
// # Errors
//
// Errors of the underlying reader come back unchanged. Problems of the
// compressed data come back as *Error: KindTruncated when the input ends
// inside a member (the bytes before the cut were delivered), KindCorrupt
// for bad data, KindWindow over the window limit.
package decompress

import (
	"bufio"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// MaxZstdWindow is the largest zstd window any input may ask for: the
// zstd tool's default limit (windowLog 27).
const MaxZstdWindow = 128 << 20

// Compression names, as Reader.Compression returns them.
const (
	None  = "none"
	Gzip  = "gzip"
	Bzip2 = "bzip2"
	Zstd  = "zstd"
)

// ErrorKind says what went wrong with compressed data.
type ErrorKind int

// Error kinds.
const (
	KindCorrupt   ErrorKind = iota + 1 // the data does not decode
	KindTruncated                      // the input ends inside a compressed member
	KindWindow                         // a zstd frame needs a window over MaxZstdWindow
)

// Error is a problem of the compressed data (not of the reader under it).
type Error struct {
	Compression string // Gzip, Bzip2 or Zstd
	Kind        ErrorKind
	Err         error // the decoder's error
	Window      uint64
}

func (e *Error) Error() string {
	switch e.Kind {
	case KindTruncated:
		return e.Compression + " input cut short (" + e.Err.Error() + ")"
	case KindWindow:
		if e.Window > 0 {
			return fmt.Sprintf("zstd frame needs a %d MiB window, over the %d MiB limit; decompress it with zstd -d --long=31 first",
				(e.Window+(1<<20)-1)>>20, MaxZstdWindow>>20)
		}
		return fmt.Sprintf("zstd frame needs a window over the %d MiB limit; decompress it with zstd -d --long=31 first", MaxZstdWindow>>20)
	}
	return e.Compression + " input corrupt (" + e.Err.Error() + ")"
}

func (e *Error) Unwrap() error { return e.Err }

// ZstdOptions are the decoder options every zstd reader of repaudit uses:
// one goroutine, the window capped at MaxZstdWindow. extra are appended
// (dictionaries).
func ZstdOptions(extra ...zstd.DOption) []zstd.DOption {
	return append([]zstd.DOption{zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxWindow(MaxZstdWindow), zstd.WithDecoderMaxMemory(1 << 40)}, extra...)
}

// IsZstdWindowError reports whether err (from a zstd decoder made with
// ZstdOptions) is the window limit.
func IsZstdWindowError(err error) bool {
	return errors.Is(err, zstd.ErrWindowSizeExceeded)
}

// ZstdWindow returns the window a zstd frame header asks for (RFC 8878
// §3.1.1.1.2), or 0 when hdr is not a frame header with a window
// descriptor (single-segment frames have none: their window is their
// content size).
func ZstdWindow(hdr []byte) uint64 {
	if len(hdr) < 6 || binary.LittleEndian.Uint32(hdr) != 0xFD2FB528 || hdr[4]&0x20 != 0 {
		return 0
	}
	wd := hdr[5]
	exp := uint(wd>>3) + 10
	base := uint64(1) << exp
	return base + (base/8)*uint64(wd&7)
}

// Detect names the compression of data that starts with magic (at least
// four bytes when the input has them).
func Detect(magic []byte) string {
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		return Gzip
	case len(magic) >= 4 && string(magic[:3]) == "BZh" && magic[3] >= '1' && magic[3] <= '9':
		return Bzip2
	case len(magic) >= 4 && (binary.LittleEndian.Uint32(magic) == 0xFD2FB528 || isSkippable(magic)):
		return Zstd
	}
	return None
}

// IsZstdDictionaryFrame reports whether b starts with the skippable frame
// that holds the dictionary of a .warc.zst file (WARC zstd specification,
// magic 0x184D2A5D).
func IsZstdDictionaryFrame(b []byte) bool {
	return len(b) >= 4 && binary.LittleEndian.Uint32(b) == 0x184D2A5D
}

func isSkippable(b []byte) bool {
	return b[0]&0xf0 == 0x50 && b[1] == 0x2a && b[2] == 0x4d && b[3] == 0x18
}

// Reader decompresses one input. It is not safe for concurrent use.
type Reader struct {
	comp   string
	cnt    *countReader
	raw    *bufio.Reader // stored bytes
	dec    io.Reader     // decompressed bytes; raw when not compressed
	zd     *zstd.Decoder
	err    error
	closed bool
}

// NewReader looks at the first bytes of r and returns a Reader that
// decompresses them. A gzip header that does not parse and a first zstd
// frame over the window limit are errors here; other problems come from
// Read.
func NewReader(r io.Reader) (*Reader, error) {
	d := &Reader{cnt: &countReader{r: r}}
	d.raw = bufio.NewReaderSize(d.cnt, 64<<10)
	magic, err := d.raw.Peek(6)
	if err != nil && err != io.EOF {
		if d.cnt.err != nil {
			return nil, d.cnt.err
		}
		return nil, err
	}
	d.comp = Detect(magic)
	mark := MarkReader{d.raw}
	switch d.comp {
	case Gzip:
		zr, err := gzip.NewReader(mark)
		if err != nil {
			return nil, d.wrap(err)
		}
		d.dec = zr
	case Bzip2:
		d.dec = bzip2.NewReader(mark)
	case Zstd:
		if w := ZstdWindow(magic); w > MaxZstdWindow {
			return nil, &Error{Compression: Zstd, Kind: KindWindow, Err: zstd.ErrWindowSizeExceeded, Window: w}
		}
		zd, err := zstd.NewReader(mark, ZstdOptions()...)
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		d.zd, d.dec = zd, zd
	default:
		d.dec = d.raw
	}
	return d, nil
}

// Compression returns None, Gzip, Bzip2 or Zstd.
func (d *Reader) Compression() string { return d.comp }

// Stored returns how many stored (compressed) bytes have been consumed so
// far, for progress. It runs ahead of the decompressed bytes delivered by
// up to a buffer's worth.
func (d *Reader) Stored() int64 { return d.cnt.n - int64(d.raw.Buffered()) }

// Read reads decompressed bytes. Errors are sticky.
func (d *Reader) Read(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	n, err := d.dec.Read(p)
	if err != nil {
		err = d.wrap(err)
		d.err = err
	}
	return n, err
}

// Close releases decoder resources; it does not close the reader under it.
func (d *Reader) Close() error {
	if d.zd != nil && !d.closed {
		d.zd.Close()
	}
	d.closed = true
	return nil
}

// wrap classifies a decoder error.
func (d *Reader) wrap(err error) error {
	if err == io.EOF {
		return err
	}
	if ioErr, ok := AsIOError(err); ok {
		return ioErr
	}
	if d.comp == None {
		return err
	}
	e := &Error{Compression: d.comp, Kind: KindCorrupt, Err: err}
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		e.Kind = KindTruncated
	case d.comp == Zstd && IsZstdWindowError(err):
		e.Kind = KindWindow
	}
	return e
}

// countReader counts the bytes its reader delivered and keeps the first
// error other than io.EOF.
type countReader struct {
	r   io.Reader
	n   int64
	err error
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}

// IOError marks an error of the stored input so that it can be told from
// a decoder error after passing through a decoder (here and in the WARC
// reader, which decodes member by member).
type IOError struct{ Err error }

func (e *IOError) Error() string { return e.Err.Error() }
func (e *IOError) Unwrap() error { return e.Err }

// AsIOError returns the input error err carries, if it carries one.
func AsIOError(err error) (error, bool) {
	var ioe *IOError
	if errors.As(err, &ioe) {
		return ioe.Err, true
	}
	return nil, false
}

// MarkReader wraps every non-EOF error of R in IOError.
type MarkReader struct{ R io.Reader }

func (m MarkReader) Read(p []byte) (int, error) {
	n, err := m.R.Read(p)
	if err != nil && err != io.EOF {
		err = &IOError{err}
	}
	return n, err
}
