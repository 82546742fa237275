package pipeline

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/beam/internal/corpus"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/table"
)

// BenchmarkLargeCorpus runs `audit` and the pipeline on Prism over the
// corpus in $REPAUDIT_BEAM_CORPUS (generated with repaudit-corpus; by
// default 120 hosts, 1M log lines, 4 WARCs are generated into a temporary
// directory), reports both wall times and log lines per second, and
// checks that every table holds the same rows. Not run by CI (minutes);
// run with -benchtime 1x. $REPAUDIT_BEAM_WORKERS sets Config.Workers.
func BenchmarkLargeCorpus(b *testing.B) {
	in := os.Getenv("REPAUDIT_BEAM_CORPUS")
	lines := 1000000
	if in == "" {
		in = filepath.Join(b.TempDir(), "corpus")
		if err := corpus.Generate(in, corpus.Options{Hosts: 120, Lines: lines, LogFiles: 8, WARCs: 4, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	workers, _ := strconv.Atoi(os.Getenv("REPAUDIT_BEAM_WORKERS"))
	for b.Loop() {
		dir := b.TempDir()
		cfg := Config{Inputs: []string{in}, Out: filepath.Join(dir, "beam"), Workers: workers,
			Options: input.Options{Eval: evaluate.Options{DefaultAuthority: corpus.Site}}}
		acfg := auditConfig(cfg)
		acfg.Out = filepath.Join(dir, "audit")
		acfg.Jobs = runtime.GOMAXPROCS(0)
		start := time.Now()
		sum, err := audit.Run(context.Background(), acfg)
		if err != nil {
			b.Fatal(err)
		}
		auditTime := time.Since(start)
		start = time.Now()
		runPipeline(b, cfg)
		beamTime := time.Since(start)
		var logLines int64
		for _, f := range sum.Files {
			if f.Kind == "log" {
				logLines += f.Records
			}
		}
		b.ReportMetric(auditTime.Seconds(), "audit-s")
		b.ReportMetric(beamTime.Seconds(), "beam-s")
		b.ReportMetric(float64(logLines)/auditTime.Seconds(), "audit-lines/s")
		b.ReportMetric(float64(logLines)/beamTime.Seconds(), "beam-lines/s")
		b.ReportMetric(float64(sum.Fetches), "fetches")
		compareDigests(b, acfg.Out, cfg.Out)
	}
}

// compareDigests is compareOutputs for large tables: it compares sorted
// SHA-256 digests of the rows.
func compareDigests(t testing.TB, auditDir, beamDir string) {
	t.Helper()
	digests := func(paths []string) [][32]byte {
		var out [][32]byte
		eachRow(t, paths, func(r string) { out = append(out, sha256.Sum256([]byte(r))) })
		slices.SortFunc(out, func(a, b [32]byte) int { return slices.Compare(a[:], b[:]) })
		return out
	}
	for _, tb := range table.Tables {
		want := digests([]string{filepath.Join(auditDir, tb.Name+".parquet")})
		parts, _ := filepath.Glob(filepath.Join(beamDir, tb.Name, "*.parquet"))
		got := digests(parts)
		if !slices.Equal(got, want) {
			t.Errorf("%s: rows differ (pipeline %d, audit %d)", tb.Name, len(got), len(want))
		} else {
			t.Logf("%s: %d rows equal", tb.Name, len(got))
		}
	}
}
