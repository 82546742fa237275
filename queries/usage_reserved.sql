-- usage_reserved.sql — fetches of pages a site reserved from a bot's
-- purpose by an AI usage preference (findings usage_reserved), by bot,
-- identity and usage label.
--
-- One row per product token (agent), identity (verified, claimed,
-- spoofed: a spoofed row is clients that failed the bot's identity check,
-- so its operator is left empty, never the bot's) and usage label as
-- written (ai-train, ai-input, search from Content-Signal; train-ai,
-- search from Content-Usage): its findings (one per fetch and label),
-- the distinct URLs they fetched, the preference lines that reserved them
-- (rules, as written) and the first and last such fetch.
--
-- Views: run against the Parquet files of one audit directory. repaudit query
-- and repaudit report define them for you; in any other DuckDB:
--   CREATE VIEW fetches         AS SELECT * FROM read_parquet('DIR/fetches.parquet');
--   CREATE VIEW violations      AS SELECT * FROM read_parquet('DIR/violations.parquet');
--   CREATE VIEW robots_versions AS SELECT * FROM read_parquet('DIR/robots_versions.parquet');
--   CREATE VIEW robots_rules    AS SELECT * FROM read_parquet('DIR/robots_rules.parquet');
-- Lists are joined with '; ', written chr(59) so the file holds one ';'.
-- Times are TIMESTAMP WITH TIME ZONE; run SET TimeZone = 'UTC'; to see them in UTC.

SELECT
    agent,
    CASE WHEN identity = 'spoofed' THEN ''
         ELSE coalesce(nullif(max(operator), ''), 'unknown operator') END AS operator,
    identity,
    usage,
    count(*)                                                    AS findings,
    count(DISTINCT url)                                         AS urls,
    string_agg(DISTINCT matched_rule, chr(59) || ' ' ORDER BY matched_rule) AS rules,
    min(fetch_time)                                             AS first_seen,
    max(fetch_time)                                             AS last_seen
FROM violations
WHERE kind = 'usage_reserved'
GROUP BY agent, identity, usage
ORDER BY lower(agent), agent,
         CASE identity WHEN 'verified' THEN 1 WHEN 'claimed' THEN 2 WHEN 'spoofed' THEN 3 ELSE 4 END,
         identity, usage;
