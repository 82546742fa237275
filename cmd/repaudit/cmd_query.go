//go:build cgo

package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/repaudit/repaudit/report"
)

// maxQueryText caps SQL read from standard input.
const maxQueryText = 16 << 20

func queryUsage(w io.Writer, fs *flag.FlagSet) {
	usageText("query")(w)
	fs.PrintDefaults()
}

func runQuery(ctx context.Context, args []string, std stdio) int {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.SetOutput(std.Stderr)
	format := fs.String("format", "table", "output format: table, csv or json")
	allowExternal := fs.Bool("allow-external", false, "let the SQL read and write any file, attach databases and install or load DuckDB extensions (off: only the audit's tables can be read)")
	guard := fs.Bool("csv-guard-formulas", false, "with --format csv, prefix text cells starting with = + - @ tab or CR with ' so spreadsheets do not run them as formulas")
	raw := fs.Bool("raw", false, "with --format csv or json, write control characters and bidi overrides in the data as they are (off: escaped)")
	verify := fs.Bool("verify", false, "also check each table file's SHA-256 against manifest.json (reads every table; sizes and row counts are always checked)")
	fs.Usage = func() { queryUsage(std.Stderr, fs) }
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return parseExit(err)
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
	db, err := report.OpenWith(ctx, dir, report.OpenOptions{AllowExternal: *allowExternal, Verify: *verify})
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit query: %v\n", err)
		return exitUsage
	}
	defer db.Close()
	db.SetTextWidth(textWidth(std, std.Stdout))
	if err := db.ExportWith(ctx, std.Stdout, query, *format, report.ExportOptions{GuardFormulas: *guard, Raw: *raw}); err != nil {
		fmt.Fprintf(std.Stderr, "repaudit query: %s: %v\n", dir, err)
		return exitUsage
	}
	return exitOK
}
