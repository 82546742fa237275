-- top_paths.sql — the URLs with the most findings.
--
-- attributed counts findings by verified or claimed bots; spoofed counts
-- findings by clients that failed an identity check. agents lists the
-- non-spoofed bots involved.
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
    url_host_name,
    url_path,
    count(*)                                                        AS findings,
    count(*) FILTER (WHERE identity <> 'spoofed')                   AS attributed,
    count(*) FILTER (WHERE identity = 'spoofed')                    AS spoofed,
    coalesce(string_agg(DISTINCT agent, ', ' ORDER BY agent)
             FILTER (WHERE identity <> 'spoofed' AND agent <> ''), '') AS agents,
    string_agg(DISTINCT kind, ', ' ORDER BY kind)                   AS kinds,
    max(fetch_time)                                                 AS last_seen
FROM violations
GROUP BY url_host_name, url_path
ORDER BY findings DESC, url_host_name, url_path
LIMIT 20;
