package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/discovery"
	"github.com/repaudit/repaudit/netfetch"
)

// Limits of "ranges fetch".
const (
	defaultRangesTimeout  = 30 * time.Second
	defaultRangesMaxBytes = 8 << 20
	defaultRangesDelay    = 250 * time.Millisecond
)

// runRanges dispatches "repaudit ranges <sub>".
func runRanges(ctx context.Context, args []string, std stdio) int {
	return runSub(ctx, args, std, "fetch", rangesUsage, runRangesFetch)
}

type rangesFetchOptions struct {
	out          string
	force        bool
	allowPrivate bool
	timeout      time.Duration
	maxBytes     byteSize
	delay        time.Duration
	mirror       string
	bots         multiFlag
}

func runRangesFetch(ctx context.Context, args []string, std stdio) int {
	o := rangesFetchOptions{maxBytes: defaultRangesMaxBytes}
	fs := newFlagSet("ranges fetch", std.Stderr, rangesUsage, "\n")
	fs.StringVar(&o.out, "out", "", "output `DIR` (created if missing; existing files are kept)")
	fs.BoolVar(&o.force, "force", false, "replace a file of the same name (same list, same second)")
	fs.BoolVar(&o.allowPrivate, "allow-private", false, "allow non-public addresses (tests, intranet mirrors)")
	fs.DurationVar(&o.timeout, "timeout", defaultRangesTimeout, "time limit for each list, connect to last body byte")
	fs.Var(&o.maxBytes, "max-bytes", "size `limit` of each list (e.g. 8MiB)")
	fs.DurationVar(&o.delay, "delay", defaultRangesDelay, "pause between two requests")
	fs.StringVar(&o.mirror, "mirror", "", "fetch each list from `URL`/HOST/PATH instead of the operator's host")
	fs.Var(&o.bots, "bots", "bot catalog `FILE` to merge over the default (adds or changes list URLs); repeatable")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(std.Stderr, "repaudit ranges fetch: "+format+"\n", a...)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	switch {
	case fs.NArg() > 0:
		return fail("unexpected argument %q", fs.Arg(0))
	case o.out == "":
		return fail("--out is required")
	case o.timeout <= 0:
		return fail("--timeout must be positive")
	case o.delay < 0:
		return fail("--delay must not be negative")
	}
	if o.mirror != "" {
		u, err := url.Parse(o.mirror)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.RawQuery != "" {
			return fail("--mirror wants an https URL without a query, got %q", o.mirror)
		}
	}
	catalog, err := bots.LoadWith(o.bots...)
	if err != nil {
		return fail("--bots: %v", err)
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fail("%v", err)
	}

	hooks := std.Net.withDefaults()
	client := netfetch.New(netfetch.Options{
		Timeout: o.timeout, MaxBytes: int64(o.maxBytes), AllowPrivate: o.allowPrivate,
		TLSConfig: hooks.tlsConfig, UserAgent: "repaudit/" + version + " (ranges fetch)",
	})
	// Former URLs (a list the operator moved) are only recognised in
	// --ip-ranges-dir, not fetched: they redirect, which is refused.
	var lists []bots.IPRangeList
	for _, l := range catalog.IPRangeLists() {
		if !l.Former {
			lists = append(lists, l)
		}
	}
	fetch := discovery.IPLists{Dir: o.out, Mirror: o.mirror, Now: hooks.now, Sleep: hooks.sleep, Delay: o.delay,
		Get: func(ctx context.Context, u string) ([]byte, error) {
			return fetchOK(ctx, client, u, "application/json", o.maxBytes)
		},
		Write: func(path string, body []byte) error { return writeNew(path, body, o.force) },
	}
	written, failed, err := fetch.Fetch(ctx, lists, func(r discovery.IPListResult) {
		if r.Err != nil {
			fmt.Fprintf(std.Stderr, "%s: refused: %v\n", r.URL, r.Err)
			return
		}
		fmt.Fprintf(std.Stderr, "%s: %s\n", r.URL, r.Note)
	})
	if err != nil {
		return fail("interrupted: %v (%d lists written)", err, written)
	}
	fmt.Fprintf(std.Stderr, "ranges fetch: %d lists: %d written, %d failed; in %s\n", len(lists), written, failed, o.out)
	if failed > 0 {
		return exitFindings
	}
	return exitOK
}

// didYouMean names the catalog tokens close to tok: the same but for case,
// a case-insensitive prefix either way, or within edit distance 2 (at
// most five, closest first), as "; did you mean A or B?", or "".
func didYouMean(tok string, catalog *bots.Catalog) string {
	names := catalog.NearTokens(tok, 5)
	if len(names) == 0 {
		return ""
	}
	if len(names) == 1 {
		return "; did you mean " + names[0] + "?"
	}
	return "; did you mean " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + "?"
}
