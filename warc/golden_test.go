package warc

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/internal/fixtures"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden from what the reader reads now")

// render prints everything a record holds, at the time of the call
// (bodies as length and SHA-256).
func render(rec *Record) string {
	r := *rec
	f, c := r.Fetch, r.Capture
	r.Fetch, r.Capture = nil, nil
	s := fmt.Sprintf("%+v", r)
	if f != nil {
		g := *f
		g.Body = nil
		s += fmt.Sprintf("\nfetch %+v body %s", g, digest(f.Body))
	}
	if c != nil {
		d := *c
		d.Body = nil
		s += fmt.Sprintf("\ncapture %+v body %s", d, digest(c.Body))
	}
	return s
}

func digest(b []byte) string {
	if b == nil {
		return "nil"
	}
	return fmt.Sprintf("%d:%x", len(b), sha256.Sum256(b))
}

// readRendered reads data and renders each record and the problems as
// they come, before the next call to Next.
func readRendered(t testing.TB, data []byte, opts Options) []string {
	r, err := NewReader(bytes.NewReader(data), "t.warc", opts)
	if err != nil {
		return []string{"NewReader: " + err.Error()}
	}
	var out []string
	for {
		rec, err := r.Next()
		for _, p := range r.Problems() {
			out = append(out, fmt.Sprintf("problem %+v", p))
		}
		if err != nil {
			if err != io.EOF {
				out = append(out, "error "+err.Error())
			}
			return out
		}
		out = append(out, render(rec))
	}
}

// sampleArchives are the real archives of the package's testdata and of
// shared/fixtures/sample-warcs beside the repository (t is skipped when
// that folder is absent).
func sampleArchives(t *testing.T) []string {
	var files []string
	for _, pat := range []string{"testdata/*.warc*", filepath.Join(fixtures.Path(t, "sample-warcs"), "*.*gz")} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 6 {
		t.Fatalf("found only %d sample archives: %v", len(files), files)
	}
	return files
}

// TestSampleArchivesGolden pins everything the reader reads from the
// real sample archives (records, their headers, events, body digests,
// problems), with the default body limits and with none, so that a speed
// change cannot change what is read. Run with -update after an intended
// change and review the diff.
func TestSampleArchivesGolden(t *testing.T) {
	for _, f := range sampleArchives(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		fmt.Fprintln(&b, "# default body limits")
		for _, s := range readRendered(t, data, Options{}) {
			fmt.Fprintln(&b, s)
		}
		fmt.Fprintln(&b, "# body limit 0")
		for _, s := range readRendered(t, data, Options{BodyLimit: func(string, string, int) int { return 0 }}) {
			fmt.Fprintln(&b, s)
		}
		golden := filepath.Join("testdata", "golden", filepath.Base(f)+".txt")
		if *updateGolden {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if got := b.String(); got != string(want) {
			gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
			for i := range min(len(gl), len(wl)) {
				if gl[i] != wl[i] {
					t.Fatalf("%s: line %d differs from %s:\n got %s\nwant %s", f, i+1, golden, gl[i], wl[i])
				}
			}
			t.Fatalf("%s: %d lines, %s has %d", f, len(gl), golden, len(wl))
		}
	}
}
