package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/netfetch"
	"github.com/repaudit/repaudit/warc"
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

func robotsHistoryUsage(w io.Writer) {
	io.WriteString(w, `usage: repaudit robots history URL [--from DATE] [--to DATE] --out FILE.warc.gz [--force]
                              [--wayback URL] [--delay 1s] [--timeout 60s] [--max-bytes 1MiB] [--allow-private]
                              [--max-captures 500]

Writes a site's past robots.txt files, as the Wayback Machine captured them,
to a WARC file that 'repaudit audit' reads like any other capture of the
site: one response record per distinct version, dated at the capture time.

URL names the site (https://example.com, or example.com for https). The
CDX server is asked for the captures of HOST/robots.txt between --from and
--to (RFC 3339 or YYYY-MM-DD, inclusive), collapsing repeats of the same
content (repeats of the capture before are never fetched), at most
--max-captures of them (default 500, 0 for no cap: over it, captures
whose content and status an earlier one had go first, then the oldest;
stderr says how many went), and each capture's raw body is fetched from
WAYBACK/web/TIMESTAMP"id_"/ORIGINAL. Each response record has:
  WARC-Target-URI  the site's robots.txt under URL's scheme and host
  WARC-Date        the capture time
  status           the capture's status from the CDX row (4xx and 5xx
                   captures are recorded without fetching their body)
  WARC-Source-URI  the Wayback URL of the capture
and a warcinfo record names the CDX query. Captures of other hosts the CDX
server returns (it folds www.) are left out and counted.

Requests go one after another, --delay apart, under the rules of 'cards
fetch' (https only, GET only, no redirects followed, size and time limits,
non-public addresses refused unless --allow-private).

Exit status: 0 every capture written; 1 some captures could not be fetched
(the others are written; each failure is reported); 2 usage error, the CDX
query failed, unwritable or existing output (without --force), or
interrupted (no output written).
`)
}

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
	fs := flag.NewFlagSet("robots history", flag.ContinueOnError)
	fs.SetOutput(std.Stderr)
	fs.Usage = func() {
		robotsHistoryUsage(std.Stderr)
		fmt.Fprintln(std.Stderr)
		fs.PrintDefaults()
	}
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
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
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
	if o.site, err = historySite(pos[0]); err != nil {
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
	hooks := netHooksFrom(ctx)
	h := &historyRun{
		opts:  o,
		hooks: hooks,
		ua:    "repaudit/" + version + " (robots history)",
		log:   std.Stderr,
	}
	h.client = netfetch.New(netfetch.Options{
		Timeout: o.timeout, MaxBytes: int64(o.maxBytes), AllowPrivate: o.allowPrivate,
		TLSConfig: hooks.tlsConfig, UserAgent: h.ua,
	})
	written, failed, err := h.run(ctx)
	if err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(std.Stderr, "robots history: %d versions written, %d failed; %s\n", written, failed, o.out)
	if failed > 0 {
		return exitFindings
	}
	return exitOK
}

// historySite reads the site argument: a URL with scheme http or https,
// or a bare host (https is assumed).
func historySite(s string) (*url.URL, error) {
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return nil, fmt.Errorf("%q is not a site URL such as https://example.com", s)
	}
	return &url.URL{Scheme: u.Scheme, Host: strings.ToLower(stripDefaultPort(u.Scheme, u.Host))}, nil
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

func stripDefaultPort(scheme, host string) string {
	switch {
	case scheme == "http" && strings.HasSuffix(host, ":80"):
		return strings.TrimSuffix(host, ":80")
	case scheme == "https" && strings.HasSuffix(host, ":443"):
		return strings.TrimSuffix(host, ":443")
	}
	return host
}

// historyRun is one "robots history" run.
type historyRun struct {
	opts     robotsHistoryOptions
	hooks    netHooks
	client   *netfetch.Client
	ua       string
	log      io.Writer
	requests int
}

// get sends one request to the Wayback Machine, --delay after the last.
func (h *historyRun) get(ctx context.Context, u, accept string) (*netfetch.Response, error) {
	if h.requests > 0 {
		if err := h.hooks.sleep(ctx, h.opts.delay); err != nil {
			return nil, err
		}
	}
	h.requests++
	return h.client.Get(ctx, u, accept)
}

func (h *historyRun) run(ctx context.Context) (written, failed int, err error) {
	host := h.opts.site.Host
	target := h.opts.site.Scheme + "://" + host + "/robots.txt"
	q := wayback.Query{URL: host + "/robots.txt", From: h.opts.from, To: h.opts.to}
	qURL := q.At(h.opts.wayback)

	// The CDX answer may be long: it gets its own size limit.
	cdxClient := netfetch.New(netfetch.Options{
		Timeout: h.opts.timeout, MaxBytes: maxCDXAnswer, AllowPrivate: h.opts.allowPrivate,
		TLSConfig: h.hooks.tlsConfig, UserAgent: h.ua,
	})
	h.requests++
	resp, err := cdxClient.Get(ctx, qURL, "application/json")
	if err != nil {
		return 0, 0, fmt.Errorf("CDX query %s: %s", qURL, describeNetError(err))
	}
	if !resp.OK() {
		return 0, 0, fmt.Errorf("CDX query %s: %s", qURL, resp.Refused)
	}
	caps, notes, err := wayback.ParseCDX(resp.Body)
	if err != nil {
		return 0, 0, fmt.Errorf("CDX query %s: %v", qURL, err)
	}
	for _, n := range notes {
		fmt.Fprintf(h.log, "CDX answer: %s\n", n)
	}
	caps, others := sameHost(caps, h.opts.site.Hostname())
	if len(others) > 0 {
		fmt.Fprintf(h.log, "CDX answer: left out captures of other hosts: %s (ask for that host to get them)\n", others)
	}
	sel := wayback.Select(caps, h.opts.maxCaptures)
	if n := sel.Seen + sel.Older; n > 0 {
		fmt.Fprintf(h.log, "CDX answer: %d captures of distinct content and status; fetching %d (--max-captures %d): left out %d that repeat an earlier content with the same status and %d older ones (narrow with --from/--to, or raise --max-captures)\n",
			len(caps)-sel.Repeats, len(sel.Keep), h.opts.maxCaptures, sel.Seen, sel.Older)
	}
	if sel.Repeats > 0 {
		fmt.Fprintf(h.log, "CDX answer: %d captures repeat the content and status of the one before: not fetched\n", sel.Repeats)
	}
	caps = sel.Keep
	if len(caps) == 0 {
		fmt.Fprintf(h.log, "no captures of %s/robots.txt in %s", host, h.opts.wayback)
		if q.From != "" || q.To != "" {
			fmt.Fprintf(h.log, " between %q and %q", q.From, q.To)
		}
		fmt.Fprintln(h.log)
	}

	out, err := createAtomic(h.opts.out)
	if err != nil {
		return 0, 0, err
	}
	defer out.Abort()
	ww := warc.NewWriter(out, warc.WriterOptions{})
	if _, err := ww.WriteWarcinfo(h.hooks.now(), filepath.Base(h.opts.out), event.Header{
		{Name: "software", Value: "repaudit/" + version + " robots history"},
		{Name: "format", Value: "WARC File Format 1.1"},
		{Name: "description", Value: "robots.txt of " + host + " as the Wayback Machine captured it; each response record is dated at its capture time and names its Wayback URL in WARC-Source-URI"},
		{Name: "isPartOf", Value: "repaudit robots history " + h.opts.site.String()},
		{Name: "cdx-query", Value: qURL},
		{Name: "http-header-user-agent", Value: h.ua},
	}); err != nil {
		return 0, 0, err
	}
	for _, c := range caps {
		if err := ctx.Err(); err != nil {
			return written, failed, fmt.Errorf("interrupted: %w", err)
		}
		x, msg, err := h.capture(ctx, c, target)
		if err != nil {
			if ctx.Err() != nil {
				return written, failed, fmt.Errorf("interrupted: %w", ctx.Err())
			}
			failed++
			fmt.Fprintf(h.log, "%s %s: not written: %v\n", c.Timestamp, c.Original, err)
			continue
		}
		if err := ww.WriteExchange(x); err != nil {
			return written, failed, err
		}
		written++
		fmt.Fprintf(h.log, "%s %s: %s\n", c.Timestamp, c.Original, msg)
	}
	if err := out.Commit(); err != nil {
		return written, failed, err
	}
	return written, failed, nil
}

// capture turns one CDX row into a response record. A 2xx capture's body
// is fetched; a 3xx capture's replay is fetched for its Location; 4xx and
// 5xx captures need no body (RFC 9309 §2.3.1.3, §2.3.1.4 judge them by
// status alone). The error says why nothing can be written.
func (h *historyRun) capture(ctx context.Context, c wayback.Capture, target string) (*warc.Exchange, string, error) {
	raw := wayback.RawURL(h.opts.wayback, c.Timestamp, c.Original)
	x := &warc.Exchange{
		URL:   target,
		Time:  c.Time,
		Extra: event.Header{{Name: "WARC-Source-URI", Value: raw}},
	}
	var head bytes.Buffer
	status := c.Status
	switch {
	case status == 0:
		return nil, "", errors.New("the CDX row has no status (\"-\"); not a usable capture")
	case status >= 400:
		writeStatusLine(&head, status)
		head.WriteString("Content-Length: 0\r\n\r\n")
		x.ResponseHead = head.Bytes()
		return x, fmt.Sprintf("status %d recorded (body not needed)", status), nil
	}
	resp, err := h.get(ctx, raw, "text/plain, */*;q=0.5")
	if err != nil {
		return nil, "", fmt.Errorf("%s: %s", raw, describeNetError(err))
	}
	if status >= 300 {
		writeStatusLine(&head, status)
		loc := resp.Header.Get("Location")
		orig, ok := wayback.OriginalURL(loc)
		if resp.Status < 300 || resp.Status >= 400 || !ok {
			return nil, "", fmt.Errorf("%s: the replay of a %d capture answered %s without a Wayback Location (%q)", raw, status, resp.StatusLine, loc)
		}
		head.WriteString("Location: " + orig + "\r\n\r\n")
		x.ResponseHead = head.Bytes()
		return x, fmt.Sprintf("status %d to %s recorded", status, orig), nil
	}
	if !resp.OK() {
		if resp.Truncated == "length" {
			return nil, "", fmt.Errorf("%s: body larger than --max-bytes %d", raw, h.opts.maxBytes)
		}
		return nil, "", fmt.Errorf("%s: %s", raw, resp.Refused)
	}
	writeStatusLine(&head, status)
	if ct := resp.ContentType; ct != "" {
		head.WriteString("Content-Type: " + ct + "\r\n")
	}
	head.WriteString("Content-Length: " + strconv.Itoa(len(resp.Body)) + "\r\n\r\n")
	x.ResponseHead, x.Body = head.Bytes(), resp.Body
	return x, fmt.Sprintf("status %d, %d bytes recorded", status, len(resp.Body)), nil
}

func writeStatusLine(b *bytes.Buffer, status int) {
	fmt.Fprintf(b, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
}

// sameHost keeps the captures whose original URL names host and says how
// many of each other host were left out.
func sameHost(caps []wayback.Capture, host string) ([]wayback.Capture, string) {
	var keep []wayback.Capture
	other := map[string]int{}
	for _, c := range caps {
		u, err := url.Parse(c.Original)
		if err == nil && strings.EqualFold(u.Hostname(), host) {
			keep = append(keep, c)
			continue
		}
		h := c.Original
		if err == nil {
			h = strings.ToLower(u.Hostname())
		}
		other[h]++
	}
	names := make([]string, 0, len(other))
	for h := range other {
		names = append(names, h)
	}
	sort.Strings(names)
	var parts []string
	for _, h := range names {
		parts = append(parts, fmt.Sprintf("%s: %d", h, other[h]))
	}
	return keep, strings.Join(parts, ", ")
}
