package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/internal/linecap"
)

// runBots dispatches "repaudit bots <sub>".
func runBots(ctx context.Context, args []string, std stdio) int {
	if len(args) > 0 {
		switch args[0] {
		case "identify":
			return runBotsIdentify(ctx, args[1:], std)
		case "list":
			return runBotsList(ctx, args[1:], std)
		case "fetch":
			return runBotsFetch(ctx, args[1:], std)
		}
		if isHelp(args[0]) {
			botsUsage(std.Stdout)
			return exitOK
		}
	}
	botsUsage(std.Stderr)
	return exitUsage
}

func parseBotsFlags(name string, args []string, stderr io.Writer, json, text *bool) ([]string, error) {
	var files multiFlag
	fs := newFlagSet(name, stderr, botsUsage, "\nflags:\n")
	fs.Var(&files, "bots", "bot catalog `FILE` to merge over the default; repeatable")
	if json != nil {
		fs.BoolVar(json, "json", false, "print one JSON document instead of a table")
	}
	if text != nil {
		fs.BoolVar(text, "text", false, "print tab-separated text lines instead of JSON lines")
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return files, nil
}

// identifyResult is one output line of "bots identify".
type identifyResult = bots.Identification

// lineUA reads the User-Agent of one input line; see bots.LineUA.
func lineUA(raw []byte) (string, error) { return bots.LineUA(raw) }

func runBotsIdentify(ctx context.Context, args []string, std stdio) int {
	var asText bool
	files, err := parseBotsFlags("bots identify", args, std.Stderr, nil, &asText)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(std.Stderr, "repaudit bots identify:", err)
		return exitUsage
	}
	c, err := bots.LoadWith(files...)
	if err != nil {
		fmt.Fprintln(std.Stderr, "repaudit bots identify:", err)
		return exitUsage
	}
	in := std.Stdin
	if in == nil {
		in = strings.NewReader("")
	}
	bad, err := c.IdentifyAll(ctx, in, std.Stdout, asText, func(line int64, err error) {
		fmt.Fprintf(std.Stderr, "repaudit bots identify: stdin:%d: %v\n", line, err)
	})
	var re *linecap.ReadError
	switch {
	case errors.As(err, &re):
		fmt.Fprintf(std.Stderr, "repaudit bots identify: stdin:%d: %v\n", re.Line, re.Err)
	case err != nil:
		fmt.Fprintln(std.Stderr, "repaudit bots identify:", err)
	}
	if err != nil || bad > 0 {
		return exitUsage
	}
	return exitOK
}

// listedBot is one bot of "bots list --json".
type listedBot = bots.Listed

// catalogVersions is the "data" member of "bots list --json".
type catalogVersions = bots.ListedData

func runBotsList(_ context.Context, args []string, std stdio) int {
	var asJSON bool
	files, err := parseBotsFlags("bots list", args, std.Stderr, &asJSON, nil)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(std.Stderr, "repaudit bots list:", err)
		return exitUsage
	}
	c, err := bots.LoadWith(files...)
	if err != nil {
		fmt.Fprintln(std.Stderr, "repaudit bots list:", err)
		return exitUsage
	}
	write := c.WriteTable
	if asJSON {
		write = c.WriteJSON
	}
	if err := write(std.Stdout, files); err != nil {
		fmt.Fprintln(std.Stderr, "repaudit bots list:", err)
		return exitUsage
	}
	return exitOK
}
