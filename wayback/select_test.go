package wayback

import (
	"fmt"
	"slices"
	"testing"
)

func TestSelect(t *testing.T) {
	c := func(ts, digest string, status int) Capture {
		return Capture{Timestamp: ts, Digest: digest, Status: status}
	}
	caps := []Capture{
		c("1", "A", 200), c("2", "A", 200), // a repeat: always goes
		c("3", "B", 200), c("4", "A", 200), // A again: goes over the cap
		c("5", "-", 404), c("6", "A", 200), // status changes: kept
		c("7", "C", 200),
	}
	for _, tc := range []struct {
		max                 int
		want                []string
		repeats, seen, olds int
	}{
		{0, []string{"1", "3", "4", "5", "6", "7"}, 1, 0, 0},
		{6, []string{"1", "3", "4", "5", "6", "7"}, 1, 0, 0},
		{5, []string{"1", "3", "5", "6", "7"}, 1, 1, 0},
		{3, []string{"5", "6", "7"}, 1, 1, 2},
	} {
		t.Run(fmt.Sprint(tc.max), func(t *testing.T) {
			s := Select(caps, tc.max)
			var got []string
			for _, k := range s.Keep {
				got = append(got, k.Timestamp)
			}
			if !slices.Equal(got, tc.want) || s.Repeats != tc.repeats || s.Seen != tc.seen || s.Older != tc.olds {
				t.Errorf("got %v repeats %d seen %d older %d; want %v %d %d %d", got, s.Repeats, s.Seen, s.Older, tc.want, tc.repeats, tc.seen, tc.olds)
			}
		})
	}
}
