package audit

import (
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/history"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/robots"
	"github.com/repaudit/repaudit/warc"
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

// readFile reads one input by its kind; pipelined asks for a log's
// fetches to be spooled on a goroutine of their own.
func (r *run) readFile(fs *fileState, done *atomic.Int64, pipelined bool) {
	if fs.err != nil {
		return
	}
	fs.dropped = map[string]int64{}
	keep := func(p event.Problem) {
		p = renameSource(fs, p)
		if int64(len(fs.problems)) < int64(r.cfg.MaxProblemsPerFile) {
			fs.problems = append(fs.problems, p)
		} else {
			fs.dropped[string(p.Code)]++
		}
	}
	switch fs.f.Kind {
	case ingest.KindWARC, ingest.KindARC, ingest.KindLog:
		r.readStream(fs, keep, done, pipelined && fs.f.Kind == ingest.KindLog)
	case ingest.KindRobots:
		// A robots.txt among the inputs: one version of the site's file,
		// in force for the whole data range.
		var v history.Version
		if v, fs.err = history.ReadFile(fs.f.ReadPath(), time.Time{}); fs.err == nil {
			r.builder.AddSiteVersion(siteVersion(v, fs.site))
			fs.stats.Records = map[string]int64{"robots.txt": 1}
		}
		done.Add(fs.f.Size)
	case ingest.KindCard, ingest.KindJWKS, ingest.KindIPList, ingest.KindDNS:
		rf := fs.f
		rf.Path = rf.ReadPath() // problems are renamed by keep
		fs.err = loadDocument(rf, r.catalog, r.ids, keep)
		done.Add(fs.f.Size)
	case ingest.KindListing:
		fs.err = readListing(fs.f.ReadPath(), r.builder.AddIndexEntry, &fs.problems)
		for i := range fs.problems {
			fs.problems[i] = renameSource(fs, fs.problems[i])
		}
		done.Add(fs.f.Size)
	default:
		fs.err = fmt.Errorf("%s: cannot tell what this file holds (%s); name its kind with a flag", fs.f.Path, fs.f.Note)
		done.Add(fs.f.Size)
	}
	if fs.err == nil && fs.sha == "" {
		// Documents and listings are small; streams were hashed as read.
		fs.sha, fs.err = ingest.FileSHA256(fs.f.ReadPath())
	}
}

// readStream reads a log or an archive: captures, warcinfo and the
// fetches of robots.txt go to the builder, every fetch to the file's
// spool. The digest and size describe exactly the bytes read, which are
// the bytes judged.
func (r *run) readStream(fs *fileState, keep func(event.Problem), done *atomic.Int64, pipelined bool) {
	digest := newCountingHash()
	var hosts hostSet
	noter := r.builder.NewHostNoter()
	fs.spool = newFetchSpool(r.spool)
	var sink io.Writer = digest
	endHash := func() {}
	if pipelined {
		// Hashed on a goroutine of its own too: the reading goroutine
		// parses, which is the most of the work.
		sink, endHash = hashBehind(digest)
	}
	opts := ingest.Options{Progress: done, Resolver: warc.NewResolver(32 << 20), Digest: sink, LogExtraHeaders: r.cfg.LogExtraHeaders}
	var counted int64 // fetches not yet added to r.events
	toSpool, endWindow := spooler(fs)
	// An input bound to its site (URL=PATH) gives its host-less lines
	// that site's scheme and host, as if the log had named them.
	boundScheme, boundHost, _ := strings.Cut(fs.site, "://")
	spoolFetch := func(ft *event.Fetch) {
		if ft.Host == "" && boundHost != "" {
			ft.Scheme, ft.Host = boundScheme, boundHost
		}
		// r.events is shared by every reader: added to in steps, not at
		// each fetch (an atomic add per fetch from two cores contends).
		if counted++; counted == 256 {
			r.events.Add(counted)
			counted = 0
		}
		toSpool(ft)
		hosts.note(ft)
		if ft.Origin == event.OriginWARC || robots.IsRobotsTxt(ft.Target) {
			r.builder.AddFetch(ft)
		} else {
			noter.Note(ft) // the view tracker forgets a host after its last fetch
		}
	}
	onFetch, endFetches := spoolFetch, func() {}
	if pipelined {
		onFetch, endFetches = pipeFetches(spoolFetch)
		if onPipelined != nil {
			onPipelined(fs.f.Path)
		}
	}
	h := ingest.Handler{
		Fetch: func(ft *event.Fetch) error {
			onFetch(ft)
			return nil
		},
		Capture:  func(c *event.Capture) error { r.addCapture(c, keep); return nil },
		Warcinfo: r.builder.AddWarcinfo,
		Problem:  keep,
	}
	if fs.src != nil {
		fs.stats, fs.err = ingest.ReadFrom(r.ctx, fs.f, fs.src, opts, h)
		fs.closeInput()
	} else {
		fs.stats, fs.err = ingest.Read(r.ctx, fs.f, opts, h)
	}
	endFetches()
	endWindow()
	endHash()
	r.events.Add(counted)
	fs.spool.finish()
	noter.Flush()
	if fs.err == nil {
		fs.sha, fs.f.Size = digest.hex(), digest.n
	}
	r.builder.NoteHosts(hosts.list, hosts.hostless)
	fs.hostless = hosts.hostless
	r.sum.mergeReferrers(&hosts)
	r.builder.NoteTimes(fs.stats.First, fs.stats.Last)
}

// addCapture gives a capture to the builder, and a captured identity
// document (card, key set, IP list) to the identity store.
func (r *run) addCapture(c *event.Capture, keep func(event.Problem)) {
	r.events.Add(1)
	if c.Status >= 200 && c.Status < 300 || c.Status == 0 && c.RecordType == "resource" {
		if kind := identity.CaptureKind(c.URL, c.ContentType, c.Body); kind != "" {
			_, probs := r.ids.AddCapture(c.URL, c.Body, c.Time, c.Source.String())
			for _, p := range probs {
				keep(identityProblem(p, c.Source))
			}
		}
	}
	r.builder.AddCapture(c)
}

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

// hashBehind returns a writer that hands copies of what it is given to
// w, in order, on a goroutine of its own; end returns once w has had
// every byte. Writes never fail (w is a hash).
func hashBehind(w io.Writer) (io.Writer, func()) {
	full := make(chan []byte, 4)
	free := make(chan []byte, 6)
	for range cap(free) {
		free <- nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b := range full {
			w.Write(b)
			free <- b[:0]
		}
	}()
	return behindWriter{full, free}, func() {
		close(full)
		<-done
	}
}

type behindWriter struct{ full, free chan []byte }

func (b behindWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		b.full <- append(<-b.free, p...) // the caller reuses p
	}
	return len(p), nil
}
