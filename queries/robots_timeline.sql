-- robots_timeline.sql — every reconstructed robots.txt version per
-- authority, in time order, with its validity interval and what it meant:
-- effect rules (2xx, parsed), allow_all (4xx or too many redirects),
-- disallow_all (5xx or no response), and the RFC 9309 §2.3.1 rule applied.
-- valid_until is null for the latest version of an authority.
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
    authority,
    valid_from,
    valid_until,
    fetch_status,
    effect,
    status_rule,
    groups,
    rules,
    truncated,
    has_acap,
    version_id,
    warc_filename,
    warc_record_offset
FROM robots_versions
ORDER BY authority, valid_from, version_id;
