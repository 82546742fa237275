package output

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// recycler is the memory.Allocator of a table's Parquet writer (its
// WriterProperties): it keeps the buffers arrow-go frees and hands them
// out again, where memory.GoAllocator leaves every one to the collector.
// arrow-go allocates through it the index buffer of each dictionary
// encoder, the encoders' hash tables and the dictionary pages, new ones
// for every column chunk of every row group, and frees them when the
// chunk is closed: many times the table's size over a large audit
// (bench/results/2026-11-27-figures-from-comments.md).
//
// It keeps memory.Allocator's contract as arrow-go's own allocators do
// (Mallocator frees for real): Allocate returns zeroed memory, 64-byte
// aligned; a buffer given to Free or replaced by Reallocate is not used
// again by its holder. Buffers are kept by size class (powers of two, at
// least 64 bytes), at most recycleKeep per class and recycleBytes in all,
// times scale; others are left to the collector.
type recycler struct {
	mu    sync.Mutex
	free  [recycleClasses][][]byte
	bytes int // bytes kept in free
	// scale multiplies the limits (0 counts as 1). A table whose row
	// groups are encoded by several goroutines has the buffers of as
	// many column chunks out at once: with the limits of one, a 1 M-row
	// fetches table encoded by two allocated 520 MB where one allocated
	// 320 MB (BenchmarkWriteRealFetches), most of it buffers the
	// recycler had let go; 425 MB at scale 2, 350 MB at scale 4. Each
	// step keeps up to 8 MiB more per table, so newTableWriter sets the
	// number of encoders, at most recycleScale: at -j 2 a table keeps
	// 16 MiB, which held the audit's peak RSS under 256 MB where scale
	// 4 did not always.
	scale int
}

// recycleScale is the largest scale of a recycler: a table keeps at
// most 32 MiB of arrow-go's buffers however many cores encode it.
const recycleScale = 4

const (
	recycleMinShift = 6  // smallest class: 64 bytes
	recycleClasses  = 25 // largest class: 1 GiB
	recycleKeep     = 8
	recycleBytes    = 8 << 20
)

var _ memory.Allocator = (*recycler)(nil)

// class returns the size class of a buffer of n bytes and its size.
func class(n int) (int, int) {
	if n <= 1<<recycleMinShift {
		return 0, 1 << recycleMinShift
	}
	shift := bits.Len(uint(n - 1))
	return shift - recycleMinShift, 1 << shift
}

// Allocate returns size zeroed bytes.
func (r *recycler) Allocate(size int) []byte {
	if size < 0 {
		panic("output: negative allocation")
	}
	c, n := class(size)
	if c >= recycleClasses {
		return memory.DefaultAllocator.Allocate(size)
	}
	r.mu.Lock()
	if l := r.free[c]; len(l) > 0 {
		b := l[len(l)-1]
		l[len(l)-1] = nil
		r.free[c] = l[:len(l)-1]
		r.bytes -= n
		r.mu.Unlock()
		b = b[:size]
		clear(b)
		return b
	}
	r.mu.Unlock()
	// A new buffer of the whole class, 64-byte aligned as arrow-go wants
	// (the Go allocator aligns size classes of 64 bytes and more).
	b := make([]byte, n+64)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(b))) & 63)
	return b[off : off+size : off+n]
}

// Reallocate grows or shrinks b to size bytes, keeping its contents; new
// bytes are zero.
func (r *recycler) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		if size > len(b) {
			clear(b[len(b):size])
		}
		return b[:size]
	}
	nb := r.Allocate(size)
	copy(nb, b)
	r.Free(b)
	return nb
}

// Free takes b back.
func (r *recycler) Free(b []byte) {
	n := cap(b)
	if n < 1<<recycleMinShift || n&(n-1) != 0 {
		return // not one of ours
	}
	c, _ := class(n)
	if c >= recycleClasses || uintptr(unsafe.Pointer(unsafe.SliceData(b[:1])))&63 != 0 {
		return
	}
	k := max(1, r.scale)
	r.mu.Lock()
	if len(r.free[c]) < k*recycleKeep && r.bytes+n <= k*recycleBytes {
		r.free[c] = append(r.free[c], b[:0])
		r.bytes += n
	}
	r.mu.Unlock()
}

// drop lets the collector have every buffer kept: the table is written.
func (r *recycler) drop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.free, r.bytes = [recycleClasses][][]byte{}, 0
}
