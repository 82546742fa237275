//go:build cgo

package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/queries"
	"github.com/repaudit/repaudit/table"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func openFixture(t *testing.T) (*DB, *table.Collector) {
	t.Helper()
	c := fixture()
	return openCollector(t, c), c
}

// openCollector writes c as an audit directory and opens it.
func openCollector(t *testing.T, c *table.Collector) *DB {
	t.Helper()
	dir := writeAudit(t, c, fixtureManifest())
	db, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// buildCollector is the report of c.
func buildCollector(t *testing.T, c *table.Collector) *Report {
	t.Helper()
	r, err := openCollector(t, c).Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestOpenRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("missing", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "nope")
		_, err := Open(ctx, dir)
		if err == nil || !strings.Contains(err.Error(), dir) {
			t.Fatalf("got %v, want an error naming %s", err, dir)
		}
	})
	t.Run("no manifest", func(t *testing.T) {
		dir := t.TempDir()
		_, err := Open(ctx, dir)
		if !errors.Is(err, ErrIncomplete) || !errors.Is(err, output.ErrNoManifest) || !strings.Contains(err.Error(), dir) {
			t.Fatalf("got %v, want ErrIncomplete naming %s", err, dir)
		}
	})
	t.Run("killed run", func(t *testing.T) {
		parent := t.TempDir()
		w, err := output.Create(filepath.Join(parent, "audit"), output.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		w.Fetch(&table.Fetch{Agent: "GPTBot"})
		partials, _ := filepath.Glob(filepath.Join(parent, "audit.partial-*"))
		if len(partials) != 1 {
			t.Fatalf("got %v", partials)
		}
		if _, err := Open(ctx, partials[0]); !errors.Is(err, ErrIncomplete) {
			t.Errorf("partial dir: got %v, want ErrIncomplete", err)
		}
	})
	t.Run("newer schema", func(t *testing.T) {
		m := fixtureManifest()
		m.SchemaVersion = table.SchemaVersion + 1
		dir := writeAudit(t, &table.Collector{}, m)
		if _, err := Open(ctx, dir); !errors.Is(err, ErrNewerSchema) {
			t.Errorf("got %v, want ErrNewerSchema", err)
		}
	})
	t.Run("table missing", func(t *testing.T) {
		dir := writeAudit(t, &table.Collector{}, fixtureManifest())
		os.Remove(filepath.Join(dir, "problems.parquet"))
		if _, err := Open(ctx, dir); err == nil || !strings.Contains(err.Error(), "problems") {
			t.Errorf("got %v, want an error naming the missing table", err)
		}
	})
}

// TestViews checks DuckDB reads every table with the rows, types and values
// the writer wrote.
func TestViews(t *testing.T) {
	t.Parallel()
	db, c := openFixture(t)
	ctx := context.Background()
	want := map[string]int{"fetches": len(c.Fetches), "violations": len(c.Violations),
		"robots_versions": len(c.RobotsVersions), "robots_rules": len(c.RobotsRules),
		"directives": len(c.Directives), "retention": len(c.Retentions), "problems": len(c.Problems)}
	for _, info := range table.Tables {
		res, err := db.Query(ctx, "SELECT count(*) AS n FROM "+info.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Rows[0][0]; got != int64(want[info.Name]) {
			t.Errorf("%s: got %v rows, want %d", info.Name, got, want[info.Name])
		}
		if db.Manifest().Counts[info.Name] != int64(want[info.Name]) {
			t.Errorf("manifest counts[%s]: got %d", info.Name, db.Manifest().Counts[info.Name])
		}
	}
	res, err := db.Query(ctx, `SELECT fetch_time, robots_view_time, agent, fetch_status, warc_record_offset, user_triggered
		FROM fetches ORDER BY fetch_time, source_line`)
	if err != nil {
		t.Fatal(err)
	}
	wantTypes := []string{"TIMESTAMPTZ", "TIMESTAMPTZ", "VARCHAR", "INTEGER", "BIGINT", "BOOLEAN"}
	for i, typ := range wantTypes {
		if res.Types[i] != typ {
			t.Errorf("column %s: got type %s, want %s", res.Columns[i], res.Types[i], typ)
		}
	}
	first := res.Rows[0]
	if got := first[0].(time.Time); !got.Equal(ts("2025-03-01T09:00:00Z")) || got.Location() != time.UTC {
		t.Errorf("fetch_time: got %v, want 2025-03-01T09:00:00Z in UTC", got)
	}
	if got := first[1].(time.Time); !got.Equal(ts("2025-03-01T08:00:00Z")) {
		t.Errorf("robots_view_time: got %v", got)
	}
	if first[2] != "GPTBot" || first[3] != int64(200) || first[4] != int64(-1) || first[5] != false {
		t.Errorf("first row: got %v", first)
	}
	// The browser fetch has no robots view: null, not a made-up time.
	res, err = db.Query(ctx, "SELECT robots_view_time FROM fetches WHERE agent = ''")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || res.Rows[0][0] != nil {
		t.Errorf("browser robots_view_time: got %v, want one null", res.Rows)
	}
	if _, err := db.Query(ctx, "SELECT nope FROM fetches"); err == nil {
		t.Error("bad SQL: got nil error")
	}
}

// TestAllQueriesRun runs every file of package queries against the fixture.
// ownFixture are the queries the shared fixture gives no rows, each
// covered by a small audit of its own (usage_test.go, declared_test.go):
// adding its rows to the fixture would change every count the other tests
// check.
var ownFixture = map[string]bool{"usage_reserved": true, "declared_compliance": true}

func TestAllQueriesRun(t *testing.T) {
	t.Parallel()
	db, _ := openFixture(t)
	ctx := context.Background()
	for _, name := range queries.Names() {
		rows, err := db.conn.QueryContext(ctx, queries.Query(name))
		if err != nil {
			t.Errorf("%s.sql: %v", name, err)
			continue
		}
		n := 0
		for rows.Next() {
			n++
		}
		if err := rows.Err(); err != nil {
			t.Errorf("%s.sql: %v", name, err)
		}
		rows.Close()
		if n == 0 && !ownFixture[name] {
			t.Errorf("%s.sql: no rows on a fixture that covers it", name)
		}
	}
}

// row returns the section's rows as maps keyed by column, for lookups.
func rows(t *testing.T, r *Report, id string) []map[string]any {
	t.Helper()
	s := r.Section(id)
	if s == nil {
		t.Fatalf("no section %s", id)
	}
	out := make([]map[string]any, len(s.Rows))
	for i, row := range s.Rows {
		out[i] = make(map[string]any)
		for j, c := range s.Columns {
			out[i][c] = row[j]
		}
	}
	return out
}

func find(rows []map[string]any, col string, v any) map[string]any {
	for _, r := range rows {
		if r[col] == v {
			return r
		}
	}
	return nil
}

// buildCheck is one cell of a built report: the row of section whose
// keyCol is key, and the value want of its column col.
type buildCheck struct {
	section, keyCol string
	key             any
	col             string
	want            any
}

// buildChecks are cells of the fixture's report, by section.
var buildChecks = []buildCheck{
	// GPTBot: one verified and one claimed fetch; its spoofed fetch is
	// counted but the spoofed findings are not attributed.
	{"crawlers", "agent", "GPTBot", "fetches", int64(2)},
	{"crawlers", "agent", "GPTBot", "verified", int64(1)},
	{"crawlers", "agent", "GPTBot", "claimed", int64(1)},
	{"crawlers", "agent", "GPTBot", "spoofed", int64(1)},
	{"crawlers", "agent", "GPTBot", "findings", int64(1)},
	{"crawlers", "agent", "GPTBot", "findings_by_kind", "disallowed_fetch 1"},
	{"crawlers", "agent", "GPTBot", "operator", "OpenAI"},
	{"crawlers", "agent", "GPTBot", "last_robots_check", ts("2025-03-01T08:00:00Z")},
	{"crawlers", "agent", "ClaudeBot", "findings_by_kind", "fetch_while_unreachable 1"},
	{"crawlers", "agent", "ClaudeBot", "spoofed", int64(1)},
	// A bot known only from an index listing still appears.
	{"crawlers", "agent", "PerplexityBot", "findings", int64(1)},
	{"crawlers", "agent", "PerplexityBot", "fetches", int64(0)},
	{"user_fetchers", "agent", "ChatGPT-User", "fetches", int64(1)},
	{"user_fetchers", "agent", "ChatGPT-User", "findings", int64(1)},
	{"crawler_vs_user", "fetcher", "crawler", "findings", int64(3)},
	{"crawler_vs_user", "fetcher", "user-triggered", "fetches", int64(1)},
	{"spoofed", "claimed_agent", "GPTBot", "findings", int64(2)},
	{"spoofed", "claimed_agent", "GPTBot", "findings_by_kind", "ip_not_published 1, unchecked_disallowed 1"},
	{"spoofed", "claimed_agent", "ClaudeBot", "findings_by_kind", "invalid_signature 1"},
	{"findings_by_kind", "kind", "disallowed_fetch", "findings", int64(2)},
	{"findings_by_kind", "kind", "disallowed_fetch", "agents", int64(2)},
	{"findings_by_kind", "kind", "ip_not_published", "spoofed", int64(1)},
	{"findings_by_kind", "kind", "ip_not_published", "attributed", int64(0)},
	{"impersonation", "agent", "GPTBot", "ip_not_in_range", int64(1)},
	{"impersonation", "agent", "GPTBot", "ip_not_published", int64(1)},
	{"impersonation", "agent", "GPTBot", "ip_list_not_given", int64(1)},
	{"impersonation", "agent", "ClaudeBot", "sig_invalid", int64(1)},
	{"signatures", "signature", "invalid", "reasons", "bad-signature"},
	{"signatures", "signature", "verified", "agent", "ChatGPT-User"},
	{"unverifiable", "source_format", "combined", "unverifiable", int64(4)},
	{"unverifiable", "source_format", "nginx-json", "unverifiable", int64(0)},
	{"top_paths", "url_path", "/private/a", "findings", int64(3)},
	{"top_paths", "url_path", "/private/a", "agents", "ClaudeBot, GPTBot, PerplexityBot"},
	{"top_paths", "url_path", "/private/b", "agents", ""},
	{"robots_timeline", "version_id", "example.com@20250302T100000Z-cd34", "effect", "disallow_all"},
	{"robots_timeline", "version_id", "example.com@20250302T100000Z-cd34", "valid_until", nil},
	{"retention_due", "action", "delete", "status", "due"},
	{"retention_due", "action", "embargo", "status", "upcoming"},
	{"retention_due", "action", "review", "status", "due"},
	{"retention_due", "action", "delete", "example_record", "site.warc.gz:1024"},
	{"retention_upcoming", "url", "https://example.com/news/c", "record", "site.warc.gz:5000"},
	{"problems", "code", "log-unparsed-line", "problems", int64(2)},
	{"problems", "code", "log-unparsed-line", "example_location", "access.log:5"},
	{"problems", "code", "warc-truncated-gzip", "example_location", "site.warc.gz@12345"},
	{"findings_over_time", "agent", "GPTBot (spoofed)", "findings", int64(2)},
}

func TestBuild(t *testing.T) {
	t.Parallel()
	db, _ := openFixture(t)
	r, err := db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range buildChecks {
		row := find(rows(t, r, c.section), c.keyCol, c.key)
		if row == nil {
			t.Errorf("%s: no row with %s = %v", c.section, c.keyCol, c.key)
			continue
		}
		got := row[c.col]
		if gt, ok := got.(time.Time); ok {
			if wt, ok := c.want.(time.Time); ok && gt.Equal(wt) {
				continue
			}
		}
		if got != c.want {
			t.Errorf("%s[%s=%v].%s: got %#v, want %#v", c.section, c.keyCol, c.key, c.col, got, c.want)
		}
	}
	if n := len(rows(t, r, "retention_due")); n != 3 {
		t.Errorf("retention_due: got %d rows, want 3 (keep left out)", n)
	}
	if row := find(rows(t, r, "user_fetchers"), "agent", "GPTBot"); row != nil {
		t.Error("GPTBot listed as a user-triggered fetcher")
	}
	if row := find(rows(t, r, "crawlers"), "agent", ""); row != nil {
		t.Error("clients without a bot identity listed as a bot")
	}
	for _, want := range []string{"7 findings: 4 attributed to bots, 3 by spoofed clients", "7 fetches: 6 by 3 bots, 1 by other clients"} {
		if !strings.Contains(strings.Join(r.summaryLines(), "\n"), want) {
			t.Errorf("summary lacks %q: %v", want, r.summaryLines())
		}
	}
	// The unverifiable count is said in the signature section, with why,
	// not among the headline lines.
	const unverifiable = "4 bot fetches came from sources that cannot show signature headers"
	if strings.Contains(strings.Join(r.summaryLines(), "\n"), unverifiable) {
		t.Errorf("summary still says %q: %v", unverifiable, r.summaryLines())
	}
	if rm := r.Section("signatures").Remarks; len(rm) != 1 || !strings.HasPrefix(rm[0], unverifiable) ||
		!strings.Contains(rm[0], "Signature-Input") {
		t.Errorf("signatures remarks: got %q, want one starting %q that names the headers", rm, unverifiable)
	}
}

// TestAsOfMissing: without an as-of time every retention action is due.
func TestAsOfMissing(t *testing.T) {
	t.Parallel()
	m := fixtureManifest()
	m.AsOf = ""
	dir := writeAudit(t, fixture(), m)
	db, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if row := find(rows(t, r, "retention_due"), "action", "embargo"); row == nil || row["status"] != "due" {
		t.Errorf("embargo without as_of: got %v, want due", row)
	}
}

func TestEmptyAudit(t *testing.T) {
	t.Parallel()
	dir := writeAudit(t, &table.Collector{}, &output.Manifest{Version: "x"})
	db, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, write := range []func(*bytes.Buffer) error{
		func(b *bytes.Buffer) error { return r.WriteText(b) },
		func(b *bytes.Buffer) error { return r.WriteMarkdown(b) },
		func(b *bytes.Buffer) error { return r.WriteJSON(b) },
		func(b *bytes.Buffer) error { return r.WriteHTML(b) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		if b.Len() == 0 {
			t.Error("empty output")
		}
	}
}

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run go test ./report -update and review the diff)\n--- got ---\n%s", path, got)
	}
}

func TestGolden(t *testing.T) {
	t.Parallel()
	db, _ := openFixture(t)
	r, err := db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var md, js, txt bytes.Buffer
	must(t, r.WriteMarkdown(&md))
	must(t, r.WriteJSON(&js))
	must(t, r.WriteText(&txt))
	golden(t, "report.md", md.Bytes())
	golden(t, "report.json", js.Bytes())
	golden(t, "report.txt", txt.Bytes())
	var v map[string]any
	if err := json.Unmarshal(js.Bytes(), &v); err != nil {
		t.Fatalf("report JSON does not parse: %v", err)
	}
	if _, ok := v["timings"]; ok {
		t.Error("JSON report has wall-clock timings")
	}
	for i, l := range strings.Split(txt.String(), "\n") {
		if n := utf8.RuneCountInString(l); n > textWidth {
			t.Errorf("text line %d is %d columns wide: %q", i+1, n, l)
		}
	}
	// The same data gives the same report.
	r2, err := db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var js2 bytes.Buffer
	must(t, r2.WriteJSON(&js2))
	if !bytes.Equal(js.Bytes(), js2.Bytes()) {
		t.Error("two builds of one audit differ")
	}
}

func TestWriteResult(t *testing.T) {
	t.Parallel()
	res := &Result{
		Columns: []string{"agent", "n", "t", "d", "x"},
		Types:   []string{"VARCHAR", "BIGINT", "TIMESTAMPTZ", "DATE", "DOUBLE"},
		Rows: [][]any{
			{"GPTBot", int64(3), ts("2025-03-01T09:00:00Z"), ts("2025-03-01T00:00:00Z"), 1.5},
			{"a,\"b\"\nc", nil, nil, nil, nil},
		},
	}
	tests := []struct{ format, want string }{
		{"csv", "agent,n,t,d,x\nGPTBot,3,2025-03-01T09:00:00Z,2025-03-01,1.5\n\"a,\"\"b\"\"\nc\",,,,\n"},
		{"json", `[
  {
    "agent": "GPTBot",
    "n": 3,
    "t": "2025-03-01T09:00:00Z",
    "d": "2025-03-01",
    "x": 1.5
  },
  {
    "agent": "a,\"b\"\nc",
    "n": null,
    "t": null,
    "d": null,
    "x": null
  }
]
`},
		{"table", "agent    n  t                    d             x\n" +
			"-------  -  -------------------  ----------  ---\n" +
			"GPTBot   3  2025-03-01 09:00:00  2025-03-01  1.5\n" +
			"a,\"b\" c\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteResult(&b, res, tt.format); err != nil {
			t.Fatalf("%s: %v", tt.format, err)
		}
		if b.String() != tt.want {
			t.Errorf("%s: got\n%q\nwant\n%q", tt.format, b.String(), tt.want)
		}
	}
	if err := WriteResult(&bytes.Buffer{}, res, "xml"); err == nil {
		t.Error("unknown format: got nil error")
	}
}

func TestQueryN(t *testing.T) {
	t.Parallel()
	db, c := openFixture(t)
	res, err := db.QueryN(context.Background(), "SELECT * FROM fetches", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 || res.More != int64(len(c.Fetches)-2) {
		t.Errorf("got %d rows and %d more, want 2 and %d", len(res.Rows), res.More, len(c.Fetches)-2)
	}
}

// TestExport checks streaming gives the same bytes as WriteResult.
func TestExport(t *testing.T) {
	t.Parallel()
	db, _ := openFixture(t)
	ctx := context.Background()
	for _, q := range []string{
		"SELECT agent, fetch_time, fetch_status, robots_view_time FROM fetches ORDER BY fetch_time",
		"SELECT agent FROM fetches WHERE false",
	} {
		res, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"csv", "json", "table"} {
			var want, got bytes.Buffer
			must(t, WriteResult(&want, res, format))
			must(t, db.Export(ctx, &got, q, format))
			if got.String() != want.String() {
				t.Errorf("%s %q: Export gave\n%s\nWriteResult gave\n%s", format, q, got.String(), want.String())
			}
			if format == "json" {
				var v []map[string]any
				if err := json.Unmarshal(got.Bytes(), &v); err != nil || len(v) != len(res.Rows) {
					t.Errorf("json %q: got %d rows, err %v", q, len(v), err)
				}
			}
		}
	}
	if err := db.Export(ctx, &bytes.Buffer{}, "SELECT 1", "xml"); err == nil {
		t.Error("unknown format: got nil error")
	}
}

// TestSplitSectionCap: rows past the cap of a split query are counted
// for the part they can belong to, not for the complete parts before it.
func TestSplitSectionCap(t *testing.T) {
	t.Parallel()
	c := &table.Collector{}
	at := ts("2025-03-01T00:00:00Z")
	// 5001 bots on two days: 5001 total rows, then 10002 day rows.
	for i := range 5001 {
		for d := range 2 {
			c.Fetches = append(c.Fetches, table.Fetch{FetchTime: at.AddDate(0, 0, d), Agent: fmt.Sprintf("Bot%05d", i),
				Identity: "claimed", URL: "https://example.com/", URLHostName: "example.com", URLPath: "/",
				ResponseBytes: 100, WARCRecordOffset: -1})
		}
	}
	dir := writeAudit(t, c, &output.Manifest{})
	db, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	total, days := r.Section("traffic_by_bot"), r.Section("traffic_per_day")
	if len(total.Rows) != 5001 || total.More != 0 {
		t.Errorf("traffic_by_bot: got %d rows and %d more, want 5001 and 0", len(total.Rows), total.More)
	}
	if len(days.Rows) != maxSectionRows-5001 || days.More != 5001+10002-maxSectionRows {
		t.Errorf("traffic_per_day: got %d rows and %d more, want %d and %d", len(days.Rows), days.More,
			maxSectionRows-5001, 5001+10002-maxSectionRows)
	}
}

// TestSectionCap: a section keeps at most maxSectionRows rows and counts
// the rest; the text report says how many it did not show.
func TestSectionCap(t *testing.T) {
	t.Parallel()
	c := &table.Collector{}
	for i := range maxSectionRows + 5 {
		c.Problems = append(c.Problems, table.Problem{SourceFile: "a.log", SourceLine: int64(i + 1), Offset: -1,
			Code: fmt.Sprintf("code-%05d", i), Severity: "error", Message: "m"})
	}
	dir := writeAudit(t, c, &output.Manifest{})
	db, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := r.Section("problems")
	if len(s.Rows) != maxSectionRows || s.More != 5 {
		t.Fatalf("got %d rows and %d more, want %d and 5", len(s.Rows), s.More, maxSectionRows)
	}
	var b bytes.Buffer
	must(t, r.WriteText(&b))
	if want := fmt.Sprintf("… %d more rows", maxSectionRows+5-maxTableRows); !strings.Contains(b.String(), want) {
		t.Errorf("text report lacks %q", want)
	}
}

func TestTruncate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s           string
		n           int
		right, left string
	}{
		{"abcdef", 6, "abcdef", "abcdef"},
		{"abcdef", 4, "abc…", "…def"},
		{"logs/a.log:33", 8, "logs/a.…", "….log:33"},
		{"ééééé", 3, "éé…", "…éé"},
		{"abc", 1, "…", "…"},
	}
	for _, tt := range tests {
		if got := truncate(tt.s, tt.n); got != tt.right {
			t.Errorf("truncate(%q, %d): got %q, want %q", tt.s, tt.n, got, tt.right)
		}
		if got := truncateLeft(tt.s, tt.n); got != tt.left {
			t.Errorf("truncateLeft(%q, %d): got %q, want %q", tt.s, tt.n, got, tt.left)
		}
	}
	if got := plural(1, "authority", "authorities") + "," + plural(2, "authority", "authorities"); got != "1 authority,2 authorities" {
		t.Errorf("plural: got %q", got)
	}
}
