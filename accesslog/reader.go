package accesslog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"unsafe"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/internal/decompress"
	"github.com/repaudit/repaudit/problem"
)

// DefaultMaxLine is the longest line read when Options.MaxLine is 0. Longer
// lines are reported (problem.LogLineTooLong) and skipped.
const DefaultMaxLine = 1 << 20

const (
	sampleLines  = 64        // lines Detect looks at when NewReader auto-detects
	sampleBytes  = 256 << 10 // bytes sampled for detection; also the line buffer size
	excerptLen   = 120       // bytes of a bad line quoted in a Problem
	maxProblems  = 10000     // problems buffered between two Problems calls
	maxHeaderCap = 1024      // header slices grown beyond this are not reused
)

var utf8BOM = []byte("\xef\xbb\xbf")

// Problem codes, named here for the call sites (package problem holds the
// one registry, with each code's meaning). They are stable: users count
// and filter on them.
const (
	CodeUnparsedLine     = problem.LogUnparsedLine     // error: the line was skipped
	CodeLineTooLong      = problem.LogLineTooLong      // error: the line exceeded MaxLine and was skipped
	CodeBadTime          = problem.LogBadTime          // error: the time is missing or unreadable; line skipped
	CodeBadRequest       = problem.LogBadRequest       // warning: request line malformed, kept with what could be read
	CodeBadField         = problem.LogBadField         // warning: a field (status, bytes, ...) unreadable, kept as unknown
	CodeTruncated        = problem.LogTruncated        // error: compressed input ends early; lines before the cut were returned
	CodeCorrupt          = problem.LogCorrupt          // error: compressed input is corrupt; lines before were returned
	CodeCompressionLimit = problem.LogCompressionLimit // error: a zstd frame needs a window over the limit; lines before were returned
	CodeNoFields         = problem.LogNoFields         // info: W3C data before any #Fields directive; the default field list is used
	CodeProblemsDropped  = problem.LogProblemsDropped  // warning: too many problems between two Problems calls; some were not kept
	CodeNotRequest       = problem.LogNotRequest       // info: a line of the log that records no HTTP request (TCP connection, Apache's "-" 408 for a connection closed before any request, proxy event, S3 batch operation); skipped
	CodeLocalTime        = problem.LogLocalTime        // info: the format writes local time without a zone; read as UTC (once per file)
	CodeNothingRead      = problem.LogNothingRead      // error: no line of the file could be read; the message names the format the lines came closest to
)

// Options configure a Reader. The zero value auto-detects the format.
type Options struct {
	// Format is the log format; "" detects it from the first lines
	// (up to 64 lines or 256 KiB, see Detect).
	Format Format
	// MaxLine caps the length of one line in bytes; 0 means
	// DefaultMaxLine. Longer lines are reported and skipped.
	MaxLine int
	// ExtraHeaders names, in order, request headers logged as additional
	// fields after the User-Agent in the combined, common and
	// vhost_combined formats, for example {"Signature", "Signature-Input",
	// "Signature-Agent"} for an nginx log_format ending in
	// "$http_signature" "$http_signature_input" "$http_signature_agent".
	// Naming Signature or Signature-Input here makes those lines
	// SignatureRecorded. For HAProxy logs it names the captured request
	// headers ("{a|b|c}"), in capture order, for example {"Host",
	// "User-Agent"}. Other formats ignore it: they name their fields.
	ExtraHeaders []string

	bufSize int // tests: the line buffer's size when Format is given (0: sampleBytes)
}

// Reader reads one access log, line by line, as event.Fetch values. It is
// not safe for concurrent use; read different files with different Readers.
type Reader struct {
	name    string
	format  Format
	maxLine int
	extra   []string

	dr         *decompress.Reader // the one opener: gzip, bzip2, zstd or plain
	br         *bufio.Reader      // decompressed lines
	compressed string             // "gzip", "bzip2", "zstd" or ""

	line     int64
	long     []byte
	fetch    event.Fetch
	hdr      event.Header
	problems []event.Problem
	dropped  int64
	skipped  int64
	fetches  int64
	told     bool     // CodeLocalTime reported
	bad      []string // a sample of skipped lines, to name the closest format
	err      error

	parse func(r *Reader, line string) bool
	// zeroCopy: parse reads the line in place (a string over the read
	// buffer) and detach copies what the fetch keeps; only for parsers
	// that keep nothing of the line but the fetch's fields (see detach).
	zeroCopy bool
	interned map[string]string     // detach's repeated field values
	recent   *[recentSlots]string  // intern's cache before interned
	hosts    *[hostSlots]hostEntry // vhost fields already normalized
	hostMap  map[string]hostEntry  // and behind it
	targets  []byte                // detach's chunk of targets (keepTarget)

	clfTime  clfTimeCache
	dateTime dateCache
	w3c      w3cState
	names    map[string]headerNameInfo // nginx variable name -> header name cache
}

// NewReader returns a Reader for r. name is the file name used in every
// Source and Problem. Gzip (also multi-member), bzip2 and zstd input is
// decompressed transparently (package internal/decompress, the one opener
// of every input), detected by magic bytes. When opts.Format is
// "" the format is detected from the first lines; an error wrapping
// ErrUnknownFormat, naming the file, is returned when detection is unsure.
// Input that holds no line at all (an empty rotated log) is not an error:
// the Reader returns io.EOF at once and Format reports "".
func NewReader(r io.Reader, name string, opts Options) (*Reader, error) {
	rd := &Reader{
		name:    name,
		format:  opts.Format,
		maxLine: opts.MaxLine,
	}
	if rd.maxLine <= 0 {
		rd.maxLine = DefaultMaxLine
	}
	for _, h := range opts.ExtraHeaders {
		h = strings.TrimSpace(h)
		rd.extra = append(rd.extra, h)
	}
	if rd.format != "" {
		f, err := ParseFormat(string(rd.format))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rd.format = f
	}
	dr, err := decompress.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rd.dr = dr
	if c := dr.Compression(); c != decompress.None {
		rd.compressed = c
	}
	size := sampleBytes
	if opts.bufSize > 0 && rd.format != "" {
		size = opts.bufSize
	}
	rd.br = bufio.NewReaderSize(&stickyReader{r: dr}, size)
	if rd.format == "" {
		sample, _ := rd.br.Peek(sampleBytes)
		lines := sampleSplit(sample, len(sample) < sampleBytes)
		if len(lines) == 0 {
			rd.parse = parseNothing
			return rd, nil
		}
		f, ok := Detect(lines)
		if !ok {
			closest := "they look like no known format"
			if c, n := Closest(lines); c != "" {
				closest = fmt.Sprintf("closest: %s (%d of %d lines)", c, n, len(lines))
			}
			return nil, fmt.Errorf("%s: %w: no format fits a clear majority of the first %d lines (%s); name one (%s)",
				name, ErrUnknownFormat, len(lines), closest, formatList())
		}
		rd.format = f
	}
	rd.parse = parserFor(rd.format)
	if row := rowOf(rd.format); row != nil {
		rd.zeroCopy = row.zeroCopy
	}
	return rd, nil
}

// sampleSplit cuts the detection sample into non-blank lines. The last
// line counts only when the sample ends at end of input (complete).
func sampleSplit(b []byte, atEOF bool) [][]byte {
	var lines [][]byte
	b = bytes.TrimPrefix(b, utf8BOM)
	for len(b) > 0 && len(lines) < sampleLines {
		i := bytes.IndexByte(b, '\n')
		var l []byte
		if i < 0 {
			if !atEOF {
				break
			}
			l, b = b, nil
		} else {
			l, b = b[:i], b[i+1:]
		}
		l = bytes.TrimSuffix(l, []byte{'\r'})
		l = bytes.TrimLeft(l, "\x00")
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		lines = append(lines, l)
	}
	return lines
}

func parseNothing(*Reader, string) bool { return false }

// Format returns the format being read: as given in Options or detected.
func (r *Reader) Format() Format { return r.format }

// Lines returns the number of lines read so far, including blank lines,
// comments and lines that were skipped.
func (r *Reader) Lines() int64 { return r.line }

// Skipped returns the number of lines skipped because they could not be
// used (each was reported as a Problem).
func (r *Reader) Skipped() int64 { return r.skipped }

// BytesRead returns how many bytes of the input as stored (compressed, for
// compressed input) have been consumed, for progress reporting. It runs
// ahead of the lines returned by up to a buffer's worth.
func (r *Reader) BytesRead() int64 { return r.dr.Stored() }

// Problems returns the problems found since the last call and forgets them.
// Each has Source{File, Line, Offset: -1} and one of the Code* codes.
func (r *Reader) Problems() []event.Problem {
	p := r.problems
	if r.dropped > 0 {
		p = append(p, event.Problem{
			Source:   r.source(r.line),
			Code:     CodeProblemsDropped,
			Severity: event.SevWarning,
			Message:  strconv.FormatInt(r.dropped, 10) + " problems not kept (more than " + strconv.Itoa(maxProblems) + " between two Problems calls)",
		})
		r.dropped = 0
	}
	r.problems = nil
	return p
}

// All iterates over the fetches of the log. Each fetch is valid only until
// the iteration continues (see Next). A read error other than io.EOF is
// yielded once, with a nil fetch, and ends the iteration.
func (r *Reader) All() iter.Seq2[*event.Fetch, error] {
	return func(yield func(*event.Fetch, error) bool) {
		for {
			f, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(f, nil) {
				return
			}
		}
	}
}

// Next returns the next fetch. The returned Fetch, and its Header slice,
// belong to the Reader and are overwritten by the next call: copy what
// must outlive it (the strings inside are immutable and may be kept; in
// the combined, common and vhost_combined formats a Target shares its
// memory with the targets of the lines around it, 2 KiB of them, so
// a caller that keeps a few targets of many lines should copy them).
// Lines that cannot be used are reported through Problems and skipped.
// Next returns io.EOF at the end of input; a compressed input cut short or
// corrupt ends with a CodeTruncated or CodeCorrupt problem and io.EOF.
// Other read errors are returned, wrapped, and are sticky.
func (r *Reader) Next() (*event.Fetch, error) {
	if r.err != nil {
		return nil, r.err
	}
	for {
		b, tooLong, err := r.readLine()
		if err != nil {
			if len(b) > 0 || tooLong {
				r.line++
			}
			r.err = r.endErr(err, len(b) > 0 || tooLong)
			r.nothingRead()
			return nil, r.err
		}
		r.line++
		if tooLong {
			r.skipped++
			r.report(event.SevError, CodeLineTooLong,
				"line longer than "+strconv.Itoa(r.maxLine)+" bytes skipped", string(b))
			continue
		}
		if len(b) > 0 && b[len(b)-1] == '\r' {
			b = b[:len(b)-1]
		}
		if r.line == 1 {
			b = bytes.TrimPrefix(b, utf8BOM)
		}
		// A crash can leave blocks of NUL bytes in a log file being
		// written; the next line then starts after them.
		for len(b) > 0 && b[0] == 0 {
			b = b[1:]
		}
		if isBlank(b) {
			continue
		}
		f := &r.fetch
		*f = event.Fetch{
			Bytes:  -1,
			Header: r.hdr[:0],
			Origin: event.OriginLog,
			Format: string(r.format),
			Source: r.source(r.line),
		}
		var ok bool
		if b[0] == '#' && !r.format.hasFields() {
			// No format but W3C's starts a line with '#': a comment
			// (test files and hand-edited logs have them).
			ok = r.notRequest("comment line", string(b))
		} else if r.zeroCopy {
			// The line's string aliases the read buffer, which the next
			// read overwrites: detach copies every field the fetch keeps.
			line := unsafe.String(unsafe.SliceData(b), len(b))
			if ok = r.parse(r, line); ok {
				r.detach(f, line)
			}
		} else {
			ok = r.parse(r, string(b))
		}
		if cap(f.Header) <= maxHeaderCap {
			r.hdr = f.Header
		}
		if ok {
			r.fetches++
			return f, nil
		}
	}
}

// readLine returns the next line without its '\n'. tooLong reports a line
// over the cap; b then holds its beginning. err is io.EOF only when no byte
// was left; with any other error b holds the partial line before it.
func (r *Reader) readLine() (b []byte, tooLong bool, err error) {
	r.long = r.long[:0]
	for {
		s, err := r.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !tooLong && len(r.long)+len(s) > r.maxLine {
				tooLong = true
				if n := excerptLen - len(r.long); n > 0 {
					r.long = append(r.long, s[:min(n, len(s))]...)
				}
			} else if !tooLong {
				r.long = append(r.long, s...)
			}
			continue
		}
		if len(s) > 0 && s[len(s)-1] == '\n' {
			s = s[:len(s)-1]
		}
		if tooLong {
			if err == io.EOF {
				err = nil
			}
			return r.long, true, err
		}
		if len(r.long) > 0 {
			r.long = append(r.long, s...)
			s = r.long
		}
		if len(s) > r.maxLine {
			if err == io.EOF {
				err = nil
			}
			return s[:min(excerptLen, len(s))], true, err
		}
		if err == io.EOF && len(s) > 0 {
			err = nil
		}
		return s, false, err
	}
}

// endErr turns the error that ended reading into the sticky result of Next.
func (r *Reader) endErr(err error, partial bool) error {
	if err == io.EOF {
		return io.EOF
	}
	var ce *decompress.Error
	if errors.As(err, &ce) {
		code := CodeCorrupt
		switch ce.Kind {
		case decompress.KindTruncated:
			code = CodeTruncated
		case decompress.KindWindow:
			code = CodeCompressionLimit
		}
		msg := ce.Error()
		if partial {
			msg += "; partial line " + strconv.FormatInt(r.line, 10) + " dropped"
		}
		r.problems = append(r.problems, event.Problem{
			Source: r.source(max(r.line, 1)), Code: code, Severity: event.SevError, Message: msg,
		})
		return io.EOF
	}
	return fmt.Errorf("%s: line %d: read: %w", r.name, r.line+1, err)
}

func (r *Reader) source(line int64) event.Source {
	return event.Source{File: r.name, Line: line, Offset: -1}
}

// report records a problem at the current line, quoting an excerpt of it.
func (r *Reader) report(sev string, code problem.Code, msg, line string) {
	if len(r.problems) >= maxProblems {
		r.dropped++
		return
	}
	if line != "" {
		msg += ": " + excerpt(line)
	}
	r.problems = append(r.problems, event.Problem{
		Source: r.source(r.line), Code: code, Severity: sev, Message: msg,
	})
}

// fail reports a line as unusable and returns false, for parsers.
func (r *Reader) fail(code problem.Code, msg, line string) bool {
	r.skipped++
	if len(r.bad) < sampleLines {
		r.bad = append(r.bad, strings.Clone(line[:min(len(line), 4096)])) // line may alias the read buffer
	}
	r.report(event.SevError, code, msg, line)
	return false
}

// notRequest reports a line that is well formed for the format but records
// no HTTP request (a TCP connection, a proxy event), and returns false.
func (r *Reader) notRequest(why, line string) bool {
	r.skipped++
	r.report(event.SevInfo, CodeNotRequest, why+"; skipped", line)
	return false
}

// localTime says once per file that times are local without a zone.
func (r *Reader) localTime(why string) {
	if r.told {
		return
	}
	r.told = true
	r.report(event.SevInfo, CodeLocalTime, why+"; times are read as UTC", "")
}

// nothingRead, at the end of input, reports a file of which no line could
// be read, naming the format its skipped lines came closest to.
func (r *Reader) nothingRead() {
	if r.fetches > 0 || len(r.bad) == 0 || r.err != io.EOF {
		return
	}
	lines := make([][]byte, len(r.bad))
	for i, l := range r.bad {
		lines[i] = []byte(l)
	}
	msg := fmt.Sprintf("none of the %d lines could be read as %s", r.line, r.format)
	if c, n := Closest(lines); c != "" && c != r.format {
		msg += fmt.Sprintf("; they come closest to %s (%d of the %d lines sampled; read them as such with --log-format %s)", c, n, len(lines), c)
	} else if c == "" {
		msg += "; they look like no known format"
	}
	r.problems = append(r.problems, event.Problem{Source: r.source(max(r.line, 1)), Code: CodeNothingRead, Severity: event.SevError, Message: msg})
}

// warn reports a line read leniently.
func (r *Reader) warn(code problem.Code, msg, line string) {
	r.report(event.SevWarning, code, msg, line)
}

func excerpt(s string) string {
	if len(s) > excerptLen {
		return strconv.Quote(s[:excerptLen]) + "..."
	}
	return strconv.Quote(s)
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// stickyReader returns its first error forever, so that an error seen
// while sampling for detection is seen again by the line reader.
type stickyReader struct {
	r   io.Reader
	err error
}

func (s *stickyReader) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(p)
	s.err = err
	return n, err
}

// Interning by detach: values up to maxIntern bytes (methods, hosts,
// agents, referers) are kept once per distinct value, in a table cleared
// when it holds maxInterned of them.
const (
	maxIntern   = 512
	maxInterned = 4096
)

// detach makes every string of f that points into line, which aliases
// the read buffer, a string of its own: the target a copy, the other
// fields (which repeat from line to line) interned, so that a line costs
// an allocation of its target rather than of the whole line. A header
// value that is the User-Agent or Referer field shares its string.
func (r *Reader) detach(f *event.Fetch, line string) {
	lo := uintptr(unsafe.Pointer(unsafe.StringData(line)))
	n := uintptr(len(line))
	in := func(s string) bool {
		return len(s) > 0 && uintptr(unsafe.Pointer(unsafe.StringData(s)))-lo < n
	}
	if in(f.Target) {
		f.Target = r.keepTarget(f.Target)
	}
	if in(f.ForwardedFor) {
		f.ForwardedFor = strings.Clone(f.ForwardedFor)
	}
	if in(f.RecordID) {
		f.RecordID = strings.Clone(f.RecordID)
	}
	for _, p := range [...]*string{&f.Method, &f.Scheme, &f.Host, &f.CDNVerifiedBot} {
		if in(*p) {
			*p = r.intern(*p)
		}
	}
	ua, ref := f.UserAgent, f.Referer
	if in(ua) {
		f.UserAgent = r.intern(ua)
	}
	if in(ref) {
		f.Referer = r.intern(ref)
	}
	for i := range f.Header {
		h := &f.Header[i]
		if in(h.Name) {
			h.Name = r.intern(h.Name)
		}
		switch v := h.Value; {
		case !in(v):
		case same(v, ua):
			h.Value = f.UserAgent
		case same(v, ref):
			h.Value = f.Referer
		default:
			h.Value = r.intern(v)
		}
	}
}

// targetChunk is the memory detach copies targets into: one allocation
// for many lines' targets rather than one each.
const targetChunk = 2 << 10

// keepTarget returns a copy of the target s, in the reader's current
// chunk of targets (a long one in memory of its own). The chunk's bytes
// are only ever appended to, so the strings over it never change.
func (r *Reader) keepTarget(s string) string {
	if len(s) > targetChunk/8 {
		return strings.Clone(s)
	}
	if len(r.targets)+len(s) > cap(r.targets) {
		r.targets = make([]byte, 0, targetChunk)
	}
	n := len(r.targets)
	r.targets = append(r.targets, s...)
	return unsafe.String(&r.targets[n], len(s))
}

// same reports whether a and b are the same bytes in memory.
func same(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// intern returns a string of its own equal to s: the one kept for s, or
// a copy (kept when short enough). A direct-mapped cache, indexed by a
// hash of a few of the bytes, is looked at before the map: most values
// are found there, for a comparison of their bytes instead of hashing
// them all and probing the map.
func (r *Reader) intern(s string) string {
	if r.recent == nil {
		r.recent = new([recentSlots]string)
	}
	slot := &r.recent[quickHash(s)&(recentSlots-1)]
	if *slot == s {
		return *slot
	}
	v, ok := r.interned[s]
	if !ok {
		v = strings.Clone(s)
		if len(s) > maxIntern {
			return v
		}
		if r.interned == nil || len(r.interned) >= maxInterned {
			r.interned = make(map[string]string, 256)
		}
		r.interned[v] = v
	}
	*slot = v
	return v
}

// recentSlots is the size of Reader.recent.
const recentSlots = 1 << 9

// quickHash hashes the length and up to 24 bytes of s (its first, middle
// and last 8): cheap, and enough to tell apart the values one field of a
// log repeats; a collision costs a map lookup, never a wrong value.
func quickHash(s string) uint {
	n := len(s)
	var h uint64
	if n >= 8 {
		h = le64(s) ^ le64(s[n/2-4:])*0x9e3779b97f4a7c15 ^ le64(s[n-8:])*0xc2b2ae3d27d4eb4f
	} else {
		for i := 0; i < n; i++ {
			h = h<<8 | uint64(s[i])
		}
	}
	h ^= uint64(n) * 0x165667b19e3779f9
	h *= 0xff51afd7ed558ccd
	return uint(h ^ h>>29 ^ h>>41)
}

// le64 reads the first 8 bytes of s, little-endian.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
