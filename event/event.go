package event

import (
	"encoding/json"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/problem"
)

// Source is where an event came from, precise enough for a person to open
// the file and find it: a line for line-oriented logs, a byte offset and
// length for WARC records.
type Source struct {
	File   string // path as given to the reader
	Line   int64  // 1-based line number in line-oriented sources; 0 otherwise
	Offset int64  // byte offset of the record in the file as stored (compressed offset for gzip members); -1 when not applicable
	Length int64  // bytes the record occupies in the file as stored; 0 when unknown
}

// String renders the location as "file:line" or "file@offset".
func (s Source) String() string {
	switch {
	case s.Line > 0:
		return s.File + ":" + strconv.FormatInt(s.Line, 10)
	case s.Offset >= 0:
		return s.File + "@" + strconv.FormatInt(s.Offset, 10)
	default:
		return s.File
	}
}

// Field is one header line as received: name as written, value trimmed of
// surrounding white space.
type Field struct {
	Name  string
	Value string
}

// Header is an ordered list of header fields. Order and duplicates are kept
// because signature bases (RFC 9421 §2.1) join repeated fields in order.
type Header []Field

// Get returns the first value of the named field (case-insensitive), or "".
func (h Header) Get(name string) string {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Values returns every value of the named field (case-insensitive), in order.
func (h Header) Values(name string) []string {
	var vs []string
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			vs = append(vs, f.Value)
		}
	}
	return vs
}

// Has reports whether the named field is present at all.
func (h Header) Has(name string) bool {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}

// Origin says what kind of source produced an event.
const (
	OriginLog  = "log"
	OriginWARC = "warc"
)

// Fetch is one client request, seen in an access log line or a WARC request
// record.
type Fetch struct {
	Time     time.Time  // UTC
	ClientIP netip.Addr // invalid (zero) when the source does not say
	// ForwardedFor is the X-Forwarded-For chain when the log's client
	// field holds several addresses ("203.0.113.9, 10.0.0.1"), written
	// as a comma-and-space separated list; ClientIP is then its first
	// address. "" when the source logs one client address.
	ForwardedFor string
	Method       string // as sent; "" when unknown
	Scheme       string // "http" or "https"; "" when the source does not say
	Host         string // authority as requested, lower-cased, default port removed; "" when unknown
	Target       string // request-target as sent: raw path and query ("/a?b")
	Status       int    // status the server answered; 0 when unknown
	Bytes        int64  // response body bytes; -1 when unknown
	UserAgent    string
	Referer      string
	// Header holds every request header the source recorded, in order,
	// including User-Agent and Signature, Signature-Input, Signature-Agent
	// when present.
	Header Header
	// SignatureRecorded is true when this source would have recorded the
	// Signature, Signature-Input and Signature-Agent fields had the client
	// sent them (WARC request records; logs whose format carries those
	// fields). When false, absence of a signature proves nothing.
	SignatureRecorded bool
	// Body is the request body, kept only to check a covered
	// Content-Digest: WARC request records that carry Content-Digest,
	// with the chunked transfer coding removed and any content coding
	// kept, when whole and at most warc.MaxRequestBody. nil when not kept.
	Body []byte
	// CDNVerifiedBot is a CDN's own bot verification label when the log
	// carries one (Cloudflare VerifiedBotCategory); "" otherwise.
	CDNVerifiedBot string

	Origin       string   // OriginLog or OriginWARC
	Format       string   // log format name (combined, nginx-json, ...) or "warc"
	RecordID     string   // WARC-Record-ID of the request record
	ConcurrentTo []string // WARC-Concurrent-To of the request record
	// TargetURI is the WARC-Target-URI of a WARC request record: what
	// pairs it with its response whatever its Host header says (a
	// wrong Content-Length may cut that header); "" for logs.
	TargetURI string
	// PayloadDigest and ContentType come from the response a WARC
	// request record is paired with (see warc.Reader): its
	// WARC-Payload-Digest as written and the media type of its
	// Content-Type, lower-cased, without parameters; "" when the
	// request is not paired, the response has none, and for logs.
	PayloadDigest string
	ContentType   string
	Source        Source
}

// URL returns the absolute URL when scheme and host are known, otherwise the
// request-target alone.
func (f *Fetch) URL() string {
	if f.Host == "" {
		return f.Target
	}
	scheme := f.Scheme
	if scheme == "" {
		scheme = "http"
	}
	return scheme + "://" + f.Host + f.Target
}

// Capture is one archived HTTP exchange's response side (WARC response,
// resource or revisit record).
type Capture struct {
	Time       time.Time // WARC-Date, UTC
	URL        string    // WARC-Target-URI
	RecordType string    // "response", "resource", "revisit", "metadata"
	Status     int       // HTTP status; 0 when not an HTTP response or unparseable
	Proto      string    // e.g. "HTTP/1.1", "HTTP/2"
	Header     Header    // HTTP response header, parsed tolerantly; nil for resource records
	// Body is a prefix of the payload, with chunked transfer coding and
	// gzip/deflate/br content coding removed when possible, capped by the
	// reader. BodyTruncated says whether the cap cut it.
	Body          []byte
	BodyTruncated bool
	ContentType   string // media type of the payload, lower-cased, without parameters

	RecordID      string   // WARC-Record-ID
	ConcurrentTo  []string // WARC-Concurrent-To (may repeat)
	RefersTo      string   // WARC-Refers-To (revisits)
	RefersToURI   string   // WARC-Refers-To-Target-URI (revisits)
	RefersToDate  time.Time
	PayloadDigest string // WARC-Payload-Digest as written
	WARCTruncated string // WARC-Truncated value, "" when absent
	// Profile is the WARC-Profile of a revisit record; Resolved is set when
	// the reader replaced a revisit's status, header and body by those of
	// the original capture found in the same input.
	Profile  string
	Resolved bool
	// SourceURI is the WARC-Source-URI of the record: where the writer
	// got the payload when that is not the target URI itself (for
	// example the Wayback Machine capture 'repaudit robots history'
	// copied); "" when absent.
	SourceURI string
	// WARCHeader holds every WARC header of the record, including Common
	// Crawl's X-Crawler-* fields, in order.
	WARCHeader Header
	Source     Source
}

// Problem severities (package problem's, named here for the call sites
// that build an event.Problem).
const (
	SevError   = problem.Error   // input was lost: a record or line could not be used
	SevWarning = problem.Warning // input was read leniently or partly
	SevInfo    = problem.Info
)

// Problem is an input line, record or file that could not be used, or was
// read only leniently: one row of problems.parquet. Code is one of package
// problem's registered codes (for example problem.WARCTruncated,
// problem.LogUnparsedLine), stable so users can count and filter problems;
// Severity is the severity the registry gives it, or error for the row
// that sums up problems past the per-file cap.
type Problem struct {
	Source   Source
	Code     problem.Code
	Severity string
	Message  string
}

// Error makes a Problem usable as an error that names its location.
func (p *Problem) Error() string {
	return p.Source.String() + ": " + string(p.Code) + ": " + p.Message
}

// problemJSON is a Problem as JSON: its location flattened the way
// Source.String reads it (a line, else a byte offset, else the file).
type problemJSON struct {
	File     string       `json:"file"`
	Line     int64        `json:"line,omitempty"`
	Offset   *int64       `json:"offset,omitempty"`
	Code     problem.Code `json:"code"`
	Severity string       `json:"severity"`
	Message  string       `json:"message"`
}

// MarshalJSON writes p as {"file", "line" or "offset", "code",
// "severity", "message"}, the form 'repaudit inspect --json' prints.
func (p Problem) MarshalJSON() ([]byte, error) {
	j := problemJSON{File: p.Source.File, Line: p.Source.Line, Code: p.Code, Severity: p.Severity, Message: p.Message}
	if p.Source.Line == 0 && p.Source.Offset >= 0 {
		off := p.Source.Offset
		j.Offset = &off
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the form MarshalJSON writes; a missing offset is -1.
func (p *Problem) UnmarshalJSON(data []byte) error {
	var j problemJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*p = Problem{Source: Source{File: j.File, Line: j.Line, Offset: -1}, Code: j.Code, Severity: j.Severity, Message: j.Message}
	if j.Offset != nil {
		p.Source.Offset = *j.Offset
	}
	return nil
}
