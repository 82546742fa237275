package output

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	mbits "math/bits"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// tableWriter writes one table. Rows are appended column by column into a
// batch: plain Go slices, one per column, that keep their capacity from one
// row group to the next, so a long run neither re-grows nor re-zeroes
// buffers. A full batch (rowGroupRows rows, or rowGroupBytes buffered bytes)
// is one Parquet row group: a goroutine of the table's own encodes it with
// arrow-go's Parquet column writers while the next batch fills, its column
// chunks spread over up to workers goroutines (encode). There are
// never more than two batches per table, so a table's memory is about twice
// its byte budget however many rows it gets or however long its strings; a
// table finished early (Writer.Finish) keeps nothing.
//
// The column writers are called exactly as pqarrow (arrow-go's Arrow to
// Parquet layer, which wrote these files before) calls them for the Arrow
// schema of the table, so the files are the same byte for byte; the Arrow
// schema is stored in the footer as pqarrow stores it.
type tableWriter struct {
	spec     *tableSpec
	f        *os.File
	out      *sink
	fw       *file.Writer
	limit    int // rows per row group
	budget   int // buffered bytes per row group
	rowWidth int // fixed bytes one row takes in a batch, strings aside
	// dictLimit is the largest dictionary page: a string column whose
	// dictionary in one row group grows past it is written plain.
	dictLimit int
	cur       *batch
	batches   int   // batches made so far, at most 2
	rows      int64 // rows written or pending
	closed    bool
	// sizes is what the columns of the last full batch held, for
	// nextBatch to make a new one as large (newBatch).
	sizes []colSize
	// strs and fixed are the columns addRow appends, strings and the
	// others (steps).
	strs, fixed []colStep
	// noSeen is, per column, whether the address cache (colBuf.seen)
	// did not pay in the last batch that tried it; flushed counts the
	// batches handed over (seenFor).
	noSeen  []bool
	flushed int

	// The encoding goroutine, started at the first full batch. work is
	// unbuffered: handing a batch over waits until the previous one is
	// written, and the written one comes back on free.
	work  chan *batch
	free  chan *batch
	done  chan struct{}
	errMu sync.Mutex
	werr  error // first error of the encoding goroutine

	// encs holds the scratch space of each of encode's workers (at most
	// workers of them), kept from one row group to the next; plans holds
	// each column chunk's encoding. Both are used by one encode at a
	// time: the encoding goroutine's, or close's.
	encs    []encoder
	plans   []chunkPlan
	workers int
	// pages lends the column writers their page buffers.
	pages pagePool
	// stage holds the rows not yet appended to a batch (workers > 1 only)
	// and scan the bounds of appending them (stage.go).
	stage stage
	scan  []colScan

	// props are the file writer's properties. arrow-go fixes whether a
	// column chunk is dictionary-encoded, its encoding and its zstd level
	// from them when it starts the row group's column writers, so encode
	// sets them per row group, column by column (rowGroupProps), from
	// base, the options every row group shares, and fast, the zstd level
	// of plain numbers.
	props *parquet.WriterProperties
	base  []parquet.WriterProperty
	fast  int
	// mem is the allocator of props. release and trim reach it here.
	mem *recycler
}

// batch holds the rows of one row group, one colBuf per column.
type batch struct {
	cols  []colBuf
	rows  int
	bytes int // buffered bytes: rows × rowWidth plus string data
	// ahead is the buffered bytes at which reserveAhead next projects
	// the batch's rows: math.MaxInt once the buffers that take a value
	// per row have room for them (made so by newBatch with sizes, or
	// reserved), as a reused batch keeps its buffers.
	ahead int
}

// colBuf is one column of a batch. Which fields are used depends on the
// column's kind.
type colBuf struct {
	// What appending a string that repeats the previous row's reads and
	// writes (appendString, addRow) comes first, within 64 bytes: one
	// cache line per column for most of a row's columns.
	//
	// last is the value of the previous row of a dictionary column and
	// lastIdx its entry (valid while hasLast): hosts, agents and User-Agents
	// come in runs, and comparing with the previous value costs less than
	// any lookup.
	plain   bool
	hasLast bool
	lastIdx int32
	// raw is the bytes of the values the column's rows gave while it is
	// a dictionary, invalid whether one of them was not valid UTF-8: what
	// turning it plain can add to the batch is at most raw, or three
	// times raw (stage.go).
	raw  int
	last string
	// kInt32: the values; string columns: each row's entry.
	i32 []int32
	// String columns (kString, kDict) are gathered as a dictionary:
	// offs[i]..offs[i+1] is entry i in data (offs starts with 0), i32
	// holds each row's entry and index each entry by value as the row gave
	// it (before any U+FFFD replacement; a Go map hashes a string without
	// allocating). When the dictionary outgrows a Parquet dictionary page,
	// the column turns plain for the rest of the batch: poffs and pdata
	// then hold each row's value, the same way. The two pairs keep their
	// roles, so each keeps the capacity its role needs from one batch to
	// the next.
	offs    []int32
	data    []byte
	invalid bool
	poffs   []int32
	pdata   []byte
	// A dictionary of at most smallDict keys (most columns: agents,
	// verdicts, notes, files) is searched in keys and kidx, comparing
	// strings; a larger one is moved to index (mapped), which hashes every
	// value looked up.
	keys   []string
	kidx   []int32
	mapped bool
	index  map[string]int32
	// emptyIdx is the entry of the empty string, valid while hasEmpty.
	emptyIdx int32
	hasEmpty bool
	// seen caches entries by the address of the row's string: the
	// judge hands over the same strings again and again (hosts,
	// User-Agents, agents, robots.txt version ids, client IPs and files
	// are shared, not rebuilt, per fetch), and an address and a length
	// compare for less than a lookup hashes or compares bytes. Go
	// strings are immutable and the slot's pointer keeps the string
	// alive, so an address and length that match are the same value.
	// Allocated at the column's first lookup, with seenSmall slots, and
	// seenLarge once the dictionary needs its map. A column whose values
	// are rebuilt per row (URLs) hits seldom: once seenTrial probes
	// have missed while fewer than seenTrial/4 hit, the batch stops
	// probing (seenOff). The strings handed to the writer must not
	// change afterwards (no Go string does; one made with unsafe over a
	// reused buffer would be wrong here, as in last).
	seen                 []seenSlot
	seenShift            uint8
	seenOff              bool
	seenProbes, seenHits int32
	b                    []bool
	i64                  []int64 // kInt64, kTime, kTimePtr
	f64                  []float64
	def                  []int16 // kTime, kTimePtr: definition level, 1 present, 0 null
	nulls                int
	// The padding makes a colBuf 384 bytes on 64-bit platforms, six
	// cache lines: batch.cols is allocated aligned, so each column's
	// first 64 bytes are one line.
	_ [8]byte
}

// width is the fixed number of bytes one row of the column takes.
func width(k kind) int {
	switch k {
	case kString, kDict, kInt32:
		return 4
	case kBool:
		return 1
	case kInt64, kFloat64:
		return 8
	default:
		return 10 // value and definition level
	}
}

// newBatch returns an empty batch for table s, its buffers made as large
// as sizes says (nil: empty).
func newBatch(s *tableSpec, sizes []colSize) *batch {
	b := &batch{cols: make([]colBuf, len(s.Cols)), ahead: math.MaxInt}
	for i, c := range s.Cols {
		if c.kind == kString || c.kind == kDict {
			b.cols[i].offs = []int32{0}
		}
		if i < len(sizes) {
			b.cols[i].reserve(sizes[i])
		}
	}
	return b
}

// colSize is how many values each buffer of a column held in a batch.
// A table's second batch is made with its buffers the size of the
// first one's: grown value by value from nothing, by a quarter at a
// time once large, they were copied several times over, in fresh
// memory each time (the collector's and the kernel's work on top).
type colSize struct {
	offs, data, poffs, pdata, i32, b, i64, f64, def int
}

// size returns what c holds.
func (c *colBuf) size() colSize {
	return colSize{len(c.offs), len(c.data), len(c.poffs), len(c.pdata),
		len(c.i32), len(c.b), len(c.i64), len(c.f64), len(c.def)}
}

// reserve makes c's buffers hold at least z's values, and an eighth
// more, without growing.
func (c *colBuf) reserve(z colSize) {
	c.offs = grow(c.offs, z.offs)
	c.data = grow(c.data, z.data)
	c.poffs = grow(c.poffs, z.poffs)
	c.pdata = grow(c.pdata, z.pdata)
	c.i32 = grow(c.i32, z.i32)
	c.b = grow(c.b, z.b)
	c.i64 = grow(c.i64, z.i64)
	c.f64 = grow(c.f64, z.f64)
	c.def = grow(c.def, z.def)
}

// grow returns s with room for n values and an eighth more.
func grow[T any](s []T, n int) []T {
	if n == 0 {
		return s
	}
	return slices.Grow(s, max(0, n+n/8-len(s)))
}

// reset empties the batch for reuse, keeping its buffers, except string
// data buffers grown far past the budget by an outsized value: those are
// dropped, so one huge value does not keep its memory for the whole run.
func (b *batch) reset(budget int) {
	for i := range b.cols {
		c := &b.cols[i]
		if c.offs != nil {
			c.offs = c.offs[:1]
		}
		if cap(c.data) > 2*budget {
			c.data = nil
		}
		if cap(c.pdata) > 2*budget {
			c.pdata = nil
		}
		c.data = c.data[:0]
		c.plain = false
		c.raw, c.invalid = 0, false
		c.i32 = c.i32[:0]
		c.b = c.b[:0]
		c.i64 = c.i64[:0]
		c.f64 = c.f64[:0]
		c.def = c.def[:0]
		c.nulls = 0
		// The keys point into data: clear them before data is overwritten.
		c.forget()
	}
	b.rows, b.bytes = 0, 0
}

// Timestamps outside years 1..9999 are written as null: they come from
// garbled input, and not every Parquet reader accepts them.
var (
	minTime = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
)

// minUnix and maxUnix are minTime and maxTime in Unix seconds.
var minUnix, maxUnix = minTime.Unix(), maxTime.Unix()

// timeInRange reports whether t is after minTime (the zero time) and
// before maxTime: what !t.IsZero() && !t.Before(minTime) &&
// t.Before(maxTime) says, in one conversion to Unix seconds.
func timeInRange(t *time.Time) bool {
	return unixInRange(t.Unix(), t.Nanosecond())
}

// unixInRange is timeInRange of the time s seconds and ns nanoseconds
// after the Unix epoch.
func unixInRange(s int64, ns int) bool {
	return (s > minUnix || s == minUnix && ns != 0) && s < maxUnix
}

func (c *colBuf) appendTime(t *time.Time) {
	if t != nil {
		// One conversion for the range and the value: t.UnixMicro() is
		// the same sum, which cannot overflow within the range.
		s, ns := t.Unix(), t.Nanosecond()
		if unixInRange(s, ns) {
			c.i64 = append(c.i64, s*1e6+int64(ns)/1e3)
			c.def = append(c.def, 1)
			return
		}
	}
	c.i64 = append(c.i64, 0)
	c.def = append(c.def, 0)
	c.nulls++
}

// errTooLarge reports a string column whose data in one row group would
// pass Parquet's and Arrow's 2 GiB limit for one column chunk's offsets.
var errTooLarge = fmt.Errorf("value larger than %d bytes", math.MaxInt32)

// dictOverhead approximates the memory of one dictionary entry besides
// its bytes: offset, map slot and key header.
const dictOverhead = 48

// repeat appends s to a dictionary column when it is the previous row's
// value, most often the very same string (compared by address first),
// and reports whether it did: appendString's first case, small enough
// for addRow's loop to have it inline.
func (c *colBuf) repeat(s string) bool {
	if !c.hasLast || c.plain || len(s) != len(c.last) || unsafe.StringData(s) != unsafe.StringData(c.last) && s != c.last {
		return false
	}
	c.raw += len(s)
	c.i32 = append(c.i32, c.lastIdx)
	return true
}

// appendString appends the value of a string column and returns the
// bytes it adds to the batch; room is what the batch may still take
// before it is full (toPlain).
func (c *colBuf) appendString(s string, dictLimit, room int) (int, error) {
	if c.repeat(s) {
		return 0, nil
	}
	return c.appendNew(s, dictLimit, room)
}

// appendNew is appendString for a value repeat has turned down: addRow
// asks repeat first, inline, and only then calls here.
func (c *colBuf) appendNew(s string, dictLimit, room int) (int, error) {
	if c.plain {
		return c.appendPlain(s)
	}
	c.raw += len(s)
	if len(s) == 0 && c.hasEmpty {
		// Most columns of most rows are empty, between runs of a value:
		// no lookup for those.
		c.i32 = append(c.i32, c.emptyIdx)
		c.last, c.lastIdx, c.hasLast = s, c.emptyIdx, true
		return 0, nil
	}
	var slot *seenSlot
	if len(s) > 0 && !c.seenOff {
		if c.seen == nil {
			c.seen, c.seenShift = make([]seenSlot, 1<<seenSmall), 64-seenSmall
		}
		p := unsafe.StringData(s)
		slot = &c.seen[(uint64(uintptr(unsafe.Pointer(p)))*0x9E3779B97F4A7C15)>>c.seenShift]
		if slot.p == p && int(slot.n) == len(s) {
			c.seenHits++
			c.i32 = append(c.i32, slot.idx)
			c.last, c.lastIdx, c.hasLast = s, slot.idx, true
			return 0, nil
		}
		if c.seenProbes++; c.seenProbes == seenTrial && c.seenHits < seenTrial/4 {
			c.seenOff = true
		}
	}
	if i, ok := c.lookup(s); ok {
		c.i32 = append(c.i32, i)
		c.last, c.lastIdx, c.hasLast = s, i, true
		if len(s) == 0 {
			c.emptyIdx, c.hasEmpty = i, true
		}
		if slot != nil && len(s) <= math.MaxInt32 {
			*slot = seenSlot{unsafe.StringData(s), int32(len(s)), i}
		}
		return 0, nil
	}
	v, added := s, 0
	if !utf8.ValidString(s) {
		c.invalid = true
		v = strings.ToValidUTF8(s, "\uFFFD")
		// Two invalid strings can become the same valid one: the
		// dictionary must not hold a value twice. The raw string keys the
		// entry of its valid form.
		i, ok := c.lookup(v)
		if !ok {
			i = c.addEntry(v)
		}
		c.remember(strings.Clone(s), i)
		c.i32 = append(c.i32, i)
		added += len(s) + dictOverhead
	} else {
		c.i32 = append(c.i32, c.addEntry(v))
	}
	c.last, c.lastIdx, c.hasLast = s, c.i32[len(c.i32)-1], true
	if len(s) == 0 {
		c.emptyIdx, c.hasEmpty = c.lastIdx, true
	}
	if slot != nil && len(s) <= math.MaxInt32 {
		*slot = seenSlot{unsafe.StringData(s), int32(len(s)), c.lastIdx}
	}
	added += len(v) + dictOverhead
	// A Parquet dictionary page is an int32 length and the bytes of each
	// entry.
	if len(c.data)+4*(len(c.offs)-1) > dictLimit {
		n, err := c.toPlain(room - added)
		return added + n, err
	}
	return added, nil
}

// addEntry adds a valid string to the dictionary and returns its index.
func (c *colBuf) addEntry(v string) int32 {
	i := int32(len(c.offs) - 1)
	start := len(c.data)
	c.data = append(c.data, v...)
	c.offs = append(c.offs, int32(len(c.data)))
	// The key is the copy in data, which stays unchanged until the map is
	// cleared (a later append that grows data copies it elsewhere and
	// leaves this one as it is).
	key := ""
	if len(v) > 0 {
		key = unsafe.String(&c.data[start], len(v))
	}
	c.remember(key, i)
	return i
}

// seenSlot is one entry of a column's address cache (colBuf.seen): the
// string at p of length n is entry idx.
type seenSlot struct {
	p   *byte
	n   int32
	idx int32
}

// The address cache of a column (colBuf.seen) has 1<<seenSmall slots,
// 1<<seenLarge once its dictionary is mapped; seenTrial probes decide
// whether it pays in a batch.
const (
	seenSmall = 8
	seenLarge = 12
	seenTrial = 1 << 14
)

// smallDict is the most keys a dictionary column searches one by one.
const smallDict = 16

// lookup returns the entry that key s stands for.
func (c *colBuf) lookup(s string) (int32, bool) {
	if !c.mapped {
		// Values of equal length often share a prefix (file paths,
		// User-Agents): the last byte tells most of them apart before
		// a full comparison.
		for j, k := range c.keys {
			if len(k) == len(s) && (len(s) == 0 || k[len(k)-1] == s[len(s)-1]) && k == s {
				return c.kidx[j], true
			}
		}
		return 0, false
	}
	i, ok := c.index[s]
	return i, ok
}

// remember makes key s stand for entry i.
func (c *colBuf) remember(s string, i int32) {
	if !c.mapped {
		if len(c.keys) < smallDict {
			c.keys = append(c.keys, s)
			c.kidx = append(c.kidx, i)
			return
		}
		if c.index == nil {
			c.index = make(map[string]int32)
		}
		for j, k := range c.keys {
			c.index[k] = c.kidx[j]
		}
		clear(c.keys)
		c.keys, c.kidx, c.mapped = c.keys[:0], c.kidx[:0], true
		if c.seen != nil {
			// More values than a small cache holds: the large one (its
			// capacity is kept for the next batches).
			c.seen = slices.Grow(c.seen[:0], 1<<seenLarge)[:1<<seenLarge]
			clear(c.seen)
			c.seenShift = 64 - seenLarge
		}
	}
	c.index[s] = i
}

// forget drops every key and the previous value.
func (c *colBuf) forget() {
	clear(c.keys)
	c.keys, c.kidx = c.keys[:0], c.kidx[:0]
	if c.mapped {
		clear(c.index)
		c.mapped = false
	}
	c.last, c.hasLast, c.hasEmpty = "", false, false
	if len(c.seen) > 1<<seenSmall {
		c.seen, c.seenShift = c.seen[:1<<seenSmall], 64-seenSmall
	}
	clear(c.seen)
	c.seenOff, c.seenProbes, c.seenHits = false, 0, 0
}

// plainBytes returns the bytes of the values of the rows so far of a
// dictionary column, written plain.
func (c *colBuf) plainBytes() int {
	n := 0
	for _, i := range c.i32 {
		n += int(c.offs[i+1] - c.offs[i])
	}
	return n
}

// appendPlain appends a string value to a plain column.
func (c *colBuf) appendPlain(s string) (int, error) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if len(c.pdata)+len(s) > math.MaxInt32 {
		return 0, errTooLarge
	}
	c.pdata = append(c.pdata, s...)
	c.poffs = append(c.poffs, int32(len(c.pdata)))
	return len(s) + 4, nil
}

// toPlain turns a dictionary column plain: every row so far gets its
// value in poffs and pdata. A pdata that has no memory yet (a table's
// first batch) is made room bytes larger than those values at once,
// room being what the batch may still take: a column that turns plain
// is one of long distinct values (a violations table's evidence), and
// growing pdata as they come, by a quarter at a time, copied it seven
// times over, in fresh memory each time. Later batches keep it, or
// start with the size of the first (newBatch).
func (c *colBuf) toPlain(room int) (int, error) {
	c.forget()
	po, pd := append(c.poffs[:0], 0), c.pdata[:0]
	if n := c.plainBytes() + max(room, 0); cap(pd) == 0 && n <= math.MaxInt32 {
		pd = make([]byte, 0, n)
	}
	for _, i := range c.i32 {
		v := c.data[c.offs[i]:c.offs[i+1]]
		if len(pd)+len(v) > math.MaxInt32 {
			return 0, errTooLarge
		}
		pd = append(pd, v...)
		po = append(po, int32(len(pd)))
	}
	c.poffs, c.pdata = po, pd
	c.i32 = c.i32[:0]
	c.plain = true
	return len(pd), nil
}

// baseProps are the Parquet writer options every row group of a table
// shares. A row group adds each column chunk's own (rowGroupProps).
func baseProps(rowGroupRows int, cc compress.Compression, mem memory.Allocator) []parquet.WriterProperty {
	return []parquet.WriterProperty{
		parquet.WithAllocator(mem),
		parquet.WithCompression(cc),
		parquet.WithCompressionLevel(compress.DefaultCompressionLevel),
		parquet.WithMaxRowGroupLength(int64(rowGroupRows)),
		parquet.WithDictionaryDefault(false),
		parquet.WithRootRepetition(parquet.Repetitions.Required),
		parquet.WithCreatedBy("repaudit"),
		parquet.WithStats(true),
		// Every column has min/max statistics, strings cut to
		// statsTruncate bytes (stats.go): engines skip row groups by
		// host, agent or URL.
		parquet.WithMaxStatsSize(statsTruncate),
	}
}

func newTableWriter(s *tableSpec, path string, rowGroupRows, rowGroupBytes, workers int, cc compress.Compression) (*tableWriter, error) {
	mem := &recycler{scale: min(max(1, workers), recycleScale)}
	fast := compress.DefaultCompressionLevel
	if cc == compress.Codecs.Zstd {
		fast = zstdFast
	}
	base := baseProps(rowGroupRows, cc, mem)
	props := parquet.NewWriterProperties(base...)
	root, err := s.parquetSchema(props)
	if err != nil {
		return nil, err
	}
	// The footer's key-value metadata as pqarrow writes it: the Arrow
	// schema's metadata, then the serialized Arrow schema.
	meta := metadata.NewKeyValueMetadata()
	md := s.schema.Metadata()
	for i, k := range md.Keys() {
		if err := meta.Append(k, md.Values()[i]); err != nil {
			return nil, err
		}
	}
	ipcSchema, err := s.arrowSchemaIPC()
	if err != nil {
		return nil, err
	}
	if err := meta.Append("ARROW:schema", base64.StdEncoding.EncodeToString(ipcSchema)); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	out := newSink(bufio.NewWriterSize(f, 256<<10))
	tw := &tableWriter{spec: s, f: f, out: out, limit: rowGroupRows, budget: rowGroupBytes,
		dictLimit: int(props.DictionaryPageSizeLimit()), props: props, base: base, fast: fast, mem: mem,
		workers: max(1, workers)}
	tw.fw = file.NewParquetWriter(out, root, file.WithWriterProps(props), file.WithWriteMetadata(meta))
	tw.steps()
	return tw, nil
}

// add appends the row at p, a pointer to a struct of the table's row type.
// The fields are read at the offsets reflection gave for that type; the
// Writer's typed methods guarantee the type. With more than one worker the
// row is staged and appended with the rows after it, column by column on
// several goroutines (stage.go).
func (tw *tableWriter) add(p unsafe.Pointer) error {
	if tw.closed {
		return ErrClosed
	}
	tw.rows++
	if tw.workers <= 1 {
		return tw.addRow(p)
	}
	if tw.stage.put(tw.spec.typ, p) == stageRows {
		return tw.appendStaged()
	}
	return nil
}

// addRow appends the row at p to the batch, and hands the batch over to
// be written once it is full.
func (tw *tableWriter) addRow(p unsafe.Pointer) error {
	if tw.cur == nil {
		tw.cur = tw.nextBatch()
	}
	b := tw.cur
	// The string columns first, in schema order (the bytes each adds
	// decide the room the next one is given), then the others.
	for _, r := range tw.strs {
		c, s := &b.cols[r.col], *(*string)(unsafe.Add(p, r.off))
		if c.repeat(s) {
			continue
		}
		n, err := c.appendNew(s, tw.dictLimit, tw.budget-b.bytes)
		if err != nil {
			return fmt.Errorf("column %s: %w", tw.spec.Cols[r.col].Name, err)
		}
		b.bytes += n
	}
	for _, r := range tw.fixed {
		c := &b.cols[r.col]
		fp := unsafe.Add(p, r.off)
		switch r.kind {
		case kBool:
			c.b = append(c.b, *(*bool)(fp))
		case kInt32:
			c.i32 = append(c.i32, *(*int32)(fp))
		case kInt64:
			c.i64 = append(c.i64, *(*int64)(fp))
		case kFloat64:
			c.f64 = append(c.f64, *(*float64)(fp))
		case kTime:
			c.appendTime((*time.Time)(fp))
		case kTimePtr:
			c.appendTime(*(**time.Time)(fp))
		}
	}
	b.rows++
	b.bytes += tw.rowWidth
	if b.rows >= tw.limit || b.bytes >= tw.budget {
		return tw.flush()
	}
	if b.bytes >= b.ahead {
		tw.reserveAhead(b)
	}
	return nil
}

// reserveAhead gives the buffers of b that take a value per row room for
// as many rows as b will hold when full, once it holds an eighth of its
// byte budget: half as many again as its rows so far project (a batch's
// first rows take more bytes, each new dictionary value: c1's fetches
// project 27,700 rows of 35,200), at most the row limit and the rows the
// budget takes at rowWidth each. A table's first batch has no sizes to
// start from (newBatch): grown value by value, by a quarter at a time
// once large, its buffers were copied about four times over, in fresh
// memory each time. Reserving once the batch has shown it will be large
// leaves small tables as small as before; memory reserved and not used
// is not touched. A projection short of the end grows as before from
// there; the bytes written are the same either way.
func (tw *tableWriter) reserveAhead(b *batch) {
	b.ahead = math.MaxInt
	if b.rows == 0 || b.bytes <= 0 {
		return
	}
	rows := min(int(int64(b.rows)*int64(tw.budget)/int64(b.bytes))*3/2, tw.limit, tw.budget/tw.rowWidth+1)
	if rows <= b.rows {
		return
	}
	scale := func(n int) int { return int(int64(n) * int64(rows) / int64(b.rows)) }
	for i := range b.cols {
		c := &b.cols[i]
		z := c.size()
		z.offs, z.data = 0, 0 // the dictionary: not one value per row
		z.poffs, z.pdata = scale(z.poffs), scale(z.pdata)
		z.i32, z.b, z.i64, z.f64, z.def = scale(z.i32), scale(z.b), scale(z.i64), scale(z.f64), scale(z.def)
		c.reserve(z)
	}
}

// colStep is one column as addRow appends it: its index, the offset of
// its field in the row and its kind.
type colStep struct {
	col  int
	off  uintptr
	kind kind
}

// steps splits the table's columns into tw.strs, the string columns,
// and tw.fixed, the others, so that addRow's loop over the strings, most
// of a row's work, is not a dispatch over kinds; and sums the fixed
// width of a row.
func (tw *tableWriter) steps() {
	for i, c := range tw.spec.Cols {
		tw.rowWidth += width(c.kind)
		r := colStep{col: i, off: c.off, kind: c.kind}
		if c.kind == kString || c.kind == kDict {
			tw.strs = append(tw.strs, r)
		} else {
			tw.fixed = append(tw.fixed, r)
		}
	}
}

// nextBatch returns an empty batch: a new one while the table has fewer
// than two, else the one the encoding goroutine has finished with (waiting
// for it if need be).
func (tw *tableWriter) nextBatch() *batch {
	if tw.free != nil {
		select {
		case b := <-tw.free:
			return tw.seenFor(b)
		default:
		}
	}
	if tw.batches < 2 {
		tw.batches++
		b := newBatch(tw.spec, tw.sizes)
		if len(tw.sizes) == 0 {
			b.ahead = tw.budget / 8 // reserveAhead
		}
		return tw.seenFor(b)
	}
	return tw.seenFor(<-tw.free)
}

// seenRetry is how often (in batches) a column whose address cache did
// not pay tries it again.
const seenRetry = 8

// seenFor starts b's columns with their address cache off where it did
// not pay in the last batch that tried it: a column of values rebuilt
// per row (URLs, SURT keys, targets) misses on every probe, a random
// line of a table of 4 to 64 KiB, and a batch would take seenTrial
// misses to find that out again (a violations table's batch never has
// that many). Every seenRetry-th batch tries every column again. The
// cache only saves lookups: which entries the rows get is the same
// either way.
func (tw *tableWriter) seenFor(b *batch) *batch {
	if tw.noSeen == nil || tw.flushed%seenRetry == 0 {
		return b
	}
	for _, r := range tw.strs {
		if tw.noSeen[r.col] {
			b.cols[r.col].seenOff = true
		}
	}
	return b
}

// noteSeen records, at the end of batch b, which columns' address cache
// did not pay in it (seenFor): turned off by its trial, or off from the
// start, or missing more than four times as often as it hit over at
// least seenTrial/16 probes.
func (tw *tableWriter) noteSeen(b *batch) {
	if tw.noSeen == nil {
		tw.noSeen = make([]bool, len(b.cols))
	}
	for _, r := range tw.strs {
		c := &b.cols[r.col]
		tw.noSeen[r.col] = c.seenOff || c.seenProbes >= seenTrial/16 && c.seenHits < c.seenProbes/4
	}
	tw.flushed++
}

func (tw *tableWriter) writeErr() error {
	tw.errMu.Lock()
	defer tw.errMu.Unlock()
	return tw.werr
}

func (tw *tableWriter) setWriteErr(err error) {
	tw.errMu.Lock()
	defer tw.errMu.Unlock()
	if tw.werr == nil {
		tw.werr = err
	}
}

func (tw *tableWriter) startEncoding() {
	tw.work = make(chan *batch)
	tw.free = make(chan *batch, 2)
	tw.done = make(chan struct{})
	go func() {
		defer close(tw.done)
		for b := range tw.work {
			if tw.writeErr() == nil {
				if err := tw.encode(b); err != nil {
					tw.setWriteErr(err)
				}
			}
			b.reset(tw.budget)
			tw.free <- b
		}
	}()
}

// flush hands the pending rows over to be written as one row group.
func (tw *tableWriter) flush() error {
	b := tw.cur
	if b == nil || b.rows == 0 {
		return nil
	}
	if err := tw.writeErr(); err != nil {
		return err
	}
	if tw.work == nil {
		tw.startEncoding()
	}
	if tw.batches < 2 {
		// The next batch is a new one: made the size of this one.
		tw.sizes = tw.sizes[:0]
		for i := range b.cols {
			tw.sizes = append(tw.sizes, b.cols[i].size())
		}
	}
	tw.noteSeen(b)
	tw.cur = nil
	tw.work <- b
	return nil
}

// drain waits until every handed-over row group is written.
func (tw *tableWriter) drain() {
	if tw.work != nil {
		close(tw.work)
		<-tw.done
		tw.work = nil
	}
}

// close writes the last row group and the footer and syncs the file. A
// table that never filled a row group is encoded here, without a goroutine.
func (tw *tableWriter) close() error {
	if tw.closed {
		return ErrClosed
	}
	tw.closed = true
	err := tw.appendStaged()
	if err != nil {
		tw.drain()
	} else if tw.work == nil {
		if b := tw.cur; b != nil && b.rows > 0 {
			err = tw.encode(b)
		}
	} else {
		err = tw.flush()
		tw.drain()
		if err == nil {
			err = tw.writeErr()
		}
	}
	tw.cur = nil
	if err == nil {
		err = tw.fw.Close()
	}
	tw.release()
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

// release lets the collector have what the table keeps for the row
// groups to come once it is closed: the spare batch, the encoder's
// scratch, the recycler's buffers. A table closed early (Writer.Finish)
// then holds nothing while the others are written.
func (tw *tableWriter) release() {
	tw.dropSpares()
	tw.free = nil
	tw.encs, tw.plans, tw.sizes = nil, nil, nil
	tw.pages.spare = nil
	tw.stage = stage{}
	tw.mem.drop()
}

// trim drops the spare batch, if the encoding goroutine has given it
// back, and the recycler's buffers (Writer.Trim). A batch still being
// encoded comes back later and is kept.
func (tw *tableWriter) trim() {
	if tw.closed {
		return
	}
	tw.dropSpares()
	tw.sizes = nil // a table that gets rows again may get few
	tw.mem.drop()
}

// dropSpares lets go of the batches the encoding goroutine has given back
// (nextBatch makes a new one when needed).
func (tw *tableWriter) dropSpares() {
	for tw.free != nil {
		select {
		case <-tw.free:
			tw.batches--
		default:
			return
		}
	}
}

// abort drops the table's rows and closes its file without a footer.
func (tw *tableWriter) abort() {
	if tw.closed {
		return
	}
	tw.closed = true
	tw.drain()
	tw.cur = nil
	tw.stage = stage{}
	tw.f.Close()
}

// encoder holds the scratch space of encoding, reused across row groups.
type encoder struct {
	vals   []parquet.ByteArray
	bits   []byte
	seen32 map[int32]struct{}
	seen64 map[int64]struct{}
	// writeNumDict's dictionaries and index buffers.
	dict32 map[int32]int32
	dict64 map[int64]int32
	idx32  []int32
	idx64  []int32
	// writeIndices' scratch space: zeros for its all-null index
	// arrays, a page's encoded indices, a nullable page's indices.
	zeros   []byte
	page    []byte
	pageIdx []int32
	nils    []parquet.ByteArray // writePlain's stand-in values
}

// writeNumDict writes a dictionary-encoded numeric column. arrow-go's own
// dictionary encoder boxes every int32 or int64 value it hashes into an
// interface, an allocation per value; here the dictionary is built with a
// Go map and handed over whole, then the indices batch by batch with each
// batch's values added to the page statistics, which is what arrow-go does
// for a batch of values: the bytes are the same. def holds the definition
// levels of a nullable column, nil for a required one; valid is then the
// validity bitmap of def and nulls the number of its zeros. A null row's
// value is not in the dictionary: its index is a placeholder that the
// validity bitmap hides, as arrow-go's spaced writing skips it, and the
// statistics count it as a null as that writing does.
func writeNumDict[T int32 | int64](e *encoder, w file.ColumnChunkWriter, vals []T, def []int16, valid []byte, nulls int, idxBuf *[]int32, dictp *map[T]int32) error {
	enc := w.CurrentEncoder()
	de, ok := enc.(dictEncoder)
	if !ok || enc.Encoding() != parquet.Encodings.PlainDict || de.NumEntries() != 0 {
		return fmt.Errorf("column writer has no empty dictionary encoder")
	}
	if *dictp == nil {
		*dictp = make(map[T]int32)
	}
	m := *dictp
	clear(m)
	idx := (*idxBuf)[:0]
	var entries []T
	// Most rows repeat the previous row's value (statuses, finding
	// counts, robots.txt lines): its entry is known without the map.
	var prev T
	prevIdx := int32(-1)
	for r, v := range vals {
		if nulls > 0 && def[r] == 0 {
			idx = append(idx, 0)
			continue
		}
		if v == prev && prevIdx >= 0 {
			idx = append(idx, prevIdx)
			continue
		}
		i, ok := m[v]
		if !ok {
			i = int32(len(entries))
			m[v] = i
			entries = append(entries, v)
		}
		idx = append(idx, i)
		prev, prevIdx = v, i
	}
	*idxBuf = idx
	var dict arrow.Array
	switch e := any(entries).(type) {
	case []int32:
		dict = array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, len(e),
			[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(e))}, nil, 0, 0))
	case []int64:
		dict = array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, len(e),
			[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(e))}, nil, 0, 0))
	}
	defer dict.Release()
	p := indexHook(w, len(entries))
	if p == nil {
		presizeIndices(enc, idx)
	}
	if err := de.PutDictionary(dict); err != nil {
		return err
	}
	if de.NumEntries() != len(entries) {
		return fmt.Errorf("dictionary of %d entries holds %d", len(entries), de.NumEntries())
	}
	stats := func(start, end int) error { return numStats(w, vals, def, valid, nulls, start, end) }
	if p != nil {
		return e.writeIndices(w, p, len(entries), idx, def, stats)
	}
	var validBuf *memory.Buffer
	if nulls > 0 {
		validBuf = memory.NewBufferBytes(valid)
	}
	indices := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, len(idx),
		[]*memory.Buffer{validBuf, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(idx))}, nil, nulls, 0))
	defer indices.Release()
	step := int(w.Properties().WriteBatchSize())
	for start := 0; start < len(vals); start += step {
		end := min(start+step, len(vals))
		if err := stats(start, end); err != nil {
			return err
		}
		part := array.NewSlice(indices, int64(start), int64(end))
		var d []int16
		if def != nil {
			d = def[start:end]
		}
		err := w.WriteDictIndices(part, d, nil)
		part.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// numStats adds rows [start, end) of a numeric column written by
// writeNumDict to w's page statistics, as arrow-go's spaced writing
// does for a batch: the batch's values with its validity bitmap and
// null count.
func numStats[T int32 | int64](w file.ColumnChunkWriter, vals []T, def []int16, valid []byte, nulls, start, end int) error {
	batchNulls := 0
	if nulls > 0 {
		for _, d := range def[start:end] {
			if d == 0 {
				batchNulls++
			}
		}
	}
	switch st := w.PageStatistics().(type) {
	case nil:
	case *metadata.Int32Statistics:
		if nulls > 0 {
			st.UpdateSpaced(any(vals[start:end]).([]int32), valid, int64(start), int64(batchNulls))
		} else {
			st.Update(any(vals[start:end]).([]int32), 0)
		}
	case *metadata.Int64Statistics:
		if nulls > 0 {
			st.UpdateSpaced(any(vals[start:end]).([]int64), valid, int64(start), int64(batchNulls))
		} else {
			st.Update(any(vals[start:end]).([]int64), 0)
		}
	default:
		return fmt.Errorf("unexpected statistics %T", st)
	}
	return nil
}

// repetitive reports whether a numeric column of one row group is worth
// dictionary-encoding: whether at most half the values of an evenly spread
// sample of about 4096 are distinct, or, when 50-90% of the sample is
// distinct, whether all its distinct values are at most an eighth of its
// values. Encoding a column with a dictionary
// hashes every value; the sample keeps that cost away from columns of
// mostly distinct values (offsets, line numbers, most times), which are
// written plain. (A null time counts as the value 0.)
func repetitive[T int32 | int64](v []T, seen *map[T]struct{}) bool {
	const sample = adaptiveRows
	if len(v) < 2 {
		return false
	}
	if *seen == nil {
		*seen = make(map[T]struct{}, sample)
	}
	m := *seen
	clear(m)
	step, n := max(1, len(v)/sample), 0
	for i := 0; i < len(v); i += step {
		m[v[i]] = struct{}{}
		n++
	}
	if 2*len(m) <= n {
		return true
	}
	if 10*len(m) > 9*n || len(v) <= n {
		return false
	}
	// Between: a sample of a column with a few thousand distinct values
	// (response sizes) looks mostly distinct. Count them all.
	for _, x := range v {
		m[x] = struct{}{}
		if 8*len(m) > len(v) {
			return false
		}
	}
	return true
}

// arrowSpacedDict makes encode leave a dictionary-encoded time column
// with nulls to arrow-go's own encoder, as before writeNumDict took
// nulls: tests compare the bytes of the two.
var arrowSpacedDict = false

// dictEncoder is the part of arrow-go's dictionary encoder (an internal
// type) that writing a ready dictionary needs.
type dictEncoder interface {
	PutDictionary(arrow.Array) error
	NumEntries() int
}

// adaptiveRows is the fewest rows of a row group whose encodings are
// chosen column by column from the data.
const adaptiveRows = 4096

// writeChunk writes the values of chunk c of column col, in a row group of
// rows rows, to cw: dictionary-encoded when dict, else plain (or as the
// properties rowGroupProps set say).
func (e *encoder) writeChunk(cw file.ColumnChunkWriter, col column, c *colBuf, dict bool, rows int) (err error) {
	switch col.kind {
	case kString, kDict:
		w := cw.(*file.ByteArrayColumnChunkWriter)
		switch {
		case dict:
			err = e.writeDict(w, c)
		case c.plain:
			err = e.writeStrings(w, c.poffs, c.pdata)
		default:
			err = e.writeDictDense(w, c)
		}
	case kBool:
		_, err = cw.(*file.BooleanColumnChunkWriter).WriteBatch(c.b, nil, nil)
	case kInt32:
		w := cw.(*file.Int32ColumnChunkWriter)
		if dict {
			return writeNumDict(e, w, c.i32, nil, nil, 0, &e.idx32, &e.dict32)
		}
		_, err = w.WriteBatch(c.i32, nil, nil)
	case kInt64:
		w := cw.(*file.Int64ColumnChunkWriter)
		if dict {
			return writeNumDict(e, w, c.i64, nil, nil, 0, &e.idx64, &e.dict64)
		}
		_, err = w.WriteBatch(c.i64, nil, nil)
	case kFloat64:
		_, err = cw.(*file.Float64ColumnChunkWriter).WriteBatch(c.f64, nil, nil)
	default:
		w := cw.(*file.Int64ColumnChunkWriter)
		if dict && c.nulls < rows && (c.nulls == 0 || !arrowSpacedDict) {
			var valid []byte
			if c.nulls > 0 {
				valid = e.bitmap(c.def)
			}
			return writeNumDict(e, w, c.i64, c.def, valid, c.nulls, &e.idx64, &e.dict64)
		}
		// Spaced values with a validity bitmap, as pqarrow writes an
		// array with nulls. Without nulls pqarrow calls WriteBatch,
		// which writes the same bytes but builds an (unused) assertion
		// message for every definition level: an allocation per row.
		w.WriteBatchSpaced(c.i64, c.def, nil, e.bitmap(c.def), 0)
	}
	return err
}

// deltaPays reports whether a numeric column chunk that is not
// dictionary-encoded is written DELTA_BINARY_PACKED rather than plain: when
// that encoding's size, computed for the present values, is at most what
// the values take packed as offsets from their minimum (about what zstd
// leaves of plain values in no order). Sorted or clustered values (fetch
// times in pass-2 order, line numbers, WARC offsets) take fewer bits as
// deltas, and zstd compresses the packed deltas further when they repeat
// (times logged to the second); values in no order have deltas wider than
// their range and stay plain.
func (e *encoder) deltaPays(k kind, c *colBuf) bool {
	var bits, width, n int
	switch k {
	case kInt32:
		bits, width, n = deltaBits(c.i32, nil)
	case kInt64:
		bits, width, n = deltaBits(c.i64, nil)
	case kTime, kTimePtr:
		bits, width, n = deltaBits(c.i64, c.def)
	default:
		return false
	}
	return n > 0 && bits <= n*width
}

// deltaBits returns the number of bits DELTA_BINARY_PACKED takes for the
// values of v whose definition level is not 0 (all of them when def is
// nil), the bit width of their range (max - min) and their number.
// DELTA_BINARY_PACKED writes blocks of 128 deltas, each with its minimum
// delta and four miniblocks of 32 deltas packed at the width of their
// largest one (the block header is counted as 64 bits, about its zigzag
// varint for the deltas that matter).
func deltaBits[T int32 | int64](v []T, def []int16) (bits, width, count int) {
	const block, mini = 128, 32
	var deltas [block]uint64
	n := 0
	var prev, lo, hi int64
	flush := func() {
		if n == 0 {
			return
		}
		m0 := deltas[0]
		for _, d := range deltas[1:n] {
			m0 = min(m0, d)
		}
		bits += 64
		for m := 0; m < n; m += mini {
			var top uint64
			for _, d := range deltas[m:min(m+mini, n)] {
				top = max(top, d-m0)
			}
			// A miniblock is written at full length.
			bits += mini * mbits.Len64(top)
		}
		n = 0
	}
	for i, x := range v {
		if def != nil && def[i] == 0 {
			continue
		}
		y := int64(x)
		if count == 0 {
			prev, lo, hi = y, y, y
			count++
			continue
		}
		count++
		lo, hi = min(lo, y), max(hi, y)
		// A delta as a two's-complement 64-bit value offset by 2^63, so
		// that uint64 order is int64 order (arrow-go's arithmetic wraps
		// the same way).
		deltas[n] = uint64(y-prev) ^ (1 << 63)
		prev = y
		n++
		if n == block {
			flush()
		}
	}
	flush()
	return bits, mbits.Len64(uint64(hi - lo)), count
}

// bitmap returns the Arrow validity bitmap of definition levels def.
func (e *encoder) bitmap(def []int16) []byte {
	n := (len(def) + 7) / 8
	if cap(e.bits) < n {
		e.bits = make([]byte, n)
	}
	bits := e.bits[:n]
	clear(bits)
	for i, d := range def {
		if d != 0 {
			bits[i>>3] |= 1 << (i & 7)
		}
	}
	return bits
}

// writeStrings writes plain strings in batches of the writer's batch size:
// the column writer splits a longer batch the same way, so the bytes are
// those of one call with every value, without a slice of every value.
func (e *encoder) writeStrings(w *file.ByteArrayColumnChunkWriter, offs []int32, data []byte) error {
	n := len(offs) - 1
	if p := plainHook(w); p != nil {
		return e.writePlain(w, p, n, func(i int) []byte { return data[offs[i]:offs[i+1]] })
	}
	step := int(w.Properties().WriteBatchSize())
	if cap(e.vals) < step {
		e.vals = make([]parquet.ByteArray, step)
	}
	pageSize := w.Properties().DataPageSize()
	for start := 0; start < n; start += step {
		end := min(start+step, n)
		if enc := w.CurrentEncoder(); enc.Encoding() == parquet.Encodings.Plain && enc.EstimatedDataEncodedSize() == 0 {
			// A new page: reserve its bytes at once (see reservePage).
			var size int64
			for b := start; b < n && size < pageSize; b += step {
				e := min(b+step, n)
				size += int64(offs[e]-offs[b]) + 4*int64(e-b)
			}
			reservePage(enc, size)
		}
		vals := e.vals[:end-start]
		for j := range vals {
			vals[j] = data[offs[start+j]:offs[start+j+1]]
		}
		seedStringStats(w, vals)
		if _, err := w.WriteBatch(vals, nil, nil); err != nil {
			return err
		}
	}
	return nil
}

// writeDict writes a dictionary column as pqarrow writes an Arrow
// dictionary array: the dictionary goes to the column's dictionary encoder
// as it is, then the indices.
func (e *encoder) writeDict(w *file.ByteArrayColumnChunkWriter, c *colBuf) error {
	de, ok := w.CurrentEncoder().(dictEncoder)
	if !ok || w.CurrentEncoder().Encoding() != parquet.Encodings.PlainDict {
		return e.writeDictDense(w, c) // arrow-go hashes the values itself
	}
	n := len(c.offs) - 1
	dict := array.NewStringData(array.NewData(arrow.BinaryTypes.String, n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.offs)), memory.NewBufferBytes(c.data)}, nil, 0, 0))
	defer dict.Release()
	idx := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, len(c.i32),
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.i32))}, nil, 0, 0))
	defer idx.Release()
	p := indexHook(w, n)
	if p == nil {
		presizeIndices(w.CurrentEncoder(), c.i32)
	}
	if err := de.PutDictionary(dict); err != nil {
		return err
	}
	if de.NumEntries() != n {
		// Not expected (the dictionary holds each value once), but
		// pqarrow's answer to it: plain encoding.
		w.FallbackToPlain()
		return e.writeDictDense(w, c)
	}
	if st, ok := w.PageStatistics().(*metadata.ByteArrayStatistics); ok && n > 0 && len(c.i32) > 0 {
		// What pqarrow does for a dictionary array: the values count,
		// the dictionary's min and max (every entry is used).
		st.IncNumValues(int64(len(c.i32)))
		lo, hi := c.data[c.offs[0]:c.offs[1]], c.data[c.offs[0]:c.offs[1]]
		for k := 1; k < n; k++ {
			v := c.data[c.offs[k]:c.offs[k+1]]
			if bytes.Compare(v, lo) < 0 {
				lo = v
			} else if bytes.Compare(v, hi) > 0 {
				hi = v
			}
		}
		seedBounds(st, lo, hi)
	}
	if p != nil {
		return e.writeIndices(w, p, n, c.i32, nil, nil)
	}
	return w.WriteDictIndices(idx, nil, nil)
}

// indexBuffer is the part of arrow-go's dictionary encoder presizeIndices
// uses.
type indexBuffer interface {
	PutIndices(arrow.Array) error
	Reset()
	NumEntries() int
}

// presizeIndices sizes the index buffer of enc, an empty dictionary
// encoder, for the n indices about to be written. The column writer hands
// the encoder its indices a batch (WriteBatchSize) at a time, and the
// encoder grows its buffer by doubling, a zeroed allocation and a copy per
// step: for each column chunk of a row group of 45,000 rows, six
// allocations adding up to twice the final buffer, most of what the
// writers allocated. PutIndices sizes the buffer for a whole array in one
// step before it looks at the array's type; an array of n float32 (not
// indices, so it puts nothing and returns an error: arrow-go v18.4.1's
// encoder.go) does that without a pass over the values. Reset then
// empties the encoder again and keeps the buffer's capacity. The bytes
// written are the same whatever PutIndices does with the array.
func presizeIndices(enc any, idx []int32) {
	ib, ok := enc.(indexBuffer)
	if !ok || ib.NumEntries() != 0 || len(idx) <= 1024 {
		return
	}
	sizer := array.NewFloat32Data(array.NewData(arrow.PrimitiveTypes.Float32, len(idx),
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(idx))}, nil, 0, 0))
	ib.PutIndices(sizer) // the error is expected
	sizer.Release()
	ib.Reset()
}

// writeDictDense writes a dictionary column value by value.
func (e *encoder) writeDictDense(w *file.ByteArrayColumnChunkWriter, c *colBuf) error {
	if p := plainHook(w); p != nil {
		return e.writePlain(w, p, len(c.i32), func(i int) []byte {
			k := c.i32[i]
			return c.data[c.offs[k]:c.offs[k+1]]
		})
	}
	step := int(w.Properties().WriteBatchSize())
	if cap(e.vals) < step {
		e.vals = make([]parquet.ByteArray, step)
	}
	n := len(c.i32)
	pageSize := w.Properties().DataPageSize()
	for start := 0; start < n; start += step {
		end := min(start+step, n)
		if enc := w.CurrentEncoder(); enc.Encoding() == parquet.Encodings.Plain && enc.EstimatedDataEncodedSize() == 0 {
			var size int64
			for b := start; b < n && size < pageSize; b += step {
				for _, k := range c.i32[b:min(b+step, n)] {
					size += int64(c.offs[k+1]-c.offs[k]) + 4
				}
			}
			reservePage(enc, size)
		}
		vals := e.vals[:end-start]
		for j := range vals {
			k := c.i32[start+j]
			vals[j] = c.data[c.offs[k]:c.offs[k+1]]
		}
		seedStringStats(w, vals)
		if _, err := w.WriteBatch(vals, nil, nil); err != nil {
			return err
		}
	}
	return nil
}

// reservePage makes room for the size bytes of a plain BYTE_ARRAY page in
// the column writer's encoder before they are written. The column writer
// ends a page once a batch of values (WriteBatchSize) takes it to
// DataPageSize or more, so writeStrings knows each page's size in advance.
// Without this the encoder's buffer, a new one (from arrow-go's pool) for
// every page and column chunk, grows by doubling as values arrive: each
// step allocates a zeroed buffer and copies the old one, several megabytes
// of allocation per megabyte page for columns of long strings (the
// evidence of violations). The bytes written are the same.
func reservePage(enc interface{ ReserveForWrite(int) }, size int64) {
	if size > 0 && size <= math.MaxInt32 {
		enc.ReserveForWrite(int(size))
	}
}
