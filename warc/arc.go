package warc

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/repaudit/repaudit/event"
)

// ARC files (Internet Archive ARC format, versions 1 and 2) are a list of
// records, each a header line of space-separated fields, a line end, and
// as many bytes as the header's last field says, followed by a line end.
// The first record, with a filedesc:// URL, describes the file; its
// content's first line starts with the version number ("1 0 ...", "2 0 ...").
//
//	v1: URL IP-address Archive-date Content-type Archive-length
//	v2: URL IP-address Archive-date Content-type Result-code Checksum
//	    Location Offset Filename Archive-length

// arcFileVersion reads the version from the start of an ARC file: the
// first token of the line after the filedesc header line.
func arcFileVersion(b []byte) int {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return 0
	}
	b = bytes.TrimLeft(b[i+1:], " \t")
	switch {
	case bytes.HasPrefix(b, []byte("1 ")):
		return 1
	case bytes.HasPrefix(b, []byte("2 ")):
		return 2
	}
	return 0
}

// arcHeader is a parsed ARC record header line.
type arcHeader struct {
	url, ip, date, contentType string
	length                     int64
	version                    int
}

// parseARCHeader parses an ARC header line. URLs containing spaces (seen
// in real files) are tolerated: fields are counted from the end. version
// is the file's declared version (0 when unknown).
func parseARCHeader(line string, version int) (arcHeader, bool) {
	f := strings.Fields(line)
	n := len(f)
	tail := 0
	switch {
	case n >= 10 && version != 1 && validARCDate(f[n-8]):
		tail = 9
	case n >= 5 && validARCDate(f[n-3]):
		tail = 4
	default:
		return arcHeader{}, false
	}
	length, err := strconv.ParseInt(f[n-1], 10, 64)
	if err != nil || length < 0 {
		return arcHeader{}, false
	}
	h := arcHeader{ip: f[n-tail], date: f[n-tail+1], contentType: f[n-tail+2], length: length, version: 1}
	if tail == 9 {
		h.version = 2
	}
	if n-tail == 1 {
		h.url = f[0]
	} else {
		h.url = strings.Join(f[:n-tail], "%20")
	}
	return h, true
}

func validARCDate(s string) bool {
	_, ok := parseDigits(s)
	return ok
}

// parseARC reads the next ARC record.
func (r *Reader) parseARC() (*item, error) {
	skipFrom := r.pos()
	if r.ms != nil {
		r.ms.trim(skipFrom)
	}
	if err := r.skipBlank(); err != nil {
		return nil, r.fail(err, -1)
	}
	start := r.pos()
	b, err := r.br.Peek(maxARCLine)
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		if err != nil {
			r.br.Discard(len(b))
			if len(b) > 0 {
				return nil, r.fail(orUnexpected(err), start)
			}
			return nil, r.fail(err, -1)
		}
		r.report(start, CodeARCHeader, SevError, fmt.Sprintf("ARC header line longer than %d bytes; skipped", maxARCLine))
		return nil, r.resyncARC(start, true)
	}
	line := strings.TrimRight(string(b[:i]), "\r")
	h, ok := parseARCHeader(line, r.arcVersion)
	if !ok {
		r.report(start, CodeARCHeader, SevError, fmt.Sprintf("unparseable ARC header line %q; skipped", clip(line, 80)))
		return nil, r.resyncARC(start, true)
	}
	var startB boundary
	startOK := false
	if r.ms != nil {
		startB, startOK = r.ms.lastBoundaryIn(skipFrom, start)
	}
	r.br.Discard(i + 1)
	err = nil
	version := r.arcVersion
	if version == 0 {
		version = h.version
	}
	rec := &Record{Type: "response", Version: "ARC/" + strconv.Itoa(version)}
	it := &item{rec: rec}
	r.blk.reset(r.br, h.length)
	if strings.HasPrefix(h.url, "filedesc://") {
		rec.Type = "warcinfo"
		// Its XML metadata (ARC v1.1) names the crawler as a WARC's
		// warcinfo does; a short block ends in endRecord's error.
		p, _ := r.blk.peek(MaxInfoBlock)
		rec.Info = parseARCMetadata(p)
	} else {
		t, ok := parseDigits(h.date)
		if !ok {
			r.report(start, CodeBadDate, SevWarning, fmt.Sprintf("ARC record date %q", clip(h.date, 40)))
		}
		c := &event.Capture{Time: t, URL: h.url, RecordType: "response"}
		rec.Capture = c
		it.resp, it.uri = true, h.url
		isHTTP := false
		if p, err := r.blk.peek(5); len(p) == 5 && strings.EqualFold(string(p), "HTTP/") {
			isHTTP = true
		} else if len(p) < 5 && int64(len(p)) < r.blk.n {
			return nil, r.fail(orUnexpected(err), start)
		}
		ct := mediaType(h.contentType)
		if ct == "no-type" || ct == "unk" || ct == "-" {
			ct = ""
		}
		err = r.readMessage(it, c, isHTTP, ct, start)
		if err == nil && isHTTP && c.ContentType == "" {
			c.ContentType = ct
		}
	}
	// ARC records need not end in line ends, so none missing is no news.
	it, _, err = r.endRecord(it, err, startB, startOK, start)
	return it, err
}

// orUnexpected turns the nil error of a short peek into a truncation.
func orUnexpected(err error) error {
	if err == nil {
		return io.ErrUnexpectedEOF
	}
	return err
}

// resyncARC skips to the next line that parses as an ARC header.
func (r *Reader) resyncARC(from int64, quiet bool) error {
	// Skip the rest of the current line first.
	for first := true; ; first = false {
		b, err := r.br.Peek(maxARCLine)
		i := bytes.IndexByte(b, '\n')
		if !first && i >= 0 {
			line := strings.TrimRight(string(b[:i]), "\r")
			if _, ok := parseARCHeader(line, r.arcVersion); ok {
				r.garbage(from, quiet)
				return nil
			}
		}
		if i < 0 {
			r.br.Discard(len(b))
			if err != nil {
				r.garbage(from, quiet)
				return r.fail(err, -1)
			}
			continue
		}
		r.br.Discard(i + 1)
		r.trimBounds()
	}
}

// Limits on what parseARCMetadata keeps of a filedesc record's XML.
const (
	maxARCMetaFields = 64
	maxARCMetaValue  = 4 << 10
)

// parseARCMetadata returns the fields of the XML metadata an ARC v1.1
// filedesc record carries after its two version lines (Heritrix writes
// it): each element holding only text, by its local name, in order — so
// <arc:http-header-user-agent>, <arc:software>, <arc:operator> and
// <dcterms:isPartOf> read as the warcinfo fields of the same names (WARC
// 1.1 §6.2 took them from there). The first of each name is kept, at most
// maxARCMetaFields fields of at most maxARCMetaValue bytes each, values
// trimmed and with runs of white space made one space. Whatever is not
// well-formed ends the fields read so far: nil when there are none, as
// for an ARC v1.0 filedesc without XML.
func parseARCMetadata(b []byte) event.Header {
	i := bytes.IndexByte(b, '<')
	if i < 0 {
		return nil
	}
	d := xml.NewDecoder(bytes.NewReader(b[i:]))
	d.Strict = false
	// Any encoding declared other than UTF-8 is read as ISO-8859-1: the
	// fields wanted are ASCII, and every byte is then a character.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return latin1Reader{r}, nil }
	var (
		fields event.Header
		name   string // local name of the innermost open element, "" once a child opens
		text   strings.Builder
		seen   = make(map[string]bool)
	)
	for len(fields) < maxARCMetaFields {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name = t.Name.Local
			text.Reset()
		case xml.CharData:
			if name != "" && text.Len() < maxARCMetaValue {
				text.Write(t[:min(len(t), maxARCMetaValue-text.Len())])
			}
		case xml.EndElement:
			if name != "" && name == t.Name.Local && !seen[strings.ToLower(name)] {
				if v := cleanMetaValue(text.String()); v != "" {
					seen[strings.ToLower(name)] = true
					fields = append(fields, event.Field{Name: name, Value: v})
				}
			}
			name = ""
		}
	}
	return fields
}

// latin1Reader reads ISO-8859-1 as UTF-8.
type latin1Reader struct{ r io.Reader }

func (l latin1Reader) Read(p []byte) (int, error) {
	// Each byte read may take two: read at most half of p.
	if len(p) < 2 {
		return 0, io.ErrShortBuffer
	}
	buf := make([]byte, len(p)/2)
	n, err := l.r.Read(buf)
	out := p[:0]
	for _, c := range buf[:n] {
		out = utf8.AppendRune(out, rune(c))
	}
	return len(out), err
}

// cleanMetaValue trims s, makes each run of white space one space and
// replaces invalid UTF-8.
func cleanMetaValue(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}
