-- unverifiable.sql — bot fetches whose source cannot show signature headers
-- (signature = 'unrecorded'), per input format. They are unverifiable, not
-- violations: a plain combined log never records a Signature header.
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
    source_format,
    count(*)                                          AS bot_fetches,
    count(*) FILTER (WHERE signature = 'unrecorded')  AS unverifiable,
    count(*) FILTER (WHERE signature <> 'unrecorded') AS checkable
FROM fetches
WHERE agent <> ''
GROUP BY source_format
ORDER BY bot_fetches DESC, source_format;
