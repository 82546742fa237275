package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/internal/typo"
	"github.com/repaudit/repaudit/problem"
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
		if err := parseFlags(fs, args); err != nil {
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

// parseFlags is fs.Parse that, for a flag fs does not define, says which
// defined flag was probably meant ("did you mean --site?") between the flag
// package's error line and the usage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	usage := fs.Usage
	asked := false
	fs.Usage = func() { asked = true }
	err := fs.Parse(args)
	fs.Usage = usage
	if err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
			if s := suggest(name, names); s != "" {
				fmt.Fprintf(fs.Output(), "did you mean %s?\n", flagDisplay(s))
			}
		}
	}
	if asked {
		if usage != nil {
			usage()
		} else {
			fmt.Fprintf(fs.Output(), "Usage of %s:\n", fs.Name())
			fs.PrintDefaults()
		}
	}
	return err
}

// flagDisplay writes a flag name as the README does: --name, or -x for a
// one-letter flag.
func flagDisplay(name string) string {
	if utf8.RuneCountInString(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// editDistance is typo.Distance: the optimal string alignment distance.
func editDistance(a, b string) int { return typo.Distance(a, b) }

// suggest is typo.Nearest: the candidate s is probably a typo of, or "".
func suggest(s string, candidates []string) string { return typo.Nearest(s, candidates) }

// parseTimeFlag reads --as-of style times: RFC 3339 or a date (UTC).
func parseTimeFlag(name, v string) (time.Time, error) { return audit.ParseTime(name, v) }

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
	return problem.CountAtOrAbove(bySeverity, s.level)
}

// textWidth is the width text tables are fitted to: COLUMNS when it is set
// to a plausible width, else the width of the terminal w is, else 0 (the
// writer's default of 120 columns).
func textWidth(std stdio, w io.Writer) int {
	if std.Getenv != nil {
		if n, err := strconv.Atoi(strings.TrimSpace(std.Getenv("COLUMNS"))); err == nil && n >= 20 && n <= 10000 {
			return n
		}
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if n, _, err := term.GetSize(int(f.Fd())); err == nil && n >= 20 {
			return n
		}
	}
	return 0
}

// newFlagSet returns a subcommand's flag set writing to w, whose -h
// prints usage, then between, then the flags' defaults.
func newFlagSet(name string, w io.Writer, usage func(io.Writer), between string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		usage(w)
		io.WriteString(w, between)
		fs.PrintDefaults()
	}
	return fs
}

// parseExit is the exit code after a flag parsing error: 0 when help was
// asked for (the usage went to standard error), else a usage error.
func parseExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}
