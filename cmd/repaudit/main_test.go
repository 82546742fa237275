//go:build cgo

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"audit", "audit", 0},
		{"audti", "audit", 1}, // adjacent swap
		{"adit", "audit", 1},  // deletion
		{"auditt", "audit", 1},
		{"sitee", "site", 1},
		{"reprot", "report", 1},
		{"qeury", "query", 1},
		{"robots", "report", 4},
		{"", "query", 5},
		{"ça", "ca", 1}, // runes, not bytes
		{"ab", "ba", 1},
		{"abc", "ca", 3}, // optimal string alignment, not full Damerau
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := editDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d (symmetry)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	cmds := []string{"audit", "report", "query", "inspect", "robots", "signature", "cards", "version"}
	flags := []string{"site", "out", "as-of", "ip-ranges", "ip-ranges-dir", "o", "tz", "format"}
	tests := []struct {
		s          string
		candidates []string
		want       string
	}{
		{"audti", cmds, "audit"},
		{"Audit", cmds, "audit"},
		{"reprot", cmds, "report"},
		{"qurey", cmds, "query"},
		{"card", cmds, "cards"},
		{"verison", cmds, "version"},
		{"zzz", cmds, ""},
		{"audit-log", cmds, ""},
		{"sitee", flags, "site"},
		{"sit", flags, "site"},
		{"ip-range", flags, "ip-ranges"},
		{"ip-ranges-dri", flags, "ip-ranges-dir"},
		{"tzz", flags, "tz"},
		{"p", flags, ""}, // one letter away from -o is no evidence of a typo
		{"formats", flags, "format"},
		{strings.Repeat("a", 100), cmds, ""},
	}
	for _, tt := range tests {
		if got := suggest(tt.s, tt.candidates); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func runMain(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	std := stdio{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e}
	if env != nil {
		std.Getenv = func(k string) string { return env[k] }
	}
	code = run(context.Background(), args, std)
	return code, o.String(), e.String()
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, stderr := runMain(t, nil, args...)
		if code != exitOK || out != "repaudit "+version+"\n" || stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
	if code, _, stderr := runMain(t, nil, "version", "extra"); code != exitUsage || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("version extra: exit %d, stderr %q", code, stderr)
	}
}

func TestHelpCommand(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"help", "report"}, "usage: repaudit report DIR"},
		{[]string{"help", "query"}, "usage: repaudit query DIR"},
		{[]string{"help", "robots"}, "robots"},
		{[]string{"help", "robots", "check"}, "-fail-on-disallowed"},
		{[]string{"help", "version"}, "usage: repaudit version"},
		{[]string{"help"}, "usage: repaudit <command>"},
		{[]string{"help", "help"}, "usage: repaudit <command>"},
	}
	for _, tt := range tests {
		code, out, stderr := runMain(t, nil, tt.args...)
		if code != exitOK {
			t.Errorf("%q: exit %d, stderr %q", tt.args, code, stderr)
		}
		if !strings.Contains(out, tt.want) {
			t.Errorf("%q: stdout lacks %q:\n%s", tt.args, tt.want, out)
		}
	}
	// help CMD prints what CMD -h prints.
	_, helpOut, _ := runMain(t, nil, "help", "report")
	_, _, dashH := runMain(t, nil, "report", "-h")
	if helpOut != dashH {
		t.Errorf("help report and report -h differ:\n%s\n---\n%s", helpOut, dashH)
	}
	code, _, stderr := runMain(t, nil, "help", "audti")
	if code != exitUsage || !strings.Contains(stderr, "did you mean audit?") {
		t.Errorf("help audti: exit %d, stderr %q", code, stderr)
	}
}

func TestDidYouMean(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    string // in stderr
		wantNot string
	}{
		{"command", []string{"audti"}, `unknown command "audti"; did you mean audit?`, ""},
		{"command far from all", []string{"frobnicate"}, `unknown command "frobnicate"`, "did you mean"},
		{"audit flag", []string{"audit", "--sitee", "https://example.com", "x.log"}, "did you mean --site?", ""},
		{"audit flag with value", []string{"audit", "--as-off=2025-01-01", "x.log"}, "did you mean --as-of?", ""},
		{"report flag", []string{"report", "--tzz", "UTC", "dir"}, "did you mean --tz?", ""},
		{"one-letter flag", []string{"report", "-p", "x", "dir"}, "flag provided but not defined: -p", "did you mean"},
		{"signature flag", []string{"signature", "check", "--jwk", "k.json"}, "did you mean --jwks?", ""},
		{"cards flag", []string{"cards", "fetch", "--registy", "r.txt"}, "did you mean --registry?", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runMain(t, nil, tt.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, stderr)
			}
			if tt.wantNot != "" && strings.Contains(stderr, tt.wantNot) {
				t.Errorf("stderr has %q:\n%s", tt.wantNot, stderr)
			}
			// The hint comes right after the error, before the usage.
			if i := strings.Index(stderr, "did you mean"); i >= 0 && strings.Contains(stderr[:i], "usage:") {
				t.Errorf("hint after the usage:\n%s", stderr)
			}
		})
	}
}

func TestReportTimeZoneAndWidth(t *testing.T) {
	dir := writeReportAudit(t)
	for _, bad := range []string{"Mars/Olympus", "Local", "../etc/passwd"} {
		code, _, stderr := runMain(t, nil, "report", "--tz", bad, dir)
		if code != exitUsage || !strings.Contains(stderr, "--tz") {
			t.Errorf("--tz %s: exit %d, stderr %q", bad, code, stderr)
		}
	}
	code, out, stderr := runMain(t, nil, "report", "--tz", "Europe/Berlin", "--format", "md", dir)
	if code != exitOK {
		t.Fatalf("--tz Europe/Berlin: exit %d: %s", code, stderr)
	}
	// 09:00 UTC on 1 March is 10:00 in Berlin (CET, +01:00).
	for _, want := range []string{"all times Europe/Berlin", "2025-03-02T01:00:00+01:00", "2025-03-01 10:00:00"} {
		if !strings.Contains(out, want) {
			t.Errorf("--tz Europe/Berlin: output lacks %q", want)
		}
	}
	widest := func(s string) int {
		n := 0
		for _, l := range strings.Split(s, "\n") {
			n = max(n, utf8.RuneCountInString(l))
		}
		return n
	}
	_, out, _ = runMain(t, nil, "report", dir)
	def := widest(out)
	if def > 120 {
		t.Errorf("default width: widest line %d > 120", def)
	}
	_, out, _ = runMain(t, map[string]string{"COLUMNS": "100"}, "report", dir)
	if n := widest(out); n > 100 {
		t.Errorf("COLUMNS=100: widest line %d", n)
	}
	_, out, _ = runMain(t, map[string]string{"COLUMNS": "junk"}, "report", dir)
	if n := widest(out); n != def {
		t.Errorf("COLUMNS=junk: widest line %d, want the default's %d", n, def)
	}
	const wide = "SELECT repeat('x', 150) AS a, url FROM fetches"
	_, out, _ = runMain(t, nil, "query", dir, wide)
	if n := widest(out); n != 120 {
		t.Errorf("query: widest line %d, want 120", n)
	}
	_, out, _ = runMain(t, map[string]string{"COLUMNS": "60"}, "query", dir, wide)
	if n := widest(out); n != 60 {
		t.Errorf("query with COLUMNS=60: widest line %d, want 60", n)
	}
}

// TestReportWrapsToColumns: the report command passes COLUMNS to the text
// writer, which wraps the summary to it.
func TestReportWrapsToColumns(t *testing.T) {
	dir := writeReportAudit(t)
	_, out, _ := runMain(t, nil, "report", dir)
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "3 fetches:") {
			line = l
		}
	}
	if utf8.RuneCountInString(line) <= 60 {
		t.Fatalf("summary line %q: want one longer than 60 runes to wrap", line)
	}
	_, out, _ = runMain(t, map[string]string{"COLUMNS": "60"}, "report", dir)
	if strings.Contains(out, line) {
		t.Errorf("COLUMNS=60: %q not wrapped", line)
	}
}

// TestAuditDemoSizeAndReferrer: the combined log's %b and Referer reach
// fetches.parquet; WARC request records, which give no size, get -1.
func TestAuditDemoSizeAndReferrer(t *testing.T) {
	out := auditDemo(t)
	code, got, stderr := runMain(t, nil, "query", out, "--format", "csv",
		"SELECT source_format, min(response_bytes), max(response_bytes), count(*) FILTER (WHERE referrer <> '') AS referred, "+
			"max(referrer) FROM fetches GROUP BY 1 ORDER BY 1")
	if code != exitOK {
		t.Fatalf("query: exit %d: %s", code, stderr)
	}
	want := "source_format,min(response_bytes),max(response_bytes),referred,max(referrer)\n" +
		"combined,812,5120,1,https://search.example/\n" +
		"nginx-json,0,5120,0,\n" +
		"warc,-1,-1,0,\n" +
		"warc-capture,-1,-1,0,\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// FuzzEditDistance checks the distance is a metric-like count on any
// bytes: symmetric, zero only for equal strings, at most the longer length.
func FuzzEditDistance(f *testing.F) {
	f.Add("audti", "audit")
	f.Add("", "x")
	f.Add("\xff\xfe", "ab")
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 200 || len(b) > 200 {
			return
		}
		d := editDistance(a, b)
		if d != editDistance(b, a) {
			t.Fatalf("not symmetric: %q %q", a, b)
		}
		if (d == 0) != (a == b) && utf8.ValidString(a) && utf8.ValidString(b) {
			t.Fatalf("distance %d for %q %q", d, a, b)
		}
		if la, lb := utf8.RuneCountInString(a), utf8.RuneCountInString(b); d > max(la, lb) || d < max(la, lb)-min(la, lb) {
			t.Fatalf("distance %d out of bounds for %q (%d) %q (%d)", d, a, la, b, lb)
		}
		suggest(a, []string{b, "audit", "report"})
	})
}
