// Command repaudit audits how web crawlers behave: it reads WARC archives and
// access logs, reconstructs what each bot was told when it fetched, and
// writes every fetch and every violation to Parquet.
//
// Exit codes (the only place they are defined):
//
//	0  success
//	1  the thing asked about was found: findings, only with
//	   --fail-on-findings (audit); input problems of a severity or worse,
//	   only with --fail-on-problems[=SEVERITY] (audit; bare means warning,
//	   which includes an input that yielded nothing); a disallowed URL,
//	   only with --fail-on-disallowed (robots check); some registry
//	   entries could not be fetched (cards fetch); some lists could not be
//	   fetched (ranges fetch); robots.json could not be fetched or is
//	   not a catalog (bots fetch); some captures could not be fetched (robots
//	   history); some addresses could not be looked up (dns verify)
//	2  usage error, or input that could not be read (after writing what could)
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"sort"
	"syscall"

	"github.com/repaudit/repaudit/internal/profile"
	"github.com/repaudit/repaudit/internal/safetext"
	// The time zone database, so report --tz works on systems without
	// /usr/share/zoneinfo (containers, Windows); about 450 KB next to the
	// DuckDB library. time.LoadLocation still prefers the system's copy.
	_ "time/tzdata"
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
	// Getenv reads the environment (os.Getenv); nil reads nothing, so
	// tests do not depend on the shell they run in.
	Getenv func(string) string
	// Net reaches the network layer of the commands that fetch; tests
	// set it, production leaves it zero.
	Net netHooks
}

type command struct {
	summary string
	run     func(ctx context.Context, args []string, std stdio) int
}

// commands is the table of subcommands. "robots", "signature", "cards",
// "ranges" and "bots" take a sub-subcommand (check, history, fetch,
// identify, list) as their first argument.
func commands() map[string]command {
	return map[string]command{
		"audit":     {"read archives and logs, judge every fetch, write Parquet tables", runAudit},
		"report":    {"summarize an audit directory (table, md, json, html)" + withoutDuckDB, runReport},
		"query":     {"run SQL over an audit directory with the embedded DuckDB" + withoutDuckDB, runQuery},
		"inspect":   {"show what repaudit reads from WARC and log files", runInspect},
		"export":    {"turn an audit's retention actions into pywb ACL, OpenWayback exclusion or CDX files", runExport},
		"robots":    {"robots check: judge URLs against a robots.txt; robots history: a site's past robots.txt from the Wayback Machine (network)", runRobots},
		"signature": {"signature check: verify Web Bot Auth signatures of requests", runSignature},
		"cards":     {"cards fetch: fetch Signature Agent Cards into a WARC (uses the network)", runCards},
		"bots":      {"bots identify | list | fetch: identify User-Agents with the bot catalog, print it; fetch ai.robots.txt's robots.json (uses the network)", runBots},
		"ranges":    {"ranges fetch: download every bot IP range list the catalog knows (uses the network)", runRanges},
		"dns":       {"dns verify: reverse-DNS snapshot of the addresses of bots that document it (uses the network)", runDNS},
		"version":   {"print the version", runVersion},
	}
}

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func runVersion(_ context.Context, args []string, std stdio) int {
	if len(args) > 0 {
		if isHelp(args[0]) {
			fmt.Fprintln(std.Stdout, "usage: repaudit version (or repaudit --version): print the version")
			return exitOK
		}
		fmt.Fprintf(std.Stderr, "repaudit version: unexpected argument %q\n", args[0])
		return exitUsage
	}
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
	fmt.Fprintln(w, "Run 'repaudit help <command>' or 'repaudit <command> -h' for a command's flags;")
	fmt.Fprintln(w, "'repaudit --version' prints the version.")
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

// run is main without the process: it returns the exit code. Everything
// written to standard error passes through safetext, so a file name, URL
// or User-Agent quoted in a message cannot drive the terminal; commands
// escape their text output on standard output the same way.
func run(ctx context.Context, args []string, std stdio) int {
	std.Stderr = safetext.NewWriter(std.Stderr)
	if len(args) == 0 {
		usage(std.Stderr)
		return exitUsage
	}
	switch {
	case args[0] == "--version" || args[0] == "-version":
		return runVersion(ctx, args[1:], std)
	case args[0] == "help" && len(args) > 1 && !isHelp(args[1]):
		// "help CMD [SUB]" is "CMD [SUB] -h", its usage on standard output.
		if _, ok := commands()[args[1]]; !ok {
			return unknownCommand(args[1], std)
		}
		help := append(slices.Clone(args[1:]), "-h")
		std.Stderr = std.Stdout
		return run(ctx, help, std)
	case isHelp(args[0]):
		usage(std.Stdout)
		return exitOK
	}
	cmd, ok := commands()[args[0]]
	if !ok {
		return unknownCommand(args[0], std)
	}
	return cmd.run(ctx, args[1:], std)
}

// unknownCommand says name is not a command, and which one was probably
// meant.
func unknownCommand(name string, std stdio) int {
	names := make([]string, 0, len(commands()))
	for n := range commands() {
		names = append(names, n)
	}
	if s := suggest(name, names); s != "" {
		fmt.Fprintf(std.Stderr, "repaudit: unknown command %q; did you mean %s?\n", name, s)
	} else {
		fmt.Fprintf(std.Stderr, "repaudit: unknown command %q\n", name)
	}
	usage(std.Stderr)
	return exitUsage
}

// endSignals are the signals that end a run: each cancels its context,
// so the run removes its spool and its partial output before it exits
// (a closed terminal sends SIGHUP).
var endSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), endSignals...)
	endProfiles := profile.Start("repaudit", os.Getenv, os.Stderr)
	code := run(ctx, os.Args[1:], stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
	stop()
	endProfiles()
	os.Exit(code)
}
