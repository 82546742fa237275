package evaluate

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
)

// The robots.txt captures' documents (rdoc, one per capture of /robots.txt
// or of a URL a redirect leads to) are mostly read by Build and by the
// robots_versions and robots_rules tables. Once WriteBuiltTables has
// written those, pass 2 reads only a few fields of each (its time, status,
// source, origin and parsed file): with a spill directory and at least
// docSpillMin of them, the rest (rdocCold: the URLs, record ids, digests,
// redirect target and site-version references) goes to a temporary file,
// and the collapsed captures' lists (version.captures, read by Build's
// views and robots_versions only) go. A finding that first cites a
// version reads its capture back (rdoc.full); a version's description is
// made once. Nothing else changes: the rows are those of a model keeping
// everything in memory. A file that cannot be made or written keeps the
// documents in memory; one that cannot be read back fails WriteTables and
// Close.

// docSpillMin is the least number of documents worth a spill file.
const docSpillMin = 4096

// docSpill is the file the documents' cold parts went to.
type docSpill struct {
	f    *tempFile
	once sync.Once // closes f
	mu   sync.Mutex
	err  error // the first read that failed
}

// spillDocs writes the cold part of every version's documents to a
// temporary file and drops it from memory, and drops the versions'
// collapsed capture lists; nothing happens without a spill directory,
// with few documents, or when the file cannot be made or written.
func (m *Model) spillDocs() {
	if m.opts.SpillDir == "" {
		return
	}
	var docs []*rdoc
	seen := map[*rdoc]bool{}
	add := func(d *rdoc) {
		if d != nil && d.rdocCold != nil && !seen[d] {
			seen[d] = true
			docs = append(docs, d)
		}
	}
	for _, a := range m.authList {
		for _, v := range a.versions {
			add(v.doc)
			add(v.content)
			for _, d := range v.captures {
				add(d)
			}
		}
	}
	if len(docs) == 0 || len(docs) < docSpillMin && !m.opts.spillAllCaptures {
		return
	}
	f, err := createTemp(m.opts.SpillDir, ".repaudit-docs-*.tmp")
	if err != nil {
		return
	}
	sp := &docSpill{f: f}
	w := bufio.NewWriterSize(f, 64<<10)
	var buf []byte
	at := make([]int64, len(docs))
	var off int64
	for i, d := range docs {
		buf = d.rdocCold.encode(buf[:0])
		at[i] = off
		off += int64(len(buf))
		if _, err := w.Write(buf); err != nil {
			f.close()
			return
		}
	}
	if err := w.Flush(); err != nil {
		f.close()
		return
	}
	for i, d := range docs {
		d.rdocCold, d.spill, d.coldAt = nil, sp, at[i]
	}
	for _, a := range m.authList {
		for _, v := range a.versions {
			v.captures = nil
		}
	}
	m.docSpill = sp
}

// encode appends c's coding to b: its length, then each field.
func (c *rdocCold) encode(b []byte) []byte {
	at := len(b)
	b = append(b, 0, 0, 0, 0) // the length, below
	for _, s := range [...]string{c.rawURL, c.url, c.auth, c.hostport, c.recordType, c.location,
		c.digest, c.idDigest, c.recordID, c.refersTo, c.payload, c.profile, c.originRef, c.detail} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendVarint(b, c.size)
	b = binary.AppendUvarint(b, uint64(len(c.conc)))
	for _, s := range c.conc {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	binary.LittleEndian.PutUint32(b[at:], uint32(len(b)-at-4))
	return b
}

// errDocSpill says that the document spill file does not read back as
// written.
var errDocSpill = errors.New("robots.txt document spill file: malformed")

// decode reads a coding encode wrote (without its length) into c.
func (c *rdocCold) decode(b []byte) error {
	all := string(b) // the strings share one allocation
	p := 0
	str := func() string {
		if p > len(b) {
			return ""
		}
		n, k := binary.Uvarint(b[p:])
		if k <= 0 || n > uint64(len(b)-p-k) {
			p = len(b) + 1
			return ""
		}
		s := all[p+k : p+k+int(n)]
		p += k + int(n)
		return s
	}
	for _, s := range [...]*string{&c.rawURL, &c.url, &c.auth, &c.hostport, &c.recordType, &c.location,
		&c.digest, &c.idDigest, &c.recordID, &c.refersTo, &c.payload, &c.profile, &c.originRef, &c.detail} {
		*s = str()
	}
	if p > len(b) {
		return errDocSpill
	}
	size, k := binary.Varint(b[p:])
	if k <= 0 {
		return errDocSpill
	}
	c.size, p = size, p+k
	n, k := binary.Uvarint(b[p:])
	if k <= 0 || n > uint64(len(b)) {
		return errDocSpill
	}
	p += k
	for range n {
		if s := str(); p <= len(b) {
			c.conc = append(c.conc, s)
		}
	}
	if p != len(b) {
		return errDocSpill
	}
	return nil
}

// read reads back the cold part of d; a failure is kept (fail) and gives
// an empty part, so that the caller goes on and the run fails.
func (sp *docSpill) read(d *rdoc) *rdocCold {
	c := new(rdocCold)
	var n [4]byte
	if _, err := sp.f.ReadAt(n[:], d.coldAt); err != nil {
		sp.fail(err)
		return c
	}
	b := make([]byte, binary.LittleEndian.Uint32(n[:]))
	if _, err := sp.f.ReadAt(b, d.coldAt+4); err != nil {
		sp.fail(err)
		return c
	}
	if err := c.decode(b); err != nil {
		sp.fail(err)
		return &rdocCold{}
	}
	return c
}

func (sp *docSpill) fail(err error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.err == nil {
		sp.err = fmt.Errorf("evaluate: robots.txt document spill file: %w", err)
	}
}

// failed returns the first read error.
func (sp *docSpill) failed() error {
	if sp == nil {
		return nil
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.err
}

// close releases the file; a read that comes later fails.
func (sp *docSpill) close() {
	if sp != nil {
		sp.once.Do(func() { sp.f.close() })
	}
}

// full returns d whole: d itself, or, once its cold part is spilled, a
// copy with that part read back.
func (d *rdoc) full() *rdoc {
	if d == nil || d.rdocCold != nil {
		return d
	}
	c := *d
	c.rdocCold = d.spill.read(d)
	return &c
}
