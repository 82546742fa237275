package ingest

import (
	"context"
	"fmt"
	"io"
	"sort"
	"sync/atomic"
	"time"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/robots"
	"github.com/repaudit/repaudit/warc"
)

// Options tune Read.
type Options struct {
	// BodyLimit is passed to the WARC reader; nil keeps its default.
	// Passes that only need fetches set it to return 0.
	BodyLimit func(targetURI, contentType string, status int) int
	// Resolver, when set, resolves WARC revisits against originals seen
	// earlier (across files when shared). Read of a regular file lets it
	// read an original's body again from the file (warc.Options.Origin)
	// rather than keep a copy of every body: a Resolver shared across
	// files then resolves revisits of a file's records only while that
	// file is being read.
	Resolver *warc.Resolver
	// Progress, when set, is advanced by the stored bytes consumed.
	Progress *atomic.Int64
	// Digest, when set, receives every stored byte of the file (all of
	// it, even where the reader stops early), so callers get the file's
	// digest without reading it a second time.
	Digest io.Writer
	// LogExtraHeaders names extra quoted fields after the User-Agent in
	// combined/common/vhost logs (e.g. Signature, Signature-Input,
	// Signature-Agent), passed to the access log reader.
	LogExtraHeaders []string
	// Reuse lets the WARC reader reuse the memory of each record for
	// the next (warc.Options.Reuse): nothing of a Fetch or Capture, not
	// even its strings, may be kept after the handler returns. For
	// callers that only count, such as repaudit inspect. Ignored with a
	// Resolver.
	Reuse bool
	// ReuseRecords lets the WARC reader reuse each Fetch and Capture
	// value and its Header and ConcurrentTo slices for the next record
	// (warc.Options.ReuseRecords): the handler copies the values it
	// keeps; their strings may be kept.
	ReuseRecords bool
	// ReadAhead lets the WARC reader inflate on a goroutine of its own
	// (warc.Options.ReadAhead).
	ReadAhead bool
}

// Handler receives what Read finds. Fetch and Capture values are valid
// only during the call: readers reuse them. Any handler may be nil.
type Handler struct {
	Fetch   func(*event.Fetch) error
	Capture func(*event.Capture) error
	Problem func(event.Problem)
	// Warcinfo receives the fields of each warcinfo record whose block is
	// application/warc-fields (software, http-header-user-agent, ...),
	// with the record's source. The fields stay valid after the call.
	Warcinfo func(src event.Source, info event.Header)
}

// Stats describe what was read from one file.
type Stats struct {
	Records        map[string]int64 // WARC record types, or "line" for logs
	Fetches        int64
	Captures       int64
	Statuses       map[int]int64 // HTTP status of captures and fetches
	RobotsCaptures int64         // captures of /robots.txt
	RobotsFetches  int64         // fetches of /robots.txt
	Problems       map[string]int64
	First, Last    time.Time // time range of the events read
	Format         string    // detected log format or WARC compression
	Bytes          int64     // stored bytes consumed
	// Ascending and Descending count adjacent fetches whose times go
	// forward and backward (equal times count in neither): a log written
	// newest first has mostly Descending pairs.
	Ascending, Descending int64
	// Days counts the events by UTC day (days.go).
	Days Days
	prev time.Time
	// statuses counts the common statuses of fetches before they join
	// Statuses (at the end of ReadFrom): an array index, not a map
	// update, per fetch.
	statuses *[600]int64
}

func newStats() Stats {
	return Stats{Records: map[string]int64{}, Statuses: map[int]int64{}, Problems: map[string]int64{}}
}

func (s *Stats) see(t time.Time, src event.Source) {
	if t.IsZero() {
		return
	}
	s.Days.see(t, src)
	if s.First.IsZero() || t.Before(s.First) {
		s.First = t
	}
	if t.After(s.Last) {
		s.Last = t
	}
}

// foldStatuses adds the counts of statuses to Statuses.
func (s *Stats) foldStatuses() {
	if s.statuses == nil {
		return
	}
	for c, n := range s.statuses {
		if n > 0 {
			s.Statuses[c] += n
		}
	}
	s.statuses = nil
}

// StatusCodes returns the statuses seen, sorted.
func (s *Stats) StatusCodes() []int {
	codes := make([]int, 0, len(s.Statuses))
	for c := range s.Statuses {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	return codes
}

// Read streams one archive or log file to h. Documents (cards, key sets,
// IP lists) and listings are not streamed: callers read those whole.
func Read(ctx context.Context, f File, opts Options, h Handler) (Stats, error) {
	fh, err := Open(ctx, f.ReadPath()) // a FIFO must not block deaf to ctx
	if err != nil {
		return newStats(), fmt.Errorf("ingest: %w", err)
	}
	defer fh.Close()
	defer WatchReads(ctx, fh)()
	var at io.ReaderAt
	if st, err := fh.Stat(); err == nil && st.Mode().IsRegular() {
		at = fh
	}
	return readFrom(ctx, f, fh, at, opts, h)
}

// ReadFrom is Read of an input already open: src gives its stored bytes
// from the first (for an input that can be read only once, the reader
// SniffReader returned). Records and problems are named after f.Path.
func ReadFrom(ctx context.Context, f File, src io.Reader, opts Options, h Handler) (Stats, error) {
	return readFrom(ctx, f, src, nil, opts, h)
}

// readFrom is ReadFrom; at, when not nil, gives src's bytes at any offset
// (a regular file read from its first byte).
func readFrom(ctx context.Context, f File, src io.Reader, at io.ReaderAt, opts Options, h Handler) (Stats, error) {
	st := newStats()
	var err error
	if opts.Digest != nil {
		src = io.TeeReader(src, opts.Digest)
	}
	problem := func(p event.Problem) {
		st.Problems[string(p.Code)]++
		if h.Problem != nil {
			h.Problem(p)
		}
	}
	var last int64
	advance := func(now int64) {
		if opts.Progress != nil && now > last {
			opts.Progress.Add(now - last)
		}
		last = now
		st.Bytes = now
	}
	switch f.Kind {
	case KindWARC, KindARC:
		err = readWARC(ctx, src, at, f, opts, h, &st, problem, advance)
	case KindLog:
		err = readLog(ctx, src, f, opts, h, &st, problem, advance)
	default:
		return st, fmt.Errorf("ingest: %s: kind %s is not a stream of events", f.Path, f.Kind)
	}
	if opts.Digest != nil && err == nil {
		// Readers may stop before the end (a gzip trailer, junk after the
		// last record): the digest covers the whole file all the same.
		if _, derr := io.Copy(io.Discard, src); derr != nil {
			err = fmt.Errorf("ingest: %s: %w", f.Path, derr)
		}
	}
	if opts.Progress != nil && f.Size > last {
		// Count the unread remainder too, so progress reaches 100%.
		opts.Progress.Add(f.Size - last)
	}
	st.foldStatuses()
	return st, err
}

func readWARC(ctx context.Context, fh io.Reader, at io.ReaderAt, f File, opts Options, h Handler, st *Stats, problem func(event.Problem), advance func(int64)) error {
	wo := warc.Options{BodyLimit: opts.BodyLimit, Resolver: opts.Resolver, Reuse: opts.Reuse, ReuseRecords: opts.ReuseRecords, ReadAhead: opts.ReadAhead}
	if at != nil && opts.Resolver != nil {
		wo.Origin = at
	}
	r, err := warc.NewReader(fh, f.Path, wo)
	if err != nil {
		return fmt.Errorf("ingest: %s: %w", f.Path, err)
	}
	var n int
	defer func() {
		r.Close()
		for _, p := range r.Problems() {
			problem(p)
		}
		advance(r.BytesRead())
	}()
	for {
		if n++; n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			advance(r.BytesRead())
		}
		rec, err := r.Next()
		for _, p := range r.Problems() {
			problem(p)
		}
		if err == io.EOF {
			st.Format = r.Compression()
			return nil
		}
		if err != nil {
			return fmt.Errorf("ingest: %s: %w", f.Path, err)
		}
		st.Records[rec.Type]++
		if rec.Info != nil && h.Warcinfo != nil {
			h.Warcinfo(rec.Source, rec.Info)
		}
		if ft := rec.Fetch; ft != nil {
			if err := st.fetch(ft, h); err != nil {
				return err
			}
		}
		if c := rec.Capture; c != nil {
			st.Captures++
			st.see(c.Time, c.Source)
			if c.Status != 0 {
				st.Statuses[c.Status]++
			}
			if robots.IsRobotsTxt(c.URL) {
				st.RobotsCaptures++
			}
			if h.Capture != nil {
				if err := h.Capture(c); err != nil {
					return err
				}
			}
		}
	}
}

func readLog(ctx context.Context, fh io.Reader, f File, opts Options, h Handler, st *Stats, problem func(event.Problem), advance func(int64)) error {
	// The access log reader opens compressed input itself, through the
	// same opener as Sniff, so that progress counts stored bytes.
	src := fh
	var format accesslog.Format
	if f.Format != "" {
		lf, err := accesslog.ParseFormat(f.Format)
		if err != nil {
			return fmt.Errorf("ingest: %s: %w", f.Path, err)
		}
		format = lf
	}
	r, err := accesslog.NewReader(src, f.Path, accesslog.Options{Format: format, ExtraHeaders: opts.LogExtraHeaders})
	if err != nil {
		return fmt.Errorf("ingest: %s: %w", f.Path, err)
	}
	st.Format = string(r.Format())
	defer func() {
		for _, p := range r.Problems() {
			problem(p)
		}
		st.Records["line"] = r.Lines()
		advance(r.BytesRead())
	}()
	var n int
	for {
		if n++; n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			advance(r.BytesRead())
			for _, p := range r.Problems() {
				problem(p)
			}
		}
		ft, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("ingest: %s: %w", f.Path, err)
		}
		if err := st.fetch(ft, h); err != nil {
			return err
		}
	}
}

// fetch counts one fetch and hands it to the handler.
func (s *Stats) fetch(ft *event.Fetch, h Handler) error {
	s.Fetches++
	s.see(ft.Time, ft.Source)
	if !ft.Time.IsZero() {
		if !s.prev.IsZero() {
			switch ft.Time.Compare(s.prev) {
			case 1:
				s.Ascending++
			case -1:
				s.Descending++
			}
		}
		s.prev = ft.Time
	}
	if s.statuses == nil {
		s.statuses = new([600]int64)
	}
	switch {
	case ft.Status > 0 && ft.Status < len(s.statuses):
		s.statuses[ft.Status]++
	case ft.Status != 0:
		s.Statuses[ft.Status]++
	}
	if robots.IsRobotsTxt(ft.Target) {
		s.RobotsFetches++
	}
	if h.Fetch != nil {
		return h.Fetch(ft)
	}
	return nil
}
