package output

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/repaudit/repaudit/internal/slowtest"
	"github.com/repaudit/repaudit/table"
)

// adaptiveRow is row i of TestAdaptiveReadBack: columns that repeat, that
// are mostly distinct, that outgrow a dictionary page within a row group,
// invalid UTF-8 that becomes a value also given valid, and nullable times
// that repeat.
func adaptiveRow(i int) table.Fetch {
	r := table.Fetch{
		FetchTime: base.Add(time.Duration(i%100) * time.Second),
		Agent:     []string{"GPTBot", "ClaudeBot", "", "bad\xffagent"}[i%4],
		URL:       fmt.Sprintf("https://example.com/%d", i%50),
		URLPath:   []string{"a\xff", "a\xfe", "a\uFFFD", "/x"}[i%4],
		// 20 values given two ways each (invalid, and valid as the
		// invalid one becomes): a dictionary that outgrows the keys
		// searched one by one (smallDict) with raw invalid keys in it.
		Operator:      []string{fmt.Sprintf("op%d\xff", i/2%20), fmt.Sprintf("op%d\uFFFD", i/2%20)}[i%2],
		ClientIP:      fmt.Sprintf("192.0.2.%d", i),
		FetchStatus:   []int32{200, 404, 301}[i%3],
		ResponseBytes: int64(i%9) * 100,
		SourceLine:    int64(i + 1),
		// In no order: plain, where source_line is delta-encoded.
		WARCRecordOffset: int64(i) * 7919 * 104729 % 1_000_000_007,
		// Distinct 300-byte values: a row group's dictionary passes the
		// 1 MiB page limit after about 3500 rows and the column turns
		// plain.
		UserAgent: fmt.Sprintf("%0300d", i),
	}
	if i%3 != 0 {
		t := base.Add(time.Duration(i%5) * time.Hour)
		r.RobotsViewTime = &t
	}
	return r
}

// TestAdaptiveReadBack writes enough rows for the adaptive encodings and
// for flushes by bytes, and reads every value back.
func TestAdaptiveReadBack(t *testing.T) {
	slowtest.Skip(t, "writes 20000 rows")
	const n = 20000
	dir := filepath.Join(t.TempDir(), "o")
	w, err := Create(dir, Options{RowGroupBytes: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for i := range n {
		r := adaptiveRow(i)
		if err := w.Fetch(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "fetches.parquet")
	tbl, groups := readTable(t, path)
	if tbl.rows != n {
		t.Fatalf("got %d rows, want %d", tbl.rows, n)
	}
	// About 450 bytes a row: the 8 MiB budget flushes before 131072 rows.
	if groups < 2 {
		t.Errorf("got %d row group, want several (flushed by bytes)", groups)
	}
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	want := map[string]bool{"agent": true, "url": true, "url_path": true, "client_ip": false, "user_agent": false,
		"fetch_status": true, "response_bytes": true, "source_line": false, "robots_view_time": true, "fetch_time": true}
	rg := rdr.MetaData().RowGroup(0)
	for i := range rg.NumColumns() {
		cc, _ := rg.ColumnChunk(i)
		name := cc.PathInSchema().String()
		if d, ok := want[name]; ok && dictionaryData(cc) != d {
			t.Errorf("%s: dictionary-encoded %v, want %v (%v)", name, !d, d, cc.EncodingStats())
		}
		// Numbers in order are delta-encoded, others plain (deltaPays).
		delta := slices.Contains(cc.Encodings(), parquet.Encodings.DeltaBinaryPacked)
		if wantDelta := name == "source_line"; (name == "source_line" || name == "warc_record_offset") && delta != wantDelta {
			t.Errorf("%s: delta-encoded %v, want %v (%v)", name, delta, wantDelta, cc.Encodings())
		}
	}
	col := func(name string) []any { return tbl.col(t, name) }
	valid := func(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }
	for i := range n {
		r := adaptiveRow(i)
		checks := []struct {
			col  string
			want any
		}{
			{"agent", valid(r.Agent)}, {"url", r.URL}, {"url_path", valid(r.URLPath)}, {"operator", valid(r.Operator)},
			{"client_ip", r.ClientIP}, {"user_agent", r.UserAgent},
			{"fetch_status", int64(r.FetchStatus)}, {"response_bytes", r.ResponseBytes},
			{"source_line", r.SourceLine}, {"warc_record_offset", r.WARCRecordOffset}, {"fetch_time", &r.FetchTime}, {"robots_view_time", r.RobotsViewTime},
		}
		for _, c := range checks {
			if got := cell(t, col(c.col), i); !equalCell(got, c.want) {
				t.Fatalf("row %d %s: got %v, want %v", i, c.col, got, c.want)
			}
		}
	}
}

// TestNumDictNullsSameBytes checks that writeNumDict writes a
// dictionary-encoded time column with nulls (robots_view_time of
// adaptiveRow) as arrow-go's own dictionary encoder does, byte for byte.
func TestNumDictNullsSameBytes(t *testing.T) {
	slowtest.Skip(t, "writes 2 × 20000 rows")
	write := func(arrow bool) []byte {
		old := arrowSpacedDict
		arrowSpacedDict = arrow
		defer func() { arrowSpacedDict = old }()
		dir := filepath.Join(t.TempDir(), "o")
		w, err := Create(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		for i := range 20000 {
			r := adaptiveRow(i)
			if i >= 10000 && i%7 == 0 {
				r.RobotsViewTime = nil // a second row group with other nulls
			}
			if err := w.Fetch(&r); err != nil {
				t.Fatal(err)
			}
			if i == 9999 {
				w.fetches.flush()
			}
		}
		if err := w.Commit(nil); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, "fetches.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	mine, theirs := write(false), write(true)
	// The column must take the path under test in both row groups.
	rdr, err := file.NewParquetReader(bytes.NewReader(mine))
	if err != nil {
		t.Fatal(err)
	}
	if n := rdr.NumRowGroups(); n != 2 {
		t.Fatalf("got %d row groups, want 2", n)
	}
	for g := range 2 {
		rg := rdr.MetaData().RowGroup(g)
		i := rdr.MetaData().Schema.ColumnIndexByName("robots_view_time")
		cc, err := rg.ColumnChunk(i)
		if err != nil {
			t.Fatal(err)
		}
		st, err := cc.Statistics()
		if err != nil || st == nil {
			t.Fatalf("row group %d: no statistics (%v)", g, err)
		}
		if !dictionaryData(cc) || st.NullCount() == 0 {
			t.Fatalf("row group %d: robots_view_time dictionary-encoded %v with %d nulls, want both", g, dictionaryData(cc), st.NullCount())
		}
	}
	if !bytes.Equal(mine, theirs) {
		t.Fatalf("fetches.parquet differs: %d bytes, arrow-go's encoder %d", len(mine), len(theirs))
	}
}
