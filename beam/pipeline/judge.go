package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/problem"
)

// world is what every partition shares: the catalog, the identity store
// and the facts of all inputs. A DoFn instance loads it once from its side
// inputs (the same for every element of a batch run in the global window).
type world struct {
	catalog *bots.Catalog
	ids     *identity.Store
	shared  evaluate.Shared
	// lineOffsets[file][split] is the number of lines before a range of a
	// split file (split.go).
	lineOffsets map[int][]int64
	// eval is Config.Eval with the site settled over all inputs: the
	// one authority they name when --site is not given.
	eval evaluate.Options
}

func loadWorld(ctx context.Context, cfg *Config, sharedSI, identitySI, offsetsSI func(*[]byte) bool) (*world, error) {
	w := &world{}
	var err error
	if w.catalog, w.ids, err = loadIdentity(ctx, cfg, identitySI); err != nil {
		return nil, err
	}
	var b []byte
	for sharedSI(&b) {
		var s evaluate.Shared
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("decode shared facts: %w", err)
		}
		w.shared.Merge(s)
	}
	w.lineOffsets = map[int][]int64{}
	for offsetsSI(&b) {
		var o lineOffsets
		if err := json.Unmarshal(b, &o); err != nil {
			return nil, fmt.Errorf("decode line offsets: %w", err)
		}
		w.lineOffsets[o.Idx] = o.Offsets
	}
	w.eval = cfg.Eval
	if site := w.shared.SettleSite(cfg.Eval); site.Authority != "" {
		w.eval.DefaultAuthority = site.Authority
	}
	return w, nil
}

// judgeFn evaluates partitions (an element is a host[:port] and its
// events, in no order) and writes their rows into part files. Within a
// bundle, Cfg.Workers goroutines evaluate partitions side by side, each
// into its own part files; at most Workers more partitions wait in memory.
type judgeFn struct {
	Cfg Config `json:"cfg"`
	// World is the file worldFn wrote the shared facts, identity
	// documents and line offsets to (world.go).
	World string `json:"world"`

	world *world
	work  chan partitionJob
	wg    sync.WaitGroup
	mu    sync.Mutex
	errs  []error
	sinks []*partWriter
}

type partitionJob struct {
	key    string
	values [][]byte
}

func (fn *judgeFn) StartBundle(ctx context.Context, emitPart func([]byte)) error {
	if fn.world == nil {
		w, err := readWorld(ctx, &fn.Cfg, fn.World)
		if err != nil {
			return err
		}
		fn.world = w
	}
	n := fn.Cfg.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	fn.work = make(chan partitionJob, n)
	fn.errs, fn.sinks = nil, nil
	for range n {
		s, err := newPartWriter(fn.Cfg.Out)
		if err != nil {
			return err
		}
		fn.sinks = append(fn.sinks, s)
		fn.wg.Add(1)
		go func() {
			defer fn.wg.Done()
			for job := range fn.work {
				if err := fn.evaluate(job, s); err != nil {
					fn.mu.Lock()
					fn.errs = append(fn.errs, err)
					fn.mu.Unlock()
				}
			}
		}()
	}
	return nil
}

func (fn *judgeFn) ProcessElement(ctx context.Context, key string, values func(*[]byte) bool, emitPart func([]byte)) error {
	job := partitionJob{key: key}
	var v []byte
	for values(&v) {
		job.values = append(job.values, v)
		v = nil
	}
	fn.mu.Lock()
	err := errors.Join(fn.errs...)
	fn.mu.Unlock()
	if err != nil {
		return err
	}
	fn.work <- job
	return nil
}

// buildModel is pass 1 of audit.Run for the partition key from its
// batches of records; each fetch record is also given to keep (which may
// be nil). The batches are released as they are read.
func (w *world) buildModel(key string, batches [][]byte, keep func(*record)) (*evaluate.Model, error) {
	b := evaluate.NewBuilder(w.eval, w.catalog, w.ids)
	// The partition's fetches are judged in time order, through a
	// ViewTracker: the Builder keeps none of a log's robots.txt fetches.
	b.StreamViews()
	noter := b.NewHostNoter()
	targets := map[event.Source]bool{}
	for i, batch := range batches {
		err := eachRecord(batch, func(v []byte) error {
			r, err := decodeRecord(v)
			if err != nil {
				return fmt.Errorf("partition %q: %w", key, err)
			}
			switch r.Kind {
			case kindCapture:
				if k, _ := evaluate.CapturePartition(r.Capture); k == key {
					b.AddCapture(r.Capture)
				} else if !targets[r.Capture.Source] {
					// A redirect target may arrive from several rounds.
					targets[r.Capture.Source] = true
					b.AddRedirectTarget(r.Capture)
				}
			case kindFetch:
				if r.Split > 0 {
					// A range of a split file counts lines from its start.
					if offs := w.lineOffsets[r.File]; r.Split < len(offs) {
						r.Fetch.Source.Line += offs[r.Split]
					}
				}
				if r.Model {
					b.AddFetch(r.Fetch)
				} else {
					noter.Note(r.Fetch)
				}
				r.Fetch.Time = r.Fetch.Time.UTC()
				if keep != nil {
					keep(r)
				}
			case kindIndex:
				b.AddIndexEntry(*r.Entry)
			case kindSnippet:
				b.AddSnippetEntry(*r.Entry)
			case kindSite:
				b.AddSiteVersion(*r.Site)
			default:
				return fmt.Errorf("partition %q: unknown record kind %q", key, r.Kind)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		batches[i] = nil
	}
	noter.Flush()
	return b.BuildPartition(key, w.shared), nil
}

// evaluate is pass 1 and pass 2 of audit.Run for one partition, or for
// one shard of a hot partition (hot.go): a shard judges its own fetches
// and steps the replicas of the others' robots.txt fetches through its
// view tracker; only shard 0 writes the partition's other tables.
func (fn *judgeFn) evaluate(job partitionJob, sink *partWriter) error {
	shard, key := parseShardKey(job.key)
	var fetches []*record
	m, err := fn.world.buildModel(key, job.values, func(r *record) { fetches = append(fetches, r) })
	if err != nil {
		return err
	}
	if shard == 0 {
		sink.noteModel(m)
	}
	// audit.Run judges fetches merged by time, then input order, then
	// position in the file: the Tracker (crawl-delay, signature replay)
	// must see them in that order.
	slices.SortFunc(fetches, func(x, y *record) int {
		if c := x.Fetch.Time.Compare(y.Fetch.Time); c != 0 {
			return c
		}
		if c := cmp.Compare(x.File, y.File); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Split, y.Split); c != 0 {
			return c
		}
		return cmp.Compare(x.Seq, y.Seq)
	})
	tr := m.NewTracker()
	vt := m.NewViewTracker()
	// One Judger and one Judgement for the partition, as audit's judging
	// workers have: a clean fetch then allocates its URL alone.
	jg := m.NewJudger()
	var (
		group []*event.Fetch
		views []evaluate.FetchView
		g0    int // index of group[0] in fetches
		j     evaluate.Judgement
	)
	for i, r := range fetches {
		if len(group) == 0 || !r.Fetch.Time.Equal(group[0].Time) {
			// The fetches of one time at once: a robots.txt fetch counts
			// for every fetch of its time.
			group, g0 = group[:0], i
			for k := i; k < len(fetches) && fetches[k].Fetch.Time.Equal(r.Fetch.Time); k++ {
				group = append(group, fetches[k].Fetch)
			}
			views = slices.Grow(views[:0], len(group))[:len(group)]
			vt.Step(group, views)
		}
		if r.Replica {
			fetches[i] = nil
			continue // judged by its own shard
		}
		jg.JudgeIntoView(&j, r.Fetch, &views[i-g0])
		tr.Observe(&j)
		if err := sink.Fetch(&j.Fetch); err != nil {
			return err
		}
		for k := range j.Violations {
			if err := sink.Violation(&j.Violations[k]); err != nil {
				return err
			}
		}
		fetches[i] = nil // let the judged events go
	}
	if shard != 0 {
		return nil
	}
	return m.WriteTables(sink)
}

func (fn *judgeFn) FinishBundle(ctx context.Context, emitPart func([]byte)) error {
	close(fn.work)
	fn.wg.Wait()
	sinks := fn.sinks
	fn.sinks = nil
	if err := errors.Join(fn.errs...); err != nil {
		for _, s := range sinks {
			s.abort()
		}
		return err
	}
	for i, s := range sinks {
		parts, err := s.finish(ctx)
		if err != nil {
			for _, s := range sinks[i+1:] {
				s.abort()
			}
			return err
		}
		for _, p := range parts {
			emitPart(encode(&p))
		}
	}
	return nil
}

func (fn *judgeFn) Teardown() {
	for _, s := range fn.sinks {
		s.abort()
	}
}

// writeRowsFn writes rows that need no evaluation (problems of the read
// stage and of the launcher), one part file per bundle.
type writeRowsFn struct {
	Out string `json:"out"`

	sink *partWriter
}

func (fn *writeRowsFn) ProcessElement(ctx context.Context, row []byte, emitPart func([]byte)) error {
	if fn.sink == nil {
		s, err := newPartWriter(fn.Out)
		if err != nil {
			return err
		}
		fn.sink = s
	}
	var p tableProblem
	if err := json.Unmarshal(row, &p); err != nil {
		return fmt.Errorf("decode problem: %w", err)
	}
	if p.Code == string(problem.InputUnreadable) {
		failedInputs.Inc(ctx, 1)
	}
	return fn.sink.Problem(&p)
}

func (fn *writeRowsFn) FinishBundle(ctx context.Context, emitPart func([]byte)) error {
	if fn.sink == nil {
		return nil
	}
	s := fn.sink
	fn.sink = nil
	parts, err := s.finish(ctx)
	if err != nil {
		return err
	}
	for _, p := range parts {
		emitPart(encode(&p))
	}
	return nil
}

func (fn *writeRowsFn) Teardown() {
	if fn.sink != nil {
		fn.sink.abort()
	}
}
