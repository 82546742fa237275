package report_test

import (
	"os"
	"time"

	"github.com/repaudit/repaudit/report"
)

func ExampleWriteResult() {
	res := &report.Result{
		Columns: []string{"agent", "findings", "last_seen"},
		Types:   []string{"VARCHAR", "BIGINT", "TIMESTAMPTZ"},
		Rows:    [][]any{{"GPTBot", int64(3), time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)}},
	}
	report.WriteResult(os.Stdout, res, "csv")
	// Output:
	// agent,findings,last_seen
	// GPTBot,3,2025-03-01T09:00:00Z
}
