package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// multiFlag collects a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// parseInterspersed parses flags that may come before, between or after
// positional arguments ("audit testdata/demo --out x"), which the flag
// package alone does not allow. "--" ends flag parsing.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseTimeFlag reads --as-of style times: RFC 3339 or a date (UTC).
func parseTimeFlag(name, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, v, time.UTC); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("--%s: %q is neither RFC 3339 nor YYYY-MM-DD", name, v)
}

// isTerminal reports whether w (or the writer it escapes for, see
// rawWriter) is a terminal (progress goes only there).
func isTerminal(w io.Writer) bool {
	f, ok := rawWriter(w).(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// rawWriter returns the writer under an escaping writer: progress lines
// draw with their own escape sequences and carry no outside text.
func rawWriter(w io.Writer) io.Writer {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		return u.Unwrap()
	}
	return w
}

// Problem severities from least to most serious (event.SevInfo,
// SevWarning, SevError).
var severityRank = map[string]int{"info": 0, "warning": 1, "error": 2}

// severityFlag is --fail-on-problems[=SEVERITY]: off by default; given
// bare it means warning (input read partly, or not at all, or lost).
type severityFlag struct{ level string }

func (s *severityFlag) String() string { return s.level }

func (s *severityFlag) Set(v string) error {
	switch v = strings.ToLower(v); v {
	case "true":
		s.level = "warning"
	case "false":
		s.level = ""
	case "info", "warning", "error":
		s.level = v
	default:
		return fmt.Errorf("want info, warning or error, got %q", v)
	}
	return nil
}

// IsBoolFlag lets the flag stand alone; a severity is given with "=".
func (s *severityFlag) IsBoolFlag() bool { return true }

// atOrAbove counts the problems of severity s.level or worse.
func (s *severityFlag) atOrAbove(bySeverity map[string]int64) int64 {
	var n int64
	for sev, c := range bySeverity {
		if r, ok := severityRank[sev]; !ok || r >= severityRank[s.level] {
			n += c // an unknown severity counts: never let a problem pass unseen
		}
	}
	return n
}
