package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/audit/input"
)

const auditUsage = `usage: repaudit audit [flags] INPUT... --out DIR

Reads WARC/ARC archives, access logs, cards, key sets and listings (files,
directories or globs; each file's kind is detected from its content), judges
every fetch by the robots.txt the bot saw at the time, and writes Parquet
tables to DIR atomically. Then run 'repaudit report DIR'.

Exit codes: 0 done; 1 findings present (only with --fail-on-findings), or
input problems of the given severity or worse (only with
--fail-on-problems[=error|warning|info]); 2 usage error or unreadable input
(tables are still written, and problems.parquet says what failed), or log
lines and robots.txt sources that name no site while several could own
them (bind them with URL=PATH, --robots-dir URL=DIR; tables are written).

Several sites: --site repeats; a log naming its hosts (vhost_combined,
JSON with a host) needs none. Bind each robots.txt source to its site with
URL= (--robots-dir https://blog.example.org=DIR, or one --robots-dir with a
subdirectory per host) and each host-less log as an input
https://blog.example.org=FILE.

flags:
`

func runAudit(ctx context.Context, args []string, std stdio) int {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(std.Stderr)
	fs.Usage = func() { fmt.Fprint(std.Stderr, auditUsage); fs.PrintDefaults() }
	var shared audit.Flags
	shared.Register(fs)
	var (
		out       = fs.String("out", "", "output `DIR` (required); refused if it exists, unless --force")
		force     = fs.Bool("force", false, "replace an existing output directory (only once the new one is complete)")
		jobs      = fs.Int("j", 0, "cores to use: parallel readers, judges and writers on at most N cores (default: all cores)")
		failOn    = fs.Bool("fail-on-findings", false, "exit 1 when there are findings")
		failProbs severityFlag
		quiet     = fs.Bool("q", false, "no progress and no summary")
		memLimit  memLimitFlag
	)
	fs.Var(&memLimit, "memory-limit", "soft memory `limit` of the Go heap, e.g. 300MiB, 1GiB, or off (default: GOMEMLIMIT when set, else 192MiB; past two thirds of it in live heap, collected as with GOGC=50 instead)")
	fs.Var(&failProbs, "fail-on-problems", "exit 1 when problems.parquet holds a problem of `SEVERITY` or worse: --fail-on-problems=error|warning|info (bare: warning, which includes an input that yielded nothing)")
	inputs, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(std.Stderr, "repaudit audit: "+format+"\n", a...)
		return exitUsage
	}
	if *out == "" {
		return fail("--out DIR is required")
	}
	if len(inputs) == 0 && len(shared.Input.Index) == 0 && len(shared.Input.Snippets) == 0 {
		return fail("no inputs: give access logs, WARC files or directories")
	}
	opts, err := shared.Resolve()
	if err != nil {
		return fail("%v", err)
	}
	if len(opts.IPRanges) > 0 {
		if err := checkIPRangesBots(shared); err != nil {
			return fail("%v", err)
		}
	}
	if *jobs < 0 {
		return fail("-j %d: give a number of cores, 1 or more (0 or none means all)", *jobs)
	}
	// -j N caps the cores, not only the judging workers: pass 1's readers
	// and pass 2's readers, orderer and table writers run beside the
	// judges, so without the cap -j 1 would still use every core.
	if n := *jobs; n > 0 && n < runtime.GOMAXPROCS(0) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	}
	defer applyMemoryLimit(memLimit, os.Getenv)()
	cfg := audit.Config{
		Inputs: inputs, Out: *out, Force: *force, Jobs: *jobs, Options: opts,
		Version: version,
		Command: append([]string{"repaudit", "audit"}, args...),
		Stdin:   std.Stdin, // for the input "-"
	}
	cfg.ManifestOptions = map[string]any{}
	fs.Visit(func(f *flag.Flag) { cfg.ManifestOptions[f.Name] = f.Value.String() })
	if !*quiet && isTerminal(std.Stderr) {
		cfg.Progress = rawWriter(std.Stderr)
	}
	sum, err := audit.Run(ctx, cfg)
	if sum == nil {
		return fail("%v", err)
	}
	if !*quiet {
		printSummary(std.Stderr, sum)
	}
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit audit: %v\n", err)
		return exitUsage
	}
	code := exitOK
	if *failOn && len(sum.Findings) > 0 {
		code = exitFindings
	}
	if failProbs.level != "" {
		if n := failProbs.atOrAbove(sum.ProblemsBySeverity); n > 0 {
			what := "input problems"
			if n == 1 {
				what = "input problem"
			}
			fmt.Fprintf(std.Stderr, "repaudit audit: %d %s of severity %s or worse (--fail-on-problems; see problems.parquet)\n", n, what, failProbs.level)
			code = exitFindings
		}
	}
	return code
}

// checkIPRangesBots refuses an --ip-ranges TOKEN=FILE whose token the
// catalog (with the --bots files) does not know.
func checkIPRangesBots(shared audit.Flags) error {
	catalog, err := input.LoadCatalog(shared.Input.Bots)
	if err != nil {
		return err
	}
	for _, r := range shared.IPRanges {
		tok, _, _ := strings.Cut(r, "=")
		if _, ok := catalog.Lookup(tok); !ok {
			return fmt.Errorf("--ip-ranges %s: the catalog knows no bot %q%s (add it with --bots FILE if it is missing)", r, tok, didYouMean(tok, catalog))
		}
	}
	return nil
}

func formatNames() string {
	var names []string
	for _, f := range accesslog.Formats() {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

func printSummary(w io.Writer, s *audit.Summary) {
	var total int64
	kinds := make([]string, 0, len(s.Findings))
	for k, n := range s.Findings {
		kinds = append(kinds, k)
		total += n
	}
	sort.Strings(kinds)
	fmt.Fprintf(w, "repaudit: %d inputs, %d fetches, %d judged against robots.txt, %d %s\n", len(s.Files), s.Fetches, s.Judged, total, pluralWord(total, "finding", "findings"))
	for _, k := range kinds {
		fmt.Fprintf(w, "  %-26s %d\n", k, s.Findings[k])
	}
	if s.Unverifiable > 0 {
		fmt.Fprintf(w, "  unverifiable: %d bot fetches came from sources that cannot show signature headers (not violations)\n", s.Unverifiable)
	}
	if line := asOfLine(s); line != "" {
		fmt.Fprintf(w, "  %s\n", line)
	}
	if len(s.Notices) > 0 {
		fmt.Fprintf(w, "judged less than it could:\n")
		for _, n := range s.Notices {
			fmt.Fprintf(w, "  - %s\n", n.Message)
		}
	}
	if s.Problems > 0 {
		fmt.Fprintf(w, "  input problems: %d (see problems.parquet)\n", s.Problems)
	}
	names := make([]string, 0, len(s.Counts))
	for n := range s.Counts {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %d", n, s.Counts[n]))
	}
	fmt.Fprintf(w, "tables in %s: %s\n", s.Out, strings.Join(parts, ", "))
}

func pluralWord(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// asOfLine says, when --as-of was not given and something was judged as
// of it (archived records' retention, listings), which time the data
// chose: the same captures audited beside other inputs, or with a later
// log, are judged as of another time, and the line names the flag that
// fixes it.
func asOfLine(s *audit.Summary) string {
	if !s.AsOfDefault || s.AsOf.IsZero() || (s.Counts["retention"] == 0 && !s.Listings) {
		return ""
	}
	from := ""
	if s.AsOfFrom.File != "" {
		from = ", " + s.AsOfFrom.String()
	}
	return fmt.Sprintf("as of %s, the latest time in the data%s: retention, take-downs and listing entries with no time are judged as of it, which other inputs in the run would move; give --as-of to fix it",
		s.AsOf.UTC().Format(time.RFC3339), from)
}
