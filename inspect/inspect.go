package inspect

import (
	"context"
	"fmt"
	"time"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
)

// MaxProblems caps the problems listed per file; the rest are counted.
const MaxProblems = 1000

// File is the summary of one input file. Its JSON form is the one
// "repaudit inspect --json" prints.
type File struct {
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
	// Problems lists the first MaxProblems problems; ProblemCount counts
	// them all.
	Problems     []event.Problem `json:"problems"`
	ProblemCount int64           `json:"-"`
}

// Read sniffs and reads the file at path (lf, when not zero, is its log
// format instead of detection) and summarizes it. When emit is not nil
// it is called with every fetch and capture event, in file order, and
// bodies are read; when nil only counts are kept.
func Read(ctx context.Context, path string, lf accesslog.Format, emit func(Event)) *File {
	r := &File{Path: path, Records: map[string]int64{}, Statuses: map[string]int64{}, Problems: []event.Problem{}}
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
		r.ProblemCount++
		if len(r.Problems) < MaxProblems {
			r.Problems = append(r.Problems, p)
		}
	}}
	if emit != nil {
		h.Fetch = func(ft *event.Fetch) error { emit(FetchEvent(ft)); return nil }
		h.Capture = func(c *event.Capture) error { emit(CaptureEvent(c)); return nil }
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

// Event is a fetch or a capture in flat JSON form. Times are RFC 3339
// in UTC; Offset is the byte offset of a record (absent for log lines,
// which have SourceLine).
type Event struct {
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

func (e *Event) setSource(s event.Source) {
	e.SourceFile, e.SourceLine, e.Length = s.File, s.Line, s.Length
	if s.Line == 0 && s.Offset >= 0 {
		off := s.Offset
		e.Offset = &off
	}
}

// FetchEvent is f in flat form.
func FetchEvent(f *event.Fetch) Event {
	e := Event{Type: "fetch", Time: f.Time.UTC().Format(time.RFC3339Nano), Method: f.Method, URL: f.URL(),
		Status: f.Status, UserAgent: f.UserAgent, Headers: headerMap(f.Header), RecordID: f.RecordID}
	if f.ClientIP.IsValid() {
		e.ClientIP = f.ClientIP.String()
	}
	e.setSource(f.Source)
	return e
}

// CaptureEvent is c in flat form.
func CaptureEvent(c *event.Capture) Event {
	e := Event{Type: "capture", Time: c.Time.UTC().Format(time.RFC3339Nano), URL: c.URL, Status: c.Status,
		Headers: headerMap(c.Header), RecordType: c.RecordType, RecordID: c.RecordID}
	e.setSource(c.Source)
	return e
}
