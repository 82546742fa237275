-- findings_by_bot.sql — what each bot did: its findings, worst first.
--
-- One row per bot with findings: the findings attributed to it, split by
-- severity, its findings by kind, the distinct URLs involved and when it
-- was first and last seen doing so. Clients that failed a bot's identity
-- check are rows of their own, "<agent> (spoofed)", with no operator:
-- their findings are never added to the bot they claimed to be. Findings
-- without an agent (a client that named no bot) are "(no agent)". Rows are
-- ordered by high-severity findings, then all findings, then name, so the
-- bot to look at first is the first row. The report opens with it.
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

WITH labelled AS (
    SELECT
        CASE WHEN identity = 'spoofed' THEN agent || ' (spoofed)'
             WHEN agent = '' THEN '(no agent)'
             ELSE agent END                                       AS agent,
        -- A bot the catalog does not know has no operator: say so, as
        -- bots.sql does; a spoofed client has none of its own.
        CASE WHEN identity = 'spoofed' THEN ''
             ELSE coalesce(nullif(operator, ''), 'unknown operator') END AS operator,
        kind, severity, url, fetch_time
    FROM violations
),
per_kind AS (
    SELECT agent, kind, count(*) AS n
    FROM labelled
    GROUP BY agent, kind
),
kinds AS (
    SELECT agent, string_agg(kind || ' ' || n, ', ' ORDER BY n DESC, kind) AS findings_by_kind
    FROM per_kind
    GROUP BY agent
)
SELECT
    l.agent,
    max(l.operator)                                           AS operator,
    count(*)                                                  AS findings,
    count(*) FILTER (WHERE l.severity = 'high')               AS high,
    count(*) FILTER (WHERE l.severity = 'medium')             AS medium,
    count(*) FILTER (WHERE l.severity = 'low')                AS low,
    any_value(k.findings_by_kind)                             AS findings_by_kind,
    count(DISTINCT l.url)                                     AS urls,
    min(l.fetch_time)                                         AS first_seen,
    max(l.fetch_time)                                         AS last_seen
FROM labelled l
JOIN kinds k ON k.agent = l.agent
GROUP BY l.agent
ORDER BY high DESC, findings DESC, l.agent;
