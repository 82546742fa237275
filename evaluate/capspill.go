package evaluate

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
)

// Capture summaries are needed by Build and by the write phase (the
// directives and retention tables, listings), not while pass 2 judges the
// fetches. With a spill directory and at least captureSpillMin captures,
// Build writes them to a temporary file and lets them go; the directives
// and retention tables read them back one at a time (eachCapture), and
// what needs the captures of a URL (listings, ACAP until-recrawled time
// limits: capsOf) or all of them (Summary) reads them back whole. On an archive audit they were about a seventh
// of the live heap at its peak, the end of pass 2 (docs/design.md, "Memory").
// What is read back is exactly what was written: the coding is what a
// capRec holds, field by field.

// captureSpillMin is the least number of captures worth a spill file.
const captureSpillMin = 4096

// capSpill is the file the capture summaries went to, and what the
// summaries point to that stays in memory (source file names, directive
// sets), by index.
type capSpill struct {
	once  sync.Once
	f     *tempFile
	n     int
	files []*string
	dirs  []*dirSet
	err   error
}

// spillCaptures writes m.captures to a temporary file in the spill
// directory and drops them; nothing happens without a spill directory,
// with few captures, or when the file cannot be made or written (the
// captures then stay in memory: more memory, the same results).
func (m *Model) spillCaptures() {
	if m.opts.SpillDir == "" || len(m.captures) < captureSpillMin && !m.opts.spillAllCaptures || len(m.captures) == 0 {
		return
	}
	f, err := createTemp(m.opts.SpillDir, ".repaudit-captures-*.tmp")
	if err != nil {
		return
	}
	sp := &capSpill{f: f, n: len(m.captures)}
	fileIdx := map[*string]uint64{}
	dirIdx := map[*dirSet]uint64{}
	w := bufio.NewWriterSize(f, 64<<10)
	var buf []byte
	for _, c := range m.captures {
		buf = sp.encode(buf[:0], c, fileIdx, dirIdx)
		if _, err := w.Write(buf); err != nil {
			sp.close()
			return
		}
	}
	if err := w.Flush(); err != nil {
		sp.close()
		return
	}
	m.captures, m.capSpill = nil, sp
}

// index returns the 1-based index of p in *list (0 for nil), adding it.
func index[T any](p *T, list *[]*T, idx map[*T]uint64) uint64 {
	if p == nil {
		return 0
	}
	i, ok := idx[p]
	if !ok {
		*list = append(*list, p)
		i = uint64(len(*list))
		idx[p] = i
	}
	return i
}

// encode appends c's coding to b: its four bytes (flags, schemeEnd,
// rtype, mimeIdx), whether it has a capExtra, the blob, the time, the
// source, the directive set, status and hostEnd, then the capExtra's
// fields.
func (sp *capSpill) encode(b []byte, c *capRec, fileIdx map[*string]uint64, dirIdx map[*dirSet]uint64) []byte {
	hasExt := byte(0)
	if c.ext != nil {
		hasExt = 1
	}
	b = append(b, c.flags, c.schemeEnd, c.rtype, c.mimeIdx, hasExt)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	str(c.blob)
	b = binary.AppendVarint(b, c.sec)
	b = binary.AppendUvarint(b, uint64(c.nsec))
	b = binary.AppendUvarint(b, index(c.file, &sp.files, fileIdx))
	b = binary.AppendVarint(b, c.offset)
	b = binary.AppendVarint(b, c.length)
	b = binary.AppendUvarint(b, index(c.dir, &sp.dirs, dirIdx))
	b = binary.AppendVarint(b, int64(c.status))
	b = binary.AppendVarint(b, int64(c.hostEnd))
	x := c.ext
	if x == nil {
		return b
	}
	for _, s := range []string{x.url, x.recordID, x.digest, x.mime, x.usage, x.loc} {
		str(s)
	}
	if x.rev == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		str(x.rev.refersTo)
		str(x.rev.payload)
	}
	b = x.emb.encode(b)
	b = binary.AppendUvarint(b, x.concKey.hi)
	b = binary.AppendUvarint(b, x.concKey.lo)
	return binary.AppendVarint(b, x.line)
}

// errCapSpill says that the capture spill file does not read back as
// written.
var errCapSpill = errors.New("capture spill file: malformed")

// loadCaptures reads back the captures spillCaptures wrote, once; an
// error reading them is kept and returned by every later call.
func (m *Model) loadCaptures() error {
	sp := m.capSpill
	if sp == nil {
		return nil
	}
	sp.once.Do(func() {
		caps, err := sp.decode()
		sp.close()
		if err != nil {
			sp.err = fmt.Errorf("evaluate: %w", err)
			return
		}
		m.captures = caps
	})
	return sp.err
}

// decode reads every capture back.
func (sp *capSpill) decode() ([]*capRec, error) {
	d := sp.decoder()
	caps := make([]*capRec, 0, sp.n)
	for range sp.n {
		c := new(capRec)
		if err := d.next(c); err != nil {
			return nil, err
		}
		caps = append(caps, c)
	}
	return caps, nil
}

// capDecoder reads the spilled captures in order, from the first.
type capDecoder struct {
	sp   *capSpill
	r    *bufio.Reader
	text []byte
	err  error
}

func (sp *capSpill) decoder() *capDecoder {
	// A section of its own: several decoders may read at once.
	return &capDecoder{sp: sp, r: bufio.NewReaderSize(io.NewSectionReader(sp.f, 0, 1<<62), 64<<10)}
}

func (d *capDecoder) uv() uint64 {
	v, e := binary.ReadUvarint(d.r)
	if e != nil && d.err == nil {
		d.err = e
	}
	return v
}

func (d *capDecoder) sv() int64 {
	v, e := binary.ReadVarint(d.r)
	if e != nil && d.err == nil {
		d.err = e
	}
	return v
}

// lenString reads a string coded as its uvarint length, at most max, and
// its bytes; "" when the length is 0. A length over max, or a bad
// uvarint, is errCapSpill.
func (d *capDecoder) lenString(max uint64) (string, error) {
	n := d.uv()
	if d.err != nil || n > max {
		return "", errCapSpill
	}
	if n == 0 {
		return "", nil
	}
	// Grown as bytes arrive, so that a bad length in a damaged file costs
	// no more memory than the file holds.
	d.text = d.text[:0]
	for rest := int(n); rest > 0; {
		k := min(rest, 64<<10)
		at := len(d.text)
		d.text = slices.Grow(d.text, k)[:at+k]
		if _, e := io.ReadFull(d.r, d.text[at:]); e != nil {
			return "", fmt.Errorf("capture spill file: %w", e)
		}
		rest -= k
	}
	return string(d.text), nil
}

// next reads the next capture into c.
func (d *capDecoder) next(c *capRec) error {
	sp := d.sp
	*c = capRec{}
	var head [5]byte
	if _, e := io.ReadFull(d.r, head[:]); e != nil {
		return fmt.Errorf("capture spill file: %w", e)
	}
	c.flags, c.schemeEnd, c.rtype, c.mimeIdx = head[0], head[1], head[2], head[3]
	var err error
	if c.blob, err = d.lenString(1 << 30); err != nil {
		return err
	}
	c.sec, c.nsec = d.sv(), int32(d.uv())
	fi := d.uv()
	c.offset, c.length = d.sv(), d.sv()
	di := d.uv()
	c.status, c.hostEnd = int32(d.sv()), int32(d.sv())
	if d.err != nil || fi > uint64(len(sp.files)) || di > uint64(len(sp.dirs)) {
		return errCapSpill
	}
	if fi > 0 {
		c.file = sp.files[fi-1]
	}
	if di > 0 {
		c.dir = sp.dirs[di-1]
	}
	if head[4] != 0 {
		if c.ext, err = d.extra(); err != nil {
			return err
		}
	}
	return c.check()
}

// extra reads a capExtra.
func (d *capDecoder) extra() (*capExtra, error) {
	x := &capExtra{}
	var err error
	for _, s := range []*string{&x.url, &x.recordID, &x.digest, &x.mime, &x.usage, &x.loc} {
		if *s, err = d.lenString(1 << 30); err != nil {
			return nil, err
		}
	}
	rev, e := d.r.ReadByte()
	if e != nil {
		return nil, fmt.Errorf("capture spill file: %w", e)
	}
	if rev != 0 {
		x.rev = &capRevisit{}
		for _, s := range []*string{&x.rev.refersTo, &x.rev.payload} {
			if *s, err = d.lenString(1 << 30); err != nil {
				return nil, err
			}
		}
	}
	if x.emb, err = d.embargo(); err != nil {
		return nil, err
	}
	x.concKey.hi, x.concKey.lo = d.uv(), d.uv()
	x.line = d.sv()
	if d.err != nil {
		return nil, fmt.Errorf("capture spill file: %w", d.err)
	}
	return x, nil
}

// check reports errCapSpill when c's fields do not hang together (a
// capRec AddCapture made always does): the accessors would fail on it.
func (c *capRec) check() error {
	n := 0
	if c.has(cfUUID) {
		n += 16
	}
	if c.has(cfSHA1) {
		n += 20
	}
	switch {
	case len(c.blob) < n, c.ext == nil && (c.has(cfOwnURL) || c.mimeIdx == mimeOwn),
		int(c.mimeIdx) > len(mediaTypes) && c.mimeIdx != mimeOwn, int(c.rtype) >= len(capTypes):
		return errCapSpill
	}
	if c.schemeEnd != 0 {
		u := c.url()
		if int(c.schemeEnd)+3 > int(c.hostEnd) || int(c.hostEnd) > len(u) {
			return errCapSpill
		}
	}
	return nil
}

// eachCapture calls fn with every capture in order (m.captures'): from
// memory, or read from the spill file one at a time, so that the tables
// written from the captures do not need them all in memory at once. fn
// must not keep c, which may be read into again for the next capture
// (its strings may be kept).
func (m *Model) eachCapture(fn func(*capRec) error) error {
	sp := m.capSpill
	if sp == nil || m.captures != nil {
		for _, c := range m.captures {
			if err := fn(c); err != nil {
				return err
			}
		}
		return nil
	}
	if sp.f == nil {
		return m.loadCaptures() // closed: the error it met
	}
	d := sp.decoder()
	var c capRec
	for range sp.n {
		if err := d.next(&c); err != nil {
			sp.err = fmt.Errorf("evaluate: %w", err)
			return sp.err
		}
		if err := fn(&c); err != nil {
			return err
		}
	}
	return nil
}

// close releases the spill file.
func (sp *capSpill) close() {
	if sp.f == nil {
		return
	}
	sp.f.close()
	sp.f = nil
}
