package accesslog

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON scanner for JSON-lines logs. encoding/json into a map costs
// dozens of allocations per line; this scanner walks one object in place,
// returning keys and values as substrings of the line, and decodes a
// string only when it holds an escape. Besides standard JSON escapes it
// accepts nginx's \xHH (what nginx writes inside a JSON-shaped log_format
// without escape=json). Nesting is capped at maxJSONDepth.

const maxJSONDepth = 32

type jsonKind uint8

const (
	jsonInvalid jsonKind = iota
	jsonString
	jsonNumber
	jsonBool
	jsonNull
	jsonObject
	jsonArray
)

// jsonValue is one value. For strings raw is the content between the
// quotes, still escaped when esc is set; for other kinds it is the value's
// text, brackets included for objects and arrays.
type jsonValue struct {
	kind jsonKind
	raw  string
	esc  bool
}

// str returns a string's decoded content, or a number's or boolean's text;
// "" for null, objects and arrays.
func (v jsonValue) str() string {
	switch v.kind {
	case jsonString:
		if v.esc {
			return jsonUnquote(v.raw)
		}
		return v.raw
	case jsonNumber, jsonBool:
		return v.raw
	}
	return ""
}

// jsonIter walks the members of an object or the elements of an array.
type jsonIter struct {
	s      string
	i      int
	depth  int
	closer byte
	first  bool
	done   bool
	bad    bool
}

// iterJSON starts walking the object ('{') or array ('[') that s holds
// (white space around it allowed). depth is the nesting level of s.
func iterJSON(s string, depth int, open byte) jsonIter {
	it := jsonIter{s: s, depth: depth, first: true, closer: '}'}
	if open == '[' {
		it.closer = ']'
	}
	i := jsonSpace(s, 0)
	if i >= len(s) || s[i] != open || depth > maxJSONDepth {
		it.bad = true
		return it
	}
	it.i = i + 1
	return it
}

// next returns the next member (key is the zero value for arrays). ok is
// false at the end, or on malformed input (then it.bad is set).
func (it *jsonIter) next() (key, val jsonValue, ok bool) {
	if it.done || it.bad {
		return key, val, false
	}
	s := it.s
	i := jsonSpace(s, it.i)
	if i < len(s) && s[i] == it.closer {
		it.done = true
		if jsonSpace(s, i+1) != len(s) {
			it.bad = true // something after the closing bracket
		}
		return key, val, false
	}
	if !it.first {
		if i >= len(s) || s[i] != ',' {
			it.bad = true
			return key, val, false
		}
		i = jsonSpace(s, i+1)
	}
	it.first = false
	if it.closer == '}' {
		var j int
		key, j = scanJSONString(s, i)
		if key.kind != jsonString {
			it.bad = true
			return key, val, false
		}
		i = jsonSpace(s, j)
		if i >= len(s) || s[i] != ':' {
			it.bad = true
			return key, val, false
		}
		i = jsonSpace(s, i+1)
	}
	val, j := scanJSONValue(s, i, it.depth+1)
	if val.kind == jsonInvalid {
		it.bad = true
		return key, val, false
	}
	it.i = j
	return key, val, true
}

func jsonSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// scanJSONString reads the string starting at s[i] == '"'.
func scanJSONString(s string, i int) (jsonValue, int) {
	if i >= len(s) || s[i] != '"' {
		return jsonValue{}, i
	}
	j := i + 1
	// Keys and most values are short: a plain loop beats IndexByte's call
	// overhead for the first bytes.
	for end := min(len(s), j+16); j < end; j++ {
		switch s[j] {
		case '"':
			return jsonValue{kind: jsonString, raw: s[i+1 : j]}, j + 1
		case '\\':
			goto escaped
		}
	}
	if k := strings.IndexByte(s[j:], '"'); k >= 0 {
		q := j + k
		b := strings.IndexByte(s[j:q], '\\')
		if b < 0 {
			return jsonValue{kind: jsonString, raw: s[i+1 : q]}, q + 1
		}
		j += b
	} else {
		return jsonValue{}, i
	}
escaped:
	// An escape before the closing quote: walk from it so that an escaped
	// quote does not end the string.
	for ; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return jsonValue{kind: jsonString, raw: s[i+1 : j], esc: true}, j + 1
		}
	}
	return jsonValue{}, i
}

// scanJSONValue reads the value starting at s[i]; depth is its nesting
// level.
func scanJSONValue(s string, i, depth int) (jsonValue, int) {
	if i >= len(s) {
		return jsonValue{}, i
	}
	switch c := s[i]; {
	case c == '"':
		return scanJSONString(s, i)
	case c == '{' || c == '[':
		j, ok := skipJSONComposite(s, i, depth)
		if !ok {
			return jsonValue{}, i
		}
		k := jsonObject
		if c == '[' {
			k = jsonArray
		}
		return jsonValue{kind: k, raw: s[i:j]}, j
	case c == 't':
		if strings.HasPrefix(s[i:], "true") {
			return jsonValue{kind: jsonBool, raw: s[i : i+4]}, i + 4
		}
	case c == 'f':
		if strings.HasPrefix(s[i:], "false") {
			return jsonValue{kind: jsonBool, raw: s[i : i+5]}, i + 5
		}
	case c == 'n':
		if strings.HasPrefix(s[i:], "null") {
			return jsonValue{kind: jsonNull, raw: s[i : i+4]}, i + 4
		}
	case c == '-' || c >= '0' && c <= '9':
		j := i + 1
		for j < len(s) {
			c := s[j]
			if c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' {
				j++
				continue
			}
			break
		}
		return jsonValue{kind: jsonNumber, raw: s[i:j]}, j
	}
	return jsonValue{}, i
}

// skipJSONComposite finds the end of the object or array at s[i], matching
// brackets and skipping strings; the members themselves are checked only
// when walked.
func skipJSONComposite(s string, i, depth int) (int, bool) {
	var stack [maxJSONDepth + 1]byte
	n := 0
	for j := i; j < len(s); j++ {
		switch c := s[j]; c {
		case '"':
			v, k := scanJSONString(s, j)
			if v.kind != jsonString {
				return i, false
			}
			j = k - 1
		case '{', '[':
			if depth+n > maxJSONDepth {
				return i, false
			}
			if c == '{' {
				stack[n] = '}'
			} else {
				stack[n] = ']'
			}
			n++
		case '}', ']':
			if n == 0 || stack[n-1] != c {
				return i, false
			}
			n--
			if n == 0 {
				return j + 1, true
			}
		}
	}
	return i, false
}

// jsonUnquote decodes the escapes of a JSON string's content: the JSON
// escapes (RFC 8259 §7), with unpaired surrogates becoming U+FFFD, and
// nginx's \xHH bytes. A malformed escape is kept as written.
func jsonUnquote(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			i++
			continue
		}
		e := s[i+1]
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'x':
			if i+3 < len(s) && isHex(s[i+2]) && isHex(s[i+3]) {
				b.WriteByte(unhex(s[i+2])<<4 | unhex(s[i+3]))
				i += 4
				continue
			}
			b.WriteByte(c)
			b.WriteByte(e)
		case 'u':
			r, n := jsonRune(s[i:])
			if n == 0 {
				b.WriteByte(c)
				b.WriteByte(e)
				break
			}
			b.WriteRune(r)
			i += n
			continue
		default:
			b.WriteByte(c)
			b.WriteByte(e)
		}
		i += 2
	}
	return b.String()
}

// jsonRune decodes "\uXXXX" (and a following low surrogate) at the start
// of s, returning the rune and the bytes used; n == 0 when malformed.
func jsonRune(s string) (rune, int) {
	r1, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if !utf16.IsSurrogate(r1) {
		return r1, 6
	}
	if r2, ok := hex4(s[6:]); ok {
		if r := utf16.DecodeRune(r1, r2); r != utf8.RuneError {
			return r, 12
		}
	}
	return utf8.RuneError, 6
}

func hex4(s string) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var r rune
	for i := 2; i < 6; i++ {
		if !isHex(s[i]) {
			return 0, false
		}
		r = r<<4 | rune(unhex(s[i]))
	}
	return r, true
}
