// Package wayback speaks the small part of the Internet Archive's Wayback
// Machine that "repaudit robots history" needs: the CDX server API
// (internetarchive/wayback, wayback-cdx-server/README.md) to list the
// captures of one URL, and raw replay URLs to get each capture's payload
// as it was archived.
//
// A CDX query with output=json answers a JSON array of rows, all strings;
// the first row names the fields (the fl= parameter chooses them and their
// order), and an empty result is "[]". Timestamps are 14 digits
// (yyyyMMddhhmmss, UTC); from= and to= take 1 to 14 digits and are
// inclusive, a shorter value covering the whole period it names.
// collapse=digest drops a capture whose digest equals the previous one's,
// so each remaining row starts a new version of the document. The status
// code is "-" for captures without one (revisits, some warc records).
//
// A raw replay URL is BASE/web/TIMESTAMP"id_"/ORIGINAL: the "id_" flag asks
// for the archived payload without the Wayback's rewriting or banner.
// The replay of a redirect answers a redirect whose Location is itself a
// replay URL; OriginalURL recovers the archived target from it.
//
// ParseCDX is lenient, as every parser in repaudit: a row that cannot be
// used is reported and skipped, and the rest are returned.
//
// History puts these together for one site's robots.txt: List runs the
// CDX query and chooses the captures (Select), Write fetches each one and
// writes it as a WARC response record dated at its capture time. A 4xx or
// 5xx capture is recorded from its CDX status alone, as RFC 9309
// §2.3.1.3 and §2.3.1.4 judge such answers by status; a capture that
// cannot be fetched is reported in its Result and the rest go on.
package wayback
