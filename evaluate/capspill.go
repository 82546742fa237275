package evaluate

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"
)

// Capture summaries are needed by Build and by the write phase (the
// directives and retention tables, listings), not while pass 2 judges the
// fetches. With a spill directory and at least captureSpillMin captures,
// Build writes them to a temporary file and lets them go; the directives
// and retention tables read them back one at a time (eachCapture), and
// what needs the captures of a URL (listings, ACAP until-recrawled time
// limits: capsOf) or all of them (Summary) reads them back whole. On an archive audit they were about a seventh
// of the live heap at its peak, the end of pass 2 (docs/design.md, "Memory").
// What is read back is exactly what was written: a capture is spilled only
// when every one of them can be (see spillable), else they all stay.

// captureSpillMin is the least number of captures worth a spill file.
const captureSpillMin = 4096

// capSpill is the file the capture summaries went to, and what the
// summaries point to that stays in memory (source file names, directive
// sets), by index.
type capSpill struct {
	once  sync.Once
	f     *tempFile
	n     int
	files []string
	dirs  []*dirSet
	err   error
}

// Flags of a spilled capture.
const (
	capRobots = 1 << iota
	capUnresolved
	capPaired
	capHasConc
	capRevisitOf
	capOwnURL // url differs from rawURL
	capZeroTime
	capUsageCut
)

// spillable reports whether every capture survives the coding exactly: a
// time must be zero or a UTC time without a monotonic reading, which is
// what time.Unix(sec, nsec).UTC() gives back.
func spillable(caps []*capRec) bool {
	for _, c := range caps {
		if !c.time.IsZero() && c.time != time.Unix(c.time.Unix(), int64(c.time.Nanosecond())).UTC() {
			return false
		}
		if c.time.IsZero() && c.time != (time.Time{}) {
			return false
		}
	}
	return true
}

// spillCaptures writes m.captures to a temporary file in the spill
// directory and drops them; nothing happens without a spill directory,
// with few captures, or when the file cannot be made or written (the
// captures then stay in memory: more memory, the same results).
func (m *Model) spillCaptures() {
	if m.opts.SpillDir == "" || len(m.captures) < captureSpillMin && !m.opts.spillAllCaptures || len(m.captures) == 0 || !spillable(m.captures) {
		return
	}
	f, err := createTemp(m.opts.SpillDir, ".repaudit-captures-*.tmp")
	if err != nil {
		return
	}
	sp := &capSpill{f: f, n: len(m.captures)}
	fileIdx := map[string]uint64{}
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

// encode appends c's coding to b.
func (sp *capSpill) encode(b []byte, c *capRec, fileIdx map[string]uint64, dirIdx map[*dirSet]uint64) []byte {
	var flags byte
	for _, f := range []struct {
		on  bool
		bit byte
	}{{c.isRobots, capRobots}, {c.unresolved, capUnresolved}, {c.paired, capPaired}, {c.hasConc, capHasConc},
		{c.rev != nil, capRevisitOf}, {c.url != c.rawURL, capOwnURL}, {c.time.IsZero(), capZeroTime},
		{c.usageCut, capUsageCut}} {
		if f.on {
			flags |= f.bit
		}
	}
	b = append(b, flags, c.schemeEnd, c.rtype)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	str(c.rawURL)
	str(c.recordID)
	str(c.digest)
	if flags&capOwnURL != 0 {
		str(c.url)
	}
	if flags&capZeroTime == 0 {
		b = binary.AppendVarint(b, c.time.Unix())
		b = binary.AppendUvarint(b, uint64(c.time.Nanosecond()))
	}
	fi, ok := fileIdx[c.src.File]
	if !ok {
		fi = uint64(len(sp.files))
		fileIdx[c.src.File] = fi
		sp.files = append(sp.files, c.src.File)
	}
	b = binary.AppendUvarint(b, fi)
	b = binary.AppendVarint(b, c.src.Line)
	b = binary.AppendVarint(b, c.src.Offset)
	b = binary.AppendVarint(b, c.src.Length)
	var di uint64 // 0: no directives, else index + 1
	if c.dir != nil {
		if di, ok = dirIdx[c.dir]; !ok {
			sp.dirs = append(sp.dirs, c.dir)
			di = uint64(len(sp.dirs))
			dirIdx[c.dir] = di
		}
	}
	b = binary.AppendUvarint(b, di)
	if c.rev != nil {
		str(c.rev.refersTo)
		str(c.rev.payload)
	}
	str(c.usage)
	str(c.mime)
	b = binary.AppendUvarint(b, c.concKey.hi)
	b = binary.AppendUvarint(b, c.concKey.lo)
	b = binary.AppendVarint(b, int64(c.status))
	b = binary.AppendVarint(b, int64(c.hostEnd))
	b = c.emb.encode(b)
	b = binary.AppendUvarint(b, uint64(len(c.loc)))
	return append(b, c.loc...)
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
	b := make([]byte, n)
	if _, e := io.ReadFull(d.r, b); e != nil {
		return "", fmt.Errorf("capture spill file: %w", e)
	}
	return string(b), nil
}

// next reads the next capture into c.
func (d *capDecoder) next(c *capRec) error {
	sp, r := d.sp, d.r
	*c = capRec{}
	var head [3]byte
	if _, e := io.ReadFull(r, head[:]); e != nil {
		return fmt.Errorf("capture spill file: %w", e)
	}
	flags := head[0]
	c.schemeEnd, c.rtype = head[1], head[2]
	// The capture's strings share one allocation, as AddCapture made
	// them.
	d.text = d.text[:0]
	var lens [4]int
	nstr := 3
	if flags&capOwnURL != 0 {
		nstr = 4
	}
	for k := range nstr {
		n := d.uv()
		if d.err != nil || n > 1<<30 {
			return errCapSpill
		}
		lens[k] = int(n)
		at := len(d.text)
		d.text = slices.Grow(d.text, int(n))[:at+int(n)]
		if _, e := io.ReadFull(r, d.text[at:]); e != nil {
			return fmt.Errorf("capture spill file: %w", e)
		}
	}
	all := string(d.text)
	c.rawURL = all[:lens[0]]
	c.recordID = all[lens[0] : lens[0]+lens[1]]
	c.digest = all[lens[0]+lens[1] : lens[0]+lens[1]+lens[2]]
	c.url = c.rawURL
	if nstr == 4 {
		c.url = all[lens[0]+lens[1]+lens[2]:]
	}
	if flags&capZeroTime == 0 {
		sec := d.sv()
		nsec := d.uv()
		c.time = time.Unix(sec, int64(nsec)).UTC()
	}
	fi := d.uv()
	c.src.Line, c.src.Offset, c.src.Length = d.sv(), d.sv(), d.sv()
	di := d.uv()
	var err error
	if d.err != nil || fi >= uint64(len(sp.files)) || di > uint64(len(sp.dirs)) {
		return errCapSpill
	}
	c.src.File = sp.files[fi]
	if di > 0 {
		c.dir = sp.dirs[di-1]
	}
	if flags&capRevisitOf != 0 {
		rev := &capRevisit{}
		for _, s := range []*string{&rev.refersTo, &rev.payload} {
			if *s, err = d.lenString(1 << 30); err != nil {
				return err
			}
		}
		c.rev = rev
	}
	if c.usage, err = d.lenString(maxUsageHeader); err != nil {
		return err
	}
	mime, err := d.lenString(1 << 10)
	if err != nil {
		return err
	}
	if mime != "" {
		c.mime = mediaType(mime)
	}
	c.concKey.hi, c.concKey.lo = d.uv(), d.uv()
	c.status, c.hostEnd = int32(d.sv()), int32(d.sv())
	if err = d.embargo(c); err != nil {
		return err
	}
	if c.loc, err = d.lenString(1 << 30); err != nil {
		return err
	}
	if d.err != nil {
		return fmt.Errorf("capture spill file: %w", d.err)
	}
	c.isRobots = flags&capRobots != 0
	c.unresolved = flags&capUnresolved != 0
	c.paired = flags&capPaired != 0
	c.hasConc = flags&capHasConc != 0
	c.usageCut = flags&capUsageCut != 0
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
