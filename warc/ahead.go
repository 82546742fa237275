package warc

import (
	"github.com/repaudit/repaudit/problem"
)

// Reading ahead (Options.ReadAhead): a goroutine of its own runs a
// memberStream over the stored bytes (the producer: inflating gzip
// members and zstd frames, finding where members start, skipping
// corrupt ones) while the parser reads the decompressed bytes through
// the Reader's memberStream (the consumer). The producer hands over, in
// batches, each of its Reads: the bytes, the boundaries it found and
// the problems it met (before or after the bytes), the error it
// returned, and where it stood in storage. The consumer plays each Read
// back when the parser first asks for bytes past the one before, so the
// parser meets the boundaries and errors at the same decompressed
// offsets as when it inflates itself: a consumer Read never spans two of
// the producer's, as a memberStream Read never spans two members, and
// both end where a member ends. Problems are still reported on the
// parser's goroutine, in the order met; one met at a member's end (a
// checksum, corrupt data) is played back with the producer's Read that
// met it, whose start in the member depends on the producer's buffer,
// not the parser's (package doc).

const (
	aheadBatchBytes = 64 << 10 // decompressed bytes a batch holds at most
	aheadBatches    = 8        // batches in flight: 512 KiB ahead
	aheadMinRead    = 4 << 10  // a batch with less room left is sent
)

// aheadOp is a boundary the producer found (boundary: a member starts
// at stored offset stored) or a problem it met, and whether that
// happened after the Read's bytes were counted.
type aheadOp struct {
	boundary bool
	post     bool
	stored   int64
	code     problem.Code
	sev, msg string
}

// aheadRead is one Read of the producer: n bytes of its batch's data,
// or err; ops[opLo:opHi] of the batch happened during it; start, cutAt
// and stored are the producer's after it.
type aheadRead struct {
	n                    int
	err                  error
	opLo, opHi           int
	start, cutAt, stored int64
}

type aheadBatch struct {
	data  []byte
	reads []aheadRead
	ops   []aheadOp
}

// readAhead is the consumer's side: the batch being played back.
type readAhead struct {
	full, free chan *aheadBatch
	quit       chan struct{}
	done       chan struct{} // closed when the producer has returned
	cur        *aheadBatch
	read       int   // cur.reads[read] is the Read being played back
	off        int   // bytes of cur.data already played back
	left       int   // bytes of cur.reads[read] not yet played back
	stored     int64 // the producer's stored offset after the Read played back
}

// startAhead makes m the consumer of a producer memberStream p, which a
// goroutine of its own reads from now on.
func (m *memberStream) startAhead(p *memberStream) {
	a := &readAhead{full: make(chan *aheadBatch, aheadBatches), free: make(chan *aheadBatch, aheadBatches+1),
		quit: make(chan struct{}), done: make(chan struct{}), left: -1}
	for range cap(a.free) {
		a.free <- &aheadBatch{data: make([]byte, aheadBatchBytes)}
	}
	m.ahead = a
	go a.produce(p)
}

// produce reads p until it ends or the consumer quits.
func (a *readAhead) produce(p *memberStream) {
	defer close(a.done)
	defer p.close()
	var b *aheadBatch
	var uStart int64
	p.onBoundary = func(stored int64) {
		b.ops = append(b.ops, aheadOp{boundary: true, post: p.u != uStart, stored: stored})
	}
	p.report = func(code problem.Code, sev string, stored int64, msg string) {
		b.ops = append(b.ops, aheadOp{post: p.u != uStart, stored: stored, code: code, sev: sev, msg: msg})
	}
	used := 0
	for {
		if b == nil {
			select {
			case b = <-a.free:
			case <-a.quit:
				return
			}
			b.data, b.reads, b.ops, used = b.data[:cap(b.data)], b.reads[:0], b.ops[:0], 0
		}
		uStart = p.u
		lo := len(b.ops)
		n, err := p.Read(b.data[used:])
		if err == errSkipped {
			p.ack() // the consumer holds the skip until its parser acks
		}
		used += n
		b.reads = append(b.reads, aheadRead{n: n, err: err, opLo: lo, opHi: len(b.ops), start: p.start, cutAt: p.cutAt, stored: p.stored()})
		last := err != nil && err != errSkipped
		if last || len(b.data)-used < aheadMinRead || len(b.reads) >= 1024 {
			b.data = b.data[:used]
			select {
			case a.full <- b:
			case <-a.quit:
				return
			}
			b = nil
		}
		if last {
			return
		}
	}
}

// readAheadInto is memberStream.Read for a consumer.
func (m *memberStream) readAheadInto(p []byte) (int, error) {
	a := m.ahead
	for {
		if m.pendingSkip {
			return 0, errSkipped
		}
		if m.err != nil {
			return 0, m.err
		}
		if a.left > 0 {
			n := copy(p, a.cur.data[a.off:a.off+a.left])
			if n > 0 && m.u == m.lastStartU() {
				m.members++
			}
			m.u += int64(n)
			a.off += n
			if a.left -= n; a.left == 0 {
				m.endRead()
			}
			return n, nil
		}
		m.nextRead()
	}
}

// nextRead starts playing back the producer's next Read: its ops that
// came before its bytes, or all of them and its error when it has no
// bytes. (The producer sends a Read that ends the stream last, and stops
// only after it or when told to, by close.)
func (m *memberStream) nextRead() {
	a := m.ahead
	if a.cur != nil && a.read+1 < len(a.cur.reads) {
		a.read++
	} else {
		if a.cur != nil {
			a.free <- a.cur
		}
		a.cur, a.read, a.off = <-a.full, 0, 0
	}
	rd := &a.cur.reads[a.read]
	m.start, m.cutAt, a.stored = rd.start, rd.cutAt, rd.stored
	m.playOps(rd, false)
	a.left = rd.n
	if rd.n == 0 {
		m.endRead()
	}
}

// endRead plays back what the Read did after its bytes: its ops, and
// its error for the next call.
func (m *memberStream) endRead() {
	a := m.ahead
	rd := &a.cur.reads[a.read]
	m.playOps(rd, true)
	switch rd.err {
	case nil:
	case errSkipped:
		m.pendingSkip = true
	default:
		m.err = rd.err
	}
}

// playOps applies the Read's ops that came before (post false) or after
// its bytes.
func (m *memberStream) playOps(rd *aheadRead, post bool) {
	for _, op := range m.ahead.cur.ops[rd.opLo:rd.opHi] {
		switch {
		case op.post != post:
		case op.boundary:
			m.addBoundary(op.stored)
		default:
			m.report(op.code, op.sev, op.stored, op.msg)
		}
	}
}

// stopAhead tells the producer to stop and waits until it has.
func (m *memberStream) stopAhead() {
	a := m.ahead
	select {
	case <-a.quit:
		return
	default:
	}
	close(a.quit)
	<-a.done
}
