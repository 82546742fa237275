package main

import (
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
