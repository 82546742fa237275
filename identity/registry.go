package identity

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// Registry limits.
const (
	// MaxRegistryLine caps one registry line (data: entries carry whole
	// cards); longer lines are reported and skipped.
	MaxRegistryLine = 64 << 10
	// MaxRegistryEntries caps the entries read from one registry.
	MaxRegistryEntries = 100000
)

// ParseRegistry reads a registry (draft-meunier-webbotauth-registry-03
// §"Discovery", "Formal Syntax"): one entry per line, each an https URL or
// a data: URL (RFC 2397, base64 or percent-encoded) carrying an inline
// card; '#' starts a comment (whole line or trailing); blank lines are
// skipped; lines end in LF, CRLF or a lone CR. Anything else is a Problem
// with its line number, and reading goes on. An I/O error ends the list
// with a problem.RegistryReadError problem.
func ParseRegistry(r io.Reader, source string) ([]RegistryEntry, []Problem) {
	var (
		entries []RegistryEntry
		probs   []Problem
	)
	br := bufio.NewReader(r)
	for lineNo := 1; ; lineNo++ {
		line, tooLong, err := readRegistryLine(br)
		loc := source + ":" + strconv.Itoa(lineNo)
		before := len(probs)
		if err != nil && !errors.Is(err, io.EOF) {
			// A partial line is not an entry.
			probs = append(probs, Problem{Source: loc, Code: problem.RegistryReadError, Message: err.Error()})
			locateLine(probs[before:], source, lineNo)
			return entries, probs
		}
		if tooLong {
			probs = append(probs, Problem{Source: loc, Code: problem.RegistryLineTooLong, Message: fmt.Sprintf("line longer than %d bytes; skipped", MaxRegistryLine)})
		} else if line != nil {
			if lineNo == 1 {
				line = trimBOM(line)
			}
			e, p := parseRegistryLine(line, loc)
			if p != nil {
				probs = append(probs, *p)
			}
			if e != nil {
				if len(entries) >= MaxRegistryEntries {
					probs = append(probs, Problem{Source: loc, Code: problem.RegistryTooMany, Message: fmt.Sprintf("more than %d entries; the rest are ignored", MaxRegistryEntries)})
					locateLine(probs[before:], source, lineNo)
					return entries, probs
				}
				e.Line = lineNo
				entries = append(entries, *e)
			}
		}
		locateLine(probs[before:], source, lineNo)
		if err != nil {
			return entries, probs
		}
	}
}

// locateLine sets Where of a registry line's problems.
func locateLine(ps []Problem, source string, line int) {
	for i := range ps {
		ps[i].Where = event.Source{File: source, Line: int64(line), Offset: -1}
	}
}

// readRegistryLine returns the next line without its terminator (LF, CR or
// CRLF). At the end of input it returns the last unterminated line (if any)
// with io.EOF; line is nil when there is nothing left. A line over the cap
// is consumed and reported with tooLong.
func readRegistryLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	var buf []byte
	n := 0
	for {
		b, err := br.ReadByte()
		if err != nil {
			if n == 0 {
				return nil, false, err
			}
			return buf, n > MaxRegistryLine, err
		}
		switch b {
		case '\n':
			return nonNil(buf), n > MaxRegistryLine, nil
		case '\r':
			if nb, err := br.Peek(1); err == nil && nb[0] == '\n' {
				_, _ = br.ReadByte()
			}
			return nonNil(buf), n > MaxRegistryLine, nil
		}
		n++
		if n <= MaxRegistryLine {
			buf = append(buf, b)
		} else {
			buf = nil
		}
	}
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// parseRegistryLine parses one line; both results nil for blank and
// comment lines.
func parseRegistryLine(line []byte, loc string) (*RegistryEntry, *Problem) {
	bad := func(code problem.Code, format string, args ...any) (*RegistryEntry, *Problem) {
		return nil, &Problem{Source: loc, Code: code, Message: fmt.Sprintf(format, args...)}
	}
	s := string(line)
	if !utf8.ValidString(s) {
		return bad(problem.RegistryBadUTF8, "line is not valid UTF-8")
	}
	// EOL = *WS [comment] NL. Neither https-URI (RFC 9110 §4.2.2: no
	// fragment) nor dataurl (RFC 2397 urlchar) contains '#', so the first
	// '#' starts the comment.
	entry := s
	if i := strings.IndexByte(entry, '#'); i >= 0 {
		entry = entry[:i]
	}
	entry = strings.Trim(entry, " \t")
	if entry == "" {
		return nil, nil
	}
	for _, r := range entry {
		if r < 0x20 || r == 0x7f {
			return bad(problem.RegistryBadEntry, "control character in entry")
		}
	}
	scheme, _, ok := strings.Cut(entry, ":")
	if !ok {
		return bad(problem.RegistryBadEntry, "not an https or data: URL: %s", quoteShort(entry))
	}
	switch strings.ToLower(scheme) {
	case "https":
		if strings.ContainsAny(entry, " \t") {
			return bad(problem.RegistryBadEntry, "white space inside the URL %s", quoteShort(entry))
		}
		u, err := url.Parse(entry)
		if err != nil || u.Host == "" || u.Opaque != "" {
			return bad(problem.RegistryBadURL, "not an https URL: %s", quoteShort(entry))
		}
		if u.User != nil {
			return bad(problem.RegistryBadURL, "https URL with userinfo is not allowed (RFC 9110 §4.2.4): %s", quoteShort(entry))
		}
		return &RegistryEntry{URL: entry}, nil
	case "data":
		payload, err := decodeDataURL(entry)
		if err != nil {
			return bad(problem.RegistryBadDataURL, "%v", err)
		}
		return &RegistryEntry{URL: entry, Inline: payload}, nil
	case "http":
		return bad(problem.RegistryNotHTTPS, "http URL refused, registry entries must be https: %s", quoteShort(entry))
	default:
		return bad(problem.RegistryBadEntry, "not an https or data: URL: %s", quoteShort(entry))
	}
}

// decodeDataURL decodes an RFC 2397 data URL:
// data:[<mediatype>][;base64],<data>. The data part is percent-decoded
// (leniently: characters outside urlchar, such as the '{' and '"' of the
// registry-03 example, are taken literally), then base64-decoded when
// ";base64" is given (padding optional, standard or URL alphabet).
func decodeDataURL(s string) ([]byte, error) {
	if len(s) < len("data:") || !strings.EqualFold(s[:len("data:")], "data:") {
		return nil, errors.New("not a data: URL")
	}
	rest := s[len("data:"):]
	meta, data, ok := strings.Cut(rest, ",")
	if !ok {
		return nil, errors.New("data: URL without ','")
	}
	isB64 := false
	for i, part := range strings.Split(meta, ";") {
		if i > 0 && strings.EqualFold(strings.TrimSpace(part), "base64") {
			isB64 = true
		}
	}
	raw, err := percentDecode(data)
	if err != nil {
		return nil, err
	}
	if isB64 {
		t := strings.TrimRight(strings.Map(func(r rune) rune {
			switch r {
			case ' ', '\t', '\r', '\n':
				return -1
			case '-':
				return '+'
			case '_':
				return '/'
			}
			return r
		}, string(raw)), "=")
		b, err := base64.RawStdEncoding.DecodeString(t)
		if err != nil {
			return nil, fmt.Errorf("data: URL base64: %w", err)
		}
		raw = b
	}
	if len(raw) == 0 {
		return nil, errors.New("data: URL is empty")
	}
	return raw, nil
}

// percentDecode decodes %XX escapes, leaving every other byte as is.
func percentDecode(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			out = append(out, s[i])
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return nil, fmt.Errorf("bad percent escape at byte %d", i)
		}
		out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
		i += 2
	}
	return out, nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
