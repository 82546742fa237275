// Package safetext makes untrusted text safe to print on a terminal.
//
// Logged URLs, User-Agents, file names and the messages that quote them
// are chosen by whoever sent the request or named the file. Printed raw,
// "\x1b]0;pwned\x07\x1b[2J" retitles and clears the terminal, and a
// right-to-left override makes "gpj.exe" read as "exe.jpg". Every text
// output of repaudit passes through this package: Escape for one value
// (a table cell, whose width must be known before it is laid out), and
// Writer for a whole stream (the report, inspect, every message on
// standard error), which keeps newlines and tabs, the layout's own.
//
// What is escaped, as a visible sequence the reader can still act on:
//
//   - C0 controls U+0000–U+001F and DEL U+007F: \n, \r, \t, or \xNN
//   - C1 controls U+0080–U+009F (8-bit CSI, OSC, ...): \u0085
//   - bidirectional formatting U+061C, U+200E, U+200F, U+202A–U+202E,
//     U+2066–U+2069, and the line and paragraph separators U+2028, U+2029:
//     \u202e
//   - bytes that are not valid UTF-8: \xNN
//
// Everything else, including other non-ASCII text, is printed as it is.
// A backslash is not itself escaped: the output is for people to read,
// not to be parsed back (the Parquet tables and JSON hold the exact
// bytes).
package safetext

import (
	"io"
	"strconv"
	"unicode/utf8"
)

// Escape returns s with every control, bidirectional formatting character
// and invalid byte written as a visible escape (see the package comment).
// Newlines and tabs are escaped too: the result is one line. Text that
// needs no escape is returned as it is, without allocating.
func Escape(s string) string {
	i := firstUnsafe(s, false)
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	b = append(b, s[:i]...)
	return string(appendEscaped(b, s[i:], false))
}

// EscapeLines is Escape except that newlines and tabs pass unchanged, as
// through a Writer: for a value that may hold lines of its own, such as a
// CSV cell, which CSV quoting keeps in one field.
func EscapeLines(s string) string {
	i := firstUnsafe(s, true)
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	b = append(b, s[:i]...)
	return string(appendEscaped(b, s[i:], true))
}

// AppendJSON appends the encoded JSON data to b with the characters
// encoding/json leaves raw that Escape escapes (DEL, C1 controls,
// bidirectional formatting) written as \u escapes, so the JSON stays
// valid and decodes to the same value. encoding/json already escapes C0
// controls and U+2028, U+2029; outside strings JSON holds only ASCII, so
// every character replaced is inside a string. Invalid UTF-8, which
// encoding/json never writes, is copied as it is.
func AppendJSON(b, data []byte) []byte {
	for i := 0; i < len(data); {
		c := data[i]
		if c < 0x7f {
			b = append(b, c)
			i++
			continue
		}
		r, n := rune(c), 1
		if c >= 0x80 {
			r, n = utf8.DecodeRune(data[i:])
		}
		if r == 0x7f || unsafeRune(r) {
			b = append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		} else {
			b = append(b, data[i:i+n]...)
		}
		i += n
	}
	return b
}

// Writer escapes everything written through it as Escape does, except
// newlines and tabs, which pass unchanged. Each Write is escaped on its
// own: a UTF-8 sequence split across two writes is shown as \xNN bytes,
// never passed raw, so the output is safe whatever the writes' sizes.
type Writer struct {
	w   io.Writer
	buf []byte
}

// NewWriter returns a Writer writing to w. A w that is already a *Writer
// is returned as it is.
func NewWriter(w io.Writer) *Writer {
	if sw, ok := w.(*Writer); ok {
		return sw
	}
	return &Writer{w: w}
}

// Unwrap returns the underlying writer (to test it for a terminal, or to
// draw a progress line, whose own escape sequences must pass).
func (w *Writer) Unwrap() io.Writer { return w.w }

// Write writes p escaped. It returns len(p) when the escaped bytes were
// all written.
func (w *Writer) Write(p []byte) (int, error) {
	s := string(p)
	i := firstUnsafe(s, true)
	if i < 0 {
		return w.w.Write(p)
	}
	w.buf = append(w.buf[:0], p[:i]...)
	w.buf = appendEscaped(w.buf, s[i:], true)
	if _, err := w.w.Write(w.buf); err != nil {
		return 0, err
	}
	if cap(w.buf) > 64<<10 {
		w.buf = nil // do not keep a huge buffer after one long write
	}
	return len(p), nil
}

// WriteString is Write for a string.
func (w *Writer) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

// firstUnsafe returns the index of the first byte of s that must be
// escaped, or -1. keepLayout lets newlines and tabs through.
func firstUnsafe(s string, keepLayout bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < 0x80 {
			if keepLayout && (c == '\n' || c == '\t') {
				i++
				continue
			}
			return i
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || unsafeRune(r) {
			return i
		}
		i += n
	}
	return -1
}

// unsafeRune reports the non-ASCII runes a terminal acts on or that
// reorder text.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // ALM, LRM, RLM
		return true
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	}
	return false
}

const hex = "0123456789abcdef"

// appendEscaped appends s to b with unsafe characters escaped.
func appendEscaped(b []byte, s string, keepLayout bool) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			switch {
			case c >= 0x20 && c < 0x7f, keepLayout && (c == '\n' || c == '\t'):
				b = append(b, c)
			case c == '\n':
				b = append(b, `\n`...)
			case c == '\r':
				b = append(b, `\r`...)
			case c == '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
		case unsafeRune(r):
			b = append(b, `\u`...)
			q := strconv.FormatInt(int64(r), 16)
			for range 4 - len(q) {
				b = append(b, '0')
			}
			b = append(b, q...)
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return b
}
