package output

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/repaudit/repaudit/table"
)

func aligned(b []byte) bool {
	return len(b) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))&63 == 0
}

// TestRecycler checks memory.Allocator's contract on recycled buffers:
// zeroed, aligned, contents kept by Reallocate, and a freed buffer handed
// out again.
func TestRecycler(t *testing.T) {
	r := new(recycler)
	for _, n := range []int{0, 1, 63, 64, 65, 1000, 4096, 100000} {
		b := r.Allocate(n)
		if len(b) != n || !aligned(b) {
			t.Fatalf("Allocate(%d): len %d, aligned %v", n, len(b), aligned(b))
		}
		if !bytes.Equal(b, make([]byte, n)) {
			t.Fatalf("Allocate(%d): not zeroed", n)
		}
		for i := range b {
			b[i] = 0xAA
		}
		r.Free(b)
		c := r.Allocate(n)
		if n >= 64 && unsafe.SliceData(c) != unsafe.SliceData(b) {
			t.Errorf("Allocate(%d) after Free: a new buffer, want the freed one", n)
		}
		if !bytes.Equal(c, make([]byte, n)) {
			t.Fatalf("Allocate(%d) after Free: not zeroed", n)
		}
	}
	// Reallocate within the class: the contents stay, the new bytes are 0.
	b := r.Allocate(100)
	for i := range b {
		b[i] = byte(i + 1)
	}
	dirty := b[:cap(b)]
	for i := 100; i < len(dirty); i++ {
		dirty[i] = 0xFF
	}
	g := r.Reallocate(120, b)
	if len(g) != 120 || g[99] != 100 || !bytes.Equal(g[100:], make([]byte, 20)) {
		t.Fatalf("Reallocate within the class: %v", g)
	}
	// Past the class: a new buffer with the contents, the old one freed.
	h := r.Reallocate(1000, g)
	if len(h) != 1000 || !aligned(h) || h[0] != 1 || h[99] != 100 || !bytes.Equal(h[120:], make([]byte, 880)) {
		t.Fatalf("Reallocate past the class: %v", h[:130])
	}
	if k := r.Allocate(128); unsafe.SliceData(k) != unsafe.SliceData(g) {
		t.Errorf("the buffer Reallocate replaced was not taken back")
	}
	// Foreign buffers (not a power of two, misaligned) are left alone,
	// and the free lists stay bounded.
	r.Free(make([]byte, 100))
	for range 2 * recycleKeep {
		r.Free(make([]byte, 1<<20))
	}
	if r.bytes > recycleBytes || len(r.free[14]) > recycleKeep {
		t.Errorf("kept %d bytes, %d buffers of 1 MiB", r.bytes, len(r.free[14]))
	}
}

// TestRecyclerScale checks that scale multiplies the limits: a recycler
// for three encoders keeps three times the buffers of a class, and no
// more.
func TestRecyclerScale(t *testing.T) {
	for _, scale := range []int{0, 1, 3} {
		r := &recycler{scale: scale}
		var held [][]byte
		for range 4 * recycleKeep {
			held = append(held, r.Allocate(4096))
		}
		for _, b := range held {
			r.Free(b)
		}
		want := max(1, scale) * recycleKeep
		if got := len(r.free[6]); got != want {
			t.Errorf("scale %d: kept %d buffers of 4 KiB, want %d", scale, got, want)
		}
	}
}

// TestBatchReserve checks that a batch made with the sizes of a full one
// holds as many values without growing, and that a dictionary column
// turning plain makes room at once for what its batch may still take.
func TestBatchReserve(t *testing.T) {
	var c colBuf
	z := colSize{offs: 10, data: 300, poffs: 2000, pdata: 50000, i32: 2000, b: 7, i64: 2000, f64: 5, def: 2000}
	c.reserve(z)
	got := colSize{cap(c.offs), cap(c.data), cap(c.poffs), cap(c.pdata), cap(c.i32), cap(c.b), cap(c.i64), cap(c.f64), cap(c.def)}
	for _, f := range []struct {
		name      string
		got, want int
	}{
		{"offs", got.offs, z.offs}, {"data", got.data, z.data}, {"poffs", got.poffs, z.poffs},
		{"pdata", got.pdata, z.pdata}, {"i32", got.i32, z.i32}, {"b", got.b, z.b},
		{"i64", got.i64, z.i64}, {"f64", got.f64, z.f64}, {"def", got.def, z.def},
	} {
		if f.got < f.want {
			t.Errorf("after reserve: cap(%s) = %d, want at least %d", f.name, f.got, f.want)
		}
	}

	d := colBuf{offs: []int32{0}}
	vals := []string{"alpha", "beta", "alpha", "gamma"}
	for _, v := range vals {
		if _, err := d.appendString(v, 1<<20, 1<<20); err != nil {
			t.Fatal(err)
		}
	}
	const room = 4096
	if _, err := d.toPlain(room); err != nil {
		t.Fatal(err)
	}
	want := len("alphabetaalphagamma")
	if string(d.pdata) != "alphabetaalphagamma" {
		t.Fatalf("plain data after toPlain: %q, want %q", d.pdata, "alphabetaalphagamma")
	}
	if cap(d.pdata) < want+room {
		t.Errorf("cap(pdata) after toPlain(%d): %d, want at least %d", room, cap(d.pdata), want+room)
	}
}

// TestReserveAhead checks that a table's first batch reserves room for
// its rows once it holds an eighth of its byte budget, so that no buffer
// taking a value per row grows again before the batch is full, and that
// a batch that never grows that large reserves nothing.
func TestReserveAhead(t *testing.T) {
	const budget = 1 << 20
	w, err := Create(filepath.Join(t.TempDir(), "o"), Options{RowGroupBytes: budget, Encoders: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	tw := w.fetches
	var url, status int
	for i, c := range tw.spec.Cols {
		switch c.Name {
		case "url":
			url = i
		case "fetch_status":
			status = i
		}
	}
	// Each row a new URL, longer as the batch goes on: the first rows
	// project fewer rows than the batch takes.
	row := func(i int) table.Fetch {
		return table.Fetch{URL: "https://h.example/" + strings.Repeat("x", i/1000) + strconv.Itoa(i), FetchStatus: 200}
	}
	var idx *int32
	var fixed *int32
	reserved := false
	for i := 0; ; i++ {
		r := row(i)
		if err := w.Fetch(&r); err != nil {
			t.Fatal(err)
		}
		b := tw.cur
		if b == nil { // the first batch was handed over
			if !reserved {
				t.Fatal("the batch was full before it held an eighth of its budget")
			}
			break
		}
		if !reserved && b.bytes >= budget/8 {
			reserved = true
			idx, fixed = unsafe.SliceData(b.cols[url].i32), unsafe.SliceData(b.cols[status].i32)
		}
		if reserved && (unsafe.SliceData(b.cols[url].i32) != idx || unsafe.SliceData(b.cols[status].i32) != fixed) {
			t.Fatalf("row %d (%d bytes of %d): a column grew after the batch reserved its rows", b.rows, b.bytes, budget)
		}
	}

	small, err := Create(filepath.Join(t.TempDir(), "s"), Options{RowGroupBytes: budget, Encoders: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Abort()
	for i := range 100 {
		r := row(i)
		if err := small.Fetch(&r); err != nil {
			t.Fatal(err)
		}
	}
	if c := cap(small.fetches.cur.cols[url].i32); c > 1024 {
		t.Errorf("a batch of 100 rows: cap(i32) = %d, want it grown by its rows alone", c)
	}
}
