package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

const demo = "../testdata/demo"

func demoConfig(out string, jobs int) Config {
	at, _ := time.Parse(time.RFC3339, "2025-06-01T00:00:00Z")
	return Config{
		Inputs: []string{demo},
		Out:    out,
		Jobs:   jobs,
		Options: input.Options{
			Index:    []string{demo + "/index.csv"},
			Snippets: []string{demo + "/snippets.csv"},
			Eval: evaluate.Options{AsOf: at, IndexAgent: "googlebot", DefaultAuthority: "https://www.example.com",
				RobotsTTL: 24 * time.Hour},
		},
	}
}

// TestRunSameOutputForAnyJobs: the tables must not depend on how many
// workers read and judged the inputs.
func TestRunSameOutputForAnyJobs(t *testing.T) {
	tmp := t.TempDir()
	var outs []string
	for _, jobs := range []int{1, 2, 7} {
		out := filepath.Join(tmp, fmt.Sprint("j", jobs))
		if _, err := Run(context.Background(), demoConfig(out, jobs)); err != nil {
			t.Fatalf("jobs=%d: %v", jobs, err)
		}
		outs = append(outs, out)
	}
	sameTables(t, outs)
}

func TestRunSummary(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	sum, err := Run(context.Background(), demoConfig(out, 2))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Counts["violations"] != 27 || sum.Counts["fetches"] != 60 {
		t.Errorf("counts = %v, want 27 violations and 60 fetches", sum.Counts)
	}
	var n int64
	for _, c := range sum.Findings {
		n += c
	}
	if n != 27 {
		t.Errorf("findings by kind add up to %d, want 27", n)
	}
	// manifest.json records the bot catalog's data versions.
	m, err := output.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Catalog; c == nil || c.CrawlerUserAgents == "" || c.Bots < 1000 {
		t.Errorf("manifest catalog = %+v, want the data versions and the bot count", c)
	}
	// README.md in the demo directory is skipped with a note, not an error.
	if len(sum.Failed) != 0 {
		t.Errorf("failed inputs: %v", sum.Failed)
	}
	for _, f := range sum.Files {
		if strings.HasSuffix(f.Path, "README.md") {
			t.Errorf("README.md was read as an input")
		}
		if f.SHA256 == "" || f.Kind == "" {
			t.Errorf("input %s lacks digest or kind: %+v", f.Path, f)
		}
	}
}

// TestMergeOrdersAcrossFiles: fetches split across files and slightly out
// of order within a file are judged in time order (crawl-delay depends on
// it).
func TestMergeOrdersAcrossFiles(t *testing.T) {
	tmp := t.TempDir()
	ua := `"Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"`
	line := func(ts, path string) string {
		return `44.221.181.252 - - [` + ts + ` +0000] "GET ` + path + ` HTTP/1.1" 200 100 "-" ` + ua + "\n"
	}
	// File a holds 10:00:00 and 10:00:20 (written out of order); file b
	// holds 10:00:10. Merged: /1, /2, /3.
	os.WriteFile(filepath.Join(tmp, "a.log"), []byte(line("12/Mar/2025:10:00:20", "/3")+line("12/Mar/2025:10:00:00", "/1")), 0o644)
	os.WriteFile(filepath.Join(tmp, "b.log"), []byte(line("12/Mar/2025:10:00:10", "/2")), 0o644)
	out := filepath.Join(tmp, "out")
	cfg := Config{Inputs: []string{filepath.Join(tmp, "a.log"), filepath.Join(tmp, "b.log")}, Out: out, Jobs: 2,
		Options: input.Options{Eval: evaluate.Options{DefaultAuthority: "https://www.example.com"}}}
	col := &table.Collector{}
	if err := runInto(context.Background(), cfg, col); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range col.Fetches {
		paths = append(paths, f.URLPath)
	}
	if got := strings.Join(paths, " "); got != "/1 /2 /3" {
		t.Errorf("fetch order = %q, want \"/1 /2 /3\"", got)
	}
}

// sameTables fails t unless every table is byte-identical in every output
// directory of outs.
func sameTables(t *testing.T, outs []string) {
	t.Helper()
	for _, info := range table.Tables {
		first, err := os.ReadFile(filepath.Join(outs[0], info.Name+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range outs[1:] {
			b, err := os.ReadFile(filepath.Join(o, info.Name+".parquet"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first, b) {
				t.Errorf("%s.parquet differs between %s and %s", info.Name, outs[0], o)
			}
		}
	}
}

// readManifest reads the manifest.json of the audit directory out.
func readManifest(t *testing.T, out string) output.Manifest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m output.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
