package audit

import (
	"container/heap"
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
)

// item is one fetch with its place in the input, for a total order.
type item struct {
	f    *event.Fetch
	file int   // index of the source in input order
	seq  int64 // position in the file
}

func less(a, b *item) bool {
	if !a.f.Time.Equal(b.f.Time) {
		return a.f.Time.Before(b.f.Time)
	}
	if a.file != b.file {
		return a.file < b.file
	}
	return a.seq < b.seq
}

type itemHeap []*item

func (h itemHeap) Len() int           { return len(h) }
func (h itemHeap) Less(i, j int) bool { return less(h[i], h[j]) }
func (h itemHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *itemHeap) Push(x any)        { *h = append(*h, x.(*item)) }
func (h *itemHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// stream reads one source's fetches in (nearly) time order.
type stream struct {
	idx   int
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

func copyFetch(f *event.Fetch) *event.Fetch {
	c := *f
	c.Header = slices.Clone(f.Header)
	c.ConcurrentTo = slices.Clone(f.ConcurrentTo)
	return &c
}

func startStream(ctx context.Context, idx int, fs *fileState, extra []string, progress *atomic.Int64, wg *sync.WaitGroup) *stream {
	s := &stream{idx: idx, ch: make(chan []*item, 4)}
	window := fs.window
	if window <= 0 {
		window = reorderWindow
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(s.ch)
		var held itemHeap
		var batch []*item
		var seq int64
		send := func() bool {
			select {
			case s.ch <- batch:
				batch = make([]*item, 0, streamBatch)
				return true
			case <-ctx.Done():
				return false
			}
		}
		noBodies := func(string, string, int) int { return 0 }
		// Read exactly the bytes pass 1 read, hashing them as they go, so
		// that checkPass2 can tell whether the file changed since.
		digest := newCountingHash()
		st, err := ingest.Read(ctx, fs.f, ingest.Options{BodyLimit: noBodies, Progress: progress, LogExtraHeaders: extra,
			Limit: fs.read1, Digest: digest}, ingest.Handler{
			Fetch: func(f *event.Fetch) error {
				seq++
				heap.Push(&held, &item{f: copyFetch(f), file: idx, seq: seq})
				if held.Len() > window {
					batch = append(batch, heap.Pop(&held).(*item))
					if len(batch) == streamBatch && !send() {
						return ctx.Err()
					}
				}
				return nil
			},
		})
		fs.pass2 = pass2Check{done: ctx.Err() == nil, bytes: digest.n, sha: digest.hex(), fetches: st.Fetches, err: err}
		for held.Len() > 0 {
			batch = append(batch, heap.Pop(&held).(*item))
			if len(batch) == streamBatch && !send() {
				break
			}
		}
		if len(batch) > 0 {
			send()
		}
		if err != nil {
			s.errMu.Lock()
			s.err = err
			s.errMu.Unlock()
		}
	}()
	return s
}
