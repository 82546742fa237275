// Command repaudit-beam runs repaudit's audit as an Apache Beam pipeline:
// in process on Prism (the default, --runner=prism), or on Flink, Spark
// and Dataflow (--runner=universal --endpoint=HOST:PORT with a Beam job
// server, --runner=dataflow). It writes the same tables as
// `repaudit audit`, as DIR/<table>/part-NNNNN.parquet plus manifest.json;
// `repaudit report DIR` and `repaudit query DIR` read them.
//
//	repaudit-beam [flags] INPUT... --out DIR
//
// Exit codes: 0 done; 2 usage error, or the pipeline failed.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/beam/pipeline"
	"github.com/repaudit/repaudit/evaluate"
)

const (
	exitOK    = 0
	exitUsage = 2
)

const usage = `usage: repaudit-beam [flags] INPUT... --out DIR

Runs the audit of 'repaudit audit' as an Apache Beam pipeline (Prism in
process by default). INPUT and DIR may be local paths or URLs of a
filesystem Beam registers (gs://, s3://). The tables are written as
DIR/<table>/part-NNNNN.parquet and DIR/manifest.json.

Exit codes: 0 done; 2 usage error or the pipeline failed.

flags (Beam's own, such as --runner, --endpoint, --environment_type,
--project, --region, --temp_location, are accepted too):
`

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stderr))
}

// multiFlag collects a repeatable flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.CommandLine
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	var (
		out         = fs.String("out", "", "output `DIR` (required); refused if it exists, unless --force")
		force       = fs.Bool("force", false, "replace an existing output directory (local outputs: only once the new one is complete)")
		logFormat   = fs.String("log-format", "", "log format for every log input instead of detection")
		indexAgent  = fs.String("index-agent", "", "product `TOKEN` whose directives --index/--snippets listings are judged under")
		archAgent   = fs.String("archive-agent", "", "product `TOKEN` of the archive's own crawler (default: from the User-Agent of WARC request records)")
		asOf        = fs.String("as-of", "", "judge retention as of this `TIME` (RFC 3339 or YYYY-MM-DD; default: the latest time in the data)")
		ttl         = fs.Duration("robots-ttl", 24*time.Hour, "robots.txt cache lifetime (RFC 9309 §2.4)")
		skew        = fs.Duration("skew", 60*time.Second, "allowed clock skew for signature created/expires")
		site        = fs.String("site", "", "`URL` of the site (https://example.com) for log lines that carry no host")
		testKeys    = fs.Bool("allow-test-keys", false, "verify signatures made with the public RFC 9421 test keys normally")
		maxBytes    = fs.Int("robots-max-bytes", 500*1024, "robots.txt parsing limit in bytes (at least 500 KiB per RFC 9309 §2.5)")
		extraHdrs   = fs.String("log-extra-headers", "", "comma-separated `NAMES` of extra quoted fields after the User-Agent in combined/common logs")
		unreachable = fs.Duration("unreachable-after", 30*24*time.Hour, "continuous robots.txt unreachability after which it counts as unavailable")
		workers     = fs.Int("workers", 0, "partitions a judging bundle evaluates side by side in one worker process (default: its cores)")
		botsFiles   multiFlag
		cards       multiFlag
		jwks        multiFlag
		ipRanges    multiFlag
		index       multiFlag
		snippets    multiFlag
	)
	fs.Var(&botsFiles, "bots", "bot catalog `FILE` to merge over the default; repeatable")
	fs.Var(&cards, "card", "Signature Agent Card `FILE`, valid for the whole run; repeatable")
	fs.Var(&jwks, "jwks", "JWK Set `FILE` whose keys are trusted for any Signature-Agent; repeatable")
	fs.Var(&ipRanges, "ip-ranges", "published IP ranges `TOKEN=FILE`; repeatable")
	fs.Var(&index, "index", "index listing `FILE`; repeatable")
	fs.Var(&snippets, "snippets", "snippet listing `FILE`; repeatable")

	// Flags may come after inputs, as with 'repaudit audit'.
	var inputs []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if err == flag.ErrHelp {
				return exitOK
			}
			return exitUsage
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		inputs = append(inputs, rest[0])
		rest = rest[1:]
	}
	// On a worker, Init takes over here and never returns.
	beam.Init()

	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "repaudit-beam: "+format+"\n", a...)
		return exitUsage
	}
	if *out == "" {
		return fail("--out DIR is required")
	}
	if len(inputs) == 0 && len(index) == 0 && len(snippets) == 0 {
		return fail("no inputs: give WARC files, logs or directories")
	}
	var lf accesslog.Format
	var err error
	if *logFormat != "" {
		if lf, err = accesslog.ParseFormat(*logFormat); err != nil {
			return fail("%v", err)
		}
	}
	at, err := parseTime(*asOf)
	if err != nil {
		return fail("--as-of: %v", err)
	}
	if *maxBytes < 500*1024 {
		return fail("--robots-max-bytes must be at least 512000 (RFC 9309 §2.5)")
	}
	ranges := map[string][]string{}
	for _, r := range ipRanges {
		tok, file, ok := strings.Cut(r, "=")
		if !ok || tok == "" || file == "" {
			return fail("--ip-ranges wants TOKEN=FILE, got %q", r)
		}
		ranges[tok] = append(ranges[tok], file)
	}
	authority := ""
	if *site != "" {
		scheme, rest, ok := strings.Cut(*site, "://")
		if !ok || (scheme != "http" && scheme != "https") || rest == "" {
			return fail("--site wants an http(s) URL like https://example.com, got %q", *site)
		}
		host, _, _ := strings.Cut(rest, "/")
		authority = scheme + "://" + strings.ToLower(host)
	}
	var extra []string
	for _, n := range strings.Split(*extraHdrs, ",") {
		if n = strings.TrimSpace(n); n != "" {
			extra = append(extra, n)
		}
	}
	cfg := pipeline.Config{
		Inputs: inputs, Out: *out, Force: *force, LogFormat: lf, LogExtraHeaders: extra,
		Bots: botsFiles, Cards: cards, JWKS: jwks, IPRanges: ranges, Index: index, Snippets: snippets,
		Eval: evaluate.Options{
			AsOf: at, RobotsTTL: *ttl, UnreachableAfter: *unreachable, Skew: *skew, AllowTestKeys: *testKeys,
			RobotsMaxBytes: *maxBytes, ArchiveAgent: *archAgent, IndexAgent: *indexAgent, DefaultAuthority: authority,
		},
		Workers: *workers,
		Version: "beam",
		Command: append([]string{"repaudit-beam"}, args...),
		Options: map[string]string{},
	}
	fs.Visit(func(f *flag.Flag) { cfg.Options[f.Name] = f.Value.String() })

	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(ctx, s, cfg); err != nil {
		return fail("%v", err)
	}
	start := time.Now()
	if err := beamx.Run(ctx, p); err != nil {
		fmt.Fprintf(stderr, "repaudit-beam: pipeline failed: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "repaudit-beam: wrote %s in %s\n", *out, time.Since(start).Round(time.Millisecond))
	return exitOK
}

// parseTime reads --as-of as 'repaudit audit' does: RFC 3339, a local
// date-time taken as UTC, or a date (midnight UTC).
func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is neither RFC 3339 nor YYYY-MM-DD", s)
}
