package audit

import (
	"context"
	"errors"
	"runtime/pprof"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/internal/inorder"
	"github.com/repaudit/repaudit/table"
)

const (
	streamBatch   = 256  // fetches per message from a file reader
	reorderWindow = 4096 // fetches held per file to absorb local disorder
	judgeBatch    = 512  // fetches per judging task
)

// viewHold is the most fetches of one time the views stage holds before
// it settles the bots' robots.txt views for them (docs/design.md, "Memory"):
// a robots.txt fetch counts for every fetch of its time, whatever the
// file order, up to this many fetches of one time (about 32 MB of them).
var viewHold = 1 << 16 // a variable for tests

// task is one batch of merged fetches on its way through pass 2: the
// merger fills items, a worker fills out, the orderer adds the findings
// that need order, and the two table writers read it. Tasks are recycled
// once both writers are done with them.
type task struct {
	seq     int
	items   []*item
	views   []evaluate.FetchView // the bots' robots.txt views of items (a streamed model)
	out     []evaluate.Judgement
	pending atomic.Int32 // writers still to read the task
}

// judging is pass 2: a pipeline of goroutines, each stage one kind of work, so
// that the work that must be sequential is spread over several of them
// and a second core has something to do even with one judging worker:
//
//	file readers (one per source, stream.go)
//	  → merger: one stream in (time, file, seq) order, cut into tasks
//	  → views: ViewTracker.Step, the bots' robots.txt views in that order
//	    (a model built with Builder.StreamViews)
//	  → jobs workers: a Judger each (Judger.JudgeInto), tasks in any order
//	  → orderer: tasks back in merged order, Tracker.Observe
//	  → fetch writer and violation writer: the two tables, each in order
//	    (package output spreads a table's appending and encoding over up
//	    to GOMAXPROCS goroutines, byte for byte as one would write it);
//	    beside them, the count stage: the summary's and notices' counts
//	    of the fetches rows (countingSink.count), off the fetch writer,
//	    whose goroutine is the wall of pass 2 on many cores
//
// The orderer and the writers see the tasks in merged order whatever the
// number of workers, so the tables are byte-identical for any -j.
// Channels between stages hold a few tasks each (-j+1 only where the
// workers read), which bounds memory. The first error cancels every stage
// (errgroup); errors of a file reader are collected at the end and do not
// stop the others.
type judging struct {
	model   *evaluate.Model
	sources []*fileState
	sink    table.Sink
	// count counts a fetches row for the closing summary, on a goroutine
	// of its own (nil: nothing counts), and fetch writes it on the fetch
	// writer's: with many cores the fetch writer's goroutine is the wall
	// of pass 2, and counting is work any goroutine may do once the
	// orderer has settled the row (Tracker.Observe may make it spoofed).
	count    func(*table.Fetch)
	fetch    func(*table.Fetch) error
	progress *atomic.Int64 // input bytes read
	events   *atomic.Int64 // fetches judged
	jobs     int

	streams   []*stream      // started by the merger; read once it ends
	streamsWG sync.WaitGroup // fileState.pass2 is read once they end
	free      sync.Pool      // recycled *task
}

// judgeAll merges the fetch sources by time, judges them in parallel and
// writes the results in merged order.
func judgeAll(ctx context.Context, jobs int, model *evaluate.Model, sources []*fileState, sink table.Sink, progress, events *atomic.Int64) error {
	p := &judging{model: model, sources: sources, sink: sink, progress: progress, events: events, jobs: max(1, jobs)}
	p.fetch = sink.Fetch
	if c, ok := sink.(*countingSink); ok {
		p.count, p.fetch = c.count, c.Sink.Fetch
	}
	err := p.run(ctx)
	// The readers stop once the group's context is cancelled, which
	// errgroup does when run returns.
	p.streamsWG.Wait()
	if err != nil {
		return err
	}
	return p.streamErrors()
}

func (p *judging) run(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	// A task or two of slack per stage is enough to keep every stage
	// busy; more would only hold more fetches in memory.
	merged := make(chan *task, p.jobs+1)
	viewed := merged
	if p.model.Streams() {
		// The views stage alone reads merged: two tasks keep it busy,
		// and each task waiting there holds its fetches' slabs.
		merged = make(chan *task, 2)
		viewed = make(chan *task, p.jobs+1)
	}
	// The orderer takes every judged task at once (those ahead of the
	// next in order wait in its map): two tasks of slack do.
	judged := make(chan *task, 2)
	fetches := make(chan *task, 2)
	violations := make(chan *task, 2)
	var counted chan *task // nil: no count stage
	if p.count != nil {
		counted = make(chan *task, 2)
	}
	stage := func(name string, f func(context.Context) error) {
		g.Go(func() error {
			var err error
			// The label lets a CPU profile tell the stages apart:
			// go tool pprof -tags or -tagfocus=pass2=judge.
			pprof.Do(ctx, pprof.Labels("pass2", name), func(ctx context.Context) { err = f(ctx) })
			return err
		})
	}
	stage("merge", func(ctx context.Context) error {
		defer close(merged)
		return p.merge(ctx, merged)
	})
	if p.model.Streams() {
		stage("views", func(ctx context.Context) error {
			defer close(viewed)
			return p.views(ctx, merged, viewed)
		})
	}
	stage("judge", func(ctx context.Context) error {
		defer close(judged)
		return p.judgePool(ctx, viewed, judged)
	})
	stage("order", func(ctx context.Context) error {
		defer close(fetches)
		defer close(violations)
		if counted != nil {
			defer close(counted)
		}
		return p.order(ctx, judged, fetches, violations, counted)
	})
	if counted != nil {
		stage("count", func(ctx context.Context) error { return p.countFetches(ctx, counted) })
	}
	stage("write-fetches", func(ctx context.Context) error { return p.writeFetches(ctx, fetches) })
	stage("write-violations", func(ctx context.Context) error { return p.writeViolations(ctx, violations) })
	return g.Wait()
}

// send hands t to the next stage unless ctx is cancelled first.
func send(ctx context.Context, ch chan<- *task, t *task) error {
	select {
	case ch <- t:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *judging) newTask(seq int) *task {
	t, _ := p.free.Get().(*task)
	if t == nil {
		t = &task{items: make([]*item, 0, judgeBatch)}
	}
	t.seq = seq
	return t
}

// release returns t for reuse once the last writer is done with it, and
// its items and fetches to their slabs (stream.go).
func (p *judging) release(t *task) {
	if t.pending.Add(-1) == 0 {
		for _, it := range t.items {
			it.slab.release(1)
		}
		clear(t.items)
		t.items = t.items[:0]
		clear(t.views) // and the views they held
		t.views = t.views[:0]
		p.free.Put(t)
	}
}

// merge opens the sources lazily in order of their first timestamp and
// cuts their fetches, merged by (time, file, seq), into tasks. A log
// split into runs (runs.go) is read as one source per run.
func (p *judging) merge(ctx context.Context, out chan<- *task) error {
	type unit struct {
		file  int
		runs  []spoolRun
		ends  []int64
		first time.Time
	}
	var units []unit
	for i, fs := range p.sources {
		runs := fs.spool.segments()
		ends := runEnds(runs)
		if !fs.split || len(runs) == 1 {
			units = append(units, unit{file: i, runs: runs, ends: ends, first: fs.stats.First})
			fs.spool.prepare(1)
			continue
		}
		for j := range runs {
			units = append(units, unit{file: i, runs: runs[j : j+1], ends: ends[j : j+1], first: runs[j].first})
		}
		fs.spool.prepare(len(runs))
	}
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return units[order[a]].first.Before(units[order[b]].first)
	})
	var heads itemHeap
	bySource := make([]*stream, len(units)) // an item's stream is bySource[item.src]
	pending := 0
	activate := func() {
		var s *stream
		u := units[order[pending]]
		// The reader goroutine inherits the label in force when it starts.
		pprof.Do(ctx, pprof.Labels("pass2", "read"), func(ctx context.Context) {
			s = startStream(ctx, u.file, int32(order[pending]), p.sources[u.file], u.runs, u.ends, p.progress, &p.streamsWG)
		})
		p.streams = append(p.streams, s)
		bySource[s.src] = s
		pending++
		if it, ok := s.next(); ok {
			heads.push(it)
		}
	}
	defer func() {
		// Units never opened (the merge ended early) still release
		// their spool.
		for ; pending < len(order); pending++ {
			p.sources[units[order[pending]].file].spool.done()
		}
	}()
	seq := 0
	cur := p.newTask(seq)
	for {
		for pending < len(order) && (heads.Len() == 0 || !units[order[pending]].first.After(heads[0].f.Time)) {
			activate()
		}
		if heads.Len() == 0 {
			break
		}
		// The smallest head is taken, and its stream's next item takes
		// its place: one sift instead of a Pop and a Push.
		it := heads[0]
		if nx, ok := bySource[it.src].next(); ok {
			heads[0] = nx
			heads.fixTop()
		} else {
			heads.pop()
		}
		cur.items = append(cur.items, it)
		if len(cur.items) == judgeBatch {
			if err := send(ctx, out, cur); err != nil {
				return err
			}
			seq++
			cur = p.newTask(seq)
		}
	}
	if len(cur.items) > 0 {
		return send(ctx, out, cur)
	}
	return ctx.Err()
}

// judgePool runs p.jobs workers that judge tasks in any order.
func (p *judging) judgePool(ctx context.Context, in <-chan *task, out chan<- *task) error {
	g, ctx := errgroup.WithContext(ctx)
	for range p.jobs {
		g.Go(func() error {
			jg := p.model.NewJudger() // caches of its own: one per worker
			for t := range in {
				p.judgeTask(jg, t)
				if err := send(ctx, out, t); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// judgeTask judges every fetch of t into t.out, reusing its judgements.
func (p *judging) judgeTask(jg *evaluate.Judger, t *task) {
	if cap(t.out) < len(t.items) {
		t.out = make([]evaluate.Judgement, len(t.items))
	}
	t.out = t.out[:len(t.items)]
	if len(t.views) == len(t.items) {
		for i, it := range t.items {
			jg.JudgeIntoView(&t.out[i], it.f, &t.views[i])
		}
	} else {
		for i, it := range t.items {
			jg.JudgeInto(&t.out[i], it.f)
		}
	}
	p.events.Add(int64(len(t.items)))
}

// views settles the bots' robots.txt views of every fetch in merged order
// (evaluate.ViewTracker) and passes the tasks on in that order. The
// fetches of one time are held until the next time shows up (at most
// viewHold of them): a bot's robots.txt fetch counts for every fetch of
// its time, whatever the input order of their files.
func (p *judging) views(ctx context.Context, in <-chan *task, out chan<- *task) error {
	vt := p.model.NewViewTracker()
	type ref struct {
		t *task
		i int
	}
	var (
		held  []*task // tasks not sent yet, in order
		group []ref   // the fetches of one time, not settled yet
		fs    []*event.Fetch
		vs    []*evaluate.FetchView
		gsec  int64 // the time of the fetches in group
		gnsec int32
	)
	step := func() {
		fs, vs = fs[:0], vs[:0]
		for _, r := range group {
			fs = append(fs, r.t.items[r.i].f)
			vs = append(vs, &r.t.views[r.i])
		}
		vt.StepTo(fs, vs) // views written in place
		clear(fs)
		clear(vs)
		group = group[:0]
	}
	// sendHeld sends the held tasks that hold no unsettled fetch.
	sendHeld := func() error {
		n := len(held)
		if len(group) > 0 {
			n = slices.Index(held, group[0].t)
		}
		for _, t := range held[:n] {
			if err := send(ctx, out, t); err != nil {
				return err
			}
		}
		held = append(held[:0], held[n:]...)
		return nil
	}
	for t := range in {
		t.views = slices.Grow(t.views[:0], len(t.items))[:len(t.items)]
		held = append(held, t)
		for i, it := range t.items {
			// it.sec and it.nsec are the instant f.Time is (stream.go).
			if len(group) > 0 && (it.sec != gsec || it.nsec != gnsec || len(group) >= viewHold) {
				step()
			}
			if len(group) == 0 {
				gsec, gnsec = it.sec, it.nsec
			}
			group = append(group, ref{t, i})
		}
		if err := sendHeld(); err != nil {
			return err
		}
	}
	if len(group) > 0 {
		step()
	}
	if err := sendHeld(); err != nil {
		return err
	}
	return ctx.Err()
}

// order puts judged tasks back in merged order, adds the findings that
// need the fetches before them (Tracker), and hands each task to both
// table writers and to counted (unless nil).
func (p *judging) order(ctx context.Context, in <-chan *task, fetches, violations, counted chan<- *task) error {
	tracker := p.model.NewTracker()
	err := inorder.Drain(in, func(t *task) int { return t.seq }, func(t *task) error {
		for i := range t.out {
			tracker.Observe(&t.out[i])
		}
		t.pending.Store(2)
		if counted != nil {
			t.pending.Store(3)
		}
		if err := send(ctx, fetches, t); err != nil {
			return err
		}
		if err := send(ctx, violations, t); err != nil {
			return err
		}
		if counted != nil {
			return send(ctx, counted, t)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return ctx.Err()
}

// writeFetches writes the fetches rows of each task, in order. It runs
// beside writeViolations: table.Sink implementations take the two tables
// from different goroutines (output.Writer, table.Collector, countingSink).
func (p *judging) writeFetches(ctx context.Context, in <-chan *task) error {
	for t := range in {
		for i := range t.out {
			if err := p.fetch(&t.out[i].Fetch); err != nil {
				return err
			}
		}
		p.release(t)
	}
	return ctx.Err()
}

// countFetches counts the fetches rows of each task (p.count).
func (p *judging) countFetches(ctx context.Context, in <-chan *task) error {
	for t := range in {
		for i := range t.out {
			p.count(&t.out[i].Fetch)
		}
		p.release(t)
	}
	return ctx.Err()
}

// writeViolations writes the findings of each task, in order.
func (p *judging) writeViolations(ctx context.Context, in <-chan *task) error {
	for t := range in {
		for i := range t.out {
			vs := t.out[i].Violations
			for k := range vs {
				if err := p.sink.Violation(&vs[k]); err != nil {
					return err
				}
			}
		}
		p.release(t)
	}
	return ctx.Err()
}

// streamErrors joins the read errors of the sources; a cancelled stream
// is not an error of its own.
func (p *judging) streamErrors() error {
	var errs []error
	for _, s := range p.streams {
		s.errMu.Lock()
		if s.err != nil && !errors.Is(s.err, context.Canceled) {
			errs = append(errs, s.err)
		}
		s.errMu.Unlock()
	}
	return errors.Join(errs...)
}
