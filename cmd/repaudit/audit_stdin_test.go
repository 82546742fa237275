package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/output"
)

// TestAuditStdinPipe: `cat access.log | repaudit audit /dev/stdin` and
// `... | repaudit audit -` judge every line of the pipe (the audit used
// to read it twice and find it empty the second time), and the manifest
// names the input as given, with the size and SHA-256 of the bytes read.
func TestAuditStdinPipe(t *testing.T) {
	logPath := demo + "/logs/access-2025-03-01.log"
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	want := int64(bytes.Count(data, []byte("\n")))
	sum := sha256.Sum256(data)
	for _, name := range []string{"/dev/stdin", "-"} {
		t.Run(strings.Trim(name, "/"), func(t *testing.T) {
			if _, err := os.Stat("/dev/stdin"); err != nil && name == "/dev/stdin" {
				t.Skip("no /dev/stdin here")
			}
			out := filepath.Join(t.TempDir(), "out")
			cmd := exec.Command(os.Args[0], "audit", name, "--site", "https://www.example.com", "--out", out, "-q")
			cmd.Env = append(os.Environ(), "REPAUDIT_TEST_MAIN=1")
			cmd.Stdin = bytes.NewReader(data) // a pipe in the child
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("audit %s: %v\n%s", name, err, stderr.String())
			}
			m, err := output.ReadManifest(out)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Inputs) != 1 {
				t.Fatalf("inputs = %+v, want one", m.Inputs)
			}
			in := m.Inputs[0]
			if in.Path != name || in.Records != want || in.Size != int64(len(data)) || in.SHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("manifest input = %+v, want %s, %d records, %d bytes", in, name, want, len(data))
			}
			if got := m.Counts["fetches"]; got != want {
				t.Errorf("fetches = %d, want %d", got, want)
			}
		})
	}
}
