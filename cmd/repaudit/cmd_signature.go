package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/internal/safetext"
	"github.com/repaudit/repaudit/signature"
)

// maxSignatureCheckLine caps one input JSON line; longer lines are reported
// and skipped.
const maxSignatureCheckLine = 1 << 20

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
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
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
	if err := loadIdentity(store, &o, std.Stderr); err != nil {
		fmt.Fprintln(std.Stderr, "repaudit signature check:", err)
		return exitUsage
	}
	skew := o.skew
	if skew == 0 {
		skew = -1 // Options: negative means no allowance; zero means default
	}
	c := signature.NewChecker(store, signature.Options{Skew: skew, AllowTestKeys: o.allowTestKeys})
	return checkRequests(ctx, std, c, o.jsonl)
}

// loadIdentity reads --card and --jwks files into the store; problems in
// them are reported on stderr, unreadable files are errors.
func loadIdentity(store *identity.Store, o *signatureCheckOptions, stderr io.Writer) error {
	report := func(probs []identity.Problem) {
		for _, p := range probs {
			fmt.Fprintf(stderr, "repaudit signature check: %s: %s: %s\n", p.Source, p.Code, p.Message)
		}
	}
	for _, f := range o.jwks {
		data, err := readCapped(f)
		if err != nil {
			return err
		}
		keys, probs, err := identity.ParseJWKS(data, f)
		report(probs)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		store.AddTrustedKeys(keys)
	}
	for _, f := range o.cards {
		data, err := readCapped(f)
		if err != nil {
			return err
		}
		c, probs, err := identity.ParseCard(data, f)
		report(probs)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if c.Invalid != "" {
			fmt.Fprintf(stderr, "repaudit signature check: %s: card invalid (%s): its keys are not trusted\n", f, c.Invalid)
		}
		store.AddCard(c, time.Time{})
	}
	return nil
}

// readCapped reads a local key or card file, refusing ones larger than
// identity.MaxDocumentBytes.
func readCapped(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, identity.MaxDocumentBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(data) > identity.MaxDocumentBytes {
		return nil, fmt.Errorf("%s: %w", name, identity.ErrTooLarge)
	}
	return data, nil
}

// checkResult is one output line.
type checkResult = signature.CheckResult

func checkRequests(ctx context.Context, std stdio, c *signature.Checker, jsonl bool) int {
	br := bufio.NewReaderSize(std.Stdin, 64<<10)
	bw := bufio.NewWriter(std.Stdout)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	code := exitOK
	write := func(res checkResult) {
		if jsonl {
			_ = enc.Encode(res)
		} else {
			writeReadable(bw, res)
		}
		if br.Buffered() == 0 {
			_ = bw.Flush() // keep interactive use responsive
		}
	}
	var lineNo int64
	for {
		if ctx.Err() != nil {
			_ = bw.Flush()
			fmt.Fprintln(std.Stderr, "repaudit signature check: interrupted")
			return exitUsage
		}
		line, tooLong, err := readLine(br, maxSignatureCheckLine)
		if err != nil && len(line) == 0 && !tooLong {
			if !errors.Is(err, io.EOF) {
				_ = bw.Flush()
				fmt.Fprintln(std.Stderr, "repaudit signature check: read stdin:", err)
				return exitUsage
			}
			break
		}
		lineNo++
		if tooLong {
			write(checkResult{Line: lineNo, Error: fmt.Sprintf("line longer than %d bytes", maxSignatureCheckLine)})
			code = exitUsage
			continue
		}
		if res, ok := c.CheckLine(lineNo, line); ok {
			if res.Error != "" {
				code = exitUsage
			}
			write(res)
		}
	}
	if err := bw.Flush(); err != nil {
		fmt.Fprintln(std.Stderr, "repaudit signature check: write:", err)
		return exitUsage
	}
	return code
}

// readLine reads one line without its newline. A line longer than max is
// consumed and reported with tooLong.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, err := br.ReadLine()
		if len(line)+len(chunk) > max {
			tooLong = true
		} else {
			line = append(line, chunk...)
		}
		if err != nil {
			if tooLong {
				return nil, true, nil
			}
			return line, false, err
		}
		if !isPrefix {
			if tooLong {
				return nil, true, nil
			}
			return line, false, nil
		}
	}
}

// parseCheckRequest turns an input line into a Request
// (signature.ParseRequestJSON).
func parseCheckRequest(line []byte) (*signature.Request, error) {
	return signature.ParseRequestJSON(line)
}

// writeReadable writes one result as a line for people, with the
// request's own text (reasons, evidence) escaped for the terminal.
func writeReadable(w io.Writer, r checkResult) {
	w = safetext.NewWriter(w)
	if r.Error != "" {
		fmt.Fprintf(w, "line %d: error: %s\n", r.Line, r.Error)
		return
	}
	fmt.Fprintf(w, "line %d: %s", r.Line, r.Verdict)
	if len(r.Reasons) > 0 {
		fmt.Fprintf(w, " [%s]", strings.Join(r.Reasons, ", "))
	}
	if r.Claimed != "" {
		fmt.Fprintf(w, " claims %s", r.Claimed)
	}
	if r.Evidence != "" {
		fmt.Fprintf(w, ": %s", r.Evidence)
	}
	if r.Replay != "" {
		fmt.Fprintf(w, " | %s", r.Replay)
	}
	fmt.Fprintln(w)
}
