package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/netfetch"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/warc"
)

// Limits of "cards fetch".
const (
	defaultCardsTimeout  = 10 * time.Second
	defaultCardsMaxBytes = 1 << 20
	maxCardsMaxBytes     = 64 << 20
	// maxNotesPerDocument caps the problems printed for one document.
	maxNotesPerDocument = 8
)

// directoryPath is the key directory location on a signature agent's
// origin (Signature-Agent type "directory").
const directoryPath = "/.well-known/http-message-signatures-directory"

// Accept headers per document kind.
const (
	acceptCard      = "application/json"
	acceptDirectory = "application/http-message-signatures-directory+json, application/jwk-set+json;q=0.9, application/json;q=0.8"
	acceptIPList    = "application/json"
)

// runCards dispatches "repaudit cards <sub>".
func runCards(ctx context.Context, args []string, std stdio) int {
	return runSub(ctx, args, std, "fetch", cardsUsage, runCardsFetch)
}

func cardsUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: repaudit cards fetch --registry FILE --out FILE.warc.gz [--force] [--allow-private] [--timeout 10s] [--max-bytes 1MiB]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Resolves a Signature Agent registry (draft-meunier-webbotauth-registry-03):")
	fmt.Fprintln(w, "one https or data: URL a line, '#' comments. For each card it fetches the card,")
	fmt.Fprintln(w, "its jwks_uri (or, when the card names no keys, the client_id origin's")
	fmt.Fprintln(w, "/.well-known/http-message-signatures-directory) and its ips_uri, and writes")
	fmt.Fprintln(w, "every exchange to a gzip-per-record WARC/1.1 file for 'repaudit audit' to use")
	fmt.Fprintln(w, "as of its capture time. data: entries are inline cards (recorded as resource")
	fmt.Fprintln(w, "records, not fetched). Like 'ranges fetch' and 'robots history', it uses the")
	fmt.Fprintln(w, "network; 'audit' never does.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Rules (registry-03 §Client ID): https only, GET only, only 200 is accepted,")
	fmt.Fprintln(w, "redirects are not followed, a card's client_id must equal the URL it was")
	fmt.Fprintln(w, "fetched from. Non-public addresses (private, loopback, link-local,")
	fmt.Fprintln(w, "unspecified, documentation, ...) are refused at connect time unless")
	fmt.Fprintln(w, "--allow-private. Refused responses are still recorded in the WARC as evidence.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "A report line per entry goes to stderr. The output is written atomically; an")
	fmt.Fprintln(w, "existing file is refused unless --force.")
	fmt.Fprintln(w, "Exit status: 0 every entry fetched and valid; 1 some entries failed (the WARC")
	fmt.Fprintln(w, "still holds what was fetched); 2 usage error, unreadable registry, unwritable")
	fmt.Fprintln(w, "output, or interrupted (no output written).")
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
	fs := flag.NewFlagSet("cards fetch", flag.ContinueOnError)
	fs.SetOutput(std.Stderr)
	fs.Usage = func() {
		cardsUsage(std.Stderr)
		fmt.Fprintln(std.Stderr)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.registry, "registry", "", "registry `FILE` (\"-\" for stdin)")
	fs.StringVar(&o.out, "out", "", "output WARC `FILE` (gzip per record, e.g. cards.warc.gz)")
	fs.BoolVar(&o.force, "force", false, "replace an existing output file")
	fs.BoolVar(&o.allowPrivate, "allow-private", false, "allow non-public addresses (tests, intranet registries)")
	fs.DurationVar(&o.timeout, "timeout", defaultCardsTimeout, "time limit for each exchange, connect to last body byte")
	fs.Var(&o.maxBytes, "max-bytes", "size `limit` of each response body (e.g. 1MiB, 512KiB, 100000)")
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
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

	var reg io.Reader
	regName := o.registry
	if o.registry == "-" {
		reg, regName = std.Stdin, "stdin"
	} else {
		f, err := os.Open(o.registry)
		if err != nil {
			fmt.Fprintf(std.Stderr, "repaudit cards fetch: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		reg = f
	}
	entries, regProblems := identity.ParseRegistry(reg, regName)
	for _, p := range regProblems {
		if p.Code == problem.RegistryReadError {
			fmt.Fprintf(std.Stderr, "repaudit cards fetch: %s: %s\n", p.Source, p.Message)
			return exitUsage
		}
	}

	hooks := netHooksFrom(ctx)
	now := hooks.now
	ua := "repaudit/" + version + " (cards fetch)"
	cf := &cardsFetcher{
		opts: o,
		client: netfetch.New(netfetch.Options{
			Timeout: o.timeout, MaxBytes: int64(o.maxBytes), AllowPrivate: o.allowPrivate,
			TLSConfig: hooks.tlsConfig, UserAgent: ua,
		}),
		now:    now,
		ua:     ua,
		seen:   map[string]*fetched{},
		report: std.Stderr,
	}
	failed, err := cf.run(ctx, regName, entries, regProblems)
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit cards fetch: %v\n", err)
		return exitUsage
	}
	total := len(entries) + len(regProblems)
	fmt.Fprintf(std.Stderr, "cards fetch: %d entries: %d ok, %d failed; %d WARC records written to %s\n",
		total, total-failed, failed, cf.ww.Records(), o.out)
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

// fetched is the outcome of one GET.
type fetched struct {
	url         string
	status      int
	contentType string
	body        []byte
	// refused is why the document cannot be used ("" when it can): a
	// policy refusal, a network error, a non-200 status, a cut body.
	refused string
	// again is set when the URL was already fetched earlier in the run.
	again bool
}

// cardsFetcher resolves one registry into one WARC file.
type cardsFetcher struct {
	opts   cardsFetchOptions
	client *netfetch.Client
	now    func() time.Time
	ua     string
	ww     *warc.Writer
	seen   map[string]*fetched // each URL is fetched once per run
	report io.Writer
}

// run processes every registry line in order and writes the WARC
// atomically. It returns the number of failed entries; the error is for
// the output file or an interruption (then nothing is written).
func (cf *cardsFetcher) run(ctx context.Context, regName string, entries []identity.RegistryEntry, probs []identity.Problem) (failed int, err error) {
	out, err := createAtomic(cf.opts.out)
	if err != nil {
		return 0, err
	}
	defer out.Abort()
	cf.ww = warc.NewWriter(out, warc.WriterOptions{})
	if _, err := cf.ww.WriteWarcinfo(cf.now(), filepath.Base(cf.opts.out), event.Header{
		{Name: "software", Value: "repaudit/" + version},
		{Name: "format", Value: "WARC File Format 1.1"},
		{Name: "conformsTo", Value: "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"},
		{Name: "description", Value: "Signature Agent Cards, key directories and IP lists fetched by 'repaudit cards fetch'"},
		{Name: "registry", Value: regName},
		{Name: "http-header-user-agent", Value: cf.ua},
	}); err != nil {
		return 0, err
	}

	// Report registry problems and entries in line order.
	pi := 0
	flushProblems := func(before int) {
		for ; pi < len(probs) && (before < 0 || problemLine(probs[pi]) < before); pi++ {
			fmt.Fprintf(cf.report, "%s: refused: %s: %s\n", probs[pi].Source, probs[pi].Code, probs[pi].Message)
			failed++
		}
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return failed, fmt.Errorf("interrupted: %w", err)
		}
		flushProblems(e.Line)
		ok, werr := cf.entry(ctx, regName+":"+strconv.Itoa(e.Line), e)
		if werr != nil {
			return failed, werr
		}
		if !ok {
			failed++
		}
	}
	flushProblems(-1)
	if err := ctx.Err(); err != nil {
		return failed, fmt.Errorf("interrupted: %w", err)
	}

	if err := out.Commit(); err != nil {
		return failed, err
	}
	return failed, nil
}

// problemLine extracts the line number of a registry problem ("file:12").
func problemLine(p identity.Problem) int {
	i := strings.LastIndexByte(p.Source, ':')
	n, _ := strconv.Atoi(p.Source[i+1:])
	return n
}

// entry resolves one registry entry and its key and IP documents. ok is
// false when anything it needed was refused; err only for the output.
func (cf *cardsFetcher) entry(ctx context.Context, loc string, e identity.RegistryEntry) (ok bool, err error) {
	var card *identity.Card
	var probs []identity.Problem
	if e.Inline != nil {
		if err := cf.ww.WriteResource(e.URL, dataMediaType(e.URL), cf.now(), e.Inline); err != nil {
			return false, err
		}
		c, p, perr := identity.ParseCard(e.Inline, loc)
		if perr != nil {
			fmt.Fprintf(cf.report, "%s %s: refused: inline card: %v\n", loc, shortURL(e.URL), perr)
			return false, nil
		}
		card, probs = c, p
		fmt.Fprintf(cf.report, "%s %s: inline card %q recorded\n", loc, shortURL(e.URL), cardLabel(c))
	} else {
		r, err := cf.get(ctx, e.URL, acceptCard)
		if err != nil {
			return false, err
		}
		if r.refused != "" {
			fmt.Fprintf(cf.report, "%s %s: refused: %s\n", loc, e.URL, r.refused)
			return false, nil
		}
		if identity.CaptureKind(e.URL, r.contentType, r.body) == identity.KindJWKS {
			// A registry entry may name a key directory directly (the
			// registry-03 example does).
			keys, kp, kerr := identity.ParseJWKS(r.body, e.URL)
			if kerr != nil {
				fmt.Fprintf(cf.report, "%s %s: 200, refused: %v\n", loc, e.URL, kerr)
				return false, nil
			}
			fmt.Fprintf(cf.report, "%s %s: 200, key directory with %d key(s) recorded\n", loc, e.URL, len(keys))
			cf.notes(kp)
			return true, nil
		}
		c, p, perr := identity.ParseCard(r.body, e.URL)
		if perr != nil {
			fmt.Fprintf(cf.report, "%s %s: 200, refused: %v\n", loc, e.URL, perr)
			return false, nil
		}
		card, probs = c, p
		// registry-03 §Client ID: identical, by simple string comparison.
		switch {
		case c.ClientID == e.URL:
		case c.ClientID == "" && c.Layout == identity.LayoutLegacyFlat:
			probs = append(probs, identity.Problem{Source: e.URL, Code: problem.CardNoClientID, Message: "legacy card without client_id; identified by its URL"})
		case c.ClientID == "":
			fmt.Fprintf(cf.report, "%s %s: 200, refused: card has no client_id (registry-03 §Client ID)\n", loc, e.URL)
			return false, nil
		default:
			fmt.Fprintf(cf.report, "%s %s: 200, refused: client_id %q is not the URL fetched (registry-03 §Client ID)\n", loc, e.URL, c.ClientID)
			return false, nil
		}
		fmt.Fprintf(cf.report, "%s %s: 200, card %q recorded\n", loc, e.URL, cardLabel(c))
	}
	cf.notes(probs)
	if card.Invalid != "" {
		fmt.Fprintf(cf.report, "  refused: invalid card (%s): its keys are not trusted, nothing more fetched\n", card.Invalid)
		return false, nil
	}
	return cf.follow(ctx, card)
}

// follow fetches the key material and IP list a card names (registry-03
// §"CIMD-based discovery" step 3, §"IP Address List URI").
func (cf *cardsFetcher) follow(ctx context.Context, c *identity.Card) (ok bool, err error) {
	ok = true
	keysURL, what := c.JWKSURI, "jwks_uri"
	if keysURL == "" && c.JWKS == nil {
		if o := originURL(c.ClientID); o != "" {
			keysURL, what = o+directoryPath, "key directory"
		}
	}
	switch {
	case keysURL != "":
		r, err := cf.get(ctx, keysURL, acceptDirectory)
		if err != nil {
			return false, err
		}
		if r.refused != "" {
			fmt.Fprintf(cf.report, "  %s %s: refused: %s\n", what, keysURL, r.refused)
			ok = false
			break
		}
		keys, kp, kerr := identity.ParseJWKS(r.body, keysURL)
		if kerr != nil {
			fmt.Fprintf(cf.report, "  %s %s: 200, refused: %v\n", what, keysURL, kerr)
			ok = false
			break
		}
		if r.again {
			fmt.Fprintf(cf.report, "  %s %s: 200, %d key(s), recorded above\n", what, keysURL, len(keys))
			break
		}
		fmt.Fprintf(cf.report, "  %s %s: 200, %d key(s) recorded\n", what, keysURL, len(keys))
		cf.notes(kp)
	case c.JWKS != nil:
		fmt.Fprintf(cf.report, "  inline jwks: %d key(s)\n", len(c.JWKS))
	default:
		fmt.Fprintln(cf.report, "  no key material: no jwks, jwks_uri or client_id")
	}
	if c.IPsURI != "" {
		r, err := cf.get(ctx, c.IPsURI, acceptIPList)
		if err != nil {
			return false, err
		}
		if r.refused != "" {
			fmt.Fprintf(cf.report, "  ips_uri %s: refused: %s\n", c.IPsURI, r.refused)
			return false, nil
		}
		l, lp, lerr := identity.ParseIPList(r.body, c.IPsURI)
		if lerr != nil {
			fmt.Fprintf(cf.report, "  ips_uri %s: 200, refused: %v\n", c.IPsURI, lerr)
			return false, nil
		}
		created := "no creationTime"
		if !l.CreationTime.IsZero() {
			created = "creationTime " + l.CreationTime.Format(time.RFC3339)
		}
		fmt.Fprintf(cf.report, "  ips_uri %s: 200, %d prefixes (%s) recorded\n", c.IPsURI, len(l.Prefixes), created)
		cf.notes(lp)
	}
	return ok, nil
}

// notes prints a document's problems, a few at most.
func (cf *cardsFetcher) notes(ps []identity.Problem) {
	for i, p := range ps {
		if i == maxNotesPerDocument {
			fmt.Fprintf(cf.report, "  note: %d more problem(s)\n", len(ps)-i)
			return
		}
		fmt.Fprintf(cf.report, "  note: %s: %s: %s\n", p.Source, p.Code, p.Message)
	}
}

// get fetches rawURL once per run and records the exchange. The error is
// only for the output; refusals are in fetched.refused.
func (cf *cardsFetcher) get(ctx context.Context, rawURL, accept string) (*fetched, error) {
	if r, ok := cf.seen[rawURL]; ok {
		r.again = true
		return r, nil
	}
	r := &fetched{url: rawURL}
	cf.seen[rawURL] = r
	resp, err := cf.client.Get(ctx, rawURL, accept)
	if err != nil {
		r.refused = describeNetError(err)
		if errors.Is(err, netfetch.ErrNotHTTPS) {
			r.refused = "not an https URL (registry-03: the URI scheme MUST be https)"
		}
		return r, nil
	}
	x := &warc.Exchange{
		URL: rawURL, Time: cf.now(), IP: resp.RemoteIP, Request: resp.Request,
		ResponseHead: resp.ResponseHead, Body: resp.Body, Truncated: resp.Truncated,
	}
	if err := cf.ww.WriteExchange(x); err != nil {
		return nil, err
	}
	r.status, r.contentType, r.body = resp.Status, resp.ContentType, resp.Body
	r.refused = resp.Refused
	if resp.Truncated == "length" {
		r.refused = fmt.Sprintf("body larger than --max-bytes %d", cf.opts.maxBytes)
	}
	return r, nil
}

// originURL returns "https://host[:port]" of an https URL, or "".
func originURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return ""
	}
	return "https://" + u.Host
}

// dataMediaType returns the media type a data: URL declares, defaulting
// to application/json (registry entries carry cards).
func dataMediaType(s string) string {
	meta, _, _ := strings.Cut(strings.TrimPrefix(s, "data:"), ",")
	mt, _, _ := strings.Cut(meta, ";base64")
	if mt = strings.TrimSpace(mt); mt == "" || strings.HasPrefix(mt, ";") {
		return "application/json"
	}
	return mt
}

func cardLabel(c *identity.Card) string {
	switch {
	case c.Name != "":
		return c.Name
	case c.ProductToken != "":
		return c.ProductToken
	case c.ClientID != "":
		return c.ClientID
	}
	return "(unnamed)"
}

// shortURL keeps report lines readable for long data: URLs.
func shortURL(s string) string {
	if len(s) > 72 {
		return s[:72] + "..."
	}
	return s
}
