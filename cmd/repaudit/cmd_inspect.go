package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"

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
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
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

	results := make([]*inspectFile, len(files))
	if *events {
		enc := json.NewEncoder(out)
		for i, p := range files {
			results[i] = inspect.Read(ctx, p, lf, func(ev jsonEvent) { enc.Encode(ev) })
		}
	} else {
		var wg sync.WaitGroup
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		for i, p := range files {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				results[i] = inspect.Read(ctx, p, lf, nil)
			}()
		}
		wg.Wait()
	}
	code := exitOK
	for _, r := range results {
		if r.Error != "" || r.Kind == string(ingest.KindUnknown) {
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
			writeInspectText(text, r)
		}
	}
	return code
}

func writeInspectText(w io.Writer, r *inspectFile) {
	kind := r.Kind
	if r.Format != "" {
		kind += " (" + r.Format + ")"
	}
	fmt.Fprintf(w, "%s: %s, %s\n", r.Path, kind, humanSize(r.Size))
	if r.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", r.Error)
	}
	if r.Note != "" {
		fmt.Fprintf(w, "  note: %s\n", r.Note)
	}
	if len(r.Records) > 0 {
		fmt.Fprintf(w, "  records: %s\n", joinCounts(r.Records))
	}
	if r.Fetches+r.Captures > 0 || r.Kind == string(ingest.KindWARC) || r.Kind == string(ingest.KindLog) {
		fmt.Fprintf(w, "  fetches: %d, captures: %d\n", r.Fetches, r.Captures)
		fmt.Fprintf(w, "  robots.txt: %d captures, %d fetches\n", r.RobotsCaptures, r.RobotsFetches)
	}
	if len(r.Statuses) > 0 {
		fmt.Fprintf(w, "  statuses: %s\n", joinCounts(r.Statuses))
	}
	if r.First != "" {
		fmt.Fprintf(w, "  time range: %s .. %s\n", r.First, r.Last)
	}
	if r.ProblemCount > 0 {
		fmt.Fprintf(w, "  problems: %d\n", r.ProblemCount)
		for _, p := range r.Problems {
			fmt.Fprintf(w, "    %s: %s %s: %s\n", p.Source, p.Severity, p.Code, p.Message)
		}
		if r.ProblemCount > int64(len(r.Problems)) {
			fmt.Fprintf(w, "    ... %d more\n", r.ProblemCount-int64(len(r.Problems)))
		}
	} else {
		fmt.Fprintf(w, "  problems: none\n")
	}
}

func joinCounts(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
