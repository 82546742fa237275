package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLineRanges: for any content and range size, the ranges readSplit
// reads (from the line start at or after Start to the line start at or
// after End) cover the file exactly once, each one starting at a line
// start, in order.
func FuzzLineRanges(f *testing.F) {
	f.Add([]byte("a\nbb\nccc\n"), uint16(2))
	f.Add([]byte("no newline at all"), uint16(3))
	f.Add([]byte("\n\n\n"), uint16(1))
	f.Add([]byte("one very long line\nx\n"), uint16(4))
	f.Fuzz(func(t *testing.T, data []byte, size uint16) {
		if size == 0 {
			size = 1
		}
		p := filepath.Join(t.TempDir(), "log")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		n := int64(len(data))
		var got []byte
		prevEnd := int64(0)
		for start := int64(0); start < n || start == 0 && n == 0; start += int64(size) {
			s, err := lineStart(fh, start, n)
			if err != nil {
				t.Fatal(err)
			}
			e, err := lineStart(fh, min(start+int64(size), n), n)
			if err != nil {
				t.Fatal(err)
			}
			if s > 0 && s < n && data[s-1] != '\n' {
				t.Fatalf("range at %d starts at %d, not a line start", start, s)
			}
			if e > s {
				if s != prevEnd {
					t.Fatalf("range at %d starts at %d, previous ended at %d", start, s, prevEnd)
				}
				got = append(got, data[s:e]...)
				prevEnd = e
			}
			if n == 0 {
				break
			}
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("ranges of size %d read %q, file is %q", size, got, data)
		}
	})
}
