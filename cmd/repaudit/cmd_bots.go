package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/repaudit/repaudit/bots"
)

// maxBotsLine caps one input line of "bots identify"; longer lines are
// reported and skipped.
const maxBotsLine = 1 << 20

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
	out := bufio.NewWriter(std.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	br := bufio.NewReaderSize(in, 64<<10)
	bad := 0
	for line := 1; ; line++ {
		if ctx.Err() != nil {
			fmt.Fprintln(std.Stderr, "repaudit bots identify:", ctx.Err())
			return exitUsage
		}
		raw, tooLong, err := readLine(br, maxBotsLine)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(std.Stderr, "repaudit bots identify: stdin:%d: %v\n", line, err)
			return exitUsage
		}
		r, perr := c.IdentifyLine(raw)
		if tooLong {
			perr = fmt.Errorf("line longer than %d bytes", maxBotsLine)
			r = identifyResult{Error: perr.Error()}
		}
		if perr != nil {
			bad++
			fmt.Fprintf(std.Stderr, "repaudit bots identify: stdin:%d: %v\n", line, perr)
		}
		if asText {
			err = writeIdentifyText(out, r)
		} else {
			err = enc.Encode(r)
		}
		if err != nil {
			fmt.Fprintln(std.Stderr, "repaudit bots identify:", err)
			return exitUsage
		}
	}
	if bad > 0 {
		return exitUsage
	}
	return exitOK
}

// writeIdentifyText writes one result of "bots identify --text": agent,
// identified_by, rule, matched and the User-Agent (or the error),
// separated by tabs; "-" stands for an empty field.
func writeIdentifyText(w io.Writer, r identifyResult) error {
	f := func(s string) string {
		if s == "" {
			return "-"
		}
		return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
	}
	last := r.UserAgent
	if r.Error != "" {
		last = "error: " + r.Error
	}
	_, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", f(r.Agent), f(r.IdentifiedBy), f(r.Rule), f(r.Matched), f(last))
	return err
}

// listedBot is one bot of "bots list --json".
type listedBot = bots.Listed

// catalogVersions is the "data" member of "bots list --json" and of
// manifest.json's catalog.
type catalogVersions struct {
	CrawlerUserAgents string   `json:"crawler_user_agents"`
	Files             []string `json:"bots_files,omitempty"`
}

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
	v := c.DataVersions()
	cv := catalogVersions{CrawlerUserAgents: v.CrawlerUserAgents, Files: files}
	if asJSON {
		doc := struct {
			Data catalogVersions `json:"data"`
			Bots []listedBot     `json:"bots"`
		}{Data: cv}
		doc.Bots = c.Listing()
		enc := json.NewEncoder(std.Stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			fmt.Fprintln(std.Stderr, "repaudit bots list:", err)
			return exitUsage
		}
		return exitOK
	}
	w := bufio.NewWriter(std.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "# crawler-user-agents %s (npm) and repaudit's overlay\n", cv.CrawlerUserAgents)
	for _, f := range files {
		fmt.Fprintf(w, "# merged: %s\n", f)
	}
	fmt.Fprintf(w, "# %d bots\n", c.Len())
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "TOKEN\tROBOTS TOKEN\tOPERATOR\tCATEGORY\tFLAGS\tIP LISTS")
	for _, b := range c.Bots() {
		op := b.Operator
		if op == "" {
			op = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\n", oneLine(b.Token), oneLine(b.GroupToken()), oneLine(op), b.Category, strings.Join(b.Flags(), ","), len(b.IPRangesURLs))
	}
	tw.Flush()
	return exitOK
}

// oneLine keeps a catalog string from breaking the table.
func oneLine(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}
