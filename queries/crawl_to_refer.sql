-- crawl_to_refer.sql — crawl-to-refer ratio per operator.
--
-- The method Cloudflare Radar publishes: the HTML pages an operator's bots
-- fetched, divided by the HTML pages readers fetched coming from the
-- operator's products (a Referer naming one of its hosts). A high ratio
-- means the operator takes far more than it sends back.
--
-- An HTML page fetch is a fetch with status 200 of a path that is not
-- /robots.txt and does not end in a static-asset extension (the list
-- below): logs record no Content-Type, so the path decides. Bot page
-- fetches are those with the operator's name and an identity that is not
-- spoofed (an impostor's fetches are not the operator's). Referrals are
-- page fetches by any client whose referrer's host (lower-cased, without
-- user info or port) is one of the operator's hosts in the table
-- operator_referrers(operator, host), which repaudit fills from the bot
-- catalog's overlay (bots/overlay.json, "operators").
--
-- One row per operator of operator_referrers with page fetches or
-- referrals; operators whose products the catalog does not list are left
-- out, since their referrals cannot be counted. ratio is pages per
-- referral written "1,204 : 1" (one decimal below 10), '-' when there are
-- no referrals.
--
-- Views: run against the Parquet files of one audit directory. repaudit query
-- and repaudit report define them for you; in any other DuckDB:
--   CREATE VIEW fetches AS SELECT * FROM read_parquet('DIR/fetches.parquet');
--   CREATE TABLE operator_referrers AS SELECT * FROM (VALUES
--       ('OpenAI', 'chatgpt.com'), ('OpenAI', 'chat.openai.com')) t(operator, host);

WITH pages AS (
    SELECT *
    FROM fetches
    WHERE fetch_status = 200
      AND url_path <> '/robots.txt'
      AND NOT regexp_matches(lower(url_path),
          '\.(css|js|mjs|map|json|xml|txt|ico|png|jpe?g|gif|webp|avif|svg|bmp|tiff?'
          || '|woff2?|ttf|otf|eot|pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|mp3|mp4|m4a|ogg|wav|webm|avi|mov'
          || '|wasm|csv|rss|atom|exe|dmg|apk|iso)$')
),
crawled AS (
    SELECT operator, count(*) AS page_fetches
    FROM pages
    WHERE operator <> '' AND identity <> 'spoofed'
    GROUP BY operator
),
referred AS (
    SELECT r.operator, count(*) AS referrals
    FROM pages p
    JOIN operator_referrers r
      ON r.host = rtrim(lower(regexp_extract(p.referrer,
             '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^:/?#]*)', 1)), '.')
    GROUP BY r.operator
),
operators AS (
    SELECT DISTINCT operator FROM operator_referrers
)
SELECT
    o.operator,
    coalesce(c.page_fetches, 0)                                         AS page_fetches,
    coalesce(r.referrals, 0)                                            AS referrals,
    CASE WHEN coalesce(r.referrals, 0) = 0 THEN '-'
         WHEN c.page_fetches >= 10 * r.referrals
         THEN format('{:,} : 1', round(c.page_fetches / r.referrals)::BIGINT)
         ELSE format('{:.1f} : 1', coalesce(c.page_fetches, 0) / r.referrals) END AS ratio
FROM operators o
LEFT JOIN crawled c ON c.operator = o.operator
LEFT JOIN referred r ON r.operator = o.operator
WHERE c.page_fetches > 0 OR r.referrals > 0
ORDER BY page_fetches DESC, o.operator;
