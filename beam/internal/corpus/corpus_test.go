package corpus

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/output"
)

// TestCorpusReadsCleanly checks that audit reads the whole generated
// corpus without problems and that it exercises what it claims to.
func TestCorpusReadsCleanly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "in")
	if err := Generate(dir, Options{Hosts: 24, Lines: 4000, LogFiles: 3, WARCs: 2, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	sum, err := audit.Run(context.Background(), audit.Config{
		Inputs: []string{dir}, Out: filepath.Join(dir, "..", "out"), Jobs: 2,
		Options: input.Options{Eval: evaluate.Options{DefaultAuthority: Site}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Problems != 0 {
		t.Errorf("%d input problems, want none", sum.Problems)
	}
	m, err := output.ReadManifest(filepath.Join(dir, "..", "out"))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Counts["fetches"]; got < 4000 {
		t.Errorf("fetches: %d, want every log line and more", got)
	}
	for _, kind := range []string{"disallowed_fetch", "unchecked_disallowed", "crawl_delay_ignored", "fetch_while_unreachable", "retention_expired"} {
		if sum.Findings[kind] == 0 {
			t.Errorf("no %s finding: %v", kind, sum.Findings)
		}
	}
	if m.Counts["robots_versions"] < 24 {
		t.Errorf("robots_versions: %d", m.Counts["robots_versions"])
	}
}
