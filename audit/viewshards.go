package audit

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
)

// With many cores the views stage, one goroutine settling every fetch's
// views in merged order, became the wall of pass 2 (10 of 16 s on 16
// cores). A host's views depend on its own robots.txt fetches and archive
// entries alone, so the stage is split by host (evaluate.ViewShard): the
// views goroutine notes, for each fetch, its shard, its group of one time
// (cut as views cuts them) and the clock before that group, hands the
// task to every shard and waits for them; each shard's tracker settles
// its hosts' fetches of every group that has ended, after catching up to
// the group's clock (ViewTracker.CatchUp). Then, as views does, every
// held task before the one where the last group began is passed on.
// The views are those of one tracker (evaluate's FuzzShardedViews), so
// the tables do not change with the number of shards, and no more tasks
// are held than views holds.

// viewShards is the number of view trackers pass 2 runs with jobs
// workers: one up to three workers, then one for every two, at most 8
// (16 cores keep 8 shards at about a third of the judges' work).
func viewShards(jobs int) int {
	return min(max(jobs/2, 1), 8)
}

// viewMeta is what the views goroutine notes of a fetch for the shards.
type viewMeta struct {
	group int64 // the group of fetches of one time it is in, from 0
	csec  int64 // the latest time of the groups before (the clock)
	cnsec int32
	shard int32
}

// viewsSharded is views with shards trackers (shards > 1).
func (p *judging) viewsSharded(ctx context.Context, in <-chan *task, out chan<- *task, shards int) error {
	var round, ended sync.WaitGroup
	toShard := make([]chan *task, shards)
	for k := range toShard {
		toShard[k] = make(chan *task, 1)
		ended.Add(1)
		go func() {
			defer ended.Done()
			p.viewShard(k, shards, toShard[k], &round)
		}()
	}
	defer func() {
		for _, ch := range toShard {
			close(ch)
		}
		ended.Wait()
	}()
	// dispatch hands t (nil: the end) to every shard and waits until each
	// has settled every group of it that has ended.
	dispatch := func(t *task) {
		round.Add(shards)
		for _, ch := range toShard {
			ch <- t
		}
		round.Wait()
	}
	var (
		held          []*task // tasks not sent yet, in order
		gtask         *task   // the task where the last group began
		group         int64   = -1
		gsize         int
		gsec, clsec   int64 // the last group's time; the clock
		gnsec, clnsec int32
		lastHost      string
		lastShard     int32
	)
	for t := range in {
		t.views = growViews(t.views, len(t.items))
		if cap(t.vmeta) < len(t.items) {
			t.vmeta = make([]viewMeta, len(t.items), judgeBatch)
		}
		t.vmeta = t.vmeta[:len(t.items)]
		var csec int64
		var cnsec int32
		for i, it := range t.items {
			// it.sec and it.nsec are the instant f.Time is (stream.go).
			if gsize == 0 || it.sec != gsec || it.nsec != gnsec || gsize >= viewHold {
				group, gsize, gtask = group+1, 0, t
				gsec, gnsec = it.sec, it.nsec
				csec, cnsec = clsec, clnsec
				if group == 0 || it.sec > clsec || it.sec == clsec && it.nsec > clnsec {
					clsec, clnsec = it.sec, it.nsec
				}
			}
			gsize++
			// Consecutive fetches often share their host.
			if i == 0 && group == 0 || it.f.Host != lastHost {
				lastHost, lastShard = it.f.Host, int32(p.model.ViewShard(it.f, shards))
			}
			t.vmeta[i] = viewMeta{group: group, csec: csec, cnsec: cnsec, shard: lastShard}
		}
		held = append(held, t)
		dispatch(t)
		n := slices.Index(held, gtask)
		for _, t := range held[:n] {
			if err := send(ctx, out, t); err != nil {
				return err
			}
		}
		held = append(held[:0], held[n:]...)
	}
	dispatch(nil)
	for _, t := range held {
		if err := send(ctx, out, t); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// viewShard settles the views of shard k's fetches, group by group: for
// each task it gets, every group that ended within it (nil: the end), and
// then tells round it is done.
func (p *judging) viewShard(k, shards int, in <-chan *task, round *sync.WaitGroup) {
	vt := p.model.NewViewTrackerShard(k, shards)
	type ref struct {
		t *task
		i int
	}
	var (
		group  []ref // the shard's fetches of one group, not settled yet
		gnum   int64
		gclock time.Time
		fs     []*event.Fetch
		vs     []*evaluate.FetchView
	)
	step := func() {
		fs, vs = fs[:0], vs[:0]
		for _, r := range group {
			fs = append(fs, r.t.items[r.i].f)
			vs = append(vs, &r.t.views[r.i])
		}
		if gnum > 0 {
			vt.CatchUp(gclock)
		}
		vt.StepTo(fs, vs)
		clear(fs)
		clear(vs)
		clear(group)
		group = group[:0]
	}
	for t := range in {
		if t == nil {
			if len(group) > 0 {
				step()
			}
			round.Done()
			continue
		}
		for i := range t.items {
			mt := &t.vmeta[i]
			if int(mt.shard) != k {
				continue
			}
			if len(group) > 0 && mt.group != gnum {
				step()
			}
			if len(group) == 0 {
				gnum, gclock = mt.group, time.Unix(mt.csec, int64(mt.cnsec))
			}
			group = append(group, ref{t, i})
		}
		// A group before the task's last has ended.
		if len(group) > 0 && gnum < t.vmeta[len(t.vmeta)-1].group {
			step()
		}
		round.Done()
	}
}

// growViews returns views with n zero FetchViews.
func growViews(views []evaluate.FetchView, n int) []evaluate.FetchView {
	if cap(views) < n {
		return make([]evaluate.FetchView, n)
	}
	return views[:n]
}
