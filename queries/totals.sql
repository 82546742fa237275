-- totals.sql — one row of overall numbers for the report header.
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
    (SELECT count(*) FROM fetches)                                   AS fetches,
    (SELECT count(*) FROM fetches WHERE agent <> '')                 AS bot_fetches,
    (SELECT count(*) FROM fetches WHERE agent = '')                  AS other_fetches,
    (SELECT count(DISTINCT agent) FROM fetches WHERE agent <> '')    AS bots,
    (SELECT count(*) FROM fetches WHERE robots_verdict NOT IN ('', 'not_judged')) AS judged,
    (SELECT count(*) FROM violations)                                AS findings,
    (SELECT count(*) FROM violations WHERE identity <> 'spoofed')    AS attributed_findings,
    (SELECT count(*) FROM violations WHERE identity = 'spoofed')     AS spoofed_findings,
    (SELECT count(*) FROM fetches WHERE agent <> '' AND signature = 'unrecorded') AS unverifiable,
    (SELECT count(DISTINCT authority) FROM robots_versions)          AS authorities,
    (SELECT count(*) FROM robots_versions)                           AS robots_versions,
    (SELECT count(*) FROM problems)                                  AS problems,
    (SELECT min(fetch_time) FROM fetches)                            AS first_fetch,
    (SELECT max(fetch_time) FROM fetches)                            AS last_fetch;
