package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/table"
)

// TestForcedFormatNothingRead: a log named on the command line of which
// no line can be read in the --log-format given fails the run as a file
// of no known kind does (ErrInputs, the reason in the error), instead of
// a run of 0 fetches that exits 0; the same file found in a directory
// stays a problem of its own (a README beside the logs), and the run
// goes on to read the rest.
func TestForcedFormatNothingRead(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "logs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(tmp, "access.log")
	if err := os.WriteFile(named, genLog(300, false), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "access.log"), genLog(10, false), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# logs\nthe web server's logs, rotated daily\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	cfg := onceConfig(filepath.Join(tmp, "out1"), named)
	cfg.LogFormat = accesslog.W3C
	cfg.MaxProblemsPerFile = 5 // the verdict is kept past the cap
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), cfg, col)
	if !errors.Is(err, ErrInputs) || !strings.Contains(err.Error(), "none of the 300 lines could be read as w3c") {
		t.Fatalf("err = %v, want ErrInputs saying none of the 300 lines could be read as w3c", err)
	}
	if sum == nil || !slices.Equal(sum.Failed, []string{named}) {
		t.Errorf("failed inputs = %v, want [%s]", sum.Failed, named)
	}
	codes := problemCodes(col)
	if codes[string(problem.LogNothingRead)] != 1 || codes[string(problem.InputUnreadable)] != 1 || codes[string(problem.InputEmpty)] != 0 {
		t.Errorf("problems = %v, want one %s and one %s, no %s", codes, problem.LogNothingRead, problem.InputUnreadable, problem.InputEmpty)
	}

	cfg = onceConfig(filepath.Join(tmp, "out2"), dir)
	cfg.LogFormat = accesslog.Combined
	col = &table.Collector{}
	if _, _, err := execute(context.Background(), cfg, col); err != nil {
		t.Fatalf("directory: err = %v, want none (the README found there is not named)", err)
	}
	codes = problemCodes(col)
	if len(col.Fetches) != 10 || codes[string(problem.LogNothingRead)] != 1 || codes[string(problem.InputUnreadable)] != 0 {
		t.Errorf("directory: %d fetches, problems %v; want 10 and the README's %s only", len(col.Fetches), codes, problem.LogNothingRead)
	}
}
