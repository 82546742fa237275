package output

import (
	"bytes"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// chunkPlan is how one column chunk of a row group is written.
type chunkPlan uint8

const (
	planPlain chunkPlan = iota // plain, zstd's default level
	planFast                   // plain, zstd's fastest level (zstdFast)
	planDict                   // dictionary-encoded
	planDelta                  // DELTA_BINARY_PACKED
)

// encode writes batch b as one row group. Each column chunk is
// dictionary-encoded or plain as its values make worthwhile; row groups of
// fewer than adaptiveRows rows keep a fixed layout.
//
// The column chunks are encoded and compressed by up to tw.workers
// goroutines at once, and written to the file in schema order as each is
// done: arrow-go's buffered row group (file.Writer.AppendBufferedRowGroup)
// gives every column a writer whose pages go to memory until the column is
// closed, and closing a column copies them to the file at its position
// then, which is where the serial writer would have put them. So the bytes
// are those of writing the columns one after the other, whatever the
// number of workers. A row group's encoded pages are held in memory until
// its columns are closed; they are its compressed size, a fraction of the
// batch.
func (tw *tableWriter) encode(b *batch) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("output: encoding a row group: %v", r)
		}
	}()
	cols := tw.spec.Cols
	workers := tw.workersFor(b.rows)
	plans := tw.plans[:len(cols)]
	err = tw.each(workers, len(cols), func(e *encoder, i int) error {
		plans[i] = e.choose(cols[i], &b.cols[i], b.rows)
		return nil
	}, nil)
	if err != nil {
		return err
	}
	// arrow-go reads the properties when it makes the row group's column
	// writers, and again as each closes: they stay as set until the row
	// group is closed.
	*tw.props = *tw.rowGroupProps(plans)
	rgw := tw.fw.AppendBufferedRowGroup()
	err = tw.each(workers, len(cols), func(e *encoder, i int) error {
		cw, err := rgw.Column(i)
		if err != nil {
			return err
		}
		dropDistinctCount(cw)
		pages := tw.pages.lend(cw)
		defer tw.pages.takeBack(cw, pages)
		if err := e.writeChunk(cw, cols[i], &b.cols[i], plans[i] == planDict, b.rows); err != nil {
			return fmt.Errorf("column %s: %w", cols[i].Name, err)
		}
		return flushPage(cw)
	}, func(i int) error {
		cw, err := rgw.Column(i)
		if err == nil {
			err = cw.Close()
		}
		if err != nil {
			return fmt.Errorf("column %s: %w", cols[i].Name, err)
		}
		dropPageBuffers(cw)
		return nil
	})
	if err != nil {
		return err
	}
	return rgw.Close()
}

// workersFor returns how many goroutines encode a row group of rows rows,
// and sizes the scratch space for them: one for a row group too small to
// be worth spreading.
func (tw *tableWriter) workersFor(rows int) int {
	n := min(tw.workers, len(tw.spec.Cols))
	if rows < adaptiveRows {
		n = 1
	}
	if len(tw.encs) < n {
		tw.encs = append(tw.encs, make([]encoder, n-len(tw.encs))...)
	}
	if tw.plans == nil {
		tw.plans = make([]chunkPlan, len(tw.spec.Cols))
	}
	return n
}

// each calls work(e, i) for every i in [0, n) on workers goroutines, each
// with its own scratch space e, and then(i), when not nil, for each i in
// order on the calling goroutine, as soon as work(i) has returned. It
// returns the first error in the order of i (a panic in work is one) once
// every work call has returned: the batch is not reused while a worker
// still reads it. After an error no new work starts.
func (tw *tableWriter) each(workers, n int, work func(e *encoder, i int) error, then func(i int) error) error {
	if workers <= 1 {
		for i := range n {
			if err := work(&tw.encs[0], i); err != nil {
				return err
			}
			if then != nil {
				if err := then(i); err != nil {
					return err
				}
			}
		}
		return nil
	}
	errs := make([]error, n)
	done := make([]chan struct{}, n)
	for i := range done {
		done[i] = make(chan struct{})
	}
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func(e *encoder) {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if !stop.Load() {
					errs[i] = runWork(work, e, i)
				}
				close(done[i])
			}
		}(&tw.encs[w])
	}
	var err error
	for i := range n {
		<-done[i]
		if err = errs[i]; err == nil && then != nil {
			err = then(i)
		}
		if err != nil {
			stop.Store(true)
			break
		}
	}
	wg.Wait()
	return err
}

// runWork calls work(e, i), turning a panic into an error: arrow-go's
// writers panic on some failures, and a worker's panic would otherwise end
// the process.
func runWork(work func(*encoder, int) error, e *encoder, i int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("output: encoding a column chunk: %v", r)
		}
	}()
	return work(e, i)
}

// choose decides how the chunk c of column col, in a row group of rows
// rows, is written: dictionary-encoded, delta-encoded, plain with zstd's
// fastest level, or plain.
func (e *encoder) choose(col column, c *colBuf, rows int) chunkPlan {
	var dict bool
	switch {
	case rows < adaptiveRows:
		// Too few rows for the choice to matter or for a sample to
		// tell: the fixed layout, dictionaries for the columns of
		// small value sets (dictColumns) only.
		dict = col.kind == kDict && !c.plain
	case col.kind == kString || col.kind == kDict:
		// At most half as many entries as rows, and the dictionary
		// fits a page (else the column has turned plain already).
		dict = !c.plain && 2*(len(c.offs)-1) <= rows
	case col.kind == kInt32:
		dict = repetitive(c.i32, &e.seen32)
	case col.kind == kInt64 || col.kind == kTime || col.kind == kTimePtr:
		dict = repetitive(c.i64, &e.seen64)
	}
	switch {
	case dict:
		return planDict
	case rows >= adaptiveRows && e.deltaPays(col.kind, c):
		return planDelta
	case rows >= adaptiveRows && col.kind != kString && col.kind != kDict:
		// Plain numbers (response sizes, times in no order): zstd's
		// fastest level finds their few long matches as well as the
		// default one, at less CPU, and its output is smaller on them
		// (a log audit's response_bytes: a fifth). Dictionary
		// indices and strings keep the default level: at the
		// fastest one some come out three quarters larger (a log
		// audit's robots_note).
		return planFast
	}
	return planPlain
}

// rowGroupProps returns the writer properties of a row group whose column
// chunks are written as plans says: the table's base options, and for
// each column its dictionary, encoding or zstd level where the plan
// differs from plain at the default level.
func (tw *tableWriter) rowGroupProps(plans []chunkPlan) *parquet.WriterProperties {
	opts := make([]parquet.WriterProperty, len(tw.base), len(tw.base)+len(plans))
	copy(opts, tw.base)
	for i, col := range tw.spec.Cols {
		switch plans[i] {
		case planDict:
			opts = append(opts, parquet.WithDictionaryFor(col.Name, true))
		case planDelta:
			opts = append(opts, parquet.WithEncodingFor(col.Name, parquet.Encodings.DeltaBinaryPacked))
		case planFast:
			opts = append(opts, parquet.WithCompressionLevelFor(col.Name, tw.fast))
		}
	}
	return parquet.NewWriterProperties(opts...)
}

// pageFlusher is the method of arrow-go's column writers that ends the
// page being filled: it encodes the page's levels and values, compresses
// them and hands the page on (or holds it until the dictionary page is
// written, for a dictionary-encoded chunk).
type pageFlusher interface{ FlushCurrentPage() error }

// flushPage ends the last, partly filled page of the column chunk that w
// writes, as closing w would: most column chunks of a row group are one
// page, so this is where most of their compression happens, and flushPage
// does it on an encoding worker rather than where the columns are closed
// one after the other. A column writer with no value since its last page
// is left alone (a flush would write an empty page). arrow-go v18.4.1
// exports no count of the pending values; it is read by reflection from
// the writer's field numBufferedValues, what its Close tests
// (TestPendingValues fails if a new arrow-go moves it; Close then flushes
// the page itself, and the bytes are the same).
func flushPage(w file.ColumnChunkWriter) error {
	f, ok := w.(pageFlusher)
	if !ok || pendingValues(w) <= 0 {
		return nil
	}
	return f.FlushCurrentPage()
}

// pendingValues returns the number of values (levels) the column writer w
// holds for its next page, or -1 when it cannot tell.
func pendingValues(w file.ColumnChunkWriter) int64 {
	v := reflect.ValueOf(w)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return -1
	}
	f := fieldByName(v.Elem(), "numBufferedValues")
	if !f.IsValid() || f.Kind() != reflect.Int64 {
		return -1
	}
	return f.Int()
}

// fieldByName is v.FieldByName(name) for the struct v, with the
// field's place remembered per type (structField).
func fieldByName(v reflect.Value, name string) reflect.Value {
	f, ok := structField(v.Type(), name)
	if !ok {
		return reflect.Value{}
	}
	return v.FieldByIndex(f.Index)
}

// structField is t.FieldByName(name), remembered per type and name:
// FieldByName searches the embedded structs, and allocates, every time,
// and the column writers' fields are looked up several times per column
// chunk.
func structField(t reflect.Type, name string) (reflect.StructField, bool) {
	key := fieldKey{t, name}
	c, ok := fieldCache.Load(key)
	if !ok {
		var f foundField
		f.StructField, f.found = t.FieldByName(name)
		c, _ = fieldCache.LoadOrStore(key, f)
	}
	f := c.(foundField)
	return f.StructField, f.found
}

// fieldKey is a struct type and the name of a field.
type fieldKey struct {
	t    reflect.Type
	name string
}

// foundField is what FieldByName said of a fieldKey.
type foundField struct {
	reflect.StructField
	found bool
}

// fieldCache maps a fieldKey to its foundField.
var fieldCache sync.Map // fieldKey → foundField

// pageBufferFields are the fields of arrow-go v18.4.1's column writer
// that hold a page's bytes before and after compression, sized for the
// largest page of the chunk and kept as long as the writer.
var pageBufferFields = []string{"uncompressedData", "compressedTemp"}

// dropPageBuffers lets the collector have the page buffers of w, a
// closed column writer. The buffered row group keeps every column's
// writer until the row group is closed, where the serial writer let
// each go at the next column: without this a row group's page buffers,
// about its encoded size, stayed live until its last column was done
// (+20 to +35 MB of peak RSS for a 1 M-line log audit at -j 2). The
// fields are not exported; they are reached by reflection and emptied
// (TestDropPageBuffers fails if a new arrow-go moves them; they are then
// kept, which costs memory only). An emptied buffer is still usable.
func dropPageBuffers(w file.ColumnChunkWriter) {
	bufs, _ := pageBuffers(w)
	for _, b := range bufs {
		*b = bytes.Buffer{}
	}
}

// pagePool holds a table's spare page buffers (pageBufferFields) for
// its column writers. arrow-go gives each column writer empty buffers
// and grows them for its first pages, and growing a bytes.Buffer zeroes
// what it adds: a violations table's evidence, plain pages of a
// megabyte and more, took two fresh buffers of 2 MiB per row group
// (bytes.growSlice: 0.16 of 6.7 CPU-s of a 1 M-line log audit). The
// pool lends each column writer the spare buffers, if no other
// encoding goroutine has them, and keeps the largest that come back:
// a table holds its largest page twice (4.3 MB for that evidence)
// until it is closed, however many goroutines encode it. The buffers
// are scratch space: arrow-go resets them before each page and copies
// a page out of them before building the next, so which memory they
// use changes no byte written.
type pagePool struct {
	mu    sync.Mutex
	spare *pageBufs
}

// pageBufs is one buffer for each of pageBufferFields.
type pageBufs [2]bytes.Buffer

func (p *pageBufs) cap() int { return p[0].Cap() + p[1].Cap() }

// lend gives w, a column writer just made, the spare buffers (or new
// empty ones) for its pages, and returns what w had, for takeBack.
func (pp *pagePool) lend(w file.ColumnChunkWriter) *pageBufs {
	pp.mu.Lock()
	p := pp.spare
	pp.spare = nil
	pp.mu.Unlock()
	if p == nil {
		p = new(pageBufs)
	}
	p.swap(w)
	return p
}

// takeBack takes back what lend lent w, once w's pages are flushed
// (flushPage): w gets its own empty buffers again, which it grows anew
// should its Close have a page left to build, and the pool keeps the
// lent ones unless it got larger ones back meanwhile.
func (pp *pagePool) takeBack(w file.ColumnChunkWriter, p *pageBufs) {
	p.swap(w)
	pp.mu.Lock()
	if pp.spare == nil || pp.spare.cap() < p.cap() {
		pp.spare = p
	}
	pp.mu.Unlock()
}

// swap exchanges w's page buffers with p. It does nothing unless every
// field is found (a new arrow-go: the writer then allocates its own,
// which costs time only).
func (p *pageBufs) swap(w file.ColumnChunkWriter) {
	bufs, ok := pageBuffers(w)
	if !ok || len(bufs) != len(p) {
		return
	}
	for k, b := range bufs {
		*b, p[k] = p[k], *b
	}
}

// pageBufferCap returns the capacity of w's page buffers, -1 when a
// field is not found (for TestDropPageBuffers).
func pageBufferCap(w file.ColumnChunkWriter) int {
	bufs, ok := pageBuffers(w)
	if !ok {
		return -1
	}
	n := 0
	for _, b := range bufs {
		n += b.Cap()
	}
	return n
}

// pageBuffers returns w's page buffers (pageBufferFields) that exist,
// and whether every field was found with a type it can read.
func pageBuffers(w file.ColumnChunkWriter) (bufs []*bytes.Buffer, ok bool) {
	v := reflect.ValueOf(w)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	fields := pageBufferPaths(v.Elem().Type())
	bufs = make([]*bytes.Buffer, 0, len(fields))
	ok = true
	for _, f := range fields {
		if f.index == nil {
			ok = false
			continue
		}
		p := unsafe.Pointer(v.Elem().FieldByIndex(f.index).UnsafeAddr())
		if f.ptr {
			if p = unsafe.Pointer(*(**bytes.Buffer)(p)); p == nil {
				continue
			}
		}
		bufs = append(bufs, (*bytes.Buffer)(p))
	}
	return bufs, ok
}

// pageBufferField is where a column writer type holds one of
// pageBufferFields: the index path of the field, nil when it is missing
// or of a type pageBuffers cannot read, and whether it is a
// *bytes.Buffer rather than a bytes.Buffer.
type pageBufferField struct {
	index []int
	ptr   bool
}

// pageBufferPaths returns the places of pageBufferFields in the struct
// type t.
func pageBufferPaths(t reflect.Type) []pageBufferField {
	fields := make([]pageBufferField, len(pageBufferFields))
	for k, name := range pageBufferFields {
		f, found := structField(t, name)
		if !found {
			continue
		}
		switch f.Type {
		case reflect.TypeFor[bytes.Buffer]():
			fields[k].index = f.Index
		case reflect.TypeFor[*bytes.Buffer]():
			fields[k].index, fields[k].ptr = f.Index, true
		}
	}
	return fields
}
