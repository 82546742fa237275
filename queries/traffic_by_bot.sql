-- traffic_by_bot.sql — requests and response bytes per bot, over the whole
-- data range and per day: what each bot costs the site.
--
-- Traffic comes in three kinds that are never added together:
--   bot      fetches by a bot that was verified or only claimed its identity
--            (User-Agent); operator and category from the catalog or card
--   spoofed  fetches by clients that claimed a bot and failed a signature or
--            published IP-range check: one row per claimed product token,
--            never counted for that bot, operator and category left empty
--   other    clients with no bot identity (browsers, scripts): one row, so the
--            bots' share can be read against all traffic
--
-- period 'total' rows cover the whole range (day is NULL); period 'day' rows
-- one calendar day in the zone held by the DuckDB variable time_zone, UTC when
-- it is not set (repaudit report --tz sets it):
--   SET VARIABLE time_zone = 'Europe/Berlin';
--
-- bytes sums fetches.response_bytes where the source gave a size (the log's
-- %b, %O, body_bytes_sent, sc-bytes, ...); unsized counts the requests whose
-- source did not (WARC request records, '-' in a log). bytes is NULL when no
-- request of the row had a size. size is bytes in binary units (KiB, MiB).
-- pct_bytes is the row's percentage of all known bytes of its period (the
-- whole range, or that day), other clients included.
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
        CASE WHEN agent = ''          THEN 'other'
             WHEN identity = 'spoofed' THEN 'spoofed'
             ELSE 'bot' END                                              AS traffic,
        agent,
        operator,
        category,
        CAST(timezone(coalesce(getvariable('time_zone'), 'UTC'), fetch_time) AS DATE) AS day,
        response_bytes
    FROM fetches
),
labels AS (
    -- One operator and category per bot for every row, as bots.sql shows them.
    SELECT agent, max(operator) AS operator, max(category) AS category
    FROM f
    WHERE traffic = 'bot'
    GROUP BY agent
),
g AS (
    SELECT
        CASE WHEN GROUPING(day) = 1 THEN 'total' ELSE 'day' END          AS period,
        day,
        traffic,
        agent,
        count(*)                                                         AS requests,
        CAST(sum(response_bytes) FILTER (WHERE response_bytes >= 0) AS BIGINT) AS bytes,
        count(*) FILTER (WHERE response_bytes < 0)                       AS unsized
    FROM f
    GROUP BY GROUPING SETS ((traffic, agent), (day, traffic, agent))
)
SELECT
    g.period,
    g.day,
    g.traffic,
    g.agent,
    coalesce(l.operator, '')                                             AS operator,
    coalesce(l.category, '')                                             AS category,
    g.requests,
    g.bytes,
    format_bytes(g.bytes)                                                AS size,
    g.unsized,
    round(100.0 * g.bytes / nullif(sum(g.bytes) OVER (PARTITION BY g.period, g.day), 0), 1) AS pct_bytes
FROM g
LEFT JOIN labels l ON g.traffic = 'bot' AND l.agent = g.agent
ORDER BY
    CASE g.period WHEN 'total' THEN 0 ELSE 1 END,
    g.day,
    CASE g.traffic WHEN 'bot' THEN 0 WHEN 'spoofed' THEN 1 ELSE 2 END,
    g.bytes DESC NULLS LAST,
    g.requests DESC,
    g.agent;
