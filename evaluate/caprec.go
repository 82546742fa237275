package evaluate

import (
	"encoding/base32"
	"encoding/hex"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
)

// capRec is the compact summary of one archived capture kept for
// retention, directives and captures judged as archive fetches: 80
// bytes and one string, the URL as written followed by the record ID's
// 16 bytes when it has the standard form (recordIDBytes) and the payload
// digest's 20 when it is a SHA-1 in base32 (digestBytes). The normalized
// URL is the URL as written when that is already normal, as crawlers
// write it. What only some captures have is in a capExtra. Every field
// reads back exactly as AddCapture was given it: read them through the
// methods (rawURL, url, recordID, time, src, ...), not the fields.
type capRec struct {
	blob      string    // the URL as written, then the record ID's bytes (capUUID), then the digest's (capSHA1)
	dir       *dirSet   // nil when the capture carries no directive
	ext       *capExtra // nil when the capture has none of its fields
	file      *string   // the source file name, interned; nil for ""
	sec       int64     // time, UTC (time.Time{} is kept as its Unix time)
	offset    int64     // src.Offset
	length    int64     // src.Length
	nsec      int32     // time's nanoseconds
	status    int32     //
	hostEnd   int32     // url[schemeEnd+3:hostEnd] is host[:port], url[hostEnd:] the request-target
	schemeEnd uint8     // url[:schemeEnd] is the scheme; 0 when longer than 255 bytes: parts parses the URL
	rtype     uint8     // index of the WARC-Type in capTypes
	mimeIdx   uint8     // 0: no media type; 1..len(mediaTypes): mediaTypes[mimeIdx-1]; mimeOwn: ext.mime
	flags     uint8     // capRobots...
}

// Flags of a capRec.
const (
	cfRobots     = 1 << iota // the URL's path is /robots.txt
	cfUnresolved             // revisit without payload
	cfPaired                 // a WARC request record is concurrent to it (set by Build)
	cfHasConc                // ext.concKey is pairKey(file, first WARC-Concurrent-To)
	cfUsageCut               // the Content-Usage header was longer than maxUsageHeader and ext.usage holds its first members
	cfUUID                   // the record ID is the blob's 16 bytes after the URL
	cfSHA1                   // the payload digest is the blob's last 20 bytes
	cfOwnURL                 // the normalized URL is ext.url, not the URL as written
)

// mimeOwn is capRec.mimeIdx when the media type is ext.mime.
const mimeOwn = 255

// capExtra holds what only some captures have.
type capExtra struct {
	url      string      // normalized URL when it is not the URL as written (cfOwnURL)
	recordID string      // WARC-Record-ID when not kept in the blob
	digest   string      // WARC-Payload-Digest when not kept in the blob
	mime     string      // media type when not one of mediaTypes
	usage    string      // Content-Usage response header value (aipref attach §2), at most maxUsageHeader bytes
	loc      string      // a 3xx capture's Location, resolved and normalized; a robots.txt redirect chain may pass through it
	rev      *capRevisit // revisits only
	emb      *capEmbargo // Archive-Embargo response header
	concKey  pairHash    // pairKey(file, first WARC-Concurrent-To) when cfHasConc
	line     int64       // src.Line
}

// capFields is a capture summary spelled out, as newCapRec takes it.
type capFields struct {
	rawURL, url, recordID, digest, mime, usage, loc string

	time                         time.Time // UTC or zero
	src                          event.Source
	dir                          *dirSet
	rev                          *capRevisit
	emb                          *capEmbargo
	concKey                      pairHash
	status, hostEnd              int32
	schemeEnd, rtype             uint8
	isRobots, unresolved, paired bool
	hasConc, usageCut            bool
	file                         *string // the interned src.File; nil: made from src.File
}

// newCapRec makes the compact summary of f, in one allocation for its
// strings (and one for its capExtra when it needs one).
func newCapRec(f *capFields) *capRec {
	c := &capRec{dir: f.dir, sec: f.time.Unix(), nsec: int32(f.time.Nanosecond()), offset: f.src.Offset,
		length: f.src.Length, status: f.status, hostEnd: f.hostEnd, schemeEnd: f.schemeEnd, rtype: f.rtype,
		file: f.file}
	if c.file == nil && f.src.File != "" {
		s := f.src.File
		c.file = &s
	}
	var x capExtra
	id, uuid := recordIDBytes(f.recordID)
	dg, sha := digestBytes(f.digest)
	n := len(f.rawURL)
	if uuid {
		n += len(id)
	} else {
		x.recordID = f.recordID
	}
	if sha {
		n += len(dg)
	} else {
		x.digest = f.digest
	}
	if n == len(f.rawURL) {
		c.blob = strings.Clone(f.rawURL)
	} else {
		var sb strings.Builder
		sb.Grow(n)
		sb.WriteString(f.rawURL)
		if uuid {
			sb.Write(id[:])
		}
		if sha {
			sb.Write(dg[:])
		}
		c.blob = sb.String()
	}
	c.mimeIdx = mimeIndex(f.mime)
	if c.mimeIdx == mimeOwn {
		x.mime = f.mime
	}
	if f.url != f.rawURL {
		x.url = f.url
	}
	x.usage, x.loc, x.rev, x.emb, x.concKey, x.line = f.usage, f.loc, f.rev, f.emb, f.concKey, f.src.Line
	for _, fl := range []struct {
		on  bool
		bit uint8
	}{{f.isRobots, cfRobots}, {f.unresolved, cfUnresolved}, {f.paired, cfPaired}, {f.hasConc, cfHasConc},
		{f.usageCut, cfUsageCut}, {uuid, cfUUID}, {sha, cfSHA1}, {f.url != f.rawURL, cfOwnURL}} {
		if fl.on {
			c.flags |= fl.bit
		}
	}
	if x != (capExtra{}) {
		x.url, x.recordID, x.digest, x.mime = cloneStrings(x.url, x.recordID, x.digest, x.mime)
		x.usage, x.loc = strings.Clone(x.usage), strings.Clone(x.loc)
		c.ext = &x
	}
	return c
}

// cloneStrings copies four strings into one allocation.
func cloneStrings(a, b, c, d string) (string, string, string, string) {
	n := len(a) + len(b) + len(c) + len(d)
	if n == 0 {
		return "", "", "", ""
	}
	all := a + b + c + d
	i, j, k := len(a), len(a)+len(b), len(a)+len(b)+len(c)
	return all[:i], all[i:j], all[j:k], all[k:]
}

// mimeIndex is capRec.mimeIdx for the media type mt.
func mimeIndex(mt string) uint8 {
	if mt == "" {
		return 0
	}
	for i, k := range mediaTypes {
		if mt == k {
			return uint8(i + 1)
		}
	}
	return mimeOwn
}

func (c *capRec) has(flag uint8) bool { return c.flags&flag != 0 }

func (c *capRec) isRobots() bool   { return c.has(cfRobots) }
func (c *capRec) unresolved() bool { return c.has(cfUnresolved) }
func (c *capRec) paired() bool     { return c.has(cfPaired) }
func (c *capRec) hasConc() bool    { return c.has(cfHasConc) }
func (c *capRec) usageCut() bool   { return c.has(cfUsageCut) }

// setPaired sets whether a WARC request record is concurrent to c.
func (c *capRec) setPaired(on bool) {
	c.flags &^= cfPaired
	if on {
		c.flags |= cfPaired
	}
}

// urlLen is the length of the URL as written at the blob's start.
func (c *capRec) urlLen() int {
	n := len(c.blob)
	if c.has(cfUUID) {
		n -= 16
	}
	if c.has(cfSHA1) {
		n -= 20
	}
	return n
}

// rawURL is the URL as written (WARC-Target-URI).
func (c *capRec) rawURL() string { return c.blob[:c.urlLen()] }

// url is the normalized URL.
func (c *capRec) url() string {
	if c.has(cfOwnURL) {
		return c.ext.url
	}
	return c.rawURL()
}

// recordID is the WARC-Record-ID as written; "" when absent.
func (c *capRec) recordID() string {
	if c.has(cfUUID) {
		at := c.urlLen()
		return recordIDString(c.blob[at : at+16])
	}
	if c.ext == nil {
		return ""
	}
	return c.ext.recordID
}

// digest is the WARC-Payload-Digest as written; "" when absent.
func (c *capRec) digest() string {
	if c.has(cfSHA1) {
		return digestString(c.blob[len(c.blob)-20:])
	}
	if c.ext == nil {
		return ""
	}
	return c.ext.digest
}

// mime is the payload's media type (event.Capture.ContentType, as
// mediaType keeps it).
func (c *capRec) mime() string {
	switch c.mimeIdx {
	case 0:
		return ""
	case mimeOwn:
		return c.ext.mime
	}
	return mediaTypes[c.mimeIdx-1]
}

// time is when the capture was made, UTC; zero when unknown.
func (c *capRec) time() time.Time { return time.Unix(c.sec, int64(c.nsec)).UTC() }

// src is where the capture's record is.
func (c *capRec) src() event.Source {
	s := event.Source{Offset: c.offset, Length: c.length}
	if c.file != nil {
		s.File = *c.file
	}
	if c.ext != nil {
		s.Line = c.ext.line
	}
	return s
}

// usage is the Content-Usage header value kept (usageHeader); "" when
// absent.
func (c *capRec) usage() string {
	if c.ext == nil {
		return ""
	}
	return c.ext.usage
}

// loc is a 3xx capture's Location, resolved and normalized; "" when none.
func (c *capRec) loc() string {
	if c.ext == nil {
		return ""
	}
	return c.ext.loc
}

// emb is the capture's Archive-Embargo; nil when absent.
func (c *capRec) emb() *capEmbargo {
	if c.ext == nil {
		return nil
	}
	return c.ext.emb
}

// concKey is pairKey(file, first WARC-Concurrent-To) when hasConc.
func (c *capRec) concKey() pairHash {
	if c.ext == nil {
		return pairHash{}
	}
	return c.ext.concKey
}

// rev is what a revisit adds; nil for other records.
func (c *capRec) rev() *capRevisit {
	if c.ext == nil {
		return nil
	}
	return c.ext.rev
}

// fields spells c out.
func (c *capRec) fields() capFields {
	return capFields{rawURL: c.rawURL(), url: c.url(), recordID: c.recordID(), digest: c.digest(), mime: c.mime(),
		usage: c.usage(), loc: c.loc(), time: c.time(), src: c.src(), dir: c.dir, rev: c.rev(), emb: c.emb(),
		concKey: c.concKey(), status: c.status, hostEnd: c.hostEnd, schemeEnd: c.schemeEnd, rtype: c.rtype,
		isRobots: c.isRobots(), unresolved: c.unresolved(), paired: c.paired(), hasConc: c.hasConc(),
		usageCut: c.usageCut()}
}

// The standard WARC-Record-ID form (WARC 1.1 §5.2: a URI in angle
// brackets; RFC 9562 §4: a UUID's hex-and-dash string, written in lower
// case as crawlers do) is kept as its 16 bytes.
const (
	uuidPrefix = "<urn:uuid:"
	uuidLen    = len(uuidPrefix) + 36 + 1
)

// recordIDBytes returns the 16 bytes of a record ID of the form
// "<urn:uuid:xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx>" in lower-case hex, and
// whether id has that form exactly (recordIDString gives it back).
func recordIDBytes(id string) (b [16]byte, ok bool) {
	if len(id) != uuidLen || !strings.HasPrefix(id, uuidPrefix) || id[uuidLen-1] != '>' {
		return b, false
	}
	u := id[len(uuidPrefix) : uuidLen-1]
	k := 0
	for i := 0; i < 36; {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if u[i] != '-' {
				return b, false
			}
			i++
			continue
		}
		hi, ok1 := lowerHex(u[i])
		lo, ok2 := lowerHex(u[i+1])
		if !ok1 || !ok2 {
			return b, false
		}
		b[k] = hi<<4 | lo
		k++
		i += 2
	}
	return b, true
}

func lowerHex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// recordIDString is the record ID whose 16 bytes are b (recordIDBytes).
func recordIDString(b string) string {
	var buf [uuidLen]byte
	copy(buf[:], uuidPrefix)
	u := buf[len(uuidPrefix):]
	hex.Encode(u[0:8], []byte(b[0:4]))
	u[8] = '-'
	hex.Encode(u[9:13], []byte(b[4:6]))
	u[13] = '-'
	hex.Encode(u[14:18], []byte(b[6:8]))
	u[18] = '-'
	hex.Encode(u[19:23], []byte(b[8:10]))
	u[23] = '-'
	hex.Encode(u[24:36], []byte(b[10:16]))
	buf[uuidLen-1] = '>'
	return string(buf[:])
}

// A WARC-Payload-Digest "sha1:" and the base32 of 20 bytes (WARC 1.1
// §5.9 and its annex on digest values: labelled algorithm, base32 of
// RFC 4648 §6 as crawlers write SHA-1) is kept as its 20 bytes.
const sha1Prefix = "sha1:"

// digestBytes returns the 20 bytes of a digest "sha1:" + 32 base32
// characters, and whether digestString gives d back exactly.
func digestBytes(d string) (b [20]byte, ok bool) {
	if len(d) != len(sha1Prefix)+32 || !strings.HasPrefix(d, sha1Prefix) {
		return b, false
	}
	n, err := base32.StdEncoding.Decode(b[:], []byte(d[len(sha1Prefix):]))
	if err != nil || n != 20 || digestString(string(b[:])) != d {
		return b, false
	}
	return b, true
}

// digestString is the digest whose 20 bytes are b (digestBytes).
func digestString(b string) string {
	var buf [len(sha1Prefix) + 32]byte
	copy(buf[:], sha1Prefix)
	base32.StdEncoding.Encode(buf[len(sha1Prefix):], []byte(b))
	return string(buf[:])
}
