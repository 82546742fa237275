package audit

import (
	"sync/atomic"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/internal/par"
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
	// The last jobs-1 logs and archives handed to the workers are read
	// by several goroutines each (pipelined, pipe.go): with no file left
	// to start, a worker would otherwise leave its core idle while
	// another reads one big log or WARC alone.
	last, tail := len(r.files), r.cfg.Jobs-1
	for last > 0 && tail > 0 {
		last--
		if streamKind(r.files[last].f.Kind) {
			tail--
		}
	}
	par.Each(r.cfg.Jobs, len(r.files), func(i int) {
		r.readFile(r.files[i], &prog.done, r.cfg.Jobs > 1 && i >= last)
	})
	prog.stop()
	return r.ctx.Err()
}

// readFile reads one input through the input layer (package input)
// into the builder; pipelined asks for a log's or archive's fetches and
// captures to be spooled and built on a goroutine of their own.
func (r *run) readFile(fs *fileState, done *atomic.Int64, pipelined bool) {
	rd := input.Reader{Options: &r.cfg.Options, Catalog: r.catalog, IDs: r.ids, Progress: done}
	sink := &builderSink{r: r, fs: fs}
	stream := fs.err == nil && streamKind(fs.f.Kind)
	pipelined = pipelined && stream
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
	// pipe, for an input read pipelined, does the work of Fetch, Capture
	// and Warcinfo on a goroutine of its own.
	pipe *eventPipe
	// endWindow returns once every fetch is spooled.
	endWindow func()
	toSpool   func(*event.Fetch)
}

// start prepares the spool of a log or archive.
func (s *builderSink) start(pipelined bool) {
	s.noter = s.r.builder.NewHostNoter()
	s.fs.spool = newFetchSpool(s.r.spool)
	s.toSpool, s.endWindow = spooler(s.fs)
	if pipelined {
		s.pipe = newEventPipe(pipeTarget{fetch: s.spoolFetch, capture: s.addCapture, warcinfo: s.addWarcinfo})
		if onPipelined != nil {
			onPipelined(s.fs.f.Path)
		}
	}
}

// end returns once every fetch is spooled.
func (s *builderSink) end() {
	if s.pipe != nil {
		s.pipe.end()
	}
	s.endWindow()
	s.r.events.Add(s.counted)
	s.fs.spool.finish()
	s.noter.Flush()
}

func (s *builderSink) Fetch(ft *event.Fetch) {
	if s.pipe != nil {
		s.pipe.Fetch(ft)
		return
	}
	s.spoolFetch(ft)
}

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
	if s.pipe != nil {
		s.pipe.Capture(c)
		return
	}
	s.addCapture(c)
}

func (s *builderSink) addCapture(c *event.Capture) {
	s.r.events.Add(1)
	s.r.builder.AddCapture(c)
}

// Warcinfo goes through the pipe too, so that the builder sees it in
// file order among the captures.
func (s *builderSink) Warcinfo(src event.Source, info event.Header) {
	if s.pipe != nil {
		s.pipe.Warcinfo(src, info)
		return
	}
	s.addWarcinfo(src, info)
}

func (s *builderSink) addWarcinfo(src event.Source, info event.Header) {
	s.r.builder.AddWarcinfo(src, info)
}

func (s *builderSink) SiteVersion(v evaluate.SiteVersion) { s.r.builder.AddSiteVersion(v) }

func (s *builderSink) Entry(e evaluate.ListingEntry) { s.r.builder.AddIndexEntry(e) }

func (s *builderSink) Document(ingest.File) {} // in r.ids already

// onPipelined, when set (tests only), is told the inputs pass 1 reads
// pipelined.
var onPipelined func(path string)
