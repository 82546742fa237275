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
	"time"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/internal/safetext"
)

const inspectUsage = `usage: repaudit inspect [--json | --events] [--log-format F] FILE...

Shows what repaudit reads from each file: the detected kind and format,
records by type, fetches and captures, statuses, robots.txt captures and
fetches, the time range covered, and every problem with its location.
--json prints the same as one JSON document; --events prints every
normalized event as a JSON line.

flags:
`

type inspectFile struct {
	Path           string           `json:"path"`
	Kind           string           `json:"kind"`
	Format         string           `json:"format,omitempty"`
	Compression    string           `json:"compression,omitempty"`
	Size           int64            `json:"size"`
	Records        map[string]int64 `json:"records"`
	Fetches        int64            `json:"fetches"`
	Captures       int64            `json:"captures"`
	Statuses       map[string]int64 `json:"statuses"`
	RobotsCaptures int64            `json:"robots_captures"`
	RobotsFetches  int64            `json:"robots_fetches"`
	First          string           `json:"first,omitempty"`
	Last           string           `json:"last,omitempty"`
	Note           string           `json:"note,omitempty"`
	Error          string           `json:"error,omitempty"`
	Problems       []event.Problem  `json:"problems"`
	problemCount   int64
}

// maxInspectProblems caps the problems listed per file; the rest are counted.
const maxInspectProblems = 1000

func runInspect(ctx context.Context, args []string, std stdio) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(std.Stderr)
	fs.Usage = func() { fmt.Fprint(std.Stderr, inspectUsage); fs.PrintDefaults() }
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
			results[i] = inspectOne(ctx, p, lf, func(ev any) { enc.Encode(ev) })
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
				results[i] = inspectOne(ctx, p, lf, nil)
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

func inspectOne(ctx context.Context, path string, lf accesslog.Format, emit func(any)) *inspectFile {
	r := &inspectFile{Path: path, Records: map[string]int64{}, Statuses: map[string]int64{}, Problems: []event.Problem{}}
	f, err := ingest.SniffContext(ctx, path, lf)
	r.Kind, r.Format, r.Compression, r.Size, r.Note = string(f.Kind), f.Format, f.Compression, f.Size, f.Note
	if err != nil {
		r.Error = err.Error()
		return r
	}
	switch f.Kind {
	case ingest.KindWARC, ingest.KindARC, ingest.KindLog:
	default:
		return r
	}
	h := ingest.Handler{Problem: func(p event.Problem) {
		r.problemCount++
		if len(r.Problems) < maxInspectProblems {
			r.Problems = append(r.Problems, p)
		}
	}}
	if emit != nil {
		h.Fetch = func(ft *event.Fetch) error { emit(fetchEvent(ft)); return nil }
		h.Capture = func(c *event.Capture) error { emit(captureEvent(c)); return nil }
	}
	opts := ingest.Options{}
	if emit == nil {
		// Only counts are kept: no bodies, and the WARC reader may reuse
		// each record's memory for the next.
		opts.BodyLimit = func(string, string, int) int { return 0 }
		opts.Reuse = true
	}
	st, err := ingest.Read(ctx, f, opts, h)
	if err != nil {
		r.Error = err.Error()
	}
	if st.Format != "" && r.Format == "" {
		r.Format = st.Format
	}
	r.Records, r.Fetches, r.Captures = st.Records, st.Fetches, st.Captures
	r.RobotsCaptures, r.RobotsFetches = st.RobotsCaptures, st.RobotsFetches
	for c, n := range st.Statuses {
		r.Statuses[fmt.Sprint(c)] = n
	}
	if !st.First.IsZero() {
		r.First, r.Last = st.First.Format(time.RFC3339), st.Last.Format(time.RFC3339)
	}
	return r
}

type jsonEvent struct {
	Type       string              `json:"type"`
	Time       string              `json:"time"`
	ClientIP   string              `json:"client_ip,omitempty"`
	Method     string              `json:"method,omitempty"`
	URL        string              `json:"url"`
	Status     int                 `json:"status"`
	UserAgent  string              `json:"user_agent,omitempty"`
	Headers    map[string][]string `json:"headers"`
	RecordType string              `json:"record_type,omitempty"`
	RecordID   string              `json:"record_id,omitempty"`
	SourceFile string              `json:"source_file"`
	SourceLine int64               `json:"source_line,omitempty"`
	Offset     *int64              `json:"offset,omitempty"`
	Length     int64               `json:"length,omitempty"`
}

func headerMap(h event.Header) map[string][]string {
	m := map[string][]string{}
	for _, f := range h {
		m[f.Name] = append(m[f.Name], f.Value)
	}
	return m
}

func setSource(e *jsonEvent, s event.Source) {
	e.SourceFile, e.SourceLine, e.Length = s.File, s.Line, s.Length
	if s.Line == 0 && s.Offset >= 0 {
		off := s.Offset
		e.Offset = &off
	}
}

func fetchEvent(f *event.Fetch) jsonEvent {
	e := jsonEvent{Type: "fetch", Time: f.Time.UTC().Format(time.RFC3339Nano), Method: f.Method, URL: f.URL(),
		Status: f.Status, UserAgent: f.UserAgent, Headers: headerMap(f.Header), RecordID: f.RecordID}
	if f.ClientIP.IsValid() {
		e.ClientIP = f.ClientIP.String()
	}
	setSource(&e, f.Source)
	return e
}

func captureEvent(c *event.Capture) jsonEvent {
	e := jsonEvent{Type: "capture", Time: c.Time.UTC().Format(time.RFC3339Nano), URL: c.URL, Status: c.Status,
		Headers: headerMap(c.Header), RecordType: c.RecordType, RecordID: c.RecordID}
	setSource(&e, c.Source)
	return e
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
	if r.problemCount > 0 {
		fmt.Fprintf(w, "  problems: %d\n", r.problemCount)
		for _, p := range r.Problems {
			fmt.Fprintf(w, "    %s: %s %s: %s\n", p.Source, p.Severity, p.Code, p.Message)
		}
		if r.problemCount > int64(len(r.Problems)) {
			fmt.Fprintf(w, "    ... %d more\n", r.problemCount-int64(len(r.Problems)))
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
