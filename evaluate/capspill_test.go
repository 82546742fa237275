package evaluate

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/repaudit/repaudit/event"
	"os"
	"testing"
	"time"
	"unsafe"
)

// Every scenario test spills its captures in its second run
// (checkStreamed) and compares the tables; these check the rest.

// A spill file that cannot be read back fails WriteTables, and Close
// after it is clean; the directory is left empty.
func TestCaptureSpillReadError(t *testing.T) {
	dir := t.TempDir()
	s := storeScenario(t, Options{})
	b := NewBuilder(Options{SpillDir: dir, spillAllCaptures: true, AsOf: days(40)}, nil, s.ids)
	for _, c := range s.caps {
		b.AddCapture(c)
	}
	m := b.Build()
	if m.capSpill == nil || m.captures != nil {
		t.Fatal("captures not spilled")
	}
	m.capSpill.f.Close() // reading it back now fails
	if err := m.WriteTables(discard{}); err == nil {
		t.Error("WriteTables: no error though the captures could not be read back")
	}
	m.capSpill.f = nil
	if err := m.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("spill directory not empty after Close: %v", es)
	}
}

// Every field of a capture summary reads back as written.
func TestCaptureSpillRoundTrip(t *testing.T) {
	ds := &dirSet{}
	at := time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.UTC)
	in := []capFields{
		{rawURL: "HTTP://E.com/a", url: "http://e.com/a", time: at, recordID: "<urn:uuid:1>", src: eventSource("a.warc.gz", 0, 120, 4000),
			dir: ds, concKey: pairHash{1 << 63, 7}, status: 200, hostEnd: 12, schemeEnd: 4, hasConc: true, paired: true,
			usage: "train-ai=n, search=y", mime: "text/html",
			emb: &capEmbargo{days: 31, lastMod: time.Date(2025, 2, 1, 8, 0, 0, 0, time.UTC), value: "m"}},
		{rawURL: "https://e.com/r", url: "https://e.com/r", recordID: "<urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0>",
			digest: "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", src: eventSource("b.warc", 3, -1, 0), mime: "application/x-other",
			rev: &capRevisit{refersTo: "<urn:uuid:1>", payload: "sha1:X"}, status: -1, hostEnd: 13, schemeEnd: 5, rtype: 1, unresolved: true, isRobots: true,
			usage: strings.Repeat("x=y, ", 204) + "x=y", usageCut: true, loc: "https://e.com/login"},
		{rawURL: "", url: "", time: at.Add(-time.Hour), dir: ds, rtype: 2,
			emb: &capEmbargo{value: "7d", diag: "Archive-Embargo: byte 0: member \"7d\" is not w, m or q"}},
		{rawURL: "https://e.com/b", url: "https://e.com/b", recordID: "<urn:uuid:0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0>",
			digest: "sha1:3i42h3s6nnfq2msvx7xzkyayscx5qbyj", src: eventSource("b.warc", 0, 7, 9), hostEnd: 13, schemeEnd: 5},
		{rawURL: "https://e.com/c", url: "https://e.com/c", recordID: "<urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0>",
			digest: "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", src: eventSource("b.warc", 0, 7, 9), hostEnd: 13, schemeEnd: 5, status: 404,
			time: at},
	}
	var caps []*capRec
	for i := range in {
		c := newCapRec(&in[i])
		if got := c.fields(); !reflect.DeepEqual(got, in[i]) {
			t.Errorf("capture %d kept as:\n got %+v\nwant %+v", i, got, in[i])
		}
		caps = append(caps, c)
	}
	if caps[4].ext != nil || caps[4].blob != "https://e.com/c"+caps[4].blob[15:] || len(caps[4].blob) != 15+16+20 {
		t.Errorf("standard record id and digest not kept as bytes: ext %+v, blob %q", caps[4].ext, caps[4].blob)
	}
	if caps[3].ext == nil || caps[3].ext.recordID == "" || caps[3].ext.digest == "" {
		t.Error("an upper-case record id or lower-case digest kept as bytes")
	}
	m := &Model{opts: Options{SpillDir: t.TempDir(), spillAllCaptures: true}, captures: slices.Clone(caps)}
	m.spillCaptures()
	if m.capSpill == nil || m.captures != nil {
		t.Fatal("not spilled")
	}
	if err := m.loadCaptures(); err != nil {
		t.Fatal(err)
	}
	if len(m.captures) != len(in) {
		t.Fatalf("%d captures read back, want %d", len(m.captures), len(in))
	}
	for i, c := range m.captures {
		if !reflect.DeepEqual(*c, *caps[i]) || c.dir != in[i].dir || !reflect.DeepEqual(c.fields(), in[i]) {
			t.Errorf("capture %d:\n got %+v\nwant %+v", i, c.fields(), in[i])
		}
	}
}

// A spill file of any bytes reads back as captures or fails; it never
// panics, and what it gives back reads through every accessor.
func FuzzCaptureSpillDecode(f *testing.F) {
	ds := &dirSet{}
	sp := &capSpill{}
	fileIdx, dirIdx := map[*string]uint64{}, map[*dirSet]uint64{}
	for _, c := range []capFields{
		{rawURL: "https://e.com/a", url: "https://e.com/a", hostEnd: 13, schemeEnd: 5, dir: ds, src: eventSource("a", 0, 1, 2),
			recordID: "<urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0>", digest: "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"},
		{rawURL: "HTTP://E.com/a", url: "http://e.com/a", rev: &capRevisit{refersTo: "x"}, mime: "a/b", usage: "u",
			emb: &capEmbargo{value: "w", days: 7}, src: eventSource("b", 4, 1, 2)},
	} {
		f.Add(sp.encode(nil, newCapRec(&c), fileIdx, dirIdx))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "caps")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		d := &capSpill{f: &tempFile{File: fh}, files: sp.files, dirs: sp.dirs}
		dec := d.decoder()
		var c capRec
		for range 4 {
			if dec.next(&c) != nil {
				return
			}
			got := c.fields()
			_, _, _ = c.parts()
			if again := newCapRec(&got).fields(); !reflect.DeepEqual(again, got) {
				t.Fatalf("read back %+v, kept again as %+v", got, again)
			}
		}
	})
}

func eventSource(file string, line, off, n int64) event.Source {
	return event.Source{File: file, Line: line, Offset: off, Length: n}
}

// A capture summary stays in the 80-byte size class: pass 1 keeps one
// per archived record.
func TestCapRecSize(t *testing.T) {
	if n := unsafe.Sizeof(capRec{}); n > 80 {
		t.Errorf("capRec is %d bytes, want at most 80", n)
	}
}
