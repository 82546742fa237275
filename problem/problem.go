package problem

import (
	"fmt"
	"strings"
)

// Code is a stable problem code, such as "warc-truncated" or
// "log-unparsed-line": the `code` column of problems.parquet. Users count
// and filter by it, so a code, once shipped, keeps its meaning.
type Code string

// Severities of a problem: how much input it cost.
const (
	Error   = "error"   // input was lost: a record, a line or a file could not be used
	Warning = "warning" // input was read leniently or partly
	Info    = "info"    // nothing was lost; said so a person can check
)

// Kind says where users meet a code.
type Kind string

// Kinds of codes.
const (
	// KindProblem codes name input that could not be used or was read
	// leniently: rows of problems.parquet, and the problems 'repaudit
	// inspect', 'cards fetch' and 'signature check' print.
	KindProblem Kind = "problem"
	// KindNotice codes name what a run could not judge, or judged on an
	// assumption: manifest.json "notices".
	KindNotice Kind = "notice"
	// KindReason codes say why a fetch was not judged:
	// fetches.not_judged_reason.
	KindReason Kind = "not-judged reason"
)

// Entry is one row of the registry.
type Entry struct {
	Kind Kind
	Code Code
	// Severity is the severity a problem is reported with; "" for
	// notices and reasons. A problem repeated past the per-file cap is
	// summed up in one row of severity error whatever its own severity
	// (docs/semantics.md, "Problems").
	Severity string
	// Group is the section of docs/problems.md the code is listed under:
	// the input it concerns.
	Group string
	// Meaning says what happened and what became of the input, for a
	// person reading problems.parquet.
	Meaning string
}

// Entries returns the registry: every code repaudit reports, in the order
// docs/problems.md lists them.
func Entries() []Entry {
	return append([]Entry(nil), registry...)
}

// Lookup returns the entry of a code of the given kind.
func Lookup(kind Kind, c Code) (Entry, bool) {
	for _, e := range registry {
		if e.Kind == kind && e.Code == c {
			return e, true
		}
	}
	return Entry{}, false
}

// directivePrefix starts the code of a problem made from a diagnostic of
// the X-Robots-Tag / robots meta parser (package extract).
const directivePrefix = "directive-"

// Directive returns the problem code of an extract diagnostic code:
// "bad-date" becomes "directive-bad-date". Every diagnostic extract
// defines has its code in the registry (a test checks).
func Directive(diagnostic string) Code { return Code(directivePrefix + diagnostic) }

// Markdown renders docs/problems.md from the registry.
func Markdown() string {
	var b strings.Builder
	b.WriteString(`# Problem codes

<!-- Generated from problem/registry.go by 'go test ./problem -update'. Do not edit. -->

Every code repaudit reports is listed here, from one table in the source
(package ` + "`problem`" + `); a test fails when a code is used without being listed
or listed without being used. Codes are stable: count and filter by them.

- **Problems** are rows of ` + "`problems.parquet`" + ` (and what ` + "`repaudit inspect`" + `,
  ` + "`cards fetch`" + ` and ` + "`signature check`" + ` print): an input line, record or file
  that could not be used (severity ` + "`error`" + `), was read leniently or partly
  (` + "`warning`" + `), or is worth a look though nothing was lost (` + "`info`" + `). Past
  10,000 problems in one input file, the rest are counted per code in one
  closing row of that code with severity ` + "`error`" + `.
- **Notices** are entries of ` + "`manifest.json`" + ` "notices": what the run could not
  judge, or judged on an assumption, and what to pass to judge it.
- **Not-judged reasons** are values of ` + "`fetches.not_judged_reason`" + `.
`)
	kinds := []struct {
		k     Kind
		title string
	}{{KindProblem, "Problems"}, {KindNotice, "Notices"}, {KindReason, "Not-judged reasons"}}
	for _, k := range kinds {
		fmt.Fprintf(&b, "\n## %s\n", k.title)
		group := "\x00"
		for _, e := range registry {
			if e.Kind != k.k {
				continue
			}
			if e.Group != group {
				group = e.Group
				if group != "" {
					fmt.Fprintf(&b, "\n### %s\n", group)
				}
				if e.Severity != "" {
					b.WriteString("\n| code | severity | meaning |\n|---|---|---|\n")
				} else {
					b.WriteString("\n| code | meaning |\n|---|---|\n")
				}
			}
			meaning := strings.ReplaceAll(e.Meaning, "|", `\|`)
			if e.Severity != "" {
				fmt.Fprintf(&b, "| `%s` | %s | %s |\n", e.Code, e.Severity, meaning)
			} else {
				fmt.Fprintf(&b, "| `%s` | %s |\n", e.Code, meaning)
			}
		}
	}
	return b.String()
}
