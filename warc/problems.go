package warc

import (
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// Problem severities, re-exported for readability at the call site.
const (
	SevError   = event.SevError
	SevWarning = event.SevWarning
	SevInfo    = event.SevInfo
)

// Problem codes, named here for the call sites (package problem holds the
// one registry, with each code's severity and meaning). They are stable:
// users count and filter by them. The severity a code is reported with is
// also given in its comment; "error" means a record (or part of the
// input) could not be used.
const (
	// Input level.
	CodeTruncated          = problem.WARCTruncated          // error: input ends inside a record or compressed member
	CodeCorruptCompression = problem.WARCCorruptCompression // error: a gzip member or zstd frame does not decode; skipped to the next
	CodeTrailingGarbage    = problem.WARCTrailingGarbage    // error: stored bytes that are not a gzip member / zstd frame
	CodeGzipChecksum       = problem.WARCGzipChecksum       // warning: a gzip member's CRC or size does not match (data kept)
	CodeZstdDictionary     = problem.WARCZstdDictionary     // error: the .warc.zst dictionary frame is unusable
	CodeZstdWindow         = problem.WARCZstdWindow         // error: a zstd frame needs a window over the limit (internal/decompress); skipped
	CodeSharedMember       = problem.WARCSharedMember       // info: records share compression members; their offsets count decompressed bytes
	CodeProblemsDropped    = problem.WARCProblemsDropped    // warning: more problems than the reader keeps between Problems calls

	// Record level.
	CodeGarbage          = problem.WARCGarbage          // error: bytes between records that are not a record were skipped
	CodeNoContentLength  = problem.WARCNoContentLength  // error: record without Content-Length, skipped
	CodeBadContentLength = problem.WARCBadContentLength // error: Content-Length not a non-negative integer, record skipped
	CodeHeaderTooLong    = problem.WARCHeaderTooLong    // error: WARC header block over the limit, record skipped
	CodeHeaderLine       = problem.WARCHeaderLine       // warning: WARC header line without a colon, ignored
	CodeBadDate          = problem.WARCBadDate          // warning: WARC-Date missing or unparseable
	CodeImpreciseDate    = problem.WARCImpreciseDate    // warning: WARC-Date without seconds or zone; the message says the time used
	CodeMissingType      = problem.WARCMissingType      // warning: record without WARC-Type
	CodeMissingNewlines  = problem.WARCMissingNewlines  // info: record not followed by the two CRLF of WARC 1.1 §4
	CodeARCHeader        = problem.WARCARCHeader        // error: ARC record header line unparseable, skipped
	CodeLengthPastMember = problem.WARCLengthPastMember // error: Content-Length runs past the record's own gzip member / zstd frame; kept up to it, reading goes on at the next

	// HTTP and payload level.
	CodeHTTPStatusLine = problem.WARCHTTPStatusLine // warning: block declared HTTP but has no parseable status/request line
	CodeHTTPHeaderLine = problem.WARCHTTPHeaderLine // warning: HTTP header line without a colon, ignored
	CodeHTTPHeaderLong = problem.WARCHTTPHeaderLong // warning: HTTP header over the limit; fields past it ignored, body not read
	CodeBadChunk       = problem.WARCBadChunk       // warning: chunked transfer coding broken; body kept up to the break
	CodeNotChunked     = problem.WARCNotChunked     // info: header says chunked but the payload is not; taken as is
	CodeNotEncoded     = problem.WARCNotEncoded     // info: header names a content coding the payload does not have; taken as is
	CodeDecode         = problem.WARCDecode         // warning: content decoding failed part way; body kept up to the failure
	CodeUnknownCoding  = problem.WARCUnknownCoding  // warning: content coding not supported; body left encoded
	CodeRevisitReread  = problem.WARCRevisitReread  // warning: a revisit's original could not be read again from the input (Options.Origin); the revisit is left unresolved
)

// maxPending is the number of problems kept between calls to Problems.
const maxPending = 10000
