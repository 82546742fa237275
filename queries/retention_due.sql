-- retention_due.sql — archive retention actions (delete, embargo, review)
-- that are due as of the audit's as-of time, and those still to come.
--
-- Set the as-of time first (repaudit report takes it from manifest.json):
--   SET VARIABLE as_of = TIMESTAMPTZ '2025-01-01 00:00:00+00';
-- Without it every action counts as due. Rows with action 'keep' are left
-- out.
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
    action,
    reason,
    CASE WHEN due_date IS NULL OR getvariable('as_of') IS NULL
              OR due_date <= CAST(getvariable('as_of') AS TIMESTAMPTZ)
         THEN 'due' ELSE 'upcoming' END                   AS status,
    count(*)                                              AS records,
    min(due_date)                                         AS earliest_due,
    max(due_date)                                         AS latest_due,
    first(url ORDER BY due_date NULLS FIRST, url, warc_filename, warc_record_offset) AS example_url,
    first(warc_filename || ':' || warc_record_offset
          ORDER BY due_date NULLS FIRST, url, warc_filename, warc_record_offset) AS example_record
FROM retention
WHERE action <> 'keep'
GROUP BY ALL
ORDER BY status, records DESC, action, reason;
