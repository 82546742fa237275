package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/repaudit/repaudit/internal/safetext"
	"github.com/repaudit/repaudit/robots"
)

// runRobots dispatches "repaudit robots <sub>".
func runRobots(ctx context.Context, args []string, std stdio) int {
	if len(args) > 0 && args[0] == "history" {
		return runRobotsHistory(ctx, args[1:], std)
	}
	return runSub(ctx, args, std, "check", robotsUsage, runRobotsCheck)
}

// robotsCheckOptions are the validated flags of "robots check".
type robotsCheckOptions struct {
	robotsFile  string
	agent       string
	usage       string
	maxBytes    int
	failOnDis   bool
	jsonl       bool
	diagnostics bool
	urls        []string
}

func parseRobotsCheckFlags(args []string, stderr io.Writer) (robotsCheckOptions, error) {
	var o robotsCheckOptions
	fs := newFlagSet("robots check", stderr, robotsUsage, "\nflags:\n")
	fs.StringVar(&o.robotsFile, "robots", "", "robots.txt `file` to judge against (- for stdin)")
	fs.StringVar(&o.agent, "agent", "", "product `token` of the crawler, e.g. GPTBot")
	fs.StringVar(&o.usage, "usage", "", "ask an ACAP 1.0 `usage` question instead (crawl, index, present-snippet, ...)")
	fs.IntVar(&o.maxBytes, "max-bytes", robots.DefaultMaxBytes, "parsing limit in `bytes` (RFC 9309 §2.5: at least 500 KiB)")
	fs.BoolVar(&o.failOnDis, "fail-on-disallowed", false, "exit 1 if any URL is disallowed")
	fs.BoolVar(&o.jsonl, "jsonl", false, "read JSON questions from stdin, write JSON answers")
	fs.BoolVar(&o.diagnostics, "diagnostics", false, "print parser diagnostics to stderr")
	urls, err := parseInterspersed(fs, args)
	if err != nil {
		return o, err
	}
	o.urls = urls
	switch {
	case o.maxBytes <= 0:
		return o, errors.New("--max-bytes must be positive")
	case o.jsonl && (o.robotsFile != "" || o.agent != "" || o.usage != "" || len(o.urls) > 0):
		return o, errors.New("--jsonl takes its questions from stdin: no --robots, --agent, --usage or URLs")
	case o.jsonl:
	case o.robotsFile == "":
		return o, errors.New("--robots is required")
	case o.agent == "":
		return o, errors.New("--agent is required")
	case len(o.urls) == 0:
		return o, errors.New("no URL to check")
	}
	return o, nil
}

func runRobotsCheck(ctx context.Context, args []string, std stdio) int {
	o, err := parseRobotsCheckFlags(args, std.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(std.Stderr, "repaudit robots check:", err)
		return exitUsage
	}
	if o.jsonl {
		return robotsCheckJSONL(ctx, o, std)
	}
	body, err := robots.ReadFile(o.robotsFile, std.Stdin)
	if err != nil {
		fmt.Fprintln(std.Stderr, "repaudit robots check:", err)
		return exitUsage
	}
	f := robots.Parse(body, robots.Options{MaxBytes: o.maxBytes})
	name := o.robotsFile
	if name == "-" {
		name = "stdin"
	}
	if f.Truncated {
		fmt.Fprintf(std.Stderr, "repaudit robots check: %s: %d bytes exceed the parsing limit of %d; later lines ignored\n", name, f.Size, o.maxBytes)
	}
	if o.diagnostics {
		for _, d := range f.Diagnostics {
			fmt.Fprintf(std.Stderr, "%s:%d: %s: %s\n", name, d.Line, d.Code, d.Message)
		}
	}
	w := bufio.NewWriter(std.Stdout)
	disallowed := false
	for _, u := range o.urls {
		allowed, evidence := f.Judge(o.agent, o.usage, u)
		verdict := "allowed"
		if !allowed {
			verdict = "disallowed"
			disallowed = true
		}
		// Tab-separated: escape each field whole (tabs too).
		fmt.Fprintf(w, "%s\t%s\t%s\n", verdict, safetext.Escape(u), safetext.Escape(evidence))
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(std.Stderr, "repaudit robots check: write:", err)
		return exitUsage
	}
	if disallowed && o.failOnDis {
		return exitFindings
	}
	return exitOK
}

func robotsCheckJSONL(ctx context.Context, o robotsCheckOptions, std stdio) int {
	bad, disallowed, err := robots.NewAnswerer(o.maxBytes).AnswerAll(ctx, std.Stdin, std.Stdout, func(e string) {
		fmt.Fprintln(std.Stderr, "repaudit robots check:", e)
	})
	reportStreamError(ctx, std.Stderr, "robots check", err)
	switch {
	case err != nil || bad > 0:
		return exitUsage
	case disallowed && o.failOnDis:
		return exitFindings
	}
	return exitOK
}
