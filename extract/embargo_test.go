package extract

import (
	"strings"
	"testing"
)

// Cases written from the Archive-Embargo notes: w, m and q are 7, 31 and
// 90 days.
func TestParseArchiveEmbargo(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values []string
		period string
		days   int
		errOff int // -1: no error
		errHas string
	}{
		{"week", []string{"w"}, "w", 7, -1, ""},
		{"month", []string{"m"}, "m", 31, -1, ""},
		{"quarter", []string{" q\t"}, "q", 90, -1, ""},
		{"parameters ignored", []string{"m;foo=1"}, "m", 31, -1, ""},
		{"same twice", []string{"w", "w"}, "w", 7, -1, ""},
		{"longest wins", []string{"w, q", "m"}, "q", 90, 3, "different periods"},
		{"unknown token", []string{"y"}, "", 0, 0, `member "y" is not w, m or q`},
		{"upper case is another token", []string{"W"}, "", 0, 0, "not w, m or q"},
		{"unknown after a good one", []string{"w, 7d"}, "w", 7, 3, `"7d"`},
		{"empty", []string{""}, "", 0, 0, "empty value"},
		{"empty member", []string{"w,,"}, "w", 7, 2, "empty list member"},
		{"too long", []string{"w," + strings.Repeat(" ", 300)}, "w", 7, MaxEmbargoBytes, "longer than 256 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, ok, err := ParseArchiveEmbargo(tc.values)
			if !ok {
				t.Fatal("ok = false")
			}
			if e.Period != tc.period || e.Days != tc.days {
				t.Errorf("got %q %d, want %q %d", e.Period, e.Days, tc.period, tc.days)
			}
			switch {
			case tc.errOff < 0 && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.errOff >= 0 && err == nil:
				t.Errorf("no error, want one at %d", tc.errOff)
			case err != nil && (err.Offset != tc.errOff || !strings.Contains(err.Error(), tc.errHas)):
				t.Errorf("error %q at %d, want %q at %d", err.Error(), err.Offset, tc.errHas, tc.errOff)
			}
		})
	}
	if _, ok, err := ParseArchiveEmbargo(nil); ok || err != nil {
		t.Errorf("no field: ok %v err %v", ok, err)
	}
}

func FuzzParseArchiveEmbargo(f *testing.F) {
	for _, s := range []string{"w", "m", "q", "w, q", "x;y=1", "", ",,", " m ;a, w"} {
		f.Add(s, "q")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		e, ok, err := ParseArchiveEmbargo([]string{a, b})
		if !ok {
			t.Fatal("ok = false with a field")
		}
		if len(e.Value) > MaxEmbargoBytes {
			t.Fatalf("value %d bytes", len(e.Value))
		}
		if d, known := embargoDays[e.Period]; known != (e.Period != "") || d != e.Days {
			t.Fatalf("period %q days %d", e.Period, e.Days)
		}
		if err != nil && (err.Offset < 0 || err.Offset > len(e.Value)) {
			t.Fatalf("error offset %d outside the value (%d bytes)", err.Offset, len(e.Value))
		}
	})
}
