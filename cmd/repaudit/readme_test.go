//go:build cgo

package main

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// The README shows the first lines of the demo's report between these
// markers, in a code block.
const (
	readmePath   = "../../README.md"
	excerptBegin = "<!-- demo-report: begin"
	excerptEnd   = "<!-- demo-report: end -->"
)

// TestReadmeDemoExcerpt: the demo report's excerpt in README.md is what
// the README's demo command prints (at 120 columns): the headline lines
// and the first rows of the lead section, findings by bot. With -update
// it rewrites the excerpt.
func TestReadmeDemoExcerpt(t *testing.T) {
	out := auditDemo(t)
	code, stdout, stderr := runMain(t, map[string]string{"COLUMNS": "120"}, "report", out)
	if code != exitOK {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	want, err := demoExcerpt(stdout)
	if err != nil {
		t.Fatalf("%v in the report:\n%s", err, stdout)
	}
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	before, got, after, err := cutExcerpt(readme)
	if err != nil {
		t.Fatal(err)
	}
	if *updateGolden {
		got = want
		if err := os.WriteFile(readmePath, []byte(before+"```\n"+want+"```\n"+after), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got != want {
		t.Errorf("README.md's demo excerpt differs from the report (go test ./cmd/repaudit -run TestReadmeDemoExcerpt -update)\n--- README ---\n%s--- report ---\n%s", got, want)
	}
}

// excerptRows is how many rows of the findings by bot table the README
// shows; "…" stands for the rest.
const excerptRows = 5

// demoExcerpt cuts the README's excerpt from a text report: from the
// first headline line (after the header and its blank line) through the
// first excerptRows rows of the findings by bot table, whose header rule
// is the first line of dashes after its title.
func demoExcerpt(report string) (string, error) {
	lines := strings.SplitAfter(report, "\n")
	start := -1
	for i, l := range lines {
		if l == "\n" {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return "", errors.New("no blank line after the header")
	}
	title := -1
	for i := start; i < len(lines); i++ {
		if lines[i] == "Findings by bot\n" {
			title = i
			break
		}
	}
	if title < 0 {
		return "", errors.New("no section Findings by bot")
	}
	rule := title + 2 // past the title's underline
	for rule < len(lines) && !strings.HasPrefix(lines[rule], "---") {
		rule++
	}
	end := rule + 1
	for end < len(lines) && end <= rule+excerptRows && lines[end] != "\n" {
		end++
	}
	if rule >= len(lines) {
		return "", errors.New("no table under Findings by bot")
	}
	return strings.Join(lines[start:end], "") + "…\n", nil
}

// cutExcerpt splits the README around the code block between the
// markers: the text up to and including the begin marker's line, the
// block's content, and the text from the end marker on.
func cutExcerpt(readme string) (before, excerpt, after string, err error) {
	b := strings.Index(readme, excerptBegin)
	e := strings.Index(readme, excerptEnd)
	if b < 0 || e < b {
		return "", "", "", errors.New("README.md has no demo excerpt markers")
	}
	nl := strings.IndexByte(readme[b:], '\n')
	before, block, after := readme[:b+nl+1], readme[b+nl+1:e], readme[e:]
	if !strings.HasPrefix(block, "```\n") || !strings.HasSuffix(block, "```\n") {
		return "", "", "", errors.New("README.md's demo excerpt is not one code block")
	}
	return before, strings.TrimSuffix(strings.TrimPrefix(block, "```\n"), "```\n"), after, nil
}
