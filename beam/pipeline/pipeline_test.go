package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/beam/internal/corpus"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/internal/parquetread"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
)

func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

const demo = "../../testdata/demo"

// demoConfig is the README's demo command.
func demoConfig(out string) Config {
	asOf := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	return Config{
		Inputs: []string{demo},
		Out:    out,
		Options: input.Options{
			Index:    []string{demo + "/index.csv"},
			Snippets: []string{demo + "/snippets.csv"},
			Eval: evaluate.Options{
				AsOf: asOf, IndexAgent: "googlebot", DefaultAuthority: "https://www.example.com",
			},
		},
	}
}

func auditConfig(c Config) audit.Config {
	return audit.Config{
		Inputs: c.Inputs, Out: c.Out, Options: c.Options, Jobs: 2,
	}
}

func runPipeline(t testing.TB, cfg Config) beam.PipelineResult {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := Build(context.Background(), s, cfg); err != nil {
		t.Fatal(err)
	}
	pr, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	return pr
}

// eachRow reads every Parquet file of a table and renders each row as
// one string of its columns.
func eachRow(t testing.TB, paths []string, fn func(row string)) {
	t.Helper()
	for _, p := range paths {
		_, err := parquetread.Groups(p, func(g *parquetread.Table) bool {
			var sb strings.Builder
			for r := range int(g.Rows) {
				sb.Reset()
				for c, name := range g.Names {
					sb.WriteString(name)
					sb.WriteByte('=')
					switch v := g.Cols[c][r].(type) {
					case *time.Time:
						if v == nil {
							sb.WriteString("NULL")
						} else {
							sb.WriteString(v.Format(time.RFC3339Nano))
						}
					default:
						fmt.Fprint(&sb, v)
					}
					sb.WriteByte('\t')
				}
				fn(sb.String())
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// tableRows returns a table's rows, sorted: a multiset to compare.
func tableRows(t testing.TB, paths []string) []string {
	t.Helper()
	var rows []string
	eachRow(t, paths, func(r string) { rows = append(rows, r) })
	slices.Sort(rows)
	return rows
}

// compareOutputs checks that the pipeline's part files hold the same rows
// as audit's tables, table by table, as multisets.
func compareOutputs(t testing.TB, auditDir, beamDir string) {
	t.Helper()
	for _, tb := range table.Tables {
		want := tableRows(t, []string{filepath.Join(auditDir, tb.Name+".parquet")})
		parts, _ := filepath.Glob(filepath.Join(beamDir, tb.Name, "*.parquet"))
		if len(parts) == 0 {
			t.Errorf("%s: no part files", tb.Name)
			continue
		}
		got := tableRows(t, parts)
		if slices.Equal(got, want) {
			t.Logf("%s: %d rows equal", tb.Name, len(got))
			continue
		}
		t.Errorf("%s: pipeline wrote %d rows, audit %d", tb.Name, len(got), len(want))
		shown := 0
		for _, r := range want {
			if !slices.Contains(got, r) && shown < 5 {
				t.Errorf("  missing: %s", r)
				shown++
			}
		}
		for _, r := range got {
			if !slices.Contains(want, r) && shown < 10 {
				t.Errorf("  extra:   %s", r)
				shown++
			}
		}
	}
}

func TestDemoSameRowsAsAudit(t *testing.T) {
	dir := t.TempDir()
	cfg := demoConfig(filepath.Join(dir, "beam"))
	runPipeline(t, cfg)

	acfg := auditConfig(demoConfig(filepath.Join(dir, "audit")))
	if _, err := audit.Run(context.Background(), acfg); err != nil {
		t.Fatal(err)
	}
	compareOutputs(t, filepath.Join(dir, "audit"), filepath.Join(dir, "beam"))

	// The manifest says what audit's says, apart from timings and command.
	am, err := output.ReadManifest(filepath.Join(dir, "audit"))
	if err != nil {
		t.Fatal(err)
	}
	bm, err := output.ReadManifest(filepath.Join(dir, "beam"))
	if err != nil {
		t.Fatal(err)
	}
	if bm.AsOf != am.AsOf || bm.Started != am.Started || bm.Finished != am.Finished || bm.SchemaVersion != am.SchemaVersion {
		t.Errorf("manifest as_of/started/finished/schema: got %s %s %s %d, want %s %s %s %d",
			bm.AsOf, bm.Started, bm.Finished, bm.SchemaVersion, am.AsOf, am.Started, am.Finished, am.SchemaVersion)
	}
	if !slices.Equal(bm.Inputs, am.Inputs) {
		t.Errorf("manifest inputs:\n got %+v\nwant %+v", bm.Inputs, am.Inputs)
	}
	compareManifestNotes(t, am, bm)
	for name, n := range am.Counts {
		if bm.Counts[name] != n {
			t.Errorf("manifest count %s: got %d, want %d", name, bm.Counts[name], n)
		}
	}
	// Nothing is left beside the output.
	if _, err := os.Stat(tmpDir(cfg.Out)); !os.IsNotExist(err) {
		t.Errorf("%s left behind: %v", tmpDir(cfg.Out), err)
	}
}

func TestCorpusSameRowsAsAudit(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := corpus.Generate(in, corpus.Options{Hosts: 12, Lines: 3000, LogFiles: 3, WARCs: 2, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Inputs: []string{in}, Options: input.Options{Eval: evaluate.Options{DefaultAuthority: corpus.Site}}}
	if err := compareWithAudit(t, cfg); err != nil {
		t.Fatal(err)
	}
}

// TestCommonCrawlSample audits a Common Crawl-shaped segment: CCBot judged
// by its own robots.txt fetches (beam/README.md, "At crawl scale").
func TestCommonCrawlSample(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "cc")
	if err := corpus.GenerateCC(in, 12); err != nil {
		t.Fatal(err)
	}
	out, err := compareWithAuditOut(t, Config{Inputs: []string{filepath.Join(in, "segment")}})
	if err != nil {
		t.Fatal(err)
	}
	parts, _ := filepath.Glob(filepath.Join(out, "violations", "*.parquet"))
	n := 0
	for _, r := range tableRows(t, parts) {
		if strings.Contains(r, "kind=captured_while_disallowed\t") && strings.Contains(r, "agent=CCBot\t") {
			n++
		}
	}
	if n == 0 {
		t.Error("no captured_while_disallowed finding for CCBot in the sample")
	}
}

// TestSplitLogsSameRowsAsAudit reads the corpus's logs in byte ranges of
// 40 KB (tens of ranges per file, boundaries inside lines), with broken
// lines and a per-file problem cap smaller than their number, and
// checks every table, the manifest's inputs, and that ranges were made.
func TestSplitLogsSameRowsAsAudit(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := corpus.Generate(in, corpus.Options{Hosts: 12, Lines: 6000, LogFiles: 2, WARCs: 1, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(in, "logs", "*"))
	if len(logs) == 0 {
		t.Fatal("corpus has no logs")
	}
	// Broken lines spread over one log: problems in many ranges.
	b, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for i, l := range strings.SplitAfter(string(b), "\n") {
		sb.WriteString(l)
		if i%97 == 0 {
			sb.WriteString("this is not a log line\n")
		}
	}
	if err := os.WriteFile(logs[0], []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Inputs: []string{in}, SplitBytes: 40_000, Options: input.Options{MaxProblemsPerFile: 20, Eval: evaluate.Options{DefaultAuthority: corpus.Site}}}
	refs, _, err := expand(context.Background(), &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if split := splitRefs(context.Background(), refs, &cfg); len(split) < len(refs)+10 {
		t.Fatalf("%d inputs made %d ranges: the logs were not split", len(refs), len(split))
	}
	if err := compareWithAudit(t, cfg); err != nil {
		t.Errorf("audit: %v", err)
	}
}

// compareManifestNotes checks that the pipeline's manifest has audit's
// notices, archive crawlers and catalog.
func compareManifestNotes(t testing.TB, am, bm *output.Manifest) {
	t.Helper()
	t.Logf("manifest: %d notices, %d archive crawlers", len(am.Notices), len(am.ArchiveCrawlers))
	if !slices.Equal(bm.Notices, am.Notices) {
		t.Errorf("manifest notices:\n got %+v\nwant %+v", bm.Notices, am.Notices)
	}
	if !slices.Equal(bm.ArchiveCrawlers, am.ArchiveCrawlers) {
		t.Errorf("manifest archive_crawlers:\n got %+v\nwant %+v", bm.ArchiveCrawlers, am.ArchiveCrawlers)
	}
	if bm.Catalog == nil || am.Catalog == nil || !reflect.DeepEqual(*bm.Catalog, *am.Catalog) {
		t.Errorf("manifest catalog: got %+v, want %+v", bm.Catalog, am.Catalog)
	}
}

// TestForcedFormatNothingReadFails: a log named on the command line none
// of whose lines can be read in the --log-format given is a failed input
// in both drivers, read whole or in byte ranges (the inputs-failed
// counter, audit's ErrInputs, the same rows); found in a directory
// beside readable logs (a README), it is not.
func TestForcedFormatNothingReadFails(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := corpus.Generate(in, corpus.Options{Hosts: 4, Lines: 2000, LogFiles: 1, WARCs: 1, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(in, "logs", "access-*"))
	if len(logs) != 1 {
		t.Fatalf("corpus logs %v, want one access log", logs)
	}
	for _, split := range []int64{-1, 40_000} {
		cfg := Config{Inputs: logs, SplitBytes: split, Options: input.Options{LogFormat: accesslog.W3C, MaxProblemsPerFile: 20,
			Eval: evaluate.Options{DefaultAuthority: corpus.Site}}}
		_, pr, err := compareWithAuditRun(t, cfg)
		if !errors.Is(err, audit.ErrInputs) || FailedInputs(pr) != 1 {
			t.Errorf("split %d: audit err %v, pipeline inputs-failed %d; want ErrInputs and 1", split, err, FailedInputs(pr))
		}
	}
	if err := os.WriteFile(filepath.Join(in, "logs", "README"), []byte("rotated daily\nby logrotate\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Inputs: []string{filepath.Join(in, "logs")}, Options: input.Options{LogFormat: accesslog.VhostCombined,
		Eval: evaluate.Options{DefaultAuthority: corpus.Site}}}
	if _, pr, err := compareWithAuditRun(t, cfg); err != nil || FailedInputs(pr) != 0 {
		t.Errorf("directory: audit err %v, pipeline inputs-failed %d; want none", err, FailedInputs(pr))
	}
}
