-- declared_compliance.sql — bots whose Signature Agent Card declares
-- robots.txt compliance while their verified fetches have robots.txt
-- findings: the declaration against the behaviour.
--
-- One row per product token (agent) and card (card_url) whose card says
-- "rfc9309-compliance": true (draft-meunier-webbotauth-registry-04 §3.2.3;
-- a registry-03 list of directives reads as true) and whose fetches with
-- identity 'verified' (a signature or published IP range confirmed the
-- bot) produced robots.txt findings. Only verified fetches count, on both
-- sides: a client that merely claims the bot, or failed its checks, is
-- never held against the card. Columns: the card's purpose, the verified
-- fetches, the robots.txt findings of those fetches in all, by kind, and
-- the first and last such finding.
--
-- robots.txt kinds: disallowed_fetch, fetch_while_unreachable,
-- stale_robots, unchecked_disallowed, possible_violation,
-- crawl_delay_ignored, captured_while_disallowed.
--
-- Views: run against the Parquet files of one audit directory. repaudit query
-- and repaudit report define them for you; in any other DuckDB:
--   CREATE VIEW fetches         AS SELECT * FROM read_parquet('DIR/fetches.parquet');
--   CREATE VIEW violations      AS SELECT * FROM read_parquet('DIR/violations.parquet');
-- Times are TIMESTAMP WITH TIME ZONE; run SET TimeZone = 'UTC'; to see them in UTC.

WITH declared AS (
    SELECT agent, card_url, max(card_purpose) AS purpose, count(*) AS verified_fetches
    FROM fetches
    WHERE identity = 'verified' AND card_url <> '' AND card_rfc9309_compliance = 'true'
    GROUP BY agent, card_url
),
findings AS (
    -- A finding is joined to its fetch by where the fetch was read.
    SELECT f.agent, f.card_url, v.kind, v.fetch_time
    FROM violations v
    JOIN fetches f
      ON f.source_file = v.source_file AND f.source_line = v.source_line
     AND f.warc_record_offset = v.warc_record_offset AND f.fetch_time = v.fetch_time
     AND f.url = v.url AND f.agent = v.agent
    WHERE v.identity = 'verified' AND f.identity = 'verified'
      AND f.card_url <> '' AND f.card_rfc9309_compliance = 'true'
      AND v.kind IN ('disallowed_fetch', 'fetch_while_unreachable', 'stale_robots',
                     'unchecked_disallowed', 'possible_violation', 'crawl_delay_ignored',
                     'captured_while_disallowed')
),
by_kind AS (
    SELECT agent, card_url, kind, count(*) AS n, min(fetch_time) AS first_seen, max(fetch_time) AS last_seen
    FROM findings
    GROUP BY agent, card_url, kind
)
SELECT
    d.agent,
    d.card_url,
    'rfc9309-compliance: true'                               AS declaration,
    d.purpose,
    d.verified_fetches,
    sum(k.n)                                                 AS robots_findings,
    string_agg(k.kind || ' ' || k.n, ', ' ORDER BY k.n DESC, k.kind) AS findings_by_kind,
    min(k.first_seen)                                        AS first_seen,
    max(k.last_seen)                                         AS last_seen
FROM declared d
JOIN by_kind k ON k.agent = d.agent AND k.card_url = d.card_url
GROUP BY d.agent, d.card_url, d.purpose, d.verified_fetches
ORDER BY robots_findings DESC, lower(d.agent), d.agent, d.card_url;
