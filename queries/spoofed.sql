-- spoofed.sql — traffic from clients that claimed a bot's identity and
-- failed a check (signature or published IP range).
--
-- One row per claimed product token. These findings are kept apart from the
-- bot's own (bots.sql) and never attributed to its operator.
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
        agent,
        count(*)                    AS fetches,
        count(DISTINCT client_ip)   AS client_ips,
        min(fetch_time)             AS first_seen,
        max(fetch_time)             AS last_seen
    FROM fetches
    WHERE agent <> '' AND identity = 'spoofed'
    GROUP BY agent
),
per_kind AS (
    SELECT agent, kind, count(*) AS n
    FROM violations
    WHERE agent <> '' AND identity = 'spoofed'
    GROUP BY agent, kind
),
v AS (
    SELECT
        agent,
        sum(n)::BIGINT                                          AS findings,
        string_agg(kind || ' ' || n, ', ' ORDER BY n DESC, kind) AS findings_by_kind
    FROM per_kind
    GROUP BY agent
)
SELECT
    coalesce(f.agent, v.agent)      AS claimed_agent,
    coalesce(f.fetches, 0)          AS fetches,
    coalesce(f.client_ips, 0)       AS client_ips,
    coalesce(v.findings, 0)         AS findings,
    coalesce(v.findings_by_kind, '') AS findings_by_kind,
    f.first_seen                    AS first_seen,
    f.last_seen                     AS last_seen
FROM f
FULL OUTER JOIN v ON v.agent = f.agent
ORDER BY fetches DESC, findings DESC, claimed_agent;
