package evaluate

import (
	"strconv"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/robots"
)

// TestEvBufAsStrings checks evBuf's appends against the string
// functions evidence used before: strconv.Quote of a rule's text,
// fmtTime, itoa and event.Source.String.
func TestEvBufAsStrings(t *testing.T) {
	var e evBuf
	for _, p := range []string{"", "/", "/a\"b", "/\xff\xfe", "/é?x=\\", "\x00/\t", "/日本"} {
		for _, allow := range []bool{true, false} {
			r := &robots.Rule{Pattern: p, Allow: allow}
			e.reset()
			e.WriteString("x")
			e.quoteRule(r)
			if want := "x" + strconv.Quote(r.String()); e.String() != want {
				t.Errorf("quoteRule(%q, %v) = %s, want %s", p, allow, e.String(), want)
			}
		}
	}
	for _, tm := range []time.Time{time.Unix(0, 0), time.Unix(1717171717, 123456789).In(time.FixedZone("x", 3600)), {}} {
		e.reset()
		e.time(tm)
		if e.String() != fmtTime(tm) {
			t.Errorf("time(%v) = %s, want %s", tm, e.String(), fmtTime(tm))
		}
	}
	for _, n := range []int{0, -7, 1 << 40} {
		e.reset()
		e.int(n)
		if e.String() != itoa(n) {
			t.Errorf("int(%d) = %s", n, e.String())
		}
	}
	for _, src := range []event.Source{{File: "a.log", Line: 3, Offset: -1}, {File: "b.warc.gz", Offset: 0}, {File: "c", Offset: -1}} {
		e.reset()
		e.source(src)
		if e.String() != src.String() {
			t.Errorf("source(%+v) = %s, want %s", src, e.String(), src.String())
		}
	}
}
