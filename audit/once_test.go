package audit

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/repaudit/repaudit/audit/input"
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
	return Config{Inputs: inputs, Out: out, Jobs: 2, Options: input.Options{Eval: evaluate.Options{DefaultAuthority: "https://www.example.com"}}}
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
	d := sha256.Sum256(data)
	if len(sum.Files) != 1 || sum.Files[0].Path != "-" || sum.Files[0].Size != int64(len(data)) || sum.Files[0].SHA256 != hex.EncodeToString(d[:]) {
		t.Errorf("manifest inputs = %+v, want one input \"-\" of %d bytes, SHA-256 %x", sum.Files, len(data), d)
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
// or rewritten after pass 1 changes nothing: pass 2 judges the fetches
// pass 1 spooled, all of them, and the manifest's digest is that of the
// bytes read and judged.
func TestFileChangedBetweenPasses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(path string, data []byte) error
	}{
		{"truncated", func(p string, _ []byte) error { return os.Truncate(p, 0) }},
		{"rewritten", func(p string, d []byte) error {
			return os.WriteFile(p, []byte(strings.Replace(string(d), "/p1 ", "/q1 ", 1)), 0o644)
		}},
		{"removed", func(p string, _ []byte) error { return os.Remove(p) }},
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
			sum, _, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), path), col)
			if err != nil {
				t.Fatal(err)
			}
			if len(col.Fetches) != 500 || len(col.Problems) != 0 {
				t.Errorf("%d fetches, problems %v; want 500 and none", len(col.Fetches), problemCodes(col))
			}
			for _, f := range col.Fetches {
				if strings.HasPrefix(f.URL, "/q1") || strings.HasSuffix(f.URL, "/q1") {
					t.Errorf("fetch of %s: read after pass 1", f.URL)
				}
			}
			if d := sha256.Sum256(data); sum.Files[0].SHA256 != hex.EncodeToString(d[:]) || sum.Files[0].Size != int64(len(data)) {
				t.Errorf("manifest input %+v does not describe the %d bytes read", sum.Files[0], len(data))
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

// TestStdinGzip: a compressed log on standard input is sniffed from its
// first bytes and read on from there: every line is judged.
func TestStdinGzip(t *testing.T) {
	data := genLog(3000, false) // longer than the sniffed head
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	cfg := onceConfig(filepath.Join(t.TempDir(), "out"), StdinName)
	cfg.Stdin = &gz
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), cfg, col)
	if err != nil {
		t.Fatal(err)
	}
	if len(col.Fetches) != 3000 || sum.Files[0].Format != "combined" || sum.Files[0].Records != 3000 {
		t.Errorf("%d fetches, input %+v; want 3000 from a combined log", len(col.Fetches), sum.Files[0])
	}
}

// TestStdinRobots: a robots.txt on standard input (read whole, so copied
// to the spool) is the site's robots.txt, named "-".
func TestStdinRobots(t *testing.T) {
	tmp := t.TempDir()
	log := filepath.Join(tmp, "access.log")
	os.WriteFile(log, genLog(10, false), 0o644)
	body := "User-agent: *\nDisallow: /p1\n"
	cfg := onceConfig(filepath.Join(tmp, "out"), log, StdinName)
	cfg.Stdin = strings.NewReader(body)
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), cfg, col)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]string{}
	for _, f := range col.Fetches {
		verdicts[f.URL] = f.RobotsVerdict
	}
	if v := verdicts["https://www.example.com/p1"]; v != string(evaluate.VerdictDisallowed) {
		t.Errorf("/p1 is %q, want %s (verdicts %v)", v, evaluate.VerdictDisallowed, verdicts)
	}
	d := sha256.Sum256([]byte(body))
	if in := sum.Files[1]; in.Path != "-" || in.Kind != "robots" || in.SHA256 != hex.EncodeToString(d[:]) {
		t.Errorf("manifest input %+v, want - as robots", in)
	}
}

// TestPipeStallCancel: a named pipe whose writer sends part of a log and
// then stalls does not hang the run once ctx is done; nor does one that
// nobody opens.
func TestPipeStallCancel(t *testing.T) {
	for _, write := range []bool{true, false} {
		tmp := t.TempDir()
		fifo := filepath.Join(tmp, "pipe")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		stall := make(chan struct{})
		if write {
			go func() {
				f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					return
				}
				defer f.Close()
				f.Write(genLog(3000, false)) // past the sniffed head
				<-stall
			}()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		done := make(chan error, 1)
		go func() {
			_, _, err := execute(ctx, onceConfig(filepath.Join(tmp, "out"), fifo), &table.Collector{})
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("writer %v: err = %v, want the context's error", write, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("writer %v: audit of a stalled pipe did not stop when ctx was done", write)
		}
		cancel()
		close(stall)
		if m, _ := filepath.Glob(filepath.Join(tmp, ".repaudit-spool-*")); len(m) != 0 {
			t.Errorf("spool left behind: %v", m)
		}
	}
}

// TestSpoolOnDisk: spools too large for memory go to files beside the
// output while pass 2 runs, give the same rows as spools in memory, and
// are removed at the end.
func TestSpoolOnDisk(t *testing.T) {
	tmp := t.TempDir()
	var paths []string
	for i := range 3 {
		p := filepath.Join(tmp, fmt.Sprintf("access-%d.log", i))
		os.WriteFile(p, genLog(1500+i, i == 1), 0o644)
		paths = append(paths, p)
	}
	run := func(memPerFile int) *table.Collector {
		defer func(n int) { spoolMemPerFile = n }(spoolMemPerFile)
		spoolMemPerFile = memPerFile
		var spooled []string
		beforePass2 = func() { spooled, _ = filepath.Glob(filepath.Join(tmp, ".repaudit-spool-*", "fetches-*")) }
		defer func() { beforePass2 = nil }()
		col := &table.Collector{}
		if _, _, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), paths...), col); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: 0, false: 3}[memPerFile > 0]; len(spooled) != want {
			t.Errorf("memory %d: %d spool files during pass 2, want %d", memPerFile, len(spooled), want)
		}
		if m, _ := filepath.Glob(filepath.Join(tmp, ".repaudit-spool-*")); len(m) != 0 {
			t.Errorf("spool left behind: %v", m)
		}
		return col
	}
	mem, disk := run(4<<20), run(0)
	if len(mem.Fetches) != 4503 || !slices.EqualFunc(mem.Fetches, disk.Fetches, func(a, b table.Fetch) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
		t.Errorf("%d fetches in memory, %d from disk, or not the same rows", len(mem.Fetches), len(disk.Fetches))
	}
}

// TestSpoolDiskFull: a spool that cannot be written (a full disk) is an
// error naming the spool's file; the input counts as failed, and the
// other phases still run.
func TestSpoolDiskFull(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	defer func(n int, c func(string, string) (spoolFile, error)) { spoolMemPerFile, createSpoolFile = n, c }(spoolMemPerFile, createSpoolFile)
	spoolMemPerFile = 0
	createSpoolFile = func(string, string) (spoolFile, error) { return os.OpenFile("/dev/full", os.O_RDWR, 0) }
	tmp := t.TempDir()
	p := filepath.Join(tmp, "access.log")
	os.WriteFile(p, genLog(500, false), 0o644)
	col := &table.Collector{}
	sum, _, err := execute(context.Background(), onceConfig(filepath.Join(tmp, "out"), p), col)
	if !errors.Is(err, ErrInputs) || len(sum.Failed) != 1 || sum.Failed[0] != p {
		t.Errorf("err = %v, failed %v; want ErrInputs naming %s", err, sum.Failed, p)
	}
	var msg string
	for _, pr := range col.Problems {
		if pr.Code == "spool-write-failed" && pr.SourceFile == p && pr.Severity == "error" {
			msg = pr.Message
		}
	}
	if !strings.Contains(msg, "/dev/full") || !strings.Contains(msg, "no space left") || !strings.Contains(msg, "500 fetches") {
		t.Errorf("spool-write-failed message %q does not name the spool, the cause and what is lost", msg)
	}
	if len(col.Fetches) != 0 || sum.Files[0].Records != 500 {
		t.Errorf("%d fetches written, %d records read; want 0 and 500", len(col.Fetches), sum.Files[0].Records)
	}
}

// TestStdinDuplicate: standard input with the same content as a file
// among the inputs is read (it cannot be compared before), but its
// fetches are judged once, with a warning.
func TestStdinDuplicate(t *testing.T) {
	tmp := t.TempDir()
	p := filepath.Join(tmp, "access.log")
	data := genLog(700, false)
	os.WriteFile(p, data, 0o644)
	cfg := onceConfig(filepath.Join(tmp, "out"), p, StdinName)
	cfg.Stdin = bytes.NewReader(data)
	col := &table.Collector{}
	if _, _, err := execute(context.Background(), cfg, col); err != nil {
		t.Fatal(err)
	}
	var warned bool
	for _, pr := range col.Problems {
		warned = warned || pr.Code == "input-duplicate" && pr.SourceFile == StdinName && strings.Contains(pr.Message, p)
	}
	if len(col.Fetches) != 700 || !warned {
		t.Errorf("%d fetches, problems %+v; want 700 and an input-duplicate warning on -", len(col.Fetches), col.Problems)
	}
}

// TestRotatedLogsNewestFirst: rotated logs concatenated newest first
// (cat access.log access.log.1) are two ascending runs, the second
// earlier than the first, further apart than the reorder window
// absorbs. They give the same findings and verdicts as the same lines in
// time order, with an info row naming the line where time goes back.
func TestRotatedLogsNewestFirst(t *testing.T) {
	tmp := t.TempDir()
	robots := filepath.Join(tmp, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private\n"), 0o644)
	ua := `"Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"`
	t0 := time.Date(2025, 3, 12, 10, 0, 0, 0, time.UTC)
	n := 2*reorderWindow + 300
	lines := make([]string, n)
	for i := range n {
		target := fmt.Sprintf("/private/p%d", i)
		if i == 0 {
			target = "/robots.txt"
		}
		ts := t0.Add(time.Duration(i) * time.Minute).Format("02/Jan/2006:15:04:05")
		lines[i] = fmt.Sprintf("44.221.181.252 - - [%s +0000] \"GET %s HTTP/1.1\" 200 100 \"-\" %s\n", ts, target, ua)
	}
	half := n / 2
	rotated := append(slices.Clone(lines[half:]), lines[:half]...)
	run := func(name string, ls []string) (*table.Collector, map[string]int, map[string]string) {
		p := filepath.Join(tmp, name)
		os.WriteFile(p, []byte(strings.Join(ls, "")), 0o644)
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
		verdicts := map[string]string{}
		for _, f := range col.Fetches {
			verdicts[f.URL] = f.RobotsVerdict + " " + f.RobotsView
		}
		return col, kinds, verdicts
	}
	_, wantKinds, wantVerdicts := run("fwd.log", lines)
	col, gotKinds, gotVerdicts := run("rotated.log", rotated)
	if wantKinds[evaluate.KindDisallowedFetch] == 0 {
		t.Fatalf("time order: no %s finding (%v); the test cannot tell", evaluate.KindDisallowedFetch, wantKinds)
	}
	if !maps.Equal(gotKinds, wantKinds) {
		t.Errorf("findings: rotated %v, time order %v", gotKinds, wantKinds)
	}
	diff := 0
	for u, w := range wantVerdicts {
		if g := gotVerdicts[u]; g != w && diff < 3 {
			diff++
			t.Errorf("%s: rotated %q, time order %q", u, g, w)
		}
	}
	var named bool
	for _, pr := range col.Problems {
		if pr.Code == "log-out-of-order" && pr.Severity == "info" && pr.SourceLine == int64(n-half+1) {
			named = true
		}
	}
	if !named {
		t.Errorf("no log-out-of-order info row at line %d: %+v", n-half+1, col.Problems)
	}
}
