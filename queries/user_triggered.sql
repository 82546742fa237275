-- user_triggered.sql — crawlers versus user-triggered fetchers (assistants
-- fetching a page because a person asked; some operators exempt them from
-- robots.txt). Findings exclude spoofed clients.
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

WITH f AS (
    SELECT
        user_triggered,
        count(DISTINCT agent)                          AS bots,
        count(*) FILTER (WHERE identity <> 'spoofed')  AS fetches,
        count(*) FILTER (WHERE identity = 'spoofed')   AS spoofed_fetches
    FROM fetches
    WHERE agent <> ''
    GROUP BY user_triggered
),
v AS (
    SELECT user_triggered, count(*) AS findings
    FROM violations
    WHERE agent <> '' AND identity <> 'spoofed'
    GROUP BY user_triggered
)
SELECT
    CASE WHEN coalesce(f.user_triggered, v.user_triggered)
         THEN 'user-triggered' ELSE 'crawler' END AS fetcher,
    coalesce(f.bots, 0)              AS bots,
    coalesce(f.fetches, 0)           AS fetches,
    coalesce(v.findings, 0)          AS findings,
    coalesce(f.spoofed_fetches, 0)   AS spoofed_fetches
FROM f
FULL OUTER JOIN v ON v.user_triggered = f.user_triggered
ORDER BY fetcher;
