package output

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/repaudit/repaudit/table"
)

var base = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// fill sets every field of the struct v to a value derived from the row
// number and the field index, so every column of every row differs. Every
// third row has nil optional times.
func fill(v reflect.Value, row int) {
	t := v.Type()
	for i := range v.NumField() {
		f := v.Field(i)
		switch {
		case f.Type() == timeType:
			f.Set(reflect.ValueOf(base.Add(time.Duration(row)*time.Hour + time.Duration(i)*time.Microsecond)))
		case f.Type() == timePtrType:
			if row%3 != 0 {
				tm := base.Add(time.Duration(row)*time.Minute + time.Duration(i)*time.Second)
				f.Set(reflect.ValueOf(&tm))
			}
		case f.Kind() == reflect.String:
			f.SetString(fmt.Sprintf("%s-%d-é", t.Field(i).Name, row))
		case f.Kind() == reflect.Bool:
			f.SetBool((row+i)%2 == 0)
		case f.Kind() == reflect.Int32, f.Kind() == reflect.Int64:
			f.SetInt(int64(row*100 + i - 50))
		case f.Kind() == reflect.Float64:
			f.SetFloat(float64(row) + float64(i)/4)
		default:
			panic("fill: unsupported field " + t.Field(i).Name)
		}
	}
}

// sampleRows returns n filled rows of the table's row type, as pointers.
func sampleRows(info table.Info, n int) []reflect.Value {
	out := make([]reflect.Value, n)
	for i := range out {
		p := reflect.New(reflect.TypeOf(info.Row))
		fill(p.Elem(), i)
		out[i] = p
	}
	return out
}

// sinkMethod returns the table.Sink method that takes rows of the table.
func sinkMethod(t *testing.T, w *Writer, info table.Info) reflect.Value {
	t.Helper()
	rt := reflect.PointerTo(reflect.TypeOf(info.Row))
	wv := reflect.ValueOf(w)
	for i := range wv.NumMethod() {
		m := wv.Method(i)
		if m.Type().NumIn() == 1 && m.Type().In(0) == rt && m.Type().NumOut() == 1 {
			return m
		}
	}
	t.Fatalf("Writer has no method taking %s", rt)
	return reflect.Value{}
}

// want returns field f of a row in the shape cell returns.
func want(f reflect.Value) any {
	switch {
	case f.Type() == timeType:
		tm := f.Interface().(time.Time)
		return &tm
	case f.Type() == timePtrType:
		return f.Interface().(*time.Time)
	case f.Kind() == reflect.Int32, f.Kind() == reflect.Int64:
		return f.Int()
	}
	return f.Interface()
}

func equalCell(a, b any) bool {
	ta, ok1 := a.(*time.Time)
	tb, ok2 := b.(*time.Time)
	if ok1 && ok2 {
		if ta == nil || tb == nil {
			return ta == nil && tb == nil
		}
		return ta.Equal(*tb)
	}
	return a == b
}

func TestWriteReadBack(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	w, err := Create(dir, Options{RowGroupRows: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	// Row counts per table, including an empty table.
	sizes := map[string]int{"fetches": 10, "violations": 3, "robots_versions": 4,
		"robots_rules": 5, "directives": 0, "retention": 1, "problems": 9}
	rows := make(map[string][]reflect.Value)
	for _, info := range table.Tables {
		n, ok := sizes[info.Name]
		if !ok {
			t.Fatalf("test does not cover table %s", info.Name)
		}
		rows[info.Name] = sampleRows(info, n)
		m := sinkMethod(t, w, info)
		for _, r := range rows[info.Name] {
			if out := m.Call([]reflect.Value{r}); !out[0].IsNil() {
				t.Fatalf("%s: %v", info.Name, out[0].Interface())
			}
		}
	}
	m := &Manifest{Version: "test", AsOf: "2025-03-02T00:00:00Z",
		Inputs: []Input{{Path: "a.log", Size: 10, SHA256: "00", Kind: "log", Format: "combined", Records: 10}}}
	if err := w.Commit(m); err != nil {
		t.Fatal(err)
	}
	for _, info := range table.Tables {
		t.Run(info.Name, func(t *testing.T) {
			spec, err := specFor(info)
			if err != nil {
				t.Fatal(err)
			}
			tbl, groups := readTable(t, filepath.Join(dir, info.Name+".parquet"))
			n := sizes[info.Name]
			if got := int(tbl.rows); got != n {
				t.Fatalf("got %d rows, want %d", got, n)
			}
			if wantGroups := (n + 3) / 4; groups != wantGroups {
				t.Errorf("got %d row groups, want %d", groups, wantGroups)
			}
			if got, want := len(tbl.names), reflect.TypeOf(info.Row).NumField(); got != want {
				t.Fatalf("got %d columns, want %d (one per struct field)", got, want)
			}
			for ci, c := range spec.Cols {
				if got := tbl.names[ci]; got != c.Name {
					t.Errorf("column %d: got name %q, want %q", ci, got, c.Name)
				}
				col := tbl.cols[ci]
				for ri, r := range rows[info.Name] {
					got := cell(t, col, ri)
					w := want(r.Elem().Field(c.Field))
					if !equalCell(got, w) {
						t.Errorf("row %d column %s: got %v, want %v", ri, c.Name, got, w)
					}
				}
			}
		})
	}
	got, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range sizes {
		if got.Counts[name] != int64(n) {
			t.Errorf("manifest counts[%s]: got %d, want %d", name, got.Counts[name], n)
		}
	}
	if got.Tool != "repaudit" || got.SchemaVersion != table.SchemaVersion || got.Version != "test" ||
		len(got.Inputs) != 1 || got.Inputs[0] != m.Inputs[0] || got.AsOf != m.AsOf {
		t.Errorf("manifest round trip: got %+v", got)
	}
	// Nothing else is left next to the output directory.
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("got %d entries next to the output, want only the output: %v", len(entries), entries)
	}
}

// TestValues checks the value mapping rules on hand-written rows: invalid
// UTF-8 is replaced, zero and out-of-range times become null, nil *time.Time
// is null, negative offsets stay.
func TestValues(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	w, err := Create(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	view := time.Date(2025, 1, 2, 3, 4, 5, 678901234, time.FixedZone("X", 3600))
	rows := []table.Fetch{
		{FetchTime: base, Agent: "GPTBot", UserAgent: "bad\xffbyte", RobotsViewTime: &view,
			FetchStatus: 200, WARCRecordOffset: -1, SourceLine: 7, UserTriggered: true},
		{FetchTime: time.Time{}, Agent: "", URL: "https://example.com/ä"},
		{FetchTime: time.Date(12000, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	for i := range rows {
		if err := w.Fetch(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(nil); err != nil {
		t.Fatal(err)
	}
	tbl, _ := readTable(t, filepath.Join(dir, "fetches.parquet"))
	col := func(name string) []any { return tbl.col(t, name) }
	viewUTC := time.Date(2025, 1, 2, 2, 4, 5, 678901000, time.UTC)
	tests := []struct {
		col  string
		row  int
		want any
	}{
		{"agent", 0, "GPTBot"},
		{"user_agent", 0, "bad\uFFFDbyte"},
		{"robots_view_time", 0, &viewUTC},
		{"robots_view_time", 1, (*time.Time)(nil)},
		{"fetch_time", 0, &base},
		{"fetch_time", 1, (*time.Time)(nil)},
		{"fetch_time", 2, (*time.Time)(nil)},
		{"fetch_status", 0, int64(200)},
		{"warc_record_offset", 0, int64(-1)},
		{"source_line", 0, int64(7)},
		{"user_triggered", 0, true},
		{"user_triggered", 1, false},
		{"url", 1, "https://example.com/ä"},
	}
	for _, tt := range tests {
		if got := cell(t, col(tt.col), tt.row); !equalCell(got, tt.want) {
			t.Errorf("%s row %d: got %v, want %v", tt.col, tt.row, got, tt.want)
		}
	}
	if tbl.arrow == nil {
		t.Fatal("no ARROW:schema in the footer")
	}
	ts := tbl.arrow.Field(0).Type.(*arrow.TimestampType)
	if ts.Unit != arrow.Microsecond || ts.TimeZone != "UTC" {
		t.Errorf("fetch_time type: got %v, want timestamp[us, tz=UTC]", ts)
	}
	for _, f := range tbl.arrow.Fields() {
		if f.Name == "agent" && f.Nullable {
			t.Errorf("agent: got nullable, want required")
		}
		if f.Name == "robots_view_time" && !f.Nullable {
			t.Errorf("robots_view_time: got required, want nullable")
		}
	}
}

// TestKilledRun simulates a process killed mid-write: rows written, no
// Commit and no Abort. The final directory must not exist, and what is in
// the temporary directory must not look like a finished run.
func TestKilledRun(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "audit")
	w, err := Create(dir, Options{RowGroupRows: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range sampleRows(table.Tables[0], 5) {
		if err := w.Fetch(r.Interface().(*table.Fetch)); err != nil {
			t.Fatal(err)
		}
	}
	// The process dies here.
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("stat %s: got %v, want not exist", dir, err)
	}
	if _, err := ReadManifest(dir); !errors.Is(err, ErrNoManifest) {
		t.Errorf("ReadManifest: got %v, want ErrNoManifest", err)
	}
	partials, _ := filepath.Glob(filepath.Join(parent, "audit.partial-*"))
	if len(partials) != 1 {
		t.Fatalf("got partial dirs %v, want one", partials)
	}
	if _, err := os.Stat(filepath.Join(partials[0], ManifestName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("partial dir has a manifest (err %v)", err)
	}
	for _, info := range table.Tables {
		p := filepath.Join(partials[0], info.Name+".parquet")
		if r, err := file.OpenParquetFile(p, false); err == nil {
			r.Close()
			t.Errorf("%s: an unfinished table opens as a complete Parquet file", info.Name)
		}
	}
	w.Abort()
}

// TestAbortMidWrite: a cancelled run calls Abort; nothing is left.
func TestAbortMidWrite(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "audit")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := Create(dir, Options{RowGroupRows: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range sampleRows(table.Tables[0], 10) {
		if i == 5 {
			cancel()
		}
		if ctx.Err() != nil {
			break
		}
		if err := w.Fetch(r.Interface().(*table.Fetch)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 0 {
		t.Errorf("after Abort: got %v in parent, want nothing", entries)
	}
	if err := w.Fetch(&table.Fetch{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Fetch after Abort: got %v, want ErrClosed", err)
	}
	if err := w.Commit(nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Commit after Abort: got %v, want ErrClosed", err)
	}
}

// writeOne writes a run of one fetch by agent to dir with opts and
// commits it with agent as the manifest version.
func writeOne(t *testing.T, dir string, opts Options, agent string) error {
	t.Helper()
	w, err := Create(dir, opts)
	if err != nil {
		return err
	}
	defer w.Abort()
	if err := w.Fetch(&table.Fetch{Agent: agent, FetchTime: base}); err != nil {
		t.Fatal(err)
	}
	return w.Commit(&Manifest{Version: agent})
}

// TestExistingDir checks which existing paths an output may be written to.
func TestExistingDir(t *testing.T) {
	t.Run("non-empty refused", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
		if err := writeOne(t, dir, Options{}, "a"); !errors.Is(err, ErrExists) {
			t.Fatalf("got %v, want ErrExists", err)
		}
		if err := writeOne(t, dir, Options{Force: true}, "a"); !errors.Is(err, ErrNotOutputDir) {
			t.Fatalf("force on a foreign dir: got %v, want ErrNotOutputDir", err)
		}
		if data, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(data) != "mine" {
			t.Errorf("foreign file changed: %q, %v", data, err)
		}
	})
	t.Run("force on parquet files without a manifest refused", func(t *testing.T) {
		for name, manifest := range map[string]string{
			"no manifest":      "",
			"foreign manifest": `{"tool": "sparkexport", "version": "3"}`,
			"broken manifest":  `{"tool": "repaudit"`,
		} {
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				os.WriteFile(filepath.Join(dir, "part-0001.parquet"), []byte("PAR1 someone else's data PAR1"), 0o644)
				if manifest != "" {
					os.WriteFile(filepath.Join(dir, ManifestName), []byte(manifest), 0o644)
				}
				if err := writeOne(t, dir, Options{Force: true}, "a"); !errors.Is(err, ErrNotOutputDir) {
					t.Fatalf("got %v, want ErrNotOutputDir", err)
				}
				if data, err := os.ReadFile(filepath.Join(dir, "part-0001.parquet")); err != nil || !strings.Contains(string(data), "someone else's") {
					t.Errorf("foreign table changed: %q, %v", data, err)
				}
			})
		}
	})
	t.Run("empty accepted", func(t *testing.T) {
		dir := t.TempDir()
		if err := writeOne(t, dir, Options{}, "a"); err != nil {
			t.Fatal(err)
		}
		if m, err := ReadManifest(dir); err != nil || m.Version != "a" {
			t.Fatalf("got %v, %v", m, err)
		}
	})
	t.Run("file refused", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "f")
		os.WriteFile(p, nil, 0o644)
		if err := writeOne(t, p, Options{Force: true}, "a"); err == nil || !strings.Contains(err.Error(), "not a directory") {
			t.Fatalf("got %v, want not a directory", err)
		}
	})
	t.Run("missing parents created", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "a", "b", "out")
		if err := writeOne(t, dir, Options{}, "a"); err != nil {
			t.Fatal(err)
		}
	})
}

// TestExistingDirReplace checks writing into an empty mount point and
// replacing an earlier run with Force only at commit.
func TestExistingDirReplace(t *testing.T) {
	t.Run("empty mount point written in place", func(t *testing.T) {
		// A mount point (a container's volume) cannot be renamed, moved
		// aside or replaced: the tables are written into it.
		dir := filepath.Join(t.TempDir(), "vol")
		os.Mkdir(dir, 0o755)
		defer func(r func(string, string) error) { rename = r }(rename)
		rename = func(from, to string) error {
			if from == dir || to == dir {
				return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EBUSY}
			}
			return os.Rename(from, to)
		}
		if err := writeOne(t, dir, Options{}, "a"); err != nil {
			t.Fatal(err)
		}
		if m, err := ReadManifest(dir); err != nil || m.Version != "a" {
			t.Fatalf("got %v, %v", m, err)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() != ManifestName && !strings.HasSuffix(e.Name(), ".parquet") {
				t.Errorf("left in the output: %s", e.Name())
			}
		}
		if siblings, _ := os.ReadDir(filepath.Dir(dir)); len(siblings) != 1 {
			t.Errorf("leftovers next to the output: %v", siblings)
		}
	})
	t.Run("empty mount point left empty by Abort", func(t *testing.T) {
		dir := t.TempDir()
		w, err := Create(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		w.Abort()
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("aborted run left %v", entries)
		}
	})
	t.Run("force replaces at commit only", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		if err := writeOne(t, dir, Options{}, "first"); err != nil {
			t.Fatal(err)
		}
		if err := writeOne(t, dir, Options{}, "second"); !errors.Is(err, ErrExists) {
			t.Fatalf("second run without force: got %v, want ErrExists", err)
		}
		w, err := Create(dir, Options{Force: true})
		if err != nil {
			t.Fatal(err)
		}
		w.Fetch(&table.Fetch{Agent: "second"})
		if m, err := ReadManifest(dir); err != nil || m.Version != "first" {
			t.Fatalf("before commit: got %v, %v; want the first run intact", m, err)
		}
		if err := w.Commit(&Manifest{Version: "second"}); err != nil {
			t.Fatal(err)
		}
		if m, err := ReadManifest(dir); err != nil || m.Version != "second" {
			t.Fatalf("after commit: got %v, %v", m, err)
		}
		entries, _ := os.ReadDir(filepath.Dir(dir))
		if len(entries) != 1 {
			t.Errorf("leftovers next to the output: %v", entries)
		}
	})
}

func TestOptions(t *testing.T) {
	for _, c := range []string{"", "zstd", "snappy", "gzip", "none"} {
		dir := filepath.Join(t.TempDir(), "o")
		w, err := Create(dir, Options{Compression: c})
		if err != nil {
			t.Fatalf("compression %q: %v", c, err)
		}
		w.Fetch(&table.Fetch{Agent: "x"})
		if err := w.Commit(nil); err != nil {
			t.Fatal(err)
		}
		if tbl, _ := readTable(t, filepath.Join(dir, "fetches.parquet")); tbl.rows != 1 {
			t.Errorf("compression %q: got %d rows", c, tbl.rows)
		}
	}
	if _, err := Create(filepath.Join(t.TempDir(), "o"), Options{Compression: "lzma"}); err == nil {
		t.Error("unknown compression: got nil error")
	}
}

func TestReadManifestMissing(t *testing.T) {
	if _, err := ReadManifest(t.TempDir()); !errors.Is(err, ErrNoManifest) {
		t.Errorf("got %v, want ErrNoManifest", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ManifestName), []byte("{not json"), 0o644)
	if _, err := ReadManifest(dir); err == nil {
		t.Error("bad JSON: got nil error")
	}
}

// BenchmarkWriteFetches measures Parquet rows/s for the widest table.
func BenchmarkWriteFetches(b *testing.B) {
	const n = 200_000
	rows := make([]table.Fetch, 1000)
	for i := range rows {
		fill(reflect.ValueOf(&rows[i]).Elem(), i)
		rows[i].URL = fmt.Sprintf("https://example%d.com/path/%d/page?q=%d", i%7, i, i*31)
		rows[i].Agent = []string{"GPTBot", "ClaudeBot", "Googlebot", ""}[i%4]
		rows[i].UserAgent = "Mozilla/5.0 (compatible; " + rows[i].Agent + "/1.0; +https://example.com/bot)"
	}
	b.ReportAllocs()
	for b.Loop() {
		dir := filepath.Join(b.TempDir(), "o")
		w, err := Create(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		for i := range n {
			if err := w.Fetch(&rows[i%len(rows)]); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Commit(nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestEncodings checks the layout choices reach the file. In a row group
// of adaptiveRows rows or more, strings and numbers with few distinct
// values are dictionary-encoded, whatever their column, and mostly
// distinct ones plain; a smaller row group keeps the fixed layout
// (dictionaries for dictColumns only). Statistics are kept for times and
// numbers only.
func TestEncodings(t *testing.T) {
	type enc struct{ dict, stats bool }
	for _, c := range []struct {
		rows int
		want map[string]enc
	}{
		{100, map[string]enc{
			"agent": {true, true}, "url": {false, true}, "url_path": {false, true},
			"fetch_time": {false, true}, "fetch_status": {false, true}, "response_bytes": {false, true},
		}},
		{adaptiveRows, map[string]enc{
			"agent": {true, true}, "url": {false, true}, "url_path": {true, true},
			"fetch_time": {false, true}, "fetch_status": {true, true}, "response_bytes": {true, true},
			"source_line": {false, true},
		}},
	} {
		dir := filepath.Join(t.TempDir(), "audit")
		w, err := Create(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		for i := range c.rows {
			w.Fetch(&table.Fetch{FetchTime: base.Add(time.Duration(i) * time.Second), Agent: []string{"GPTBot", "ClaudeBot"}[i%2],
				URL: fmt.Sprintf("https://example.com/%d", i), URLPath: fmt.Sprintf("/%d", i%5),
				FetchStatus: 200, ResponseBytes: int64(i % 7 * 1000), SourceLine: int64(i + 1)})
		}
		if err := w.Commit(nil); err != nil {
			t.Fatal(err)
		}
		rdr, err := file.OpenParquetFile(filepath.Join(dir, "fetches.parquet"), false)
		if err != nil {
			t.Fatal(err)
		}
		defer rdr.Close()
		rg := rdr.MetaData().RowGroup(0)
		want := c.want
		for i := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(i)
			if err != nil {
				t.Fatal(err)
			}
			name := cc.PathInSchema().String()
			w, ok := want[name]
			if !ok {
				continue
			}
			if got := dictionaryData(cc); got != w.dict {
				t.Errorf("%d rows: %s: dictionary-encoded %v, want %v (encodings %v)", c.rows, name, got, w.dict, cc.EncodingStats())
			}
			// A plain chunk has no (empty) dictionary page either.
			if got := cc.HasDictionaryPage(); got != w.dict {
				t.Errorf("%d rows: %s: dictionary page %v, want %v", c.rows, name, got, w.dict)
			}
			if got, _ := cc.StatsSet(); got != w.stats {
				t.Errorf("%d rows: %s: statistics %v, want %v", c.rows, name, got, w.stats)
			}
			delete(want, name)
		}
		if len(want) != 0 {
			t.Errorf("%d rows: columns not found: %v", c.rows, want)
		}
	}
}

// dictionaryData reports whether a column chunk's data pages are
// dictionary-encoded.
func dictionaryData(cc *metadata.ColumnChunkMetaData) bool {
	const dictionaryPage = 2 // PageType DICTIONARY_PAGE in parquet.thrift
	for _, s := range cc.EncodingStats() {
		if s.PageType != dictionaryPage && (s.Encoding == parquet.Encodings.RLEDict || s.Encoding == parquet.Encodings.PlainDict) {
			return true
		}
	}
	return false
}

// TestStickyError: the first error of one table is returned by every
// later write, of any table, and by Commit.
func TestStickyError(t *testing.T) {
	w, err := Create(filepath.Join(t.TempDir(), "out"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if err := w.Violation(&table.Violation{Kind: "k"}); err != nil {
		t.Fatal(err)
	}
	w.fetches.closed = true // the table fails its next row
	err = w.Fetch(&table.Fetch{})
	if !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "write fetches") {
		t.Fatalf("Fetch: got %v, want the fetches table's error", err)
	}
	if err2 := w.Violation(&table.Violation{Kind: "k"}); err2 != err {
		t.Errorf("Violation after the error: got %v, want %v", err2, err)
	}
	if err2 := w.Problem(&table.Problem{}); err2 != err {
		t.Errorf("Problem after the error: got %v, want %v", err2, err)
	}
	if err2 := w.Commit(nil); err2 != err {
		t.Errorf("Commit after the error: got %v, want %v", err2, err)
	}
	if err := w.Fetch(nil); err == nil {
		t.Errorf("Fetch(nil): no error")
	}
}

// TestTimeInRange: timeInRange says what the comparisons with minTime and
// maxTime say, at and around the bounds and in other zones, and appendTime
// writes a time in range as its UnixMicro.
func TestTimeInRange(t *testing.T) {
	zone := time.FixedZone("x", -5*3600)
	var times []time.Time
	for _, b := range []time.Time{minTime, maxTime, time.Unix(0, 0), time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)} {
		for _, d := range []time.Duration{-time.Second, -1, 0, 1, time.Second, 24 * time.Hour} {
			times = append(times, b.Add(d), b.Add(d).In(zone))
		}
	}
	times = append(times, time.Time{}, time.Unix(-1<<62, 0), time.Unix(1<<62, 0), time.Unix(0, -1))
	for _, at := range times {
		want := !at.IsZero() && !at.Before(minTime) && at.Before(maxTime)
		if got := timeInRange(&at); got != want {
			t.Errorf("timeInRange(%v) = %v, want %v", at, got, want)
		}
		// appendTime: null out of range, else the time's microseconds.
		var c colBuf
		c.appendTime(&at)
		if got := c.def[0] == 1; got != want || want && c.i64[0] != at.UnixMicro() {
			t.Errorf("appendTime(%v): value %d present %v, want %d present %v", at, c.i64[0], got, at.UnixMicro(), want)
		}
	}
}

// TestManifestTables: the manifest records each table file's rows, size
// and SHA-256 as the file ended up on disk.
func TestManifestTables(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	w, err := Create(dir, Options{RowGroupRows: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*table.Fetch{{URL: "https://example.com/a"}, {URL: "https://example.com/b"}, {URL: "https://example.com/c"}} {
		if err := w.Fetch(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(nil); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(m.Tables), len(table.Tables); got != want {
		t.Fatalf("manifest lists %d tables, want %d", got, want)
	}
	for _, tf := range m.Tables {
		data, err := os.ReadFile(filepath.Join(dir, tf.File))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if tf.Bytes != int64(len(data)) || tf.SHA256 != hex.EncodeToString(sum[:]) || tf.Rows != m.Counts[tf.Name] {
			t.Errorf("%s: manifest says %d bytes, %d rows, sha256 %s; file has %d bytes, %x; counts %d",
				tf.Name, tf.Bytes, tf.Rows, tf.SHA256, len(data), sum, m.Counts[tf.Name])
		}
	}
}
