package listing

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// MaxLine is the longest line read; longer lines are reported and skipped.
const MaxLine = 1 << 20

// Shapes of a listing.
const (
	Plain = "plain"
	CDX   = "cdx"
	CDXJ  = "cdxj"
	CSV   = "csv"
)

// Entry is one listed URL.
type Entry struct {
	URL    string
	Time   time.Time // zero when the listing gives no time
	Agent  string    // "" when the listing names no agent
	Source event.Source
}

// Reader reads entries from a listing.
type Reader struct {
	br       *bufio.Reader
	name     string
	line     int64
	shape    string
	cdxURL   int // field index of the URL in CDX lines
	cdxTime  int // field index of the timestamp; -1 when none
	csvHead  bool
	problems []event.Problem
	err      error
}

// NewReader returns a Reader over r; name is used in problem locations.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), name: name, cdxURL: 2, cdxTime: 1}
}

// Shape returns the detected shape ("" before the first data line).
func (r *Reader) Shape() string { return r.shape }

// Problems returns and clears the problems found so far.
func (r *Reader) Problems() []event.Problem {
	p := r.problems
	r.problems = nil
	return p
}

func (r *Reader) problem(code problem.Code, format string, args ...any) {
	r.problems = append(r.problems, event.Problem{
		Source:   event.Source{File: r.name, Line: r.line, Offset: -1},
		Code:     code,
		Severity: event.SevError,
		Message:  fmt.Sprintf(format, args...),
	})
}

// readLine returns the next line without its end, skipping over-long lines.
func (r *Reader) readLine() (string, error) {
	for {
		var buf []byte
		tooLong := false
		for {
			chunk, isPrefix, err := r.br.ReadLine()
			if err != nil {
				if err == io.EOF && (len(buf) > 0 || tooLong) {
					break
				}
				return "", err
			}
			if !tooLong {
				buf = append(buf, chunk...)
				if len(buf) > MaxLine {
					tooLong, buf = true, nil
				}
			}
			if !isPrefix {
				break
			}
		}
		r.line++
		if tooLong {
			r.problem(problem.ListingLineTooLong, "line longer than %d bytes skipped", MaxLine)
			continue
		}
		return strings.TrimRight(string(buf), "\r"), nil
	}
}

// Next returns the next entry, or io.EOF at the end. Unusable lines are
// reported through Problems and skipped.
func (r *Reader) Next() (Entry, error) {
	if r.err != nil {
		return Entry{}, r.err
	}
	for {
		line, err := r.readLine()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				err = fmt.Errorf("listing %s: line %d: %w", r.name, r.line+1, err)
			}
			r.err = err
			return Entry{}, err
		}
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if r.shape == "" {
			if r.detect(line) {
				continue // the line was a legend or header
			}
		}
		e, ok := r.parse(line)
		if !ok {
			continue
		}
		e.Source = event.Source{File: r.name, Line: r.line, Offset: -1}
		return e, nil
	}
}

// All iterates over the entries; a read error other than io.EOF is yielded
// once, last.
func (r *Reader) All() iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for {
			e, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(e, err) || err != nil {
				return
			}
		}
	}
}

// detect sets the shape from the first data line and reports whether that
// line was a legend or header to skip.
func (r *Reader) detect(line string) bool {
	if strings.HasPrefix(line, " CDX ") || strings.HasPrefix(line, "CDX ") {
		r.shape = CDX
		r.cdxURL, r.cdxTime = -1, -1
		for i, f := range strings.Fields(line)[1:] {
			switch f {
			case "a":
				r.cdxURL = i
			case "b":
				r.cdxTime = i
			}
		}
		if r.cdxURL < 0 {
			r.cdxURL = 2
			r.problem(problem.ListingCDXLegend, "CDX legend names no 'a' (original URL) field; assuming the third field")
		}
		return true
	}
	fields := strings.Fields(line)
	if len(fields) >= 3 && isTimestamp(fields[1]) && strings.HasPrefix(fields[2], "{") {
		r.shape = CDXJ
		return false
	}
	// Without a legend, CDX is taken in the 11-field order: urlkey,
	// timestamp, original URL.
	if len(fields) >= 3 && isTimestamp(fields[1]) && (strings.HasPrefix(fields[2], "http://") || strings.HasPrefix(fields[2], "https://")) {
		r.shape = CDX
		return false
	}
	if strings.Contains(line, ",") {
		r.shape = CSV
		first := strings.ToLower(strings.TrimSpace(strings.SplitN(line, ",", 2)[0]))
		if first == "url" || first == "\"url\"" {
			r.csvHead = true
			return true
		}
		return false
	}
	r.shape = Plain
	return false
}

func isTimestamp(s string) bool {
	if len(s) < 4 || len(s) > 17 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (r *Reader) parse(line string) (Entry, bool) {
	switch r.shape {
	case CDX:
		fields := strings.Fields(line)
		if r.cdxURL >= len(fields) {
			r.problem(problem.ListingBadCDX, "CDX line has %d fields, the URL is field %d", len(fields), r.cdxURL+1)
			return Entry{}, false
		}
		e := Entry{URL: fields[r.cdxURL]}
		if r.cdxTime >= 0 && r.cdxTime < len(fields) {
			t, err := ParseTime(fields[r.cdxTime])
			if err != nil {
				r.problem(problem.ListingBadTime, "CDX timestamp %q: %v", fields[r.cdxTime], err)
				return Entry{}, false
			}
			e.Time = t
		}
		return r.checkURL(e)
	case CDXJ:
		fields := strings.SplitN(line, " ", 3)
		if len(fields) < 3 {
			r.problem(problem.ListingBadCDXJ, "CDXJ line needs 'urlkey timestamp {json}'")
			return Entry{}, false
		}
		var j struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal([]byte(fields[2]), &j); err != nil || j.URL == "" {
			r.problem(problem.ListingBadCDXJ, "CDXJ JSON has no \"url\"")
			return Entry{}, false
		}
		t, err := ParseTime(fields[1])
		if err != nil {
			r.problem(problem.ListingBadTime, "CDXJ timestamp %q: %v", fields[1], err)
			return Entry{}, false
		}
		return r.checkURL(Entry{URL: j.URL, Time: t})
	case CSV:
		rec, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil || len(rec) == 0 {
			r.problem(problem.ListingBadCSV, "CSV line: %v", err)
			return Entry{}, false
		}
		e := Entry{URL: strings.TrimSpace(rec[0])}
		if len(rec) > 1 && strings.TrimSpace(rec[1]) != "" {
			t, err := ParseTime(strings.TrimSpace(rec[1]))
			if err != nil {
				r.problem(problem.ListingBadTime, "CSV time %q: %v", rec[1], err)
				return Entry{}, false
			}
			e.Time = t
		}
		if len(rec) > 2 {
			e.Agent = strings.TrimSpace(rec[2])
		}
		return r.checkURL(e)
	default:
		return r.checkURL(Entry{URL: strings.TrimSpace(line)})
	}
}

func (r *Reader) checkURL(e Entry) (Entry, bool) {
	if !strings.HasPrefix(e.URL, "http://") && !strings.HasPrefix(e.URL, "https://") {
		r.problem(problem.ListingBadURL, "not an absolute http(s) URL: %.200q", e.URL)
		return Entry{}, false
	}
	return e, true
}

// ParseTime reads the times listings carry: 4 to 14 digit WARC/CDX
// timestamps (yyyy[MM[dd[hh[mm[ss]]]]], missing parts are the start of the
// period), RFC 3339, and yyyy-mm-dd. Times without a zone are UTC.
func ParseTime(s string) (time.Time, error) {
	if isTimestamp(s) {
		if len(s) > 14 {
			s = s[:14] // 17-digit timestamps carry milliseconds
		}
		layout := "20060102150405"[:len(s)]
		if len(s)%2 != 0 || len(s) < 4 {
			return time.Time{}, fmt.Errorf("timestamp of %d digits", len(s))
		}
		return time.ParseInLocation(layout, s, time.UTC)
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognized time %q", s)
}
