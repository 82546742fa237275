package report

import (
	"errors"
	"fmt"

	"github.com/repaudit/repaudit/output"
)

// Sentinel errors.
var (
	// ErrIncomplete reports a directory without manifest.json: a run that
	// did not finish (or not an audit directory). It wraps
	// output.ErrNoManifest.
	ErrIncomplete = fmt.Errorf("report: incomplete audit directory: %w", output.ErrNoManifest)
	// ErrNewerSchema reports tables written by a newer repaudit whose
	// schema this version does not know.
	ErrNewerSchema = errors.New("report: audit directory has a newer schema version")
)

// Result is the outcome of a query: column names and DuckDB type names,
// and the rows. Values are normalized to nil, bool, int64, float64, string,
// time.Time (timestamps in UTC; DATE columns at midnight UTC), []byte, or
// for nested types []any and map[string]any.
type Result struct {
	Columns []string
	Types   []string
	Rows    [][]any
	// More counts rows left out by a row limit (QueryN); 0 otherwise.
	More int64
}
