package input

import (
	"fmt"
	"sort"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/table"
)

// DefaultMaxProblems is the cap on the problems kept per input when
// Options.MaxProblemsPerFile is 0.
const DefaultMaxProblems = 10000

// Problems keeps the problems of one input, up to a cap: a damaged
// file of millions of lines must not make millions of rows. The others
// are counted by code, and each code over the cap is one summary row
// (Summaries).
type Problems struct {
	List    []event.Problem
	Dropped map[problem.Code]int64
	Max     int // 0 = DefaultMaxProblems
}

// Keep keeps p, or counts it when the cap is reached. A log's verdict
// that none of its lines could be read is always kept: Result.Closing
// names it, and the cap is for the problems of the lines.
func (ps *Problems) Keep(p event.Problem) {
	if len(ps.List) < ps.max() || p.Code == problem.LogNothingRead {
		ps.List = append(ps.List, p)
		return
	}
	if ps.Dropped == nil {
		ps.Dropped = map[problem.Code]int64{}
	}
	ps.Dropped[p.Code]++
}

// nothingRead returns the message of the problem that says none of a
// log's lines could be read, "" when there is none.
func (ps *Problems) nothingRead() string {
	for i := len(ps.List) - 1; i >= 0; i-- {
		if ps.List[i].Code == problem.LogNothingRead {
			return ps.List[i].Message
		}
	}
	return ""
}

func (ps *Problems) max() int {
	if ps.Max <= 0 {
		return DefaultMaxProblems
	}
	return ps.Max
}

// Summaries returns one problem per code over the cap, located at file,
// in the order of the codes.
func (ps *Problems) Summaries(file string) []event.Problem {
	codes := make([]string, 0, len(ps.Dropped))
	for c := range ps.Dropped {
		codes = append(codes, string(c))
	}
	sort.Strings(codes)
	var out []event.Problem
	for _, c := range codes {
		out = append(out, event.Problem{Source: event.Source{File: file, Offset: -1}, Code: problem.Code(c), Severity: event.SevError,
			Message: fmt.Sprintf("%d more problems with this code not listed (cap %d per file)", ps.Dropped[problem.Code(c)], ps.max())})
	}
	return out
}

// ProblemRow is the row of problems.parquet for p.
func ProblemRow(p event.Problem) *table.Problem {
	return &table.Problem{
		SourceFile: p.Source.File, SourceLine: p.Source.Line, Offset: p.Source.Offset,
		Code: string(p.Code), Severity: p.Severity, Message: p.Message,
	}
}
