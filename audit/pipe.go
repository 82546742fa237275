package audit

import (
	"github.com/repaudit/repaudit/event"
)

// A pipelined input (readPass1) is parsed on the goroutine that reads it
// and handed, in batches of copies, to a goroutine of its own that does
// the sink's work in file order: spooling and adding fetches, adding
// captures to the builder. The builder sees exactly the calls, in
// exactly the order, that it would have seen on the reading goroutine,
// so the tables are the same whether an input is pipelined or not.
//
// One consumer in file order, rather than a pool of workers each
// building part of a batch, because what the reader does is the larger
// half (inflating, parsing, pairing and resolving an archive's records
// took 3.7 of pass 1's 5.6 CPU-s on one big WARC, the builder and the
// spool 1.8; bench/results/2026-11-28-warc-pass1-split.md): a second
// consumer would wait on the reader all the same.

const (
	// pipeBatch is how many events a pipelined reader hands over at once.
	pipeBatch = 256
	// pipeBodyBytes ends a batch early once the capture bodies copied
	// into it reach this size, so that the 10 batches of a pipe hold a
	// few MiB however large the bodies (64 KiB of an HTML page, 500 KiB
	// of a robots.txt, 1 MiB of JSON: warc.DefaultBodyLimit).
	pipeBodyBytes = 256 << 10
	// pipeBodyKeep is the largest body buffer a recycled batch keeps:
	// one robots.txt or JSON body may take a batch of its own.
	pipeBodyKeep = 4 * pipeBodyBytes
)

// pipeKind says which of a batch's slices holds an event.
type pipeKind uint8

const (
	pipedFetch pipeKind = iota
	pipedCapture
	pipedWarcinfo
)

// pipedInfo is a warcinfo record's fields, which stay valid after the
// reader's call (ingest.Handler), with the record's source.
type pipedInfo struct {
	src  event.Source
	info event.Header
}

// eventBatch holds copies of events a reader reuses (its Fetch, Capture
// and Header values, and a capture's body); the strings are immutable
// and shared. kinds gives the events' order across the three slices.
type eventBatch struct {
	kinds   []pipeKind
	fetches []event.Fetch
	caps    []event.Capture
	infos   []pipedInfo
	fields  []event.Field // the copies' headers
	strs    []string      // the copies' WARC-Concurrent-To values
	body    []byte        // the captures' bodies
}

// pipeTarget is what a pipe calls, on its goroutine, for each event.
type pipeTarget struct {
	fetch    func(*event.Fetch)
	capture  func(*event.Capture)
	warcinfo func(event.Source, event.Header)
}

// eventPipe hands copies of the events given to it to a goroutine of
// its own, in batches, in the order given. Its methods are called from
// one goroutine.
type eventPipe struct {
	full, free chan *eventBatch
	done       chan struct{}
	cur        *eventBatch
}

// newEventPipe starts the goroutine that calls to's functions.
func newEventPipe(to pipeTarget) *eventPipe {
	p := &eventPipe{full: make(chan *eventBatch, 4), free: make(chan *eventBatch, 6), done: make(chan struct{})}
	for range cap(p.free) {
		p.free <- &eventBatch{}
	}
	go func() {
		defer close(p.done)
		for b := range p.full {
			b.run(to)
			b.reset()
			p.free <- b
		}
	}()
	p.cur = <-p.free
	return p
}

// run calls to's functions on the batch's events in order.
func (b *eventBatch) run(to pipeTarget) {
	var f, c, i int
	for _, k := range b.kinds {
		switch k {
		case pipedFetch:
			to.fetch(&b.fetches[f])
			f++
		case pipedCapture:
			to.capture(&b.caps[c])
			c++
		case pipedWarcinfo:
			to.warcinfo(b.infos[i].src, b.infos[i].info)
			i++
		}
	}
}

// reset empties the batch for the next, letting its strings be
// collected.
func (b *eventBatch) reset() {
	clear(b.fetches)
	clear(b.caps)
	clear(b.infos)
	clear(b.fields)
	clear(b.strs)
	b.kinds, b.fetches, b.caps, b.infos = b.kinds[:0], b.fetches[:0], b.caps[:0], b.infos[:0]
	b.fields, b.strs, b.body = b.fields[:0], b.strs[:0], b.body[:0]
	if cap(b.body) > pipeBodyKeep {
		b.body = nil
	}
}

// Fetch hands over a copy of ft.
func (p *eventPipe) Fetch(ft *event.Fetch) {
	b := p.cur
	c := *ft
	c.Header = b.keepFields(ft.Header)
	c.ConcurrentTo = b.keepStrs(ft.ConcurrentTo)
	b.fetches = append(b.fetches, c)
	p.added(pipedFetch)
}

// Capture hands over a copy of c, its body included.
func (p *eventPipe) Capture(c *event.Capture) {
	b := p.cur
	k := *c
	k.Header = b.keepFields(c.Header)
	k.WARCHeader = b.keepFields(c.WARCHeader)
	k.ConcurrentTo = b.keepStrs(c.ConcurrentTo)
	if c.Body != nil {
		n := len(b.body)
		b.body = append(b.body, c.Body...)
		k.Body = b.body[n:len(b.body):len(b.body)]
		if k.Body == nil {
			k.Body = []byte{}
		}
	}
	b.caps = append(b.caps, k)
	p.added(pipedCapture)
}

// Warcinfo hands over a warcinfo record's fields.
func (p *eventPipe) Warcinfo(src event.Source, info event.Header) {
	p.cur.infos = append(p.cur.infos, pipedInfo{src, info})
	p.added(pipedWarcinfo)
}

// added notes the event just copied and hands the batch over when full.
func (p *eventPipe) added(k pipeKind) {
	b := p.cur
	b.kinds = append(b.kinds, k)
	if len(b.kinds) == pipeBatch || len(b.body) >= pipeBodyBytes {
		p.full <- b
		p.cur = <-p.free
	}
}

// end hands over the last batch and returns once every event was seen.
func (p *eventPipe) end() {
	if len(p.cur.kinds) > 0 {
		p.full <- p.cur
	}
	p.cur = nil
	close(p.full)
	<-p.done
}

// keepFields copies h into the batch, nil staying nil. The copy is
// capped: an append to one copy never reaches the next's. (An append
// that grows the batch's slice leaves earlier copies in the old array,
// still theirs.)
func (b *eventBatch) keepFields(h event.Header) event.Header {
	if h == nil {
		return nil
	}
	n := len(b.fields)
	b.fields = append(b.fields, h...)
	if c := b.fields[n:len(b.fields):len(b.fields)]; c != nil {
		return c
	}
	return event.Header{}
}

// keepStrs copies s into the batch, nil staying nil.
func (b *eventBatch) keepStrs(s []string) []string {
	if s == nil {
		return nil
	}
	n := len(b.strs)
	b.strs = append(b.strs, s...)
	if c := b.strs[n:len(b.strs):len(b.strs)]; c != nil {
		return c
	}
	return []string{}
}
