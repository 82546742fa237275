//go:build cgo

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/repaudit/repaudit/report"
)

// maxQueryText caps SQL read from standard input.
const maxQueryText = 16 << 20

func queryUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "usage: repaudit query DIR 'SQL' [--format table|csv|json]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run SQL over the audit directory DIR with the embedded DuckDB. Each table is")
	fmt.Fprintln(w, "a view of the same name: fetches, violations, robots_versions, robots_rules,")
	fmt.Fprintln(w, "directives, retention, problems (columns: docs/schema.md). Times are UTC; the")
	fmt.Fprintln(w, "variable as_of holds the audit's as-of time (getvariable('as_of')).")
	fmt.Fprintln(w, "SQL '-' reads the query from standard input, e.g.")
	fmt.Fprintln(w, "  repaudit query DIR - < queries/bots.sql")
	fmt.Fprintln(w, "Put -- before SQL that itself starts with '-' (a comment).")
	fmt.Fprintln(w, "csv and json stream every row; table shows at most 10000.")
	fmt.Fprintln(w)
	fs.PrintDefaults()
}

func runQuery(ctx context.Context, args []string, std stdio) int {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.SetOutput(std.Stderr)
	format := fs.String("format", "table", "output format: table, csv or json")
	fs.Usage = func() { queryUsage(std.Stderr, fs) }
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		return exitUsage
	}
	if len(pos) != 2 {
		fmt.Fprintln(std.Stderr, "repaudit query: want an audit directory and one SQL query")
		queryUsage(std.Stderr, fs)
		return exitUsage
	}
	switch *format {
	case "table", "csv", "json":
	default:
		fmt.Fprintf(std.Stderr, "repaudit query: unknown --format %q (want table, csv or json)\n", *format)
		return exitUsage
	}
	dir, query := pos[0], pos[1]
	if query == "-" {
		data, err := io.ReadAll(io.LimitReader(std.Stdin, maxQueryText+1))
		if err != nil {
			fmt.Fprintf(std.Stderr, "repaudit query: read SQL from standard input: %v\n", err)
			return exitUsage
		}
		if len(data) > maxQueryText {
			fmt.Fprintf(std.Stderr, "repaudit query: SQL on standard input is larger than %d bytes\n", maxQueryText)
			return exitUsage
		}
		query = string(data)
	}
	db, err := report.Open(ctx, dir)
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit query: %v\n", err)
		return exitUsage
	}
	defer db.Close()
	if err := db.Export(ctx, std.Stdout, query, *format); err != nil {
		fmt.Fprintf(std.Stderr, "repaudit query: %s: %v\n", dir, err)
		return exitUsage
	}
	return exitOK
}
