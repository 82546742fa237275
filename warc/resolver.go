package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"

	"github.com/repaudit/repaudit/event"
)

// entryOverhead is what one remembered capture costs besides its strings
// and body: the entry, map slots, slice headers.
const entryOverhead = 256

// Resolver remembers the status, header, content type and body prefix of
// response and resource captures, bounded in total bytes (oldest dropped
// first), so that revisit records can be given the content they refer to
// (WARC 1.1 §6.7). A Resolver is safe for concurrent use and may be shared
// by Readers across files; a revisit resolves only when its original was
// remembered before it, within the byte budget.
//
// A Reader whose input can be read again at any offset (Options.Origin)
// gives the Resolver where each original is stored instead of its body:
// the body is read again from there when a revisit first refers to it,
// and kept from then on. The budget counts the body either way, so the
// same revisits resolve whether the input can be read again or not;
// only the memory held, and the copying of every body, differ.
type Resolver struct {
	mu       sync.Mutex
	maxBytes int64
	used     int64
	// byID and byDigest index the entries of fifo[head:] once made: at
	// the first revisit (index). An input without revisits, most of
	// them, is never indexed: remembering a record is then an append,
	// not two map inserts, which were most of its cost. (Reading or
	// deleting from the nil maps before then finds nothing.)
	byID     map[string]*entry
	byDigest map[string]*entry
	fifo     []*entry // oldest first, from head
	head     int
	// pool holds the body buffers of evicted entries for later copies,
	// by size class (poolClass); poolBytes is their total capacity.
	pool      [][][]byte
	poolBytes int64
}

type entry struct {
	id, digestKey string
	status        int
	proto         string
	header        event.Header
	contentType   string
	body          []byte
	truncated     bool
	size          int64
	// shared: Resolve handed body to a revisit capture, so it must not
	// go back to the pool when the entry is evicted.
	shared bool
	// busy: body is the buffer a Reader read the capture into and lent
	// us (remember with owned); its caller may still read it. An entry
	// evicted while busy (evicted) gives its body to the pool on release.
	busy, evicted bool
	// stored: when from is set and body is nil, the body (bodyLen bytes)
	// is not held but read again from the record stored at [at, at+n) of
	// from's input, on the first revisit that refers to it.
	stored
	bodyLen int
}

// origin is an input a Reader read, readable again at any offset
// (Options.Origin), with what reading one of its records again needs.
type origin struct {
	at    io.ReaderAt
	name  string
	limit func(targetURI, contentType string, status int) int
}

// errReread says that a record read again is not the one remembered.
var errReread = errors.New("the record read again is not the original remembered")

// readerKit is what a Reader allocates besides its records (two
// buffers of streamBufferSize, gzip decoders), kept from one reading
// again to the next: allocating them for every revisit cost several
// times the reading itself.
type readerKit struct {
	raw, br *bufio.Reader
	gz      *gzip.Reader
	dec     decoders // content decoders
}

var readerKits = sync.Pool{New: func() any { return new(readerKit) }}

// lentBufio returns *b reset to read from r, or a new buffer when there
// is none (or b is nil). *b is cleared: the Reader owns it.
func lentBufio(b **bufio.Reader, r io.Reader) *bufio.Reader {
	if b == nil || *b == nil {
		return bufio.NewReaderSize(r, streamBufferSize)
	}
	br := *b
	*b = nil
	br.Reset(r)
	return br
}

// keep takes back the buffers and decoder of rd, done with.
func (k *readerKit) keep(rd *Reader) {
	k.raw = rd.rawBuf
	if rd.br != rd.rawBuf {
		k.br = rd.br
	}
	if rd.ms != nil && rd.ms.gz != nil {
		k.gz = rd.ms.gz
	}
	k.dec = rd.dec
	k.dec.zd = nil // closed by rd.close
	k.dec.chunk = chunkedReader{}
	// Hold no input while pooled.
	for _, b := range []*bufio.Reader{k.raw, k.br} {
		if b != nil {
			b.Reset(noInput)
		}
	}
}

var noInput = strings.NewReader("")

// reread reads the body of e's original again from its input.
func (o *origin) reread(e *entry) ([]byte, error) {
	kit := readerKits.Get().(*readerKit)
	rd, err := newReader(io.NewSectionReader(o.at, e.at, e.n), o.name, Options{BodyLimit: o.limit}, kit)
	if err != nil {
		return nil, err // kit's buffers may be in rd: let them go
	}
	defer func() {
		rd.close()
		kit.keep(rd)
		readerKits.Put(kit)
	}()
	// The body is read into a buffer of its known length (takeBuf),
	// which the entry then keeps.
	rd.free = append(rd.free, make([]byte, 0, e.bodyLen))
	rec, err := rd.Next()
	if err != nil {
		if err == io.EOF {
			err = errReread
		}
		return nil, err
	}
	// The original was read without a problem (Reader.finish), so
	// reading it again gives none either, unless the input changed.
	c := rec.Capture
	if c == nil || trimID(c.RecordID) != e.id || len(c.Body) != e.bodyLen || c.BodyTruncated != e.truncated || len(rd.Problems()) > 0 {
		return nil, errReread
	}
	b := c.Body
	if cap(b)-len(b) > len(b)/8 {
		b = bytes.Clone(b) // held for later revisits: no more room than it needs
	}
	return b, nil
}

// Body buffers of at least poolMin bytes are recycled: a crawl's pages
// are remembered one after another, and each copy into fresh memory cost
// a large allocation (page faults, collector cycles) besides the copy.
// A Reader reads bodies of known length into a buffer lent from the pool
// (lend), which the resolver then keeps without a copy; other bodies are
// copied into pooled buffers. Classes are poolStep bytes wide; the pool
// holds one buffer, or more up to an eighth of the budget.
const (
	poolMin  = 16 << 10
	poolStep = 8 << 10
)

// poolClass is the size class of a body of n >= poolMin bytes: a buffer
// of class k holds k*poolStep bytes.
func poolClass(n int) int { return (n + poolStep - 1) / poolStep }

// takeBuf returns a buffer of capacity at least n from the pool, or nil.
// r.mu is held.
func (r *Resolver) takeBuf(n int) []byte {
	k := poolClass(n)
	if k >= len(r.pool) || len(r.pool[k]) == 0 {
		return nil
	}
	l := r.pool[k]
	b := l[len(l)-1]
	l[len(l)-1] = nil
	r.pool[k] = l[:len(l)-1]
	r.poolBytes -= int64(cap(b))
	return b
}

// putBuf keeps the body of an evicted entry for reuse. r.mu is held.
func (r *Resolver) putBuf(b []byte) {
	if cap(b) < poolMin || cap(b)%poolStep != 0 || r.poolBytes > 0 && r.poolBytes+int64(cap(b)) > r.maxBytes/8 {
		return
	}
	k := cap(b) / poolStep
	if k >= len(r.pool) {
		r.pool = append(r.pool, make([][][]byte, k+1-len(r.pool))...)
	}
	r.pool[k] = append(r.pool[k], b[:0])
	r.poolBytes += int64(cap(b))
}

// lend returns an empty buffer of capacity n rounded up to its size
// class, from the pool or new, for a Reader to read a body of n bytes
// into; nil when n is below poolMin.
func (r *Resolver) lend(n int) []byte {
	if n < poolMin {
		return nil
	}
	r.mu.Lock()
	b := r.takeBuf(n)
	r.mu.Unlock()
	if b == nil {
		b = make([]byte, 0, poolClass(n)*poolStep)
	}
	return b
}

// release says that the Reader's caller is done with the body of e,
// remembered from a lent buffer.
func (r *Resolver) release(e *entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e.busy = false
	if e.evicted && !e.shared {
		r.putBuf(e.body)
	}
}

// copyBody returns a copy of body, in a pooled buffer when it is large.
func (r *Resolver) copyBody(body []byte) []byte {
	if len(body) < poolMin {
		return append([]byte(nil), body...)
	}
	r.mu.Lock()
	b := r.takeBuf(len(body))
	r.mu.Unlock()
	if b == nil {
		b = make([]byte, 0, poolClass(len(body))*poolStep)
	}
	return append(b, body...)
}

// NewResolver returns a Resolver that keeps at most maxBytes of remembered
// data (bodies, header strings and a fixed per-entry overhead).
func NewResolver(maxBytes int64) *Resolver {
	return &Resolver{maxBytes: maxBytes}
}

// digestKey joins a payload digest (algorithm and value compared without
// regard to case: "sha1:" and "SHA1:" writers exist) and a target URI.
func digestKey(digest, uri string) string {
	digest = strings.TrimSpace(digest)
	if digest == "" || uri == "" {
		return ""
	}
	return strings.ToUpper(digest) + " " + uri
}

// Remember stores what a response or resource capture needs to resolve
// later revisits of it: status, protocol, header, content type and body
// (copied). Revisits, nil captures and captures with neither a record ID
// nor a payload digest are ignored, as is a capture larger than the whole
// budget.
func (r *Resolver) Remember(c *event.Capture) {
	r.remember(c, false, nil, false)
}

// stored is where a remembered capture's record is stored in an input
// that can be read again.
type stored struct {
	from  *origin
	at, n int64
}

// remember is Remember. owned means that c.Body is a buffer from lend
// that the resolver may keep as it is, busy until release; loc, when
// set, that the body need not be kept at all: it is read again from
// there when a revisit refers to it; ownHeader, that c.Header is memory
// the Reader reuses (Options.ReuseRecords), so the entry keeps a copy. It
// returns the entry made (nil when nothing was remembered, and then
// c.Body remains the caller's).
func (r *Resolver) remember(c *event.Capture, owned bool, loc *stored, ownHeader bool) *entry {
	if c == nil || c.RecordType == "revisit" {
		return nil
	}
	e := &entry{
		id:          trimID(c.RecordID),
		digestKey:   digestKey(c.PayloadDigest, c.URL),
		status:      c.Status,
		proto:       c.Proto,
		header:      c.Header,
		contentType: c.ContentType,
		truncated:   c.BodyTruncated,
	}
	if e.id == "" && e.digestKey == "" {
		return nil
	}
	e.size = entryOverhead + int64(len(e.id)+len(e.digestKey)+len(e.proto)+len(e.contentType)+len(c.Body))
	for _, f := range c.Header {
		e.size += int64(len(f.Name)+len(f.Value)) + 32
	}
	if e.size > r.maxBytes {
		return nil
	}
	if ownHeader && c.Header != nil {
		e.header = slices.Clone(c.Header)
	}
	switch {
	case loc != nil && len(c.Body) > 0:
		e.stored, e.bodyLen = *loc, len(c.Body)
	case owned && len(c.Body) > 0:
		e.body, e.busy = c.Body, true
	case len(c.Body) > 0:
		e.body = r.copyBody(c.Body)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID != nil {
		r.indexEntry(e)
	}
	r.fifo = append(r.fifo, e)
	r.used += e.size
	for r.used > r.maxBytes && r.head < len(r.fifo) {
		old := r.fifo[r.head]
		r.fifo[r.head] = nil
		r.head++
		r.used -= old.size
		if r.byID[old.id] == old {
			delete(r.byID, old.id)
		}
		if r.byDigest[old.digestKey] == old {
			delete(r.byDigest, old.digestKey)
		}
		switch {
		case old.busy:
			old.evicted = true
		case !old.shared:
			r.putBuf(old.body)
		}
	}
	if r.head > 1024 && r.head > len(r.fifo)/2 {
		n := copy(r.fifo, r.fifo[r.head:])
		clear(r.fifo[n:])
		r.fifo = r.fifo[:n]
		r.head = 0
	}
	return e
}

// index indexes the entries remembered, once (see Resolver.byID): in
// fifo order, later entries of an ID or digest over earlier ones, as
// inserting each when remembered does (an entry evicted is older than
// every entry kept). r.mu is held.
func (r *Resolver) index() {
	if r.byID != nil {
		return
	}
	r.byID, r.byDigest = map[string]*entry{}, map[string]*entry{}
	for _, e := range r.fifo[r.head:] {
		r.indexEntry(e)
	}
}

// indexEntry indexes e by ID and digest. r.mu is held.
func (r *Resolver) indexEntry(e *entry) {
	if e.id != "" {
		r.byID[e.id] = e
	}
	if e.digestKey != "" {
		r.byDigest[e.digestKey] = e
	}
}

// Resolve fills a revisit capture from the original it refers to, found by
// WARC-Refers-To record ID or else by WARC-Payload-Digest together with
// WARC-Refers-To-Target-URI (or, without it, WARC-Target-URI). It sets
// c.Resolved and reports whether it did.
//
// The body (read-only, shared with other resolved revisits), its
// truncation flag and a missing content type come from the original. The
// status and header stay those of the revisit when it recorded a response
// other than 304 (they are what the server said at that time); when it
// recorded none, the original's are taken; when it recorded a 304, the
// original's status is taken and its header is updated with the 304's
// fields as a cache would (RFC 9111 §4.3.4).
func (r *Resolver) Resolve(c *event.Capture) bool {
	ok, _ := r.resolve(c)
	return ok
}

// resolve is Resolve; the error says why an original stored in an input
// that can be read again could not be read (the revisit is then left
// unresolved).
func (r *Resolver) resolve(c *event.Capture) (bool, error) {
	if c == nil || c.RecordType != "revisit" {
		return false, nil
	}
	r.mu.Lock()
	r.index()
	e := r.byID[trimID(c.RefersTo)]
	if e == nil {
		uri := c.RefersToURI
		if uri == "" {
			uri = c.URL
		}
		if k := digestKey(c.PayloadDigest, uri); k != "" {
			e = r.byDigest[k]
		}
	}
	var body []byte
	if e != nil {
		e.shared = true
		body = e.body
	}
	r.mu.Unlock()
	if e == nil {
		return false, nil
	}
	if body == nil && e.from != nil {
		b, err := e.from.reread(e)
		if err != nil {
			return false, fmt.Errorf("revisit %s: original %s at offset %d of %s: %w", c.RecordID, e.id, e.at, e.from.name, err)
		}
		r.mu.Lock()
		if e.body == nil { // else another reader read it first
			e.body = b
		}
		body = e.body
		r.mu.Unlock()
	}
	// Capacity cut to the length: the buffer may be a pooled one.
	c.Body, c.BodyTruncated = body[:len(body):len(body)], e.truncated
	if c.ContentType == "" {
		c.ContentType = e.contentType
	}
	switch c.Status {
	case 0:
		c.Status, c.Proto, c.Header = e.status, e.proto, e.header
	case 304:
		c.Status = e.status
		c.Header = freshen(e.header, c.Header)
	}
	c.Resolved = true
	return true, nil
}

// freshen returns the stored header updated with the fields of a 304
// response (RFC 9111 §3.2): each field the 304 carries replaces all
// instances of it, except Content-Length and connection-specific fields.
func freshen(stored, notModified event.Header) event.Header {
	keep := func(name string) bool {
		for _, n := range []string{"Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive"} {
			if strings.EqualFold(name, n) {
				return false
			}
		}
		return true
	}
	out := make(event.Header, 0, len(stored)+len(notModified))
	for _, f := range stored {
		if !keep(f.Name) || !notModified.Has(f.Name) {
			out = append(out, f)
		}
	}
	for _, f := range notModified {
		if keep(f.Name) {
			out = append(out, f)
		}
	}
	return out
}
