package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/repaudit/repaudit/event"
)

// TestSniffReaderOnce: an input read once (a pipe) is sniffed from its
// first bytes, and ReadFrom on the returned reader sees every byte, the
// sniffed prefix included, whatever the compression and however the
// reads are cut.
func TestSniffReaderOnce(t *testing.T) {
	// Longer than the sniffed head, so the prefix and the rest both count.
	plain := []byte(strings.Repeat(combinedLine, (sniffBytes/len(combinedLine))*3))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	for name, stored := range map[string][]byte{"plain": plain, "gzip": gz.Bytes()} {
		t.Run(name, func(t *testing.T) {
			src := iotest.HalfReader(bytes.NewReader(stored)) // no Seek, short reads
			f, rest, err := SniffReader("-", src, "")
			if err != nil || f.Kind != KindLog || f.Format != "combined" {
				t.Fatalf("sniffed %+v, %v; want a combined log", f, err)
			}
			h := sha256.New()
			var lines int64
			st, err := ReadFrom(context.Background(), f, rest, Options{Digest: h}, Handler{Fetch: func(ft *event.Fetch) error {
				if ft.Source.File != "-" {
					t.Fatalf("fetch names %q, want -", ft.Source.File)
				}
				lines++
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			want := int64(bytes.Count(plain, []byte("\n")))
			if st.Fetches != want || lines != want {
				t.Errorf("%d fetches (%d handled), want %d", st.Fetches, lines, want)
			}
			if sum := sha256.Sum256(stored); !bytes.Equal(h.Sum(nil), sum[:]) || st.Bytes != int64(len(stored)) {
				t.Errorf("digest or size (%d) do not describe the %d stored bytes", st.Bytes, len(stored))
			}
		})
	}
}

// TestSniffReaderWARC: a WARC on a pipe is a WARC.
func TestSniffReaderWARC(t *testing.T) {
	f, rest, err := SniffReader("/dev/fd/63", strings.NewReader(warcRecord), "")
	if err != nil || f.Kind != KindWARC {
		t.Fatalf("sniffed %+v, %v; want a WARC", f, err)
	}
	if b, _ := io.ReadAll(rest); string(b) != warcRecord {
		t.Errorf("the reader does not give the input from its first byte")
	}
}
