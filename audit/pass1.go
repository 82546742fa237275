package audit

import (
	"sync/atomic"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/robots"
)

// readPass1 reads every input once, in parallel, into the builder; the
// fetches of logs and archives go to their spools for pass 2.
func (r *run) readPass1() error {
	var total int64
	for _, fs := range r.files {
		total += fs.f.Size
	}
	r.events.Store(0)
	prog := newProgress(r.cfg.Progress, "reading", total, &r.events)
	// The last jobs-1 logs handed to the workers are read by several
	// goroutines each (pipelined): with no file left to start, a worker
	// would otherwise leave its core idle while another reads one big log
	// alone.
	last, tail := len(r.files), r.cfg.Jobs-1
	for last > 0 && tail > 0 {
		last--
		if r.files[last].f.Kind == ingest.KindLog {
			tail--
		}
	}
	parallel(r.cfg.Jobs, len(r.files), func(i int) {
		r.readFile(r.files[i], &prog.done, r.cfg.Jobs > 1 && i >= last)
	})
	prog.stop()
	return r.ctx.Err()
}

// readFile reads one input through the input layer (package input)
// into the builder; pipelined asks for a log's fetches to be spooled on a
// goroutine of their own.
func (r *run) readFile(fs *fileState, done *atomic.Int64, pipelined bool) {
	rd := input.Reader{Options: &r.cfg.Options, Catalog: r.catalog, IDs: r.ids, Progress: done}
	sink := &builderSink{r: r, fs: fs}
	stream := fs.err == nil && streamKind(fs.f.Kind)
	pipelined = pipelined && fs.f.Kind == ingest.KindLog
	if stream {
		sink.start(pipelined)
	}
	res := rd.Read(r.ctx, input.File{File: fs.f, Err: fs.err, Explicit: fs.explicit, Src: fs.src, Site: fs.site, SHA: fs.sha, Pipelined: pipelined}, sink)
	fs.closeInput()
	fs.res = res
	fs.f, fs.stats, fs.err, fs.sha, fs.problems = res.File, res.Stats, res.Err, res.SHA, res.Problems.List
	if !stream {
		return
	}
	sink.end()
	hosts, hostless := res.Hosts.Hosts()
	r.builder.NoteHosts(hosts, hostless)
	fs.hostless = hostless
	r.sum.mergeReferrers(&res.Hosts)
	r.builder.NoteTimes(fs.stats.First, fs.stats.Last)
}

// builderSink is pass 1's input.Sink: captures, warcinfo and the fetches
// of robots.txt go to the builder, every fetch of a log or archive to the
// file's spool for pass 2.
type builderSink struct {
	r       *run
	fs      *fileState
	noter   *evaluate.HostNoter
	counted int64 // fetches not yet added to r.events
	onFetch func(*event.Fetch)
	// endFetches and endWindow return once every fetch is spooled.
	endFetches, endWindow func()
	toSpool               func(*event.Fetch)
}

// start prepares the spool of a log or archive.
func (s *builderSink) start(pipelined bool) {
	s.noter = s.r.builder.NewHostNoter()
	s.fs.spool = newFetchSpool(s.r.spool)
	s.toSpool, s.endWindow = spooler(s.fs)
	s.onFetch, s.endFetches = s.spoolFetch, func() {}
	if pipelined {
		s.onFetch, s.endFetches = pipeFetches(s.spoolFetch)
		if onPipelined != nil {
			onPipelined(s.fs.f.Path)
		}
	}
}

// end returns once every fetch is spooled.
func (s *builderSink) end() {
	s.endFetches()
	s.endWindow()
	s.r.events.Add(s.counted)
	s.fs.spool.finish()
	s.noter.Flush()
}

func (s *builderSink) Fetch(ft *event.Fetch) { s.onFetch(ft) }

func (s *builderSink) spoolFetch(ft *event.Fetch) {
	// r.events is shared by every reader: added to in steps, not at
	// each fetch (an atomic add per fetch from two cores contends).
	if s.counted++; s.counted == 256 {
		s.r.events.Add(s.counted)
		s.counted = 0
	}
	s.toSpool(ft)
	if ft.Origin == event.OriginWARC || robots.IsRobotsTxt(ft.Target) {
		s.r.builder.AddFetch(ft)
	} else {
		s.noter.Note(ft) // the view tracker forgets a host after its last fetch
	}
}

func (s *builderSink) Capture(c *event.Capture, _ bool) {
	s.r.events.Add(1)
	s.r.builder.AddCapture(c)
}

func (s *builderSink) Warcinfo(src event.Source, info event.Header) {
	s.r.builder.AddWarcinfo(src, info)
}

func (s *builderSink) SiteVersion(v evaluate.SiteVersion) { s.r.builder.AddSiteVersion(v) }

func (s *builderSink) Entry(e evaluate.ListingEntry) { s.r.builder.AddIndexEntry(e) }

func (s *builderSink) Document(ingest.File) {} // in r.ids already

// onPipelined, when set (tests only), is told the inputs pass 1 reads
// pipelined.
var onPipelined func(path string)

// pipeBatch is how many fetches a pipelined reader hands over at once.
const pipeBatch = 256

// fetchBatch is a batch of fetches copied from a reader, which reuses its
// Fetch and Header values (their strings are immutable and are shared).
type fetchBatch struct {
	fetches []event.Fetch
	fields  []event.Field // the fetches' headers
}

// pipeFetches runs fn on a goroutine of its own, on copies of the fetches
// given to the returned add, in the order given; end hands over the last
// batch and returns once fn has seen every fetch. add and end are called
// from one goroutine.
func pipeFetches(fn func(*event.Fetch)) (add func(*event.Fetch), end func()) {
	full := make(chan *fetchBatch, 4)
	free := make(chan *fetchBatch, 6)
	for range cap(free) {
		free <- &fetchBatch{fetches: make([]event.Fetch, 0, pipeBatch), fields: make([]event.Field, 0, 4*pipeBatch)}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b := range full {
			for i := range b.fetches {
				fn(&b.fetches[i])
			}
			clear(b.fetches) // the strings may be collected
			clear(b.fields)
			b.fetches, b.fields = b.fetches[:0], b.fields[:0]
			free <- b
		}
	}()
	cur := <-free
	add = func(ft *event.Fetch) {
		c := *ft
		if ft.Header != nil {
			n := len(cur.fields)
			cur.fields = append(cur.fields, ft.Header...)
			// Capped: an append to one copy's header never reaches the next's.
			c.Header = cur.fields[n:len(cur.fields):len(cur.fields)]
		}
		cur.fetches = append(cur.fetches, c)
		if len(cur.fetches) == pipeBatch {
			full <- cur
			cur = <-free
		}
	}
	end = func() {
		if len(cur.fetches) > 0 {
			full <- cur
		}
		close(full)
		<-done
	}
	return add, end
}
