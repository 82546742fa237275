package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/repaudit/repaudit/netfetch"
	"github.com/repaudit/repaudit/wayback"
)

// Defaults and limits of "robots history".
const (
	defaultWayback        = "https://web.archive.org"
	defaultHistoryTimeout = 60 * time.Second // the CDX server is slow
	defaultHistoryDelay   = time.Second
	defaultMaxCaptures    = 500 // about 9 minutes of requests at the default --delay
	maxCDXAnswer          = 32 << 20
)

type robotsHistoryOptions struct {
	site         *url.URL
	from, to     string // CDX form
	out          string
	force        bool
	wayback      string
	delay        time.Duration
	timeout      time.Duration
	maxBytes     byteSize
	allowPrivate bool
	maxCaptures  int
}

func runRobotsHistory(ctx context.Context, args []string, std stdio) int {
	o := robotsHistoryOptions{maxBytes: 1 << 20}
	fs := newFlagSet("robots history", std.Stderr, robotsHistoryUsage, "\n")
	var from, to string
	fs.StringVar(&from, "from", "", "earliest capture `DATE` (RFC 3339 or YYYY-MM-DD)")
	fs.StringVar(&to, "to", "", "latest capture `DATE` (RFC 3339 or YYYY-MM-DD, inclusive)")
	fs.StringVar(&o.out, "out", "", "output WARC `FILE` (gzip per record, e.g. robots-history.warc.gz)")
	fs.BoolVar(&o.force, "force", false, "replace an existing output file")
	fs.StringVar(&o.wayback, "wayback", defaultWayback, "Wayback Machine base `URL` (a CDX server with raw replay)")
	fs.DurationVar(&o.delay, "delay", defaultHistoryDelay, "pause between two requests to the Wayback Machine")
	fs.DurationVar(&o.timeout, "timeout", defaultHistoryTimeout, "time limit for each request, connect to last body byte")
	fs.Var(&o.maxBytes, "max-bytes", "size `limit` of each robots.txt body")
	fs.BoolVar(&o.allowPrivate, "allow-private", false, "allow non-public addresses (tests, a local Wayback)")
	fs.IntVar(&o.maxCaptures, "max-captures", defaultMaxCaptures, "fetch at most `N` captures (0: no cap); over it, repeats of earlier content go, then the oldest")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(std.Stderr, "repaudit robots history: "+format+"\n", a...)
		return exitUsage
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return parseExit(err)
	}
	switch {
	case len(pos) != 1:
		return fail("want exactly one site URL, got %d arguments", len(pos))
	case o.out == "":
		return fail("--out is required")
	case o.timeout <= 0:
		return fail("--timeout must be positive")
	case o.delay < 0:
		return fail("--delay must not be negative")
	case o.maxCaptures < 0:
		return fail("--max-captures must not be negative")
	}
	if o.site, err = wayback.SiteURL(pos[0]); err != nil {
		return fail("%v", err)
	}
	if o.from, err = cdxTime("from", from); err != nil {
		return fail("%v", err)
	}
	if o.to, err = cdxTime("to", to); err != nil {
		return fail("%v", err)
	}
	if o.from != "" && o.to != "" {
		t1, _ := parseTimeFlag("from", from)
		t2, _ := parseTimeFlag("to", to)
		if t1.After(t2) {
			return fail("--from %s is after --to %s", from, to)
		}
	}
	if u, err := url.Parse(o.wayback); err != nil || u.Scheme != "https" || u.Host == "" {
		return fail("--wayback wants an https URL, got %q", o.wayback)
	}
	if err := checkNewOutput(o.out, o.force); err != nil {
		return fail("%v", err)
	}
	hooks := std.Net.withDefaults()
	ua := "repaudit/" + version + " (robots history)"
	client := func(maxBytes int64) *netfetch.Client {
		return netfetch.New(netfetch.Options{
			Timeout: o.timeout, MaxBytes: maxBytes, AllowPrivate: o.allowPrivate,
			TLSConfig: hooks.tlsConfig, UserAgent: ua,
		})
	}
	h := &wayback.History{
		Base: o.wayback, Site: o.site, From: o.from, To: o.to, Max: o.maxCaptures,
		// The CDX answer may be long: it gets its own size limit.
		CDX: client(maxCDXAnswer), Replay: client(int64(o.maxBytes)),
		Delay: o.delay, Sleep: hooks.sleep,
	}
	l, err := h.List(ctx)
	if err != nil {
		var fe *wayback.FetchError
		if errors.As(err, &fe) {
			return fail("CDX query %s: %s", fe.URL, describeNetError(fe.Err))
		}
		return fail("%v", err)
	}
	for _, line := range h.Lines(l) {
		fmt.Fprintln(std.Stderr, line)
	}
	written, failed, err := h.WriteFile(ctx, o.out, l, hooks.now(), "repaudit/"+version+" robots history", ua, func(r wayback.Result) {
		if r.Err != nil {
			fmt.Fprintf(std.Stderr, "%s %s: not written: %s\n", r.Capture.Timestamp, r.Capture.Original, captureError(r.Err, o.maxBytes))
			return
		}
		fmt.Fprintf(std.Stderr, "%s %s: %s\n", r.Capture.Timestamp, r.Capture.Original, r.Note)
	})
	if err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(std.Stderr, "robots history: %d versions written, %d failed; %s\n", written, failed, o.out)
	if failed > 0 {
		return exitFindings
	}
	return exitOK
}

// cdxTime turns a --from/--to value into CDX digits: a date stays a date
// (8 digits, so that --to covers the whole day), a time becomes 14.
func cdxTime(name, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	t, err := parseTimeFlag(name, v)
	if err != nil {
		return "", err
	}
	if len(v) == len("2006-01-02") {
		return t.Format("20060102"), nil
	}
	return t.Format(wayback.TimestampLayout), nil
}

// captureError words why a capture was not written, naming the flags
// that would change it.
func captureError(err error, maxBytes byteSize) string {
	var fe *wayback.FetchError
	switch {
	case errors.Is(err, wayback.ErrTooLarge) && errors.As(err, &fe):
		return fmt.Sprintf("%s: body larger than --max-bytes %d", fe.URL, maxBytes)
	case errors.As(err, &fe):
		return fe.URL + ": " + describeNetError(fe.Err)
	}
	return err.Error()
}
