package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/repaudit/repaudit/internal/safetext"
	"github.com/repaudit/repaudit/retention"
)

// The export reads the retention table with arrow-go (package
// retention), not DuckDB, so it works in builds without cgo too.

func exportUsage(w io.Writer, fs *flag.FlagSet) {
	usageText("export")(w)
	fs.PrintDefaults()
}

func runExport(_ context.Context, args []string, std stdio) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(std.Stderr)
	format := fs.String("format", "", "export `FORMAT`: pywb-acl, wayback-exclusions or cdx")
	out := fs.String("o", "", "write the export to `FILE` (written whole or not at all)")
	force := fs.Bool("force", false, "replace an existing FILE")
	fs.Usage = func() { exportUsage(std.Stderr, fs) }
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return parseExit(err)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(std.Stderr, "repaudit export: "+format+"\n", a...)
		return exitUsage
	}
	var names []string
	for _, f := range retention.Formats {
		names = append(names, string(f))
	}
	switch {
	case len(pos) != 1:
		return fail("want exactly one audit directory")
	case *format == "":
		return fail("--format is required (%s)", strings.Join(names, ", "))
	case *out == "":
		return fail("-o FILE is required")
	}
	if err := checkNewOutput(*out, *force); err != nil {
		return fail("%v", err)
	}
	if err := refuseAuditFile(pos[0], *out); err != nil {
		return fail("%v", err)
	}
	asOf, err := retention.AsOf(pos[0])
	if err != nil {
		return fail("%v", err)
	}
	plan, err := retention.Build(retention.ReadDir(pos[0]), asOf, retention.Format(*format))
	if errors.Is(err, retention.ErrFormat) {
		return fail("unknown --format %q (want %s)", *format, strings.Join(names, ", "))
	}
	if err != nil {
		return fail("%v", err)
	}
	if err := writeExport(*out, plan); err != nil {
		return fail("%v", err)
	}
	summarizeExport(std.Stderr, *out, plan)
	return exitOK
}

func writeExport(path string, plan *retention.Plan) error {
	f, err := createAtomic(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := plan.Write(f); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return f.Commit()
}

// summarizeExport tells on stderr what was written (Plan.SummaryLines).
func summarizeExport(w io.Writer, path string, plan *retention.Plan) {
	for _, l := range plan.SummaryLines(path) {
		fmt.Fprintln(w, safetext.Escape("repaudit export: "+l))
	}
}
