//go:build cgo

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

// writeReportAudit writes a small audit directory: two GPTBot fetches (one
// spoofed), one browser fetch and two findings.
func writeReportAudit(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "audit")
	w, err := output.Create(dir, output.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	at := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	fetches := []table.Fetch{
		{FetchTime: at, Agent: "GPTBot", Operator: "OpenAI", Category: "ai-training", Identity: "claimed",
			URL: "https://example.com/private/a", URLHostName: "example.com", URLPath: "/private/a",
			RobotsVerdict: "disallowed", Signature: "unrecorded", SourceFile: "access.log", SourceFormat: "combined", SourceLine: 1},
		{FetchTime: at.Add(time.Hour), Agent: "GPTBot", Operator: "OpenAI", Category: "ai-training", Identity: "spoofed",
			URL: "https://example.com/private/b", URLHostName: "example.com", URLPath: "/private/b",
			RobotsVerdict: "disallowed", Signature: "unrecorded", IPCheck: "not_in_range", SourceFile: "access.log", SourceLine: 2},
		{FetchTime: at.Add(2 * time.Hour), URL: "https://example.com/", URLHostName: "example.com", URLPath: "/",
			RobotsVerdict: "not_judged", SourceFile: "access.log", SourceLine: 3},
	}
	for i := range fetches {
		if err := w.Fetch(&fetches[i]); err != nil {
			t.Fatal(err)
		}
	}
	viols := []table.Violation{
		{Kind: "disallowed_fetch", Severity: "high", FetchTime: at, Agent: "GPTBot", Operator: "OpenAI", Identity: "claimed",
			URL: "https://example.com/private/a", URLHostName: "example.com", URLPath: "/private/a",
			Evidence: "robots.txt line 2 'Disallow: /private/'", SourceFile: "access.log", SourceLine: 1, WARCRecordOffset: -1},
		{Kind: "ip_not_published", Severity: "high", FetchTime: at.Add(time.Hour), Agent: "GPTBot", Operator: "OpenAI", Identity: "spoofed",
			URL: "https://example.com/private/b", URLHostName: "example.com", URLPath: "/private/b",
			Evidence: "203.0.113.9 not in gptbot.json", SourceFile: "access.log", SourceLine: 2, WARCRecordOffset: -1},
	}
	for i := range viols {
		if err := w.Violation(&viols[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(&output.Manifest{Version: "test", AsOf: "2025-03-02T00:00:00Z"}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func runReportCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, stdio{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func TestReportCommand(t *testing.T) {
	dir := writeReportAudit(t)
	t.Run("table", func(t *testing.T) {
		code, out, stderr := runReportCmd(t, "", "report", dir)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for _, want := range []string{"Crawlers", "GPTBot", "Spoofed traffic", "disallowed_fetch 1", "ip_not_published 1",
			"3 fetches: 2 by 1 bot, 1 by other clients"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("json after dir", func(t *testing.T) {
		code, out, stderr := runReportCmd(t, "", "report", dir, "--format", "json")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var v struct {
			AsOf     string `json:"as_of"`
			Sections []struct {
				ID   string           `json:"id"`
				Rows []map[string]any `json:"rows"`
			} `json:"sections"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		if v.AsOf != "2025-03-02T00:00:00Z" {
			t.Errorf("as_of: got %q", v.AsOf)
		}
		found := false
		for _, s := range v.Sections {
			if s.ID == "spoofed" && len(s.Rows) == 1 && s.Rows[0]["findings"] == float64(1) {
				found = true
			}
		}
		if !found {
			t.Errorf("no spoofed section with one finding in %s", out)
		}
	})
	for _, format := range []string{"md", "html"} {
		t.Run(format+" to file", func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "report."+format)
			code, out, stderr := runReportCmd(t, "", "report", "--format", format, "-o", file, dir)
			if code != exitOK || out != "" {
				t.Fatalf("exit %d, stdout %q: %s", code, out, stderr)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"md": "# repaudit report", "html": "<!DOCTYPE html>"}[format]
			if !strings.HasPrefix(string(data), want) {
				t.Errorf("%s starts %.40q, want %q", file, data, want)
			}
			leftovers, _ := filepath.Glob(file + ".tmp-*")
			if len(leftovers) != 0 {
				t.Errorf("temporary files left: %v", leftovers)
			}
		})
	}
	partial := filepath.Join(t.TempDir(), "partial")
	os.Mkdir(partial, 0o755)
	os.WriteFile(filepath.Join(partial, "fetches.parquet"), []byte("PAR1"), 0o644)
	missing := filepath.Join(t.TempDir(), "missing")
	errors := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no dir", []string{"report"}, "want exactly one audit directory"},
		{"two dirs", []string{"report", dir, dir}, "want exactly one audit directory"},
		{"bad format", []string{"report", "--format", "xml", dir}, `unknown --format "xml"`},
		{"bad flag", []string{"report", "--nope", dir}, "flag provided but not defined"},
		{"missing dir", []string{"report", missing}, missing},
		{"incomplete run", []string{"report", partial}, "incomplete audit directory"},
		{"unwritable -o", []string{"report", "-o", filepath.Join(missing, "x", "r.md"), dir}, "r.md"},
	}
	for _, tt := range errors {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runReportCmd(t, "", tt.args...)
			if code != exitUsage {
				t.Errorf("got exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tt.stderr)
			}
		})
	}
	if code, _, _ := runReportCmd(t, "", "report", "-h"); code != exitOK {
		t.Errorf("-h: got exit %d, want 0", code)
	}
}

func TestQueryCommand(t *testing.T) {
	dir := writeReportAudit(t)
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"csv", "", []string{"query", dir, "SELECT agent, identity, count(*) AS n FROM fetches GROUP BY ALL ORDER BY ALL", "--format", "csv"},
			"agent,identity,n\n,,1\nGPTBot,claimed,1\nGPTBot,spoofed,1\n"},
		{"json", "", []string{"query", "--format", "json", dir, "SELECT kind, fetch_time FROM violations ORDER BY kind"},
			"[\n  {\n    \"kind\": \"disallowed_fetch\",\n    \"fetch_time\": \"2025-03-01T09:00:00Z\"\n  },\n" +
				"  {\n    \"kind\": \"ip_not_published\",\n    \"fetch_time\": \"2025-03-01T10:00:00Z\"\n  }\n]\n"},
		{"table", "", []string{"query", dir, "SELECT count(*) AS findings FROM violations"},
			"findings\n--------\n       2\n"},
		{"stdin", "SELECT getvariable('as_of') AS as_of", []string{"query", dir, "-", "--format", "csv"},
			"as_of\n2025-03-02T00:00:00Z\n"},
		{"comment after --", "", []string{"query", "--format", "csv", dir, "--", "-- a comment\nSELECT 1 AS one"},
			"one\n1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runReportCmd(t, tt.stdin, tt.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if out != tt.want {
				t.Errorf("got\n%q\nwant\n%q", out, tt.want)
			}
		})
	}
	errs := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no sql", []string{"query", dir}, "want an audit directory and one SQL query"},
		{"bad sql", []string{"query", dir, "SELECT nope FROM fetches"}, dir},
		{"bad format", []string{"query", dir, "SELECT 1", "--format", "xml"}, `unknown --format "xml"`},
		{"not a dir", []string{"query", filepath.Join(dir, "fetches.parquet"), "SELECT 1"}, "not a directory"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runReportCmd(t, "", tt.args...)
			if code != exitUsage {
				t.Errorf("got exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tt.stderr)
			}
		})
	}
}
