package warc

import (
	"io"
	"strings"
)

// Options configures a Reader. The zero value is ready to use.
type Options struct {
	// BodyLimit returns how many payload bytes to keep for a record (after
	// removing chunked transfer coding and gzip/deflate/br/zstd content
	// coding); nil means DefaultBodyLimit. targetURI is the
	// WARC-Target-URI, contentType the lower-cased media type without
	// parameters, status the HTTP status (0 for records without one).
	// Values above MaxBodyLimit are clamped to it.
	BodyLimit func(targetURI, contentType string, status int) int
	// Resolver, when set, remembers every response and resource capture
	// the Reader returns and resolves revisit records against it (see
	// Resolver). It may be shared by Readers running in parallel.
	// Capture.Body is then read-only: the Resolver may keep the very
	// buffer the Reader returns (and it stays valid until the next call
	// to Next, as without a Resolver).
	Resolver *Resolver
	// Origin, when set with a Resolver, is the input itself (the bytes
	// the Reader reads, from the first) readable at any offset, such as
	// the *os.File of a regular file. The Resolver then keeps where each
	// response and resource record is stored rather than a copy of its
	// body, and reads the body again from Origin when a revisit refers
	// to it (for records in gzip members of their own and uncompressed
	// files; others are copied as without Origin). Origin must stay
	// readable as long as the Resolver may resolve revisits, and is only
	// read through ReadAt, which may be called from another Reader's
	// goroutine when the Resolver is shared.
	Origin io.ReaderAt
	// Reuse lets the Reader reuse the memory of the records it returns:
	// a Record, its Fetch or Capture, their headers and every string in
	// them stay valid only until the next call to Next, not just
	// Capture.Body (the Record's Type excepted: it may be kept). It is
	// for callers that look at each record and keep nothing, such as
	// counting (repaudit inspect): the reader then allocates almost
	// nothing per record. Ignored when Resolver is set, which keeps
	// captures.
	Reuse bool
	// ReuseRecords lets the Reader reuse the Record, Fetch and Capture
	// values it returns and their Header, WARCHeader and ConcurrentTo
	// slices for a later record: they are valid only until the next call
	// to Next. The strings in them are not reused and may be kept. It is
	// for callers that copy what they keep of a record (the audit's
	// model builder and spools), and works with a Resolver, which then
	// copies the header it keeps. Reuse, where it applies, reuses more.
	ReuseRecords bool
	// ReadAhead inflates a gzip or zstd input on a goroutine of its own,
	// up to 512 KiB ahead of the parser, so that reading one file keeps
	// two cores busy. The records and problems are those read without
	// it. The goroutine stops at the end of the input or at Close.
	ReadAhead bool
}

// Body limits used by DefaultBodyLimit.
const (
	RobotsBodyLimit = 500<<10 + 1 // RFC 9309 §2.5: 500 KiB, plus one byte to see truncation
	JSONBodyLimit   = 1 << 20     // signature agent cards, key directories, IP range lists
	HTMLBodyLimit   = 64 << 10    // enough for the <head> and its meta robots tags
)

// DefaultBodyLimit keeps 500 KiB + 1 byte for URIs whose path is
// /robots.txt (so the robots parser can see truncation, RFC 9309 §2.5),
// 1 MiB for JSON (signature agent cards, key directories, IP lists: content
// type application/json, application/jwk-set+json, any +json type, or
// paths under /.well-known/), 64 KiB for HTML and XHTML, 0 otherwise.
func DefaultBodyLimit(targetURI, contentType string, status int) int {
	path := uriPath(targetURI)
	switch {
	case path == "/robots.txt":
		return RobotsBodyLimit
	case strings.HasPrefix(path, "/.well-known/"),
		contentType == "application/json",
		contentType == "application/jwk-set+json",
		strings.HasSuffix(contentType, "+json"):
		return JSONBodyLimit
	case contentType == "text/html", contentType == "application/xhtml+xml":
		return HTMLBodyLimit
	}
	return 0
}

// uriPath returns the path of an absolute or origin-form URI without
// allocating: the part after the authority, up to '?' or '#'.
func uriPath(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		j := strings.IndexAny(u, "/?#")
		if j < 0 || u[j] != '/' {
			return "/"
		}
		u = u[j:]
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return u
}

// mediaType returns the lower-cased media type of a Content-Type value,
// without parameters.
func mediaType(v string) string {
	if i := strings.IndexByte(v, ';'); i >= 0 {
		v = v[:i]
	}
	v = strings.TrimSpace(v)
	for i := 0; i < len(v); i++ {
		if c := v[i]; 'A' <= c && c <= 'Z' {
			return strings.ToLower(v)
		}
	}
	return v
}
