// Package audit runs a whole audit: it reads every input, builds the
// evaluation model, judges every fetch, and writes the output tables.
//
// It works in two passes, so that memory grows with the number of
// authorities, robots.txt versions, cards, capture summaries and listing
// entries, never with the size of the logs; every input is read once:
//
//  1. Every file is read in parallel (one worker per core), once,
//     through the input layer (package input, which the Beam pipeline
//     drives too; pass1.go is its sink here); the last logs and archives handed out are parsed on one goroutine
//     and spooled and built on another (pipe.go), so that one big log or WARC keeps two cores busy. Captures build the robots.txt and directive timelines
//     and the archive's retention state; captured cards, key directories
//     and IP lists build the identity timelines; robots.txt fetches build
//     each bot's own view. Listings are read whole. Every fetch goes to
//     the file's spool (spool.go: event.FetchWriter's compact coding, in
//     memory while small, else in a temporary directory beside the
//     output). The model is then frozen.
//  2. The spools (never the inputs) are read and merged into one stream
//     in time order (stream.go), decoded into slabs of fetches that are
//     recycled once written. Spools are opened lazily in order of
//     their first timestamp, and a small reorder window per file absorbs
//     the slight disorder of real logs (a file pass 1 saw in order skips
//     it; an archive's fetches went through the same window as pass 1
//     spooled them, window.go). Pass 2 is a pipeline of stages (judge.go): the merger cuts the
//     merged stream into batches, a pool of -j workers judges them in any
//     order, an orderer puts them back in merged order and tracks
//     crawl-delay and signature replay, which need order, and the fetches
//     and violations tables are each written by a goroutine of their own
//     (a third counts the fetches rows for the summary).
//     Every stage sees the batches in the merged order, so the output is
//     the same whatever the number of cores. A log written newest first
//     is sorted whole when small, else reported (pass2.go).
//
// execute runs the phases in order: prepare (expand, catalog, sniff),
// newBuilder (listings, robots.txt versions), readPass1, Build,
// judgePass2, writeTables, finish. Inputs that can be read only once
// (standard input "-", pipes, process substitution, devices) are sniffed
// from a buffered prefix and read on from there; the manifest names every
// input as given, with the size and SHA-256 of the bytes read and judged.
//
// Tables go through output.Writer, which makes them appear atomically.
package audit
