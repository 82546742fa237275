package event

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"sync"
	"time"
	"unsafe"
)

// The fetch codec writes Fetch events to a compact binary stream and reads
// them back, so that a second pass over the fetches of an input needs
// neither the input nor its parser (package audit spools pass 1's fetches
// this way).
//
// A stream is the magic "RAFETCH3" followed by records. A record is a
// uvarint length and that many bytes:
//
//	flags      uvarint: 1 SignatureRecorded, 2 Body set, 4 Header set, 8 ConcurrentTo set,
//	           16 WARC fields (TargetURI, PayloadDigest, ContentType) set;
//	           above them (sameShift) a "same" bit per field of sameFields, Status and Header
//	time       zigzag varint seconds since the previous record's (the first: since 1970), uvarint nanoseconds
//	client IP  uvarint length and netip.Addr.MarshalBinary bytes
//	strings    ForwardedFor Method Scheme Host Target
//	status     zigzag varint
//	bytes      zigzag varint
//	strings    UserAgent Referer CDNVerifiedBot Origin Format RecordID
//	header     (when set) uvarint count, then name and value strings
//	body       (when set) uvarint length and bytes
//	concurrent (when set) uvarint count, then strings
//	warc       (when set) strings TargetURI PayloadDigest ContentType
//	source     string File, zigzag varint Line, Offset and Length, each since the previous record's
//
// A field whose "same" bit is set equals the previous record's and is
// left out (the first record's previous has empty strings, Status 0 and
// an empty Header); a Header is the same when it has the same fields, in
// order, and is set in both records. Most fields of a log's lines repeat
// from line to line (method, scheme, origin, format, file, the empty
// ones): this spares coding and decoding them.
//
// A string is a uvarint v: 0 is "", an odd v a literal of v>>1 bytes that
// follow, an even v the entry (v>>1)-1 of the stream's string table.
// Literals of at most maxInterned bytes of the fields that repeat (every
// string field but Target, RecordID and ConcurrentTo: the rule is by
// field, not by content) join the table, which is cleared when it holds
// maxStrings entries. Writer and reader
// follow the same rule, so references never travel with the data.
//
// Times are stored as instants: a Fetch's Time reads back in UTC, which
// is what every reader produces.
//
// A record on its own (AppendFetch, DecodeFetch) is one record of this
// form without its length, coded as if it were a stream's first with
// the string table turned off: no "same" bit refers to another record,
// no string to a table, and deltas are from zero.

const (
	fetchMagic  = "RAFETCH3"
	maxInterned = 512      // longest string kept in the string table
	maxStrings  = 1024     // entries in the string table before it is cleared
	maxRecord   = 64 << 20 // longest record (a Body is at most 1 MiB, see warc.MaxRequestBody)
)

const (
	flagSignatureRecorded = 1 << iota
	flagBody
	flagHeader
	flagConcurrentTo
	flagWARC
	flagAll = flagSignatureRecorded | flagBody | flagHeader | flagConcurrentTo | flagWARC
	// sameShift is where the "same" bits start in a record's flags.
	sameShift = 5
)

// The fields a record may code as the previous record's, by their "same"
// bit (above sameShift): the string fields but Target (sameFields of
// them), then Status and Header.
const (
	sameForwardedFor = iota
	sameMethod
	sameScheme
	sameHost
	sameUserAgent
	sameReferer
	sameCDNVerifiedBot
	sameOrigin
	sameFormat
	sameRecordID
	sameFile
	sameFields // string fields
	sameStatus = sameFields
	sameHeader = sameFields + 1
	sameAll    = 1<<(sameHeader+1) - 1
)

// sameString reports whether a and b are the same string: equal and
// at the same address (or empty).
func sameString(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b))
}

// sameHeaders reports whether a and b hold the same strings (sameString).
func sameHeaders(a, b Header) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameString(a[i].Name, b[i].Name) || !sameString(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}

// previous is what the next record's "same" bits refer to.
type previous struct {
	strs   [sameFields]string
	status int
	header Header // a copy (the caller may reuse its memory)
}

// Whether each string field joins the string table.
const (
	literal = false
	intern  = true
)

// FetchWriter encodes fetches to w. It buffers: call Flush at the end.
type FetchWriter struct {
	w       io.Writer
	buf     []byte // encoded records not yet written
	rec     []byte // the record being built
	strings map[string]uint32
	gen     uint32             // counts the clearings of strings
	last    [numFields]recent  // per interning field, the last string coded
	seen    *[seenSlots]recent // strings coded lately, by where their bytes are
	noLast  bool               // tests: code without last and seen (the same bytes)
	record  bool               // AppendFetch: no previous record, no string table
	prev    position
	same    previous
	n       int64 // bytes written to w
	err     error
}

// Interning fields, for FetchWriter.last: the same field often repeats
// its last value (method, scheme, origin, format, file; a host or agent
// in a burst), which then costs a string comparison, not a map lookup.
const (
	fieldForwardedFor = iota
	fieldMethod
	fieldScheme
	fieldHost
	fieldUserAgent
	fieldReferer
	fieldCDNVerifiedBot
	fieldOrigin
	fieldFormat
	fieldFile
	fieldHeader // then a name and a value slot per header index below headerSlots
	numFields   = fieldHeader + 2*headerSlots
	noField     = -1 // a literal field: never interned
)

// seenSlots is the size of FetchWriter.seen, a direct-mapped cache of
// table entries keyed by the address of a string's bytes: readers intern
// the values that repeat (accesslog, the spool's own decoder), so one
// value mostly comes as one string, found by its address without hashing
// its bytes. Equal address and length mean equal strings, which are
// immutable; the entry holds its string, so the address is not reused.
const seenSlots = 1 << 10

// headerSlots is how many header fields have last strings of their own,
// by index (a log's User-Agent and Referer); later ones share the last.
const headerSlots = 4

// recent is a string the table held at generation gen, under index idx.
type recent struct {
	s   string
	idx uint32
	gen uint32
}

// position is what records are coded relative to.
type position struct {
	sec                  int64
	line, offset, length int64
}

// NewFetchWriter returns a writer that encodes fetches to w.
func NewFetchWriter(w io.Writer) *FetchWriter {
	fw := &FetchWriter{w: w, strings: map[string]uint32{}}
	fw.buf = append(fw.buf, fetchMagic...)
	return fw
}

// sameField is the interning field of each "same" string field, and
// sameIntern whether the decoder interns it.
var (
	sameField = [sameFields]int{fieldForwardedFor, fieldMethod, fieldScheme, fieldHost, fieldUserAgent,
		fieldReferer, fieldCDNVerifiedBot, fieldOrigin, fieldFormat, noField, fieldFile}
	sameIntern = [sameFields]bool{intern, intern, intern, intern, intern, intern, intern, intern, intern, literal, intern}
)

// strs codes the string fields first to last (by "same" index, inclusive)
// that are not the previous record's, in that order.
func (fw *FetchWriter) strs(r []byte, same uint64, first, last int) []byte {
	for k := first; k <= last; k++ {
		if same&(1<<k) == 0 {
			r = fw.str(r, fw.same.strs[k], sameField[k])
		}
	}
	return r
}

// Write encodes one fetch. After an error from w, every call returns it.
func (fw *FetchWriter) Write(f *Fetch) error {
	if fw.err != nil {
		return fw.err
	}
	r := fw.appendFetch(fw.rec[:0], f)
	fw.rec = r
	if len(r) > maxRecord {
		fw.err = fmt.Errorf("event: fetch record of %d bytes (at most %d)", len(r), maxRecord)
		return fw.err
	}
	fw.buf = binary.AppendUvarint(fw.buf, uint64(len(r)))
	fw.buf = append(fw.buf, r...)
	if len(fw.buf) >= 64<<10 {
		return fw.Flush()
	}
	return nil
}

// appendFetch appends the fields of f's record to r: the one list of
// what a record holds, for streams and for AppendFetch.
func (fw *FetchWriter) appendFetch(r []byte, f *Fetch) []byte {
	flags := fetchFlags(f)
	same := fw.sameBits(f)
	r = binary.AppendUvarint(r, flags|same<<sameShift)
	sec := f.Time.Unix()
	r = binary.AppendVarint(r, sec-fw.prev.sec)
	r = binary.AppendUvarint(r, uint64(f.Time.Nanosecond()))
	fw.prev.sec = sec
	r = appendAddr(r, f.ClientIP)
	r = fw.strs(r, same, sameForwardedFor, sameHost)
	r = fw.str(r, f.Target, noField)
	if same&(1<<sameStatus) == 0 {
		r = binary.AppendVarint(r, int64(f.Status))
	}
	r = binary.AppendVarint(r, f.Bytes)
	r = fw.strs(r, same, sameUserAgent, sameRecordID)
	if f.Header != nil && same&(1<<sameHeader) == 0 {
		r = binary.AppendUvarint(r, uint64(len(f.Header)))
		for i, h := range f.Header {
			slot := fieldHeader + 2*min(i, headerSlots-1)
			r = fw.str(r, h.Name, slot)
			r = fw.str(r, h.Value, slot+1)
		}
	}
	if f.Body != nil {
		r = binary.AppendUvarint(r, uint64(len(f.Body)))
		r = append(r, f.Body...)
	}
	if f.ConcurrentTo != nil {
		r = binary.AppendUvarint(r, uint64(len(f.ConcurrentTo)))
		for _, s := range f.ConcurrentTo {
			r = fw.str(r, s, noField)
		}
	}
	if flags&flagWARC != 0 {
		r = fw.str(r, f.TargetURI, noField)
		r = fw.str(r, f.PayloadDigest, noField)
		r = fw.str(r, f.ContentType, noField)
	}
	src := f.Source
	r = fw.strs(r, same, sameFile, sameFile)
	r = binary.AppendVarint(r, src.Line-fw.prev.line)
	r = binary.AppendVarint(r, src.Offset-fw.prev.offset)
	r = binary.AppendVarint(r, src.Length-fw.prev.length)
	fw.prev.line, fw.prev.offset, fw.prev.length = src.Line, src.Offset, src.Length
	return r
}

// fetchFlags returns the flags that say which optional parts of f its
// record holds.
func fetchFlags(f *Fetch) uint64 {
	var flags uint64
	if f.SignatureRecorded {
		flags |= flagSignatureRecorded
	}
	if f.Body != nil {
		flags |= flagBody
	}
	if f.Header != nil {
		flags |= flagHeader
	}
	if f.ConcurrentTo != nil {
		flags |= flagConcurrentTo
	}
	if f.TargetURI != "" || f.PayloadDigest != "" || f.ContentType != "" {
		flags |= flagWARC
	}
	return flags
}

// sameBits returns the "same" bits of f: one for each field that is the
// previous record's, which is then not coded again. The fields that
// differ become the previous record's for the next call. A field is the
// same when it is the same string (the readers intern what repeats; an
// equal string elsewhere in memory is merely coded again).
func (fw *FetchWriter) sameBits(f *Fetch) uint64 {
	ps := &fw.same.strs
	var same uint64
	strs := [sameFields]string{f.ForwardedFor, f.Method, f.Scheme, f.Host, f.UserAgent, f.Referer,
		f.CDNVerifiedBot, f.Origin, f.Format, f.RecordID, f.Source.File}
	for k, v := range strs {
		if sameString(v, ps[k]) {
			same |= 1 << k
		} else {
			ps[k] = v
		}
	}
	if f.Status == fw.same.status {
		same |= 1 << sameStatus
	} else {
		fw.same.status = f.Status
	}
	if f.Header != nil {
		// A record on its own (AppendFetch) is always a first, after
		// the empty Header: no copy to keep.
		if sameHeaders(f.Header, fw.same.header) {
			same |= 1 << sameHeader
		} else if !fw.record {
			fw.same.header = append(fw.same.header[:0], f.Header...)
		}
	}
	return same
}

// appendAddr appends a client address as a uvarint length and the bytes
// of netip.Addr.MarshalBinary, without MarshalBinary's allocation in the
// common cases.
func appendAddr(r []byte, a netip.Addr) []byte {
	switch {
	case !a.IsValid():
		return append(r, 0)
	case a.Is4():
		b := a.As4()
		return append(append(r, 4), b[:]...)
	case a.Zone() == "":
		b := a.As16()
		return append(append(r, 16), b[:]...)
	}
	ip, _ := a.MarshalBinary() // never fails
	r = binary.AppendUvarint(r, uint64(len(ip)))
	return append(r, ip...)
}

// str appends s: a reference when the table holds it, else a literal,
// which joins the table when the field interns (field is not noField).
func (fw *FetchWriter) str(r []byte, s string, field int) []byte {
	if s == "" {
		return append(r, 0)
	}
	if field != noField && !fw.record {
		// The field's last string, while the table still holds it, needs
		// no lookup; the coding is the same either way.
		if l := &fw.last[field]; l.gen == fw.gen && sameString(l.s, s) && !fw.noLast {
			return binary.AppendUvarint(r, uint64(l.idx+1)<<1)
		}
		if field >= fieldHeader && !fw.noLast {
			// A log's header repeats the User-Agent and Referer just coded.
			for _, l := range [2]*recent{&fw.last[fieldUserAgent], &fw.last[fieldReferer]} {
				if l.gen == fw.gen && l.s == s {
					fw.last[field] = *l
					return binary.AppendUvarint(r, uint64(l.idx+1)<<1)
				}
			}
		}
		var slot *recent
		if !fw.noLast {
			if fw.seen == nil {
				fw.seen = new([seenSlots]recent)
			}
			p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
			slot = &fw.seen[(p>>3^p>>13^uintptr(len(s)))&(seenSlots-1)]
			if slot.gen == fw.gen && len(slot.s) == len(s) && unsafe.StringData(slot.s) == unsafe.StringData(s) {
				fw.last[field] = *slot
				return binary.AppendUvarint(r, uint64(slot.idx+1)<<1)
			}
		}
		if i, ok := fw.strings[s]; ok {
			fw.last[field] = recent{s: s, idx: i, gen: fw.gen}
			if slot != nil {
				*slot = fw.last[field]
			}
			return binary.AppendUvarint(r, uint64(i+1)<<1)
		}
		if len(s) <= maxInterned {
			if len(fw.strings) == maxStrings {
				clear(fw.strings)
				fw.gen++
			}
			i := uint32(len(fw.strings))
			fw.strings[s] = i
			fw.last[field] = recent{s: s, idx: i, gen: fw.gen}
			if slot != nil {
				*slot = fw.last[field]
			}
		}
	}
	r = binary.AppendUvarint(r, uint64(len(s))<<1|1)
	return append(r, s...)
}

// Flush writes the buffered records to the underlying writer.
func (fw *FetchWriter) Flush() error {
	if fw.err != nil {
		return fw.err
	}
	if len(fw.buf) > 0 {
		n, err := fw.w.Write(fw.buf)
		fw.n += int64(n)
		if err != nil {
			fw.err = err
			return err
		}
		fw.buf = fw.buf[:0]
	}
	return nil
}

// Written is the number of bytes written to the underlying writer.
func (fw *FetchWriter) Written() int64 { return fw.n }

// FetchReader decodes the fetches a FetchWriter encoded.
type FetchReader struct {
	r       *bufio.Reader
	slab    []Fetch // fetches are allocated slabSize at a time
	fields  []Field // and header fields fieldSlab at a time
	reuse   Header  // NextInto: the old header of the fetch decoded into
	rec     []byte
	strings []string // "", then the string table
	prev    position
	same    previous
	n       int64 // bytes consumed
	started bool
}

// NewFetchReader returns a reader of the stream r.
func NewFetchReader(r io.Reader) *FetchReader { return NewFetchReaderSize(r, 64<<10) }

// NewFetchReaderSize is NewFetchReader with a read buffer of size bytes
// (at least 16): a stream known to be small needs no 64 KiB buffer.
func NewFetchReaderSize(r io.Reader, size int) *FetchReader {
	return &FetchReader{r: bufio.NewReaderSize(r, size), strings: []string{""}}
}

// ErrCorrupt is wrapped by every error about the content of a stream
// or of a record on its own (DecodeFetch).
var ErrCorrupt = errors.New("event: corrupt fetch stream")

// slabSize is how many fetches the reader allocates at once: a fetch it
// returned keeps up to slabSize-1 others' memory alive (not their
// strings, headers or bodies).
const slabSize = 32

// headerRoom is the fewest fields a decoded header has room for (a log
// line's fetch carries two: User-Agent and Referer).
const headerRoom = 2

// fieldSlab is how many header fields the reader allocates at once (a
// log line's fetch carries two: User-Agent and Referer).
const fieldSlab = 4 * slabSize

// Next returns the next fetch, a new value the caller keeps, or io.EOF
// at the end of the stream. An error about the stream's content wraps
// ErrCorrupt and names the byte offset of the record.
func (fr *FetchReader) Next() (*Fetch, error) {
	if len(fr.slab) == 0 {
		fr.slab = make([]Fetch, slabSize)
	}
	f := &fr.slab[0]
	if err := fr.decodeNext(f); err != nil {
		*f = Fetch{} // reused by the next record
		return nil, err
	}
	fr.slab = fr.slab[1:]
	return f, nil
}

// NextInto is Next decoding into *f, which it overwrites whole, for a
// caller that recycles its fetches. *f is left zero on an error.
//
// The memory of f's Header is reused for the new one when large enough:
// nothing may hold the old Header slice (its strings may be kept).
func (fr *FetchReader) NextInto(f *Fetch) error {
	fr.reuse = f.Header[:0:cap(f.Header)]
	*f = Fetch{}
	err := fr.decodeNext(f)
	fr.reuse = nil
	if err != nil {
		*f = Fetch{}
	}
	return err
}

// decodeNext decodes the next record into *f, which is zero.
func (fr *FetchReader) decodeNext(f *Fetch) error {
	if !fr.started {
		var m [len(fetchMagic)]byte
		if _, err := io.ReadFull(fr.r, m[:]); err != nil || string(m[:]) != fetchMagic {
			return fmt.Errorf("%w: no %s magic at its start", ErrCorrupt, fetchMagic)
		}
		fr.started = true
		fr.n = int64(len(fetchMagic))
	}
	at := fr.n
	// A record shorter than 128 bytes (its length one byte, most
	// records) is peeked with its length and skipped at once.
	if b, _ := fr.r.Peek(1); len(b) == 1 && b[0] < 0x80 {
		size := int(b[0])
		if b, err := fr.r.Peek(1 + size); err == nil {
			fr.n += int64(1 + size)
			d := decoder{b: b[1:], fr: fr}
			d.fetch(f)
			fr.r.Discard(1 + size) // Peek gave them: never fails
			return d.end(at)
		}
	}
	size, err := binary.ReadUvarint(fr.r)
	if err == io.EOF {
		return io.EOF
	}
	if err != nil || size > maxRecord {
		return fr.corrupt(at, "bad record length")
	}
	// A record that fits the buffer is decoded in place (the decoder
	// copies what it keeps), else read into fr.rec.
	rec, inPlace := []byte(nil), size <= uint64(fr.r.Size())
	if inPlace {
		if rec, err = fr.r.Peek(int(size)); err != nil {
			return fr.corrupt(at, "record cut short")
		}
	} else {
		if err := fr.read(size); err != nil {
			return fr.corrupt(at, "record cut short")
		}
		rec = fr.rec
	}
	fr.n += int64(uvarintLen(size)) + int64(size)
	d := decoder{b: rec, fr: fr}
	d.fetch(f)
	if inPlace {
		fr.r.Discard(int(size)) // Peek gave size bytes: never fails
	}
	return d.end(at)
}

// end reports what went wrong decoding the record at byte at, if
// anything did.
func (d *decoder) end(at int64) error {
	if d.err != "" {
		return d.fr.corrupt(at, d.err)
	}
	if len(d.b) != 0 {
		return d.fr.corrupt(at, fmt.Sprintf("%d bytes left over", len(d.b)))
	}
	return nil
}

// read reads the next size bytes into fr.rec, growing it as bytes come
// (a corrupt length does not allocate what the stream does not hold).
func (fr *FetchReader) read(size uint64) error {
	fr.rec = fr.rec[:0]
	for n := uint64(0); n < size; {
		chunk := int(min(size-n, 1<<20))
		fr.rec = slices.Grow(fr.rec, chunk)[:n+uint64(chunk)]
		if _, err := io.ReadFull(fr.r, fr.rec[n:]); err != nil {
			return err
		}
		n += uint64(chunk)
	}
	return nil
}

// Consumed is the number of bytes of the stream read so far.
func (fr *FetchReader) Consumed() int64 { return fr.n }

func (fr *FetchReader) corrupt(at int64, what string) error {
	return fmt.Errorf("%w: record at byte %d: %s", ErrCorrupt, at, what)
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// decoder reads the fields of one record; the first problem sticks in err.
type decoder struct {
	b   []byte
	fr  *FetchReader
	err string
	// record: a record on its own (DecodeFetch), whose literals are
	// substrings of whole, one copy of the record, and which touches no
	// string table.
	record bool
	whole  string
}

func (d *decoder) fail(what string) {
	if d.err == "" {
		d.err = what
	}
	d.b = nil
}

func (d *decoder) uvarint() uint64 {
	if len(d.b) > 0 && d.b[0] < 0x80 { // one byte: most flags, lengths and references
		v := uint64(d.b[0])
		d.b = d.b[1:]
		return v
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	if len(d.b) > 0 && d.b[0] < 0x80 { // one byte, zigzag as binary.Varint
		ux := uint64(d.b[0])
		d.b = d.b[1:]
		x := int64(ux >> 1)
		if ux&1 != 0 {
			x = ^x
		}
		return x
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// bytes returns the next n bytes (aliasing the record, which may be the
// reader's buffer: copy what is kept).
func (d *decoder) bytes(n uint64) []byte {
	if n > uint64(len(d.b)) {
		d.fail("field runs past the record")
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

// count reads a count of items that take at least min bytes each.
func (d *decoder) count(min int) int {
	n := d.uvarint()
	if n > uint64(len(d.b)/min) {
		d.fail("count runs past the record")
		return 0
	}
	return int(n)
}

// str reads a string; in says whether its field interns (the table).
// An empty string or a reference of one byte, most strings, takes the
// inlined path: strings[0] is "", and entry i of the table is strings[i+1],
// so that a string's even v indexes strings with v>>1.
func (d *decoder) str(in bool) string {
	if b, t := d.b, d.fr.strings; len(b) > 0 && b[0]&0x81 == 0 && int(b[0]>>1) < len(t) {
		// d.b[1:], not b[1:]: the compiler's escape analysis takes a
		// self-assignment for one, so that a DecodeFetch keeps its
		// state on the stack. (An empty d.b may mean d.err is set:
		// strSlow.)
		d.b = d.b[1:]
		return t[b[0]>>1]
	}
	return d.strSlow(in)
}

func (d *decoder) strSlow(in bool) string {
	v := d.uvarint()
	switch {
	case v == 0 || d.err != "":
		return ""
	case v&1 == 0:
		i := v >> 1
		if i >= uint64(len(d.fr.strings)) {
			d.fail("string reference out of range")
			return ""
		}
		return d.fr.strings[i]
	}
	raw := d.bytes(v >> 1)
	if d.record {
		if d.err != "" {
			return ""
		}
		at := len(d.whole) - len(d.b) - len(raw)
		return d.whole[at : at+len(raw)]
	}
	s := string(raw)
	if in && len(s) <= maxInterned && d.err == "" {
		if len(d.fr.strings) == 1+maxStrings {
			d.fr.strings = d.fr.strings[:1]
		}
		d.fr.strings = append(d.fr.strings, s)
	}
	return s
}

// fetch decodes a record into *f, which is zero; on an error (d.err) *f
// holds whatever was decoded before it.
func (d *decoder) fetch(f *Fetch) {
	flags := d.uvarint()
	same := flags >> sameShift
	if flags&^(flagAll|sameAll<<sameShift) != 0 || same&(1<<sameHeader) != 0 && flags&flagHeader == 0 {
		d.fail("unknown flags")
		return
	}
	f.SignatureRecorded = flags&flagSignatureRecorded != 0
	sec := d.fr.prev.sec + d.varint()
	nsec := d.uvarint()
	if nsec >= 1e9 {
		d.fail("nanoseconds out of range")
	}
	d.fr.prev.sec = sec
	f.Time = time.Unix(sec, int64(nsec)).UTC()
	if ip := d.bytes(d.uvarint()); len(ip) > 0 {
		if err := f.ClientIP.UnmarshalBinary(ip); err != nil {
			d.fail("bad client address")
		}
	}
	// ps holds the previous record's strings; those not the same are
	// decoded into it, in the record's order.
	ps := &d.fr.same.strs
	d.strs(same, sameForwardedFor, sameHost)
	f.Target = d.str(literal)
	if same&(1<<sameStatus) == 0 {
		d.fr.same.status = int(d.varint())
	}
	f.Status = d.fr.same.status
	f.Bytes = d.varint()
	d.strs(same, sameUserAgent, sameRecordID)
	if flags&flagHeader != 0 {
		if same&(1<<sameHeader) != 0 {
			d.header(f, len(d.fr.same.header))
			copy(f.Header, d.fr.same.header)
		} else {
			d.header(f, d.count(2))
			for i := range f.Header {
				f.Header[i] = Field{Name: d.str(intern), Value: d.str(intern)}
			}
			if !d.record {
				d.fr.same.header = append(d.fr.same.header[:0], f.Header...)
			}
		}
	}
	if flags&flagBody != 0 {
		f.Body = append([]byte{}, d.bytes(d.uvarint())...)
	}
	if flags&flagConcurrentTo != 0 {
		f.ConcurrentTo = make([]string, d.count(1))
		for i := range f.ConcurrentTo {
			f.ConcurrentTo[i] = d.str(literal)
		}
	}
	if flags&flagWARC != 0 {
		f.TargetURI = d.str(literal)
		f.PayloadDigest = d.str(literal)
		f.ContentType = d.str(literal)
	}
	d.strs(same, sameFile, sameFile)
	f.ForwardedFor, f.Method, f.Scheme, f.Host = ps[sameForwardedFor], ps[sameMethod], ps[sameScheme], ps[sameHost]
	f.UserAgent, f.Referer, f.CDNVerifiedBot = ps[sameUserAgent], ps[sameReferer], ps[sameCDNVerifiedBot]
	f.Origin, f.Format, f.RecordID, f.Source.File = ps[sameOrigin], ps[sameFormat], ps[sameRecordID], ps[sameFile]
	p := &d.fr.prev
	p.line += d.varint()
	p.offset += d.varint()
	p.length += d.varint()
	f.Source.Line, f.Source.Offset, f.Source.Length = p.line, p.offset, p.length
}

// strs decodes the string fields first to last (by "same" index,
// inclusive) that are not the previous record's into it.
func (d *decoder) strs(same uint64, first, last int) {
	ps := &d.fr.same.strs
	for k := first; k <= last; k++ {
		if same&(1<<k) == 0 {
			ps[k] = d.str(sameIntern[k])
		}
	}
}

// header gives f a Header of n fields, set but empty when n is 0, in
// memory of its own.
func (d *decoder) header(f *Fetch, n int) {
	switch reuse := d.fr.reuse; {
	case n == 0:
		f.Header = Header{} // set but empty: non-nil, no allocation
	case n <= cap(reuse):
		f.Header = reuse[:n] // this fetch's own memory
		clear(reuse[n:cap(reuse)])
	case d.record:
		f.Header = make(Header, n) // no slab: records come one by one
	default:
		// Room for headerRoom fields, so that the header of a
		// recycled fetch (NextInto) is mostly reused.
		c := max(n, headerRoom)
		if c > len(d.fr.fields) {
			d.fr.fields = make([]Field, max(c, fieldSlab))
		}
		// Capped: an append to one fetch's header never reaches the next's.
		f.Header, d.fr.fields = d.fr.fields[:n:c], d.fr.fields[c:]
	}
}

// AppendFetch appends f to dst as a record on its own, for a consumer
// that gets records one by one in no fixed order (the Beam pipeline's
// stages): a record of the stream form without its length, coded as a
// stream's first record with the string table turned off. DecodeFetch
// reads it back.
func AppendFetch(dst []byte, f *Fetch) []byte {
	fw := FetchWriter{record: true}
	return fw.appendFetch(dst, f)
}

// recordReaders hold the state DecodeFetch's decoder works in: the
// compiler cannot prove that it does not outlive the call (the decoded
// strings flow from the decoder to the fetch), and a new one for each
// record would be an allocation as large as the fetch.
var recordReaders = sync.Pool{New: func() any { return new(FetchReader) }}

// DecodeFetch decodes the record AppendFetch wrote, all of b, into *f,
// which it overwrites whole (left zero on an error). The strings of f
// share one copy of b; f keeps no memory of b. An error wraps
// ErrCorrupt.
func DecodeFetch(b []byte, f *Fetch) error {
	fr := recordReaders.Get().(*FetchReader)
	d := decoder{b: b, fr: fr, record: true, whole: string(b)}
	*f = Fetch{}
	d.fetch(f)
	// A record changes only prev and the strings and status of same.
	fr.prev, fr.same.strs, fr.same.status = position{}, [sameFields]string{}, 0
	recordReaders.Put(fr)
	if d.err == "" && len(d.b) != 0 {
		d.err = fmt.Sprintf("%d bytes left over", len(d.b))
	}
	if d.err != "" {
		*f = Fetch{}
		return fmt.Errorf("%w: fetch record: %s", ErrCorrupt, d.err)
	}
	return nil
}
