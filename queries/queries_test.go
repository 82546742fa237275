package queries

import (
	"strings"
	"testing"
)

// wantQueries are the queries repaudit report relies on.
var wantQueries = []string{
	"bots", "spoofed", "findings_by_kind", "findings_over_time", "top_paths",
	"robots_timeline", "impersonation", "signatures", "retention_due",
	"problems", "user_triggered", "unverifiable", "totals", "traffic_by_bot",
	"compliance_by_bot", "crawl_to_refer", "usage_prefs", "usage_reserved",
	"findings_by_bot", "retention_upcoming",
}

func TestQueries(t *testing.T) {
	names := Names()
	have := make(map[string]bool)
	for _, n := range names {
		have[n] = true
	}
	for _, n := range wantQueries {
		if !have[n] {
			t.Errorf("query %s missing (have %v)", n, names)
		}
	}
	for _, n := range names {
		q := Query(n)
		if q == "" {
			t.Errorf("Query(%q) is empty", n)
			continue
		}
		if Query(n+".sql") != q {
			t.Errorf("Query(%q.sql) differs from Query(%q)", n, n)
		}
		if !strings.HasPrefix(q, "-- "+n+".sql — ") {
			t.Errorf("%s: first line should name the file and say what it computes", n)
		}
		if !strings.Contains(q, "read_parquet('DIR/fetches.parquet')") {
			t.Errorf("%s: header does not show how to define the views", n)
		}
		// One statement per file, so the report can run each as is.
		code := strings.TrimSpace(stripComments(q))
		if strings.Count(code, ";") != 1 || !strings.HasSuffix(code, ";") {
			t.Errorf("%s: want exactly one statement ending in ';'", n)
		}
	}
	if Query("nope") != "" {
		t.Error(`Query("nope"): got text, want ""`)
	}
}

func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}
