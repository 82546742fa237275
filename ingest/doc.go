// Package ingest turns command-line inputs into typed files and streams of
// events: it expands files, directories and globs, sniffs each file's kind
// from its content (never from its name alone), and drives the WARC, ARC
// and access log readers with one loop that counts what was read.
//
// Kinds: WARC and ARC archives, access logs (any format package accesslog
// detects), Signature Agent Cards, JWK Sets / key directories, published IP
// range lists, and index listings. Any of them may be plain, gzip (also
// multi-member), bzip2 or zstd: Sniff, Read and OpenDecompressed all go
// through one opener (internal/decompress), so no file is skipped or read
// raw because of its compression. OpenDecompressed is what callers use to
// read a listing or a document whole.
//
// Typical use:
//
//	files, skipped, err := ingest.Expand(args) // skipped: problems for directory entries not read
//	for _, path := range files {
//		f, err := ingest.SniffContext(ctx, path, "")
//		stats, err := ingest.Read(ctx, f, ingest.Options{}, ingest.Handler{
//			Fetch:   func(ft *event.Fetch) error { ... },   // valid during the call only
//			Capture: func(c *event.Capture) error { ... }, // valid during the call only
//			Problem: func(p event.Problem) { ... },
//		})
//	}
//
// Read never stops at a bad line or record: those become Problems. It
// returns an error only when the file cannot be read further (I/O error,
// unknown format), after delivering everything read before that point.
//
// Inputs are opened with Open, which gives up when ctx is done: a named
// pipe nobody writes to blocks its open(2), and must not hang the run deaf
// to Ctrl-C. WatchReads does the same for a read waiting on a pipe.
//
// An input that can be read only once (standard input, a pipe, process
// substitution) is sniffed with SniffReader, which reads its first bytes
// and returns a reader that gives them again followed by the rest, and is
// then read with ReadFrom on that reader: nothing is read twice. A File
// whose Spool is set is read from that copy while records and problems
// carry its Path (the name the user gave).
package ingest
