package evaluate

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/table"
)

// Every scenario test spills its robots.txt documents in its second run
// (checkStreamed) and compares the tables; these check the rest.

// docModel builds storeScenario's model with opts, writes its built
// tables to a collector and returns both, with the fetches in time order.
func docModel(t *testing.T, opts Options) (*Model, *table.Collector, []*event.Fetch) {
	t.Helper()
	s := storeScenario(t, Options{})
	opts.AsOf = days(40)
	m := s.build(opts, false)
	out := &table.Collector{}
	if err := m.WriteBuiltTables(out); err != nil {
		t.Fatal(err)
	}
	return m, out, s.byTime()
}

// A spill file that cannot be read back fails WriteTables and Close once
// a finding cites a spilled version; the directory is left empty.
func TestDocSpillReadError(t *testing.T) {
	dir := t.TempDir()
	m, _, order := docModel(t, Options{SpillDir: dir, spillAllCaptures: true})
	if m.docSpill == nil {
		t.Fatal("documents not spilled")
	}
	for _, a := range m.authList {
		for _, v := range a.versions {
			if v.doc.rdocCold != nil || v.captures != nil {
				t.Fatalf("version %s: document or capture list kept in memory", v.id)
			}
		}
	}
	m.docSpill.f.Close() // reading it back now fails
	out := &table.Collector{}
	judgeKept(m, order, out)
	if len(out.Violations) == 0 {
		t.Fatal("no finding cites a version")
	}
	if err := m.WriteTables(out); err == nil {
		t.Error("WriteTables: no error though a cited document could not be read back")
	}
	if err := m.Close(); err == nil {
		t.Error("Close: no error though a cited document could not be read back")
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("spill directory not empty after Close: %v", es)
	}
}

// A spill file that cannot be made keeps the documents in memory, with
// the same rows as a spilled model's.
func TestDocSpillCannotCreate(t *testing.T) {
	spilled, want, order := docModel(t, Options{SpillDir: t.TempDir(), spillAllCaptures: true})
	defer spilled.Close()
	m, got, _ := docModel(t, Options{SpillDir: filepath.Join(t.TempDir(), "missing"), spillAllCaptures: true})
	defer m.Close()
	if m.docSpill != nil || spilled.docSpill == nil {
		t.Fatalf("spilled: %v with a missing directory, %v with one", m.docSpill != nil, spilled.docSpill != nil)
	}
	for _, c := range []struct {
		m   *Model
		out *table.Collector
	}{{spilled, want}, {m, got}} {
		judgeKept(c.m, order, c.out)
		if err := c.m.WriteTables(c.out); err != nil {
			t.Fatal(err)
		}
	}
	if len(want.Violations) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("tables differ with the documents kept in memory (%d/%d violations)", len(got.Violations), len(want.Violations))
	}
}

// Every field of a document's cold part reads back as written.
func TestDocSpillRoundTrip(t *testing.T) {
	in := rdocCold{rawURL: "HTTP://E.com/robots.txt", url: "http://e.com/robots.txt", auth: "http://e.com", hostport: "e.com",
		recordType: "revisit", location: "https://e.com/r", digest: "ab12", idDigest: "ab12", size: -3,
		recordID: "<urn:uuid:1>", refersTo: "<urn:uuid:0>", payload: "sha1:X", profile: "p",
		conc: []string{"<urn:uuid:2>", ""}, originRef: "repo@c:robots.txt", detail: "subject"}
	for _, c := range []rdocCold{in, {}} {
		var got rdocCold
		b := c.encode(nil)
		if err := got.decode(b[4:]); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, c) {
			t.Errorf("read back\n got %+v\nwant %+v", got, c)
		}
	}
}

// decode takes any bytes without panicking, and what encode wrote back.
func FuzzDocSpillDecode(f *testing.F) {
	f.Add((&rdocCold{rawURL: "https://e.com/robots.txt", conc: []string{"a"}, size: 9}).encode(nil)[4:])
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		var c rdocCold
		if c.decode(b) != nil {
			return
		}
		var back rdocCold
		if err := back.decode(c.encode(nil)[4:]); err != nil || !reflect.DeepEqual(back, c) {
			t.Errorf("decode(encode(%+v)) = %+v, %v", c, back, err)
		}
	})
}
