//go:build cgo

package main

import (
	"context"
	"slices"
	"testing"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/report"
)

// TestAuditDemoKindColumns checks the registry's columns against the
// demo: no finding fills a kind-specific column its kind does not
// declare.
func TestAuditDemoKindColumns(t *testing.T) {
	out := auditDemo(t)
	db, err := report.Open(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	filled := map[string]string{ // column: SQL true when a row fills it
		"robots_version_id":         "robots_version_id <> ''",
		"robots_capture_time":       "robots_capture_time is not null",
		"robots_warc_filename":      "robots_warc_filename <> ''",
		"robots_warc_record_offset": "robots_warc_record_offset >= 0",
		"robots_status":             "robots_status <> 0",
		"robots_source":             "robots_source <> ''",
		"matched_group":             "matched_group <> ''",
		"matched_rule":              "matched_rule <> ''",
		"matched_line":              "matched_line <> 0",
		"directive":                 "directive <> ''",
		"usage":                     "usage <> ''",
		"signature_reason":          "signature_reason <> ''",
		"observed_interval_seconds": "observed_interval_seconds <> 0",
		"crawl_delay_seconds":       "crawl_delay_seconds <> 0",
		"due_date":                  "due_date is not null",
	}
	for col, cond := range filled {
		res, err := db.Query(context.Background(), "select distinct kind from violations where "+cond)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Rows {
			kind := r[0].(string)
			k, ok := evaluate.LookupKind(kind)
			if !ok {
				t.Errorf("kind %q is not in the registry", kind)
				continue
			}
			if !slices.Contains(k.Columns, col) {
				t.Errorf("a %s finding fills %s, which the registry does not declare for it", kind, col)
			}
		}
	}
}
