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

// summarizeExport tells on stderr what was written, every conflict and
// every capture that got no rule, and the deadlines to come (the first
// few; the file holds them all where the format has comments).
func summarizeExport(w io.Writer, path string, plan *retention.Plan) {
	const maxUpcoming = 10
	say := func(s string) { fmt.Fprintln(w, safetext.Escape(s)) }
	comments := plan.Comments()
	say(fmt.Sprintf("repaudit export: %s: %s", path, comments[0]))
	for _, r := range plan.Conflicts() {
		say("repaudit export: " + retention.ConflictText(r))
	}
	for _, p := range plan.Problems {
		say(fmt.Sprintf("repaudit export: no rule for %s (%s@%d): %v", p.Capture.URL, p.Capture.WARCFile, p.Capture.Offset, p.Err))
	}
	if n := len(plan.Upcoming); n > 0 {
		say(fmt.Sprintf("repaudit export: %d upcoming deadline(s), earliest first:", n))
		for i, c := range plan.Upcoming {
			if i == maxUpcoming {
				say(fmt.Sprintf("repaudit export:   ... and %d more", n-maxUpcoming))
				break
			}
			say("repaudit export:   " + retention.UpcomingText(c))
		}
	}
}
