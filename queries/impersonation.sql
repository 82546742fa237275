-- impersonation.sql — identity checks per claimed bot.
--
-- For each product token: fetches by identity, the published-IP-range
-- check (in_range, not_in_range; ip_list_not_given counts the fetches
-- left unchecked because the bot publishes a list that was not given —
-- pass it with --ip-ranges-dir; not_published fetches, by bots that
-- publish none, are not counted), signature outcomes, and the
-- identity findings (ip_not_published, invalid_signature,
-- unsigned_claimant). Only bots with a verdict from a check (verified or
-- spoofed identity, an IP range match or miss, a verified or invalid
-- signature) are listed: a bot whose fetches were all "claimed", or merely
-- unsigned, is absent.
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
        count(*)                                              AS fetches,
        count(*) FILTER (WHERE identity = 'verified')         AS verified,
        count(*) FILTER (WHERE identity = 'claimed')          AS claimed,
        count(*) FILTER (WHERE identity = 'spoofed')          AS spoofed,
        count(*) FILTER (WHERE ip_check = 'in_range')         AS ip_in_range,
        count(*) FILTER (WHERE ip_check = 'not_in_range')     AS ip_not_in_range,
        count(*) FILTER (WHERE ip_check = 'not_given')        AS ip_list_not_given,
        count(*) FILTER (WHERE signature = 'verified')        AS sig_verified,
        count(*) FILTER (WHERE signature = 'invalid')         AS sig_invalid,
        count(*) FILTER (WHERE signature = 'unsigned')        AS sig_unsigned
    FROM fetches
    WHERE agent <> ''
    GROUP BY agent
),
v AS (
    SELECT
        agent,
        count(*) FILTER (WHERE kind = 'ip_not_published')     AS ip_not_published,
        count(*) FILTER (WHERE kind = 'invalid_signature')    AS invalid_signature,
        count(*) FILTER (WHERE kind = 'unsigned_claimant')    AS unsigned_claimant
    FROM violations
    WHERE agent <> ''
    GROUP BY agent
)
SELECT
    f.agent,
    f.fetches,
    f.verified,
    f.claimed,
    f.spoofed,
    f.ip_in_range,
    f.ip_not_in_range,
    f.ip_list_not_given,
    f.sig_verified,
    f.sig_invalid,
    f.sig_unsigned,
    coalesce(v.ip_not_published, 0)   AS ip_not_published,
    coalesce(v.invalid_signature, 0)  AS invalid_signature,
    coalesce(v.unsigned_claimant, 0)  AS unsigned_claimant
FROM f
LEFT JOIN v ON v.agent = f.agent
WHERE f.verified + f.spoofed + f.ip_in_range + f.ip_not_in_range
      + f.sig_verified + f.sig_invalid > 0
ORDER BY f.spoofed DESC, f.fetches DESC, f.agent;
