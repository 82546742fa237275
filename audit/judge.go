package audit

import (
	"container/heap"
	"context"
	"errors"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/table"
)

const (
	streamBatch   = 256  // fetches per message from a file reader
	reorderWindow = 4096 // fetches held per file to absorb local disorder
	judgeBatch    = 512  // fetches per judging task
)

type task struct {
	seq   int
	items []*item
	out   []evaluate.Judgement
}

// judgeAll merges the fetch sources by time, judges them in parallel and
// writes the results in merged order.
func judgeAll(ctx context.Context, jobs int, model *evaluate.Model, sources []*fileState, extra []string, sink table.Sink, progress, events *atomic.Int64) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// Open sources lazily in order of their first timestamp.
	order := make([]int, len(sources))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return sources[order[a]].stats.First.Before(sources[order[b]].stats.First)
	})

	tasks := make(chan *task, jobs*2)
	done := make(chan *task, jobs*2)
	var streams []*stream
	var streamsWG sync.WaitGroup // fileState.pass2 is read once they end
	defer func() { cancel(); streamsWG.Wait() }()
	mergeErr := make(chan error, 1)

	go func() { // merger
		defer close(tasks)
		var heads itemHeap
		bySource := make([]*stream, len(sources)) // an item's stream is bySource[item.file]
		pending := 0
		activate := func() {
			s := startStream(ctx, order[pending], sources[order[pending]], extra, progress, &streamsWG)
			streams = append(streams, s)
			bySource[s.idx] = s
			pending++
			if it, ok := s.next(); ok {
				heap.Push(&heads, it)
			}
		}
		seq := 0
		cur := &task{seq: seq}
		for {
			for pending < len(order) && (heads.Len() == 0 || !sources[order[pending]].stats.First.After(heads[0].f.Time)) {
				activate()
			}
			if heads.Len() == 0 {
				break
			}
			it := heap.Pop(&heads).(*item)
			if nx, ok := bySource[it.file].next(); ok {
				heap.Push(&heads, nx)
			}
			cur.items = append(cur.items, it)
			if len(cur.items) == judgeBatch {
				select {
				case tasks <- cur:
				case <-ctx.Done():
					mergeErr <- ctx.Err()
					return
				}
				seq++
				cur = &task{seq: seq}
			}
		}
		if len(cur.items) > 0 {
			select {
			case tasks <- cur:
			case <-ctx.Done():
				mergeErr <- ctx.Err()
				return
			}
		}
		mergeErr <- nil
	}()

	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range tasks {
				t.out = make([]evaluate.Judgement, len(t.items))
				for i, it := range t.items {
					t.out[i] = model.Judge(it.f)
				}
				events.Add(int64(len(t.items)))
				select {
				case done <- t:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()

	tracker := model.NewTracker()
	waiting := map[int]*task{}
	next := 0
	var werr error
	for t := range done {
		if werr != nil {
			continue
		}
		waiting[t.seq] = t
		for {
			t, ok := waiting[next]
			if !ok {
				break
			}
			delete(waiting, next)
			next++
			for i := range t.out {
				j := &t.out[i]
				tracker.Observe(j)
				if err := sink.Fetch(&j.Fetch); err != nil {
					werr = err
					cancel()
					break
				}
				for k := range j.Violations {
					if err := sink.Violation(&j.Violations[k]); err != nil {
						werr = err
						cancel()
						break
					}
				}
			}
		}
	}
	if werr != nil {
		return werr
	}
	if err := <-mergeErr; err != nil {
		return err
	}
	var errs []error
	for _, s := range streams {
		s.errMu.Lock()
		if s.err != nil && !errors.Is(s.err, context.Canceled) {
			errs = append(errs, s.err)
		}
		s.errMu.Unlock()
	}
	return errors.Join(errs...)
}
