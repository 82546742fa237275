// Package table defines the rows of every output table repaudit writes.
//
// The row structs are the schema: column names come from their `parquet`
// tags and column documentation from their `doc` tags. The Parquet writer
// and docs/schema.md are both derived from them, so the documentation cannot
// drift from what is written. The package is pure Go with no dependencies,
// so the evaluation code can produce rows without linking Arrow or DuckDB.
package table
