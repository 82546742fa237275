// Package warc reads WARC (ISO 28500, WARC 1.0 and 1.1, and the 0.17/0.18
// drafts) and Internet Archive ARC (v1, v2) files as a stream of records
// carrying the events the audit works on: an [event.Fetch] for each request
// record and an [event.Capture] for each response, resource, revisit and
// metadata record, each with the exact place it was read from.
//
// # Usage
//
// A Reader is shaped like archive/tar's: Next returns the next record until
// io.EOF; All wraps it as an iterator. Problems returns what was wrong with
// the input since the last call.
//
//	r, err := warc.NewReader(f, path, warc.Options{})
//	if err != nil {
//		return err // not a WARC or ARC file, or an I/O error
//	}
//	for rec, err := range r.All() {
//		if err != nil {
//			return err // I/O error of f; the same error on every later call
//		}
//		switch {
//		case rec.Fetch != nil: // a request record
//		case rec.Capture != nil: // response, resource, revisit, metadata
//		case rec.Info != nil: // a warcinfo record's fields, or an ARC filedesc's XML metadata
//		}
//		for _, p := range r.Problems() { ... } // or once at the end
//	}
//
// Malformed input is data, not an error: a record that cannot be read
// (no Content-Length, a header over the limit, a corrupt gzip member, bytes
// that are not a record) is reported as an [event.Problem] with a stable
// code (the Code constants) and a location, and reading goes on with the
// next record. A truncated file yields every complete record before the
// cut, one warc-truncated problem saying where it was cut, then io.EOF.
// Only an error of the underlying io.Reader ends reading with an error.
//
// # Lifetimes
//
// A Record, its Fetch or Capture, their headers and strings stay valid
// after the next call to Next and may be kept. Capture.Body does not: its
// buffer is reused, so copy it to keep it. (Bodies of revisits resolved by
// a Resolver are shared read-only copies and do stay valid.) Nothing is
// written to disk and memory is bounded: headers are capped (128 KiB WARC,
// 128 KiB HTTP), bodies are read only up to Options.BodyLimit (by default
// what the audit needs: robots.txt, JSON cards and key directories, the
// start of HTML pages) and the rest of each block is skipped without being
// kept. Bodies are read when the record is parsed, which can be up to 8
// records before Next returns it (see pairing below).
//
// Options.Reuse is for callers that keep nothing (repaudit inspect
// counts): the Reader then reuses each record's memory, its strings
// included, for a later record, so everything but Record.Type is valid
// only until the next call to Next, and reading allocates almost nothing
// per record. Options.ReuseRecords is for callers that copy the values
// they keep and keep strings (the audit): the Record, Fetch and Capture
// values and their Header, WARCHeader and ConcurrentTo slices are reused
// for a later record, but every string stays an allocation of its own
// and may be kept. Unlike Reuse it works with a Resolver, which then
// keeps a copy of each remembered header.
//
// # Offsets
//
// Source.Offset and Source.Length say where a record is stored, so a person
// (or a CDX index) can seek to it: for plain files the byte offset of the
// "WARC/" line and the length through the two CRLF after the block; for
// .warc.gz with one gzip member per record (the normal case, WARC 1.1
// Annex D) the offset and length of the record's gzip member; likewise for
// .warc.zst frames. When a record does not sit in members of its own
// (whole-file gzip, or several records per member), no stored offset can
// locate it: Source counts bytes of the decompressed stream instead,
// Record.Decompressed is set, Compression says "gzip-whole-file" or
// "gzip-multi-record-members", and one warc-shared-gzip-member problem
// (info) says so. Offsets are 64-bit throughout.
//
// Problems are located at the stored offset of the compression member in
// which they were found (for plain files, at the offset of the record).
//
// # Compression and format
//
// NewReader tells compression and format from the first bytes, not the
// name: gzip (decoded one member at a time, so every member boundary is
// known and records sharing a member are all read), zstd (one frame at a
// time; the dictionary in a leading skippable frame, raw or itself
// compressed, as the WARC zstd specification describes, is loaded), or
// none; then "WARC/" or an ARC "filedesc://" line.
//
// With Options.ReadAhead, gzip members and zstd frames are inflated on a
// goroutine of its own, up to 512 KiB ahead of the parser, so one file
// keeps two cores busy. The parser meets every member boundary and
// every stream error (a cut, skipped corrupt data, the end) at the
// decompressed offset where it would have met them, so the records are
// the same (TestReadAheadSame, FuzzReadAhead). A problem the decoder
// meets at a member's end (a bad checksum, corrupt data) is reported
// when the parser first reads from the producer's Read that met it,
// which may begin elsewhere in that member than the parser's own Read
// would have: only its order among the parser's problems about the
// same record can differ. Call Close when stopping before io.EOF.
//
// # HTTP messages
//
// The HTTP header in request and response blocks is parsed here,
// tolerantly, because archives hold what servers sent: "HTTP/2 200" status
// lines, header lines without a colon (reported, skipped), white space
// before the colon (trimmed from the name), obs-fold continuation lines,
// "\n", "\r\n" and "\r\r\n" line ends, any Content-Length value. Order and
// duplicates are kept ([event.Header]). Payloads lose chunked transfer
// coding (RFC 9112 §7.1) and gzip, deflate, br and zstd content coding
// (RFC 9110 §8.4) — only the codings the current header names: Common
// Crawl renames the fields to X-Crawler-* when it stored the decoded
// payload. A payload that does not carry the coding its header names is
// taken as is (reported as info).
//
// # Pairing and revisits
//
// A request record's Fetch.Status is taken from its response: the record
// linked by WARC-Concurrent-To (either direction) among the 8 records
// before and after it, which covers wget (request, response) and Heritrix
// (response, request, metadata). Records are still returned in file order.
//
// A [Resolver], set in Options, remembers response and resource captures
// and fills revisit records from their original (WARC 1.1 §6.7), by
// WARC-Refers-To or by payload digest and URI; it may be shared by readers
// of several files. With Options.Origin (the input, readable at any
// offset) it keeps where each original is stored instead of a copy of its
// body, and reads the body again when a revisit refers to it.
//
// # Writing
//
// Writer writes WARC/1.1 records, one gzip member each (WARC 1.1 Annex
// D.2), with the header fields the caller gives in order and the
// Content-Length it computes; WriteWarcinfo, WriteExchange (request and
// response paired by WARC-Concurrent-To, or a response alone) and
// WriteResource build the usual records with SHA-256 digests. Record IDs
// come from WriterOptions.NewID (random UUIDs by default; the demo
// generator passes a counter so its files are reproducible). The
// repaudit commands that fetch ("cards fetch", "robots history") and the
// demo generator all write through it.
//
// # Why not gowarc
//
// The module requires github.com/nlnwa/gowarc (v1.6.0), and this package's
// tests use it as a differential check (TestAgreesWithGowarc) and a speed
// reference (BenchmarkGowarcLenient), but the reader parses WARC headers
// itself. A WARC header block is simple (version line, "Name: value"
// lines, empty line, Content-Length bytes of block). On well-formed files,
// uncompressed or gzip per record, both readers report the same records
// with the same stored offsets. Where they differ, gowarc (read leniently,
// WithNoValidation) does not meet this package's contract; each of these
// is a case of TestAgreesWithGowarc, so a gowarc upgrade that changes one
// shows up there:
//
//   - several records in one gzip member (whole-file gzip included): gowarc
//     returns the first record of each member and silently loses the rest;
//     this reader returns them all (with a warc-shared-gzip-member
//     problem, since their stored offsets cannot be addressed);
//   - zstd-compressed WARC and ARC files: gowarc returns no record and no
//     error; this reader reads both;
//   - header lines ending in "\r\r\n": gowarc fails at the first record
//     ("missing End of WARC-Fields marker"); this reader reads them;
//   - an unknown WARC-Block-Digest algorithm stops gowarc even with
//     validation off ("unsupported digest algorithm");
//   - a record without Content-Length: gowarc returns it; this reader
//     reports it and skips it, since where its block ends is unknown;
//   - a file clipped inside its last record's block: gowarc returns the
//     clipped record; this reader reports warc-truncated and keeps only
//     complete records;
//   - the HTTP header of a response: gowarc parses it with
//     net/http.ReadResponse and keeps no header at all when that fails,
//     so "HTTP/2 200", a line without a colon, "Content-Length: -1" or
//     "X-Robots-Tag : noindex" lose the X-Robots-Tag this reader keeps
//     (TestHTTPHeadersVsGowarc; with WithNoValidation gowarc does not
//     parse the HTTP header at all).
//
// Speed is no reason either: with validation off gowarc spends about as
// much CPU per byte as this reader does while it also parses HTTP headers
// and decodes bodies (BenchmarkGowarcLenient against BenchmarkIngest).
// Reading member by member with klauspost/compress and parsing the few
// header lines directly keeps reading within a few percent of the CPU
// cost of gunzip alone when nothing is kept (BenchmarkInspect against
// BenchmarkGunzip, cpu-MB/s; bench/inspect compares `repaudit inspect`
// with gunzip on a generated 1 GB crawl).
package warc
