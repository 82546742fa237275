-- findings_by_kind.sql — how many findings of each kind, and how many of
-- them came from spoofed clients (not attributed to any operator).
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
    kind,
    max(severity)                                              AS severity,
    count(*)                                                   AS findings,
    count(*) FILTER (WHERE identity <> 'spoofed')              AS attributed,
    count(*) FILTER (WHERE identity = 'spoofed')               AS spoofed,
    count(DISTINCT agent) FILTER (WHERE identity <> 'spoofed') AS agents,
    count(DISTINCT url_host_name)                              AS hosts,
    min(fetch_time)                                            AS first_seen,
    max(fetch_time)                                            AS last_seen
FROM violations
GROUP BY kind
ORDER BY findings DESC, kind;
