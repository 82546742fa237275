package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/netfetch"
)

var botsFetchUsage = usageText("bots-fetch")

type botsFetchOptions struct {
	out, url     string
	force        bool
	allowPrivate bool
	timeout      time.Duration
	maxBytes     byteSize
}

// runBotsFetch downloads ai.robots.txt's robots.json under the rules of
// "ranges fetch", checks that it loads as a catalog and writes it to --out.
func runBotsFetch(ctx context.Context, args []string, std stdio) int {
	o := botsFetchOptions{maxBytes: bots.MaxCatalogBytes}
	fs := newFlagSet("bots fetch", std.Stderr, botsFetchUsage, "\n")
	fs.StringVar(&o.out, "out", "", "output `FILE` (written whole or not at all)")
	fs.StringVar(&o.url, "url", bots.AIRobotsJSONURL, "fetch robots.json from `URL`")
	fs.BoolVar(&o.force, "force", false, "replace an existing output file")
	fs.BoolVar(&o.allowPrivate, "allow-private", false, "allow non-public addresses (tests, intranet mirrors)")
	fs.DurationVar(&o.timeout, "timeout", defaultRangesTimeout, "time limit, connect to last body byte")
	fs.Var(&o.maxBytes, "max-bytes", "size `limit` of the file (e.g. 16MiB)")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(std.Stderr, "repaudit bots fetch: "+format+"\n", a...)
		return exitUsage
	}
	if err := parseFlags(fs, args); err != nil {
		return parseExit(err)
	}
	switch u, err := url.Parse(o.url); {
	case fs.NArg() > 0:
		return fail("unexpected argument %q", fs.Arg(0))
	case o.out == "":
		return fail("--out is required")
	case o.timeout <= 0:
		return fail("--timeout must be positive")
	case err != nil || u.Scheme != "https" || u.Host == "":
		return fail("--url wants an https URL, got %q", o.url)
	}
	if err := checkNewOutput(o.out, o.force); err != nil {
		return fail("%v", err)
	}
	client := netfetch.New(netfetch.Options{
		Timeout: o.timeout, MaxBytes: int64(o.maxBytes), AllowPrivate: o.allowPrivate,
		TLSConfig: std.Net.withDefaults().tlsConfig, UserAgent: "repaudit/" + version + " (bots fetch)",
	})
	n, err := fetchCatalog(ctx, client, o)
	if err != nil {
		if ctx.Err() != nil {
			return fail("interrupted: %v (nothing written)", ctx.Err())
		}
		fmt.Fprintf(std.Stderr, "%s: refused: %v\n", o.url, err)
		return exitFindings
	}
	fmt.Fprintf(std.Stderr, "%s: 200, a catalog of %d bots; written to %s\n", o.url, n, o.out)
	fmt.Fprintf(std.Stderr, "next: pass --bots %s to audit, bots identify, bots list, ranges fetch or dns verify\n", o.out)
	return exitOK
}

// fetchCatalog fetches the file, loads it as bots.Load does (either
// shape; at least one bot) and writes it as served. It returns the number
// of bots; the error says why nothing was written.
func fetchCatalog(ctx context.Context, client *netfetch.Client, o botsFetchOptions) (int, error) {
	body, err := fetchOK(ctx, client, o.url, "application/json", o.maxBytes)
	if err != nil {
		return 0, err
	}
	c, err := bots.Load(bytes.NewReader(body), o.url)
	if err != nil {
		return 0, fmt.Errorf("200, but %v", err)
	}
	if c.Len() == 0 {
		return 0, errors.New("200, but the catalog names no bot")
	}
	return c.Len(), writeNew(o.out, body, o.force)
}
