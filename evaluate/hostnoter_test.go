package evaluate

import (
	"fmt"
	"testing"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
)

// TestHostNoter: the Builder learns each host's last fetch time from a
// HostNoter, with runs of one host, hosts in turn, times out of order and
// more hosts than it gathers before a flush.
func TestHostNoter(t *testing.T) {
	b := NewBuilder(Options{}, bots.Default(), nil)
	b.StreamViews()
	h := b.NewHostNoter()
	base := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	want := map[string]int64{}
	n := 3*hostNoterMax + 500
	for i := range 4 * n {
		host := fmt.Sprintf("h%d.example", (i*7919)%n)
		if i%5 < 2 {
			host = "same.example" // a run of one host
		}
		at := base.Add(time.Duration((i*104729)%100000) * time.Second)
		h.Note(&event.Fetch{Host: host, Time: at})
		if s := at.Unix(); s > want[host] {
			want[host] = s
		}
	}
	h.Flush()
	b.notes.finish()
	for host, last := range want {
		got, ok := b.notes.lookup(host)
		if !ok || got.last != last {
			t.Fatalf("%s: last %d (%v), want %d", host, got.last, ok, last)
		}
	}
}
