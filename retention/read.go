package retention

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/repaudit/repaudit/internal/parquetread"
	"github.com/repaudit/repaudit/output"
)

// AsOf returns the as-of time in DIR/manifest.json; nil when it has none.
func AsOf(dir string) (*time.Time, error) {
	m, err := output.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if m.AsOf == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, m.AsOf)
	if err != nil {
		return nil, fmt.Errorf("%s: manifest as_of %q: %w", dir, m.AsOf, err)
	}
	return &t, nil
}

// tableFiles returns DIR/retention.parquet, or the part files of
// DIR/retention/ (as the Beam pipeline writes tables) in name order.
func tableFiles(dir string) ([]string, error) {
	one := filepath.Join(dir, "retention.parquet")
	if fi, err := os.Stat(one); err == nil && fi.Mode().IsRegular() {
		return []string{one}, nil
	}
	parts, err := filepath.Glob(filepath.Join(dir, "retention", "*.parquet"))
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("%s: no retention table (retention.parquet)", dir)
	}
	sort.Strings(parts)
	return parts, nil
}

// ReadDir returns a Scan over the retention table of the audit directory
// dir, read with arrow-go one row group at a time.
func ReadDir(dir string) Scan {
	return func(fn func(*Capture) error) error {
		files, err := tableFiles(dir)
		if err != nil {
			return err
		}
		for _, f := range files {
			if err := scanFile(f, fn); err != nil {
				return err
			}
		}
		return nil
	}
}

// columns the export reads, in the order of cols in scanFile.
var columns = []string{"url", "fetch_time", "action", "reason", "due_date", "fetch_status",
	"record_type", "warc_filename", "warc_record_offset", "warc_record_length", "warc_record_id"}

func scanFile(path string, fn func(*Capture) error) error {
	var ferr error
	_, err := parquetread.Groups(path, func(t *parquetread.Table) bool {
		cols := make([][]any, len(columns))
		for i, name := range columns {
			c, ok := t.Col(name)
			if !ok {
				ferr = fmt.Errorf("%s: no column %s", path, name)
				return false
			}
			cols[i] = c
		}
		for r := int64(0); r < t.Rows; r++ {
			if ferr = fn(capture(cols, int(r))); ferr != nil {
				return false
			}
		}
		return true
	})
	if err != nil {
		return err
	}
	return ferr
}

// capture converts row r of the columns.
func capture(cols [][]any, r int) *Capture {
	str := func(i int) string { s, _ := cols[i][r].(string); return s }
	num := func(i int) int64 { n, _ := cols[i][r].(int64); return n }
	var at time.Time // a record without a time: zero, written as "-"
	if tm, _ := cols[1][r].(*time.Time); tm != nil {
		at = *tm
	}
	due, _ := cols[4][r].(*time.Time)
	return &Capture{
		URL: str(0), Time: at, Action: str(2), Reason: str(3), Due: due,
		Status: int(num(5)), RecordType: str(6), WARCFile: str(7),
		Offset: num(8), Length: num(9), RecordID: str(10),
	}
}
