-- usage_prefs.sql — the AI usage preferences a site's robots.txt stated
-- over time: Content-Signal (Cloudflare Content Signals), Content-Usage
-- (IETF AI preferences) and License (RSL 1.0) lines, as written.
--
-- Consecutive versions of an authority with the same preference lines
-- (same group, text and line number; 30-day segments of one version
-- included) are one span: valid_from is the first version's, valid_until
-- the last one's, NULL while the span is in force now (it holds the
-- latest version); versions counts them and version_id is the first. A
-- span with preference lines has one row per robots.txt group that
-- carries them (group: its user-agents), preferences joining its lines in
-- file order as 'Content-Signal: search=yes, ai-train=no (line 9)'; a
-- span without any has one row whose preferences is 'no preferences', so
-- the table shows when preferences appeared, changed or disappeared.
-- licenses lists the version's License URLs (global lines, not in a
-- group) on each row of the span. Versions that were not parsed (4xx,
-- 5xx, unreachable) have no lines: 'no preferences'.
--
-- Views: run against the Parquet files of one audit directory. repaudit query
-- and repaudit report define them for you; in any other DuckDB:
--   CREATE VIEW fetches         AS SELECT * FROM read_parquet('DIR/fetches.parquet');
--   CREATE VIEW violations      AS SELECT * FROM read_parquet('DIR/violations.parquet');
--   CREATE VIEW robots_versions AS SELECT * FROM read_parquet('DIR/robots_versions.parquet');
--   CREATE VIEW robots_rules    AS SELECT * FROM read_parquet('DIR/robots_rules.parquet');
-- Lists are joined with '; ', written chr(59) so the file holds one ';'.
-- Times are TIMESTAMP WITH TIME ZONE; run SET TimeZone = 'UTC'; to see them in UTC.

WITH prefs AS (
    SELECT version_id, "group", line, kind, value,
           CASE kind WHEN 'content-signal' THEN 'Content-Signal'
                     WHEN 'content-usage'  THEN 'Content-Usage'
                     ELSE 'License' END || ': ' || value || ' (line ' || line || ')' AS written
    FROM robots_rules
    WHERE kind IN ('content-signal', 'content-usage', 'license')
),
versions AS (
    SELECT v.authority, v.version_id, v.valid_from, v.valid_until,
           coalesce((SELECT string_agg(p."group" || ' | ' || p.written, chr(10) ORDER BY p.line)
                     FROM prefs p WHERE p.version_id = v.version_id), '') AS lines
    FROM robots_versions v
),
marked AS (
    SELECT *,
           lag(lines) OVER (PARTITION BY authority ORDER BY valid_from, version_id) AS prev
    FROM versions
),
numbered AS (
    SELECT *,
           sum(CASE WHEN prev IS NULL OR prev <> lines THEN 1 ELSE 0 END)
               OVER (PARTITION BY authority ORDER BY valid_from, version_id) AS span
    FROM marked
),
spans AS (
    SELECT authority, span,
           min(valid_from)                                  AS valid_from,
           CASE WHEN bool_or(valid_until IS NULL) THEN NULL
                ELSE max(valid_until) END                   AS valid_until,
           count(*)                                         AS versions,
           arg_min(version_id, (valid_from, version_id))    AS version_id
    FROM numbered
    GROUP BY authority, span
),
groups AS (
    SELECT version_id, "group", min(line) AS first_line,
           string_agg(written, chr(59) || ' ' ORDER BY line) AS preferences
    FROM prefs
    WHERE kind <> 'license'
    GROUP BY version_id, "group"
),
licenses AS (
    SELECT version_id, string_agg(value, ' ' ORDER BY line) AS licenses
    FROM prefs
    WHERE kind = 'license'
    GROUP BY version_id
)
SELECT
    s.authority,
    s.valid_from,
    s.valid_until,
    s.versions,
    coalesce(g."group", '')                  AS "group",
    coalesce(g.preferences, 'no preferences') AS preferences,
    coalesce(l.licenses, '')                 AS licenses,
    s.version_id
FROM spans s
LEFT JOIN groups g   ON g.version_id = s.version_id
LEFT JOIN licenses l ON l.version_id = s.version_id
ORDER BY s.authority, s.valid_from, g.first_line NULLS FIRST;
