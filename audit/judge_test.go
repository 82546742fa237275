package audit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/table"
	"github.com/repaudit/repaudit/warc"
)

// writeMultiHostCorpus writes a WARC of robots.txt captures for hosts
// host-0..host-(hosts-1), several versions each (one a 503), and logs
// vhost_combined log files whose time ranges overlap, with timestamps that
// tie across files and slight disorder within each file, so the merge
// order (time, file, line) decides. It returns the inputs.
func writeMultiHostCorpus(t *testing.T, dir string, hosts, logs, lines int) []string {
	t.Helper()
	t0 := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	var buf bytes.Buffer
	n := 0
	w := warc.NewWriter(&buf, warc.WriterOptions{NewID: func() string {
		n++
		return fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", n)
	}})
	for h := range hosts {
		for v := range 3 {
			body := fmt.Sprintf("User-agent: *\nDisallow: /private/\nCrawl-delay: %d\n\nUser-agent: GPTBot\nDisallow: /\nAllow: /open/\n", 2+v)
			if v == 1 && h%2 == 1 {
				body = "User-agent: *\nDisallow: /v1/\n"
			}
			status := "200 OK"
			if v == 2 && h%3 == 0 {
				status, body = "503 Service Unavailable", ""
			}
			err := w.WriteExchange(&warc.Exchange{
				URL:          fmt.Sprintf("https://host-%d.example/robots.txt", h),
				Time:         t0.Add(time.Duration(v*2*24)*time.Hour + time.Duration(h)*time.Minute),
				ResponseHead: []byte("HTTP/1.1 " + status + "\r\nContent-Type: text/plain\r\n\r\n"),
				Body:         []byte(body),
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	warcPath := filepath.Join(dir, "robots.warc.gz")
	if err := os.WriteFile(warcPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []string{warcPath}
	uas := []string{
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"CCBot/2.0 (https://commoncrawl.org/faq/)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
	}
	paths := []string{"/", "/private/a", "/open/b", "/v1/c", "/robots.txt", "/news/d?page=2"}
	rng := rand.New(rand.NewPCG(7, 11))
	span := 6 * 24 * time.Hour
	for f := range logs {
		p := filepath.Join(dir, fmt.Sprintf("access-%d.log", f))
		fh, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		bw := bufio.NewWriter(fh)
		for i := range lines {
			at := t0.Add(span * time.Duration(i) / time.Duration(lines)).Truncate(time.Second)
			if i%17 == 5 {
				at = at.Add(-3 * time.Second) // local disorder
			}
			fmt.Fprintf(bw, "host-%d.example:443 192.0.2.%d - - [%s] \"GET %s HTTP/1.1\" 200 %d \"-\" \"%s\"\n",
				rng.IntN(hosts), 1+rng.IntN(200), at.Format("02/Jan/2006:15:04:05 -0700"),
				paths[rng.IntN(len(paths))], 100+rng.IntN(5000), uas[rng.IntN(len(uas))])
		}
		if err := bw.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := fh.Close(); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, p)
	}
	return inputs
}

// TestJudgeAllSameBytesForAnyJobs: pass 2 judges tasks on any number of
// workers and writes the two tables from goroutines of their own; the
// Parquet bytes must not depend on -j. The input spans many judging tasks,
// several files with overlapping times and many authorities.
func TestJudgeAllSameBytesForAnyJobs(t *testing.T) {
	tmp := t.TempDir()
	const logs, lines = 3, 3000
	inputs := writeMultiHostCorpus(t, tmp, 7, logs, lines)
	var outs []string
	for _, jobs := range []int{1, 2, 4} {
		out := filepath.Join(tmp, fmt.Sprint("j", jobs))
		sum, err := Run(context.Background(), Config{Inputs: inputs, Out: out, Jobs: jobs})
		if err != nil {
			t.Fatalf("jobs=%d: %v", jobs, err)
		}
		if got := sum.Counts["fetches"]; got != logs*lines {
			t.Fatalf("jobs=%d: %d fetches, want %d", jobs, got, logs*lines)
		}
		if logs*lines < 8*judgeBatch {
			t.Fatalf("the input fits in %d tasks; the test needs many", logs*lines/judgeBatch)
		}
		// The kinds that depend on order and on versions must be there,
		// or the comparison proves little.
		for _, k := range []string{evaluate.KindCrawlDelayIgnored, evaluate.KindDisallowedFetch, evaluate.KindUncheckedDisallowed} {
			if sum.Findings[k] == 0 {
				t.Errorf("jobs=%d: no %s finding (findings: %v)", jobs, k, sum.Findings)
			}
		}
		outs = append(outs, out)
	}
	sameTables(t, outs)
}

// failingSink fails on the n-th row of one table.
type failingSink struct {
	table.Collector
	failFetch, failViolation int
	fetches, violations      int
}

var errSinkFull = errors.New("sink full")

func (s *failingSink) Fetch(r *table.Fetch) error {
	s.fetches++
	if s.fetches == s.failFetch {
		return errSinkFull
	}
	return nil
}

func (s *failingSink) Violation(r *table.Violation) error {
	s.violations++
	if s.violations == s.failViolation {
		return errSinkFull
	}
	return nil
}

// TestJudgeAllSinkError: a write error in either table writer stops every
// stage of pass 2 and is the error the run returns.
func TestJudgeAllSinkError(t *testing.T) {
	tmp := t.TempDir()
	inputs := writeMultiHostCorpus(t, tmp, 5, 2, 3000)
	for _, s := range []*failingSink{{failFetch: 1000}, {failViolation: 10}} {
		for _, jobs := range []int{1, 3} {
			*s = failingSink{failFetch: s.failFetch, failViolation: s.failViolation}
			err := runInto(context.Background(), Config{Inputs: inputs, Out: filepath.Join(tmp, "out"), Jobs: jobs}, s)
			if !errors.Is(err, errSinkFull) {
				t.Errorf("jobs=%d, fail at fetch %d / violation %d: err = %v, want %v", jobs, s.failFetch, s.failViolation, err, errSinkFull)
			}
		}
	}
}

// cancellingSink cancels the run's context at its n-th fetch row.
type cancellingSink struct {
	table.Collector
	cancel  context.CancelFunc
	n, seen int
}

func (s *cancellingSink) Fetch(r *table.Fetch) error {
	s.seen++
	if s.seen == s.n {
		s.cancel()
	}
	return nil
}

func (s *cancellingSink) Violation(r *table.Violation) error { return nil }

// TestJudgeAllCancel: cancelling the context in the middle of pass 2
// ends every stage and the readers, and the run reports the cancellation
// rather than a complete audit.
func TestJudgeAllCancel(t *testing.T) {
	tmp := t.TempDir()
	inputs := writeMultiHostCorpus(t, tmp, 5, 2, 3000)
	for _, jobs := range []int{1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		s := &cancellingSink{cancel: cancel, n: 700}
		err := runInto(ctx, Config{Inputs: inputs, Out: filepath.Join(tmp, "out"), Jobs: jobs}, s)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("jobs=%d: err = %v, want context.Canceled", jobs, err)
		}
		if s.seen >= 6000 {
			t.Errorf("jobs=%d: %d fetches written after cancelling at %d", jobs, s.seen, s.n)
		}
	}
}

// TestViewsTieAcrossTasks: a bot's robots.txt fetch counts for every fetch
// of its second, whatever the file order and however many fetches share
// the second: 1,500 page fetches of one second in a.log (three judging
// tasks, merged first) all see the 503 that b.log has at that second.
// Past viewHold fetches of one time the views are settled without waiting
// (docs/design.md, "Memory"): then the first viewHold ones do not see it.
func TestViewsTieAcrossTasks(t *testing.T) {
	dir := t.TempDir()
	const pages = 1500
	ua := "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	line := func(ts, path string, status int) string {
		return fmt.Sprintf("20.171.207.10 - - [%s +0000] \"GET %s HTTP/1.1\" %d 100 \"-\" \"%s\"\n", ts, path, status, ua)
	}
	var a bytes.Buffer
	a.WriteString(line("01/May/2025:10:00:00", "/robots.txt", 200))
	for i := range pages {
		a.WriteString(line("01/May/2025:11:00:00", fmt.Sprintf("/page/%d", i), 200))
	}
	b := line("01/May/2025:11:00:00", "/robots.txt", 503)
	pa, pb := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	if err := os.WriteFile(pa, a.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pb, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(jobs int) []table.Fetch {
		cfg := Config{Inputs: []string{pa, pb}, Out: filepath.Join(t.TempDir(), "out"), Jobs: jobs,
			Options: input.Options{Eval: evaluate.Options{DefaultAuthority: "https://news.example.org"}}}
		col := &table.Collector{}
		if _, _, err := execute(context.Background(), cfg, col); err != nil {
			t.Fatal(err)
		}
		return col.Fetches
	}
	count503 := func(fs []table.Fetch) int {
		n := 0
		for _, f := range fs {
			if f.URLPath != "/robots.txt" && f.RobotsViewStatus == 503 && f.RobotsVerdict == string(evaluate.VerdictUnreachable) {
				n++
			}
		}
		return n
	}
	for _, jobs := range []int{1, 2} {
		if got := count503(run(jobs)); got != pages {
			t.Errorf("-j %d: %d of %d page fetches see the 503 of their second", jobs, got, pages)
		}
	}
	defer func(n int) { viewHold = n }(viewHold)
	viewHold = 1000
	if got := count503(run(2)); got != pages-viewHold {
		t.Errorf("viewHold %d: %d page fetches see the 503, want %d", viewHold, got, pages-viewHold)
	}
}
