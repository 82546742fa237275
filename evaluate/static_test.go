package evaluate

import (
	"strconv"
	"testing"

	"github.com/repaudit/repaudit/event"
)

// Every scenario test's second run has its one ViewTracker let go of each
// entry pass 1 kept once applied (checkStreamed) and compares the tables;
// this checks that they go, and that a second tracker is refused.
func TestOneViewTrackerReleases(t *testing.T) {
	s := newScenario(t)
	for v := range 6 {
		rob := s.robots(site+"/robots.txt", days(float64(v)), 200, robotsBody(v, 5))
		f := s.fetch(uaCCBot, site+"/robots.txt", rob.Time, 0)
		f.Origin, f.Format = event.OriginWARC, "warc"
		f.Source = event.Source{File: "crawl.warc.gz", Offset: rob.Source.Offset + 500, Length: 50}
		f.RecordID = "<urn:uuid:req-" + strconv.Itoa(v) + ">"
		f.ConcurrentTo = []string{rob.RecordID}
		s.fetch(uaGPTBot, site+"/d/ok", days(float64(v)+0.5), 200)
	}
	opts := Options{AsOf: days(40), spillAllCaptures: true}
	m := s.build(opts, true)
	n := len(m.static)
	if n < 2 {
		t.Fatalf("%d entries kept by pass 1, want several", n)
	}
	m.OneViewTracker()
	vt := m.NewViewTracker()
	if m.static != nil || len(vt.static) != n {
		t.Fatalf("tracker took %d blocks of %d entries; the model kept %d", len(vt.static), n, len(m.static))
	}
	order := s.byTime()
	views := make([]FetchView, len(order))
	for i := range order {
		vt.Step(order[i:i+1], views[i:i+1])
	}
	last := order[len(order)-1].Time
	for i, c := range vt.static {
		if c != nil && c[0].e.time.Before(last) && i < vt.chunk {
			t.Errorf("block %d (%v) kept after it was applied", i, c[0].e.time)
		}
	}
	if vt.chunk == 0 {
		t.Error("no block applied")
	}
	defer func() {
		if recover() == nil {
			t.Error("a second ViewTracker after OneViewTracker did not panic")
		}
	}()
	m.NewViewTracker()
}
