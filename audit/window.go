package audit

import (
	"container/heap"
	"sync"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
)

// Pass 2 reads each input's fetches through a reorder window of
// reorderWindow fetches (stream.go), every input at once: eight archives
// held 8 × 4096 decoded fetches, and the slabs their items pinned (an item
// held back for long keeps its whole slab), a large share of the WARC
// case's live heap (bench/results/2026-11-27-figures-from-comments.md). For an archive, pass 1 puts the fetches through the
// same window as it spools them instead (spoolWindow), while only the
// jobs inputs being read hold one, and pass 2 reads the spool as it is
// (fetchSpool.windowed).
//
// The order is the same: pass 2's window pops the least (time, position
// in file) of what it holds each time it holds more than reorderWindow,
// then the rest in order, and so does spoolWindow, from the same fetches
// in the same file order. The positions pass 2 gives the spooled fetches
// are then in that order, which keeps fetches of the same time in the
// order the window gave them, and the merge across files compares
// (time, file, position) as before.

// windowed reports whether pass 1 puts the fetches of an input of kind k
// through the reorder window. Logs are mostly written in time order (the
// spool then needs no window at all) and are many lines each: they keep
// pass 2's window, and newestFirst's whole-file sort.
func windowed(k ingest.Kind) bool {
	return k == ingest.KindWARC || k == ingest.KindARC
}

// spooler returns how pass 1 hands the fetches of fs to its spool, in
// the order it read them: straight to it, or through a spoolWindow for an
// archive; end hands over what the window holds.
func spooler(fs *fileState) (add func(*event.Fetch), end func()) {
	if !windowed(fs.f.Kind) {
		if fs.f.Kind == ingest.KindLog {
			fs.spool.runs = newRunSplitter() // runs.go
		}
		return fs.spool.add, func() {}
	}
	w := newSpoolWindow(reorderWindow, fs.spool.add)
	fs.spool.windowed = true
	return w.add, w.flush
}

// spoolWindow holds the last fetches an input gave and hands them to out
// in pass 2's reorder-window order: add hands over the least once more
// than size are held, flush the rest.
type spoolWindow struct {
	size int
	out  func(*event.Fetch)
	held heldHeap
	free []*heldFetch // slots of fetches handed over, for reuse
	seq  int64
}

// heldFetch is a copy of one fetch the window holds: the reader reuses
// its Fetch, Header and WARC-Concurrent-To values (their strings are
// immutable and are shared).
type heldFetch struct {
	f   event.Fetch
	key item // its place in pass 2's order (less), file and fetch unset
}

func newSpoolWindow(size int, out func(*event.Fetch)) *spoolWindow {
	return &spoolWindow{size: size, out: out}
}

// add copies f into the window and hands over the least fetch held
// when the window is over its size.
func (w *spoolWindow) add(f *event.Fetch) {
	var h *heldFetch
	if n := len(w.free); n > 0 {
		h, w.free = w.free[n-1], w.free[:n-1]
	} else {
		h = heldFetches.Get().(*heldFetch)
	}
	hdr, conc := h.f.Header[:0], h.f.ConcurrentTo[:0]
	h.f = *f
	h.f.Header, h.f.ConcurrentTo = nil, nil
	// nil and empty differ to the spool's coder: keep which it was.
	if f.Header != nil {
		if hdr == nil {
			hdr = make(event.Header, 0, len(f.Header))
		}
		h.f.Header = append(hdr, f.Header...)
	}
	if f.ConcurrentTo != nil {
		if conc == nil {
			conc = make([]string, 0, len(f.ConcurrentTo))
		}
		h.f.ConcurrentTo = append(conc, f.ConcurrentTo...)
	}
	w.seq++
	h.key = item{sec: f.Time.Unix(), nsec: int32(f.Time.Nanosecond()), seq: w.seq}
	heap.Push(&w.held, h)
	if w.held.Len() > w.size {
		w.pop()
	}
}

// pop hands over the least fetch held.
func (w *spoolWindow) pop() {
	h := heap.Pop(&w.held).(*heldFetch)
	w.out(&h.f)
	// The spool has coded it: drop its strings, keep its slices' room.
	clear(h.f.Header)
	clear(h.f.ConcurrentTo)
	hdr, conc := h.f.Header[:0], h.f.ConcurrentTo[:0]
	h.f = event.Fetch{Header: hdr, ConcurrentTo: conc}
	w.free = append(w.free, h)
}

// flush hands over every fetch held, in order.
func (w *spoolWindow) flush() {
	for w.held.Len() > 0 {
		w.pop()
	}
	for _, h := range w.free {
		heldFetches.Put(h)
	}
	w.free = nil
}

// heldFetches recycles the windows' slots from one archive to the next.
var heldFetches = sync.Pool{New: func() any { return new(heldFetch) }}

// heldHeap orders held fetches by time, then position in the file: by
// less, which orders the items of one file in pass 2.
type heldHeap []*heldFetch

func (h heldHeap) Len() int           { return len(h) }
func (h heldHeap) Less(i, j int) bool { return less(&h[i].key, &h[j].key) }
func (h heldHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *heldHeap) Push(x any)        { *h = append(*h, x.(*heldFetch)) }
func (h *heldHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return x
}
