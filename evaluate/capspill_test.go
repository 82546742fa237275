package evaluate

import (
	"reflect"
	"strings"

	"github.com/repaudit/repaudit/event"
	"os"
	"testing"
	"time"
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

// Captures with times the coding would not give back exactly (another
// zone) stay in memory.
func TestCaptureSpillKeepsOtherZones(t *testing.T) {
	at := time.Date(2025, 3, 1, 0, 0, 0, 0, time.FixedZone("CET", 3600))
	if spillable([]*capRec{{time: at}}) {
		t.Error("a CET time counted as spillable")
	}
	if !spillable([]*capRec{{time: at.UTC()}, {}}) {
		t.Error("UTC and zero times counted as not spillable")
	}
}

// Every field of a capture summary reads back as written.
func TestCaptureSpillRoundTrip(t *testing.T) {
	ds := &dirSet{}
	at := time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.UTC)
	in := []capRec{
		{rawURL: "HTTP://E.com/a", url: "http://e.com/a", time: at, recordID: "<urn:uuid:1>", src: eventSource("a.warc.gz", 0, 120, 4000),
			dir: ds, concKey: pairHash{1 << 63, 7}, status: 200, hostEnd: 12, schemeEnd: 4, hasConc: true, paired: true,
			usage: "train-ai=n, search=y",
			emb:   &capEmbargo{days: 31, lastMod: time.Date(2025, 2, 1, 8, 0, 0, 0, time.UTC), value: "m"}},
		{rawURL: "https://e.com/r", url: "https://e.com/r", recordID: "<urn:uuid:2>", src: eventSource("b.warc", 3, -1, 0),
			rev: &capRevisit{refersTo: "<urn:uuid:1>", payload: "sha1:X"}, status: -1, hostEnd: 13, schemeEnd: 5, rtype: 1, unresolved: true, isRobots: true,
			usage: strings.Repeat("x=y, ", 204) + "x=y", usageCut: true, loc: "https://e.com/login"},
		{rawURL: "", url: "", time: at.Add(-time.Hour), dir: ds, rtype: 2,
			emb: &capEmbargo{value: "7d", diag: "Archive-Embargo: byte 0: member \"7d\" is not w, m or q"}},
	}
	var caps []*capRec
	for i := range in {
		c := in[i]
		caps = append(caps, &c)
	}
	m := &Model{opts: Options{SpillDir: t.TempDir(), spillAllCaptures: true}, captures: caps}
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
		if !reflect.DeepEqual(*c, in[i]) || c.dir != in[i].dir {
			t.Errorf("capture %d:\n got %+v\nwant %+v", i, *c, in[i])
		}
	}
}

func eventSource(file string, line, off, n int64) event.Source {
	return event.Source{File: file, Line: line, Offset: off, Length: n}
}
