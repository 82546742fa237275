package output

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/repaudit/repaudit/table"
)

// Sentinel errors.
var (
	// ErrExists reports an output directory that exists and is not empty
	// while Options.Force is not set.
	ErrExists = errors.New("output: directory exists and is not empty (use --force to replace it)")
	// ErrNotOutputDir reports a directory that Force would replace but
	// that is not a repaudit output directory (it has no manifest.json
	// written by repaudit, or it holds files other than manifest.json and
	// *.parquet): it is never deleted.
	ErrNotOutputDir = errors.New("output: refusing to replace a directory that is not a repaudit output")
	// ErrClosed reports a write after Commit or Abort.
	ErrClosed = errors.New("output: writer is closed")
)

// DefaultRowGroupRows is the most rows per Parquet row group: 1 M rows,
// what engines read best. The byte budget below ends a wide table's
// groups sooner (fetches: about 45,000 rows); raising it to 16 MiB took
// the peak RSS of a 1 M-line audit (-j 2) from 227 MB to 281 MB, past
// the 256 MB the project allows, and 32 MiB to 382 MB.
const DefaultRowGroupRows = 1 << 20

// DefaultRowGroupBytes is the most bytes a table buffers for one row group
// (its rows in memory, strings included) before writing it. A table holds
// at most two row groups, the one filling and the one being written, so
// this bounds the writer's memory whatever the number of rows or the size
// of the values (a single value larger than the budget is still written,
// as a row group of its own).
const DefaultRowGroupBytes = 8 << 20

// Options configure Create.
type Options struct {
	// Force replaces an existing non-empty output directory, at Commit
	// only, and only if it is a repaudit output directory: it holds a
	// manifest.json whose tool is repaudit, and nothing but that and
	// *.parquet files.
	Force bool
	// RowGroupRows is the most rows per row group; 0 means
	// DefaultRowGroupRows.
	RowGroupRows int
	// RowGroupBytes is the most bytes buffered per row group and table;
	// 0 means DefaultRowGroupBytes.
	RowGroupBytes int
	// Compression is the Parquet codec: "zstd" (the default when empty),
	// "snappy", "gzip" or "none".
	Compression string
	// Encoders is the most goroutines that encode the column chunks of
	// one row group of a table at once; 0 means runtime.GOMAXPROCS(0) at
	// Create. The files are the same byte for byte whatever it is.
	Encoders int
}

// codec maps an Options.Compression name to a Parquet codec.
func codec(name string) (compress.Compression, error) {
	switch strings.ToLower(name) {
	case "", "zstd":
		return compress.Codecs.Zstd, nil
	case "snappy":
		return compress.Codecs.Snappy, nil
	case "gzip":
		return compress.Codecs.Gzip, nil
	case "none", "uncompressed":
		return compress.Codecs.Uncompressed, nil
	}
	return 0, fmt.Errorf("output: unknown compression %q (want zstd, snappy, gzip or none)", name)
}

// Writer writes every table of table.Tables as Parquet into a temporary
// directory and moves the finished directory into place on Commit. It
// implements table.Sink. The rows of one table must come from one
// goroutine at a time, but different tables may be written from different
// goroutines at once (each table has its own writer); Commit and Abort
// must come after every write has returned. The writer may keep a row's
// strings (not the row) until Commit, to recognise them again by their
// address: their bytes must not change, which holds for every Go string
// not made with package unsafe over a reused buffer.
type Writer struct {
	dir string // final directory
	tmp string // temporary sibling directory holding the files
	// inPlace: dir existed, empty, at Create (a mount point, say, which
	// cannot be renamed or replaced): tmp is inside it, and Commit moves
	// the files into dir, the manifest last.
	inPlace bool
	opts    Options
	tables  []*tableWriter
	byName  map[string]*tableWriter
	errMu   sync.Mutex
	err     error       // sticky: the first write error; guarded by errMu
	failed  atomic.Bool // err is set: rows need not take errMu to find out
	done    bool        // committed or aborted
	// The two tables of one row per fetch or finding, looked up once.
	fetches, violations *tableWriter
}

var (
	_ table.Sink     = (*Writer)(nil)
	_ table.Finisher = (*Writer)(nil)
)

// Create prepares the output directory dir. It refuses an existing
// non-empty directory unless opts.Force is set. Tables are written into a
// temporary sibling directory (dir.partial-<random>, created with any
// missing parents of dir) and the whole directory is moved into place by
// Commit; an existing empty dir (a mount point, which cannot be renamed)
// instead gets the temporary directory inside it, and Commit moves the
// files in, manifest.json last; with Force an old directory is replaced only at Commit. Call
// Abort (or Commit) exactly once; Abort after Commit does nothing, so
// `defer w.Abort()` is safe.
func Create(dir string, opts Options) (*Writer, error) {
	if dir == "" {
		return nil, errors.New("output: empty directory name")
	}
	dir = filepath.Clean(dir)
	if opts.RowGroupRows <= 0 {
		opts.RowGroupRows = DefaultRowGroupRows
	}
	if opts.RowGroupBytes <= 0 {
		opts.RowGroupBytes = DefaultRowGroupBytes
	}
	if opts.Encoders <= 0 {
		opts.Encoders = runtime.GOMAXPROCS(0)
	}
	cc, err := codec(opts.Compression)
	if err != nil {
		return nil, err
	}
	if err := checkTarget(dir, opts.Force); err != nil {
		return nil, err
	}
	sp, err := specs()
	if err != nil {
		return nil, err
	}
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	// An existing empty directory may be a mount point (a container's
	// volume), which no rename can move or replace: the tables are
	// written inside it and moved in at Commit. Hidden, the temporary
	// directory is skipped by an audit of dir.
	inPlace := isEmptyDir(dir)
	where, prefix := parent, base+".partial-"
	if inPlace {
		where, prefix = dir, ".partial-"
	}
	tmp, err := os.MkdirTemp(where, prefix)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	w := &Writer{dir: dir, tmp: tmp, inPlace: inPlace, opts: opts, byName: make(map[string]*tableWriter)}
	for _, s := range sp {
		tw, err := newTableWriter(s, filepath.Join(tmp, s.Name+".parquet"), opts.RowGroupRows, opts.RowGroupBytes, opts.Encoders, cc)
		if err != nil {
			w.Abort()
			return nil, fmt.Errorf("create %s: %w", dir, err)
		}
		w.tables = append(w.tables, tw)
		w.byName[s.Name] = tw
	}
	w.fetches, w.violations = w.byName["fetches"], w.byName["violations"]
	return w, nil
}

// isEmptyDir reports whether dir is an existing, empty directory.
func isEmptyDir(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
}

// rename is os.Rename (a variable for tests: a mount point cannot be
// renamed).
var rename = os.Rename

// checkTarget decides whether dir may become the output directory.
func checkTarget(dir string, force bool) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("output %s: exists and is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("output %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	if !force {
		return fmt.Errorf("%s: %w", dir, ErrExists)
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || (n != ManifestName && !strings.HasSuffix(n, ".parquet")) {
			return fmt.Errorf("%s holds %s: %w", dir, n, ErrNotOutputDir)
		}
	}
	// Parquet files alone do not make a directory ours (a data lake
	// partition, another tool's export): only a manifest.json that
	// repaudit wrote does.
	m, err := ReadManifest(dir)
	if err != nil {
		return fmt.Errorf("%s has no repaudit manifest.json (%v): %w", dir, err, ErrNotOutputDir)
	}
	if m.Tool != "repaudit" {
		return fmt.Errorf("%s: manifest.json names tool %q, not repaudit: %w", dir, m.Tool, ErrNotOutputDir)
	}
	return nil
}

// Dir returns the final output directory.
func (w *Writer) Dir() string { return w.dir }

// Fetch appends a row to fetches.parquet.
func (w *Writer) Fetch(r *table.Fetch) error {
	if r == nil {
		return w.add("fetches", r)
	}
	return w.addTo(w.fetches, unsafe.Pointer(r))
}

// Violation appends a row to violations.parquet.
func (w *Writer) Violation(r *table.Violation) error {
	if r == nil {
		return w.add("violations", r)
	}
	return w.addTo(w.violations, unsafe.Pointer(r))
}

// RobotsVersion appends a row to robots_versions.parquet.
func (w *Writer) RobotsVersion(r *table.RobotsVersion) error { return w.add("robots_versions", r) }

// RobotsRule appends a row to robots_rules.parquet.
func (w *Writer) RobotsRule(r *table.RobotsRule) error { return w.add("robots_rules", r) }

// Directive appends a row to directives.parquet.
func (w *Writer) Directive(r *table.Directive) error { return w.add("directives", r) }

// Retention appends a row to retention.parquet.
func (w *Writer) Retention(r *table.Retention) error { return w.add("retention", r) }

// Problem appends a row to problems.parquet.
func (w *Writer) Problem(r *table.Problem) error { return w.add("problems", r) }

func (w *Writer) add(name string, row any) error {
	if w.done {
		return ErrClosed
	}
	if err := w.stickyErr(); err != nil {
		return err
	}
	rv := reflect.ValueOf(row)
	if rv.IsNil() {
		return fmt.Errorf("output: nil %s row", name)
	}
	tw := w.byName[name]
	if rv.Type().Elem() != tw.spec.typ {
		return fmt.Errorf("output: %s row of type %s", name, rv.Type())
	}
	return w.addTo(tw, rv.UnsafePointer())
}

// addTo appends the row at p, of tw's row type, to tw: the path of the
// typed methods once the type is known.
func (w *Writer) addTo(tw *tableWriter, p unsafe.Pointer) error {
	if w.done {
		return ErrClosed
	}
	if w.failed.Load() {
		return w.stickyErr()
	}
	if err := tw.add(p); err != nil {
		w.errMu.Lock()
		defer w.errMu.Unlock()
		if w.err == nil {
			w.err = fmt.Errorf("write %s: %w", tw.spec.Name, err)
			w.failed.Store(true)
		}
		return w.err
	}
	return nil
}

// Finish writes table name's last row group and footer and frees what
// the table held (table.Finisher): no row of it may follow. Commit then
// leaves the file as it is. The file's bytes are those Commit would have
// written; finishing a table as soon as it is whole keeps the buffers of
// the tables written one after another from adding up.
func (w *Writer) Finish(name string) error {
	if w.done {
		return ErrClosed
	}
	if err := w.stickyErr(); err != nil {
		return err
	}
	tw, ok := w.byName[name]
	if !ok {
		return fmt.Errorf("output: no table %q", name)
	}
	if tw.closed {
		return nil
	}
	if err := tw.close(); err != nil {
		w.errMu.Lock()
		defer w.errMu.Unlock()
		if w.err == nil {
			w.err = fmt.Errorf("write %s: %w", name, err)
			w.failed.Store(true)
		}
		return w.err
	}
	return nil
}

// Trim frees what each open table keeps to fill its next row group while
// the last one is encoded (its spare batch, the encoder's recycled
// buffers): call it when the tables that got rows in bulk get few or none
// for a while (audit: after pass 2, while the model's tables are
// written), and never while a row is being written. A table that gets
// rows again allocates them again; no byte written changes.
func (w *Writer) Trim() {
	for _, tw := range w.tables {
		tw.trim()
	}
}

func (w *Writer) stickyErr() error {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	return w.err
}

// Counts returns the number of rows written so far per table name.
func (w *Writer) Counts() map[string]int64 {
	c := make(map[string]int64, len(w.tables))
	for _, tw := range w.tables {
		c[tw.spec.Name] = tw.rows
	}
	return c
}

// Commit flushes and closes every table, writes manifest.json (with
// m.Counts set to the rows written, and Tool and SchemaVersion filled when
// empty), syncs everything to disk and renames the temporary directory
// into place. On any error the temporary directory is removed and dir is
// left as it was.
func (w *Writer) Commit(m *Manifest) error {
	if w.done {
		return ErrClosed
	}
	if w.err != nil {
		w.Abort()
		return w.err
	}
	if err := w.commit(m); err != nil {
		w.Abort()
		return fmt.Errorf("commit %s: %w", w.dir, err)
	}
	w.done = true
	return nil
}

func (w *Writer) commit(m *Manifest) error {
	for _, tw := range w.tables {
		if tw.closed {
			continue // finished early (Finish)
		}
		if err := tw.close(); err != nil {
			return fmt.Errorf("%s: %w", tw.spec.Name, err)
		}
	}
	if m == nil {
		m = &Manifest{}
	}
	if m.Tool == "" {
		m.Tool = "repaudit"
	}
	if m.SchemaVersion == 0 {
		m.SchemaVersion = table.SchemaVersion
	}
	m.Counts = w.Counts()
	// The tables are complete and closed: their sizes and digests are
	// final.
	m.Tables = m.Tables[:0]
	for _, tw := range w.tables {
		m.Tables = append(m.Tables, TableFile{Name: tw.spec.Name, File: tw.spec.Name + ".parquet",
			Rows: tw.rows, Bytes: tw.out.n, SHA256: tw.out.sum()})
	}
	data, err := m.marshal()
	if err != nil {
		return err
	}
	if err := writeFileSync(filepath.Join(w.tmp, ManifestName), data); err != nil {
		return err
	}
	if err := os.Chmod(w.tmp, 0o755); err != nil {
		return err
	}
	if err := syncDir(w.tmp); err != nil {
		return err
	}
	if w.inPlace {
		return w.commitInPlace()
	}
	// The target may have changed since Create: check again.
	if err := checkTarget(w.dir, w.opts.Force); err != nil {
		return err
	}
	parent := filepath.Dir(w.dir)
	var old string
	if _, err := os.Lstat(w.dir); err == nil {
		// Move the old (empty, or with Force a previous output) directory
		// aside first: rename cannot replace a non-empty directory. A crash
		// between the two renames leaves dir missing and both siblings in
		// place, never a half-written dir.
		o, err := os.MkdirTemp(parent, filepath.Base(w.dir)+".old-")
		if err != nil {
			return err
		}
		if err := os.Remove(o); err != nil {
			return err
		}
		if err := rename(w.dir, o); err != nil {
			return err
		}
		old = o
	}
	if err := rename(w.tmp, w.dir); err != nil {
		if old != "" {
			rename(old, w.dir) // put the old directory back
		}
		return err
	}
	w.tmp = ""
	if err := syncDir(parent); err != nil {
		return err
	}
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("remove replaced directory: %w", err)
		}
	}
	return nil
}

// commitInPlace moves the files from tmp, inside dir, into dir: the
// tables first, manifest.json last, so that a run that dies on the way
// leaves no manifest, which report and query need. dir must still hold
// nothing but tmp.
func (w *Writer) commitInPlace() error {
	entries, err := os.ReadDir(w.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if filepath.Join(w.dir, e.Name()) != w.tmp {
			return fmt.Errorf("%s: %w (%s appeared during the run)", w.dir, ErrExists, e.Name())
		}
	}
	files, err := os.ReadDir(w.tmp)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for _, f := range files {
		if f.Name() != ManifestName {
			names = append(names, f.Name())
		}
	}
	for _, n := range append(names, ManifestName) {
		if err := rename(filepath.Join(w.tmp, n), filepath.Join(w.dir, n)); err != nil {
			return err
		}
	}
	if err := os.Remove(w.tmp); err != nil {
		return err
	}
	w.tmp = ""
	return syncDir(w.dir)
}

// Abort stops writing and removes the temporary directory; dir is left as
// it was. It does nothing after Commit and may be called more than once.
func (w *Writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	for _, tw := range w.tables {
		tw.abort()
	}
	if w.tmp == "" {
		return nil
	}
	err := os.RemoveAll(w.tmp)
	w.tmp = ""
	return err
}

func writeFileSync(name string, data []byte) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir makes a directory's entries durable. Some platforms cannot sync
// a directory; that is not an error worth failing a run for.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	d.Sync()
	return d.Close()
}

// sink buffers writes to the table file and remembers the first error:
// the Parquet writer's Close can drop a write error of the footer, so the
// table writer checks this one itself. It has no Close method, so the
// Parquet writer does not close the file.
//
// It also counts and hashes the bytes as they pass, so the manifest can
// record each table's size and SHA-256 without reading the file again.
type sink struct {
	bw  *bufio.Writer
	err error
	h   hash.Hash // SHA-256 of the bytes written
	n   int64     // bytes written
}

func newSink(bw *bufio.Writer) *sink { return &sink{bw: bw, h: sha256.New()} }

func (s *sink) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.bw.Write(p)
	s.h.Write(p[:n])
	s.n += int64(n)
	if err != nil {
		s.err = err
	}
	return n, err
}

// sum returns the hex SHA-256 of the bytes written.
func (s *sink) sum() string { return hex.EncodeToString(s.h.Sum(nil)) }
