package evaluate

import (
	"path"
	"strings"

	"github.com/repaudit/repaudit/surt"
)

// The columns below let researchers join the tables with a crawl's own
// index (Common Crawl's columnar index: warc_filename,
// warc_record_offset, content_digest, content_mime_type) without regular
// expressions over url or source_file.

// warcFilename returns the name a WARC file was stored under: the base
// name of the path as given (a local path or a URL of a filesystem), as
// Common Crawl's index path ends in it. The warcinfo record's
// WARC-Filename is not used: a file renamed after writing keeps the old
// name there, and a file without warcinfo has none.
func warcFilename(file string) string {
	if file == "" {
		return ""
	}
	return path.Base(strings.ReplaceAll(file, `\`, "/"))
}

// ccDigest returns a WARC-Payload-Digest value ("sha1:BASE32", WARC 1.1
// §5.9 labelled-digest) as Common Crawl's index writes content_digest:
// the base32 SHA-1 without its label. A digest of another algorithm keeps
// its label, so that it never equals a SHA-1 by accident.
func ccDigest(d string) string {
	d = strings.TrimSpace(d)
	if len(d) > 5 && strings.EqualFold(d[:5], "sha1:") {
		return d[5:]
	}
	return d
}

// mediaTypes are the media types most responses have, kept as constants
// so that a capture's does not cost an allocation.
var mediaTypes = [...]string{"text/html", "text/plain", "application/json", "text/css",
	"application/javascript", "text/javascript", "image/jpeg", "image/png", "image/gif",
	"application/xml", "text/xml", "application/pdf"}

// maxMediaType bounds a media type kept per capture: RFC 6838 §4.2
// allows 127 characters for each of type and subtype.
const maxMediaType = 255

// mediaType returns mt (already lower-case, without parameters) as a
// string of its own: a constant for the common ones, else a copy.
func mediaType(mt string) string {
	if mt == "" || len(mt) > maxMediaType {
		return ""
	}
	for _, k := range mediaTypes {
		if mt == k {
			return k
		}
	}
	return strings.Clone(mt)
}

// orHTTP returns scheme, or "http" when the source does not say.
func orHTTP(scheme string) string {
	if scheme == "" {
		return "http"
	}
	return scheme
}

// surtKey returns the SURT key of url as Common Crawl's index and pywb
// make it (package surt), or "" when the URL cannot be keyed (a port
// that is not a number, a URL longer than surt.MaxLen).
func surtKey(url string) string {
	if url == "" {
		return ""
	}
	k, err := surt.Key(url)
	if err != nil {
		return ""
	}
	return k
}
