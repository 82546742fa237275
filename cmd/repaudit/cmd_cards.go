package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/discovery"
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

	hooks := std.Net.withDefaults()
	ua := "repaudit/" + version + " (cards fetch)"
	client := netfetch.New(netfetch.Options{
		Timeout: o.timeout, MaxBytes: int64(o.maxBytes), AllowPrivate: o.allowPrivate,
		TLSConfig: hooks.tlsConfig, UserAgent: ua,
	})
	failed, records, err := resolveRegistry(ctx, o, client, hooks.now, ua, regName, entries, regProblems, std.Stderr)
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

// resolveRegistry resolves the registry into the --out WARC, written
// atomically, printing each entry's lines to report as it is done. It
// returns the failed entries and the records written; the error is for the
// output or an interruption (then nothing is written).
func resolveRegistry(ctx context.Context, o cardsFetchOptions, client *netfetch.Client, now func() time.Time, ua, regName string,
	entries []identity.RegistryEntry, probs []identity.Problem, report io.Writer) (failed int, records int, err error) {
	out, err := createAtomic(o.out)
	if err != nil {
		return 0, 0, err
	}
	defer out.Abort()
	ww := warc.NewWriter(out, warc.WriterOptions{})
	r := discovery.New(client, ww, now, int64(o.maxBytes))
	if err := r.WriteWarcinfo(filepath.Base(o.out), regName, ua, "repaudit/"+version); err != nil {
		return 0, 0, err
	}
	failed, err = r.Resolve(ctx, regName, entries, probs, func(e discovery.Entry) { printEntry(report, e) })
	if err != nil {
		return failed, 0, err
	}
	if err := out.Commit(); err != nil {
		return failed, 0, err
	}
	return failed, ww.Records(), nil
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

// printEntry writes one registry entry's report lines, as they always
// read: the entry's line, then indented lines for its keys and IP list,
// each document's problems under it.
func printEntry(w io.Writer, e discovery.Entry) {
	for _, s := range e.Steps {
		printStep(w, e.Loc, s)
		printNotes(w, s.Notes)
	}
}

func printStep(w io.Writer, loc string, s discovery.Step) {
	refused := s.Refused
	if s.NetErr != nil {
		refused = describeNetError(s.NetErr)
	}
	switch s.Kind {
	case discovery.StepRegistryProblem:
		fmt.Fprintf(w, "%s: refused: %s: %s\n", s.Problem.Source, s.Problem.Code, s.Problem.Message)
	case discovery.StepInlineCard:
		if !s.Got {
			fmt.Fprintf(w, "%s %s: refused: inline card: %s\n", loc, shortURL(s.URL), refused)
			return
		}
		fmt.Fprintf(w, "%s %s: inline card %q recorded\n", loc, shortURL(s.URL), s.Card.Label())
	case discovery.StepCard, discovery.StepDirectory:
		switch {
		case !s.Got:
			fmt.Fprintf(w, "%s %s: refused: %s\n", loc, s.URL, refused)
		case refused != "":
			fmt.Fprintf(w, "%s %s: 200, refused: %s\n", loc, s.URL, refused)
		case s.Kind == discovery.StepDirectory:
			fmt.Fprintf(w, "%s %s: 200, key directory with %d key(s) recorded\n", loc, s.URL, s.Count)
		default:
			fmt.Fprintf(w, "%s %s: 200, card %q recorded\n", loc, s.URL, s.Card.Label())
		}
	case discovery.StepInvalidCard:
		fmt.Fprintf(w, "  refused: invalid card (%s): its keys are not trusted, nothing more fetched\n", s.Invalid)
	case discovery.StepKeys:
		switch {
		case !s.Got:
			fmt.Fprintf(w, "  %s %s: refused: %s\n", s.What, s.URL, refused)
		case refused != "":
			fmt.Fprintf(w, "  %s %s: 200, refused: %s\n", s.What, s.URL, refused)
		case s.Again:
			fmt.Fprintf(w, "  %s %s: 200, %d key(s), recorded above\n", s.What, s.URL, s.Count)
		default:
			fmt.Fprintf(w, "  %s %s: 200, %d key(s) recorded\n", s.What, s.URL, s.Count)
		}
	case discovery.StepInlineJWKS:
		fmt.Fprintf(w, "  inline jwks: %d key(s)\n", s.Count)
	case discovery.StepNoKeys:
		fmt.Fprintln(w, "  no key material: no jwks, jwks_uri or client_id")
	case discovery.StepIPs:
		switch {
		case !s.Got:
			fmt.Fprintf(w, "  ips_uri %s: refused: %s\n", s.URL, refused)
		case refused != "":
			fmt.Fprintf(w, "  ips_uri %s: 200, refused: %s\n", s.URL, refused)
		default:
			created := "no creationTime"
			if !s.Created.IsZero() {
				created = "creationTime " + s.Created.Format(time.RFC3339)
			}
			fmt.Fprintf(w, "  ips_uri %s: 200, %d prefixes (%s) recorded\n", s.URL, s.Count, created)
		}
	}
}

// printNotes prints a document's problems, a few at most.
func printNotes(w io.Writer, ps []identity.Problem) {
	for i, p := range ps {
		if i == maxNotesPerDocument {
			fmt.Fprintf(w, "  note: %d more problem(s)\n", len(ps)-i)
			return
		}
		fmt.Fprintf(w, "  note: %s: %s: %s\n", p.Source, p.Code, p.Message)
	}
}

// shortURL keeps report lines readable for long data: URLs.
func shortURL(s string) string {
	if len(s) > 72 {
		return s[:72] + "..."
	}
	return s
}
