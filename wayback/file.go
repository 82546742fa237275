package wayback

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/internal/atomicfile"
	"github.com/repaudit/repaudit/warc"
)

// WriteFile writes the warcinfo record (Warcinfo) and the captures of l
// (Write) to a new gzip-per-record WARC file at path, whole or not at all:
// on an error nothing is left at path. now dates the warcinfo record.
func (h *History) WriteFile(ctx context.Context, path string, l Listing, now time.Time, software, userAgent string, report func(Result)) (written, failed int, err error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return 0, 0, fmt.Errorf("create output: %w", err)
	}
	defer f.Abort()
	ww := warc.NewWriter(f, warc.WriterOptions{})
	if _, err := ww.WriteWarcinfo(now, filepath.Base(path), h.Warcinfo(l.QueryURL, software, userAgent)); err != nil {
		return 0, 0, err
	}
	written, failed, err = h.Write(ctx, ww, l.Keep, report)
	if err != nil {
		return written, failed, err
	}
	if err := f.Commit(); err != nil {
		return written, failed, fmt.Errorf("write output: %w", err)
	}
	return written, failed, nil
}

// Warcinfo is the header of the warcinfo record (WARC 1.1 §6.2) that
// opens the WARC: what made it, from which CDX query, with which
// User-Agent.
func (h *History) Warcinfo(queryURL, software, userAgent string) event.Header {
	return event.Header{
		{Name: "software", Value: software},
		{Name: "format", Value: "WARC File Format 1.1"},
		{Name: "description", Value: "robots.txt of " + h.Site.Host + " as the Wayback Machine captured it; each response record is dated at its capture time and names its Wayback URL in WARC-Source-URI"},
		{Name: "isPartOf", Value: "repaudit robots history " + h.Site.String()},
		{Name: "cdx-query", Value: queryURL},
		{Name: "http-header-user-agent", Value: userAgent},
	}
}

// Lines says what the CDX answer held and what of it is left out, as
// "repaudit robots history" reports it (naming the flags that change it).
func (h *History) Lines(l Listing) []string {
	var out []string
	for _, n := range l.Notes {
		out = append(out, "CDX answer: "+n)
	}
	if l.Others != "" {
		out = append(out, fmt.Sprintf("CDX answer: left out captures of other hosts: %s (ask for that host to get them)", l.Others))
	}
	if n := l.Seen + l.Older; n > 0 {
		out = append(out, fmt.Sprintf("CDX answer: %d captures of distinct content and status; fetching %d (--max-captures %d): left out %d that repeat an earlier content with the same status and %d older ones (narrow with --from/--to, or raise --max-captures)",
			l.Distinct, len(l.Keep), h.Max, l.Seen, l.Older))
	}
	if l.Repeats > 0 {
		out = append(out, fmt.Sprintf("CDX answer: %d captures repeat the content and status of the one before: not fetched", l.Repeats))
	}
	if len(l.Keep) == 0 {
		s := fmt.Sprintf("no captures of %s/robots.txt in %s", h.Site.Host, h.Base)
		if h.From != "" || h.To != "" {
			s += fmt.Sprintf(" between %q and %q", h.From, h.To)
		}
		out = append(out, s)
	}
	return out
}
