package audit

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/problem"
)

// spoolFailed reports an input whose fetches could not be spooled (a
// full disk): pass 1 read it whole, so the model knows its robots.txt
// fetches and captures, but its fetches cannot be judged or written. It
// counts as a failed input. The message names the spool file, the cause
// and what to do about it.
func spoolFailed(fs *fileState) event.Problem {
	sp := fs.spool
	fix := "make room beside the output directory and run again"
	switch {
	case errors.Is(sp.err, syscall.ENOSPC), errors.Is(sp.err, syscall.EDQUOT):
		fix = "free space beside the output directory and run again"
	case errors.Is(sp.err, syscall.EMFILE), errors.Is(sp.err, syscall.ENFILE):
		fix = "raise the limit on open files (ulimit -n) and run again"
	}
	return event.Problem{Source: event.Source{File: fs.f.Path, Offset: -1}, Code: problem.SpoolWriteFailed, Severity: event.SevError,
		Message: fmt.Sprintf("the fetches of this input could not be kept for judging: spool file %s: %v; its %d fetches are not judged or written (the spool file was removed at once); %s",
			sp.errFile, sp.err, fs.stats.Fetches, fix)}
}

// judgedTwice reports an input whose content, once read, turns out to be
// that of an earlier input (first, which maps a digest to the first
// input with it): an input read once, such as a pipe, cannot be compared
// before it is read (dropDuplicates compares the others). Its fetches
// are not judged a second time, and a warning says what did count twice
// (its logs' robots.txt fetches count once: pass 2 settles the bots'
// views, and it judges the input once).
func judgedTwice(fs *fileState, first map[string]string) bool {
	p, ok := first[fs.sha]
	if !ok {
		first[fs.sha] = fs.f.Path
		return false
	}
	fs.problems = append(fs.problems, event.Problem{Source: event.Source{File: fs.f.Path, Offset: -1}, Code: problem.InputDuplicate, Severity: event.SevWarning,
		Message: "same content (SHA-256 " + fs.sha[:12] + "…) as " + p + ": its fetches are judged once; it could be compared only once read, so its captures and WARC request records count twice in the robots.txt and retention state"})
	return true
}

// newestFirstCap is the largest log, in fetches, that pass 2 sorts whole
// when it was written newest first (about 400 bytes a fetch held).
var newestFirstCap int64 = 1 << 16 // a variable for tests

// newestFirst returns the pass-2 reorder window for fs. A log whose
// adjacent timestamps mostly go backwards (written newest first, or
// reversed with tac) defeats the reorder window, and crawl-delay, which
// needs time order, would then be judged on the wrong order: such a file
// is sorted whole when it is small enough, and otherwise reported with a
// warning naming the fix.
func newestFirst(fs *fileState) int {
	s := fs.stats
	if fs.f.Kind != ingest.KindLog || s.Descending <= s.Ascending || s.Fetches <= reorderWindow {
		return reorderWindow
	}
	src := event.Source{File: fs.f.Path, Offset: -1}
	if s.Fetches <= newestFirstCap {
		fs.problems = append(fs.problems, event.Problem{Source: src, Code: problem.LogNewestFirst, Severity: event.SevInfo,
			Message: fmt.Sprintf("the log is written newest first (%d of %d adjacent times go backwards): its %d fetches were sorted in memory before judging", s.Descending, s.Fetches-1, s.Fetches)})
		return int(s.Fetches) + 1
	}
	fs.problems = append(fs.problems, event.Problem{Source: src, Code: problem.LogNewestFirst, Severity: event.SevWarning,
		Message: fmt.Sprintf("the log is written newest first (%d of %d adjacent times go backwards) and too large to sort in memory (more than %d fetches): crawl-delay findings are judged out of order; reverse it first (tac FILE > FILE.fwd) and audit that",
			s.Descending, s.Fetches-1, newestFirstCap)})
	return reorderWindow
}
