package warc

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/internal/slowtest"
)

// checkReuse fails unless reading with Options.Reuse gives what reading
// without it gives. Types are also checked after the whole read, since
// they may be kept.
func checkReuse(t testing.TB, name string, data []byte, limit func(string, string, int) int) {
	want := readRendered(t, data, Options{BodyLimit: limit})
	got := readRendered(t, data, Options{BodyLimit: limit, Reuse: true})
	// What may be kept (problems, record types) must still read the
	// same after the whole input was read.
	want = append(want, readKept(t, data, Options{BodyLimit: limit})...)
	got = append(got, readKept(t, data, Options{BodyLimit: limit, Reuse: true})...)
	if len(got) != len(want) {
		t.Fatalf("%s: %d records and problems with Reuse, %d without", name, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: item %d differs with Reuse:\n got %s\nwant %s", name, i, got[i], want[i])
		}
	}
}

// checkReuseRecords fails unless reading with Options.ReuseRecords and a
// Resolver (with and without Origin) gives what reading with the
// Resolver alone gives, record by record as read and, for what a caller
// may keep (the values copied, their strings shared), after the whole
// read.
func checkReuseRecords(t testing.TB, name string, data []byte, limit func(string, string, int) int) {
	for _, origin := range []bool{false, true} {
		opts := func(reuse bool) Options {
			o := Options{BodyLimit: limit, Resolver: NewResolver(1 << 20), ReuseRecords: reuse}
			if origin {
				o.Origin = bytes.NewReader(data)
			}
			return o
		}
		want := append(readRendered(t, data, opts(false)), readCopied(t, data, opts(false))...)
		got := append(readRendered(t, data, opts(true)), readCopied(t, data, opts(true))...)
		if len(got) != len(want) {
			t.Fatalf("%s (origin %v): %d records and problems with ReuseRecords, %d without", name, origin, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s (origin %v): item %d differs with ReuseRecords:\n got %s\nwant %s", name, origin, i, got[i], want[i])
			}
		}
	}
}

// readCopied reads data keeping a copy of every record as a caller of
// Options.ReuseRecords keeps it (values and slices copied, strings
// shared, no body) and renders them at the end.
func readCopied(t testing.TB, data []byte, opts Options) []string {
	r, err := NewReader(bytes.NewReader(data), "t.warc", opts)
	if err != nil {
		return nil
	}
	var kept []*Record
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		cp := *rec
		cp.WARCHeader = slices.Clone(rec.WARCHeader)
		if f := rec.Fetch; f != nil {
			g := *f
			g.Header, g.ConcurrentTo, g.Body = slices.Clone(f.Header), slices.Clone(f.ConcurrentTo), nil
			cp.Fetch = &g
		}
		if c := rec.Capture; c != nil {
			d := *c
			d.Header, d.ConcurrentTo, d.WARCHeader, d.Body = slices.Clone(c.Header), slices.Clone(c.ConcurrentTo), slices.Clone(c.WARCHeader), nil
			cp.Capture = &d
		}
		kept = append(kept, &cp)
	}
	out := make([]string, 0, len(kept))
	for _, rec := range kept {
		out = append(out, "kept "+render(rec))
	}
	return out
}

// readKept reads data keeping every problem and record type, and renders
// them at the end.
func readKept(t testing.TB, data []byte, opts Options) []string {
	r, err := NewReader(bytes.NewReader(data), "t.warc", opts)
	if err != nil {
		return nil
	}
	var probs []event.Problem
	var types []string
	for {
		rec, err := r.Next()
		probs = append(probs, r.Problems()...)
		if err != nil {
			break
		}
		types = append(types, rec.Type)
	}
	out := []string{fmt.Sprintf("types %q", types)}
	for _, p := range probs {
		out = append(out, fmt.Sprintf("kept problem %+v", p))
	}
	return out
}

// TestReuseReadsTheSame reads the real archives of the repository's
// testdata, the benchmark corpus and the fuzz seeds with and without
// Options.Reuse.
func TestReuseReadsTheSame(t *testing.T) {
	slowtest.Skip(t, "reads every sample archive and 4 MiB of the benchmark corpus twice")
	files := sampleArchives(t)
	limits := map[string]func(string, string, int) int{
		"default": nil,
		"none":    func(string, string, int) int { return 0 },
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for ln, limit := range limits {
			checkReuse(t, f+" "+ln, data, limit)
			checkReuseRecords(t, f+" "+ln, data, limit)
		}
	}
	gz, _ := benchCorpus(nil)
	checkReuse(t, "bench corpus", gz[:min(len(gz), 4<<20)], nil)
	checkReuseRecords(t, "bench corpus", gz[:min(len(gz), 4<<20)], nil)
	var seeds [][]byte
	for _, r := range sampleRecords() {
		seeds = append(seeds, r, gzipMember(r))
	}
	all := join(sampleRecords()...)
	seeds = append(seeds, all, gzipEach(all[:len(all)/2], all[len(all)/2:]))
	// Many records without a response between them: behind then holds
	// responses from further back than the slots reach.
	var many [][]byte
	many = append(many, respRec(1, "http://e.com/a", httpResponse("HTTP/1.1 200 OK", "x")).bytes())
	for i := range 3 * reuseSlots {
		many = append(many, wrec{typ: "metadata", id: fmt.Sprintf("<urn:m:%d>", i), uri: fmt.Sprintf("http://e.com/m%d", i), ctype: "application/warc-fields", block: "a: b\r\n"}.bytes())
	}
	many = append(many, reqRec(1, "http://e.com/a", "GET /a HTTP/1.1\r\nHost: e.com\r\n\r\n", "WARC-Concurrent-To: <urn:uuid:resp-1>").bytes())
	// A request whose response comes pairWindow-1 records later: the
	// queue then holds as many records as it ever does.
	many = append(many, reqRec(2, "http://e.com/b", "GET /b HTTP/1.1\r\nHost: e.com\r\n\r\n", "WARC-Concurrent-To: <urn:uuid:resp-2>").bytes())
	for i := range pairWindow - 2 {
		many = append(many, wrec{typ: "metadata", id: fmt.Sprintf("<urn:n:%d>", i), uri: fmt.Sprintf("http://e.com/n%d", i), ctype: "application/warc-fields", block: "c: d\r\n"}.bytes())
	}
	many = append(many, respRec(2, "http://e.com/b", httpResponse("HTTP/1.1 404 Not Found", "y")).bytes())
	seeds = append(seeds, join(many...), gzipEach(many...))
	// A revisit without an HTTP header takes its original's, remembered
	// by the Resolver: the original's slot has since been used again by
	// responses with headers of their own.
	var revisit [][]byte
	revisit = append(revisit, respRec(1, "http://e.com/a", httpResponse("HTTP/1.1 200 OK", "x", "X-A: original")).bytes())
	for i := range 2 * reuseSlots {
		revisit = append(revisit, respRec(100+i, fmt.Sprintf("http://e.com/r%d", i), fmt.Sprintf("HTTP/1.1 404 Not Found\r\nX-N: %d\r\n\r\n", i)).bytes())
	}
	revisit = append(revisit, wrec{typ: "revisit", id: "<urn:uuid:rev-1>", uri: "http://e.com/a",
		extra: []string{"WARC-Refers-To: <urn:uuid:resp-1>", "WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"}}.bytes())
	seeds = append(seeds, join(revisit...), gzipEach(revisit...))
	for i, s := range seeds {
		checkReuse(t, fmt.Sprint("seed ", i), s, nil)
		checkReuseRecords(t, fmt.Sprint("seed ", i), s, nil)
	}
}

// FuzzReuse checks that Options.Reuse reads any input as reading without
// it does, and Options.ReuseRecords as reading with a Resolver alone.
func FuzzReuse(f *testing.F) {
	addSampleSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		input := fuzzInput(data, mode)
		checkReuse(t, "fuzz", input, func(string, string, int) int { return 1 << 10 })
		checkReuseRecords(t, "fuzz", input, func(string, string, int) int { return 1 << 10 })
	})
}
