package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditAsOfLine: an audit that judges archived records as of the
// default --as-of says which time the data chose and which record set
// it (the same captures beside a later log are judged as of another
// time); a given --as-of, or a run with nothing judged as of it, says
// nothing of it.
func TestAuditAsOfLine(t *testing.T) {
	dir := t.TempDir()
	warcFile := filepath.Join(dir, "crawl.warc.gz")
	writeExportWARC(t, warcFile)
	log := filepath.Join(dir, "access.log")
	line := `192.0.2.7 - - [02/Apr/2025:09:00:00 +0000] "GET /a HTTP/1.1" 200 10 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"` + "\n"
	if err := os.WriteFile(log, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	const prefix = "as of "
	cases := []struct {
		name string
		args []string
		want string // "" when no as-of line is expected
	}{
		{"archive", []string{warcFile}, "as of 2025-04-01T00:00:00Z, the latest time in the data, " + warcFile + "@"},
		{"archive and a later log", []string{warcFile, log, "--site", "https://www.example.org"}, "as of 2025-04-02T09:00:00Z, the latest time in the data, " + log + ":1:"},
		{"as-of given", []string{warcFile, "--as-of", "2025-05-01"}, ""},
		{"a log alone", []string{log, "--site", "https://www.example.org"}, ""},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "out"+string(rune('a'+i)))
			code, _, stderr := runCmd(t, append(append([]string{"audit"}, c.args...), "--out", out)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got string
			for _, l := range strings.Split(stderr, "\n") {
				if l = strings.TrimSpace(l); strings.HasPrefix(l, prefix) {
					got = l
				}
			}
			switch {
			case c.want == "" && got != "":
				t.Errorf("unexpected line %q", got)
			case c.want != "" && !strings.HasPrefix(got, c.want):
				t.Errorf("as-of line %q, want it to start %q\nstderr:\n%s", got, c.want, stderr)
			case c.want != "" && !strings.HasSuffix(got, "give --as-of to fix it"):
				t.Errorf("as-of line %q does not name --as-of", got)
			}
		})
	}
}
