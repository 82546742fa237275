package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/discovery"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/netfetch"
)

// Limits of "cards fetch".
const (
	defaultCardsTimeout  = 10 * time.Second
	defaultCardsMaxBytes = 1 << 20
	maxCardsMaxBytes     = 64 << 20
)

// directoryPath is the key directory location on a signature agent's
// origin.
const directoryPath = discovery.DirectoryPath

// runCards dispatches "repaudit cards <sub>".
func runCards(ctx context.Context, args []string, std stdio) int {
	return runSub(ctx, args, std, "fetch", cardsUsage, runCardsFetch)
}

// cardsFetchOptions are the validated flags of "cards fetch".
type cardsFetchOptions struct {
	registry     string
	out          string
	force        bool
	allowPrivate bool
	timeout      time.Duration
	maxBytes     byteSize
}

func runCardsFetch(ctx context.Context, args []string, std stdio) int {
	o := cardsFetchOptions{timeout: defaultCardsTimeout, maxBytes: defaultCardsMaxBytes}
	fs := newFlagSet("cards fetch", std.Stderr, cardsUsage, "\n")
	fs.StringVar(&o.registry, "registry", "", "registry `FILE` (\"-\" for stdin)")
	fs.StringVar(&o.out, "out", "", "output WARC `FILE` (gzip per record, e.g. cards.warc.gz)")
	fs.BoolVar(&o.force, "force", false, "replace an existing output file")
	fs.BoolVar(&o.allowPrivate, "allow-private", false, "allow non-public addresses (tests, intranet registries)")
	fs.DurationVar(&o.timeout, "timeout", defaultCardsTimeout, "time limit for each exchange, connect to last body byte")
	fs.Var(&o.maxBytes, "max-bytes", "size `limit` of each response body (e.g. 1MiB, 512KiB, 100000)")
	if err := parseFlags(fs, args); err != nil {
		return parseExit(err)
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(std.Stderr, "repaudit cards fetch: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	case o.registry == "":
		fmt.Fprintln(std.Stderr, "repaudit cards fetch: --registry is required")
		return exitUsage
	case o.out == "":
		fmt.Fprintln(std.Stderr, "repaudit cards fetch: --out is required")
		return exitUsage
	case o.timeout <= 0:
		fmt.Fprintln(std.Stderr, "repaudit cards fetch: --timeout must be positive")
		return exitUsage
	}

	if err := checkNewOutput(o.out, o.force); err != nil {
		fmt.Fprintf(std.Stderr, "repaudit cards fetch: %v\n", err)
		return exitUsage
	}

	entries, regProblems, regName, err := identity.ReadRegistryFile(o.registry, std.Stdin)
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit cards fetch: %v\n", err)
		return exitUsage
	}

	hooks := std.Net.withDefaults()
	ua := "repaudit/" + version + " (cards fetch)"
	client := netfetch.New(netfetch.Options{
		Timeout: o.timeout, MaxBytes: int64(o.maxBytes), AllowPrivate: o.allowPrivate,
		TLSConfig: hooks.tlsConfig, UserAgent: ua,
	})
	run := discovery.FileRun{Client: client, MaxBytes: int64(o.maxBytes), Now: hooks.now, UserAgent: ua, Software: "repaudit/" + version}
	failed, records, err := run.WriteFile(ctx, o.out, regName, entries, regProblems, func(e discovery.Entry) { printEntry(std.Stderr, e) })
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit cards fetch: %v\n", err)
		return exitUsage
	}
	total := len(entries) + len(regProblems)
	fmt.Fprintf(std.Stderr, "cards fetch: %d entries: %d ok, %d failed; %d WARC records written to %s\n",
		total, total-failed, failed, records, o.out)
	if failed > 0 {
		return exitFindings
	}
	return exitOK
}

// byteSize is a size flag: a number with an optional unit (sizeUnits).
type byteSize int64

func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }

func (b *byteSize) Set(s string) error {
	s = strings.TrimSpace(s)
	n, ok := parseSize(s)
	if !ok {
		return fmt.Errorf("%q is not a size such as 1MiB, 512KiB or 100000", s)
	}
	if n > maxCardsMaxBytes {
		return fmt.Errorf("%q is above the %d MiB limit", s, maxCardsMaxBytes>>20)
	}
	*b = byteSize(n)
	return nil
}

// printEntry writes one registry entry's report lines (Entry.Lines).
func printEntry(w io.Writer, e discovery.Entry) {
	for _, l := range e.Lines(describeNetError) {
		fmt.Fprintln(w, l)
	}
}
