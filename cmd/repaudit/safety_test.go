package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
