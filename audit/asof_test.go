package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/table"
)

// TestAsOfIgnoresOutlier: one garbled line dated 2099 among lines of
// 2025 leaves the default as-of in 2025; a notice names the line that
// set it and the one ignored, and a time-outlier row names that line.
func TestAsOfIgnoresOutlier(t *testing.T) {
	tmp := t.TempDir()
	p := filepath.Join(tmp, "access.log")
	lines := strings.Split(strings.TrimSuffix(string(genLog(200, false)), "\n"), "\n")
	lines[120] = strings.Replace(lines[120], "12/Mar/2025", "12/Mar/2099", 1)
	os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	col := &table.Collector{}
	sum, model, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), p), col)
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2025, 3, 12, 10, 3, 19, 0, time.UTC) // line 200
	if got := model.AsOf(); !got.Equal(want) {
		t.Errorf("as-of = %s, want %s", got, want)
	}
	var notice string
	for _, n := range sum.Notices {
		if n.Code == NoticeAsOfOutliers {
			notice = n.Message
		}
	}
	if !strings.Contains(notice, p+":200") || !strings.Contains(notice, p+":121") {
		t.Errorf("notice %q: want it to name %s:200 (the as-of) and %s:121 (ignored)", notice, p, p)
	}
	var row bool
	for _, pr := range col.Problems {
		if pr.Code == "time-outlier" && pr.SourceFile == p && pr.SourceLine == 121 && pr.Severity == "warning" {
			row = true
		}
	}
	if !row {
		t.Errorf("no time-outlier warning at %s:121: %+v", p, col.Problems)
	}
}

// TestAsOfNoOutlier: data in time order sets the as-of at its latest
// time with no notice (a month of data with a thin last week is the
// bulk, not an outlier).
func TestAsOfNoOutlier(t *testing.T) {
	tmp := t.TempDir()
	p := filepath.Join(tmp, "access.log")
	var b strings.Builder
	t0 := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3000 {
		ts := t0.Add(time.Duration(i) * 10 * time.Minute)
		fmt.Fprintf(&b, "198.51.100.7 - - [%s +0000] \"GET /p%d HTTP/1.1\" 200 1 \"-\" \"curl/8\"\n", ts.Format("02/Jan/2006:15:04:05"), i)
	}
	os.WriteFile(p, []byte(b.String()), 0o644)
	sum, model, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), p), &table.Collector{})
	if err != nil {
		t.Fatal(err)
	}
	if want := t0.Add(2999 * 10 * time.Minute); !model.AsOf().Equal(want) {
		t.Errorf("as-of = %s, want %s", model.AsOf(), want)
	}
	for _, n := range sum.Notices {
		if n.Code == NoticeAsOfOutliers {
			t.Errorf("notice %+v on data without outliers", n)
		}
	}
}

// TestAsOfBeforeData: an --as-of earlier than every time in the data is
// a warning row and a notice.
func TestAsOfBeforeData(t *testing.T) {
	tmp := t.TempDir()
	p := filepath.Join(tmp, "access.log")
	os.WriteFile(p, genLog(50, false), 0o644)
	cfg := onceConfig(filepath.Join(tmp, "out"), p)
	cfg.Eval.AsOf = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), cfg, col)
	if err != nil {
		t.Fatal(err)
	}
	if problemCodes(col)["as-of-before-data"] != 1 {
		t.Errorf("problems %v: want one as-of-before-data", problemCodes(col))
	}
	var noticed bool
	for _, n := range sum.Notices {
		noticed = noticed || n.Code == NoticeAsOfBeforeData && strings.Contains(n.Message, "2025-03-12T10:00:00Z")
	}
	if !noticed {
		t.Errorf("no %s notice naming the earliest time: %+v", NoticeAsOfBeforeData, sum.Notices)
	}
}

// TestAsOfSparseLog: a quiet site's log, a line a day and then none for
// three weeks, has no outlier: the gap is shorter than the log's span.
func TestAsOfSparseLog(t *testing.T) {
	tmp := t.TempDir()
	p := filepath.Join(tmp, "access.log")
	var b strings.Builder
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	var last time.Time
	for i := range 100 {
		last = t0.AddDate(0, 0, i)
		if i == 99 {
			last = last.AddDate(0, 0, 21)
		}
		fmt.Fprintf(&b, "198.51.100.7 - - [%s +0000] \"GET /p%d HTTP/1.1\" 200 1 \"-\" \"curl/8\"\n", last.Format("02/Jan/2006:15:04:05"), i)
	}
	os.WriteFile(p, []byte(b.String()), 0o644)
	col := &table.Collector{}
	_, model, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), p), col)
	if err != nil {
		t.Fatal(err)
	}
	if !model.AsOf().Equal(last) || problemCodes(col)["time-outlier"] != 0 {
		t.Errorf("as-of %s, problems %v; want %s and no time-outlier", model.AsOf(), problemCodes(col), last)
	}
}

// TestAsOfSmallLog: a log of a dozen lines says little about its own
// density, but a garbled 2099 line among 2025 lines is still an outlier
// (a year's slack), while a small log whose lines are months apart has
// none.
func TestAsOfSmallLog(t *testing.T) {
	for _, tc := range []struct {
		name    string
		last    string // the time of the twelfth line
		outlier bool
	}{
		{"garbled 2099", "11/May/2099:03:00:00", true},
		{"months apart", "11/Sep/2025:03:00:00", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			p := filepath.Join(tmp, "access.log")
			var b strings.Builder
			for i := range 11 {
				fmt.Fprintf(&b, "198.51.100.7 - - [%02d/May/2025:10:00:00 +0000] \"GET /p%d HTTP/1.1\" 200 1 \"-\" \"curl/8\"\n", i+1, i)
			}
			fmt.Fprintf(&b, "198.51.100.7 - - [%s +0000] \"GET /last HTTP/1.1\" 200 1 \"-\" \"curl/8\"\n", tc.last)
			os.WriteFile(p, []byte(b.String()), 0o644)
			col := &table.Collector{}
			_, model, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), p), col)
			if err != nil {
				t.Fatal(err)
			}
			if got := problemCodes(col)["time-outlier"] == 1; got != tc.outlier {
				t.Errorf("time-outlier rows %v, want outlier %v", problemCodes(col), tc.outlier)
			}
			if tc.outlier && model.AsOf().Year() != 2025 {
				t.Errorf("as-of %s, want the 2025 line", model.AsOf())
			}
		})
	}
}
