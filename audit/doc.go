// Package audit runs a whole audit: it reads every input, builds the
// evaluation model, judges every fetch, and writes the output tables.
//
// It works in two passes over the inputs, so that memory grows with the
// number of authorities, robots.txt versions, cards, capture summaries and
// listing entries, never with the size of the logs:
//
//  1. Every file is read in parallel (one worker per core). Captures build
//     the robots.txt and directive timelines and the archive's retention
//     state; captured cards, key directories and IP lists build the
//     identity timelines; robots.txt fetches build each bot's own view.
//     Listings are read whole. The model is then frozen.
//  2. Files that hold fetches are read again (bodies skipped) and merged
//     into one stream in time order. Files are opened lazily in order of
//     their first timestamp, and a small reorder window per file absorbs
//     the slight disorder of real logs. Pass 2 is a pipeline of stages
//     (judge.go): the merger cuts the merged stream into batches, a pool
//     of -j workers judges them in any order, an orderer puts them back in
//     merged order and tracks crawl-delay and signature replay, which need
//     order, and the fetches and violations tables are each written by a
//     goroutine of their own. Every stage sees the batches in the merged
//     order, so the output is the same whatever the number of cores.
//     Pass 2 reads exactly the bytes pass 1 read and hashed, and checks
//     them as it goes: a file rotated or rewritten between the passes is
//     an input-changed error and a failed input (pass2.go). A log written
//     newest first is sorted whole when small, else reported.
//
// Inputs that cannot be read twice (standard input "-", pipes, process
// substitution, devices) are copied once to a spool beside the output
// before they are sniffed (spool.go); both passes read the copy, and the
// manifest names the input as given.
//
// Tables go through output.Writer, which makes them appear atomically.
package audit
