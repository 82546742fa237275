package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/inspect"
	"github.com/repaudit/repaudit/internal/safetext"
)

var inspectUsage = usageText("inspect")

// inspectFile and jsonEvent are the JSON forms "inspect" prints.
type (
	inspectFile = inspect.File
	jsonEvent   = inspect.Event
)

func runInspect(ctx context.Context, args []string, std stdio) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(std.Stderr)
	fs.Usage = func() { inspectUsage(std.Stderr); fs.PrintDefaults() }
	asJSON := fs.Bool("json", false, "print one JSON document")
	events := fs.Bool("events", false, "print every normalized event as a JSON line")
	logFormat := fs.String("log-format", "", "log format instead of detection: "+formatNames())
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return parseExit(err)
	}
	if len(paths) == 0 {
		fs.Usage()
		return exitUsage
	}
	var lf accesslog.Format
	if *logFormat != "" {
		if lf, err = accesslog.ParseFormat(*logFormat); err != nil {
			fmt.Fprintf(std.Stderr, "repaudit inspect: %v\n", err)
			return exitUsage
		}
	}
	files, skipped, err := ingest.Expand(paths)
	if err != nil {
		fmt.Fprintf(std.Stderr, "repaudit inspect: %v\n", err)
		return exitUsage
	}
	for _, p := range skipped {
		fmt.Fprintf(std.Stderr, "repaudit inspect: %s: %s %s: %s\n", p.Source.File, p.Severity, p.Code, p.Message)
	}
	out := bufio.NewWriterSize(std.Stdout, 64<<10)
	defer out.Flush()

	var emit func(jsonEvent)
	if *events {
		enc := json.NewEncoder(out)
		emit = func(ev jsonEvent) { enc.Encode(ev) }
	}
	results := inspect.ReadAll(ctx, files, lf, emit)
	code := exitOK
	for _, r := range results {
		if r.Failed() {
			code = exitUsage
		}
	}
	switch {
	case *events:
		for _, r := range results {
			if r.Error != "" {
				fmt.Fprintf(std.Stderr, "repaudit inspect: %s: %s\n", r.Path, r.Error)
			}
		}
	case *asJSON:
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.Encode(struct {
			Files []*inspectFile `json:"files"`
		}{results})
	default:
		text := safetext.NewWriter(out) // paths, messages and notes quote the inputs
		for _, r := range results {
			r.WriteText(text)
		}
	}
	return code
}
