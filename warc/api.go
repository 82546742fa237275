package warc

import (
	"errors"
	"io"
	"iter"
	"mime"
	"strings"

	"github.com/repaudit/repaudit/event"
)

// Sentinel errors.
var (
	// ErrUnknownFormat is returned by NewReader when the input is neither a
	// WARC nor an ARC file (after removing any compression).
	ErrUnknownFormat = errors.New("warc: unknown format")
	// ErrNotImplemented is returned while the reader is being built.
	errNotImplemented = errors.New("warc: not implemented yet")
)

// Options configures a Reader. The zero value is ready to use.
type Options struct {
	// BodyLimit returns how many payload bytes to keep for a record (after
	// removing chunked transfer coding and gzip/deflate/br content coding);
	// nil means DefaultBodyLimit. status is 0 for records without an HTTP
	// status line; contentType is the lower-cased media type.
	BodyLimit func(targetURI, contentType string, status int) int
	// Resolver, when set, remembers every response and resource capture
	// and resolves revisit records against it (see Resolver). It may be
	// shared by Readers running in parallel.
	Resolver *Resolver
}

// Body limits used by DefaultBodyLimit.
const (
	RobotsBodyLimit = 500<<10 + 1 // RFC 9309 §2.5: 500 KiB, plus one byte to see truncation
	JSONBodyLimit   = 1 << 20
	HTMLBodyLimit   = 64 << 10
)

// DefaultBodyLimit keeps 500 KiB + 1 byte for URIs whose path is
// /robots.txt (so the robots parser can see truncation, RFC 9309 §2.5),
// 1 MiB for JSON (signature agent cards, key directories, IP lists: content
// type application/json, application/jwk-set+json, any +json type, or paths
// under /.well-known/), 64 KiB for HTML and XHTML, 0 otherwise.
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
		j := strings.IndexByte(u, '/')
		if j < 0 {
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

var _ = mime.ParseMediaType

// Record is one WARC or ARC record.
type Record struct {
	// Type is the WARC-Type: warcinfo, request, response, revisit,
	// resource, metadata, conversion, continuation. ARC records are
	// "response", except the filedesc header record, which is "warcinfo".
	Type string
	// Version is the version line: "WARC/1.0", "WARC/1.1", "WARC/0.17",
	// "WARC/0.18", ..., or "ARC/1", "ARC/2".
	Version string
	Fetch   *event.Fetch   // set for request records
	Capture *event.Capture // set for response, resource, revisit, metadata records
	// WARCHeader holds every WARC header field of the record in order (for
	// captures the same slice as Capture.WARCHeader). Nil for ARC records.
	WARCHeader event.Header
	Source     event.Source
	// Decompressed is true when Source.Offset and Source.Length count
	// bytes of the decompressed stream rather than stored bytes: the record
	// does not sit in a gzip member or zstd frame of its own (whole-file
	// gzip, several records per member). See SEMANTICS.md.
	Decompressed bool
}

// Reader reads WARC or ARC records from a stream. See the package
// documentation for the usage loop.
type Reader struct {
	name        string
	opts        Options
	format      string
	compression string
	problems    []event.Problem
	err         error
}

// NewReader detects compression (gzip per-record members, whole-file
// gzip, zstd including the WARC zstd dictionary frame, or none) and format
// (WARC or ARC) from the first bytes of r, not from name. name is only used
// in Source.File of records and problems.
func NewReader(r io.Reader, name string, opts Options) (*Reader, error) {
	return nil, errNotImplemented
}

// Next returns the next record; the record stays valid, but its
// Capture.Body only until the next call. Next returns io.EOF only at the
// end of input (a truncated input ends with io.EOF after a Problem saying
// where it was cut). A malformed record is reported via Problems and
// skipped. Only an unrecoverable condition (an I/O error of the underlying
// reader) returns another error, and then every later call returns it too.
func (r *Reader) Next() (*Record, error) {
	return nil, errNotImplemented
}

// All returns an iterator over the remaining records. It stops after the
// first error, which it yields (never io.EOF).
func (r *Reader) All() iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		for {
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(rec, err) || err != nil {
				return
			}
		}
	}
}

// Problems returns, and clears, the problems found since the last call, in
// file order. Because the reader looks a few records ahead to pair
// requests with responses, problems may belong to records Next has not
// returned yet.
func (r *Reader) Problems() []event.Problem {
	p := r.problems
	r.problems = nil
	return p
}

// Format returns "warc" or "arc".
func (r *Reader) Format() string { return r.format }

// Compression returns "gzip" (one gzip member per record),
// "gzip-whole-file" (one member holding many records),
// "gzip-multi-record-members" (several members, some holding several
// records), "zstd" or "none". It is final once Next has returned io.EOF.
func (r *Reader) Compression() string { return r.compression }

// BytesRead returns the stored (compressed) bytes consumed so far, for
// progress reporting.
func (r *Reader) BytesRead() int64 { return 0 }
