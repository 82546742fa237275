package audit

import (
	"fmt"
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
	parallel(r.cfg.Jobs, len(r.files), func(i int) { r.readFile(r.files[i], &prog.done) })
	prog.stop()
	return r.ctx.Err()
}

// readFile reads one input by its kind.
func (r *run) readFile(fs *fileState, done *atomic.Int64) {
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
		r.readStream(fs, keep, done)
	case ingest.KindRobots:
		// A robots.txt among the inputs: one version of the site's file,
		// in force for the whole data range.
		var v history.Version
		if v, fs.err = history.ReadFile(fs.f.ReadPath(), time.Time{}); fs.err == nil {
			r.builder.AddSiteVersion(siteVersion(v))
			fs.stats.Records = map[string]int64{"robots.txt": 1}
		}
		done.Add(fs.f.Size)
	case ingest.KindCard, ingest.KindJWKS, ingest.KindIPList:
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
func (r *run) readStream(fs *fileState, keep func(event.Problem), done *atomic.Int64) {
	digest := newCountingHash()
	var hosts hostSet
	noter := r.builder.NewHostNoter()
	fs.spool = newFetchSpool(r.spool)
	opts := ingest.Options{Progress: done, Resolver: warc.NewResolver(32 << 20), Digest: digest, LogExtraHeaders: r.cfg.LogExtraHeaders}
	h := ingest.Handler{
		Fetch: func(ft *event.Fetch) error {
			r.events.Add(1)
			fs.spool.add(ft)
			hosts.note(ft)
			if ft.Origin == event.OriginWARC || robots.IsRobotsTxt(ft.Target) {
				r.builder.AddFetch(ft)
			} else {
				noter.Note(ft) // the view tracker forgets a host after its last fetch
			}
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
	fs.spool.finish()
	noter.Flush()
	if fs.err == nil {
		fs.sha, fs.f.Size = digest.hex(), digest.n
	}
	r.builder.NoteHosts(hosts.list, hosts.hostless)
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
