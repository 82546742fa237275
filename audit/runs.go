package audit

import (
	"fmt"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// A log is mostly in time order, with the small disorder pass 2's
// reorder window absorbs. Rotated logs concatenated newest first (cat
// access.log access.log.1) are not: the input is two ascending runs, the
// second earlier than the first, and a window of reorderWindow fetches
// cannot put them back in order. Pass 1 finds where time goes back
// further than the window can absorb by running the window on the times
// alone (a heap of reorderWindow times, as pass 2 would hold): a fetch
// earlier than the last time the window gave out would be judged out of
// order. There the spool starts a new run (fetchSpool.newRun), and pass 2
// merges the runs as if each were a file of its own (judge.go), so the
// findings are those of the same lines in time order.
//
// maxRuns caps the runs of one log (each is a reader in pass 2, with a
// window of its own); the breaks after the cap are kept in the last run,
// judged as they come, and reported with a warning.
var maxRuns = 64 // a variable for tests

// spoolRun is one ascending run of a log's spool.
type spoolRun struct {
	off   int64     // byte offset of its coding in the spool
	seq   int64     // fetches before it in the file
	first time.Time // its earliest time
	line  int64     // the line it starts at (0 for the first)
	back  time.Duration
	from  time.Time // the time the window had given out when time went back
}

// runSplitter finds the runs of a log as pass 1 spools it. While a
// run's times only go forward (most logs, most of the time) the window
// holds them in arrival order, which is their order: a ring, whose
// oldest is the least. The first time that goes back turns the ring,
// sorted, into a heap, which it already is.
type runSplitter struct {
	ring   []int64 // the times held while in order, from head, n of them
	head   int
	n      int
	top    int64   // the latest time held
	held   []int64 // a min-heap of the times held once out of order
	inHeap bool
	out    int64 // the last time the window gave out; valid when given
	given  bool
	list   []spoolRun
	over   int64    // breaks after maxRuns, kept in the last run
	firstX spoolRun // the first of those
}

func newRunSplitter() *runSplitter {
	return &runSplitter{ring: make([]int64, reorderWindow+1), list: []spoolRun{{}}}
}

// add runs the window on f's time, the n-th fetch of the file (from 0);
// it reports whether f starts a new run. The caller then starts a new
// coding (fetchSpool.newRun), which sets the run's byte offset.
func (r *runSplitter) add(f *event.Fetch, n int64) bool {
	if f.Time.IsZero() {
		return false
	}
	t := f.Time.UnixNano()
	if r.given && t < r.out {
		br := spoolRun{seq: n, first: f.Time, line: f.Source.Line, back: time.Duration(r.out - t), from: time.Unix(0, r.out).UTC()}
		if len(r.list) < maxRuns {
			r.list = append(r.list, br)
			r.reset()
			r.push(t)
			return true
		}
		if r.over == 0 {
			r.firstX = br
		}
		r.over++
	}
	cur := &r.list[len(r.list)-1]
	if cur.first.IsZero() || f.Time.Before(cur.first) {
		cur.first = f.Time
	}
	r.push(t)
	if r.size() > reorderWindow {
		r.out, r.given = r.pop(), true
	}
	return false
}

// all returns the runs found, in file order.
func (r *runSplitter) all() []spoolRun { return r.list }

func (r *runSplitter) reset() {
	r.head, r.n, r.given, r.inHeap = 0, 0, false, false
	r.held = r.held[:0]
}

func (r *runSplitter) size() int {
	if r.inHeap {
		return len(r.held)
	}
	return r.n
}

func (r *runSplitter) push(t int64) {
	if !r.inHeap {
		if r.n == 0 || t >= r.top {
			r.ring[(r.head+r.n)%len(r.ring)] = t
			r.n++
			r.top = t
			return
		}
		// Out of order: the ring, in order, is a sorted slice, which is
		// a min-heap.
		if r.held == nil {
			r.held = make([]int64, 0, reorderWindow+1)
		}
		for i := range r.n {
			r.held = append(r.held, r.ring[(r.head+i)%len(r.ring)])
		}
		r.inHeap = true
	}
	h := append(r.held, t)
	j := len(h) - 1
	for j > 0 {
		i := (j - 1) / 2
		if h[i] <= h[j] {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
	r.held = h
}

func (r *runSplitter) pop() int64 {
	if !r.inHeap {
		t := r.ring[r.head]
		r.head = (r.head + 1) % len(r.ring)
		r.n--
		return t
	}
	h := r.held
	t := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		j := l
		if k := l + 1; k < n && h[k] < h[l] {
			j = k
		}
		if h[i] <= h[j] {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
	r.held = h
	return t
}

// runProblems reports the runs of fs's log: an info row when pass 2
// merged them in time order, a warning for the breaks over maxRuns.
func runProblems(fs *fileState, merged bool) []event.Problem {
	rs := fs.spool.runs
	if rs == nil || len(rs.list) < 2 && rs.over == 0 {
		return nil
	}
	var out []event.Problem
	if merged && len(rs.list) > 1 {
		b := rs.list[1]
		out = append(out, event.Problem{Source: event.Source{File: fs.f.Path, Line: b.line, Offset: -1}, Code: problem.LogOutOfOrder, Severity: event.SevInfo,
			Message: fmt.Sprintf("time goes back %s at line %d (%s after %s), more than the reorder window of %d fetches absorbs (rotated logs concatenated newest first?): the log is %d ascending runs, merged in time order as if each were a file of its own",
				fmtBack(b.back), b.line, b.first.Format(time.RFC3339), b.from.Format(time.RFC3339), reorderWindow, len(rs.list))})
	}
	if rs.over > 0 {
		b := rs.firstX
		out = append(out, event.Problem{Source: event.Source{File: fs.f.Path, Line: b.line, Offset: -1}, Code: problem.LogOutOfOrder, Severity: event.SevWarning,
			Message: fmt.Sprintf("time goes back %s at line %d (%s after %s) and %d more times past the first %d runs: those fetches were judged out of order, and the evidence of their verdicts (the bot's last robots.txt fetch, crawl-delay) is unreliable; sort the log by time first",
				fmtBack(b.back), b.line, b.first.Format(time.RFC3339), b.from.Format(time.RFC3339), rs.over-1, maxRuns)})
	}
	return out
}

// fmtBack writes a duration for a person, to the second.
func fmtBack(d time.Duration) string { return d.Round(time.Second).String() }
