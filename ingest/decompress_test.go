package ingest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/internal/decompress"
	"github.com/repaudit/repaudit/internal/fixtures"
)

// testdata/two-lines.log.bz2 is two combined log lines compressed with
// "bzip2 -9" (the same file as accesslog/testdata).
func TestBzip2Log(t *testing.T) {
	f, err := Sniff("testdata/two-lines.log.bz2", "")
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != KindLog || f.Format != "combined" || f.Compression != "bzip2" {
		t.Fatalf("sniffed %+v, want a bzip2 combined log", f)
	}
	var targets []string
	st, err := Read(context.Background(), f, Options{}, Handler{Fetch: func(ft *event.Fetch) error {
		targets = append(targets, ft.Target)
		return nil
	}})
	if err != nil || st.Fetches != 2 || strings.Join(targets, " ") != "/bz/1 /bz/2" {
		t.Errorf("read %d fetches %v, err %v", st.Fetches, targets, err)
	}
}

// TestOpenListing: listings and documents are read through OpenDecompressed, which
// decompresses them; a gzipped CSV index is sniffed as a listing.
func TestOpenListing(t *testing.T) {
	dir := t.TempDir()
	csv := "url,time\nhttps://example.com/a,2025-03-01\n"
	p := write(t, dir, "index.csv.gz", gz([]byte(csv)))
	f, err := Sniff(p, "")
	if err != nil || f.Kind != KindListing || f.Compression != "gzip" {
		t.Fatalf("sniffed %+v (%v), want a gzip listing", f, err)
	}
	for _, data := range [][]byte{gz([]byte(csv)), zst([]byte(csv)), []byte(csv)} {
		p := write(t, dir, "x", data)
		rc, _, err := OpenDecompressed(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || string(got) != csv {
			t.Errorf("Open read %q, %v; want %q", got, err, csv)
		}
	}
}

// TestZstdWindowNotMisread: a zstd file whose frame asks for more than
// the common window limit is an error naming the limit, never "unknown",
// a WARC, or an empty log.
func TestZstdWindowNotMisread(t *testing.T) {
	var b bytes.Buffer
	w, _ := zstd.NewWriter(&b, zstd.WithSingleSegment(false), zstd.WithWindowSize(1<<20))
	io.WriteString(w, combinedLine)
	w.Close()
	data := b.Bytes()
	data[5] = (29 - 10) << 3 // Window_Descriptor: 512 MiB
	p := write(t, t.TempDir(), "big-window.log.zst", data)
	f, err := Sniff(p, "")
	if err == nil || !strings.Contains(err.Error(), "512 MiB window, over the 128 MiB limit") {
		t.Fatalf("Sniff = %+v, %v; want the window limit error", f, err)
	}
	if f.Kind == KindWARC || f.Kind == KindLog {
		t.Errorf("kind %s, want unknown", f.Kind)
	}
	if _, err := Read(context.Background(), File{Path: p, Kind: KindLog, Format: "combined"}, Options{}, Handler{}); err == nil || !strings.Contains(err.Error(), "over the 128 MiB limit") {
		t.Errorf("Read = %v, want the window limit error", err)
	}
	if _, _, err := OpenDecompressed(p); err == nil {
		t.Error("OpenDecompressed accepted a frame over the window limit")
	}
}

// TestSniffNamesClosest: a file no format reads says which format its
// lines came closest to.
func TestSniffNamesClosest(t *testing.T) {
	bad := strings.Repeat(`192.0.2.1 - - [2024-05-01 12:00:00] "GET / HTTP/1.1" 200 1 "-" "x"`+"\n", 3)
	f, err := Sniff(write(t, t.TempDir(), "bad.log", []byte(bad)), "")
	if err != nil || f.Kind != KindUnknown || !strings.Contains(f.Note, "closest to the combined log format (3 of 3") {
		t.Errorf("Sniff = %+v, %v; want unknown naming combined", f, err)
	}
}

// TestBzip2WARC: a bzip2 WARC is sniffed and read like any other.
func TestBzip2WARC(t *testing.T) {
	f, err := Sniff("../warc/testdata/two-records.warc.bz2", "")
	if err != nil || f.Kind != KindWARC || f.Compression != "bzip2" {
		t.Fatalf("Sniff = %+v, %v; want a bzip2 WARC", f, err)
	}
	st, err := Read(context.Background(), f, Options{}, Handler{})
	if err != nil || st.Captures != 2 || st.RobotsCaptures != 1 || st.Format != "bzip2" {
		t.Errorf("Read = %+v, %v; want 2 captures (one robots.txt)", st, err)
	}
}

// dataLines counts the lines of path, decompressed, that are not empty
// (nor, with directives, a W3C "#" directive): each is a request or a
// line Read must report as not one.
func dataLines(t *testing.T, path string, directives bool) int64 {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := decompress.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for l := range strings.Lines(string(data)) {
		if l = strings.TrimSpace(l); l != "" && !(directives && strings.HasPrefix(l, "#")) {
			n++
		}
	}
	return n
}

// TestSniffRealLogs: every real access log fixture (shared/fixtures/real-logs
// beside the repository, cited in its README) is sniffed as a log, whatever its compression, and
// read in full through Read: every line is a fetch, or a problem saying it
// records no request (an ELB TCP connection, an S3 batch operation,
// HAProxy's own messages).
func TestSniffRealLogs(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(fixtures.Path(t, "real-logs"), "*.log*"))
	if err != nil || len(paths) < 15 {
		t.Fatalf("found %d fixtures (%v), want at least 15", len(paths), err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			f, err := Sniff(p, "")
			if err != nil || f.Kind != KindLog {
				t.Fatalf("Sniff = %+v, %v; want a log", f, err)
			}
			st, err := Read(context.Background(), f, Options{}, Handler{})
			if err != nil || st.Fetches == 0 || st.Format != f.Format {
				t.Errorf("Read = %d fetches, format %q, %v (sniffed %q)", st.Fetches, st.Format, err, f.Format)
			}
			notRequest := st.Problems[string(accesslog.CodeNotRequest)]
			if n := dataLines(t, p, f.Format == "w3c"); st.Fetches+notRequest != n {
				t.Errorf("%d fetches + %d lines of no request, want the %d lines of the file", st.Fetches, notRequest, n)
			}
		})
	}
}
