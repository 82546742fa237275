package output

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/table"
)

// stringPool returns values for a string column that its caches could
// confuse: substrings sharing one backing array (same address, other
// length; same value, other address), copies equal by value only, the
// empty string, and two invalid strings that become the same valid one.
func stringPool() []string {
	backing := strings.Repeat("host-a.example|", 2) // built at run time: one array
	hosts := make([]string, 40)
	for i := range hosts {
		hosts[i] = "h" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('0'+i/26))
	}
	pool := []string{
		backing[0:6],   // host-a
		backing[0:4],   // host: same address as host-a
		backing[0:14],  // host-a.example
		backing[15:21], // host-a again, another address
		strings.Clone(backing[0:6]),
		backing[1:6], // ost-a: inside host-a
		"",
		backing[14:14], // empty, with an address inside backing
		"bad\xff",
		"bad\xfe", // the same valid form as bad\xff
		"bad\uFFFD",
	}
	return append(pool, hosts...)
}

// columnValues returns what column c holds for its rows, as written.
func columnValues(t *testing.T, c *colBuf) []string {
	t.Helper()
	var got []string
	if c.plain {
		for k := 0; k+1 < len(c.poffs); k++ {
			got = append(got, string(c.pdata[c.poffs[k]:c.poffs[k+1]]))
		}
		return got
	}
	seen := map[string]bool{}
	for k := 0; k+1 < len(c.offs); k++ {
		v := string(c.data[c.offs[k]:c.offs[k+1]])
		if seen[v] {
			t.Fatalf("dictionary holds %q twice", v)
		}
		seen[v] = true
	}
	for _, i := range c.i32 {
		if i < 0 || int(i)+1 >= len(c.offs) {
			t.Fatalf("entry %d of a dictionary of %d", i, len(c.offs)-1)
		}
		got = append(got, string(c.data[c.offs[i]:c.offs[i+1]]))
	}
	return got
}

// appendAll appends the values picked from pool to a one-column batch,
// a byte 255 ending a batch (the batch is checked, then reset), and
// checks that every row reads back as its value, made valid UTF-8.
func appendAll(t *testing.T, pool []string, picks []byte, dictLimit int) {
	t.Helper()
	b := &batch{cols: []colBuf{{offs: []int32{0}}}}
	var want []string
	check := func() {
		got := columnValues(t, &b.cols[0])
		if len(got) != len(want) {
			t.Fatalf("got %d rows, want %d", len(got), len(want))
		}
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("row %d: got %q, want %q (plain %v)", k, got[k], want[k], b.cols[0].plain)
			}
		}
	}
	for _, p := range picks {
		if p == 255 {
			check()
			b.reset(1 << 20)
			want = want[:0]
			continue
		}
		s := pool[int(p)%len(pool)]
		if _, err := b.cols[0].appendString(s, dictLimit, 1<<10); err != nil {
			t.Fatal(err)
		}
		want = append(want, strings.ToValidUTF8(s, "\uFFFD"))
	}
	check()
}

func TestAppendStringCaches(t *testing.T) {
	pool := stringPool()
	all := make([]byte, len(pool))
	for i := range all {
		all[i] = byte(i)
	}
	tests := []struct {
		name  string
		picks []byte
	}{
		{"same address, shorter", []byte{0, 1, 0, 1, 1, 0}},
		{"same value, other address", []byte{0, 3, 4, 0, 3, 4, 2, 0}},
		{"inside another value", []byte{0, 5, 0, 5, 1, 5}},
		{"empty between values", []byte{6, 0, 6, 7, 0, 7, 6, 2, 6}},
		{"empty entry forgotten with its batch", []byte{0, 6, 0, 6, 255, 2, 6, 6, 0, 255, 6, 255, 1, 6}},
		{"invalid UTF-8", []byte{8, 9, 10, 8, 9, 0, 10, 9}},
		// More values than a small dictionary searches one by one: the
		// map, and the address cache, then the same again.
		{"mapped", append(append(append([]byte{}, all...), all...), 255, 6, 0, 1, 3, 4)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			appendAll(t, pool, tt.picks, 1<<20)
			// A dictionary page limit that turns the column plain midway.
			appendAll(t, pool, tt.picks, 24)
		})
	}
}

// FuzzAppendString appends arbitrary sequences of the pool's values: every
// row must read back as its own value, whatever the caches held.
func FuzzAppendString(f *testing.F) {
	f.Add([]byte{0, 1, 0, 6, 0, 7, 3, 4, 255, 6, 1}, false)
	f.Add([]byte{8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 0, 6}, true)
	f.Fuzz(func(t *testing.T, picks []byte, small bool) {
		limit := 1 << 20
		if small {
			limit = 40
		}
		appendAll(t, stringPool(), picks, limit)
	})
}

// TestSeenFor checks that a column whose address cache did not pay in a
// batch (a URL rebuilt per row) starts the next batches with it off, that
// a column of shared strings keeps it, that every seenRetry-th batch tries
// it again, and that the rows read back as written either way.
func TestSeenFor(t *testing.T) {
	const rows = 2048 // a batch: more misses than noteSeen's minimum
	dir := filepath.Join(t.TempDir(), "o")
	w, err := Create(dir, Options{RowGroupRows: rows, Encoders: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	tw := w.fetches
	col := func(name string) int {
		for i, c := range tw.spec.Cols {
			if c.Name == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	url, agent := col("url"), col("agent")
	agents := []string{"GPTBot", "CCBot"} // shared, alternating: no repeats
	n := (seenRetry + 1) * rows
	for i := range n {
		r := table.Fetch{URL: "https://h.example/" + strconv.Itoa(i), Agent: agents[i%2]}
		if err := w.Fetch(&r); err != nil {
			t.Fatal(err)
		}
		if i%rows != 0 {
			continue
		}
		// The first row of batch i/rows: its columns as seenFor left them.
		batch := i / rows
		retry := batch%seenRetry == 0
		if got := tw.cur.cols[url].seenOff; got != !retry {
			t.Errorf("batch %d: url's cache off %v, want %v", batch, got, !retry)
		}
		if tw.cur.cols[agent].seenOff {
			t.Errorf("batch %d: agent's cache off, want on", batch)
		}
	}
	if err := w.Commit(nil); err != nil {
		t.Fatal(err)
	}
	i := 0
	readGroups(t, filepath.Join(dir, "fetches.parquet"), func(g *readBack) bool {
		urls, ags := g.col(t, "url"), g.col(t, "agent")
		for r := range urls {
			if want := "https://h.example/" + strconv.Itoa(i); urls[r] != want || ags[r] != agents[i%2] {
				t.Fatalf("row %d: got %v, %v, want %s, %s", i, urls[r], ags[r], want, agents[i%2])
			}
			i++
		}
		return true
	})
	if i != n {
		t.Fatalf("read %d rows, want %d", i, n)
	}
}
