-- bots.sql — per-bot summary.
--
-- One row per product token (agent) seen in fetches or findings: operator,
-- category, crawler or user-triggered fetcher, fetches split by identity
-- (verified: a signature or published IP range confirmed it; claimed:
-- User-Agent only; spoofed: a check failed), the findings attributed to the
-- bot by kind, and its last robots.txt check (the latest robots_view_time of
-- its non-spoofed fetches).
--
-- Spoofed traffic is counted in the spoofed column but its findings are NOT
-- attributed here: a client that only pretends to be GPTBot is not GPTBot's
-- operator. See spoofed.sql. Clients with no bot identity (agent = '') are
-- left out; totals.sql counts them. A bot with no known operator (one the
-- catalog does not know, or a framework such as heritrix or curl) shows
-- "unknown operator"; a token only spoofed clients used shows "none: only
-- spoofed clients".
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

WITH per_fetch AS (
    SELECT
        agent,
        max(operator)                                           AS operator,
        max(category)                                           AS category,
        bool_or(user_triggered)                                 AS user_triggered,
        count(*) FILTER (WHERE identity = 'verified')           AS verified,
        count(*) FILTER (WHERE identity = 'claimed')            AS claimed,
        count(*) FILTER (WHERE identity = 'spoofed')            AS spoofed,
        max(robots_view_time) FILTER (WHERE identity <> 'spoofed') AS last_robots_check
    FROM fetches
    WHERE agent <> ''
    GROUP BY agent
),
per_kind AS (
    SELECT agent, kind, count(*) AS n
    FROM violations
    WHERE agent <> '' AND identity <> 'spoofed'
    GROUP BY agent, kind
),
per_finding AS (
    SELECT
        agent,
        sum(n)::BIGINT                                          AS findings,
        string_agg(kind || ' ' || n, ', ' ORDER BY n DESC, kind) AS findings_by_kind
    FROM per_kind
    GROUP BY agent
),
finding_labels AS (
    -- Operator and category of bots known only from findings (e.g. index
    -- listings), without fetches.
    SELECT agent, max(operator) AS operator, max(category) AS category,
           bool_or(user_triggered) AS user_triggered
    FROM violations
    WHERE agent <> ''
    GROUP BY agent
)
SELECT
    coalesce(f.agent, p.agent)                                  AS agent,
    -- A bot the catalog does not know has no operator: say so rather than
    -- leave a blank someone could read as anyone's. A token only spoofed
    -- clients used has no operator either (spoofed rows carry none): it is
    -- not unknown, it is nobody's here.
    CASE WHEN coalesce(f.verified + f.claimed, 0) = 0 AND coalesce(f.spoofed, 0) > 0
              AND coalesce(l.operator, '') = ''
         THEN 'none: only spoofed clients'
         ELSE coalesce(nullif(coalesce(f.operator, l.operator, ''), ''), 'unknown operator') END AS operator,
    coalesce(f.category, l.category, '')                        AS category,
    CASE WHEN coalesce(f.user_triggered, l.user_triggered, false)
         THEN 'user-triggered' ELSE 'crawler' END               AS fetcher,
    coalesce(f.verified + f.claimed, 0)                         AS fetches,
    coalesce(f.verified, 0)                                     AS verified,
    coalesce(f.claimed, 0)                                      AS claimed,
    coalesce(f.spoofed, 0)                                      AS spoofed,
    coalesce(p.findings, 0)                                     AS findings,
    coalesce(p.findings_by_kind, '')                            AS findings_by_kind,
    f.last_robots_check                                         AS last_robots_check
FROM per_fetch f
FULL OUTER JOIN per_finding p ON p.agent = f.agent
LEFT JOIN finding_labels l ON l.agent = coalesce(f.agent, p.agent)
ORDER BY fetcher, fetches DESC, findings DESC, agent;
