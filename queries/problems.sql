-- problems.sql — input lines and records that could not be used (or were
-- read leniently), by problem code, with the first occurrence as example.
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
    code,
    severity,
    count(*)                      AS problems,
    count(DISTINCT source_file)   AS files,
    first(source_file
          || CASE WHEN source_line > 0 THEN ':' || source_line
                  WHEN "offset" >= 0 THEN '@' || "offset"
                  ELSE '' END
          ORDER BY source_file, source_line, "offset") AS example_location,
    first(message ORDER BY source_file, source_line, "offset") AS example_message
FROM problems
GROUP BY code, severity
ORDER BY problems DESC, code, severity;
