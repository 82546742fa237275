package warc

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/internal/decompress"
	"github.com/repaudit/repaudit/problem"
)

// Sentinel errors.
var (
	// ErrUnknownFormat is returned by NewReader when the input is neither a
	// WARC nor an ARC file (after removing any compression).
	ErrUnknownFormat = errors.New("warc: unknown format")
)

// Limits on what outside bytes may make the reader buffer.
const (
	streamBufferSize = 256 << 10 // decompressed read buffer; must exceed the header limits
	maxWARCHeader    = 128 << 10
	maxHTTPHeader    = 128 << 10
	maxARCLine       = 16 << 10
	pairWindow       = 8 // records looked at on each side to pair a request with its response
)

// Record is one WARC or ARC record.
type Record struct {
	// Type is the WARC-Type, lower-cased: warcinfo, request, response,
	// revisit, resource, metadata, conversion, continuation. ARC records
	// are "response", except the filedesc header record, "warcinfo".
	Type string
	// Version is the version line: "WARC/1.0", "WARC/1.1", "WARC/0.17",
	// "WARC/0.18", ..., or "ARC/1", "ARC/2".
	Version string
	Fetch   *event.Fetch   // set for request records
	Capture *event.Capture // set for response, resource, revisit, metadata records
	// Info holds the fields of a warcinfo record whose block is
	// application/warc-fields (WARC 1.1 §6.2: software, operator,
	// http-header-user-agent, isPartOf, ...), read from its first
	// MaxInfoBlock bytes; for an ARC filedesc record, the elements of its
	// XML metadata that hold text, by local name (<arc:software>,
	// <dcterms:isPartOf>, ...). Nil for other records.
	Info event.Header
	// WARCHeader holds every WARC header field of the record in order (for
	// captures the same slice as Capture.WARCHeader). Nil for ARC records.
	WARCHeader event.Header
	Source     event.Source
	// Decompressed is true when Source.Offset and Source.Length count
	// bytes of the decompressed stream rather than stored bytes: the record
	// does not sit in gzip members or zstd frames of its own (whole-file
	// gzip, several records per member). See docs/semantics.md.
	Decompressed bool
}

// Reader reads WARC or ARC records from a stream. See the package
// documentation for the usage loop.
type Reader struct {
	name  string
	opts  Options
	limit func(targetURI, contentType string, status int) int
	// origin: the Resolver reads bodies again from Options.Origin rather
	// than keeping them (see rereadable).
	origin *origin

	raw    *countReader
	rawBuf *bufio.Reader
	ms     *memberStream // nil when the input is not compressed or bzip2
	whole  *wholeStream  // bzip2: one stream without members
	br     *bufio.Reader // decompressed bytes
	kind   compressionKind

	format     string
	arcVersion int

	problems    []event.Problem
	dropped     int
	reported    int  // problems reported so far, kept or dropped
	shared      bool // some record did not sit in a member of its own
	cutReported bool

	queue  []*item // parsed, not yet returned
	last   *item   // returned by the previous Next
	free   [][]byte
	behind []pairInfo // recent responses, newest last
	prev   pairInfo   // the record returned last, whatever its type
	err    error      // terminal: io.EOF or an I/O error, after the queue

	blk      blockReader
	dec      decoders
	scratch  []event.Field
	headText []byte // keepHead's scratch
	te, ce   []string
	stopAt   func(int) int // memberLimit, made once

	// Options.Reuse: the memory of the last reuseSlots queued records,
	// used again in turn, and copies of what behind refers to; reuseRecs
	// (Options.ReuseRecords, or Reuse) reuses the slots but their text
	// only under reuse.
	reuse      bool
	reuseRecs  bool
	slots      [reuseSlots]*slot
	queued     int // records queued so far: the current slot
	behindText [pairWindow + 1]reusedPair
	pushed     int // responses pushed to behind so far
}

// reuseSlots is how many records' memory Options.Reuse cycles through.
// It exceeds what the reader may still refer to when a slot comes round
// again: the queue (at most pairWindow+1 records), the record returned
// last and the one before it (prev). behind keeps copies (reusedPair),
// since the responses in it may be any number of records old.
const reuseSlots = 2*pairWindow + 8

// slot is the memory the parse of one record reuses under Options.Reuse.
type slot struct {
	it   item
	rec  Record
	c    event.Capture
	f    event.Fetch
	text []byte // header bytes the record's strings point into
	whdr event.Header
	hhdr event.Header
	conc []string
}

// reusedPair holds the strings of one pairInfo in behind under
// Options.Reuse.
type reusedPair struct {
	text []byte
	conc []string
}

// item is a parsed record with what pairing and buffer reuse need.
type item struct {
	rec *Record
	buf []byte // body buffer owned by the item
	// lent: buf came from the Resolver's pool (Resolver.lend); lent is
	// the entry that took it over when the capture was remembered, busy
	// until the caller is done with the record (Resolver.release).
	lent  bool
	entry *entry
	// reportedAt is r.reported when the record's parse began.
	reportedAt int
	// headDone is set once the record's headers (WARC, and HTTP when the
	// block holds an HTTP message) were read completely: a record cut
	// after that point is kept (see keepCut).
	headDone bool
	pairInfo
}

// pairInfo is what request/response pairing looks at.
type pairInfo struct {
	id         string   // record ID without angle brackets
	concurrent []string // WARC-Concurrent-To values without angle brackets
	uri        string
	status     int
	digest     string // a response's WARC-Payload-Digest
	mime       string // a response's media type (event.Capture.ContentType)
	req, resp  bool
}

// NewReader detects compression (gzip per-record members, whole-file
// gzip, zstd including the WARC zstd dictionary frame, or none) and format
// (WARC or ARC) from the first bytes of r, not from name. name is only used
// in Source.File of records and problems. An empty input is a WARC file
// without records.
func NewReader(r io.Reader, name string, opts Options) (*Reader, error) {
	return newReader(r, name, opts, nil)
}

// newReader is NewReader; kit, when not nil, lends the buffers and the
// gzip decoder of an earlier Reader (a Resolver reading records again).
func newReader(r io.Reader, name string, opts Options, kit *readerKit) (*Reader, error) {
	rd := &Reader{name: name, opts: opts, limit: opts.BodyLimit, reuse: opts.Reuse && opts.Resolver == nil}
	rd.reuseRecs = rd.reuse || opts.ReuseRecords
	if rd.limit == nil {
		rd.limit = DefaultBodyLimit
	}
	if opts.Origin != nil && opts.Resolver != nil {
		rd.origin = &origin{at: opts.Origin, name: name, limit: rd.limit}
	}
	rd.raw = &countReader{r: decompress.MarkReader{R: r}}
	var rawKit, brKit **bufio.Reader
	if kit != nil {
		rawKit, brKit = &kit.raw, &kit.br
		rd.dec, kit.dec = kit.dec, decoders{}
	}
	rd.rawBuf = lentBufio(rawKit, rd.raw)
	magic, err := rd.rawBuf.Peek(4)
	if err != nil && err != io.EOF {
		return nil, rd.ioErr(err)
	}
	switch decompress.Detect(magic) {
	case decompress.Gzip:
		rd.kind = kindGzip
	case decompress.Zstd:
		rd.kind = kindZstd
	case decompress.Bzip2:
		rd.kind = kindBzip2
	}
	switch rd.kind {
	case kindNone:
		rd.br = rd.rawBuf
	case kindBzip2:
		// bzip2 has no member boundaries a record could align with: the
		// whole file is one stream, read through the common opener.
		dr, err := decompress.NewReader(rd.rawBuf)
		if err != nil {
			return nil, rd.ioErr(err)
		}
		rd.whole = &wholeStream{dr: dr, report: rd.reportStored}
		rd.br = bufio.NewReaderSize(rd.whole, streamBufferSize)
	default:
		rd.ms = newMemberStream(rd.kind, rd.rawBuf, rd.raw, rd.reportStored)
		if kit != nil {
			rd.ms.gz, kit.gz = kit.gz, nil
		}
		if opts.ReadAhead && kit == nil {
			p := rd.ms
			rd.ms = &memberStream{kind: p.kind, report: p.report}
			rd.ms.startAhead(p)
		}
		rd.br = lentBufio(brKit, rd.ms)
	}
	rd.stopAt = rd.memberLimit
	if err := rd.detectFormat(); err != nil {
		rd.close()
		return nil, err
	}
	return rd, nil
}

// detectFormat looks at the first decompressed bytes.
func (r *Reader) detectFormat() error {
	b, err := r.br.Peek(64 << 10)
	if err != nil && len(b) == 0 && !isStreamEnd(err) {
		return r.ioErr(err)
	}
	t := bytes.TrimLeft(b, " \t\r\n\x00")
	switch {
	case len(t) == 0 && err != nil:
		r.format = "warc"
	case bytes.HasPrefix(t, []byte("WARC/")),
		err != nil && bytes.HasPrefix([]byte("WARC/"), t):
		r.format = "warc"
	case bytes.HasPrefix(t, []byte("filedesc://")):
		r.format = "arc"
		r.arcVersion = arcFileVersion(t)
	case bytes.Contains(b, []byte("\nWARC/")):
		r.format = "warc" // leading garbage is reported by the first Next
	default:
		return fmt.Errorf("%w: %s does not start with a WARC or ARC record", ErrUnknownFormat, r.name)
	}
	return nil
}

// isStreamEnd reports whether err is one of the ways the decompressed
// stream ends or jumps (as opposed to an I/O error).
func isStreamEnd(err error) bool {
	return err == io.EOF || err == errCut || err == errSkipped
}

func (r *Reader) ioErr(err error) error {
	if ioErr, ok := decompress.AsIOError(err); ok {
		err = ioErr
	}
	return fmt.Errorf("warc: read %s: %w", r.name, err)
}

// Close releases the Reader's decoders and, with Options.ReadAhead,
// stops the goroutine reading ahead. A Reader read to io.EOF is closed
// already; a caller that stops before should call Close.
func (r *Reader) Close() { r.close() }

func (r *Reader) close() {
	if r.ms != nil {
		r.ms.close()
	}
	r.dec.close()
}

// Next returns the next record. The record, its Fetch or Capture and their
// headers and strings stay valid; Capture.Body only until the next call
// (its buffer is reused: copy it to keep it). Next returns io.EOF only at
// the end of input (a truncated input ends with io.EOF after a Problem
// saying where it was cut). A malformed record is reported via Problems and
// skipped. Only an unrecoverable condition (an I/O error of the underlying
// reader) returns another error, and then every later call returns it too.
func (r *Reader) Next() (*Record, error) {
	if r.last != nil {
		if r.last.buf != nil {
			r.free = append(r.free, r.last.buf[:0])
		}
		if r.last.entry != nil {
			r.opts.Resolver.release(r.last.entry)
			r.last.entry = nil
		}
		r.last = nil
	}
	if len(r.queue) == 0 {
		if r.err != nil {
			if r.err == io.EOF {
				r.close()
			}
			return nil, r.err
		}
		if !r.fill() {
			return r.Next()
		}
	}
	it := r.queue[0]
	if it.req && it.rec.Fetch.Status == 0 {
		r.pair(it)
	}
	copy(r.queue, r.queue[1:])
	r.queue[len(r.queue)-1] = nil
	r.queue = r.queue[:len(r.queue)-1]
	if it.resp {
		if len(r.behind) == pairWindow {
			copy(r.behind, r.behind[1:])
			r.behind = r.behind[:pairWindow-1]
		}
		pi := it.pairInfo
		if r.reuseRecs {
			pi = r.ownPair(pi)
		}
		r.behind = append(r.behind, pi)
	}
	r.prev = it.pairInfo
	r.last = it
	return it.rec, nil
}

// fill parses one more record into the queue. It reports false when
// there is none (r.err is then set).
func (r *Reader) fill() bool {
	for r.err == nil {
		var it *item
		var err error
		if sl := r.slot(); sl != nil {
			sl.text = sl.text[:0] // the record parsed last was dropped, or is reusedSlots back
		}
		if r.format == "arc" {
			it, err = r.parseARC()
		} else {
			it, err = r.parseWARC()
		}
		if err != nil {
			r.err = err
		}
		if it != nil {
			r.queue = append(r.queue, it)
			r.queued++
			return true
		}
	}
	return false
}

// pair sets a request's Fetch.Status from its response: the record linked
// to it by WARC-Concurrent-To among the pairWindow records before and
// after it (wget writes request then response, Heritrix response then
// request). When neither record carries WARC-Concurrent-To, an adjacent
// response with the same target URI is taken.
func (r *Reader) pair(it *item) {
	for i := len(r.behind) - 1; i >= 0; i-- {
		if linked(&it.pairInfo, &r.behind[i]) {
			paired(it.rec.Fetch, &r.behind[i])
			return
		}
	}
	for i := 1; i <= pairWindow; i++ {
		if i >= len(r.queue) && !r.fill() {
			break
		}
		if c := r.queue[i]; c.resp && linked(&it.pairInfo, &c.pairInfo) {
			paired(it.rec.Fetch, &c.pairInfo)
			return
		}
	}
	if len(it.concurrent) > 0 {
		return
	}
	unlinked := func(p *pairInfo) bool {
		return p.resp && len(p.concurrent) == 0 && p.uri == it.uri && p.uri != ""
	}
	if unlinked(&r.prev) {
		paired(it.rec.Fetch, &r.prev)
	} else if len(r.queue) > 1 && unlinked(&r.queue[1].pairInfo) {
		paired(it.rec.Fetch, &r.queue[1].pairInfo)
	}
}

// paired gives a request's Fetch what it takes from its response: the
// status, the payload digest and the media type. The strings are copies:
// the response's may be memory the reader uses again (Options.Reuse).
func paired(f *event.Fetch, resp *pairInfo) {
	f.Status = resp.status
	f.PayloadDigest = strings.Clone(resp.digest)
	f.ContentType = mediaTypeConst(resp.mime)
}

// mediaTypeConst returns mime as a string of its own: a constant for
// the media types most responses have, else a copy.
func mediaTypeConst(mime string) string {
	for _, k := range commonMediaTypes {
		if mime == k {
			return k
		}
	}
	return strings.Clone(mime)
}

var commonMediaTypes = [...]string{"", "text/html", "text/plain", "application/json", "text/css",
	"application/javascript", "text/javascript", "image/jpeg", "image/png", "image/gif", "application/xml", "text/xml"}

// linked reports whether one record names the other in WARC-Concurrent-To.
func linked(a, b *pairInfo) bool {
	if a.id != "" {
		for _, c := range b.concurrent {
			if c == a.id {
				return true
			}
		}
	}
	if b.id != "" {
		for _, c := range a.concurrent {
			if c == b.id {
				return true
			}
		}
	}
	return false
}

// All returns an iterator over the remaining records. It ends at io.EOF
// and after yielding any other error.
func (r *Reader) All() iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		for {
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(rec, err) || err != nil {
				return
			}
		}
	}
}

// Problems returns, and clears, the problems found since the last call, in
// file order. Because the reader looks up to a few records ahead to pair
// requests with responses, problems may belong to records Next has not
// returned yet. At most 10000 problems are kept between calls; the rest
// are counted in one warc-problems-dropped problem.
func (r *Reader) Problems() []event.Problem {
	p := r.problems
	// Compressed input is decoded ahead of parsing, so problems found by
	// the decompressor may have been added before those of earlier records.
	slices.SortStableFunc(p, func(a, b event.Problem) int {
		return cmp.Compare(uint64(a.Source.Offset), uint64(b.Source.Offset))
	})
	if r.dropped > 0 {
		p = append(p, event.Problem{
			Source:   event.Source{File: r.name, Offset: -1},
			Code:     CodeProblemsDropped,
			Severity: SevWarning,
			Message:  fmt.Sprintf("%d more problems were dropped; call Problems more often", r.dropped),
		})
		r.dropped = 0
	}
	r.problems = nil
	return p
}

// Format returns "warc" or "arc".
func (r *Reader) Format() string { return r.format }

// Compression returns "gzip" (one gzip member per record),
// "gzip-whole-file" (one member holding many records),
// "gzip-multi-record-members" (several members, some holding several
// records), "zstd" or "none". It is final once Next has returned io.EOF.
func (r *Reader) Compression() string {
	switch r.kind {
	case kindGzip:
		switch {
		case !r.shared:
			return "gzip"
		case r.ms.members <= 1:
			return "gzip-whole-file"
		}
		return "gzip-multi-record-members"
	case kindZstd:
		return "zstd"
	case kindBzip2:
		return "bzip2"
	}
	return "none"
}

// BytesRead returns the stored (compressed) bytes consumed so far, for
// progress reporting.
func (r *Reader) BytesRead() int64 {
	if r.ms != nil {
		return r.ms.stored()
	}
	if r.whole != nil {
		return r.raw.n - int64(r.rawBuf.Buffered())
	}
	return r.pos()
}

// pos returns the decompressed offset of the next byte the parser reads.
func (r *Reader) pos() int64 {
	if r.ms != nil {
		return r.ms.u - int64(r.br.Buffered())
	}
	if r.whole != nil {
		return r.whole.u - int64(r.br.Buffered())
	}
	return r.raw.n - int64(r.br.Buffered())
}

// report adds a problem located at decompressed offset u: for compressed
// input, at the stored offset of the member holding u.
func (r *Reader) report(u int64, code problem.Code, sev, msg string) {
	src := event.Source{File: r.name, Offset: u}
	if r.ms != nil {
		if b, ok := r.ms.memberAt(u); ok {
			src.Offset = b.last
			if b.u != u {
				msg += fmt.Sprintf(" (in the %s member at stored offset %d, decompressed offset %d)", r.ms.kindName(), b.last, u)
			}
		} else {
			msg += " (offset is in the decompressed stream)"
		}
	}
	r.addProblem(event.Problem{Source: src, Code: code, Severity: sev, Message: msg})
}

// reportStored adds a problem located at a stored offset.
func (r *Reader) reportStored(code problem.Code, sev string, stored int64, msg string) {
	r.addProblem(event.Problem{Source: event.Source{File: r.name, Offset: stored}, Code: code, Severity: sev, Message: msg})
}

func (r *Reader) addProblem(p event.Problem) {
	r.reported++
	if len(r.problems) >= maxPending {
		r.dropped++
		return
	}
	r.problems = append(r.problems, p)
}

// fail turns a read error met inside the record starting at decompressed
// offset start (or between records when start < 0) into the error that
// ends reading, reporting what was lost. It returns nil when reading can
// go on (after skipped corrupt data, at the next good member).
func (r *Reader) fail(err error, start int64) error {
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		if start >= 0 {
			r.report(start, CodeTruncated, SevError, "input ends inside the record")
		}
		return io.EOF
	case err == errCut:
		if !r.cutReported {
			r.cutReported = true
			msg := fmt.Sprintf("input ends inside the %s member at stored offset %d (cut at stored byte %d)", r.ms.kindName(), r.ms.start, r.ms.cutAt)
			if start >= 0 {
				r.report(start, CodeTruncated, SevError, "record incomplete: "+msg)
			} else {
				r.reportStored(CodeTruncated, SevError, r.ms.start, msg)
			}
		}
		return io.EOF
	case err == errSkipped:
		// Everything buffered precedes the skipped region (the stream
		// yields nothing past it before ack): drop it with the record.
		r.br.Discard(r.br.Buffered())
		r.ms.ack()
		return nil
	}
	return r.ioErr(err)
}

// trimBounds drops compression boundaries the parser no longer needs.
func (r *Reader) trimBounds() {
	if r.ms != nil {
		r.ms.trim(r.pos())
	}
}

// skipBlank skips white space, line ends and NUL padding between records.
func (r *Reader) skipBlank() error {
	for {
		n := max(r.br.Buffered(), 1)
		b, err := r.br.Peek(n)
		i := 0
		for i < len(b) && (b[i] == '\r' || b[i] == '\n' || b[i] == ' ' || b[i] == '\t' || b[i] == 0) {
			i++
		}
		r.br.Discard(i)
		if i < len(b) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// skipNewlines consumes the line ends after a record's block (WARC 1.1 §4
// asks for exactly two CRLF; writers differ) and returns how many bytes it
// skipped.
func (r *Reader) skipNewlines() (int, error) {
	total := 0
	for {
		n := max(r.br.Buffered(), 1)
		b, err := r.br.Peek(n)
		i := 0
		for i < len(b) && (b[i] == '\r' || b[i] == '\n') {
			i++
		}
		r.br.Discard(i)
		total += i
		if i < len(b) {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// peekHeader peeks at a header block at the read position: up to and
// including its first empty line, at most max bytes and at most avail
// bytes. found reports whether the empty line was seen. err is the stream
// error when the stream ended before max/avail bytes.
func (r *Reader) peekHeader(max int, avail int64) (b []byte, found bool, err error) {
	n := 2048
	for {
		if int64(n) > avail {
			n = int(avail)
		}
		if n > max {
			n = max
		}
		b, err = r.br.Peek(n)
		if e := headerEnd(b); e >= 0 {
			return b[:e], true, nil
		}
		if err != nil {
			return b, false, err
		}
		if n >= max || int64(n) >= avail {
			return b, false, nil
		}
		n *= 4
	}
}

// resync skips from the read position to the next line that starts with
// "WARC/". It reports the skipped bytes, starting at from, unless quiet
// (the record's problem was already reported).
func (r *Reader) resync(from int64, quiet bool) error {
	pat := []byte("\nWARC/")
	for {
		b, err := r.br.Peek(64 << 10)
		i := bytes.Index(b, pat)
		if i >= 0 {
			i++
		}
		if j := r.memberStartWith(b, "WARC/"); j > 0 && (i < 0 || j < i) {
			i = j // a member that starts with a record, after one that did not end with a line end
		}
		if i >= 0 {
			r.br.Discard(i)
			r.garbage(from, quiet)
			return nil
		}
		if err != nil {
			r.br.Discard(len(b))
			r.garbage(from, quiet)
			return r.fail(err, -1)
		}
		r.br.Discard(len(b) - len(pat) + 1)
		r.trimBounds()
	}
}

// memberStartWith returns the index in b (the peeked bytes at the read
// position) of the first compression member start after b[0] whose bytes
// begin with prefix, or -1.
func (r *Reader) memberStartWith(b []byte, prefix string) int {
	if r.ms == nil {
		return -1
	}
	pos := r.pos()
	for _, bd := range r.ms.bounds {
		i := bd.u - pos
		if i <= 0 {
			continue
		}
		if i >= int64(len(b)) {
			break
		}
		if bytes.HasPrefix(b[i:], []byte(prefix)) {
			return int(i)
		}
	}
	return -1
}

func (r *Reader) garbage(from int64, quiet bool) {
	if !quiet {
		r.report(from, CodeGarbage, SevError, fmt.Sprintf("skipped %d bytes that are not a record", r.pos()-from))
	}
}

// takeBuf returns a body buffer for a new item.
func (r *Reader) takeBuf() []byte {
	if n := len(r.free); n > 0 {
		b := r.free[n-1]
		r.free = r.free[:n-1]
		return b
	}
	return nil
}

// recordSource locates a record that starts at decompressed offset start
// (after blank bytes from skipFrom) and ends at end (after line ends from
// blockEnd). Records that sit in compression members of their own get
// stored offsets; others decompressed offsets.
func (r *Reader) recordSource(startB boundary, startOK bool, start, blockEnd, end int64) (event.Source, bool) {
	src := event.Source{File: r.name, Offset: start, Length: end - start}
	if r.whole != nil {
		if !r.shared {
			r.shared = true
			r.report(start, CodeSharedMember, SevInfo, "bzip2 compression has no per-record members: Source offsets and lengths count decompressed bytes")
		}
		return src, true
	}
	if r.ms == nil {
		return src, false
	}
	if startOK {
		if eb, ok := r.ms.boundaryIn(blockEnd, end); ok && eb.u > startB.u {
			src.Offset, src.Length = startB.last, eb.first-startB.last
			return src, false
		}
	}
	if !r.shared {
		r.shared = true
		r.report(start, CodeSharedMember, SevInfo, fmt.Sprintf(
			"records share %s members (whole-file or multi-record compression): their Source offsets and lengths count decompressed bytes", r.ms.kindName()))
	}
	return src, true
}

// warcFields are the WARC header fields the reader interprets.
type warcFields struct {
	typ, id, date, uri, contentType, contentLength string
	refersTo, refersToURI, refersToDate            string
	payloadDigest, truncated, profile, sourceURI   string
	concurrent                                     []string
	hasLength, hasDate                             bool
}

func (w *warcFields) extract(h event.Header) {
	for _, f := range h {
		n, v := f.Name, f.Value
		switch len(n) {
		case 4:
			if !w.hasDate && strings.EqualFold(n, "Date") {
				w.date = v // WARC/0.x drafts and some writers
			}
		case 9:
			switch {
			case strings.EqualFold(n, "WARC-Type"):
				w.typ = v
			case strings.EqualFold(n, "WARC-Date"):
				w.date, w.hasDate = v, true
			}
		case 12:
			switch {
			case strings.EqualFold(n, "Content-Type"):
				w.contentType = v
			case strings.EqualFold(n, "WARC-Profile"):
				w.profile = v
			}
		case 14:
			switch {
			case strings.EqualFold(n, "Content-Length"):
				w.contentLength, w.hasLength = v, true
			case strings.EqualFold(n, "WARC-Record-ID"):
				w.id = v
			case strings.EqualFold(n, "WARC-Refers-To"):
				w.refersTo = v
			case strings.EqualFold(n, "WARC-Truncated"):
				w.truncated = v
			}
		case 15:
			switch {
			case strings.EqualFold(n, "WARC-Target-URI"):
				w.uri = stripAngle(v)
			case strings.EqualFold(n, "WARC-Source-URI"):
				w.sourceURI = stripAngle(v)
			}
		case 18:
			if strings.EqualFold(n, "WARC-Concurrent-To") {
				w.concurrent = append(w.concurrent, v)
			}
		case 19:
			switch {
			case strings.EqualFold(n, "WARC-Payload-Digest"):
				w.payloadDigest = v
			case strings.EqualFold(n, "WARC-Refers-To-Date"):
				w.refersToDate = v
			}
		case 25:
			if strings.EqualFold(n, "WARC-Refers-To-Target-URI") {
				w.refersToURI = stripAngle(v)
			}
		}
	}
}

func isVersionLine(b []byte) bool {
	return len(b) >= 6 && bytes.HasPrefix(b, []byte("WARC/")) && '0' <= b[5] && b[5] <= '9'
}

// parseWARC reads the next WARC record (WARC 1.1 §4: version line, named
// fields, empty line, Content-Length bytes of block, two CRLF). It returns
// nil and no error for a record that was reported and skipped; an item and
// an error when the record is complete but reading cannot go on.
func (r *Reader) parseWARC() (*item, error) {
	skipFrom := r.pos()
	if r.ms != nil {
		r.ms.trim(skipFrom)
	}
	if err := r.skipBlank(); err != nil {
		return nil, r.fail(err, -1)
	}
	start := r.pos()
	reportedAt := r.reported
	hb, found, err := r.peekHeader(maxWARCHeader, math.MaxInt64)
	if !isVersionLine(hb) {
		if len(hb) < 6 && err != nil {
			r.br.Discard(len(hb))
			if len(hb) == 0 {
				return nil, r.fail(err, -1)
			}
			return nil, r.fail(err, start)
		}
		return nil, r.resync(start, false)
	}
	if !found {
		if err != nil {
			return nil, r.fail(err, start)
		}
		r.report(start, CodeHeaderTooLong, SevError, fmt.Sprintf("WARC header longer than %d bytes; record skipped", maxWARCHeader))
		return nil, r.resync(start, true)
	}
	var startB boundary
	startOK := false
	if r.ms != nil {
		startB, startOK = r.ms.lastBoundaryIn(skipFrom, start)
	}
	sl := r.slot()
	var w warcFields
	version, hdr := r.readWARCHeader(sl, hb, start, &w)
	cl, ok := r.warcContentLength(&w, start)
	if !ok {
		return nil, r.resync(start, true)
	}
	rec, it := r.newWARCItem(sl, &w, version, hdr, start)
	it.reportedAt = reportedAt
	t := r.warcDate(&w, rec.Type, start)
	r.blk.reset(r.br, cl)
	if r.ms != nil && startOK {
		r.blk.stop = r.stopAt
	}
	err = r.readWARCBlock(sl, it, &w, t, start)
	it, missingNL, err := r.endRecord(it, err, startB, startOK, start)
	if missingNL {
		r.report(start, CodeMissingNewlines, SevInfo, "record block is not followed by the two CRLF line ends (WARC 1.1 §4)")
	}
	return it, err
}

// readWARCHeader consumes the record header hb, which starts at offset
// start, and returns its version line and named fields, the latter kept in
// the slot sl when there is one; w is filled from the fields. Lines
// without a colon are reported.
func (r *Reader) readWARCHeader(sl *slot, hb []byte, start int64, w *warcFields) (string, event.Header) {
	version, fields, st := r.keepHead(hb, r.scratch[:0])
	r.br.Discard(len(hb))
	version = strings.TrimSpace(version)
	var hdr event.Header
	if sl != nil {
		sl.whdr = append(sl.whdr[:0], fields...)
		hdr = sl.whdr
	} else {
		hdr = make(event.Header, len(fields))
		copy(hdr, fields)
	}
	r.scratch = fields[:0]
	if st.bad > 0 {
		r.report(start, CodeHeaderLine, SevWarning, fmt.Sprintf("%d WARC header lines without a colon ignored, first: %q", st.bad, st.firstBad))
	}
	w.extract(hdr)
	return version, hdr
}

// warcContentLength returns the record's Content-Length; ok is false,
// and the record is reported as skipped, when it is missing or not a
// non-negative integer.
func (r *Reader) warcContentLength(w *warcFields, start int64) (cl int64, ok bool) {
	if !w.hasLength {
		r.report(start, CodeNoContentLength, SevError, fmt.Sprintf("%s record %s has no Content-Length; skipped", orDash(w.typ), orDash(w.id)))
		return 0, false
	}
	cl, err := strconv.ParseInt(strings.TrimSpace(w.contentLength), 10, 64)
	if err != nil || cl < 0 {
		r.report(start, CodeBadContentLength, SevError, fmt.Sprintf("%s record %s has Content-Length %q; skipped", orDash(w.typ), orDash(w.id), clip(w.contentLength, 40)))
		return 0, false
	}
	return cl, true
}

// newWARCItem returns the record and item for a WARC header, both held in
// the slot sl when there is one, with the record's type, version and
// header and the item's ids and URI set. A record without WARC-Type is
// reported.
func (r *Reader) newWARCItem(sl *slot, w *warcFields, version string, hdr event.Header, start int64) (*Record, *item) {
	var rec *Record
	var it *item
	if sl != nil {
		rec, it = &sl.rec, &sl.it
		*it = item{}
	} else {
		rec, it = new(Record), new(item)
	}
	*rec = Record{Type: recordType(w.typ), Version: version, WARCHeader: hdr}
	if w.typ == "" {
		r.report(start, CodeMissingType, SevWarning, fmt.Sprintf("record %s has no WARC-Type", orDash(w.id)))
	}
	it.rec = rec
	it.id = trimID(w.id)
	it.uri = w.uri
	if len(w.concurrent) > 0 {
		if sl != nil {
			it.concurrent = sl.conc[:0]
		} else {
			it.concurrent = make([]string, 0, len(w.concurrent))
		}
		for _, c := range w.concurrent {
			it.concurrent = append(it.concurrent, trimID(c))
		}
		if sl != nil {
			sl.conc = it.concurrent
		}
	}
	return rec, it
}

// warcDate returns the record's WARC-Date, reporting a date that is
// imprecise, missing or unreadable on a record of a known type (typ).
func (r *Reader) warcDate(w *warcFields, typ string, start int64) time.Time {
	t, ok, exact := parseWARCDate(w.date)
	switch {
	case ok && !exact && typ != "":
		// WARC 1.1 §5.4: WARC-Date is YYYY-MM-DDThh:mm:ssZ (W3C-ISO8601).
		r.report(start, CodeImpreciseDate, SevWarning, fmt.Sprintf("record %s has WARC-Date %q without seconds or time zone; read as %s",
			orDash(w.id), clip(w.date, 40), t.Format(time.RFC3339Nano)))
	case ok || typ == "":
	case w.date == "":
		r.report(start, CodeBadDate, SevWarning, fmt.Sprintf("record %s has no WARC-Date", orDash(w.id)))
	default:
		r.report(start, CodeBadDate, SevWarning, fmt.Sprintf("record %s has WARC-Date %q", orDash(w.id), clip(w.date, 40)))
	}
	return t
}

// readWARCBlock reads the block of it's record by its type: the fields of
// a warcinfo record, the HTTP request of a request record, the capture of
// a response, revisit, resource or metadata record. Other types are left
// for endRecord to skip.
func (r *Reader) readWARCBlock(sl *slot, it *item, w *warcFields, t time.Time, start int64) error {
	rec := it.rec
	switch rec.Type {
	case "warcinfo":
		if strings.Contains(strings.ToLower(w.contentType), "warc-fields") {
			p, _ := r.blk.peek(MaxInfoBlock) // a short block ends in endRecord's error
			fields, _ := parseFields(string(p), nil)
			rec.Info = fields
		}
	case "request":
		return r.readRequest(it, w, t, start)
	case "response", "revisit", "resource", "metadata":
		var c *event.Capture
		if sl != nil {
			c = &sl.c
		} else {
			c = new(event.Capture)
		}
		*c = event.Capture{
			Time:          t,
			URL:           w.uri,
			RecordType:    rec.Type,
			RecordID:      w.id,
			ConcurrentTo:  w.concurrent,
			RefersTo:      w.refersTo,
			RefersToURI:   w.refersToURI,
			PayloadDigest: w.payloadDigest,
			WARCTruncated: w.truncated,
			Profile:       w.profile,
			SourceURI:     w.sourceURI,
			WARCHeader:    rec.WARCHeader,
		}
		if w.refersToDate != "" {
			c.RefersToDate, _ = parseDate(w.refersToDate)
		}
		rec.Capture = c
		it.resp = rec.Type == "response" || rec.Type == "revisit"
		return r.readCapture(it, c, w.contentType, start)
	}
	return nil
}

// endRecord ends a record (WARC or ARC) whose block was read with error
// readErr: it discards the rest of the block, skips the line ends after it,
// sets the record's Source and completes the item. The item is nil when
// the record is lost. missingNL reports that no line end followed the
// block at all.
func (r *Reader) endRecord(it *item, readErr error, startB boundary, startOK bool, start int64) (_ *item, missingNL bool, err error) {
	err = readErr
	if err == nil {
		err = r.blk.discard(r.trimBounds)
	}
	if err == errMemberEnd {
		return r.keepPastMember(it, startB, startOK, start), false, nil
	}
	if err != nil && it != nil && it.headDone && isCutErr(err) {
		return r.keepCut(it, err, startB, startOK, start), false, r.fail(err, -1)
	}
	if err != nil {
		return nil, false, r.fail(err, start)
	}
	blockEnd := r.pos()
	nl, nlErr := r.skipNewlines()
	rec := it.rec
	rec.Source, rec.Decompressed = r.recordSource(startB, startOK, start, blockEnd, r.pos())
	r.finish(it)
	if nlErr != nil {
		return it, false, r.fail(nlErr, -1)
	}
	return it, nl == 0, nil
}

// rereadable reports whether the Resolver may read the bodies of this
// input's records again from Options.Origin, given where they are
// stored: WARC records in gzip members of their own or in an
// uncompressed file (not zstd frames, which may need the file's
// dictionary, nor ARC records, whose format is told by the file's first
// record). finish also wants the record read without a problem, so that
// reading it again surely gives what was read the first time.
func (r *Reader) rereadable() bool {
	return r.origin != nil && r.format == "warc" && (r.kind == kindGzip || r.kind == kindNone)
}

// finish completes an item once its Source is known.
func (r *Reader) finish(it *item) {
	rec := it.rec
	switch {
	case rec.Fetch != nil:
		rec.Fetch.Source = rec.Source
	case rec.Capture != nil:
		c := rec.Capture
		c.Source = rec.Source
		if res := r.opts.Resolver; res != nil {
			switch c.RecordType {
			case "revisit":
				if _, err := res.resolve(c); err != nil {
					r.reportStored(CodeRevisitReread, SevWarning, c.Source.Offset, err.Error()+"; the revisit is left unresolved")
				}
			case "response", "resource":
				if r.rereadable() && !rec.Decompressed && r.reported == it.reportedAt {
					// Its body need not be kept: it can be read again
					// from the record as stored, as it was read now.
					res.remember(c, false, &stored{from: r.origin, at: rec.Source.Offset, n: rec.Source.Length}, r.reuseRecs)
				} else if it.lent && len(c.Body) > 0 && cap(it.buf) > 0 && cap(it.buf)-len(c.Body) < poolStep && &c.Body[0] == &it.buf[:1][0] {
					// The resolver keeps the lent buffer itself (unless
					// the body came out much shorter than its length
					// said: the budget counts body lengths); the caller
					// may read c.Body until it calls Next again.
					if it.entry = res.remember(c, true, nil, r.reuseRecs); it.entry != nil {
						it.buf = nil
					}
				} else {
					res.remember(c, false, nil, r.reuseRecs)
				}
			}
		}
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// readHTTPHead parses the HTTP message header at the start of the block
// and consumes it. tooLong reports that it exceeded maxHTTPHeader (the
// fields after the limit are lost and the body is not read).
func (r *Reader) readHTTPHead(request bool, start int64) (h httpHead, tooLong bool, err error) {
	avail := r.blk.n
	inMember := false // the record's member ends before its declared block
	hb, found, err := r.peekHeader(maxHTTPHeader, avail)
	if r.blk.stop != nil {
		// The header must not run into the next record's member. Only
		// the bytes looked at matter: a member starting after them
		// cannot change what was found (looking a whole maxHTTPHeader
		// ahead for every record, as this did, decompresses far ahead
		// of the parser for nothing).
		n := len(hb)
		k, ok, _ := r.recordMember(n)
		if ok && k < n && int64(k) < avail {
			avail, inMember = int64(k), true
			hb, found, err = r.peekHeader(maxHTTPHeader, avail)
		} else {
			// recordMember's peek may have moved the buffered bytes.
			hb, _ = r.br.Peek(n)
		}
	}
	if !found {
		if err != nil {
			return h, false, err
		}
		if inMember && int64(len(hb)) == avail && avail < maxHTTPHeader {
			// The HTTP header is cut by the end of the record's member.
			r.br.Discard(len(hb))
			r.blk.n -= int64(len(hb))
			r.blk.err = errMemberEnd
			return h, false, errMemberEnd
		}
		if int64(len(hb)) < r.blk.n {
			tooLong = true
			if i := bytes.LastIndexByte(hb, '\n'); i >= 0 {
				hb = hb[:i+1]
			}
			r.report(start, CodeHTTPHeaderLong, SevWarning, fmt.Sprintf("HTTP header longer than %d bytes; fields after it ignored, body not read", maxHTTPHeader))
		}
	}
	var reuse *event.Header
	if sl := r.slot(); sl != nil {
		reuse = &sl.hhdr
	}
	line, fields, st := r.keepHead(hb, r.scratch[:0])
	h, r.scratch = httpHeadOf(line, fields, st, request, reuse)
	r.br.Discard(len(hb))
	r.blk.n -= int64(len(hb))
	if h.ok && h.stats.bad > 0 {
		r.report(start, CodeHTTPHeaderLine, SevWarning, fmt.Sprintf("%d HTTP header lines without a colon ignored, first: %q", h.stats.bad, h.stats.firstBad))
	}
	return h, tooLong, nil
}

func isHTTPContentType(ct string) bool {
	mt := mediaType(ct)
	return mt == "application/http" || mt == "message/http"
}

// readRequest fills a request record's Fetch.
func (r *Reader) readRequest(it *item, w *warcFields, t time.Time, start int64) error {
	scheme, authority, uriTarget := splitURI(w.uri)
	var f *event.Fetch
	if sl := r.slot(); sl != nil {
		f = &sl.f
	} else {
		f = new(event.Fetch)
	}
	*f = event.Fetch{
		Time:              t,
		Scheme:            scheme,
		Bytes:             -1,
		SignatureRecorded: true,
		Origin:            event.OriginWARC,
		Format:            "warc",
		RecordID:          w.id,
		ConcurrentTo:      w.concurrent,
		TargetURI:         w.uri,
	}
	it.rec.Fetch = f
	it.req = true
	it.headDone = r.blk.n == 0
	if r.blk.n > 0 {
		h, _, err := r.readHTTPHead(true, start)
		if err != nil {
			return err
		}
		it.headDone = true
		if h.ok {
			f.Method = h.method
			f.Target = originForm(h.target)
			f.Header = h.header
			if err := r.readRequestBody(it, f, start); err != nil {
				return err
			}
		} else if isHTTPContentType(w.contentType) || scheme == "http" || scheme == "https" {
			r.report(start, CodeHTTPStatusLine, SevWarning, "request record block has no parseable HTTP request line")
		}
	}
	host := f.Header.Get("Host")
	if host == "" {
		host = f.Header.Get(":authority")
	}
	if host == "" {
		host = authority
	}
	f.Host = normHost(host, scheme)
	if f.Target == "" && authority != "" {
		f.Target = uriTarget
	}
	f.UserAgent = f.Header.Get("User-Agent")
	f.Referer = f.Header.Get("Referer")
	return nil
}

// MaxInfoBlock caps the bytes of a warcinfo block read for Record.Info.
const MaxInfoBlock = 64 << 10

// MaxRequestBody caps the request body kept for a Content-Digest check.
const MaxRequestBody = 1 << 20

// readRequestBody keeps the body of a request that carries Content-Digest,
// so that a signature covering the digest can be checked against it (RFC
// 9530: the digest is over the content, so a chunked transfer coding is
// removed and a content coding kept). A body longer than MaxRequestBody,
// cut, or not decodable is not kept: the digest then stays unchecked.
func (r *Reader) readRequestBody(it *item, f *event.Fetch, start int64) error {
	if !f.Header.Has("Content-Digest") {
		return nil
	}
	if r.blk.n == 0 {
		f.Body = []byte{}
		return nil
	}
	r.te = codings(f.Header, "Transfer-Encoding", r.te)
	res := r.dec.readPayload(&r.blk, r.takeBuf(), MaxRequestBody, r.te, nil)
	it.buf = res.body
	if r.blk.err != nil {
		return r.blk.err
	}
	if res.truncated || res.code != "" && res.code != CodeNotChunked {
		return nil
	}
	f.Body = bytes.Clone(res.body)
	if f.Body == nil {
		f.Body = []byte{}
	}
	return nil
}

// readCapture reads a response, revisit, resource or metadata block: the
// HTTP header when the block holds one, then the payload prefix.
func (r *Reader) readCapture(it *item, c *event.Capture, warcCT string, start int64) error {
	isHTTP := false
	if c.RecordType == "response" || c.RecordType == "revisit" {
		p, err := r.blk.peek(5)
		if len(p) < 5 && int64(len(p)) < r.blk.n {
			return err
		}
		switch {
		case len(p) == 5 && strings.EqualFold(string(p), "HTTP/"):
			isHTTP = true
		case r.blk.n > 0 && isHTTPContentType(warcCT):
			r.report(start, CodeHTTPStatusLine, SevWarning, "block declared as HTTP does not start with an HTTP status line; taken as payload")
		}
	}
	return r.readMessage(it, c, isHTTP, mediaType(warcCT), start)
}

// readMessage reads an HTTP response (isHTTP) or a bare payload from the
// block into c.
func (r *Reader) readMessage(it *item, c *event.Capture, isHTTP bool, fallbackCT string, start int64) error {
	tooLong := false
	r.te, r.ce = r.te[:0], r.ce[:0]
	if isHTTP {
		h, long, err := r.readHTTPHead(false, start)
		if err != nil {
			return err
		}
		tooLong = long
		it.headDone = true
		c.Proto, c.Status, c.Header = h.proto, h.status, h.header
		if !h.ok {
			r.report(start, CodeHTTPStatusLine, SevWarning, fmt.Sprintf("unparseable HTTP status line %q", clip(h.proto, 40)))
		}
		c.ContentType = mediaType(c.Header.Get("Content-Type"))
		r.te = codings(c.Header, "Transfer-Encoding", r.te)
		r.ce = codings(c.Header, "Content-Encoding", r.ce)
	} else {
		it.headDone = true // no HTTP header: the WARC header is all there is
		if fallbackCT != "application/http" && fallbackCT != "message/http" {
			c.ContentType = fallbackCT
		}
	}
	it.status = c.Status
	it.digest, it.mime = c.PayloadDigest, c.ContentType
	n := r.blk.n
	if n == 0 {
		return nil
	}
	limit := min(max(r.limit(c.URL, c.ContentType, c.Status), 0), MaxBodyLimit)
	if tooLong || limit == 0 {
		c.BodyTruncated = true
		return nil
	}
	var buf []byte
	if rs := r.opts.Resolver; rs != nil && !r.rereadable() && len(r.te) == 0 && len(r.ce) == 0 && (c.RecordType == "response" || c.RecordType == "resource") {
		// The payload's length is known: read it into a buffer the
		// resolver can keep without copying it (finish).
		buf = rs.lend(int(min(int64(limit), r.blk.n)))
		it.lent = buf != nil
	}
	if buf == nil {
		buf = r.takeBuf()
	}
	res := r.dec.readPayload(&r.blk, buf, limit, r.te, r.ce)
	it.buf = res.body
	if r.blk.err != nil {
		// Keep what was read before the cut: endRecord decides whether
		// the record is kept (its headers were complete).
		if len(res.body) > 0 {
			c.Body = res.body
		}
		c.BodyTruncated = true
		return r.blk.err
	}
	if len(res.body) > 0 {
		c.Body = res.body
	}
	c.BodyTruncated = res.truncated
	if res.code != "" && !(c.WARCTruncated != "" && (res.code == CodeDecode || res.code == CodeBadChunk)) {
		sev := SevWarning
		if res.code == CodeNotChunked || res.code == CodeNotEncoded {
			sev = SevInfo
		}
		r.report(start, res.code, sev, res.msg)
	}
	return nil
}

// memberLimit returns how many of the next max decompressed bytes come
// before the start of a compression member that begins with "WARC/": a
// record that sits in a member of its own (WARC 1.1 Annex D.2) cannot
// run into the next record's member, so a Content-Length that says
// otherwise lies (or the record was cut when written) and must not
// swallow the records that follow.
func (r *Reader) memberLimit(max int) int {
	n, found, peeked := r.recordMember(max)
	switch {
	case found:
		return min(n, max)
	case peeked < min(max+8, r.br.Size()):
		return max // the input ends within: let the read meet and report it
	}
	return min(peeked, max)
}

// recordMember looks in the next max bytes for the start of a compression
// member that begins with "WARC/", and returns its distance from the read
// position. peeked is the number of bytes looked at (fewer than max near
// the end of the input).
func (r *Reader) recordMember(max int) (n int, found bool, peeked int) {
	// Peek a little further, to see a version line at a boundary; every
	// boundary within the peeked bytes is then known to r.ms.
	b, _ := r.br.Peek(min(max+8, r.br.Size()))
	pos := r.pos()
	for _, bd := range r.ms.bounds {
		i := bd.u - pos
		if i < 0 {
			continue
		}
		if i >= int64(len(b)) {
			break
		}
		if bytes.HasPrefix(b[i:], []byte("WARC/")) {
			return int(i), true, len(b)
		}
	}
	return 0, false, len(b)
}

// keepPastMember ends a record whose block ran past the end of its own
// compression member (see memberLimit): it is reported with its offset,
// kept with the bytes its member holds when its headers were complete,
// and reading goes on with the next member's record.
func (r *Reader) keepPastMember(it *item, startB boundary, startOK bool, start int64) *item {
	end := r.pos()
	next, _ := r.ms.memberAt(end)
	msg := fmt.Sprintf("its Content-Length runs %d bytes past the end of its own %s member (%d bytes from the record start); the next member starts a record: reading goes on there, at stored offset %d",
		r.blk.n, r.ms.kindName(), end-start, next.first)
	if it == nil || !it.headDone {
		r.report(start, CodeLengthPastMember, SevError, msg+"; this record's headers are incomplete: skipped")
		return nil
	}
	rec := it.rec
	rec.Source, rec.Decompressed = event.Source{File: r.name, Offset: start, Length: end - start}, true
	if startOK {
		rec.Source, rec.Decompressed = event.Source{File: r.name, Offset: startB.last, Length: next.first - startB.last}, false
	}
	if c := rec.Capture; c != nil {
		c.BodyTruncated = true
	}
	r.report(start, CodeLengthPastMember, SevError, fmt.Sprintf("%s record %s: %s", orDash(rec.Type), orDash(it.id), msg))
	r.finish(it)
	return it
}

// isCutErr reports whether err means the input ended (or was cut) inside
// the block being read.
func isCutErr(err error) bool {
	return err == io.EOF || err == io.ErrUnexpectedEOF || err == errCut
}

// keepCut completes a record whose block was cut after its headers: the
// headers are evidence (a capture's status and directives, a request's
// User-Agent), so the record is kept, its body marked truncated, and a
// problem says it was cut. This is common at the end of .warc.gz.open
// files still being written.
func (r *Reader) keepCut(it *item, err error, startB boundary, startOK bool, start int64) *item {
	end := r.pos()
	rec := it.rec
	rec.Source, rec.Decompressed = event.Source{File: r.name, Offset: start, Length: end - start}, r.ms != nil || r.whole != nil
	where := ""
	if err == errCut && r.ms != nil {
		if startOK {
			rec.Source = event.Source{File: r.name, Offset: startB.last, Length: r.ms.cutAt - startB.last}
			rec.Decompressed = false
		}
		where = fmt.Sprintf(" (input ends inside the %s member at stored offset %d)", r.ms.kindName(), r.ms.start)
		r.cutReported = true
	}
	if c := rec.Capture; c != nil {
		c.BodyTruncated = true
	}
	r.report(start, CodeTruncated, SevError, fmt.Sprintf("%s record %s cut after its headers%s: kept with the %d block bytes before the cut",
		orDash(rec.Type), orDash(it.id), where, end-start))
	r.finish(it)
	return it
}

// slot returns the memory the record being parsed may reuse, or nil
// unless Options.Reuse or Options.ReuseRecords is in effect.
func (r *Reader) slot() *slot {
	if !r.reuseRecs {
		return nil
	}
	i := r.queued % reuseSlots
	if r.slots[i] == nil {
		r.slots[i] = new(slot)
	}
	return r.slots[i]
}

// keep returns b as a string that outlives the read buffer: a copy, or
// under Options.Reuse a string in the current slot's text.
func (r *Reader) keep(b []byte) string {
	if !r.reuse || len(b) == 0 {
		return string(b)
	}
	sl := r.slot()
	if cap(sl.text)-len(sl.text) < len(b) {
		// A new array: the strings already made point into the old one,
		// which stays as long as they do.
		sl.text = make([]byte, 0, max(2*cap(sl.text), len(b), 4<<10))
	}
	at := len(sl.text)
	sl.text = append(sl.text, b...)
	return unsafe.String(&sl.text[at], len(b))
}

// ownPair returns p with its strings copied into memory of behind's own,
// used again only after p has left behind.
func (r *Reader) ownPair(p pairInfo) pairInfo {
	o := &r.behindText[r.pushed%len(r.behindText)]
	r.pushed++
	o.text, o.conc = o.text[:0], o.conc[:0]
	n := len(p.id) + len(p.uri) + len(p.digest) + len(p.mime)
	for _, c := range p.concurrent {
		n += len(c)
	}
	if cap(o.text) < n {
		o.text = make([]byte, 0, max(n, 256))
	}
	own := func(s string) string {
		if s == "" {
			return ""
		}
		at := len(o.text)
		o.text = append(o.text, s...)
		return unsafe.String(&o.text[at], len(s))
	}
	p.id, p.uri, p.digest, p.mime = own(p.id), own(p.uri), own(p.digest), own(p.mime)
	for _, c := range p.concurrent {
		o.conc = append(o.conc, own(c))
	}
	p.concurrent = o.conc
	if len(p.concurrent) == 0 {
		p.concurrent = nil
	}
	return p
}

// recordTypes are the WARC-Type values of WARC 1.1 §6, lower-cased.
var recordTypes = [...]string{"warcinfo", "response", "resource", "request", "metadata", "revisit", "conversion", "continuation"}

// recordType returns the lower-cased WARC-Type as a string of its own (a
// constant for the types WARC 1.1 defines), so that it may be kept even
// under Options.Reuse.
func recordType(t string) string {
	for _, k := range recordTypes {
		if strings.EqualFold(t, k) {
			return k
		}
	}
	return strings.Clone(strings.ToLower(t))
}
