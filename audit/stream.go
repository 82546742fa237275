package audit

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/repaudit/repaudit/event"
)

// item is one fetch with its place in the input, for a total order.
type item struct {
	f    *event.Fetch
	sec  int64 // f.Time as Unix seconds and nanoseconds: the heaps compare
	nsec int32 // these rather than time.Time (same order, less work)
	src  int32 // index of the stream it came from (judging.merge)
	file int   // index of the source in input order
	seq  int64 // position in the file
	slab *fetchSlab
}

func less(a, b *item) bool {
	if a.sec != b.sec {
		return a.sec < b.sec
	}
	if a.nsec != b.nsec {
		return a.nsec < b.nsec
	}
	if a.file != b.file {
		return a.file < b.file
	}
	return a.seq < b.seq
}

// itemSlab is how many items (and their fetches) a slab holds.
const itemSlab = streamBatch

// fetchSlab holds the items a file reader hands out and the fetches they
// carry. Slabs are recycled once every item is released (judging.release:
// the task that carries it is written), so that decoding a fetch
// allocates only its strings: pass 2 allocated a fetch and an item per
// fetch, most of its garbage. The items of one slab travel in nearby
// tasks.
//
// A source with fewer fetches than a slab gets a slab of its own size,
// not from the pool: thousands of one-line logs (S3, CloudFront) would
// otherwise pin a whole slab (about 100 KiB) each while their one fetch
// goes through the pipeline.
type fetchSlab struct {
	items   []item
	fetches []event.Fetch
	left    atomic.Int32 // items not yet released, counting unused ones
}

var fetchSlabs = sync.Pool{New: func() any {
	return &fetchSlab{items: make([]item, itemSlab), fetches: make([]event.Fetch, itemSlab)}
}}

// newFetchSlab returns a slab for the next fetches of a source that has
// about n left.
func newFetchSlab(n int64) *fetchSlab {
	var sl *fetchSlab
	if n > 0 && n < itemSlab {
		sl = &fetchSlab{items: make([]item, n), fetches: make([]event.Fetch, n)}
	} else {
		sl = fetchSlabs.Get().(*fetchSlab)
	}
	sl.left.Store(int32(len(sl.items)))
	return sl
}

// release releases n > 0 items of the slab; the last one recycles it.
// The released items and their fetches must not be used again.
func (sl *fetchSlab) release(n int32) {
	if sl.left.Add(-n) == 0 && len(sl.items) == itemSlab {
		fetchSlabs.Put(sl) // NextInto overwrites a fetch whole
	}
}

// itemHeap is a min-heap of items by less. Its methods call less
// directly: container/heap's calls through an interface cost the merge
// about a tenth of a second per million fetches. less is a total order
// (file and seq tell any two items apart), so any heap gives the items
// back in the same order.
type itemHeap []*item

func (h itemHeap) Len() int { return len(h) }

// push adds it.
func (h *itemHeap) push(it *item) {
	*h = append(*h, it)
	s := *h
	j := len(s) - 1
	for j > 0 {
		i := (j - 1) / 2
		if !less(s[j], s[i]) {
			break
		}
		s[i], s[j] = s[j], s[i]
		j = i
	}
}

// pop removes and returns the smallest item; h is not empty.
func (h *itemHeap) pop() *item {
	s := *h
	n := len(s) - 1
	it := s[0]
	s[0] = s[n]
	s[n] = nil
	*h = s[:n]
	if n > 1 {
		h.fixTop()
	}
	return it
}

// fixTop restores the heap after its smallest item was replaced.
func (h itemHeap) fixTop() {
	i, n := 0, len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && less(h[r], h[l]) {
			j = r
		}
		if !less(h[j], h[i]) {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

// stream reads one source's fetches in (nearly) time order: its
// spool's runs (runs.go) in file order, or one of them.
type stream struct {
	idx   int // the file's index in input order
	src   int32
	runs  []spoolRun
	ends  []int64 // the byte offset each run ends at; -1: the spool's end
	ch    chan []*item
	buf   []*item
	err   error
	errMu sync.Mutex
}

func (s *stream) next() (*item, bool) {
	for len(s.buf) == 0 {
		b, ok := <-s.ch
		if !ok {
			return nil, false
		}
		s.buf = b
	}
	it := s.buf[0]
	s.buf = s.buf[1:]
	return it, true
}

// startStream reads the fetches pass 1 spooled for fs (never the input
// itself), in file order through the file's reorder window, and sends
// them in batches; progress counts the spool's bytes. The spool is
// released when read.
func startStream(ctx context.Context, idx int, src int32, fs *fileState, runs []spoolRun, ends []int64, progress *atomic.Int64, wg *sync.WaitGroup) *stream {
	s := &stream{idx: idx, src: src, runs: runs, ends: ends, ch: make(chan []*item, 2)}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(s.ch)
		defer fs.spool.done()
		if err := s.run(ctx, fs, progress); err != nil {
			s.errMu.Lock()
			s.err = err
			s.errMu.Unlock()
		}
	}()
	return s
}

// run sends the spool's fetches on s.ch.
func (s *stream) run(ctx context.Context, fs *fileState, progress *atomic.Int64) error {
	window := fs.window
	if window <= 0 {
		window = reorderWindow
	}
	if fs.spool.sorted || fs.spool.windowed && window == reorderWindow {
		// Already in time order: the window would give the fetches back
		// as they come ((time, file, seq) order within one file). Or
		// already through the window (window.go).
		window = 0
	}
	var held itemHeap
	// A small source's batch is no larger than the source.
	batchCap := int(min(streamBatch, max(fs.stats.Fetches, 1)))
	batch := make([]*item, 0, batchCap)
	var seq, counted int64
	var r *event.FetchReader
	var done int64 // bytes of the runs read before r
	var slab *fetchSlab
	used := 0 // items of slab handed out
	defer func() {
		if slab != nil && used < len(slab.items) {
			slab.release(int32(len(slab.items) - used))
		}
	}()
	send := func() bool {
		if progress != nil {
			pos := done
			if r != nil {
				pos += r.Consumed()
			}
			progress.Add(pos - counted)
			counted = pos
		}
		select {
		case s.ch <- batch:
			batch = make([]*item, 0, batchCap)
			return true
		case <-ctx.Done():
			return false
		}
	}
	run := 0
	for {
		if r == nil {
			if run == len(s.runs) {
				break
			}
			var err error
			if r, err = fs.spool.reader(s.runs[run].off, s.ends[run]); err != nil {
				return err
			}
			seq = s.runs[run].seq // positions count from the file's start
			run++
		}
		if slab == nil || used == len(slab.items) {
			slab, used = newFetchSlab(fs.stats.Fetches-seq), 0
		}
		f := &slab.fetches[used]
		err := r.NextInto(f)
		if err == io.EOF {
			done += r.Consumed()
			r = nil
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: fetches spooled by pass 1: %w", fs.f.Path, err)
		}
		seq++
		it := &slab.items[used]
		used++
		*it = item{f: f, sec: f.Time.Unix(), nsec: int32(f.Time.Nanosecond()), src: s.src, file: s.idx, seq: seq, slab: slab}
		if window > 0 {
			held.push(it)
			if held.Len() <= window {
				continue
			}
			it = held.pop()
		}
		batch = append(batch, it)
		if len(batch) == streamBatch && !send() {
			return ctx.Err()
		}
	}
	for held.Len() > 0 {
		batch = append(batch, held.pop())
		if len(batch) == streamBatch && !send() {
			return ctx.Err()
		}
	}
	if len(batch) > 0 {
		send()
	}
	return nil
}

// runEnds returns the byte offset each run ends at, -1 for the last
// (the spool's end).
func runEnds(runs []spoolRun) []int64 {
	ends := make([]int64, len(runs))
	for j := range runs {
		ends[j] = -1
		if j+1 < len(runs) {
			ends[j] = runs[j+1].off
		}
	}
	return ends
}
