package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/bots"
)

func TestAuditIPRangesUnknownToken(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "googlebot.json")
	os.WriteFile(list, []byte(`{"prefixes":[{"ipv4Prefix":"66.249.64.0/27"}]}`), 0o644)
	tests := []struct {
		token, want string
	}{
		{"Googelbot", "did you mean Googlebot"},
		{"gptbot2", "did you mean GPTBot"},
		{"Googlebot-Imag", "Googlebot-Image"},
		{"Zzzqqq", `the catalog knows no bot "Zzzqqq" (add it with --bots FILE`},
	}
	for _, tt := range tests {
		var se bytes.Buffer
		code := run(context.Background(), []string{"audit", "--out", filepath.Join(dir, "out"), "--ip-ranges", tt.token + "=" + list, list},
			stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se})
		if code != exitUsage || !strings.Contains(se.String(), tt.want) {
			t.Errorf("--ip-ranges %s: exit %d, stderr %q; want %d and %q", tt.token, code, se.String(), exitUsage, tt.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
			t.Errorf("--ip-ranges %s: output written", tt.token)
		}
	}
}

func TestDidYouMeanToken(t *testing.T) {
	c := bots.Default()
	tests := []struct{ in, want string }{
		{"googlebot", "; did you mean Googlebot"}, // case only: distance 0
		{"ClaudBot", "ClaudeBot"},
		{"xyzzy-not-a-bot", ""},
	}
	for _, tt := range tests {
		if got := didYouMean(tt.in, c); !strings.Contains(got, tt.want) || (tt.want == "") != (got == "") {
			t.Errorf("didYouMean(%q) = %q, want it to contain %q", tt.in, got, tt.want)
		}
	}
	if d := editDistance("kitten", "sitting"); d != 3 {
		t.Errorf("editDistance(kitten, sitting) = %d, want 3", d)
	}
}
