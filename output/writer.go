package output

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

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

// DefaultRowGroupRows is the number of rows per Parquet row group.
const DefaultRowGroupRows = 128 << 10

// maxRowGroupBytes flushes a row group early when its string data grows
// past this many bytes, so a table of unusually long values (evidence,
// user agents) cannot exhaust memory or Arrow's 2 GiB per-array limit.
const maxRowGroupBytes = 256 << 20

// Options configure Create.
type Options struct {
	// Force replaces an existing non-empty output directory, at Commit
	// only, and only if it is a repaudit output directory: it holds a
	// manifest.json whose tool is repaudit, and nothing but that and
	// *.parquet files.
	Force bool
	// RowGroupRows is the number of rows per row group; 0 means
	// DefaultRowGroupRows.
	RowGroupRows int
	// Compression is the Parquet codec: "zstd" (the default when empty),
	// "snappy", "gzip" or "none".
	Compression string
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
// must come after every write has returned.
type Writer struct {
	dir    string // final directory
	tmp    string // temporary sibling directory holding the files
	opts   Options
	tables []*tableWriter
	byName map[string]*tableWriter
	errMu  sync.Mutex
	err    error // sticky: the first write error; guarded by errMu
	done   bool  // committed or aborted
}

var _ table.Sink = (*Writer)(nil)

// Create prepares the output directory dir. It refuses an existing
// non-empty directory unless opts.Force is set. Tables are written into a
// temporary sibling directory (dir.partial-<random>, created with any
// missing parents of dir) and the whole directory is moved into place by
// Commit; with Force an old directory is replaced only at Commit. Call
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
	tmp, err := os.MkdirTemp(parent, base+".partial-")
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	w := &Writer{dir: dir, tmp: tmp, opts: opts, byName: make(map[string]*tableWriter)}
	for _, s := range sp {
		tw, err := newTableWriter(s, filepath.Join(tmp, s.Name+".parquet"), opts.RowGroupRows, cc)
		if err != nil {
			w.Abort()
			return nil, fmt.Errorf("create %s: %w", dir, err)
		}
		w.tables = append(w.tables, tw)
		w.byName[s.Name] = tw
	}
	return w, nil
}

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
func (w *Writer) Fetch(r *table.Fetch) error { return w.add("fetches", r) }

// Violation appends a row to violations.parquet.
func (w *Writer) Violation(r *table.Violation) error { return w.add("violations", r) }

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
	if err := tw.add(rv.Elem()); err != nil {
		w.errMu.Lock()
		defer w.errMu.Unlock()
		if w.err == nil {
			w.err = fmt.Errorf("write %s: %w", name, err)
		}
		return w.err
	}
	return nil
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
		if err := os.Rename(w.dir, o); err != nil {
			return err
		}
		old = o
	}
	if err := os.Rename(w.tmp, w.dir); err != nil {
		if old != "" {
			os.Rename(old, w.dir) // put the old directory back
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
type sink struct {
	bw  *bufio.Writer
	err error
}

func (s *sink) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.bw.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// tableWriter writes one table: rows are appended to Arrow builders and
// written as one record batch, which is one Parquet row group, every
// rowGroupRows rows.
type tableWriter struct {
	spec    *tableSpec
	f       *os.File
	out     *sink
	fw      *pqarrow.FileWriter
	cols    []appender
	limit   int
	pending int   // rows in the builders
	bytes   int   // string bytes in the builders
	rows    int64 // rows written or pending
	closed  bool

	// Row groups are encoded and written by a goroutine of their own
	// (started at the first flush), so encoding one row group overlaps
	// with appending the next: the writing side of an audit is sequential
	// and this is most of its work. At most one finished row group waits.
	work  chan arrow.RecordBatch
	done  chan struct{}
	errMu sync.Mutex
	werr  error // first error of the writing goroutine
}

func (tw *tableWriter) writeErr() error {
	tw.errMu.Lock()
	defer tw.errMu.Unlock()
	return tw.werr
}

func (tw *tableWriter) startWriting() {
	tw.work = make(chan arrow.RecordBatch, 1)
	tw.done = make(chan struct{})
	go func() {
		defer close(tw.done)
		for rec := range tw.work {
			if tw.writeErr() == nil {
				err := tw.fw.Write(rec)
				if err == nil {
					err = tw.out.err
				}
				if err != nil {
					tw.errMu.Lock()
					tw.werr = err
					tw.errMu.Unlock()
				}
			}
			rec.Release()
		}
	}()
}

// drain waits until every queued row group is written.
func (tw *tableWriter) drain() {
	if tw.work != nil {
		close(tw.work)
		<-tw.done
		tw.work = nil
	}
}

// appender appends one struct field to its Arrow builder. The builders are
// typed once here, so appending a row is a switch per column and a typed
// reflect accessor, without allocation.
type appender struct {
	field int
	kind  kind
	str   *array.StringBuilder
	b     *array.BooleanBuilder
	i32   *array.Int32Builder
	i64   *array.Int64Builder
	f64   *array.Float64Builder
	ts    *array.TimestampBuilder
	// Dictionary columns: the row group's distinct values in first-seen
	// order (vals), their index by value (index), and one index per row
	// (i32). A Go map hashes a string without allocating, which Arrow's
	// dictionary builder and Parquet's dictionary encoder both do per value.
	vals  *array.StringBuilder
	index map[string]int32
}

func (a *appender) builders() []array.Builder {
	var out []array.Builder
	if a.str != nil {
		out = append(out, a.str)
	}
	if a.vals != nil {
		out = append(out, a.vals)
	}
	if a.b != nil {
		out = append(out, a.b)
	}
	if a.i32 != nil {
		out = append(out, a.i32)
	}
	if a.i64 != nil {
		out = append(out, a.i64)
	}
	if a.f64 != nil {
		out = append(out, a.f64)
	}
	if a.ts != nil {
		out = append(out, a.ts)
	}
	return out
}

func newTableWriter(s *tableSpec, path string, rowGroupRows int, cc compress.Compression) (*tableWriter, error) {
	props := []parquet.WriterProperty{
		parquet.WithCompression(cc),
		parquet.WithMaxRowGroupLength(int64(rowGroupRows)),
		parquet.WithDictionaryDefault(false),
		parquet.WithRootRepetition(parquet.Repetitions.Required),
		parquet.WithCreatedBy("repaudit"),
		parquet.WithStats(true),
	}
	for _, c := range s.Cols {
		switch c.kind {
		case kDict:
			// Min/max statistics of a dictionary column cost a hash pass
			// per row group in arrow-go, and prune nothing: a row group
			// holds many bots, kinds and files.
			props = append(props, parquet.WithDictionaryFor(c.Name, true), parquet.WithStatsFor(c.Name, false))
		case kString:
			props = append(props, parquet.WithStatsFor(c.Name, false))
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	out := &sink{bw: bufio.NewWriterSize(f, 1<<20)}
	fw, err := pqarrow.NewFileWriter(s.schema, out, parquet.NewWriterProperties(props...),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		f.Close()
		return nil, err
	}
	tw := &tableWriter{spec: s, f: f, out: out, fw: fw, limit: rowGroupRows}
	mem := memory.DefaultAllocator
	for _, c := range s.Cols {
		a := appender{field: c.Field, kind: c.kind}
		switch c.kind {
		case kString:
			a.str = array.NewStringBuilder(mem)
		case kDict:
			a.i32 = array.NewInt32Builder(mem)
			a.vals = array.NewStringBuilder(mem)
			a.index = make(map[string]int32)
		case kBool:
			a.b = array.NewBooleanBuilder(mem)
		case kInt32:
			a.i32 = array.NewInt32Builder(mem)
		case kInt64:
			a.i64 = array.NewInt64Builder(mem)
		case kFloat64:
			a.f64 = array.NewFloat64Builder(mem)
		default:
			a.ts = array.NewTimestampBuilder(mem, timestampType.(*arrow.TimestampType))
		}
		tw.cols = append(tw.cols, a)
	}
	return tw, nil
}

// Timestamps outside years 1..9999 are written as null: they come from
// garbled input, and not every Parquet reader accepts them.
var (
	minTime = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
)

func appendTime(b *array.TimestampBuilder, t *time.Time) {
	if t == nil || t.IsZero() || t.Before(minTime) || !t.Before(maxTime) {
		b.AppendNull()
		return
	}
	b.Append(arrow.Timestamp(t.UnixMicro()))
}

// add appends the row held in rv (an addressable struct value).
func (tw *tableWriter) add(rv reflect.Value) error {
	if tw.closed {
		return ErrClosed
	}
	for i := range tw.cols {
		a := &tw.cols[i]
		f := rv.Field(a.field)
		switch a.kind {
		case kString, kDict:
			s := f.String()
			if !utf8.ValidString(s) {
				s = strings.ToValidUTF8(s, "\uFFFD")
			}
			if a.kind == kString {
				tw.bytes += len(s)
				a.str.Append(s)
				break
			}
			i, ok := a.index[s]
			if !ok {
				i = int32(len(a.index))
				a.index[s] = i
				a.vals.Append(s)
				tw.bytes += len(s)
			}
			a.i32.Append(i)
		case kBool:
			a.b.Append(f.Bool())
		case kInt32:
			a.i32.Append(int32(f.Int()))
		case kInt64:
			a.i64.Append(f.Int())
		case kFloat64:
			a.f64.Append(f.Float())
		case kTime:
			appendTime(a.ts, f.Addr().Interface().(*time.Time))
		case kTimePtr:
			appendTime(a.ts, f.Interface().(*time.Time))
		}
	}
	tw.pending++
	tw.rows++
	if tw.pending >= tw.limit || tw.bytes >= maxRowGroupBytes {
		return tw.flush()
	}
	return nil
}

// flush writes the pending rows as one row group.
func (tw *tableWriter) flush() error {
	if tw.pending == 0 {
		return nil
	}
	full := tw.pending >= tw.limit
	n := int64(tw.pending)
	arrs := make([]arrow.Array, len(tw.cols))
	for i := range tw.cols {
		a := &tw.cols[i]
		switch a.kind {
		case kString:
			arrs[i] = a.str.NewArray()
		case kDict:
			idx, vals := a.i32.NewArray(), a.vals.NewArray()
			arrs[i] = array.NewDictionaryArray(dictType, idx, vals)
			idx.Release()
			vals.Release()
			// Each row group gets a dictionary of its own values only.
			clear(a.index)
		case kBool:
			arrs[i] = a.b.NewArray()
		case kInt32:
			arrs[i] = a.i32.NewArray()
		case kInt64:
			arrs[i] = a.i64.NewArray()
		case kFloat64:
			arrs[i] = a.f64.NewArray()
		default:
			arrs[i] = a.ts.NewArray()
		}
	}
	rec := array.NewRecordBatch(tw.spec.schema, arrs, n)
	for _, arr := range arrs {
		arr.Release()
	}
	bytes := tw.bytes
	tw.pending, tw.bytes = 0, 0
	if full {
		// The next group is likely as large: size the builders once
		// instead of growing them by doubling.
		for i := range tw.cols {
			for _, b := range tw.cols[i].builders() {
				b.Reserve(tw.limit)
			}
			if s := tw.cols[i].str; s != nil {
				s.ReserveData(bytes / max(1, len(tw.cols)))
			}
		}
	}
	if err := tw.writeErr(); err != nil {
		rec.Release()
		return err
	}
	if tw.work == nil {
		tw.startWriting()
	}
	tw.work <- rec
	return nil
}

// release frees the builders' memory.
func (tw *tableWriter) release() {
	for i := range tw.cols {
		for _, b := range tw.cols[i].builders() {
			b.Release()
		}
	}
}

// close flushes the last row group, writes the footer and syncs the file.
func (tw *tableWriter) close() error {
	if tw.closed {
		return ErrClosed
	}
	err := tw.flush()
	tw.drain()
	if err == nil {
		err = tw.writeErr()
	}
	tw.closed = true
	tw.release()
	if cerr := tw.fw.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = tw.out.err
	}
	if err == nil {
		err = tw.out.bw.Flush()
	}
	if err == nil {
		err = tw.f.Sync()
	}
	if cerr := tw.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// abort releases the table's memory and closes its file without a footer.
func (tw *tableWriter) abort() {
	if tw.closed {
		return
	}
	tw.closed = true
	tw.drain()
	tw.release()
	tw.f.Close()
}
