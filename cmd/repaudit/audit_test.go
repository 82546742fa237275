//go:build cgo

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/report"
	"github.com/repaudit/repaudit/table"
)

// TestAuditDemoFindings pins every finding of the demo (see
// testdata/demo/README.md for the story behind each).
func TestAuditDemoFindings(t *testing.T) {
	out := auditDemo(t)
	db, err := report.Open(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Query(context.Background(), `select kind, agent, identity, url_path, strftime(fetch_time, '%Y-%m-%dT%H:%M') from violations order by all`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Rows {
		var parts []string
		for _, v := range r {
			parts = append(parts, v.(string))
		}
		got = append(got, strings.Join(parts, " "))
	}
	want := []string{
		"acap_prohibited Applebot claimed /members/list 2025-03-12T15:31",
		"acap_prohibited ExampleArchiver  /paywalled/story 2025-03-04T00:00",
		"acap_prohibited Googlebot  /paywalled/story 2025-03-20T00:00",
		"captured_while_disallowed ExampleArchiver claimed /drafts/plan 2025-03-02T01:02",
		"crawl_delay_ignored PerplexityBot claimed /news/a 2025-03-12T09:00",
		"crawl_delay_ignored PerplexityBot claimed /news/b 2025-03-12T09:00",
		"crawl_delay_ignored PerplexityBot claimed /news/c 2025-03-12T09:00",
		"disallowed_fetch GPTBot claimed /news/today 2025-03-12T11:05",
		"fetch_while_unreachable Amazonbot claimed /about 2025-03-12T13:01",
		"fetch_while_unreachable CCBot claimed /news/a 2025-03-05T10:05",
		"invalid_signature ExampleBot spoofed /news/b 2025-03-12T16:02",
		"ip_not_published Googlebot spoofed /private/salaries 2025-03-12T14:30",
		"noindex_indexed Googlebot  /news/secret 2025-03-20T00:00",
		"nosnippet_snippeted Googlebot  /blog/post 2025-03-20T00:00",
		"possible_violation Bytespider claimed /archive/2019/old-story 2025-03-11T06:00",
		"rdns_mismatch bingbot spoofed /about 2025-03-12T14:40", // its PTR name is outside .search.msn.com (dns/ snapshot)
		"rdns_mismatch bingbot spoofed /blog/post 2025-03-12T14:41",
		"retention_expired ExampleArchiver  /events/spring 2025-03-20T01:02",
		"retention_expired ExampleArchiver  /news/a 2025-03-02T00:00",
		"retention_expired ExampleArchiver  /news/a 2025-03-02T01:01",
		"retention_expired ExampleArchiver  /news/later 2025-03-03T00:00",
		"stale_robots GPTBot claimed /blog/ai-policy 2025-03-12T10:00",
		"unchecked_disallowed Bytespider claimed /private/salaries 2025-03-12T12:00",
		"unchecked_disallowed ChatGPT-User claimed /private/report 2025-03-12T15:00",
		"unchecked_disallowed Googlebot spoofed /private/salaries 2025-03-12T14:30", // its own view: it never fetched robots.txt
		"unsigned_claimant ExampleBot spoofed /news/c 2025-03-12T16:30",
		"usage_reserved ClaudeBot claimed /news/a 2025-03-28T08:01",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Every finding kind (evaluate.Kinds, docs/findings.md) appears in the demo.
	kinds := map[string]bool{}
	for _, w := range want {
		kinds[strings.Fields(w)[0]] = true
	}
	for _, k := range evaluate.Kinds {
		if !kinds[k] {
			t.Errorf("the demo has no %s finding: every kind of the registry appears in it", k)
		}
		delete(kinds, k)
	}
	for k := range kinds {
		t.Errorf("the demo has %s findings, a kind the registry (evaluate/kinds.go) does not know", k)
	}
	// A spoofed client's findings are never attributed to the operator.
	res, err = db.Query(context.Background(), `select count(*) from violations where identity = 'spoofed' and operator <> ''`)
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Rows[0][0]; n != int64(0) {
		t.Errorf("%v spoofed findings carry an operator", n)
	}
	// Every fetch finding points back to its source line or record.
	res, err = db.Query(context.Background(), `select count(*) from violations where source_file = '' or (source_line = 0 and warc_record_offset < 0) or evidence = ''`)
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Rows[0][0]; n != int64(0) {
		t.Errorf("%v findings without a source location or evidence", n)
	}
}

// TestAuditDemoTables reads every table back with the Parquet reader
// (independently of DuckDB) and checks row counts and required columns.
func TestAuditDemoTables(t *testing.T) {
	out := auditDemo(t)
	required := map[string][]string{
		"violations": {"kind", "severity", "fetch_time", "agent", "operator", "identity", "url", "url_host_name", "evidence", "source_file", "source_line", "warc_record_offset"},
		"fetches": {"fetch_time", "agent", "identity", "client_ip", "method", "url", "url_host_name", "fetch_status", "user_agent",
			"robots_view", "robots_verdict", "robots_version_id", "matched_rule", "matched_line", "signature", "source_file"},
		"retention": {"action", "reason", "due_date", "warc_filename", "warc_record_offset", "warc_record_id"},
	}
	// Six robots.txt captures, four versions: the crawl WARC's two captures
	// repeat the site WARC's versions just before them (docs/semantics.md §3).
	wantRows := map[string]int64{"fetches": 60, "violations": 27, "robots_versions": 5, "directives": 4, "retention": 20, "problems": 3}
	db, err := report.Open(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, info := range table.Tables {
		path := filepath.Join(out, info.Name+".parquet")
		f, err := os.Open(path)
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		r, err := file.NewParquetReader(f)
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		cols := map[string]bool{}
		schema := r.MetaData().Schema
		for i := 0; i < schema.NumColumns(); i++ {
			cols[schema.Column(i).Name()] = true
		}
		for _, c := range required[info.Name] {
			if !cols[c] {
				t.Errorf("%s.parquet lacks required column %s", info.Name, c)
			}
		}
		n := r.NumRows()
		r.Close()
		if w, ok := wantRows[info.Name]; ok && n != w {
			t.Errorf("%s.parquet has %d rows, want %d", info.Name, n, w)
		}
		res, err := db.Query(context.Background(), "select count(*) from "+info.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Rows[0][0]; got != n {
			t.Errorf("%s: DuckDB counts %v rows, the Parquet reader %d", info.Name, got, n)
		}
	}
}

// TestAuditDemoVersionSources: a finding that names the robots.txt version
// it relies on also says where that version came from (robots_source),
// whatever its kind — crawl-delay findings once left it empty.
func TestAuditDemoVersionSources(t *testing.T) {
	out := auditDemo(t)
	db, err := report.Open(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Query(context.Background(), "select kind, count(*) filter (where coalesce(robots_source, '') = '') from violations where coalesce(robots_version_id, '') <> '' group by kind order by kind")
	if err != nil {
		t.Fatal(err)
	}
	kinds := 0
	for _, row := range res.Rows {
		kinds++
		if n, _ := row[1].(int64); n != 0 {
			t.Errorf("%v: %d findings name a robots.txt version but not its source", row[0], n)
		}
	}
	if kinds < 5 {
		t.Errorf("only %d finding kinds name a version; the demo has more", kinds)
	}
}

// TestAuditDemoReportGolden pins the demo report in Markdown and JSON.
func TestAuditDemoReportGolden(t *testing.T) {
	out := auditDemo(t)
	for _, format := range []string{"md", "json"} {
		code, stdout, stderr := runCmd(t, "report", out, "--format", format)
		if code != exitOK {
			t.Fatalf("report --format %s: exit %d: %s", format, code, stderr)
		}
		// The output directory is a temporary one; pin a stable name.
		got := strings.ReplaceAll(stdout, out, "OUT")
		golden := filepath.Join("testdata", "demo-report."+format)
		if *updateGolden {
			os.MkdirAll("testdata", 0o755)
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./cmd/repaudit -run Golden -update)", err)
		}
		if got != string(want) {
			t.Errorf("report --format %s differs from %s (run with -update and review the diff)", format, golden)
		}
	}
}

func TestAuditExitCodes(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	if code, _, stderr := runCmd(t, demoArgs(out, "--fail-on-findings", "-q")...); code != exitFindings {
		t.Errorf("--fail-on-findings: exit %d, want %d (%s)", code, exitFindings, stderr)
	}
	if code, _, stderr := runCmd(t, demoArgs(out)...); code != exitUsage || !strings.Contains(stderr, "exists") {
		t.Errorf("existing --out without --force: exit %d, want %d, stderr %q", code, exitUsage, stderr)
	}
	if code, _, _ := runCmd(t, demoArgs(out, "--force", "-q")...); code != exitOK {
		t.Errorf("--force: exit %d, want %d", code, exitOK)
	}
	if code, _, _ := runCmd(t, "audit", filepath.Join(tmp, "missing.log"), "--out", filepath.Join(tmp, "o2")); code != exitUsage {
		t.Errorf("missing input: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := runCmd(t, "audit", demo); code != exitUsage {
		t.Errorf("no --out: exit %d, want %d", code, exitUsage)
	}
	// An unreadable input among good ones: tables are written, exit 2,
	// and problems.parquet names the file.
	bad := filepath.Join(tmp, "garbage.bin")
	os.WriteFile(bad, []byte("\x00\x01\x02 not anything repaudit reads\n"), 0o644)
	out3 := filepath.Join(tmp, "o3")
	code, _, _ := runCmd(t, "audit", demo+"/logs", bad, "--site", "https://www.example.com", "--out", out3, "-q")
	if code != exitUsage {
		t.Errorf("unreadable input: exit %d, want %d", code, exitUsage)
	}
	db, err := report.Open(context.Background(), out3)
	if err != nil {
		t.Fatalf("tables not written after an unreadable input: %v", err)
	}
	defer db.Close()
	res, err := db.Query(context.Background(), "select count(*) from problems where code = 'input-unreadable' and source_file like '%garbage.bin'")
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows[0][0] != int64(1) {
		t.Errorf("problems.parquet does not name the unreadable input")
	}
}

// TestAuditKilledLeavesNothingComplete kills a real audit process while it
// writes row groups, then checks that no table that looks complete is left
// behind. The log is big enough (600,000 fetches with distinct paths, so
// each 131,072-row group of fetches.parquet is megabytes) that the first
// row group reaches the disk long before the run ends; the test waits for
// that (a .parquet file in the .partial directory with bytes in it) and
// fails, rather than skips, if the run ends first.
func TestAuditKilledLeavesNothingComplete(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a large log")
	}
	tmp := t.TempDir()
	logPath := filepath.Join(tmp, "big.log")
	lf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(lf, 1<<20)
	start := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	const lines = 600000
	for i := range lines {
		ts := start.Add(time.Duration(i) * time.Second).Format("02/Jan/2006:15:04:05 -0700")
		// A path no other line has: a hash of i, so the column does not
		// compress away.
		fmt.Fprintf(bw, "192.0.2.7 - - [%s] \"GET /page/%016x HTTP/1.1\" 200 512 \"-\" \"Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)\"\n",
			ts, uint64(i)*0x9E3779B97F4A7C15)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := lf.Close(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	cmd := exec.Command(os.Args[0], "audit", logPath, "--site", "https://www.example.com", "--out", out, "-j", "1")
	cmd.Env = append(os.Environ(), "REPAUDIT_TEST_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Wait until a row group is on disk, then kill the run without warning.
	var written string
	deadline := time.After(5 * time.Minute)
wait:
	for {
		select {
		case err := <-done:
			t.Fatalf("the run ended (%v) before a row group was written: make the log bigger", err)
		case <-deadline:
			cmd.Process.Kill()
			<-done
			t.Fatal("no row group written within 5 minutes")
		case <-time.After(2 * time.Millisecond):
		}
		files, _ := filepath.Glob(filepath.Join(out+".partial-*", "*.parquet"))
		for _, f := range files {
			if fi, err := os.Stat(f); err == nil && fi.Size() > 0 {
				written = f
				break wait
			}
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill: %v", err)
	}
	<-done
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("killed run left %s in place", out)
	}
	// What is left is under a temporary name, has no manifest, and holds
	// the part-written table.
	left, _ := filepath.Glob(out + "*")
	sort.Strings(left)
	if len(left) != 1 || left[0] != filepath.Dir(written) {
		t.Errorf("killed run left %v, want only %s", left, filepath.Dir(written))
	}
	for _, l := range left {
		if !strings.Contains(filepath.Base(l), "partial") {
			t.Errorf("killed run left %s, which is not marked partial", l)
		}
		if _, err := os.Stat(filepath.Join(l, "manifest.json")); err == nil {
			t.Errorf("killed run left a manifest in %s", l)
		}
	}
	if fi, err := os.Stat(written); err != nil || fi.Size() == 0 {
		t.Errorf("%s: %v, size %v: the kill came before any row group reached the disk", written, err, fi)
	}
	// And report refuses the directory, under either name.
	for _, dir := range []string{out, filepath.Dir(written)} {
		if code, _, _ := runCmd(t, "report", dir); code != exitUsage {
			t.Errorf("report on a killed run's directory %s: exit %d, want %d", dir, code, exitUsage)
		}
	}
}

// TestAuditCanceled cancels a run (as Ctrl-C does) and checks the same.
func TestAuditCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(t.TempDir(), "out")
	var o, e bytes.Buffer
	code := run(ctx, demoArgs(out), stdio{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e})
	if code != exitUsage {
		t.Errorf("canceled audit: exit %d, want %d", code, exitUsage)
	}
	if m, _ := filepath.Glob(out + "*"); len(m) != 0 {
		t.Errorf("canceled audit left %v", m)
	}
}

// TestFindingsDocQueries keeps docs/findings.md honest: every finding kind
// of the demo has a section, and every SQL block runs against the demo and
// returns rows.
func TestFindingsDocQueries(t *testing.T) {
	doc, err := os.ReadFile("../../docs/findings.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	db, err := report.Open(context.Background(), auditDemo(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kinds, err := db.Query(context.Background(), "select distinct kind from violations order by kind")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range kinds.Rows {
		if k := row[0].(string); !strings.Contains(text, "\n### `"+k+"`") && !strings.Contains(text, "and `"+k+"`") {
			t.Errorf("docs/findings.md has no section for %s", k)
		}
	}
	n := 0
	for rest := text; ; {
		_, after, ok := strings.Cut(rest, "```sql\n")
		if !ok {
			break
		}
		block, tail, ok := strings.Cut(after, "```")
		if !ok {
			t.Fatal("unterminated sql block")
		}
		rest = tail
		for q := range strings.SplitSeq(block, ";") {
			if strings.TrimSpace(q) == "" {
				continue
			}
			n++
			res, err := db.Query(context.Background(), q)
			if err != nil {
				t.Errorf("query %d fails: %v\n%s", n, err, q)
				continue
			}
			if len(res.Rows) == 0 {
				t.Errorf("query %d returns no rows on the demo:\n%s", n, q)
			}
		}
	}
	if n < 10 {
		t.Errorf("found %d queries in docs/findings.md", n)
	}
}
