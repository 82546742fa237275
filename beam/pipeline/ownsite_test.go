package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/beam/internal/corpus"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/internal/ownsite"
	"github.com/repaudit/repaudit/output"
)

// ownFiles are the files of the own-site scenario (internal/ownsite): a
// publisher's nginx combined log (no host in it), the history of their
// robots.txt, and googlebot.json as Google publishes it.
type ownFiles struct {
	dir, log, warc, repo, snaps, v1, v2, ranges, rangesDir string
}

func writeOwnFiles(t *testing.T) ownFiles {
	t.Helper()
	f := ownsite.Write(t)
	return ownFiles{dir: f.Dir, log: f.Log, warc: f.WARC, repo: f.Repo, snaps: f.Snaps,
		v1: f.V1, v2: f.V2, ranges: f.Ranges, rangesDir: f.RangesDir}
}

// compareWithAudit runs the pipeline and audit.Run on cfg and checks every
// table as a multiset and the manifest's inputs; it returns audit's error
// (an ErrInputs when an input failed).
func compareWithAudit(t *testing.T, cfg Config) error {
	t.Helper()
	_, err := compareWithAuditOut(t, cfg)
	return err
}

// compareWithAuditOut is compareWithAudit that also returns the
// pipeline's output directory.
func compareWithAuditOut(t *testing.T, cfg Config) (string, error) {
	t.Helper()
	out, _, err := compareWithAuditRun(t, cfg)
	return out, err
}

// compareWithAuditRun is compareWithAuditOut that also returns the
// pipeline's result (its counters).
func compareWithAuditRun(t *testing.T, cfg Config) (string, beam.PipelineResult, error) {
	t.Helper()
	dir := t.TempDir()
	cfg.Out = filepath.Join(dir, "beam")
	pr := runPipeline(t, cfg)
	acfg := auditConfig(cfg)
	acfg.Out = filepath.Join(dir, "audit")
	_, aerr := audit.Run(context.Background(), acfg)
	if aerr != nil && !errors.Is(aerr, audit.ErrInputs) {
		t.Fatal(aerr)
	}
	compareOutputs(t, acfg.Out, cfg.Out)
	am, err := output.ReadManifest(acfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	bm, err := output.ReadManifest(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(bm.Inputs, am.Inputs) {
		t.Errorf("manifest inputs:\n got %+v\nwant %+v", bm.Inputs, am.Inputs)
	}
	if bm.AsOf != am.AsOf {
		t.Errorf("manifest as_of %s, audit %s", bm.AsOf, am.AsOf)
	}
	compareManifestNotes(t, am, bm)
	return cfg.Out, pr, aerr
}

// TestOwnSiteSourcesSameRowsAsAudit: --robots FILE[@TIME], --robots-git,
// --robots-dir, --ip-ranges-dir, a robots.txt among the inputs, and the
// site given with --site or inferred from the one authority the inputs
// name (or not settled at all) give the rows `audit` gives.
func TestOwnSiteSourcesSameRowsAsAudit(t *testing.T) {
	f := writeOwnFiles(t)
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"files, site given", Config{Inputs: []string{f.log}, Options: input.Options{Robots: []string{f.v1 + "@2025-04-20T08:00:00Z", f.v2 + "@2025-05-05T12:00:00Z"}, IPRanges: map[string][]string{"Googlebot": {f.ranges}}, Eval: evaluate.Options{DefaultAuthority: ownsite.Site}}}},
		{"git, ip-ranges-dir, site given", Config{Inputs: []string{f.log}, Options: input.Options{RobotsGit: []string{f.repo}, IPRangesDirs: []string{f.rangesDir}, Eval: evaluate.Options{DefaultAuthority: ownsite.Site}}}},
		{"snapshots, file without time", Config{Inputs: []string{f.log}, Options: input.Options{RobotsDir: []string{f.snaps}, Robots: []string{f.v2}, Eval: evaluate.Options{DefaultAuthority: ownsite.Site}}}},
		{"warc, site inferred", Config{Inputs: []string{f.log, f.warc}, Options: input.Options{IPRangesDirs: []string{f.rangesDir}}}},
		{"git and robots.txt input, site inferred from the warc", Config{Inputs: []string{f.log, f.warc, f.v2}, Options: input.Options{RobotsGit: []string{f.repo}}}},
		{"no site settled", Config{Inputs: []string{f.log}, Options: input.Options{RobotsGit: []string{f.repo}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := compareWithAudit(t, tc.cfg); err != nil {
				t.Errorf("audit: %v", err)
			}
		})
	}
}

// TestUnreadableInputsLikeAudit: a missing input, a missing --robots file,
// a corrupt compressed log and the same log given twice give the rows
// `audit` gives; the rest is judged.
func TestUnreadableInputsLikeAudit(t *testing.T) {
	f := writeOwnFiles(t)
	dup := filepath.Join(f.dir, "access-copy.log")
	bad := filepath.Join(f.dir, "broken.log.gz")
	if err := os.WriteFile(dup, []byte(ownsite.Log()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03not deflate at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Inputs: []string{f.log, dup, bad, filepath.Join(f.dir, "nope.log")},
		Options: input.Options{Robots: []string{filepath.Join(f.dir, "missing-robots.txt")}, RobotsGit: []string{f.repo}, Eval: evaluate.Options{DefaultAuthority: ownsite.Site}},
	}
	err := compareWithAudit(t, cfg)
	if !errors.Is(err, audit.ErrInputs) || !strings.Contains(err.Error(), "nope.log") || !strings.Contains(err.Error(), "broken.log.gz") {
		t.Errorf("audit: %v, want an input error naming nope.log and broken.log.gz", err)
	}
}

// TestSideInputsWaited: the stages that read the shared facts and the
// line offsets of split files wait for them whatever the runner schedules
// first (gate.go). With their producers slowed down, Prism would
// otherwise judge a site's host-less log lines in a partition of their
// own, with no robots.txt version (as CI once saw), a split log's lines
// without their offsets, and a hot partition in one shard, or in shards
// without a plan.
func TestSideInputsWaited(t *testing.T) {
	testStageHook = func(string) { time.Sleep(700 * time.Millisecond) }
	t.Cleanup(func() { testStageHook = nil })
	f := writeOwnFiles(t)
	if err := compareWithAudit(t, Config{Inputs: []string{f.log, f.warc}, Options: input.Options{IPRangesDirs: []string{f.rangesDir}}}); err != nil {
		t.Errorf("audit: %v", err)
	}
	dir := t.TempDir()
	if err := corpus.Generate(dir, corpus.Options{Hosts: 3, Lines: 1500, LogFiles: 1, WARCs: 1, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Inputs: []string{dir}, SplitBytes: 40_000, Options: input.Options{Eval: evaluate.Options{DefaultAuthority: corpus.Site}}}
	if err := compareWithAudit(t, cfg); err != nil {
		t.Errorf("audit: %v", err)
	}
	// A host-less log of many batches, spread over the route stage's
	// keys: GPTBot reading 5,000 pages in the own-site log, in time order.
	lines := strings.SplitAfter(ownsite.Log(), "\n")
	var sb strings.Builder
	for _, l := range lines[:9] { // up to 06/May/2025:09:10
		sb.WriteString(l)
	}
	at := time.Date(2025, 5, 6, 10, 0, 0, 0, time.UTC)
	for i := range 5000 {
		fmt.Fprintf(&sb, "20.171.207.10 - - [%s +0000] \"GET /news/%d HTTP/1.1\" 200 5120 \"-\" \"%s\"\n",
			at.Add(time.Duration(i)*time.Second).Format("02/Jan/2006:15:04:05"), i, ownsite.UAGPTBot)
	}
	for _, l := range lines[9:] {
		sb.WriteString(l)
	}
	big := filepath.Join(f.dir, "big.log")
	if err := os.WriteFile(big, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := compareWithAudit(t, Config{Inputs: []string{big, f.warc}, Options: input.Options{IPRangesDirs: []string{f.rangesDir}}}); err != nil {
		t.Errorf("audit: %v", err)
	}
	// Hot partitions: which are hot and their plans.
	checkHot(t, Config{Inputs: []string{f.log, f.warc}, Options: input.Options{IPRangesDirs: []string{f.rangesDir}}, HotFetches: 1})
}
