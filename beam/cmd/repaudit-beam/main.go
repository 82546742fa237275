// Command repaudit-beam runs repaudit's audit as an Apache Beam pipeline:
// in process on Prism (the default, --runner=prism), or on Flink, Spark
// and Dataflow (--runner=universal --endpoint=HOST:PORT with a Beam job
// server, --runner=dataflow). It writes the same tables as
// `repaudit audit`, as DIR/<table>/part-NNNNN.parquet plus manifest.json;
// `repaudit report DIR` and `repaudit query DIR` read them.
//
//	repaudit-beam [flags] INPUT... --out DIR
//
// Exit codes: 0 done; 2 usage error, an input could not be read (the
// tables are still written, and the problems table says what failed), or
// the pipeline failed.
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

	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/beam/pipeline"
	"github.com/repaudit/repaudit/internal/profile"
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

Exit codes: 0 done; 2 usage error, unreadable input (tables are still
written, and the problems table says what failed) or the pipeline failed.

flags (Beam's own, such as --runner, --endpoint, --environment_type,
--project, --region, --temp_location, are accepted too):
`

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stderr))
}

func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.CommandLine
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	var shared audit.Flags
	shared.Register(fs)
	var (
		out     = fs.String("out", "", "output `DIR` (required); refused if it exists, unless --force")
		force   = fs.Bool("force", false, "replace an existing output directory (local outputs: only once the new one is complete)")
		workers = fs.Int("workers", 0, "partitions a judging bundle evaluates side by side in one worker process (default: its cores)")
		split   = fs.Int64("split-bytes", pipeline.DefaultSplitBytes, "read a local plain-text log larger than this many `BYTES` in ranges of that size, side by side (negative: every file whole)")
		hot     = fs.Int64("hot-fetches", pipeline.DefaultHotFetches, "judge a host[:port] with at least this many `FETCHES` in shards keyed by agent (1: every host; negative: never)")
		shards  = fs.Int("hot-shards", pipeline.DefaultHotShards, "the most shards a hot host[:port] is judged in")
	)

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
	defer profile.Start("repaudit-beam", os.Getenv, os.Stderr)()
	defer startHeapPeak(os.Getenv, os.Stderr)()

	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "repaudit-beam: "+format+"\n", a...)
		return exitUsage
	}
	if *out == "" {
		return fail("--out DIR is required")
	}
	if len(inputs) == 0 && len(shared.Input.Index) == 0 && len(shared.Input.Snippets) == 0 {
		return fail("no inputs: give WARC files, logs or directories")
	}
	opts, err := shared.Resolve()
	if err != nil {
		return fail("%v", err)
	}
	if sites := input.Sites(opts.Eval); len(sites) > 1 {
		// Several sites, and inputs bound with URL=PATH, are 'repaudit
		// audit' only; robots.txt sources bound with URL= work here.
		return fail("--site: the pipeline takes one site, got %d (%s); run 'repaudit audit' for several", len(sites), strings.Join(sites, ", "))
	}
	if err := input.CheckSources(opts); err != nil {
		return fail("%v", err)
	}
	cfg := pipeline.Config{
		Inputs: inputs, Out: *out, Force: *force, Options: opts,
		Workers:         *workers,
		SplitBytes:      *split,
		HotFetches:      *hot,
		HotShards:       *shards,
		Version:         "beam",
		Command:         append([]string{"repaudit-beam"}, args...),
		ManifestOptions: map[string]string{},
	}
	fs.Visit(func(f *flag.Flag) { cfg.ManifestOptions[f.Name] = f.Value.String() })

	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(ctx, s, cfg); err != nil {
		return fail("%v", err)
	}
	start := time.Now()
	pr, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		fmt.Fprintf(stderr, "repaudit-beam: pipeline failed: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "repaudit-beam: wrote %s in %s\n", *out, time.Since(start).Round(time.Millisecond))
	fmt.Fprintln(stderr, hotLine(pipeline.Counter(pr, "hot-partitions"), pipeline.Counter(pr, "hot-shards"), *hot))
	if n := pipeline.FailedInputs(pr); n > 0 {
		// As 'repaudit audit': the tables hold what could be read.
		fmt.Fprintf(stderr, "repaudit-beam: %d %s could not be read (see the input-unreadable rows of the problems table)\n", n, plural(n, "input", "inputs"))
		return exitUsage
	}
	return exitOK
}

// hotLine says how many host[:port] partitions were hot (judged in
// shards by agent) and in how many shards, so that a user sizing
// --hot-fetches and --hot-shards sees what the run did.
func hotLine(parts, shards, hotFetches int64) string {
	switch {
	case hotFetches < 0:
		return "repaudit-beam: hot hosts: none (--hot-fetches is negative: every host judged in one partition)"
	case parts == 0:
		return fmt.Sprintf("repaudit-beam: hot hosts: none (no host[:port] had %d fetches, --hot-fetches)", hotFetches)
	}
	return fmt.Sprintf("repaudit-beam: hot hosts: %d %s judged in %d shards (at least %d fetches each, --hot-fetches; at most --hot-shards shards each)",
		parts, plural(parts, "host[:port]", "hosts[:port]"), shards, hotFetches)
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
