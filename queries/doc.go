// Package queries holds the queries behind repaudit report as plain,
// commented .sql files that researchers can read, copy and run in any
// DuckDB (or adapt to another engine) over the Parquet files of an audit.
//
// Every file is written against views named like the tables (fetches,
// violations, robots_versions, robots_rules, directives, retention,
// problems); its header comment shows how to define them by hand with
// read_parquet. repaudit query and repaudit report define them for you.
// retention_due.sql reads the as-of time from a DuckDB variable:
//
//	SET VARIABLE as_of = TIMESTAMPTZ '2025-01-01 00:00:00+00';
//
// The per-day queries (findings_over_time.sql, traffic_by_bot.sql) count
// calendar days in the zone of the variable time_zone, UTC when unset:
//
//	SET VARIABLE time_zone = 'Europe/Berlin';
//
// Go code reads the files with Query:
//
//	rows, err := db.QueryContext(ctx, queries.Query("bots"))
//
// The package embeds text only; it does not link a database. It is named
// queries, not sql, so it does not shadow database/sql where both are used.
package queries
