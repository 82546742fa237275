package warc

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/repaudit/repaudit/event"
)

// splitHead is what the reader did before keepHead: the block kept as one
// string, its first line and its fields substrings of it.
func splitHead(hb []byte) (string, []event.Field, fieldStats) {
	first, rest := nextLine(string(hb))
	fields, st := parseFields(rest, nil)
	return first, fields, st
}

// checkKeepHead holds keepHead to splitHead on hb, then overwrites hb (as
// the read buffer is) and checks that nothing keepHead returned changed.
func checkKeepHead(t *testing.T, r *Reader, hb []byte) {
	t.Helper()
	wantFirst, wantFields, wantSt := splitHead(hb)
	first, fields, st := r.keepHead(hb, nil)
	for i := range hb {
		hb[i] = '#'
	}
	if first != wantFirst || st != wantSt || !reflect.DeepEqual(fields, wantFields) {
		t.Fatalf("keepHead gives %q %q %+v, want %q %q %+v", first, fields, st, wantFirst, wantFields, wantSt)
	}
}

func TestKeepHead(t *testing.T) {
	var many strings.Builder
	many.WriteString("WARC/1.1\r\n")
	for i := range 70 {
		many.WriteString("X-Field-" + strings.Repeat("a", i%5) + ": v\r\n")
		many.WriteString("Content-Type: text/html\r\n")
	}
	for _, hb := range []string{
		"",
		"WARC/1.1\r\n",
		"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/\r\nContent-Length: 10\r\n\r\n",
		"HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nX-Robots-Tag: noindex\r\nX-Custom:  padded \t\r\n\r\n",
		"GET / HTTP/1.1\nHost: a.example\nUser-Agent: Bot/1.0\n  continued\n\tand more\nno colon here\n: empty name\n",
		"HTTP/1.1 200 OK\r\n continuation first\r\nDate:\r\n folded\r\n:authority: a.example\r\n",
		many.String(),
	} {
		for _, reuse := range []bool{false, true} {
			r := &Reader{reuse: reuse, reuseRecs: reuse}
			checkKeepHead(t, r, []byte(hb))
			checkKeepHead(t, r, []byte(hb)) // again, with headText in use
		}
	}
}

// TestKeepHeadNames: a field named as fieldNames writes it gets the
// table's string as its name; any other name is a copy.
func TestKeepHeadNames(t *testing.T) {
	r := &Reader{}
	hb := []byte("HTTP/1.1 200 OK\r\nContent-Type: a\r\ncontent-type: b\r\nCONTENT-TYPE: c\r\n")
	_, fields, _ := r.keepHead(hb, nil)
	for i, want := range []bool{true, true, false} {
		n := fields[i].Name
		table, ok := fieldNames[n]
		got := ok && unsafe.StringData(n) == unsafe.StringData(table)
		if got != want {
			t.Errorf("field %d (%q): name is the table's: %v, want %v", i, n, got, want)
		}
	}
}

func FuzzKeepHead(f *testing.F) {
	for _, s := range []string{
		"WARC/1.0\r\nWARC-Type: request\r\nWARC-Concurrent-To: <urn:uuid:1>\r\n\r\n",
		"HTTP/1.1 404 Not Found\nServer: x\n folded\nbad line\n\n",
		"GET /x HTTP/1.1\r\n:method: GET\r\nHost : a\r\n",
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, hb []byte, reuse bool) {
		r := &Reader{reuse: reuse, reuseRecs: reuse}
		again := append([]byte(nil), hb...)
		checkKeepHead(t, r, hb)
		checkKeepHead(t, r, again)
	})
}
