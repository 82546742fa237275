// Command repaudit audits how web crawlers behave: it reads WARC archives and
// access logs, reconstructs what each bot was told when it fetched, and
// writes every fetch and every violation to Parquet.
//
// Exit codes (the only place they are defined):
//
//	0  success
//	1  the thing asked about was found: findings, only with
//	   --fail-on-findings (audit); a disallowed URL, only with
//	   --fail-on-disallowed (robots check); some registry entries could not
//	   be fetched (cards fetch)
//	2  usage error, or input that could not be read (after writing what could)
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
)

// stdio is what a command may read and write; tests pass buffers.
type stdio struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

type command struct {
	summary string
	run     func(ctx context.Context, args []string, std stdio) int
}

// commands is the table of subcommands. "robots", "signature" and "cards"
// take a sub-subcommand (check, fetch) as their first argument.
func commands() map[string]command {
	return map[string]command{
		"audit":     {"read archives and logs, judge every fetch, write Parquet tables", runAudit},
		"report":    {"summarize an audit directory (table, md, json, html)" + withoutDuckDB, runReport},
		"query":     {"run SQL over an audit directory with the embedded DuckDB" + withoutDuckDB, runQuery},
		"inspect":   {"show what repaudit reads from WARC and log files", runInspect},
		"robots":    {"robots check: judge URLs against a robots.txt file", runRobots},
		"signature": {"signature check: verify Web Bot Auth signatures of requests", runSignature},
		"cards":     {"cards fetch: fetch Signature Agent Cards into a WARC (uses the network)", runCards},
		"version":   {"print the version", runVersion},
	}
}

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func runVersion(_ context.Context, _ []string, std stdio) int {
	fmt.Fprintln(std.Stdout, "repaudit", version)
	return exitOK
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: repaudit <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'repaudit <command> -h' for a command's flags.")
	fmt.Fprintln(w, "Exit codes: 0 ok, 1 findings (only when asked), 2 usage or input error.")
}

func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// runSub runs a command that takes one sub-subcommand ("robots check",
// "signature check", "cards fetch"): anything else prints its usage.
func runSub(ctx context.Context, args []string, std stdio, sub string, usage func(io.Writer), run func(context.Context, []string, stdio) int) int {
	if len(args) > 0 && args[0] == sub {
		return run(ctx, args[1:], std)
	}
	if len(args) > 0 && isHelp(args[0]) {
		usage(std.Stdout)
		return exitOK
	}
	usage(std.Stderr)
	return exitUsage
}

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, std stdio) int {
	if len(args) == 0 {
		usage(std.Stderr)
		return exitUsage
	}
	if isHelp(args[0]) {
		usage(std.Stdout)
		return exitOK
	}
	cmd, ok := commands()[args[0]]
	if !ok {
		fmt.Fprintf(std.Stderr, "repaudit: unknown command %q\n", args[0])
		usage(std.Stderr)
		return exitUsage
	}
	return cmd.run(ctx, args[1:], std)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}
