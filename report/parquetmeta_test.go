//go:build cgo

package report

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

// TestParquetMetadata reads the footer of a fetches table with DuckDB's
// parquet_metadata(), an independent reader: every column chunk has
// min/max statistics (but for a column of nulls only), string bounds are at most 64 bytes and bound the
// values, and no column chunk claims a distinct count (arrow-go wrote 0).
func TestParquetMetadata(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "audit")
	w, err := output.Create(dir, output.Options{RowGroupRows: 3000})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	t0 := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 7000 {
		f := &table.Fetch{FetchTime: t0.Add(time.Duration(i) * time.Second), Agent: []string{"GPTBot", "CCBot"}[i%2],
			URL: fmt.Sprintf("https://host-%02d.example/%s/%d", i%50, strings.Repeat("x", 80), i), FetchStatus: 200,
			ResponseBytes: int64(i), URLHostName: fmt.Sprintf("host-%02d.example", i%50)}
		if err := w.Fetch(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(nil); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	path := filepath.Join(dir, "fetches.parquet")
	var groups, chunks, noMinMax, distinct, long int
	err = db.QueryRow(`SELECT count(DISTINCT row_group_id), count(*),
		count(*) FILTER (WHERE (stats_min_value IS NULL OR stats_max_value IS NULL) AND stats_null_count < row_group_num_rows),
		count(*) FILTER (WHERE stats_distinct_count IS NOT NULL),
		count(*) FILTER (WHERE type = 'BYTE_ARRAY' AND (octet_length(stats_min_value::BLOB) > 64 OR octet_length(stats_max_value::BLOB) > 64))
		FROM parquet_metadata(?)`, path).Scan(&groups, &chunks, &noMinMax, &distinct, &long)
	if err != nil {
		t.Fatal(err)
	}
	if groups != 3 || noMinMax != 0 || distinct != 0 || long != 0 {
		t.Errorf("%d row groups, %d column chunks: %d without min/max, %d with a distinct count, %d string bounds over 64 bytes; want 3 row groups and none",
			groups, chunks, noMinMax, distinct, long)
	}
	// The bounds prune: a host outside a row group's range skips it, and
	// every URL lies within its row group's bounds.
	var outside int
	err = db.QueryRow(`WITH m AS (SELECT row_group_id, stats_min_value AS lo, stats_max_value AS hi FROM parquet_metadata(?) WHERE path_in_schema = 'url'),
		r AS (SELECT url, (file_row_number // 3000) AS g FROM read_parquet(?, file_row_number = true))
		SELECT count(*) FROM r JOIN m ON m.row_group_id = r.g WHERE r.url < m.lo OR r.url > m.hi`, path, path).Scan(&outside)
	if err != nil {
		t.Fatal(err)
	}
	if outside != 0 {
		t.Errorf("%d URLs outside their row group's min/max", outside)
	}
}
