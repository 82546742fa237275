// Package surt makes SURT keys (Sort-friendly URI Reordering Transform):
// the index keys of CDX and CDXJ files and of pywb's access-control lists.
//
// Key reproduces what the Python surt library returns for surt.surt(url)
// with its default options, which is pywb's default canonicaliser
// (pywb/utils/canonicalize.py, canonicalize: surt.surt(url)). The library
// ports the Java archive-commons classes WaybackURLKeyMaker,
// GoogleURLCanonicalizer and IAURLCanonicalizer; the steps, in order:
//
//  1. Parse (handyurl.parse): trim ASCII whitespace at both ends and
//     remove every tab, CR and LF; add "http://" when the text does not
//     start with a scheme ("[a-zA-Z][a-zA-Z0-9+.-]*:"; so "host:8080/x"
//     has the scheme "host"); collapse repeated "http://" or "https://"
//     prefixes to the last one; split per RFC 2396 appendix B. User
//     information is dropped, the port must be decimal 0-65535 (anything
//     else is an error) and port 0 counts as none. For http(s) URLs with
//     an empty authority ("http:////host/x") the host is the first path
//     segment.
//  2. Google canonicalisation: drop the fragment; unescape the query and
//     path repeatedly and escape them once; unescape the host, convert a
//     non-ASCII host with IDNA ToASCII, turn ".." into "." and trim dots;
//     a host that is all digits is a 32-bit IPv4 address, a dotted
//     decimal or octal host is read as inet_aton reads it; other hosts are
//     lower-cased and escaped once. Dot segments in the path are resolved
//     and empty segments dropped, an empty path becomes "/". Escaping
//     encodes space, controls, '#', '%' and every byte at or above 0x7F as
//     %XX.
//  3. IA canonicalisation: lower-case the host, drop a leading "www." or
//     "www<digits>."; drop the default port (80 for http, 443 for https);
//     lower-case the path, strip ASP.NET session ids from it and drop a
//     trailing slash unless the path is "/"; strip jsessionid, phpsessid,
//     sid, ASPSESSIONID and cfid/cftoken session ids from the query,
//     lower-case it and sort its arguments (by name, then value, as byte
//     strings); drop an empty query.
//  4. Write: the host's labels reversed and joined with commas (IP
//     addresses too: the library's default reverse_ipaddr is true), the
//     port if any, ")", then path and query. No scheme: "http" and
//     "https" URLs share a key. A URL with no host keeps "scheme:" before
//     its path ("dns:example.com").
//
// For example:
//
//	key, err := surt.Key("http://www.Example.com/Path?b=2&a=1")
//	// key == "com,example)/path?a=1&b=2"
//
// AppendKey appends the key to a caller's buffer instead, for loops that
// make one key per record:
//
//	buf = buf[:0]
//	buf, err = surt.AppendKey(buf, rawURL)
//
// Most crawled URLs (a lower-case http or https scheme, a plain host name,
// printable ASCII with no escapes, no dot segments or session ids) take a
// fast path that writes the key in one pass: Key then allocates only the
// returned string and AppendKey nothing once buf has grown. Other URLs go
// through the steps above one by one; both give the same keys.
//
// Two things are approximations of the library, both rare in crawled URLs:
// non-ASCII hosts go through UTS #46 transitional processing
// (golang.org/x/net/idna), which agrees with Python's IDNA 2003 codec for
// ordinary names, and a dotted host inet_aton cannot read (for example
// "1.2.3.456") is kept as a name where the library would ask the system
// resolver and keep it as a name too when that fails.
//
// As in the library, an empty URL gives "-" and text starting with
// "filedesc" is returned unchanged (ARC file headers).
package surt
