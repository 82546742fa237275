package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/internal/linecap"
	"github.com/repaudit/repaudit/signature"
)

// runSignature dispatches "repaudit signature <sub>".
func runSignature(ctx context.Context, args []string, std stdio) int {
	return runSub(ctx, args, std, "check", signatureUsage, runSignatureCheck)
}

// signatureCheckOptions are the validated flags of "signature check".
type signatureCheckOptions struct {
	cards, jwks   multiFlag
	skew          time.Duration
	allowTestKeys bool
	jsonl         bool
}

func runSignatureCheck(ctx context.Context, args []string, std stdio) int {
	var o signatureCheckOptions
	fs := newFlagSet("signature check", std.Stderr, signatureUsage, "\n")
	fs.Var(&o.cards, "card", "Signature Agent Card `FILE` (repeatable)")
	fs.Var(&o.jwks, "jwks", "JWK Set `FILE` of trusted keys (repeatable)")
	fs.DurationVar(&o.skew, "skew", signature.DefaultSkew, "clock allowance for created/expires")
	fs.BoolVar(&o.allowTestKeys, "allow-test-keys", false, "let the public RFC 9421 test keys verify")
	fs.BoolVar(&o.jsonl, "jsonl", false, "write JSON lines (otherwise one readable line per request)")
	if err := parseFlags(fs, args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(std.Stderr, "repaudit signature check: unexpected argument %q (requests are read from stdin)\n", fs.Arg(0))
		return exitUsage
	}
	if o.skew < 0 {
		fmt.Fprintln(std.Stderr, "repaudit signature check: --skew must not be negative")
		return exitUsage
	}

	store := identity.NewStore()
	notes, err := store.AddFiles(o.jwks, o.cards)
	for _, n := range notes {
		fmt.Fprintln(std.Stderr, "repaudit signature check:", n)
	}
	if err != nil {
		fmt.Fprintln(std.Stderr, "repaudit signature check:", err)
		return exitUsage
	}
	skew := o.skew
	if skew == 0 {
		skew = -1 // Options: negative means no allowance; zero means default
	}
	c := signature.NewChecker(store, signature.Options{Skew: skew, AllowTestKeys: o.allowTestKeys})
	bad, err := c.CheckAll(ctx, std.Stdin, std.Stdout, o.jsonl)
	reportStreamError(ctx, std.Stderr, "signature check", err)
	if err != nil || bad > 0 {
		return exitUsage
	}
	return exitOK
}

// reportStreamError says why a loop over the lines of stdin stopped
// early (linecap.Each's errors); nil says nothing.
func reportStreamError(ctx context.Context, w io.Writer, cmd string, err error) {
	var re *linecap.ReadError
	switch {
	case err == nil:
	case errors.As(err, &re):
		fmt.Fprintf(w, "repaudit %s: read stdin: %v\n", cmd, re.Err)
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		fmt.Fprintf(w, "repaudit %s: interrupted\n", cmd)
	default:
		fmt.Fprintf(w, "repaudit %s: write: %v\n", cmd, err)
	}
}

// readLine reads one line without its newline (linecap.Read).
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	return linecap.Read(br, max)
}

// parseCheckRequest turns an input line into a Request
// (signature.ParseRequestJSON).
func parseCheckRequest(line []byte) (*signature.Request, error) {
	return signature.ParseRequestJSON(line)
}
