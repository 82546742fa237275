package audit

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
)

// disordered returns n fetches whose times go back and forth: most a
// little out of order, some held back far past the reorder window, many
// sharing a time.
func disordered(n int) []event.Fetch {
	rng := rand.New(rand.NewPCG(14, 2))
	t0 := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	out := make([]event.Fetch, n)
	for i := range out {
		d := i/3 + rng.IntN(200) - 100
		if rng.IntN(50) == 0 {
			d += 3 * reorderWindow // far in the future of its place
		}
		if rng.IntN(50) == 0 {
			d -= 2 * reorderWindow // far in the past
		}
		f := &out[i]
		f.Time = t0.Add(time.Duration(d) * time.Second).Add(time.Duration(rng.IntN(3)) * time.Millisecond)
		f.Target = "/" + strconv.Itoa(i)
		f.Host = "a.example"
		f.Origin, f.Format = event.OriginWARC, "warc"
		switch i % 3 {
		case 0:
			f.Header = event.Header{{Name: "User-Agent", Value: "bot-" + strconv.Itoa(i%7)}}
		case 1:
			f.Header = event.Header{} // empty, not nil: the spool keeps the difference
			f.ConcurrentTo = []string{"<urn:uuid:" + strconv.Itoa(i) + ">"}
		}
	}
	return out
}

// passTwo reads a spool the way pass 2 does and returns the fetches in
// the order it hands them on.
func passTwo(t *testing.T, fs *fileState) []event.Fetch {
	t.Helper()
	fs.window = newestFirst(fs)
	var wg sync.WaitGroup
	fs.spool.prepare(1)
	s := startStream(context.Background(), 0, 0, fs, fs.spool.segments(), runEnds(fs.spool.segments()), nil, &wg)
	var got []event.Fetch
	for {
		it, ok := s.next()
		if !ok {
			break
		}
		f := *it.f
		f.Header = slices.Clone(f.Header)
		got = append(got, f)
		it.slab.release(1)
	}
	wg.Wait()
	if s.err != nil {
		t.Fatal(s.err)
	}
	return got
}

// spooled spools fetches as pass 1 does for an input of kind k, the
// reader's Fetch and Header reused from one fetch to the next.
func spooled(t *testing.T, k ingest.Kind, fetches []event.Fetch) *fileState {
	t.Helper()
	dir := newSpoolDir(t.TempDir())
	t.Cleanup(dir.remove)
	fs := &fileState{f: ingest.File{Path: "x.warc.gz", Kind: k}, spool: newFetchSpool(dir)}
	fs.stats.Fetches = int64(len(fetches))
	add, end := spooler(fs)
	var reused event.Fetch
	hdr := make(event.Header, 0, 4)
	for i := range fetches {
		reused = fetches[i]
		if fetches[i].Header != nil {
			hdr = append(hdr[:0], fetches[i].Header...)
			reused.Header = hdr
		}
		add(&reused)
		clear(hdr) // the reader's next record overwrites them
		reused = event.Fetch{}
	}
	end()
	fs.spool.finish()
	return fs
}

// TestSpoolWindowSameOrder checks that an archive's fetches, put through
// the reorder window in pass 1, come out of pass 2 exactly as they did
// when pass 2's window reordered them: same order, same fields (window.go).
func TestSpoolWindowSameOrder(t *testing.T) {
	in := disordered(5*reorderWindow + 123)
	want := passTwo(t, spooled(t, ingest.KindLog, in)) // a log: pass 2's window
	fs := spooled(t, ingest.KindWARC, in)
	if !fs.spool.windowed || fs.spool.sorted {
		t.Fatalf("windowed %v sorted %v: the test does not exercise the window", fs.spool.windowed, fs.spool.sorted)
	}
	got := passTwo(t, fs)
	if len(got) != len(want) {
		t.Fatalf("got %d fetches, want %d", len(got), len(want))
	}
	moved := 0
	for i := range want {
		if want[i].Target != in[i].Target {
			moved++
		}
		g, w := got[i], want[i]
		if !g.Time.Equal(w.Time) || g.Target != w.Target || !slices.Equal(g.Header, w.Header) ||
			(g.Header == nil) != (w.Header == nil) || !slices.Equal(g.ConcurrentTo, w.ConcurrentTo) ||
			(g.ConcurrentTo == nil) != (w.ConcurrentTo == nil) {
			t.Fatalf("fetch %d: got %s %s %q %q, want %s %s %q %q", i, g.Time, g.Target, g.Header, g.ConcurrentTo,
				w.Time, w.Target, w.Header, w.ConcurrentTo)
		}
	}
	if moved == 0 {
		t.Fatal("the window moved no fetch: the test does not exercise it")
	}
}

// TestSpoolWindowSmall checks the window's own order on a few fetches: it
// hands over the least of what it holds once it holds more than its size,
// ties in arrival order.
func TestSpoolWindowSmall(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	secs := []int{5, 3, 9, 1, 3, 7, 2, 8}
	var got []string
	w := newSpoolWindow(2, func(f *event.Fetch) { got = append(got, f.Target) })
	for i, s := range secs {
		w.add(&event.Fetch{Time: t0.Add(time.Duration(s) * time.Second), Target: strconv.Itoa(i) + "@" + strconv.Itoa(s)})
	}
	w.flush()
	// Held 2, then each add pushes one and pops the least of three.
	want := []string{"1@3", "3@1", "4@3", "0@5", "6@2", "5@7", "7@8", "2@9"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestRunSplitterWindow: the splitter's window (a ring while times go
// forward, a heap after) gives out the times pass 2's window would, so
// it breaks a run exactly where pass 2 would judge a fetch out of order.
func TestRunSplitterWindow(t *testing.T) {
	in := disordered(3*reorderWindow + 77)
	r := newRunSplitter()
	var held itemHeap
	var out int64
	given, breaks := false, 0
	for i := range in {
		f := &in[i]
		ts := f.Time.UnixNano()
		wantBreak := given && ts < out
		if got := r.add(f, int64(i)); got != wantBreak {
			t.Fatalf("fetch %d: break %v, want %v", i, got, wantBreak)
		}
		if wantBreak {
			held, given = held[:0], false
			breaks++
		}
		held.push(&item{sec: ts, seq: int64(i)})
		if held.Len() > reorderWindow {
			out, given = held.pop().sec, true
		}
	}
	if breaks < 2 || len(r.all()) != min(breaks+1, maxRuns) {
		t.Errorf("%d breaks, %d runs: the test does not exercise both modes", breaks, len(r.all()))
	}
}
