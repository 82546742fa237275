package warc

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// checkOrigin fails unless reading with a Resolver and Options.Origin
// (bodies read again from the input) gives what reading with a Resolver
// alone (bodies kept) gives, with a budget of budget bytes.
func checkOrigin(t testing.TB, name string, data []byte, limit func(string, string, int) int, budget int64) {
	t.Helper()
	want := readRendered(t, data, Options{BodyLimit: limit, Resolver: NewResolver(budget)})
	got := readRendered(t, data, Options{BodyLimit: limit, Resolver: NewResolver(budget), Origin: bytes.NewReader(data)})
	if len(got) != len(want) {
		t.Fatalf("%s: %d records and problems with Origin, %d without", name, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: item %d differs with Origin:\n got %s\nwant %s", name, i, got[i], want[i])
		}
	}
}

// revisitArchive is a crawl of n pages (bodies of about size bytes, plain,
// chunked or gzip-coded) each followed, some records later, by revisits
// of earlier pages by record ID, by payload digest, and as a 304.
func revisitArchive(n, size int) [][]byte {
	page := func(i int) string {
		return strings.Repeat(fmt.Sprintf("<p>page %d</p>", i), size/12+1)[:size+i%7]
	}
	var recs [][]byte
	for i := range n {
		uri := fmt.Sprintf("http://e.com/%d", i)
		body := httpResponse("HTTP/1.1 200 OK", page(i), "Content-Type: text/html", "ETag: \"e\"")
		switch i % 3 {
		case 1:
			p := page(i)
			body = httpResponse("HTTP/1.1 200 OK", fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(p), p), "Content-Type: text/html", "Transfer-Encoding: chunked")
		case 2:
			body = httpResponse("HTTP/1.1 200 OK", string(gzipMember([]byte(page(i)))), "Content-Type: text/html", "Content-Encoding: gzip")
		}
		recs = append(recs, respRec(i, uri, body, fmt.Sprintf("WARC-Payload-Digest: sha1:D%d", i)).bytes())
		if i < 2 {
			continue
		}
		j := i - 2
		recs = append(recs,
			wrec{typ: "revisit", id: fmt.Sprintf("<urn:uuid:rv-id-%d>", i), uri: fmt.Sprintf("http://e.com/%d", j), ctype: "application/http; msgtype=response",
				extra: []string{fmt.Sprintf("WARC-Refers-To: <urn:uuid:resp-%d>", j)},
				block: httpResponse("HTTP/1.1 304 Not Modified", "", "ETag: \"e\"")}.bytes(),
			wrec{typ: "revisit", id: fmt.Sprintf("<urn:uuid:rv-digest-%d>", i), uri: fmt.Sprintf("http://e.com/%d", j),
				extra: []string{fmt.Sprintf("WARC-Payload-Digest: SHA1:d%d", j)}}.bytes())
	}
	return recs
}

// TestOriginReadsTheSame reads the real sample archives (one holds a
// revisit), archives of revisits in every compression, and the fuzz
// seeds, with and without Options.Origin, with budgets that hold every
// original and that hold only the last few.
func TestOriginReadsTheSame(t *testing.T) {
	for _, f := range sampleArchives(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkOrigin(t, f, data, nil, 32<<20)
		checkOrigin(t, f+" none", data, func(string, string, int) int { return 0 }, 32<<20)
	}
	recs := revisitArchive(30, 3000)
	archives := map[string][]byte{
		"plain":           join(recs...),
		"gzip per record": gzipEach(recs...),
		"whole-file gzip": gzipMember(join(recs...)),
		"zstd per record": join(func() [][]byte {
			var fr [][]byte
			for _, r := range recs {
				fr = append(fr, zstdFrame(r))
			}
			return fr
		}()...),
	}
	for name, data := range archives {
		for _, budget := range []int64{1 << 20, 4 * (3000 + entryOverhead + 200)} {
			checkOrigin(t, fmt.Sprintf("%s, budget %d", name, budget), data, nil, budget)
		}
	}
	for i, r := range sampleRecords() {
		checkOrigin(t, fmt.Sprint("sample ", i), gzipMember(r), nil, 1<<20)
	}
}

// countingAt counts the reads of an Origin.
type countingAt struct {
	r     io.ReaderAt
	reads atomic.Int64
}

func (c *countingAt) ReadAt(p []byte, off int64) (int, error) {
	c.reads.Add(1)
	return c.r.ReadAt(p, off)
}

// TestOriginKeepsNoBodies checks what Origin is for: the Resolver holds
// no body until a revisit refers to it, reads it once, and revisits see
// the original's bytes.
func TestOriginKeepsNoBodies(t *testing.T) {
	const size = 20 << 10
	data := gzipEach(revisitArchive(12, size)...)
	at := &countingAt{r: bytes.NewReader(data)}
	res := NewResolver(1 << 20)
	r, err := NewReader(bytes.NewReader(data), "t.warc.gz", Options{Resolver: res, Origin: at})
	if err != nil {
		t.Fatal(err)
	}
	recs, probs, err := drain(r)
	if err != nil || len(probs) != 0 {
		t.Fatalf("err %v, problems %v", err, codes(probs))
	}
	resolved := 0
	for _, rec := range recs {
		c := rec.Capture
		if c.RecordType != "revisit" {
			continue
		}
		if !c.Resolved || c.Status != 200 || len(c.Body) < size || !bytes.HasPrefix(c.Body, []byte("<p>page ")) {
			t.Errorf("%s: resolved %v status %d body %d bytes %.20q", c.RecordID, c.Resolved, c.Status, len(c.Body), c.Body)
		}
		resolved++
	}
	if resolved != 20 {
		t.Errorf("%d revisits resolved, want 20", resolved)
	}
	held := 0
	for _, e := range res.fifo[res.head:] {
		if e.from == nil {
			t.Errorf("entry %s: not remembered by where it is stored", e.id)
		}
		if e.body != nil {
			held++
		}
	}
	// Pages 0-9 were revisited (twice each: read once), 10 and 11 not.
	if held != 10 {
		t.Errorf("%d bodies held, want the 10 revisited", held)
	}
	// Each original read again once: a few ReadAt calls each (the
	// section reader's buffer fills), not one set per revisit.
	if n := at.reads.Load(); n == 0 || n > 10*4 {
		t.Errorf("%d reads of the origin for 10 originals", n)
	}
}

// TestOriginChanged reads again from an input that is not the one read:
// the revisit stays unresolved, with a warc-revisit-reread problem.
func TestOriginChanged(t *testing.T) {
	recs := revisitArchive(3, 100)
	data := gzipEach(recs...)
	other := gzipEach(append([][]byte{bytes.Replace(recs[0], []byte("resp-0"), []byte("resp-X"), 1)}, recs[1:]...)...)
	r, err := NewReader(bytes.NewReader(data), "t.warc.gz", Options{Resolver: NewResolver(1 << 20), Origin: bytes.NewReader(other)})
	if err != nil {
		t.Fatal(err)
	}
	got, probs, err := drain(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range got {
		if c := rec.Capture; c.RecordType == "revisit" && c.Resolved {
			t.Errorf("%s resolved against a changed input", c.RecordID)
		}
	}
	if !hasCode(probs, CodeRevisitReread) {
		t.Errorf("problems %v, want %s", codes(probs), CodeRevisitReread)
	}
	for _, p := range probs {
		if p.Code == CodeRevisitReread && (p.Source.File != "t.warc.gz" || !strings.Contains(p.Message, "urn:uuid:resp-0")) {
			t.Errorf("problem %+v: want the file and the original named", p)
		}
	}
}

// FuzzOrigin checks that reading any input with Options.Origin gives what
// reading it without does.
func FuzzOrigin(f *testing.F) {
	addSampleSeeds(f)
	recs := revisitArchive(4, 50)
	f.Add(join(recs...), uint8(0))
	f.Add(join(recs...), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		input := fuzzInput(data, mode)
		if mode%3 == 0 && len(data) > 1 && data[0]&1 == 1 {
			// Each record (as far as "WARC/" lines tell) in a gzip
			// member of its own: the case Origin is used in.
			var parts [][]byte
			rest := data
			for {
				i := bytes.Index(rest[1:], []byte("\nWARC/"))
				if i < 0 {
					break
				}
				parts, rest = append(parts, rest[:i+2]), rest[i+2:]
			}
			input = gzipEach(append(parts, rest)...)
		}
		checkOrigin(t, "fuzz", input, func(string, string, int) int { return 1 << 10 }, 1<<16)
	})
}

// BenchmarkRevisits reads an archive whose every page is revisited twice
// (by record ID and by digest), with every body copied ("copy") and with
// originals read again from the input ("origin"): what Options.Origin
// costs where revisits are many.
func BenchmarkRevisits(b *testing.B) {
	data := gzipEach(revisitArchive(2000, 8000)...)
	for _, mode := range []string{"copy", "origin"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				opts := Options{Resolver: NewResolver(32 << 20)}
				if mode == "origin" {
					opts.Origin = bytes.NewReader(data)
				}
				r, err := NewReader(bytes.NewReader(data), "b.warc.gz", opts)
				if err != nil {
					b.Fatal(err)
				}
				recs, _, err := drain(r)
				if err != nil || len(recs) != 2000+2*1998 {
					b.Fatalf("%d records, %v", len(recs), err)
				}
			}
		})
	}
}
