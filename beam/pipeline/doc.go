// Package pipeline runs repaudit's audit as an Apache Beam pipeline, so
// that one evaluation scales past one machine: in process on the Prism
// runner, or on Flink, Spark and Google Cloud Dataflow through the
// portable runner. It writes the same rows as `repaudit audit` (the same
// packages decide every verdict), as Parquet part files that DuckDB and
// `repaudit report` / `repaudit query` read as one table each.
//
// # Shape
//
//	files ──read (one element per file)──┬─ events keyed by host[:port] ─────────┐
//	                                     ├─ robots-like captures keyed by URL ─┐  │
//	                                     ├─ redirect requests (URL ← partition)┤  │
//	                                     │      five rounds of CoGroupByKey ───┴─→│ (targets of robots.txt redirects)
//	                                     ├─ shared facts (latest time, archive UAs) ─── combined, each WARC
//	                                     │      file's crawler settled once (settleFn) ─── side input
//	                                     ├─ captured cards, key sets, IP lists ──────── side input
//	                                     ├─ problems ─→ part files
//	                                     └─ file summaries ──────────────────────────── finalize
//	GroupByKey(host[:port]) → per partition: evaluate.Builder → BuildPartition →
//	    judge its fetches in time order (Judge, Tracker) → WriteTables → part files
//	finalize: move the part files into DIR/<table>/part-NNNNN.parquet, write manifest.json last
//
// A large local plain-text log is read in byte ranges side by side, and a
// per-file step (fileFn) puts line numbers, the problem cap and the
// manifest entry back together (split.go). Host-less events (log lines of
// the site, the site's own robots.txt versions from --robots,
// --robots-git, --robots-dir, read once by the launcher) are routed to the
// site settled over all inputs (routeFn, evaluate.Shared.SettleSite).
// Event batches are sealed with zstd. The judging stage reads its world
// (shared facts, identity documents, line offsets) from a file worldFn
// writes from those side inputs, not from side inputs (world.go). An
// input-unreadable problem counts in the repaudit/inputs-failed counter
// (FailedInputs), and the command
// exits 2 on it, as `repaudit audit` does.
//
// A partition is a host[:port] (both schemes, because a request without a
// scheme picks one from the timelines of its host). Everything a verdict
// needs is in the partition, except facts that are the same for all: the
// bot catalog and --card/--jwks/--ip-ranges files (loaded by every worker),
// cards, key sets and IP lists captured in WARCs and the latest time and
// WARC request User-Agents (side inputs), and the captures a robots.txt
// redirect leads to on another host (joined by URL, one round per hop).
//
// # Memory
//
// GroupByKey hands a partition's values over in no order. The worker keeps
// the partition's model (robots.txt versions, bots' own robots.txt fetches,
// compact capture summaries, listing entries) and its fetches, each a
// compact event of a few hundred bytes, sorts the fetches by (time, input
// file, position in the file) — the order `audit` merges them in — and
// judges them. So a worker needs memory for the largest host's fetches:
// about 0.5 KB × fetches of that host (1 GB for 2M fetches of one host).
// A hot host (Config.HotFetches) is judged in shards keyed by (host,
// agent) instead, each with the host's whole model (hot.go).
//
// # Part files
//
// Each bundle of the read and evaluate stages writes its rows through
// output.Writer (the same schema as `audit`) into one part file per table,
// under DIR/.beam-tmp/; the finalize step, which runs once all parts are
// written, moves the parts of finished bundles into DIR/<table>/ and
// writes DIR/manifest.json last. Parts of retried bundles are never moved.
package pipeline
