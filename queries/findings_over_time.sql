-- findings_over_time.sql — findings per bot per day.
--
-- Days are calendar days in the zone held by the DuckDB variable time_zone,
-- UTC when it is not set (repaudit report --tz sets it):
--   SET VARIABLE time_zone = 'Europe/Berlin';
--
-- Spoofed findings are a series of their own, labelled "<agent> (spoofed)",
-- so they are never added to the real bot's line. Findings without a time
-- are left out.
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
    CAST(timezone(coalesce(getvariable('time_zone'), 'UTC'), fetch_time) AS DATE) AS day,
    CASE WHEN identity = 'spoofed' THEN agent || ' (spoofed)'
         WHEN agent = '' THEN '(no agent)'
         ELSE agent END                                       AS agent,
    count(*)                                                  AS findings
FROM violations
WHERE fetch_time IS NOT NULL
GROUP BY ALL
ORDER BY day, agent;
