package warc

import "github.com/repaudit/repaudit/event"

// Problem severities, re-exported for readability at the call site.
const (
	SevError   = event.SevError
	SevWarning = event.SevWarning
	SevInfo    = event.SevInfo
)

// Problem codes. They are stable: users count and filter by them. The
// severity a code is reported with is given in its comment; "error" means
// a record (or part of the input) could not be used.
const (
	// Input level.
	CodeTruncated          = "warc-truncated"           // error: input ends inside a record or compressed member
	CodeCorruptCompression = "warc-corrupt-compression" // error: a gzip member or zstd frame does not decode; skipped to the next
	CodeTrailingGarbage    = "warc-trailing-garbage"    // error: stored bytes that are not a gzip member / zstd frame
	CodeGzipChecksum       = "warc-gzip-checksum"       // warning: a gzip member's CRC or size does not match (data kept)
	CodeZstdDictionary     = "warc-zstd-dictionary"     // error: the .warc.zst dictionary frame is unusable
	CodeZstdWindow         = "warc-zstd-window"         // error: a zstd frame needs a window over the limit (internal/decompress); skipped
	CodeSharedMember       = "warc-shared-gzip-member"  // info: records share compression members; their offsets count decompressed bytes
	CodeProblemsDropped    = "warc-problems-dropped"    // warning: more problems than the reader keeps between Problems calls

	// Record level.
	CodeGarbage          = "warc-garbage"                // error: bytes between records that are not a record were skipped
	CodeNoContentLength  = "warc-missing-content-length" // error: record without Content-Length, skipped
	CodeBadContentLength = "warc-bad-content-length"     // error: Content-Length not a non-negative integer, record skipped
	CodeHeaderTooLong    = "warc-header-too-long"        // error: WARC header block over the limit, record skipped
	CodeHeaderLine       = "warc-header-line"            // warning: WARC header line without a colon, ignored
	CodeBadDate          = "warc-bad-date"               // warning: WARC-Date missing or unparseable
	CodeImpreciseDate    = "warc-imprecise-date"         // warning: WARC-Date without seconds or zone; the message says the time used
	CodeMissingType      = "warc-missing-type"           // warning: record without WARC-Type
	CodeMissingNewlines  = "warc-missing-newlines"       // info: record not followed by the two CRLF of WARC 1.1 §4
	CodeARCHeader        = "warc-arc-bad-header"         // error: ARC record header line unparseable, skipped
	CodeLengthPastMember = "warc-length-past-member"     // error: Content-Length runs past the record's own gzip member / zstd frame; kept up to it, reading goes on at the next

	// HTTP and payload level.
	CodeHTTPStatusLine = "warc-http-status-line"       // warning: block declared HTTP but has no parseable status/request line
	CodeHTTPHeaderLine = "warc-http-header-line"       // warning: HTTP header line without a colon, ignored
	CodeHTTPHeaderLong = "warc-http-header-too-long"   // warning: HTTP header over the limit; fields past it ignored, body not read
	CodeBadChunk       = "warc-payload-bad-chunk"      // warning: chunked transfer coding broken; body kept up to the break
	CodeNotChunked     = "warc-payload-not-chunked"    // info: header says chunked but the payload is not; taken as is
	CodeNotEncoded     = "warc-payload-not-encoded"    // info: header names a content coding the payload does not have; taken as is
	CodeDecode         = "warc-payload-decode"         // warning: content decoding failed part way; body kept up to the failure
	CodeUnknownCoding  = "warc-payload-unknown-coding" // warning: content coding not supported; body left encoded
)

// maxPending is the number of problems kept between calls to Problems.
const maxPending = 10000
