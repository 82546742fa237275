-- retention_upcoming.sql — archive records kept as of the audit's as-of
-- time whose ACAP time-limit or unavailable_after ends later: the
-- deadlines to come, earliest first (at most 50). When one passes, the
-- record's action changes (run the audit again with a later --as-of);
-- repaudit export lists them too.
--
-- Set the as-of time first (repaudit report takes it from manifest.json):
--   SET VARIABLE as_of = TIMESTAMPTZ '2025-01-01 00:00:00+00';
-- Without it every kept record with a due date is listed.
--
-- Views: run against the Parquet files of one audit directory. repaudit query
-- and repaudit report define them for you; in any other DuckDB:
--   CREATE VIEW fetches         AS SELECT * FROM read_parquet('DIR/fetches.parquet');
--   CREATE VIEW violations      AS SELECT * FROM read_parquet('DIR/violations.parquet');
--   CREATE VIEW robots_versions AS SELECT * FROM read_parquet('DIR/robots_versions.parquet');
--   CREATE VIEW robots_rules    AS SELECT * FROM read_parquet('DIR/robots_rules.parquet');
--   CREATE VIEW directives      AS SELECT * FROM read_parquet('DIR/directives.parquet');
--   CREATE VIEW retention       AS SELECT * FROM read_parquet('DIR/retention.parquet');
--   CREATE VIEW problems        AS SELECT * FROM read_parquet('DIR/problems.parquet');
-- Times are TIMESTAMP WITH TIME ZONE; run SET TimeZone = 'UTC'; to see them in UTC.

SELECT
    due_date,
    reason,
    url,
    fetch_time                                 AS captured,
    warc_filename || ':' || warc_record_offset AS record
FROM retention
WHERE action = 'keep'
  AND due_date IS NOT NULL
  AND (getvariable('as_of') IS NULL
       OR due_date > CAST(getvariable('as_of') AS TIMESTAMPTZ))
ORDER BY due_date, url, warc_filename, warc_record_offset
LIMIT 50;
