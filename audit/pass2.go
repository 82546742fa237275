package audit

import (
	"fmt"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/problem"
)

// pass2Check is what pass 2 read of one file, to compare with pass 1.
type pass2Check struct {
	done    bool  // the read ran to its end (not cancelled)
	bytes   int64 // stored bytes read (at most fileState.read1)
	sha     string
	fetches int64
	err     error
	failed  bool // set by checkPass2: the file counts as a failed input
}

// checkPass2 compares what pass 2 read of fs with what pass 1 read: the
// same bytes (a file rotated with copytruncate, or rewritten, between the
// passes is not), and the same number of fetches. Pass 2's rows of a file
// that changed cannot be trusted: an error problem says what changed and
// the file counts as failed, so the run never ends well with fewer
// fetches than pass 1 counted (docs/semantics.md, "Two passes").
func checkPass2(fs *fileState) {
	c := &fs.pass2
	if !c.done {
		return
	}
	src := event.Source{File: fs.f.Path, Offset: -1}
	add := func(code problem.Code, msg string) {
		c.failed = true
		fs.problems = append(fs.problems, event.Problem{Source: src, Code: code, Severity: event.SevError, Message: msg})
	}
	switch {
	case c.bytes < fs.read1:
		add(problem.InputChanged, fmt.Sprintf("the file shrank between the two passes (%d bytes when first read, %d when read again: truncated or rotated?); the fetches written for it cannot be trusted", fs.read1, c.bytes))
		return
	case c.sha != fs.sha:
		add(problem.InputChanged, fmt.Sprintf("the first %d bytes of the file changed between the two passes (SHA-256 %.12s… then %.12s…); the fetches written for it cannot be trusted", fs.read1, fs.sha, c.sha))
		return
	case c.err != nil:
		return // reported by judgeAll's error
	}
	if c.fetches != fs.stats.Fetches {
		add(problem.InputFetchesMismatch, fmt.Sprintf("pass 1 read %d fetches from this file, pass 2 %d from the same bytes", fs.stats.Fetches, c.fetches))
	}
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
