//go:build cgo

package report

import (
	"database/sql"
	"testing"

	"github.com/duckdb/duckdb-go/v2"
)

func TestFormatInterval(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   duckdb.Interval
		want string
	}{
		{duckdb.Interval{}, "00:00:00"},
		{duckdb.Interval{Days: 7, Micros: 6396000000}, "7 days 01:46:36"},
		{duckdb.Interval{Days: 1}, "1 day"},
		{duckdb.Interval{Months: 14, Days: 2}, "1 year 2 months 2 days"},
		{duckdb.Interval{Months: 1, Micros: 1}, "1 month 00:00:00.000001"},
		{duckdb.Interval{Micros: -1500000}, "-00:00:01.5"},
		{duckdb.Interval{Micros: 100 * 3600 * 1e6}, "100:00:00"},
		{duckdb.Interval{Months: -24, Days: -3}, "-2 years -3 days"},
	}
	for _, tc := range cases {
		if got := formatInterval(tc.in); got != tc.want {
			t.Errorf("formatInterval(%+v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestFormatIntervalAsDuckDB: formatInterval writes what DuckDB's own
// cast to VARCHAR writes, for intervals DuckDB computes.
func TestFormatIntervalAsDuckDB(t *testing.T) {
	t.Parallel()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, expr := range []string{
		"TIMESTAMP '2025-03-08 01:46:36' - TIMESTAMP '2025-03-01 00:00:00'",
		"INTERVAL '0 seconds'",
		"INTERVAL '1 day'",
		"INTERVAL '14 months 2 days 3 hours'",
		"INTERVAL '-1.5 seconds'",
		"INTERVAL '100 hours'",
		"TIMESTAMP '2025-03-01 00:00:00.25' - TIMESTAMP '2025-03-01 00:00:01'",
	} {
		var iv duckdb.Interval
		var want string
		if err := db.QueryRow("SELECT "+expr+", ("+expr+")::VARCHAR").Scan(&iv, &want); err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if got := formatInterval(iv); got != want {
			t.Errorf("%s: formatInterval = %q, DuckDB says %q", expr, got, want)
		}
	}
}
