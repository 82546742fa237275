package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/table"
)

// TestUnreadableSubdirFailsRun: a subdirectory of a directory input that
// cannot be listed loses what it holds, so the run fails (ErrInputs) as
// for an unreadable named input, after writing the rest.
func TestUnreadableSubdirFailsRun(t *testing.T) {
	tmp := t.TempDir()
	in := filepath.Join(tmp, "logs")
	locked := filepath.Join(in, "locked")
	if err := os.MkdirAll(locked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "a.log"), genLog(10, false), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(locked, "b.log"), genLog(5, false), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	if _, err := os.ReadDir(locked); err == nil {
		// Root lists it all the same: make the walk fail as it would.
		defer func(e func([]string) ([]string, []event.Problem, error)) { expandInputs = e }(expandInputs)
		expandInputs = func(args []string) ([]string, []event.Problem, error) {
			paths, probs, err := ingest.Expand(args)
			paths = slices.DeleteFunc(paths, func(p string) bool { return filepath.Dir(p) == locked })
			probs = append(probs, event.Problem{Source: event.Source{File: locked, Offset: -1}, Code: ingest.ProblemDirUnreadable,
				Severity: event.SevError, Message: "directory could not be listed: permission denied"})
			return paths, probs, err
		}
	}
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), in), col)
	if !errors.Is(err, ErrInputs) {
		t.Fatalf("err = %v, want ErrInputs", err)
	}
	if sum == nil || !slices.Contains(sum.Failed, locked) {
		t.Errorf("failed inputs = %v, want %s among them", sum.Failed, locked)
	}
	if got := len(col.Fetches); got != 10 {
		t.Errorf("fetches = %d, want the 10 of a.log", got)
	}
	if problemCodes(col)[string(ingest.ProblemDirUnreadable)] != 1 {
		t.Errorf("problems = %v, want one %s", problemCodes(col), ingest.ProblemDirUnreadable)
	}
}
