package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/rdns"
)

// runDNS dispatches "repaudit dns <sub>".
func runDNS(ctx context.Context, args []string, std stdio) int {
	return runSub(ctx, args, std, "verify", dnsUsage, runDNSVerify)
}

type dnsVerifyOptions struct {
	out      string
	resolver string
	force    bool
	timeout  time.Duration
	jobs     int
	bots     multiFlag
}

func runDNSVerify(ctx context.Context, args []string, std stdio) int {
	o := dnsVerifyOptions{}
	fs := newFlagSet("dns verify", std.Stderr, dnsUsage, "\n")
	fs.StringVar(&o.out, "out", "", "output `DIR` (created if missing; existing snapshots are kept)")
	fs.StringVar(&o.resolver, "resolver", "", "DNS server `HOST:PORT` (default: the system resolver)")
	fs.BoolVar(&o.force, "force", false, "replace a snapshot of the same name (same second)")
	fs.DurationVar(&o.timeout, "timeout", rdns.DefaultTimeout, "time limit of each lookup")
	fs.IntVar(&o.jobs, "j", rdns.DefaultConcurrency, "lookups in flight at once")
	fs.Var(&o.bots, "bots", "bot catalog `FILE` to merge over the default (adds or changes rdns_suffixes); repeatable")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(std.Stderr, "repaudit dns verify: "+format+"\n", a...)
		return exitUsage
	}
	inputs, err := parseInterspersed(fs, args)
	if err != nil {
		return parseExit(err)
	}
	switch {
	case len(inputs) == 0:
		return fail("no inputs: give access logs, WARC files or directories")
	case o.out == "":
		return fail("--out is required")
	case o.timeout <= 0:
		return fail("--timeout must be positive")
	case o.jobs <= 0:
		return fail("-j must be 1 or more")
	}
	if o.resolver != "" {
		if _, _, err := net.SplitHostPort(o.resolver); err != nil {
			return fail("--resolver wants HOST:PORT, got %q", o.resolver)
		}
	}
	catalog, err := bots.LoadWith(o.bots...)
	if err != nil {
		return fail("%v", err)
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fail("%v", err)
	}
	return dnsVerify(ctx, inputs, o, catalog, std)
}

// dnsVerify collects the addresses, looks them up and writes the
// snapshot; problems of the inputs go to stderr, then one summary line.
func dnsVerify(ctx context.Context, inputs []string, o dnsVerifyOptions, catalog *bots.Catalog, std stdio) int {
	hooks := std.Net.withDefaults()
	reqs, probs, err := rdns.Collect(ctx, inputs, catalog)
	for _, p := range probs {
		fmt.Fprintf(std.Stderr, "%s: %s: %s\n", p.Source, p.Code, p.Message)
	}
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit dns verify: %v\n", err)
		return exitUsage
	}
	h, entries, err := rdns.Snapshot(ctx, reqs, rdns.Options{Server: o.resolver, Concurrency: o.jobs, Timeout: o.timeout, Now: hooks.now})
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit dns verify: interrupted: %v (nothing written)\n", err)
		return exitUsage
	}
	path, err := rdns.WriteFile(o.out, h, entries, o.force)
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit dns verify: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(std.Stderr, "dns verify: %s; in %s\n", rdns.SummaryText(entries), path)
	switch {
	case hasInputError(probs):
		return exitUsage
	case rdns.Summary(entries)[identity.DNSLookupError] > 0:
		return exitFindings
	}
	return exitOK
}

// hasInputError reports whether an input could not be read.
func hasInputError(probs []event.Problem) bool {
	for _, p := range probs {
		if p.Code == problem.InputUnreadable {
			return true
		}
	}
	return false
}
