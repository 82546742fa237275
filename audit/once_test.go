package audit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/table"
)

// genLog writes n combined-log lines, one a second from 10:00:00, each
// fetching /p<i>; reversed writes them newest first.
func genLog(n int, reversed bool) []byte {
	ua := `"Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"`
	t0 := time.Date(2025, 3, 12, 10, 0, 0, 0, time.UTC)
	lines := make([]string, n)
	for i := range n {
		ts := t0.Add(time.Duration(i) * time.Second).Format("02/Jan/2006:15:04:05")
		lines[i] = fmt.Sprintf("44.221.181.252 - - [%s +0000] \"GET /p%d HTTP/1.1\" 200 100 \"-\" %s\n", ts, i, ua)
	}
	if reversed {
		slices.Reverse(lines)
	}
	return []byte(strings.Join(lines, ""))
}

func onceConfig(out string, inputs ...string) Config {
	return Config{Inputs: inputs, Out: out, Jobs: 2, Eval: evaluate.Options{DefaultAuthority: "https://www.example.com"}}
}

func problemCodes(col *table.Collector) map[string]int {
	m := map[string]int{}
	for _, p := range col.Problems {
		m[p.Code]++
	}
	return m
}

// TestStdinJudgedOnce: "-" reads standard input once; both passes see
// every line, and the manifest describes exactly those bytes under the
// name "-".
func TestStdinJudgedOnce(t *testing.T) {
	tmp := t.TempDir()
	data := genLog(2000, false)
	cfg := onceConfig(filepath.Join(tmp, "out"), StdinName)
	cfg.Stdin = strings.NewReader(string(data))
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), cfg, col)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(col.Fetches); got != 2000 {
		t.Errorf("fetches = %d, want 2000", got)
	}
	if len(sum.Files) != 1 || sum.Files[0].Path != "-" || sum.Files[0].Size != int64(len(data)) || sum.Files[0].SHA256 == "" {
		t.Errorf("manifest inputs = %+v, want one input \"-\" of %d bytes", sum.Files, len(data))
	}
	if m, _ := filepath.Glob(filepath.Join(tmp, ".repaudit-spool-*")); len(m) != 0 {
		t.Errorf("spool left behind: %v", m)
	}
}

// TestPipeJudgedOnce: a named pipe (as /dev/stdin or <(zcat x.gz) are)
// can be read only once; it is spooled, and every line is judged.
func TestPipeJudgedOnce(t *testing.T) {
	tmp := t.TempDir()
	fifo := filepath.Join(tmp, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	data := genLog(3000, false)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), fifo), col)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(col.Fetches); got != 3000 {
		t.Errorf("fetches = %d, want 3000", got)
	}
	if sum.Files[0].Path != fifo || sum.Files[0].Size != int64(len(data)) {
		t.Errorf("manifest input = %+v, want %s of %d bytes", sum.Files[0], fifo, len(data))
	}
	for _, p := range col.Problems {
		if strings.Contains(p.SourceFile, "spool") {
			t.Errorf("problem names the spool: %+v", p)
		}
	}
}

// TestStdinMissing: "-" without a standard input is a failed input.
func TestStdinMissing(t *testing.T) {
	_, _, err := execute(context.Background(), onceConfig(filepath.Join(t.TempDir(), "out"), StdinName), &table.Collector{})
	if !errors.Is(err, ErrInputs) {
		t.Errorf("err = %v, want ErrInputs", err)
	}
}

// TestFileChangedBetweenPasses: a file truncated (logrotate copytruncate)
// or rewritten after pass 1 makes an input-changed error and a failed
// input, never a quiet run with fewer fetches.
func TestFileChangedBetweenPasses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(path string, data []byte) error
	}{
		{"truncated", func(p string, _ []byte) error { return os.Truncate(p, 0) }},
		{"rewritten", func(p string, d []byte) error {
			return os.WriteFile(p, []byte(strings.Replace(string(d), "/p1 ", "/q1 ", 1)), 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			path := filepath.Join(tmp, "access.log")
			data := genLog(500, false)
			os.WriteFile(path, data, 0o644)
			beforePass2 = func() {
				if err := tc.change(path, data); err != nil {
					t.Fatal(err)
				}
			}
			defer func() { beforePass2 = nil }()
			col := &table.Collector{}
			_, _, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), path), col)
			if !errors.Is(err, ErrInputs) {
				t.Errorf("err = %v, want ErrInputs", err)
			}
			if problemCodes(col)["input-changed"] != 1 {
				t.Errorf("problems = %v, want one input-changed", problemCodes(col))
			}
		})
	}
}

// TestFileGrowsBetweenPasses: a log still being written is judged on the
// bytes pass 1 read; the lines added later are not a change.
func TestFileGrowsBetweenPasses(t *testing.T) {
	tmp := t.TempDir()
	path := filepath.Join(tmp, "access.log")
	data := genLog(500, false)
	os.WriteFile(path, data, 0o644)
	beforePass2 = func() {
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.Write(genLog(10, false))
		f.Close()
	}
	defer func() { beforePass2 = nil }()
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), path), col)
	if err != nil {
		t.Fatal(err)
	}
	if len(col.Fetches) != 500 || sum.Files[0].Size != int64(len(data)) {
		t.Errorf("fetches = %d, size = %d; want 500 and %d", len(col.Fetches), sum.Files[0].Size, len(data))
	}
}

// TestNewestFirstLog: a log written newest first gives the same
// crawl-delay findings as the same log written oldest first (it is
// longer than the reorder window, which alone would not restore order).
func TestNewestFirstLog(t *testing.T) {
	tmp := t.TempDir()
	robots := filepath.Join(tmp, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nCrawl-delay: 10\n"), 0o644)
	n := reorderWindow * 2
	run := func(name string, reversed bool) (*table.Collector, map[string]int) {
		p := filepath.Join(tmp, name)
		os.WriteFile(p, genLog(n, reversed), 0o644)
		cfg := onceConfig(filepath.Join(tmp, "out-"+name), p)
		cfg.Robots = []string{robots + "@2025-01-01T00:00:00Z"}
		col := &table.Collector{}
		if _, _, err := execute(context.Background(), cfg, col); err != nil {
			t.Fatal(err)
		}
		kinds := map[string]int{}
		for _, v := range col.Violations {
			kinds[v.Kind]++
		}
		return col, kinds
	}
	_, fwd := run("fwd.log", false)
	col, rev := run("rev.log", true)
	if fwd[evaluate.KindCrawlDelayIgnored] == 0 {
		t.Fatalf("forward log: no %s finding (%v); the test cannot tell", evaluate.KindCrawlDelayIgnored, fwd)
	}
	if fwd[evaluate.KindCrawlDelayIgnored] != rev[evaluate.KindCrawlDelayIgnored] {
		t.Errorf("crawl-delay findings: forward %d, newest first %d", fwd[evaluate.KindCrawlDelayIgnored], rev[evaluate.KindCrawlDelayIgnored])
	}
	if problemCodes(col)["log-newest-first"] != 1 {
		t.Errorf("problems = %v, want one log-newest-first", problemCodes(col))
	}
}

// TestNewestFirstTooLarge: a newest-first log too large to sort is
// judged as it comes, with a warning that names the fix.
func TestNewestFirstTooLarge(t *testing.T) {
	defer func(c int64) { newestFirstCap = c }(newestFirstCap)
	newestFirstCap = reorderWindow
	tmp := t.TempDir()
	p := filepath.Join(tmp, "rev.log")
	os.WriteFile(p, genLog(reorderWindow+100, true), 0o644)
	col := &table.Collector{}
	if _, _, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), p), col); err != nil {
		t.Fatal(err)
	}
	var warned bool
	for _, pr := range col.Problems {
		if pr.Code == "log-newest-first" && pr.Severity == "warning" && strings.Contains(pr.Message, "tac") && pr.SourceFile == p {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no log-newest-first warning naming tac: %+v", col.Problems)
	}
}

// TestStdinCancel: a standard input nobody writes to does not hang the
// run once ctx is done.
func TestStdinCancel(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	cfg := onceConfig(filepath.Join(t.TempDir(), "out"), StdinName)
	cfg.Stdin = r
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, _, err := execute(ctx, cfg, &table.Collector{})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want the context's error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("audit of a silent stdin did not stop when ctx was done")
	}
}
