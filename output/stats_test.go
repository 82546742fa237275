package output

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/repaudit/repaudit/table"
)

func TestBounds(t *testing.T) {
	long := strings.Repeat("a", 70)
	cases := []struct {
		in, lo, hi string
		ok         bool
	}{
		{"", "", "", true},
		{"https://example.com/", "https://example.com/", "https://example.com/", true},
		{long, long[:64], long[:63] + "b", true},
		{strings.Repeat("é", 40), strings.Repeat("é", 32), strings.Repeat("é", 31) + "ê", true},
		{strings.Repeat("a", 63) + "€€", strings.Repeat("a", 63), strings.Repeat("a", 62) + "b", true},
		{strings.Repeat("a", 62) + "\ud7ff" + "b", strings.Repeat("a", 62), strings.Repeat("a", 61) + "b", true},
		{strings.Repeat("a", 61) + "\ud7ff" + "bb", strings.Repeat("a", 61) + "\ud7ff", strings.Repeat("a", 61) + "\ue000", true},
		{strings.Repeat("\U0010ffff", 17), strings.Repeat("\U0010ffff", 16), "", false},
	}
	for _, tc := range cases {
		lo := lowerBound([]byte(tc.in))
		hi, ok := upperBound([]byte(tc.in))
		if string(lo) != tc.lo || string(hi) != tc.hi || ok != tc.ok {
			t.Errorf("bounds(%q) = %q, %q, %v; want %q, %q, %v", tc.in, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
		if len(lo) > statsTruncate || len(hi) > statsTruncate || !utf8.Valid(lo) || !utf8.Valid(hi) {
			t.Errorf("bounds(%q): %q, %q: longer than %d bytes or not UTF-8", tc.in, lo, hi, statsTruncate)
		}
		if bytes.Compare(lo, []byte(tc.in)) > 0 || ok && bytes.Compare(hi, []byte(tc.in)) < 0 {
			t.Errorf("bounds(%q): %q, %q do not bound it", tc.in, lo, hi)
		}
	}
}

// TestColumnStatistics reads the footer back with arrow-go's metadata
// reader: every column chunk of every row group has min/max statistics
// (strings at most statsTruncate bytes, bounding every value of the
// chunk) and a null count. (arrow-go's reader cannot tell whether a
// distinct count was written: report's TestParquetMetadata asks DuckDB.)
func TestColumnStatistics(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	w, err := Create(dir, Options{RowGroupRows: 5000})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	const n = 12000
	urls := make([]string, n)
	for i := range n {
		urls[i] = fmt.Sprintf("https://host-%03d.example/%s/%d", i%300, strings.Repeat("päth", 20), i)
		vt := base.Add(time.Duration(i) * time.Minute)
		f := &table.Fetch{FetchTime: base.Add(time.Duration(i) * time.Second), Agent: []string{"GPTBot", "ClaudeBot", "CCBot"}[i%3],
			URL: urls[i], URLPath: fmt.Sprintf("/%d", i%5), FetchStatus: 200, ResponseBytes: int64(i % 7 * 1000),
			SourceLine: int64(i + 1), IsRobotsTxt: i%10 == 0}
		if i%2 == 0 {
			f.RobotsViewTime = &vt
		}
		if err := w.Fetch(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(nil); err != nil {
		t.Fatal(err)
	}
	rdr, err := file.OpenParquetFile(filepath.Join(dir, "fetches.parquet"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	md := rdr.MetaData()
	if md.NumRowGroups() != 3 {
		t.Errorf("got %d row groups, want 3", md.NumRowGroups())
	}
	for g := range md.NumRowGroups() {
		rg := md.RowGroup(g)
		for c := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			name := cc.PathInSchema().String()
			st, err := cc.Statistics()
			if err != nil || st == nil {
				t.Errorf("row group %d: %s: no statistics (%v)", g, name, err)
				continue
			}
			if !st.HasNullCount() {
				t.Errorf("row group %d: %s: no null count", g, name)
			}
			if !st.HasMinMax() {
				t.Errorf("row group %d: %s: no min/max", g, name)
				continue
			}
			if name != "url" {
				continue
			}
			bs := st.(*metadata.ByteArrayStatistics)
			lo, hi := bs.Min(), bs.Max()
			if len(lo) > statsTruncate || len(hi) > statsTruncate {
				t.Errorf("row group %d: url min %q max %q longer than %d bytes", g, lo, hi, statsTruncate)
			}
			for _, u := range urls[g*5000 : min((g+1)*5000, n)] {
				if bytes.Compare(lo, []byte(u)) > 0 || bytes.Compare(hi, []byte(u)) < 0 {
					t.Fatalf("row group %d: url %q outside [%q, %q]", g, u, lo, hi)
				}
			}
		}
	}
}
