package warc

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/repaudit/repaudit/internal/decompress"
	"github.com/repaudit/repaudit/problem"
)

// Internal stream errors. The member stream turns the decoder's many
// failure shapes into these few so the record parser can decide what was
// lost.
var (
	// errCut means the stored input ended inside a compression member.
	errCut = errors.New("warc: input cut inside a compressed member")
	// errSkipped means corrupt compressed bytes were skipped: the
	// decompressed stream jumps from one point to another. It is returned
	// once, after which reading continues with the next good member.
	errSkipped = errors.New("warc: corrupt compressed data skipped")
)

// Limits on what outside bytes may make the stream allocate.
const (
	maxZstdDict     = 8 << 20
	maxBoundaries   = 8192
	rawBufferSize   = 256 << 10
	magicSearchStep = 64 << 10
)

type compressionKind int

const (
	kindNone compressionKind = iota
	kindGzip
	kindZstd
	kindBzip2 // whole-file stream through internal/decompress
)

// countReader counts the bytes its reader delivered and makes its errors
// sticky, so that an error a buffered reader swallowed comes back.
type countReader struct {
	r   io.Reader
	n   int64
	err error
}

func (c *countReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// boundary marks where compression members (gzip members, zstd frames)
// start in the decompressed stream. Members that produce no bytes start at
// the same decompressed offset as the next one; first and last keep the
// stored offsets of the first and the last of them: a record that ends at
// u ends in storage at first, a record that starts at u starts at last.
type boundary struct {
	u     int64 // decompressed offset
	first int64 // stored offset of the first member starting at u
	last  int64 // stored offset of the last member starting at u
}

// memberStream decompresses a stored stream member by member (gzip members,
// zstd frames) and records each member's offsets, so that the parser can
// tell whether a record sits in a member of its own and where that member
// is stored. Its Read never crosses a member boundary.
type memberStream struct {
	kind compressionKind
	src  *bufio.Reader // stored bytes
	cnt  *countReader  // under src
	u    int64         // decompressed bytes produced

	gz     *gzip.Reader
	zd     *zstd.Decoder
	zframe frameLimiter
	// frameWindow is the window the current zstd frame asks for (0 when
	// its header has no window descriptor), for the limit's message.
	frameWindow uint64
	in          bool       // inside a member
	dec         io.Reader  // the current member's decoder
	start       int64      // stored offset of the current member
	members     int64      // members that produced at least one byte
	bounds      []boundary // pending boundaries, oldest first
	err         error      // terminal: io.EOF, errCut or an I/O error
	cutAt       int64      // stored offset where input ended inside a member
	report      func(code problem.Code, sev string, stored int64, msg string)
	skipped     bool // a corrupt region is being skipped (report once)
	// pendingSkip makes errSkipped sticky until the parser calls ack, so
	// that no buffered reader above can swallow it.
	pendingSkip bool
	// ahead, when set, plays back what another memberStream read on a
	// goroutine of its own (ahead.go); onBoundary, set on that one, is
	// told of each boundary instead of keeping it.
	ahead      *readAhead
	onBoundary func(stored int64)
}

// ack tells the stream that the parser has seen errSkipped.
func (m *memberStream) ack() { m.pendingSkip = false }

func newMemberStream(kind compressionKind, src *bufio.Reader, cnt *countReader, report func(code problem.Code, sev string, stored int64, msg string)) *memberStream {
	return &memberStream{kind: kind, src: src, cnt: cnt, report: report}
}

// stored returns the stored offset of the next byte src will deliver
// (read ahead: would deliver after the Read played back).
func (m *memberStream) stored() int64 {
	if m.ahead != nil {
		return m.ahead.stored
	}
	return m.cnt.n - int64(m.src.Buffered())
}

func (m *memberStream) addBoundary(stored int64) {
	if m.onBoundary != nil {
		m.onBoundary(stored)
		return
	}
	if n := len(m.bounds); n > 0 && m.bounds[n-1].u == m.u {
		m.bounds[n-1].last = stored
		return
	}
	if len(m.bounds) >= maxBoundaries {
		// Only pathological inputs (members of a few bytes each) get
		// here; dropping old boundaries can only make offsets less exact.
		m.bounds = append(m.bounds[:0], m.bounds[len(m.bounds)/2:]...)
	}
	m.bounds = append(m.bounds, boundary{u: m.u, first: stored, last: stored})
}

// trim drops boundaries no longer needed: all before u except the last one
// at or before u (kept to name the member a position falls in).
func (m *memberStream) trim(u int64) {
	i := 0
	for i+1 < len(m.bounds) && m.bounds[i+1].u <= u {
		i++
	}
	if i > 0 {
		m.bounds = append(m.bounds[:0], m.bounds[i:]...)
	}
}

// memberAt returns the boundary of the member holding decompressed offset
// u, if known.
func (m *memberStream) memberAt(u int64) (boundary, bool) {
	var found boundary
	ok := false
	for _, b := range m.bounds {
		if b.u > u {
			break
		}
		found, ok = b, true
	}
	return found, ok
}

// boundaryIn returns the first boundary with lo <= u <= hi.
func (m *memberStream) boundaryIn(lo, hi int64) (boundary, bool) {
	for _, b := range m.bounds {
		if b.u > hi {
			break
		}
		if b.u >= lo {
			return b, true
		}
	}
	return boundary{}, false
}

// lastBoundaryIn returns the last boundary with lo <= u <= hi.
func (m *memberStream) lastBoundaryIn(lo, hi int64) (boundary, bool) {
	var found boundary
	ok := false
	for _, b := range m.bounds {
		if b.u > hi {
			break
		}
		if b.u >= lo {
			found, ok = b, true
		}
	}
	return found, ok
}

// Read implements io.Reader over the decompressed stream. It returns
// errSkipped once after skipping corrupt data, errCut when the input ends
// inside a member, and io.EOF at a clean end.
func (m *memberStream) Read(p []byte) (int, error) {
	if m.ahead != nil {
		return m.readAheadInto(p)
	}
	for {
		if m.pendingSkip {
			return 0, errSkipped
		}
		if m.err != nil {
			return 0, m.err
		}
		if !m.in {
			skipped, err := m.next()
			if err != nil {
				m.err = err
				if err == io.EOF {
					m.addBoundary(m.stored())
				}
			}
			if skipped {
				m.pendingSkip = true
			}
			continue
		}
		n, err := m.dec.Read(p)
		if n > 0 && m.u == m.lastStartU() {
			m.members++
		}
		m.u += int64(n)
		switch {
		case err == nil:
			if n == 0 {
				continue
			}
			return n, nil
		case err == io.EOF:
			m.in = false
			if n > 0 {
				return n, nil
			}
		case errors.Is(err, gzip.ErrChecksum):
			m.in = false
			m.report(CodeGzipChecksum, SevWarning, m.start, "gzip member checksum or size does not match its data")
			if n > 0 {
				return n, nil
			}
		case err == io.ErrUnexpectedEOF || errors.Is(err, errFrameCut):
			m.in = false
			m.err = m.cut(m.start)
			return n, nil // errCut follows on the next call
		case isIOError(err):
			m.err = err
			return n, nil
		case decompress.IsZstdWindowError(err):
			m.in = false
			m.report(CodeZstdWindow, SevError, m.start, (&decompress.Error{Compression: decompress.Zstd, Kind: decompress.KindWindow,
				Err: err, Window: m.frameWindow}).Error()+"; its records are skipped")
			m.skipped = true
			m.resume()
			if n > 0 {
				return n, nil
			}
		default:
			// Corrupt member: look for the next member header.
			m.in = false
			m.report(CodeCorruptCompression, SevError, m.start,
				fmt.Sprintf("corrupt %s member: %v; skipping to the next member", m.kindName(), err))
			m.skipped = true
			m.resume()
			if n > 0 {
				return n, nil
			}
		}
	}
}

// resume searches the next member after corrupt data; the next Read
// returns errSkipped.
func (m *memberStream) resume() {
	m.pendingSkip = true
	found, err := m.searchMagic()
	if err != nil {
		m.err = err
		return
	}
	if !found {
		m.err = io.EOF
		m.addBoundary(m.stored())
	}
}

func (m *memberStream) lastStartU() int64 {
	if n := len(m.bounds); n > 0 {
		return m.bounds[n-1].u
	}
	return -1
}

func (m *memberStream) kindName() string {
	if m.kind == kindZstd {
		return "zstd"
	}
	return "gzip"
}

// isIOError tells an error of the underlying reader, passed through a
// decoder, from a decoding error.
func isIOError(err error) bool {
	_, ok := decompress.AsIOError(err)
	return ok
}

// next starts the next member. skipped reports that bytes were skipped
// to find it.
func (m *memberStream) next() (skipped bool, err error) {
	for {
		b, err := m.src.Peek(4)
		if len(b) == 0 {
			if err == io.EOF {
				return skipped, io.EOF
			}
			return skipped, err
		}
		if err != nil && err != io.EOF {
			return skipped, err
		}
		at := m.stored()
		if err == io.EOF && m.magicPrefix(b) {
			return skipped, m.cut(at)
		}
		switch {
		case m.kind == kindGzip && len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b:
			ok, err := m.startGzip(at)
			if err != nil {
				return skipped, err
			}
			if ok {
				m.skipped = false
				return skipped, nil
			}
		case m.kind == kindZstd && len(b) == 4 && isZstdMagic(b):
			ok, err := m.startZstd(at)
			if err != nil {
				return skipped, err
			}
			if ok {
				m.skipped = false
				return skipped, nil
			}
		case m.kind == kindZstd && len(b) == 4 && isSkippableMagic(b):
			if err := m.skipFrame(at); err != nil {
				return skipped, err
			}
			continue
		default:
			if allZero(b) && m.zeroTail() {
				// NUL padding at the end of the file is not worth a
				// problem: some writers pad to a block size.
				return skipped, io.EOF
			}
			if !m.skipped {
				m.report(CodeTrailingGarbage, SevError, at,
					fmt.Sprintf("bytes that are not a %s member; skipping to the next member", m.kindName()))
				m.skipped = true
			}
		}
		// Not a usable member here: skip at least one byte and search.
		skipped = true
		if _, err := m.src.Discard(1); err != nil {
			return skipped, err
		}
		found, err := m.searchMagic()
		if err != nil {
			return skipped, err
		}
		if !found {
			return skipped, io.EOF
		}
	}
}

// magicPrefix reports whether b, shorter than a member's magic number,
// is the start of one: the input was cut right after a member began.
func (m *memberStream) magicPrefix(b []byte) bool {
	if m.kind == kindGzip {
		return len(b) < 2 && b[0] == 0x1f
	}
	return len(b) < 4 && (bytes.HasPrefix([]byte{0x28, 0xb5, 0x2f, 0xfd}, b) ||
		b[0]&0xf0 == 0x50 && bytes.HasPrefix([]byte{0x2a, 0x4d, 0x18}, b[1:]))
}

// zeroTail reports whether the rest of the stored stream is NUL bytes, and
// if so consumes it. It stops looking after the buffer's worth.
func (m *memberStream) zeroTail() bool {
	b, err := m.src.Peek(m.src.Size())
	if err != io.EOF || !allZero(b) {
		return false
	}
	m.src.Discard(len(b))
	return true
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// searchMagic discards stored bytes up to the next possible member start.
func (m *memberStream) searchMagic() (bool, error) {
	var magic []byte
	if m.kind == kindGzip {
		magic = []byte{0x1f, 0x8b, 0x08}
	} else {
		magic = []byte{0x28, 0xb5, 0x2f, 0xfd}
	}
	for {
		b, err := m.src.Peek(min(m.src.Size(), magicSearchStep))
		if i := bytes.Index(b, magic); i >= 0 {
			m.src.Discard(i)
			return true, nil
		}
		if err != nil {
			if err == io.EOF {
				m.src.Discard(len(b))
				return false, nil
			}
			return false, err
		}
		m.src.Discard(len(b) - len(magic) + 1)
	}
}

// startGzip opens the gzip member at stored offset at. ok is false when the
// header is not valid (the caller then searches on).
func (m *memberStream) startGzip(at int64) (ok bool, err error) {
	if m.gz == nil {
		m.gz = new(gzip.Reader)
	}
	if err := m.gz.Reset(m.src); err != nil {
		if isIOError(err) {
			return false, err
		}
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return false, m.cut(at)
		}
		if !m.skipped {
			m.report(CodeCorruptCompression, SevError, at, fmt.Sprintf("bad gzip member header: %v; skipping to the next member", err))
			m.skipped = true
		}
		return false, nil
	}
	m.gz.Multistream(false)
	m.dec = m.gz
	m.begin(at)
	return true, nil
}

// cut records that the input ended inside the member starting at stored
// offset at, and returns errCut.
func (m *memberStream) cut(at int64) error {
	m.start = at
	m.cutAt = m.stored()
	m.addBoundary(at)
	return errCut
}

func (m *memberStream) begin(at int64) {
	m.in = true
	m.start = at
	m.addBoundary(at)
}

func isZstdMagic(b []byte) bool {
	return b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd
}

func isSkippableMagic(b []byte) bool {
	return b[0]&0xf0 == 0x50 && b[1] == 0x2a && b[2] == 0x4d && b[3] == 0x18
}

// startZstd opens the zstd frame at stored offset at.
func (m *memberStream) startZstd(at int64) (bool, error) {
	if m.zd == nil {
		zd, err := zstd.NewReader(nil, decompress.ZstdOptions()...)
		if err != nil {
			return false, fmt.Errorf("zstd: %w", err)
		}
		m.zd = zd
	}
	m.frameWindow = 0
	if hdr, err := m.src.Peek(6); err == nil {
		m.frameWindow = decompress.ZstdWindow(hdr)
	}
	m.zframe = frameLimiter{src: m.src}
	if err := m.zd.Reset(&m.zframe); err != nil {
		return false, fmt.Errorf("zstd: %w", err)
	}
	m.dec = m.zd
	m.begin(at)
	return true, nil
}

// skipFrame skips a zstd skippable frame (RFC 8878 §3.1.2). The first one,
// with magic 0x184D2A5D, holds the dictionary of a .warc.zst file (WARC
// zstd specification): it is loaded, not skipped.
func (m *memberStream) skipFrame(at int64) error {
	hdr, err := m.src.Peek(8)
	if err != nil {
		if err == io.EOF {
			return m.cut(at)
		}
		return err
	}
	size := int64(binary.LittleEndian.Uint32(hdr[4:8]))
	isDict := hdr[0] == 0x5d && at == 0 && m.zd == nil
	m.addBoundary(at)
	m.src.Discard(8)
	if !isDict || size > maxZstdDict {
		if isDict {
			m.report(CodeZstdDictionary, SevError, at, fmt.Sprintf("zstd dictionary frame of %d bytes is over the %d byte limit; frames that need it will fail", size, maxZstdDict))
		}
		n, err := m.src.Discard(int(size))
		if int64(n) < size {
			if err == io.EOF {
				return m.cut(at)
			}
			return err
		}
		return nil
	}
	dict := make([]byte, size)
	if _, err := io.ReadFull(m.src, dict); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return m.cut(at)
		}
		return err
	}
	if len(dict) >= 4 && isZstdMagic(dict) {
		// The WARC zstd specification allows the dictionary itself to be
		// zstd-compressed.
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxZstdDict))
		if err == nil {
			dict, err = d.DecodeAll(dict, nil)
			d.Close()
		}
		if err != nil {
			m.report(CodeZstdDictionary, SevError, at, fmt.Sprintf("cannot decompress the zstd dictionary: %v", err))
			return nil
		}
	}
	var dopt zstd.DOption
	if len(dict) >= 8 && binary.LittleEndian.Uint32(dict) == 0xEC30A437 {
		dopt = zstd.WithDecoderDicts(dict)
	} else {
		// A raw content dictionary; frames name it by ID 0 or not at all.
		dopt = zstd.WithDecoderDictRaw(0, dict)
	}
	zd, err := zstd.NewReader(nil, decompress.ZstdOptions(dopt)...)
	if err != nil {
		m.report(CodeZstdDictionary, SevError, at, fmt.Sprintf("unusable zstd dictionary: %v", err))
		return nil
	}
	m.zd = zd
	return nil
}

// close releases decoder resources, and stops a producer reading ahead.
func (m *memberStream) close() {
	if m.ahead != nil {
		m.stopAhead()
	}
	if m.zd != nil {
		m.zd.Close()
	}
}

// wholeStream reads a compressed stream without members (bzip2) through
// the common opener. A cut or corrupt stream is reported once, at the
// stored offset reached, and then ends like a clean end: the record in
// progress is reported by the parser as cut.
type wholeStream struct {
	dr     *decompress.Reader
	u      int64
	report func(code problem.Code, sev string, stored int64, msg string)
	done   bool
}

func (w *wholeStream) Read(p []byte) (int, error) {
	if w.done {
		return 0, io.EOF
	}
	n, err := w.dr.Read(p)
	w.u += int64(n)
	var ce *decompress.Error
	if errors.As(err, &ce) {
		w.done = true
		code := CodeCorruptCompression
		if ce.Kind == decompress.KindTruncated {
			code = CodeTruncated
		}
		w.report(code, SevError, w.dr.Stored(), ce.Error())
		err = io.EOF
		if n > 0 {
			err = nil
		}
	} else if err != nil && err != io.EOF {
		err = &decompress.IOError{Err: err}
	}
	return n, err
}
