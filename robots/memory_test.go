package robots

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The per-line cost docs/semantics.md ("Parsing limit") states: a parsed
// file holds its text plus at most perRuleLine bytes per allow/disallow
// line and perOtherLine per other line, whatever the file's size.
const (
	perRuleLine  = 256
	perOtherLine = 128
)

func TestParseMemoryPerLine(t *testing.T) {
	for _, tc := range []struct {
		name        string
		rules, rest int
		line        func(i int) string
	}{
		{"plain rules", 20000, 0, func(i int) string { return "Disallow: /d/" + strconv.Itoa(i) + "\n" }},
		{"wildcard rules", 20000, 0, func(i int) string { return "Disallow: /*.p" + strconv.Itoa(i) + "*x$\n" }},
		{"comments and unknown keys", 0, 20000, func(i int) string {
			if i%2 == 0 {
				return "# comment " + strconv.Itoa(i) + "\n"
			}
			return "Frobnicate: " + strconv.Itoa(i) + "\n"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := func() []byte {
				var sb strings.Builder
				sb.WriteString("User-agent: GPTBot\nUser-agent: *\n")
				for i := range tc.rules + tc.rest {
					sb.WriteString(tc.line(i))
				}
				return []byte(sb.String())
			}()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			f := Parse(body, Options{})
			runtime.GC()
			runtime.ReadMemStats(&after)
			live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			if f.Truncated || len(f.Lines) != tc.rules+tc.rest+2 {
				t.Fatalf("parsed %d lines (truncated %v), want %d", len(f.Lines), f.Truncated, tc.rules+tc.rest+2)
			}
			runtime.KeepAlive(f)
			bound := int64(len(body)) + perRuleLine*int64(tc.rules) + perOtherLine*int64(tc.rest+2)
			t.Logf("%d bytes, %d lines: %d bytes live, %.0f per line beyond the text", len(body), len(f.Lines), live,
				float64(live-int64(len(body)))/float64(len(f.Lines)))
			if live > bound {
				t.Errorf("live heap %d bytes > documented bound %d", live, bound)
			}
		})
	}
}
