package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
)

// writeBenchLog writes n combined log lines from a realistic mix of bots
// and browsers on the demo site, one per 50 ms, starting 2025-03-12.
func writeBenchLog(b *testing.B, path string, n int) int64 {
	b.Helper()
	uas := []string{
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
		"CCBot/2.0 (https://commoncrawl.org/faq/)",
		"Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
	}
	paths := []string{"/", "/news/a", "/news/b?page=2", "/private/salaries", "/blog/post", "/about", "/archive/2019/x", "/robots.txt", "/members/list", "/static/app.js"}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	start := time.Date(2025, 3, 12, 0, 0, 0, 0, time.UTC)
	var sb strings.Builder
	for i := 0; i < n; i++ {
		t := start.Add(time.Duration(i) * 50 * time.Millisecond)
		fmt.Fprintf(&sb, "192.0.2.%d - - [%s] \"GET %s HTTP/1.1\" 200 %d \"-\" \"%s\"\n",
			i%250, t.Format("02/Jan/2006:15:04:05 -0700"), paths[(i*7)%len(paths)], 1000+i%5000, uas[(i*3)%len(uas)])
		if sb.Len() > 1<<20 {
			f.WriteString(sb.String())
			sb.Reset()
		}
	}
	f.WriteString(sb.String())
	st, _ := f.Stat()
	return st.Size()
}

// BenchmarkAuditEndToEnd measures a whole audit (both passes, judging,
// Parquet) of a 200k-line log against the demo site's robots.txt history.
func BenchmarkAuditEndToEnd(b *testing.B) {
	const lines = 200000
	dir := b.TempDir()
	logPath := filepath.Join(dir, "access.log")
	size := writeBenchLog(b, logPath, lines)
	b.SetBytes(size)
	b.ReportAllocs()
	i := 0
	var rows int64
	for b.Loop() {
		i++
		out := filepath.Join(dir, fmt.Sprint("out", i))
		sum, err := Run(context.Background(), Config{
			Inputs: []string{demo + "/archive", logPath}, Out: out,
			Options: input.Options{Eval: evaluate.Options{DefaultAuthority: "https://www.example.com"}},
		})
		if err != nil {
			b.Fatal(err)
		}
		rows = 0
		for _, n := range sum.Counts {
			rows += n
		}
		os.RemoveAll(out)
	}
	sec := b.Elapsed().Seconds() / float64(i)
	b.ReportMetric(float64(lines)/sec, "fetches/s")
	b.ReportMetric(float64(rows)/sec, "rows/s")
}

// BenchmarkAuditCorpus audits the inputs under $REPAUDIT_BENCH_CORPUS
// (skipped when unset) with $REPAUDIT_BENCH_JOBS judging workers (default
// GOMAXPROCS, which -cpu sets): a way to take an execution trace of a
// whole audit, for instance to see which pass-2 stage waits on which:
//
//	REPAUDIT_BENCH_CORPUS=/tmp/c1 go test -run XXX -bench AuditCorpus \
//	  -benchtime 1x -cpu 2 -trace trace.out ./audit
//	go tool trace -pprof=sync trace.out > sync.prof
func BenchmarkAuditCorpus(b *testing.B) {
	corpus := os.Getenv("REPAUDIT_BENCH_CORPUS")
	if corpus == "" {
		b.Skip("REPAUDIT_BENCH_CORPUS not set")
	}
	jobs := 0
	if s := os.Getenv("REPAUDIT_BENCH_JOBS"); s != "" {
		fmt.Sscan(s, &jobs)
	}
	dir := b.TempDir()
	i := 0
	for b.Loop() {
		i++
		out := filepath.Join(dir, fmt.Sprint("out", i))
		if _, err := Run(context.Background(), Config{Inputs: []string{corpus}, Out: out, Jobs: jobs}); err != nil {
			b.Fatal(err)
		}
		os.RemoveAll(out)
	}
}
