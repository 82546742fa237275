//go:build cgo

package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/repaudit/repaudit/internal/atomicfile"
	"github.com/repaudit/repaudit/report"
)

// withoutDuckDB is what a build without cgo adds to the summaries of
// report and query (see cmd_nocgo.go); this build has DuckDB.
const withoutDuckDB = ""

// reportFormats maps --format names (and aliases) to writers.
var reportFormats = map[string]func(*report.Report, io.Writer) error{
	"table":    (*report.Report).WriteText,
	"text":     (*report.Report).WriteText,
	"md":       (*report.Report).WriteMarkdown,
	"markdown": (*report.Report).WriteMarkdown,
	"json":     (*report.Report).WriteJSON,
	"html":     (*report.Report).WriteHTML,
}

func reportUsage(w io.Writer, fs *flag.FlagSet) {
	usageText("report")(w)
	fs.PrintDefaults()
}

func runReport(ctx context.Context, args []string, std stdio) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(std.Stderr)
	format := fs.String("format", "table", "output format: table, md, json or html")
	out := fs.String("o", "", "write the report to `FILE` instead of standard output")
	tz := fs.String("tz", "", "show times and count days in the IANA time `ZONE`, e.g. Europe/Berlin (tables stay UTC)")
	verify := fs.Bool("verify", false, "also check each table file's SHA-256 against manifest.json (reads every table; sizes and row counts are always checked)")
	fs.Usage = func() { reportUsage(std.Stderr, fs) }
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return parseExit(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(std.Stderr, "repaudit report: want exactly one audit directory")
		reportUsage(std.Stderr, fs)
		return exitUsage
	}
	write, ok := reportFormats[*format]
	if !ok {
		fmt.Fprintf(std.Stderr, "repaudit report: unknown --format %q (want table, md, json or html)\n", *format)
		return exitUsage
	}
	if *out != "" {
		if err := refuseAuditFile(pos[0], *out); err != nil {
			fmt.Fprintf(std.Stderr, "repaudit report: %v\n", err)
			return exitUsage
		}
	}
	var opts report.Options
	if *tz != "" {
		if opts.Location, err = report.LoadZone(*tz); err != nil {
			fmt.Fprintf(std.Stderr, "repaudit report: --tz: %v\n", err)
			return exitUsage
		}
	}
	db, err := report.OpenWith(ctx, pos[0], report.OpenOptions{Verify: *verify})
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit report: %v\n", err)
		return exitUsage
	}
	defer db.Close()
	r, err := db.BuildWith(ctx, opts)
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit report: %v\n", err)
		return exitUsage
	}
	if *out == "" {
		r.Width = textWidth(std, std.Stdout)
		if err := write(r, std.Stdout); err != nil {
			fmt.Fprintf(std.Stderr, "repaudit report: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	r.Width = textWidth(std, nil)
	if err := atomicfile.Write(*out, func(w io.Writer) error { return write(r, w) }); err != nil {
		fmt.Fprintf(std.Stderr, "repaudit report: %v\n", err)
		return exitUsage
	}
	return exitOK
}
