// Package accesslog reads web server and CDN access logs as a stream of
// event.Fetch values, one per request line, for the audit to judge.
//
// Formats: Apache/nginx combined, common and vhost_combined (also with an
// X-Forwarded-For list as the client field: Fetch.ClientIP is its first
// address, Fetch.ForwardedFor the chain); nginx JSON (keys named after
// nginx variables) and the JSON shape Matomo recommends; Caddy and Traefik
// JSON; AWS CloudFront standard logs, Application and Classic Load
// Balancer logs and S3 server access logs; HAProxy HTTP logs (with their
// syslog prefix); Cloudflare Logpush http_requests; Fastly JSON; IIS/W3C
// extended (also quoted values as IIS Advanced Logging and Incapsula write
// them, space-aligned columns as Oracle Web Cache writes them, date-local
// and time-local). Input may be plain, gzip (also multi-member, as
// logrotate and CDNs write it), bzip2 or zstd, detected from magic bytes by
// the one opener of every repaudit input (internal/decompress); the format
// is detected from the first lines (see Detect) unless Options.Format names
// it. docs/semantics.md says which field of each format lands in which
// Fetch field.
//
// Lines that record no request (a TCP connection in an ELB log, Apache's
// "-" 408 line for a connection closed before any request, a proxy
// event in an HAProxy log) are skipped with an info Problem
// (CodeNotRequest); a file of which no line could be read ends with a
// CodeNothingRead problem naming the format its lines came closest to
// (see Closest).
//
// # Usage
//
//	r, err := accesslog.NewReader(file, path, accesslog.Options{})
//	if err != nil {
//		return err // unknown format (errors.Is(err, accesslog.ErrUnknownFormat)), bad gzip header
//	}
//	for {
//		f, err := r.Next()
//		for _, p := range r.Problems() {
//			report(p) // a skipped or leniently read line, with file and line number
//		}
//		if err == io.EOF {
//			break
//		}
//		if err != nil {
//			return err // a read error of the underlying file; sticky
//		}
//		judge(f)
//	}
//
// r.All() offers the same loop as a range-over-func iterator; call
// Problems after it (or during it) to collect the problems.
//
// # Lifetimes
//
// Next returns a pointer to a Fetch owned by the Reader, and the Fetch's
// Header slice is reused too: both are overwritten by the next call to
// Next. Strings in them are ordinary immutable strings and may be kept;
// copy the Fetch (and clone its Header) to keep the whole value. This is
// what lets the reader parse a combined line with about one small
// allocation: the Apache/nginx text formats are parsed in place in the
// read buffer, then the target is copied and the fields that repeat
// (method, host, user agent, referer) are interned per Reader; the other
// formats convert each line to one string of which every field is a
// substring. Values that hold escapes are decoded into new strings.
//
// # Malformed input
//
// Real logs hold junk: TLS handshakes sent to port 80, truncated lines,
// lines from another format after a configuration change. A line that
// cannot be used is skipped and reported as an event.Problem with
// Source{File, Line, Offset: -1}, a stable code (CodeUnparsedLine,
// CodeBadTime, CodeLineTooLong, ...) and a capped excerpt; a line read
// only partly (CodeBadRequest, CodeBadField) is returned and reported as a
// warning. Lines are capped at Options.MaxLine bytes (1 MiB by default).
// A compressed input cut short yields every line before the cut, then a
// CodeTruncated problem and io.EOF.
//
// # Escaping and signatures
//
// Web Bot Auth signatures (RFC 9421) are checked against header values
// as the client sent them, so values are unescaped exactly: Apache's \"
// \\ and \xHH, nginx's \xHH (nginx writes '"' as \x22), JSON escapes for
// escape=json formats, CloudFront's percent-encoding (decoded once) and
// IIS's '+' for spaces. Fetch.SignatureRecorded tells whether the format
// would have shown Signature and Signature-Input had the client sent them;
// for the text formats name the logged extra headers with
// Options.ExtraHeaders.
package accesslog
