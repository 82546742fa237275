//go:build cgo

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/internal/slowtest"
)

// TestAuditDurationFlags: zero or negative durations are usage errors that
// name the flag, never a silent fall back to the default.
func TestAuditDurationFlags(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct{ flag, value string }{
		{"--skew", "0s"},
		{"--skew", "-5s"},
		{"--robots-ttl", "-1h"},
		{"--robots-ttl", "0"},
		{"--unreachable-after", "0s"},
		{"--unreachable-after", "-720h"},
	} {
		code, _, stderr := runCmd(t, demoArgs(out, c.flag+"="+c.value)...)
		if code != exitUsage {
			t.Errorf("%s=%s: exit %d, want %d", c.flag, c.value, code, exitUsage)
		}
		if !strings.Contains(stderr, c.flag+" must be a positive duration") {
			t.Errorf("%s=%s: stderr %q does not name the flag", c.flag, c.value, stderr)
		}
	}
}

// TestReportRefusesAuditFiles: report -o never overwrites a table or the
// manifest of the audit it reads, by name or through a symlink.
func TestReportRefusesAuditFiles(t *testing.T) {
	out := auditDemo(t)
	link := filepath.Join(t.TempDir(), "link.html")
	if err := os.Symlink(filepath.Join(out, "violations.parquet"), link); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{
		filepath.Join(out, "fetches.parquet"),
		filepath.Join(out, "manifest.json"),
		filepath.Join(out, ".", "problems.parquet"),
		link,
	} {
		before, err := os.ReadFile(target)
		if err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCmd(t, "report", out, "--format", "html", "-o", target)
		if code != exitUsage || !strings.Contains(stderr, "refusing to overwrite") {
			t.Errorf("-o %s: exit %d, stderr %q; want %d and a refusal", target, code, stderr, exitUsage)
		}
		if after, _ := os.ReadFile(target); !bytes.Equal(before, after) {
			t.Errorf("-o %s changed the audit's file", target)
		}
	}
	// An ordinary new file next to the tables is fine.
	other := filepath.Join(t.TempDir(), "report.md")
	if code, _, stderr := runCmd(t, "report", out, "--format", "md", "-o", other); code != exitOK {
		t.Errorf("-o %s: exit %d: %s", other, code, stderr)
	}
}

// TestAuditForceForeignDir: --force never replaces a directory that holds
// Parquet files but no repaudit manifest.json.
func TestAuditForceForeignDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lake")
	os.MkdirAll(dir, 0o755)
	part := filepath.Join(dir, "part-00000.parquet")
	os.WriteFile(part, []byte("not ours"), 0o644)
	code, _, stderr := runCmd(t, demoArgs(dir, "--force", "-q")...)
	if code != exitUsage || !strings.Contains(stderr, "manifest.json") {
		t.Errorf("--force on a foreign directory: exit %d, stderr %q", code, stderr)
	}
	if data, err := os.ReadFile(part); err != nil || string(data) != "not ours" {
		t.Errorf("foreign file changed: %q, %v", data, err)
	}
}

// TestQueryExternalAccess: query SQL reads the audit's tables only unless
// --allow-external; a shared .sql file cannot write files or install
// extensions behind the user's back.
func TestQueryExternalAccess(t *testing.T) {
	dir := writeReportAudit(t)
	sink := filepath.Join(t.TempDir(), "out.csv")
	copySQL := "COPY (SELECT url FROM fetches) TO '" + sink + "' (HEADER false)"
	for _, q := range []string{copySQL, "INSTALL httpfs", "SELECT * FROM read_csv('" + filepath.Join(dir, "manifest.json") + "')"} {
		code, _, stderr := runReportCmd(t, "", "query", dir, q)
		if code != exitUsage || !strings.Contains(stderr, "disabled") {
			t.Errorf("%s: exit %d, stderr %q; want refused", q, code, stderr)
		}
	}
	if _, err := os.Stat(sink); err == nil {
		t.Fatalf("COPY TO wrote %s without --allow-external", sink)
	}
	if code, _, stderr := runReportCmd(t, "", "query", "--allow-external", dir, copySQL); code != exitOK {
		t.Fatalf("--allow-external: exit %d: %s", code, stderr)
	}
	if data, err := os.ReadFile(sink); err != nil || !strings.Contains(string(data), "https://example.com/private/a") {
		t.Errorf("--allow-external COPY wrote %q, %v", data, err)
	}
	// The report itself still reads its tables.
	if code, _, stderr := runReportCmd(t, "", "report", dir); code != exitOK {
		t.Errorf("report: exit %d: %s", code, stderr)
	}
}

// TestQueryCannotRewriteTables: issue 25's attack, a COPY of filtered
// findings onto the audit's own violations.parquet, fails (exit 2) and
// leaves the table's bytes as they were, as does a COPY of a table onto
// its own file; statements that only change the session still run.
func TestQueryCannotRewriteTables(t *testing.T) {
	dir := writeReportAudit(t)
	v := filepath.Join(dir, "violations.parquet")
	f := filepath.Join(dir, "fetches.parquet")
	want := map[string][]byte{}
	for _, p := range []string{v, f} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want[p] = data
	}
	for _, q := range []string{
		"create temp table v as select * from violations where agent <> 'GPTBot'; copy v to '" + v + "' (format parquet, use_tmp_file false)",
		"copy fetches to '" + f + "' (format parquet, use_tmp_file false)",
	} {
		code, _, stderr := runReportCmd(t, "", "query", dir, q)
		if code != exitUsage || !strings.Contains(stderr, "COPY") {
			t.Errorf("%s: exit %d, stderr %q; want exit %d naming COPY", q, code, stderr, exitUsage)
		}
	}
	for p, data := range want {
		if got, _ := os.ReadFile(p); !bytes.Equal(got, data) {
			t.Errorf("%s: %d bytes after the query, was %d", filepath.Base(p), len(got), len(data))
		}
	}
	code, out, stderr := runReportCmd(t, "", "query", dir, "create temp table v as select * from violations; select count(*) as n from v", "--format", "csv")
	if code != exitOK || out != "n\n2\n" {
		t.Errorf("temp table: exit %d, %q, %s", code, out, stderr)
	}
}

// TestReportFIFOTable: a table file or manifest.json replaced by a named
// pipe is refused before anything opens it; report used to block in
// DuckDB's read, deaf to SIGTERM.
func TestReportFIFOTable(t *testing.T) {
	for _, name := range []string{"violations.parquet", "manifest.json"} {
		t.Run(name, func(t *testing.T) {
			dir := writeReportAudit(t)
			p := filepath.Join(dir, name)
			os.Remove(p)
			if err := mkfifo(p); err != nil {
				t.Skip("mkfifo:", err)
			}
			for _, args := range [][]string{{"report", dir}, {"query", dir, "SELECT 1"}} {
				done := make(chan struct{})
				var code int
				var stderr string
				go func() {
					code, _, stderr = runReportCmd(t, "", args...)
					close(done)
				}()
				select {
				case <-done:
				case <-time.After(20 * time.Second):
					t.Fatalf("%s with %s a FIFO: still running after 20s", args[0], name)
				}
				if code != exitUsage || !strings.Contains(stderr, name) || !strings.Contains(stderr, "not a regular file") && !strings.Contains(stderr, "named pipe") {
					t.Errorf("%s: exit %d, stderr %q; want exit %d naming %s as a named pipe", args[0], code, stderr, exitUsage, name)
				}
			}
		})
	}
}

// TestReportChangedTable: report and query refuse (exit 2) a table file
// edited after the audit, naming it; --verify catches a same-size edit.
func TestReportChangedTable(t *testing.T) {
	dir := writeReportAudit(t)
	p := filepath.Join(dir, "violations.parquet")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 1
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"report", dir, "--verify"}, {"query", dir, "SELECT 1", "--verify"}} {
		code, _, stderr := runReportCmd(t, "", args...)
		if code != exitUsage || !strings.Contains(stderr, "table violations") || !strings.Contains(stderr, "SHA-256") {
			t.Errorf("%s --verify: exit %d, stderr %q", args[0], code, stderr)
		}
	}
	if err := os.WriteFile(p, append(data, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runReportCmd(t, "", "report", dir)
	if code != exitUsage || !strings.Contains(stderr, "table violations") || !strings.Contains(stderr, "bytes") {
		t.Errorf("report of a grown table: exit %d, stderr %q", code, stderr)
	}
}

// TestQueryCSVGuard: --csv-guard-formulas quotes text cells a spreadsheet
// would run as formulas, and leaves numbers alone; without it CSV is the
// data as it is.
func TestQueryCSVGuard(t *testing.T) {
	dir := writeReportAudit(t)
	q := "SELECT '=HYPERLINK(\"http://x\")' AS a, -5 AS n, '@SUM(1)' AS b, '+1' AS c, '-x' AS d, 'GPTBot' AS e"
	code, out, stderr := runReportCmd(t, "", "query", dir, q, "--format", "csv", "--csv-guard-formulas")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "a,n,b,c,d,e\n\"'=HYPERLINK(\"\"http://x\"\")\",-5,'@SUM(1),'+1,'-x,GPTBot\n"; out != want {
		t.Errorf("guarded csv:\n got %q\nwant %q", out, want)
	}
	_, out, _ = runReportCmd(t, "", "query", dir, q, "--format", "csv")
	if want := "a,n,b,c,d,e\n\"=HYPERLINK(\"\"http://x\"\")\",-5,@SUM(1),+1,-x,GPTBot\n"; out != want {
		t.Errorf("plain csv:\n got %q\nwant %q", out, want)
	}
}

// TestQueryGlobDir: query on a directory named like a glob pattern reads
// that directory's tables, not a sibling's.
func TestQueryGlobDir(t *testing.T) {
	src := writeReportAudit(t)
	parent := t.TempDir()
	target := filepath.Join(parent, "r[1]")
	if err := os.Rename(src, target); err != nil {
		t.Fatal(err)
	}
	decoy := writeReportAudit(t)
	if err := os.Rename(decoy, filepath.Join(parent, "r1")); err != nil {
		t.Fatal(err)
	}
	// Make the decoy's fetches differ: as a pattern, r[1] matches r1, whose
	// fetches.parquet now holds its 2 violations instead of 3 fetches.
	os.Remove(filepath.Join(parent, "r1", "fetches.parquet"))
	if err := os.Link(filepath.Join(parent, "r1", "violations.parquet"), filepath.Join(parent, "r1", "fetches.parquet")); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runReportCmd(t, "", "query", target, "SELECT count(*) AS n, min(agent) IS NOT NULL AS own FROM fetches", "--format", "csv")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if out != "n,own\n3,true\n" {
		t.Errorf("query on %s read %q, want its own 3 fetches", target, out)
	}
}

// hostile is what a client can put in a logged URL or User-Agent, and a
// file name can hold: it retitles and clears a terminal, beeps, and
// reverses text.
const hostile = "\x1b]0;pwned\x07\x1b[2J\u202e\u009b31m"

// terminalUnsafe names the first byte sequence in s a terminal would act
// on, or "".
func terminalUnsafe(s string) string {
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u009b", "\x00"} {
		if strings.Contains(s, bad) {
			return strings.ToValidUTF8(fmt.Sprintf("%q", bad), "?")
		}
	}
	return ""
}

// TestTerminalSafety: report (table and md), query tables, inspect, the
// audit summary and error messages never print control characters or
// bidi overrides taken from the data or from file names.
func TestTerminalSafety(t *testing.T) {
	slowtest.Skip(t, "an audit and a dozen report and query runs")
	tmp := t.TempDir()
	logName := filepath.Join(tmp, "access"+hostile+".log")
	line := `192.0.2.7 - - [01/Mar/2025:10:00:00 +0000] "GET /x` + hostile + ` HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; GPTBot/1.2; ` + hostile + `)"` + "\n" +
		`192.0.2.7 - - [01/Mar/2025:10:00:01 +0000] "GET /robots.txt HTTP/1.1" 200 10 "-" "Mozilla/5.0 (compatible; GPTBot/1.2)"` + "\n" +
		"garbage " + hostile + "\n"
	if err := os.WriteFile(logName, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	code, stdout, stderr := runCmd(t, "audit", logName, "--site", "https://www.example.com", "--out", out)
	if code != exitOK {
		t.Fatalf("audit: exit %d: %s", code, stderr)
	}
	check := func(what, s string) {
		t.Helper()
		if bad := terminalUnsafe(s); bad != "" {
			t.Errorf("%s prints %s raw:\n%q", what, bad, s)
		}
	}
	check("audit stdout", stdout)
	check("audit summary", stderr)
	// The data really holds the hostile bytes (or the test proves nothing).
	_, csv, _ := runCmd(t, "query", out, "SELECT url, user_agent FROM fetches", "--format", "csv", "--raw")
	if !strings.Contains(csv, "\x1b]0;pwned") {
		t.Fatalf("fixture did not reach the tables (query --raw): %q", csv)
	}
	for _, args := range [][]string{
		{"report", out},
		{"report", out, "--format", "md"},
		{"query", out, "SELECT url, user_agent, source_file FROM fetches"},
		{"query", out, "SELECT * FROM problems"},
		{"query", out, "SELECT url, user_agent AS \"ua" + hostile + "\" FROM fetches", "--format", "csv"},
		{"query", out, "SELECT url, user_agent AS \"ua" + hostile + "\" FROM fetches", "--format", "json"},
		{"report", out, "--format", "json"},
		{"inspect", logName},
		{"query", out, "SELECT nope_" + hostile + " FROM fetches"},
		{"report", filepath.Join(tmp, "missing"+hostile)},
		{"audit", filepath.Join(tmp, "missing"+hostile), "--out", filepath.Join(tmp, "o2")},
		{"robots", "check", "--robots", logName, "--agent", "GPTBot", "https://example.com/" + hostile},
	} {
		_, stdout, stderr := runCmd(t, args...)
		check(strings.Join(args[:1], " ")+" stdout", stdout)
		check(strings.Join(args[:1], " ")+" stderr", stderr)
	}
	// Escaped, not dropped: the reader still sees what was there.
	_, table, _ := runCmd(t, "query", out, "SELECT url FROM fetches WHERE url LIKE '%pwned%'")
	if !strings.Contains(table, `\x1b]0;pwned\x07`) {
		t.Errorf("query table does not show the escaped URL:\n%s", table)
	}
	_, csv, _ = runCmd(t, "query", out, "SELECT url FROM fetches WHERE url LIKE '%pwned%'", "--format", "csv")
	if !strings.Contains(csv, `\x1b]0;pwned\x07\x1b[2J\u202e\u009b31m`) {
		t.Errorf("query csv does not show the escaped URL:\n%s", csv)
	}
	// JSON stays valid and decodes to the exact bytes.
	_, js, _ := runCmd(t, "query", out, "SELECT url FROM fetches WHERE url LIKE '%pwned%'", "--format", "json")
	var rows []map[string]string
	if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) != 1 || !strings.Contains(rows[0]["url"], hostile) {
		t.Errorf("query json: %v, %q; want the URL with its bytes", err, js)
	}
}

// TestAuditFIFOCancel: an audit of a named pipe nobody writes to stops on
// Ctrl-C (a cancelled context) instead of hanging in open.
func TestAuditFIFOCancel(t *testing.T) {
	tmp := t.TempDir()
	fifo := filepath.Join(tmp, "pipe.log")
	if err := mkfifo(fifo); err != nil {
		t.Skip("mkfifo:", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	done := make(chan int, 1)
	go func() {
		var o, e bytes.Buffer
		done <- run(ctx, []string{"audit", fifo, "--site", "https://www.example.com", "--out", filepath.Join(tmp, "out"), "-q"},
			stdio{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e})
	}()
	select {
	case code := <-done:
		if code != exitUsage {
			t.Errorf("cancelled audit of a FIFO: exit %d, want %d", code, exitUsage)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("audit of a FIFO without a writer did not stop after cancel")
	}
	if m, _ := filepath.Glob(filepath.Join(tmp, "out*")); len(m) != 0 {
		t.Errorf("cancelled audit left %v", m)
	}
}

// TestAuditFailOnProblems: --fail-on-problems[=SEVERITY] makes a
// scheduled audit fail when an input yielded nothing (input-empty, a
// warning) or when problems of the severity or worse were recorded.
func TestAuditFailOnProblems(t *testing.T) {
	tmp := t.TempDir()
	logPath := filepath.Join(tmp, "access.log")
	os.WriteFile(logPath, []byte(`192.0.2.7 - - [01/Mar/2025:10:00:00 +0000] "GET /a HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; GPTBot/1.2)"`+"\n"), 0o644)
	// A WARC holding only its warcinfo record: read fine, yields nothing.
	fields := "software: handmade\r\n"
	warcPath := filepath.Join(tmp, "empty.warc")
	os.WriteFile(warcPath, []byte("WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:6e3c6a30-0000-4000-8000-000000000001>\r\n"+
		"WARC-Date: 2025-03-01T00:00:00Z\r\nContent-Type: application/warc-fields\r\n"+
		fmt.Sprintf("Content-Length: %d\r\n\r\n%s\r\n\r\n", len(fields), fields)), 0o644)
	n := 0
	audit := func(extra ...string) (int, string) {
		n++
		args := append([]string{"audit", logPath, warcPath, "--site", "https://www.example.com", "-q",
			"--out", filepath.Join(tmp, fmt.Sprintf("out%d", n))}, extra...)
		code, _, stderr := runCmd(t, args...)
		return code, stderr
	}
	for _, c := range []struct {
		flag string
		want int
	}{
		{"", exitOK},
		{"--fail-on-problems", exitFindings},
		{"--fail-on-problems=warning", exitFindings},
		{"--fail-on-problems=info", exitFindings},
		{"--fail-on-problems=error", exitOK},
		{"--fail-on-problems=false", exitOK},
		{"--fail-on-problems=loud", exitUsage},
	} {
		var extra []string
		if c.flag != "" {
			extra = []string{c.flag}
		}
		code, stderr := audit(extra...)
		if code != c.want {
			t.Errorf("%q: exit %d, want %d (%s)", c.flag, code, c.want, stderr)
		}
		if code == exitFindings && !strings.Contains(stderr, "--fail-on-problems") {
			t.Errorf("%q: stderr %q does not say why it failed", c.flag, stderr)
		}
	}
	// The empty input is a problems row naming it.
	out := filepath.Join(tmp, "out1")
	_, csv, _ := runCmd(t, "query", out, "SELECT code, severity, source_file FROM problems", "--format", "csv")
	if !strings.Contains(csv, "input-empty,warning,"+warcPath) {
		t.Errorf("problems.parquet does not name the empty input:\n%s", csv)
	}
}
