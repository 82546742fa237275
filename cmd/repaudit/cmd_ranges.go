package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/internal/typo"
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
	written, failed := 0, 0
	for i, l := range lists {
		if i > 0 {
			if err := hooks.sleep(ctx, o.delay); err != nil {
				return fail("interrupted: %v (%d lists written)", err, written)
			}
		}
		if err := ctx.Err(); err != nil {
			return fail("interrupted: %v (%d lists written)", err, written)
		}
		msg, err := fetchRangeList(ctx, client, hooks.now, o, l)
		if err != nil {
			if ctx.Err() != nil {
				return fail("interrupted: %v (%d lists written)", ctx.Err(), written)
			}
			failed++
			fmt.Fprintf(std.Stderr, "%s: refused: %v\n", l.URL, err)
			continue
		}
		written++
		fmt.Fprintf(std.Stderr, "%s: %s\n", l.URL, msg)
	}
	fmt.Fprintf(std.Stderr, "ranges fetch: %d lists: %d written, %d failed; in %s\n", len(lists), written, failed, o.out)
	if failed > 0 {
		return exitFindings
	}
	return exitOK
}

// fetchRangeList fetches one list and writes it under its file name. The
// error says why nothing was written.
func fetchRangeList(ctx context.Context, client *netfetch.Client, now func() time.Time, o rangesFetchOptions, l bots.IPRangeList) (string, error) {
	from, err := identity.MirrorURL(o.mirror, l.URL)
	if err != nil {
		return "", err
	}
	body, err := fetchOK(ctx, client, from, "application/json", o.maxBytes)
	if err != nil {
		return "", err
	}
	snap, err := identity.NewIPListSnapshot(l.URL, body, now())
	if err != nil {
		return "", fmt.Errorf("200, but %v", err)
	}
	name, err := snap.FileName()
	if err != nil {
		return "", err
	}
	path := filepath.Join(o.out, name)
	if err := checkNewOutput(path, o.force); err != nil {
		return "", err
	}
	f, err := createAtomic(path)
	if err != nil {
		return "", err
	}
	defer f.Abort()
	if _, err := f.Write(snap.Body); err != nil {
		return "", fmt.Errorf("write output: %w", err)
	}
	if err := f.Commit(); err != nil {
		return "", err
	}
	return "200, " + snap.Summary(l.Tokens), nil
}

// didYouMean names the catalog tokens close to tok: the same but for case,
// a case-insensitive prefix either way, or within edit distance 2 (at
// most five, closest first), as "; did you mean A or B?", or "".
func didYouMean(tok string, catalog *bots.Catalog) string {
	var tokens []string
	for _, b := range catalog.Bots() {
		tokens = append(tokens, b.Token)
	}
	names := typo.Near(tok, tokens, 5)
	if len(names) == 0 {
		return ""
	}
	if len(names) == 1 {
		return "; did you mean " + names[0] + "?"
	}
	return "; did you mean " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + "?"
}
