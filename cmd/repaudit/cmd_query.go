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
	fmt.Fprintln(w, "usage: repaudit query DIR 'SQL' [--format table|csv|json] [--allow-external] [--csv-guard-formulas] [--raw] [--verify]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run SQL over the audit directory DIR with the embedded DuckDB. Each table is")
	fmt.Fprintln(w, "a view of the same name: fetches, violations, robots_versions, robots_rules,")
	fmt.Fprintln(w, "directives, retention, problems (columns: docs/schema.md). Times are UTC; the")
	fmt.Fprintln(w, "variable as_of holds the audit's as-of time (getvariable('as_of')).")
	fmt.Fprintln(w, "SQL '-' reads the query from standard input, e.g.")
	fmt.Fprintln(w, "  repaudit query DIR - < queries/bots.sql")
	fmt.Fprintln(w, "Put -- before SQL that itself starts with '-' (a comment).")
	fmt.Fprintln(w, "csv and json stream every row; table shows at most 10000, fitted to COLUMNS")
	fmt.Fprintln(w, "(or the terminal's width, else 120).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The SQL can read the audit's tables and nothing else, and write nothing: no")
	fmt.Fprintln(w, "other file, no COPY or EXPORT (not even onto the tables), no ATTACH, no INSTALL")
	fmt.Fprintln(w, "or LOAD, no CALL, PRAGMA, PREPARE or EXPLAIN ANALYZE, no SET of DuckDB")
	fmt.Fprintln(w, "settings; temporary tables and SET VARIABLE work. --allow-external")
	fmt.Fprintln(w, "lifts that: the SQL may then read and write any file you can, so run only")
	fmt.Fprintln(w, "SQL you trust with it. CSV cells hold logged URLs and User-Agents as sent;")
	fmt.Fprintln(w, "for a spreadsheet, add --csv-guard-formulas. Control characters and bidi")
	fmt.Fprintln(w, "overrides in the data are escaped in every format (CSV: \\x1b, \\u202e;")
	fmt.Fprintln(w, "JSON: \\u001b, which decodes to the same string); --raw writes CSV and JSON")
	fmt.Fprintln(w, "with them as they are.")
	fmt.Fprintln(w)
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
