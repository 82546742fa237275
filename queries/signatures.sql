-- signatures.sql — Web Bot Auth signature outcomes per bot, with the named
-- reasons behind them (bad-signature, expired, key-unknown, ...).
--
-- Fetches whose source cannot show signature headers (signature =
-- 'unrecorded') are left out: they are unverifiable, see unverifiable.sql.
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
    agent,
    signature,
    signature_reasons                        AS reasons,
    count(*)                                 AS fetches,
    count(DISTINCT signature_keyid)
        FILTER (WHERE signature_keyid <> '') AS keyids,
    min(fetch_time)                          AS first_seen,
    max(fetch_time)                          AS last_seen
FROM fetches
WHERE agent <> '' AND signature NOT IN ('', 'unrecorded')
GROUP BY agent, signature, signature_reasons
ORDER BY agent, fetches DESC, signature, reasons;
