//go:build cgo

package report

import (
	"testing"
	"time"
)

// TestTimelineEndsWithData: the robots.txt axis runs from the first version
// (or first fetch) to the last fetch (or last change), with no margin, and
// has one tick per version change.
func TestTimelineEndsWithData(t *testing.T) {
	t.Parallel()
	s := &Section{
		Columns: []string{"authority", "version_id", "valid_from", "valid_until", "fetch_status", "effect"},
		Types:   []string{"VARCHAR", "VARCHAR", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP WITH TIME ZONE", "INTEGER", "VARCHAR"},
		Rows: [][]any{
			{"https://a.example", "v1", ts("2025-03-01T00:00:00Z"), ts("2025-03-05T00:00:00Z"), int64(200), "rules"},
			{"https://a.example", "v2", ts("2025-03-05T00:00:00Z"), ts("2025-03-07T00:00:00Z"), int64(503), "disallow_all"},
			{"https://a.example", "v3", ts("2025-03-07T00:00:00Z"), nil, int64(200), "rules"},
			{"https://b.example", "v4", ts("2025-03-05T00:00:00Z"), nil, int64(404), "allow_all"},
		},
	}
	tests := []struct {
		name               string
		first, last        time.Time
		wantStart, wantEnd string
	}{
		{"fetches inside", ts("2025-03-02T00:00:00Z"), ts("2025-03-11T00:00:00Z"), "2025-03-01", "2025-03-11"},
		{"fetches before the first version", ts("2025-02-20T00:00:00Z"), ts("2025-03-11T00:00:00Z"), "2025-02-20", "2025-03-11"},
		{"no fetches", time.Time{}, time.Time{}, "2025-03-01", "2025-03-07"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := timelineChart(s, tt.first, tt.last)
			if c == nil {
				t.Fatal("no chart")
			}
			var axis []string
			for _, l := range c.Texts {
				if l.Class == "axis" {
					axis = append(axis, l.Text)
				}
			}
			if len(axis) != 2 || axis[0] != tt.wantStart || axis[1] != tt.wantEnd {
				t.Errorf("axis labels %q, want [%s %s]", axis, tt.wantStart, tt.wantEnd)
			}
			// The open versions end at the right edge of the plot.
			right := 0.0
			for _, r := range c.Rects {
				right = max(right, r.X+r.W)
			}
			if axisEnd := c.Lines[0].X2; right != axisEnd {
				t.Errorf("bars end at %.1f, axis at %.1f", right, axisEnd)
			}
			// Three distinct change times: 03-01, 03-05 (both lanes), 03-07.
			if len(c.Ticks) != 3 {
				t.Errorf("got %d ticks, want 3", len(c.Ticks))
			}
			for _, tk := range c.Ticks {
				if tk.X1 < c.Lines[0].X1 || tk.X1 > c.Lines[0].X2 {
					t.Errorf("tick at %.1f outside the axis %.1f–%.1f", tk.X1, c.Lines[0].X1, c.Lines[0].X2)
				}
			}
		})
	}
}

func TestBinaryBytes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		n    float64
		want string
	}{{0, "0 bytes"}, {500, "500 bytes"}, {1024, "1.0 KiB"}, {12288, "12.0 KiB"}, {1 << 20, "1.0 MiB"}, {3 << 30, "3.0 GiB"}} {
		if got := binaryBytes(tt.n); got != tt.want {
			t.Errorf("binaryBytes(%v) = %q, want %q", tt.n, got, tt.want)
		}
	}
	for _, tt := range []struct{ v, want float64 }{{1, 1}, {900, 1000}, {26412, 50 * 1024}, {3 << 20, 5 << 20}} {
		if got := niceBytes(tt.v); got != tt.want {
			t.Errorf("niceBytes(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
