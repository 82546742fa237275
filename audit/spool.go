package audit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
)

// StdinName is the input name that means standard input (Config.Stdin).
const StdinName = "-"

// Every input is read once. Pass 1 writes the fetches of each log or
// archive to a spool (event.FetchWriter: a compact binary coding of every
// Fetch field), and pass 2 reads the spools, never the inputs: a file
// rotated or still being written between the passes changes nothing, and
// standard input and pipes are read like files (docs/semantics.md,
// "Inputs").
//
// A spool is coded in memory while it is small (spoolMemPerFile). Once
// read, it stays in memory while the run's budget allows (spoolMemTotal
// for all spools); otherwise it is appended as a segment to one file
// shared by every small spool, so that thousands of small inputs (S3 or
// CloudFront logs) hold neither memory nor a descriptor each. A spool
// that outgrows spoolMemPerFile while it is written moves to a file of
// its own, closed once written and opened again while pass 2 reads it.
// The files are in a temporary directory beside the output
// (.repaudit-spool-*), removed when the run ends, well or not.
var (
	spoolMemPerFile = 1 << 20 // a variable for tests
	spoolMemTotal   = 8 << 20 // bytes of all spools held in memory
)

// spoolFile is a file of the spool: an *os.File, except in tests (a
// full disk).
type spoolFile interface {
	io.Writer
	io.WriterAt
	io.ReaderAt
	Truncate(size int64) error
	Close() error
	Name() string
}

// createSpoolFile creates a spool file in dir (a variable for tests).
var createSpoolFile = func(dir, pattern string) (spoolFile, error) { return os.CreateTemp(dir, pattern) }

// spoolDir is the run's spool: the temporary directory, created when the
// first spool needs a file, the file the small spools share, and the
// memory the spools hold.
type spoolDir struct {
	base string // where to create dir
	mu   sync.Mutex
	dir  string
	mem  atomic.Int64 // bytes held in memory by all spools
	// shared holds the segments of the small spools, end bytes long;
	// sharedMu orders the appends.
	sharedMu sync.Mutex
	shared   spoolFile
	end      int64
}

func newSpoolDir(out string) *spoolDir {
	base := os.TempDir()
	if out != "" {
		base = filepath.Dir(filepath.Clean(out))
	}
	return &spoolDir{base: base}
}

// create makes a new file in the directory, creating it first.
func (d *spoolDir) create(pattern string) (spoolFile, error) {
	d.mu.Lock()
	if d.dir == "" {
		dir, err := os.MkdirTemp(d.base, ".repaudit-spool-*")
		if err != nil {
			d.mu.Unlock()
			return nil, fmt.Errorf("spool in %s: %w", d.base, err)
		}
		d.dir = dir
	}
	dir := d.dir
	d.mu.Unlock()
	f, err := createSpoolFile(dir, pattern)
	if err != nil {
		return nil, fmt.Errorf("spool in %s: %w", dir, err)
	}
	return f, nil
}

// appendShared writes the chunks as one segment at the end of the shared
// file and returns its offset. A write that fails is undone (the file is
// cut back to where the segment began, releasing what it took); the
// error names the file.
func (d *spoolDir) appendShared(chunks [][]byte) (int64, string, error) {
	d.sharedMu.Lock()
	defer d.sharedMu.Unlock()
	if d.shared == nil {
		f, err := d.create("shared-*")
		if err != nil {
			return 0, "", err
		}
		d.shared = f
	}
	off := d.end
	for _, b := range chunks {
		n, err := d.shared.WriteAt(b, d.end)
		d.end += int64(n)
		if err != nil {
			d.shared.Truncate(off)
			d.end = off
			return 0, d.shared.Name(), err
		}
	}
	return off, d.shared.Name(), nil
}

// remove deletes the directory and all it holds.
func (d *spoolDir) remove() {
	d.sharedMu.Lock()
	if d.shared != nil {
		d.shared.Close()
		d.shared = nil
	}
	d.sharedMu.Unlock()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dir != "" {
		os.RemoveAll(d.dir)
	}
}

// fetchSpool holds the fetches of one input: written by pass 1 (add,
// finish), read by pass 2 (reader), then dropped (release). Once
// finished it holds its coded bytes in one of three places: mem (held
// against the run's budget), a segment of the shared file (segOff,
// segLen), or a file of its own (path).
type fetchSpool struct {
	dir    *spoolDir
	w      *event.FetchWriter // nil once finished: its string table goes
	n      int64              // the coded size, once finished
	mem    [][]byte           // the coded fetches while they fit in memory, as written
	memLen int
	held   bool      // memLen counts against dir.mem
	f      spoolFile // its own file while it is written
	path   string    // its own file, once it has one
	rmu    sync.Mutex
	rfs    []*os.File // path opened for pass 2, once per run read (rmu)
	seg    bool       // a segment of the shared file
	segOff int64
	seen   int64 // fetches added
	// runs, for a log, splits the spool where its time goes back further
	// than pass 2's reorder window can absorb (runs.go): each run is
	// coded by a writer of its own, so pass 2 can read it as a stream of
	// its own. nil when the spool is one run.
	runs   *runSplitter
	base   int64        // bytes coded by the writers of earlier runs
	users  atomic.Int32 // pass-2 streams still reading; the last releases
	joined []byte       // the in-memory spool as one slice, for reading at offsets
	// err is the first write error: the spool is unusable, and what it
	// wrote is gone. errFile is the spool file that could not be written.
	err     error
	errFile string
	// sorted is true while every fetch added has a time no earlier than
	// the one before: pass 2 then needs no reorder window.
	sorted bool
	last   time.Time
	// windowed is true when pass 1 put the fetches through pass 2's
	// reorder window as it added them (window.go): pass 2 reads them as
	// they are.
	windowed bool
}

func newFetchSpool(dir *spoolDir) *fetchSpool {
	s := &fetchSpool{dir: dir, sorted: true}
	s.w = event.NewFetchWriter(spoolSink{s})
	return s
}

// add codes one fetch. After a write error it does nothing: the caller
// goes on reading (the model of pass 1 stays whole) and reports err.
func (s *fetchSpool) add(f *event.Fetch) {
	if s.err != nil {
		return
	}
	if f.Time.Before(s.last) {
		s.sorted = false
	}
	s.last = f.Time
	if s.runs != nil && s.runs.add(f, s.seen) {
		s.newRun()
	}
	s.seen++
	if err := s.w.Write(f); err != nil && s.err == nil {
		s.fail(err, "")
	}
}

// newRun ends the coding of the current run and starts a writer for the
// next, whose bytes a reader can decode from their start.
func (s *fetchSpool) newRun() {
	if err := s.w.Flush(); err != nil && s.err == nil {
		s.fail(err, "")
		return
	}
	s.base += s.w.Written()
	s.runs.list[len(s.runs.list)-1].off = s.base
	s.w = event.NewFetchWriter(spoolSink{s})
}

// finish writes what the coder buffers and puts the spool where pass 2
// reads it: its own file closed, or its bytes in memory within the run's
// budget, or else appended to the shared file.
func (s *fetchSpool) finish() {
	if s.err == nil {
		if err := s.w.Flush(); err != nil && s.err == nil {
			s.fail(err, "")
		}
	}
	s.n, s.w = s.base+s.w.Written(), nil
	if s.err != nil {
		return
	}
	if s.f != nil {
		err := s.f.Close()
		s.f = nil
		if err != nil {
			s.fail(err, s.path)
		}
		return
	}
	if s.memLen == 0 {
		return
	}
	if s.dir.mem.Add(int64(s.memLen)) <= int64(spoolMemTotal) {
		s.held = true
		return
	}
	s.dir.mem.Add(-int64(s.memLen))
	off, name, err := s.dir.appendShared(s.mem)
	if err != nil {
		s.fail(err, name)
		return
	}
	s.seg, s.segOff = true, off
	s.mem, s.memLen = nil, 0
}

// fail records the first write error and drops what the spool holds at
// once: its own file is closed and removed, so a full disk gets back
// the space for the other inputs and the tables. file names the spool
// file that failed when err does not.
func (s *fetchSpool) fail(err error, file string) {
	var pe *os.PathError
	if errors.As(err, &pe) {
		file, err = pe.Path, pe.Err
	}
	if file == "" && s.f != nil {
		file = s.f.Name()
	}
	s.err, s.errFile = err, file
	s.release()
}

// size is the spool's coded size in bytes.
func (s *fetchSpool) size() int64 {
	if s.w != nil {
		return s.base + s.w.Written()
	}
	return s.n
}

// segments returns the spool's runs in file order: one for a spool
// that was not split.
func (s *fetchSpool) segments() []spoolRun {
	if s.runs == nil || len(s.runs.list) == 0 {
		return []spoolRun{{}}
	}
	return s.runs.all()
}

// prepare readies the spool for its pass-2 streams, n of them: the last
// to end releases it. Call it before any reader.
func (s *fetchSpool) prepare(n int) {
	s.users.Store(int32(n))
	if !s.seg && s.path == "" {
		switch len(s.mem) {
		case 0:
		case 1:
			s.joined = s.mem[0]
		default:
			s.joined = bytes.Join(s.mem, nil) // at most spoolMemPerFile
		}
	}
}

// done is called by each pass-2 stream when it has read its runs.
func (s *fetchSpool) done() {
	if s.users.Add(-1) <= 0 {
		s.release()
	}
}

// reader returns the coded fetches of the bytes [off, end) (end < 0: to
// the end of the spool), which start a run, read through a buffer no
// larger than them.
func (s *fetchSpool) reader(off, end int64) (*event.FetchReader, error) {
	if s.err != nil {
		return nil, s.err
	}
	if end < 0 {
		end = s.size()
	}
	bufSize := int(min(end-off+16, 64<<10))
	switch {
	case s.seg:
		return event.NewFetchReaderSize(io.NewSectionReader(s.dir.shared, s.segOff+off, end-off), bufSize), nil
	case s.path != "":
		f, err := os.Open(s.path)
		if err != nil {
			return nil, fmt.Errorf("spool: %w", err)
		}
		s.rmu.Lock()
		s.rfs = append(s.rfs, f)
		s.rmu.Unlock()
		return event.NewFetchReaderSize(io.NewSectionReader(f, off, end-off), bufSize), nil
	}
	b := s.joined
	if b == nil && len(s.mem) > 0 {
		b = bytes.Join(s.mem, nil)
	}
	return event.NewFetchReaderSize(bytes.NewReader(b[off:end]), bufSize), nil
}

// release frees the memory or removes the file the spool holds.
func (s *fetchSpool) release() {
	if s.held {
		s.dir.mem.Add(-int64(s.memLen))
		s.held = false
	}
	s.mem, s.memLen, s.joined = nil, 0, nil
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	s.rmu.Lock()
	for _, f := range s.rfs {
		f.Close()
	}
	s.rfs = nil
	s.rmu.Unlock()
	if s.path != "" {
		os.Remove(s.path)
		s.path = ""
	}
	s.seg = false // the shared file goes with the directory
}

// spoolSink is where a fetchSpool's coder writes: memory while it fits
// spoolMemPerFile, then a file of its own.
type spoolSink struct{ s *fetchSpool }

func (k spoolSink) Write(p []byte) (int, error) {
	s := k.s
	if s.f == nil {
		if s.memLen+len(p) <= spoolMemPerFile {
			s.mem = append(s.mem, bytes.Clone(p)) // the coder reuses p
			s.memLen += len(p)
			return len(p), nil
		}
		if err := s.spill(); err != nil {
			return 0, err
		}
	}
	return s.f.Write(p) // an *os.PathError names the file
}

// spill moves the spool from memory to a file of its own.
func (s *fetchSpool) spill() error {
	f, err := s.dir.create("fetches-*")
	if err != nil {
		return err
	}
	s.f, s.path = f, f.Name()
	for _, b := range s.mem {
		if _, err := f.Write(b); err != nil {
			return err
		}
	}
	s.mem, s.memLen = nil, 0
	return nil
}

// readOnce reports whether the input name can be read only once: it is
// "-" or anything that is neither a regular file nor a directory (a
// pipe, a FIFO, process substitution, a character device).
func readOnce(name string) bool {
	if name == StdinName {
		return true
	}
	st, err := os.Stat(name)
	return err == nil && !st.Mode().IsRegular() && !st.IsDir()
}

// openOnce opens an input that can be read only once, from stdin when
// name is "-". Reads give up when ctx is done; close ends the watch and
// closes what was opened.
func openOnce(ctx context.Context, name string, stdin io.Reader) (r io.Reader, close func(), err error) {
	switch {
	case name == StdinName && stdin == nil:
		return nil, nil, errors.New("standard input (-) is not available")
	case name == StdinName:
		stop := func() bool { return false }
		if f, ok := stdin.(*os.File); ok {
			stop = ingest.WatchReads(ctx, f)
		}
		return ctxReader{ctx, stdin}, func() { stop() }, nil
	}
	f, err := ingest.Open(ctx, name) // a FIFO without writer must not hang the run
	if err != nil {
		return nil, nil, err
	}
	stop := ingest.WatchReads(ctx, f)
	return ctxReader{ctx, f}, func() { stop(); f.Close() }, nil
}

// copyInput copies what is left of an input read once to a file of the
// spool, hashing the bytes: documents, listings and robots.txt files are
// read whole by name, so one given on a pipe is read from its copy.
func (d *spoolDir) copyInput(name string, src io.Reader) (path string, size int64, sum string, err error) {
	out, err := d.create("input-*")
	if err != nil {
		return "", 0, "", err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), src)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(out.Name())
		return "", 0, "", fmt.Errorf("read %s: %w", name, err)
	}
	return out.Name(), n, hex.EncodeToString(h.Sum(nil)), nil
}

// ctxReader stops a read loop between reads once ctx is done (a reader
// that is not an *os.File cannot be woken by WatchReads).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
