package ingest

import (
	"time"

	"github.com/repaudit/repaudit/event"
)

// Days counts the events of an input by UTC day, with the latest event
// of each day and where it is: enough to find a time far after the bulk
// of the data (a garbled line dated 2099) and to name the line that sets
// the default as-of (package audit). Consecutive events mostly fall on
// one day, so counting costs a comparison, not a map update.
type Days struct {
	m    map[int64]*Day
	cur  *Day
	curK int64
	// Dropped counts events of days past maxDays distinct days: not
	// counted here (their times still widen Stats.First and Last).
	Dropped int64
}

// Day is one UTC day's events.
type Day struct {
	N      int64
	Latest time.Time    // the latest time of the day
	Src    event.Source // where the event with that time is (the first such)
}

// maxDays caps the distinct days an input counts (some 180 years).
const maxDays = 1 << 16

// see counts t, of the event at src.
func (d *Days) see(t time.Time, src event.Source) {
	k := t.Unix()
	if k < 0 {
		k -= 86399
	}
	k /= 86400
	if d.cur == nil || k != d.curK {
		dy, ok := d.m[k]
		if !ok {
			if len(d.m) >= maxDays {
				d.Dropped++
				return
			}
			if d.m == nil {
				d.m = map[int64]*Day{}
			}
			dy = &Day{}
			d.m[k] = dy
		}
		d.cur, d.curK = dy, k
	}
	d.cur.N++
	if t.After(d.cur.Latest) {
		d.cur.Latest, d.cur.Src = t, src
	}
}

// All returns the days counted, by day number (Unix days), for reading.
func (d *Days) All() map[int64]*Day { return d.m }
