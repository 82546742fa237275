package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files in testdata/")

// TestMain lets a test run the command in a child process (for the kill
// test): with REPAUDIT_TEST_MAIN set, the test binary is repaudit.
func TestMain(m *testing.M) {
	if os.Getenv("REPAUDIT_TEST_MAIN") == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), endSignals...) // as main
		code := run(ctx, os.Args[1:], stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

const demo = "../../testdata/demo"

func demoArgs(out string, extra ...string) []string {
	args := []string{"audit", demo,
		"--index", demo + "/index.csv", "--snippets", demo + "/snippets.csv",
		"--index-agent", "googlebot", "--site", "https://www.example.com",
		"--as-of", "2025-06-01", "--out", out}
	return append(args, extra...)
}

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), args, stdio{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e})
	return code, o.String(), e.String()
}

// auditDemo runs the demo audit once per test binary.
var demoOut string

func auditDemo(t *testing.T) string {
	t.Helper()
	if demoOut != "" {
		return demoOut
	}
	dir, err := os.MkdirTemp("", "repaudit-demo-test")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, _, stderr := runCmd(t, demoArgs(out)...)
	if code != exitOK {
		t.Fatalf("audit exit %d, stderr:\n%s", code, stderr)
	}
	demoOut = out
	return out
}
