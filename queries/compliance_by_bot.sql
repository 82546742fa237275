-- compliance_by_bot.sql — how each bot keeps to robots.txt, by identity.
--
-- One row per product token (agent) and identity (verified, claimed,
-- spoofed: a spoofed row is clients that failed the bot's identity check,
-- so its operator is left empty, never the bot's): its fetches, its
-- fetches of /robots.txt, the percentage of its page fetches (every fetch
-- but /robots.txt) made with a fresh robots.txt view (robots_view =
-- 'fresh': it had fetched robots.txt recently enough), its disallowed
-- fetches (robots_verdict disallowed, or unreachable: robots.txt answered
-- 5xx or could not be reached, which RFC 9309 §2.3.1.4 reads as disallow
-- all), its fetches of pages the site reserved from the bot's purpose by
-- an AI usage preference (findings usage_reserved, counted once a fetch
-- whatever the number of labels), and the first and last time it fetched
-- /robots.txt.
--
-- pct_fresh is NULL for a row without page fetches; first/last_robots_check
-- are NULL for a row that never fetched /robots.txt. Clients with no bot
-- identity (agent = '') are left out; totals.sql counts them.
--
-- Views: run against the Parquet files of one audit directory. repaudit query
-- and repaudit report define them for you; in any other DuckDB:
--   CREATE VIEW fetches         AS SELECT * FROM read_parquet('DIR/fetches.parquet');
--   CREATE VIEW violations      AS SELECT * FROM read_parquet('DIR/violations.parquet');
-- Times are TIMESTAMP WITH TIME ZONE; run SET TimeZone = 'UTC'; to see them in UTC.

WITH reserved AS (
    SELECT DISTINCT agent, identity, source_file, source_line, warc_record_offset, url, fetch_time
    FROM violations
    WHERE kind = 'usage_reserved'
)
SELECT
    agent,
    CASE WHEN identity = 'spoofed' THEN ''
         ELSE coalesce(nullif(max(operator), ''), 'unknown operator') END  AS operator,
    identity,
    count(*)                                                            AS fetches,
    count(*) FILTER (WHERE url_path = '/robots.txt')                    AS robots_fetches,
    count(*) FILTER (WHERE url_path <> '/robots.txt')                   AS page_fetches,
    round(100.0 * count(*) FILTER (WHERE url_path <> '/robots.txt' AND robots_view = 'fresh')
          / nullif(count(*) FILTER (WHERE url_path <> '/robots.txt'), 0), 1) AS pct_fresh,
    count(*) FILTER (WHERE robots_verdict IN ('disallowed', 'unreachable')) AS disallowed,
    (SELECT count(*) FROM reserved r WHERE r.agent = f.agent AND r.identity = f.identity) AS usage_reserved,
    min(fetch_time) FILTER (WHERE url_path = '/robots.txt')             AS first_robots_check,
    max(fetch_time) FILTER (WHERE url_path = '/robots.txt')             AS last_robots_check
FROM fetches f
WHERE agent <> ''
GROUP BY agent, identity
ORDER BY lower(agent), agent,
         CASE identity WHEN 'verified' THEN 1 WHEN 'claimed' THEN 2 WHEN 'spoofed' THEN 3 ELSE 4 END,
         identity;
