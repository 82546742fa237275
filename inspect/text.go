package inspect

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/ingest"
)

// ReadAll reads the files at paths as Read does, on up to GOMAXPROCS
// goroutines at once, and returns their summaries in the order of paths.
// With emit set the files are read one after another, so that the events
// come in file order.
func ReadAll(ctx context.Context, paths []string, lf accesslog.Format, emit func(Event)) []*File {
	results := make([]*File, len(paths))
	if emit != nil {
		for i, p := range paths {
			results[i] = Read(ctx, p, lf, emit)
		}
		return results
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, p := range paths {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = Read(ctx, p, lf, nil)
		}()
	}
	wg.Wait()
	return results
}

// Failed reports whether the file could not be read or was not
// recognised.
func (r *File) Failed() bool {
	return r.Error != "" || r.Kind == string(ingest.KindUnknown)
}

// WriteText writes the summary as "repaudit inspect" shows it: a line
// naming the file, its kind and size, then indented lines for what it
// holds and every problem listed.
func (r *File) WriteText(w io.Writer) {
	kind := r.Kind
	if r.Format != "" {
		kind += " (" + r.Format + ")"
	}
	fmt.Fprintf(w, "%s: %s, %s\n", r.Path, kind, HumanSize(r.Size))
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
	if r.ProblemCount == 0 {
		fmt.Fprintf(w, "  problems: none\n")
		return
	}
	fmt.Fprintf(w, "  problems: %d\n", r.ProblemCount)
	for _, p := range r.Problems {
		fmt.Fprintf(w, "    %s: %s %s: %s\n", p.Source, p.Severity, p.Code, p.Message)
	}
	if r.ProblemCount > int64(len(r.Problems)) {
		fmt.Fprintf(w, "    ... %d more\n", r.ProblemCount-int64(len(r.Problems)))
	}
}

// joinCounts writes counts as "key n, key n", keys sorted.
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

// HumanSize writes a byte count as B, KiB, MiB or GiB with one decimal.
func HumanSize(n int64) string {
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
