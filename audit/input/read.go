package input

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/history"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/warc"
)

// File is one input as sniffed, to be read by Reader.Read.
type File struct {
	// File is what sniffing found. Its Path is the name the user gave,
	// which every record and problem carries; Spool, when set, is the
	// copy that is read instead (an input read once, a remote file).
	ingest.File
	// Err is the sniffing error: the file is not read, and its result is
	// a failed input.
	Err error
	// Src, for an input read once (standard input, a pipe), is the reader
	// sniffing returned, positioned at the input's first byte; nil for
	// files read by name. The caller closes it.
	Src io.Reader
	// Explicit is an input named on the command line, not found in a
	// directory: it must be readable (Result.Closing).
	Explicit bool
	// Site is the authority the input is bound to (URL=PATH), "" when
	// unbound: its host-less fetches take that site's scheme and host.
	Site string
	// SHA is the file's SHA-256 when it is already known (a spooled
	// copy), "" when not.
	SHA string
	// Pipelined asks for a stream to be hashed, and an archive inflated,
	// on goroutines of their own while the reading goroutine parses.
	Pipelined bool
}

// Sink receives what one input holds, in file order, on the goroutine
// that reads it. Each driver of the audit implements it: the local run
// adds to its model builder and spools fetches for pass 2; the Beam
// pipeline emits records keyed by partition.
type Sink interface {
	// Fetch receives each fetch of a log or archive. The reader reuses ft
	// and its header once Fetch returns.
	Fetch(ft *event.Fetch)
	// Capture receives each capture of an archive; identity says that it
	// held a card, key set or IP list, which was added to Reader.IDs.
	// The reader reuses c once Capture returns.
	Capture(c *event.Capture, identity bool)
	// Warcinfo receives each warcinfo record of an archive.
	Warcinfo(src event.Source, info event.Header)
	// SiteVersion receives the version of a robots.txt file among the
	// inputs, in force for the whole data range.
	SiteVersion(v evaluate.SiteVersion)
	// Entry receives each entry of an index listing among the inputs.
	Entry(e evaluate.ListingEntry)
	// Document is told of a card, key set, IP list or DNS snapshot among
	// the inputs, once it was added to Reader.IDs.
	Document(f ingest.File)
}

// Reader reads the inputs of one run, by kind, into a Sink.
type Reader struct {
	Options *Options
	// Catalog ties IP list files to the bots they vouch for.
	Catalog *bots.Catalog
	// IDs receives the identity documents captured or given as inputs;
	// it must be safe for the files read side by side.
	IDs *identity.Store
	// Progress, when not nil, counts the bytes read.
	Progress *atomic.Int64
}

// Result is what reading one input gave besides what went to the sink.
type Result struct {
	// File is the input as read: its Size is the bytes read when the
	// stream was read to its end.
	File  ingest.File
	Stats ingest.Stats
	SHA   string // SHA-256 of the bytes read; "" when the input failed
	Err   error  // the input could not be read (all of it): a failed input
	// Explicit is File.Explicit: the input was named on the command line.
	Explicit bool
	// Problems are the problems of the input, at most
	// Options.MaxProblemsPerFile of them (a listing's are all kept).
	Problems Problems
	// Hosts are the authorities the fetches named.
	Hosts HostSet
}

// Read reads f by its kind into sink: a log or archive as a stream of
// fetches and captures (the captured identity documents into r.IDs), a
// robots.txt file as a version, a card, key set, IP list or DNS snapshot
// into r.IDs, a listing as entries. A file of no kind repaudit reads is
// a failed input.
func (r *Reader) Read(ctx context.Context, f File, sink Sink) *Result {
	res := &Result{File: f.File, SHA: f.SHA, Err: f.Err, Explicit: f.Explicit, Problems: Problems{Max: r.Options.MaxProblemsPerFile}}
	if f.Err != nil {
		return res
	}
	switch f.Kind {
	case ingest.KindWARC, ingest.KindARC, ingest.KindLog:
		r.readStream(ctx, f, res, sink)
	case ingest.KindRobots:
		var v history.Version
		if v, res.Err = history.ReadFile(f.ReadPath(), time.Time{}); res.Err == nil {
			if v.File == f.ReadPath() {
				v.File, v.Ref = f.Path, f.Path
			}
			sink.SiteVersion(SiteVersion(v, f.Site))
			res.Stats.Records = map[string]int64{"robots.txt": 1}
		}
	case ingest.KindCard, ingest.KindJWKS, ingest.KindIPList, ingest.KindDNS:
		rf := f.File
		rf.Path = rf.ReadPath() // problems are renamed by keep
		if res.Err = LoadDocument(rf, r.Catalog, r.IDs, res.keep); res.Err == nil {
			sink.Document(f.File)
		}
	case ingest.KindListing:
		res.Err = ReadListing(f.ReadPath(), func(e evaluate.ListingEntry) {
			e.Source = res.rename(e.Source)
			sink.Entry(e)
		}, &res.Problems.List)
		for i := range res.Problems.List { // all kept: a listing's lines are its content
			res.Problems.List[i].Source = res.rename(res.Problems.List[i].Source)
		}
	default:
		res.Err = fmt.Errorf("%s: cannot tell what this file holds (%s); name its kind with a flag: --log-format FORMAT for a log ('repaudit audit --help' lists them), --index or --snippets for a listing", f.Path, f.Note)
	}
	if !streamKind(f.Kind) && r.Progress != nil {
		r.Progress.Add(f.Size)
	}
	if res.Err == nil && res.SHA == "" {
		// Documents and listings are small; streams were hashed as read.
		res.SHA, res.Err = ingest.FileSHA256(f.ReadPath())
	}
	return res
}

// readStream reads a log or an archive. The digest and size describe
// exactly the bytes read, which are the bytes judged.
func (r *Reader) readStream(ctx context.Context, f File, res *Result, sink Sink) {
	digest := newCountingHash()
	var hashTo io.Writer = digest
	endHash := func() {}
	if f.Pipelined {
		hashTo, endHash = hashBehind(digest)
	}
	// The sink copies what it keeps of a fetch or capture (Sink), so the
	// WARC reader may reuse their values for the next record.
	opts := ingest.Options{Progress: r.Progress, Resolver: warc.NewResolver(32 << 20), Digest: hashTo, LogExtraHeaders: r.Options.LogExtraHeaders, ReuseRecords: true, ReadAhead: f.Pipelined}
	// An input bound to its site (URL=PATH) gives its host-less lines
	// that site's scheme and host, as if the log had named them.
	boundScheme, boundHost, _ := strings.Cut(f.Site, "://")
	var bound event.Fetch // the reader's fetch, given the bound site
	h := ingest.Handler{
		Fetch: func(ft *event.Fetch) error {
			if ft.Host == "" && boundHost != "" {
				bound = *ft
				bound.Scheme, bound.Host = boundScheme, boundHost
				ft = &bound
			}
			res.Hosts.Note(ft)
			sink.Fetch(ft)
			return nil
		},
		Capture: func(c *event.Capture) error {
			sink.Capture(c, r.addIdentity(c, res))
			return nil
		},
		Warcinfo: sink.Warcinfo,
		Problem:  res.keep,
	}
	if f.Src != nil {
		res.Stats, res.Err = ingest.ReadFrom(ctx, f.File, f.Src, opts, h)
	} else {
		res.Stats, res.Err = ingest.Read(ctx, f.File, opts, h)
	}
	endHash()
	if res.Err == nil {
		res.SHA, res.File.Size = digest.hex(), digest.n
	}
}

// addIdentity adds a captured card, key set or IP list to r.IDs, keeping
// its problems, and reports whether c held one.
func (r *Reader) addIdentity(c *event.Capture, res *Result) bool {
	if !(c.Status >= 200 && c.Status < 300 || c.Status == 0 && c.RecordType == "resource") {
		return false
	}
	if identity.CaptureKind(c.URL, c.ContentType, c.Body) == "" {
		return false
	}
	_, probs := r.IDs.AddCapture(c.URL, c.Body, c.Time, c.Source.String())
	for _, p := range probs {
		res.keep(identityProblem(p, c.Source))
	}
	return true
}

// rename gives a source located in the spooled copy the input's name.
func (res *Result) rename(s event.Source) event.Source {
	if res.File.Spool != "" && s.File == res.File.Spool {
		s.File = res.File.Path
	}
	return s
}

// keep keeps a problem of the input, up to the cap per file.
func (res *Result) keep(p event.Problem) {
	p.Source = res.rename(p.Source)
	res.Problems.Keep(p)
}

// Closing returns the problems that close the input's list, after those
// kept (Problems, and any a driver added later): one per code over the
// cap, an empty stream, an unreadable input. A log named on the command
// line none of whose lines could be read (a --log-format it is not in)
// is an unreadable input, as a file of no known kind is: the run exits
// 2 and says why; found in a directory, it stays a problem of its own.
func (res *Result) Closing() []event.Problem {
	src := event.Source{File: res.File.Path, Offset: -1}
	out := res.Problems.Summaries(res.File.Path)
	s := res.Stats
	if why := res.Problems.nothingRead(); res.Err == nil && res.Explicit && why != "" && s.Fetches+s.Captures == 0 {
		return append(out, event.Problem{Source: src, Code: problem.InputUnreadable, Severity: event.SevError,
			Message: why})
	}
	if res.Err == nil && streamKind(res.File.Kind) && s.Fetches+s.Captures == 0 {
		// A log or archive that gives nothing is worth a row: a
		// scheduled audit can fail on it (--fail-on-problems).
		out = append(out, event.Problem{Source: src, Code: problem.InputEmpty, Severity: event.SevWarning,
			Message: fmt.Sprintf("no fetch or capture was read from this %s input (%d bytes)", res.File.Kind, s.Bytes)})
	}
	if res.Err != nil {
		out = append(out, event.Problem{Source: src, Code: problem.InputUnreadable, Severity: event.SevError, Message: res.Err.Error()})
	}
	return out
}

// Input is the manifest's record of the input.
func (res *Result) Input() output.Input {
	f := res.File
	in := output.Input{Path: f.Path, Size: f.Size, SHA256: res.SHA, Kind: string(f.Kind), Format: f.Format}
	if in.Format == "" {
		in.Format = res.Stats.Format
	}
	for _, n := range res.Stats.Records {
		in.Records += n
	}
	for _, n := range res.Stats.Problems {
		in.Problems += n
	}
	return in
}

// Skipped is the problem of a file found in a directory input that holds
// nothing repaudit reads (sniffing's note says what it looked like).
func Skipped(path, note string) event.Problem {
	return event.Problem{Source: event.Source{File: path, Offset: -1}, Code: problem.InputSkipped, Severity: event.SevInfo,
		Message: "found in a directory input but holds nothing repaudit reads (" + note + "); skipped"}
}

// streamKind reports the kinds read as streams of fetches and captures.
func streamKind(k ingest.Kind) bool {
	return k == ingest.KindWARC || k == ingest.KindARC || k == ingest.KindLog
}
