package output

// ccJoinDoc ends docs/schema.md: how to join the tables with Common
// Crawl's columnar index. The column names are those the index documents
// (url_surtkey, warc_filename, warc_record_offset, content_digest, ...).
const ccJoinDoc = "\n## Joining with Common Crawl's index\n\n" +
	"The join columns follow Common Crawl's columnar index (`cc-index/table/cc-main/warc/`,\n" +
	"one Parquet dataset per crawl and subset): `url_surtkey` is the same SURT key,\n" +
	"`content_digest` the same base32 SHA-1, `content_mime_type` the same media type,\n" +
	"and `warc_filename` the base name of the index's `warc_filename` path. The index\n" +
	"points at the response record; a `fetches` row of a WARC request record carries\n" +
	"the request's offset and length, and in Common Crawl's WARCs the response is the\n" +
	"next record (request offset + length = response offset). A capture without a\n" +
	"request record (`source_format = 'warc-capture'`) carries the response's own.\n" +
	"Reading files outside DIR takes `--allow-external`:\n\n" +
	"```sql\n" +
	"-- repaudit query DIR --allow-external - < cc-join.sql\n" +
	"WITH cc AS (\n" +
	"  SELECT url_surtkey, url, fetch_time, fetch_status, content_digest, content_mime_type,\n" +
	"         parse_filename(warc_filename) AS warc_name, warc_filename, warc_record_offset\n" +
	"  FROM read_parquet('CC-INDEX/crawl=CC-MAIN-2024-22/subset=warc/*.parquet')\n" +
	"  WHERE url_host_registered_domain = 'example.com'        -- prunes by row-group statistics\n" +
	")\n" +
	"SELECT f.agent, f.url, f.robots_verdict, f.fetch_status,\n" +
	"       cc.fetch_status AS cc_status, cc.content_digest = f.content_digest AS same_payload,\n" +
	"       cc.warc_filename, cc.warc_record_offset\n" +
	"FROM fetches f\n" +
	"JOIN cc ON cc.url_surtkey = f.url_surtkey\n" +
	"       AND cc.warc_name = f.warc_filename\n" +
	"       AND cc.warc_record_offset = CASE WHEN f.source_format = 'warc-capture'\n" +
	"                                        THEN f.warc_record_offset\n" +
	"                                        ELSE f.warc_record_offset + f.warc_record_length END\n" +
	"ORDER BY f.fetch_time;\n" +
	"```\n\n" +
	"For fetches from logs (no WARC), join on `url_surtkey` alone, or on\n" +
	"`url_surtkey` and the day of `fetch_time`. `violations` carries the same join\n" +
	"columns for findings about a WARC record, and `retention` (one row per archived\n" +
	"record, with its own `warc_record_offset`; its `warc_filename` is the path as\n" +
	"given) joins on `url_surtkey`, `parse_filename(warc_filename)` and\n" +
	"`warc_record_offset` directly.\n"
