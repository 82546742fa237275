package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const robotsCmdBody = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n\nACAP-crawler: *\nACAP-disallow-index: /news/archive/\n"

func runRobotsCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"robots"}, args...), stdio{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func writeRobots(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRobotsCheckCommand(t *testing.T) {
	file := writeRobots(t, robotsCmdBody)
	tests := []struct {
		name     string
		args     []string
		stdin    string
		code     int
		stdout   string
		inStderr string
	}{
		{"allowed and disallowed", []string{"check", "--robots", file, "--agent", "googlebot", "/public", "https://example.com/private/x"}, "", exitOK,
			"allowed\t/public\tgroup \"*\" (line 1): no rule matched: allowed\n" +
				"disallowed\thttps://example.com/private/x\tgroup \"*\" (line 1): line 2 \"Disallow: /private/\" matched\n", ""},
		{"flags after URLs", []string{"check", "/x", "--agent", "GPTBot", "--robots", file}, "", exitOK,
			"disallowed\t/x\tgroup \"GPTBot\" (line 4): line 5 \"Disallow: /\" matched\n", ""},
		{"fail on disallowed", []string{"check", "--robots", file, "--agent", "gptbot", "--fail-on-disallowed", "/x"}, "", exitFindings,
			"disallowed\t/x\tgroup \"GPTBot\" (line 4): line 5 \"Disallow: /\" matched\n", ""},
		{"fail on disallowed, all allowed", []string{"check", "--robots", file, "--agent", "x", "--fail-on-disallowed", "/a"}, "", exitOK,
			"allowed\t/a\tgroup \"*\" (line 1): no rule matched: allowed\n", ""},
		{"robots from stdin", []string{"check", "--robots", "-", "--agent", "x", "/private/"}, robotsCmdBody, exitOK,
			"disallowed\t/private/\tgroup \"*\" (line 1): line 2 \"Disallow: /private/\" matched\n", ""},
		{"ACAP usage", []string{"check", "--robots", file, "--agent", "x", "--usage", "index", "/news/archive/1"}, "", exitOK,
			"disallowed\t/news/archive/1\tACAP index: crawler \"*\": line 8 \"ACAP-disallow-index: /news/archive/\" (record): prohibited\n", ""},
		{"max-bytes truncates", []string{"check", "--robots", file, "--agent", "x", "--max-bytes", "16", "/private/"}, "", exitOK,
			"allowed\t/private/\tgroup \"*\" (line 1): no rule matched: allowed\n", "parsing limit"},
		{"diagnostics", []string{"check", "--robots", "-", "--agent", "x", "--diagnostics", "/a"}, "user-agent: *\ndisalow: /a\n", exitOK,
			"disallowed\t/a\tgroup \"*\" (line 1): line 2 \"Disallow: /a\" matched\n", "stdin:2: key-typo"},
		{"no subcommand", nil, "", exitUsage, "", "usage: repaudit robots check"},
		{"wrong subcommand", []string{"judge"}, "", exitUsage, "", "usage: repaudit robots check"},
		{"help", []string{"-h"}, "", exitOK, "", ""},
		{"missing robots", []string{"check", "--agent", "x", "/a"}, "", exitUsage, "", "--robots is required"},
		{"missing agent", []string{"check", "--robots", file, "/a"}, "", exitUsage, "", "--agent is required"},
		{"missing url", []string{"check", "--robots", file, "--agent", "x"}, "", exitUsage, "", "no URL"},
		{"unreadable file", []string{"check", "--robots", filepath.Join(t.TempDir(), "nope"), "--agent", "x", "/a"}, "", exitUsage, "", "read robots.txt"},
		{"bad max-bytes", []string{"check", "--robots", file, "--agent", "x", "--max-bytes", "0", "/a"}, "", exitUsage, "", "--max-bytes"},
		{"unknown flag", []string{"check", "--nope"}, "", exitUsage, "", "flag provided but not defined"},
		{"jsonl with robots flag", []string{"check", "--jsonl", "--robots", file}, "", exitUsage, "", "--jsonl"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runRobotsCmd(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit code = %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if tc.name != "help" && stdout != tc.stdout {
				t.Errorf("stdout = %q, want %q", stdout, tc.stdout)
			}
			if tc.name == "help" && !strings.Contains(stdout, "usage: repaudit robots check") {
				t.Errorf("help stdout = %q", stdout)
			}
			if !strings.Contains(stderr, tc.inStderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tc.inStderr)
			}
		})
	}
}

func TestRobotsCheckJSONL(t *testing.T) {
	q := func(m map[string]any) string {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	invalid := "User-agent: a\nDisallow: /x\nUser-agent: *\nDisallow: /\xfe\n"
	lines := []string{
		q(map[string]any{"robots": robotsCmdBody, "agent": "GPTBot", "url": "/a"}),
		q(map[string]any{"robots": robotsCmdBody, "agent": "googlebot", "url": "https://e.com/b"}),
		`{"robots": 3}`,
		"not json",
		q(map[string]any{"robots_b64": base64.StdEncoding.EncodeToString([]byte("User-agent: bot # \xff\nDisallow: /x\n")), "agent": "bot", "url": "/x"}),
		q(map[string]any{"robots_b64": base64.StdEncoding.EncodeToString([]byte(invalid)), "agent": "other", "url": "/%FE"}),
		q(map[string]any{"robots": robotsCmdBody, "agent": "x", "url": "/news/archive/2", "usage": "index"}),
		q(map[string]any{"robots": robotsCmdBody, "agent": "x", "url": "/a", "usage": "preserve"}),
		q(map[string]any{"agent": "x", "url": "/a"}),
		q(map[string]any{"robots": "", "url": "/a"}),
		q(map[string]any{"robots": "", "agent": "x"}),
		q(map[string]any{"robots": "", "robots_b64": "", "agent": "x", "url": "/"}),
		q(map[string]any{"robots_b64": "%%%", "agent": "x", "url": "/"}),
		"",
		q(map[string]any{"robots": "", "agent": "x", "url": "/"}),
	}
	want := []string{
		`{"allowed":false,"group":"GPTBot","rule":"Disallow: /","line":5,"group_line":4,"reason":"rule","evidence":"group \"GPTBot\" (line 4): line 5 \"Disallow: /\" matched"}`,
		`{"allowed":true,"group":"*","rule":"","line":0,"group_line":1,"reason":"no-matching-rule","evidence":"group \"*\" (line 1): no rule matched: allowed"}`,
		`{"error":"line 3: not a JSON object: json: cannot unmarshal number into Go struct field robotsQuestion.robots of type string"}`,
		`{"error":"line 4: not a JSON object: invalid character 'o' in literal null (expecting 'u')"}`,
		`{"allowed":false,"group":"bot","rule":"Disallow: /x","line":2,"group_line":1,"reason":"rule","evidence":"group \"bot\" (line 1): line 2 \"Disallow: /x\" matched"}`,
		`{"allowed":false,"group":"*","rule":"Disallow: /\ufffd","line":4,"group_line":3,"reason":"rule","evidence":"group \"*\" (line 3): line 4 \"Disallow: /\\xfe\" matched"}`,
		`{"allowed":false,"group":"*","rule":"ACAP-disallow-index: /news/archive/","line":8,"reason":"record","usage":"index","applies":true,"evidence":"ACAP index: crawler \"*\": line 8 \"ACAP-disallow-index: /news/archive/\" (record): prohibited"}`,
		`{"allowed":true,"group":"","rule":"","line":0,"reason":"no-acap-record","usage":"preserve","applies":false,"evidence":"ACAP preserve: no field for crawler and resource (no-acap-record): permitted"}`,
		`{"error":"line 9: missing \"robots\""}`,
		`{"error":"line 10: missing \"agent\""}`,
		`{"error":"line 11: missing \"url\""}`,
		`{"error":"line 12: give \"robots\" or \"robots_b64\", not both"}`,
		`{"error":"line 13: robots_b64: illegal base64 data at input byte 0"}`,
		`{"error":"line 14: not a JSON object: unexpected end of JSON input"}`,
		`{"allowed":true,"group":"","rule":"","line":0,"reason":"no-group","evidence":"no group for \"x\" and no \"*\" group: allowed"}`,
	}
	code, stdout, stderr := runRobotsCmd(t, strings.Join(lines, "\n"), "check", "--jsonl")
	if code != exitUsage {
		t.Errorf("exit code = %d, want %d (bad lines present)", code, exitUsage)
	}
	got := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("got %d output lines, want %d:\n%s", len(got), len(want), stdout)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
	if strings.Count(stderr, "repaudit robots check: line") != 8 {
		t.Errorf("stderr = %q, want 8 line errors", stderr)
	}

	// All good: exit 0, or 1 with --fail-on-disallowed.
	good := q(map[string]any{"robots": robotsCmdBody, "agent": "GPTBot", "url": "/a"}) + "\r\n"
	if code, _, stderr := runRobotsCmd(t, good, "check", "--jsonl"); code != exitOK {
		t.Errorf("exit code = %d, want 0 (stderr %q)", code, stderr)
	}
	if code, _, _ := runRobotsCmd(t, good, "check", "--jsonl", "--fail-on-disallowed"); code != exitFindings {
		t.Errorf("exit code = %d, want 1", code)
	}
	if code, stdout, _ := runRobotsCmd(t, "", "check", "--jsonl"); code != exitOK || stdout != "" {
		t.Errorf("empty input: code %d, stdout %q", code, stdout)
	}
}

// A robots.txt body far larger than bufio.Scanner's default token works,
// and --max-bytes applies to it.
func TestRobotsCheckJSONLLargeBody(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for b.Len() < 700*1024 {
		b.WriteString("Allow: /padding/padding/padding/padding/padding/padding\n")
	}
	b.WriteString("Disallow: /late\n")
	line, err := json.Marshal(map[string]string{"robots": b.String(), "agent": "x", "url": "/late"})
	if err != nil {
		t.Fatal(err)
	}
	in := string(line) + "\n" + string(line) + "\n"
	for _, tc := range []struct {
		args    []string
		allowed bool
	}{
		{[]string{"check", "--jsonl"}, true},
		{[]string{"check", "--jsonl", "--max-bytes", "1000000"}, false},
	} {
		code, stdout, stderr := runRobotsCmd(t, in, tc.args...)
		if code != exitOK {
			t.Fatalf("%v: exit code %d, stderr %q", tc.args, code, stderr)
		}
		outs := strings.Split(strings.TrimSpace(stdout), "\n")
		if len(outs) != 2 {
			t.Fatalf("%v: %d output lines, want 2", tc.args, len(outs))
		}
		for _, o := range outs {
			var a struct {
				Allowed   bool `json:"allowed"`
				Truncated bool `json:"truncated"`
			}
			if err := json.Unmarshal([]byte(o), &a); err != nil {
				t.Fatal(err)
			}
			if a.Allowed != tc.allowed || a.Truncated != tc.allowed {
				t.Errorf("%v: allowed %v truncated %v, want %v %v", tc.args, a.Allowed, a.Truncated, tc.allowed, tc.allowed)
			}
		}
	}
}
