package warc

import (
	"bytes"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
)

// headerEnd returns the length of the header block at the start of b, up
// to and including its terminating empty line, or -1 if b holds no empty
// line. A line ends at '\n'; any '\r' before it is ignored, so "\r\n",
// "\n" and "\r\r\n" all work.
func headerEnd(b []byte) int {
	i := 0
	for {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return -1
		}
		if onlyCR(b[i : i+j]) {
			return i + j + 1
		}
		i += j + 1
	}
}

func onlyCR(b []byte) bool {
	for _, c := range b {
		if c != '\r' {
			return false
		}
	}
	return true
}

// nextLine splits s at the first '\n' and returns the line without its
// line end (and without any trailing '\r') and the rest.
func nextLine(s string) (line, rest string) {
	i := strings.IndexByte(s, '\n')
	if i < 0 {
		line, rest = s, ""
	} else {
		line, rest = s[:i], s[i+1:]
	}
	for len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	return line, rest
}

// fieldStats tells what parseFields had to ignore.
type fieldStats struct {
	bad      int    // lines ignored
	firstBad string // the first of them, for the message
}

// parseFields parses "Name: value" lines from s (the header block after
// its first line) up to the first empty line, appending to fields. It is
// tolerant: white space before the colon is dropped from the name,
// continuation lines (obs-fold, RFC 9112 §5.2) are joined to the previous
// value with one space, and lines without a colon are counted and skipped.
// Names and values are substrings of s, so one string holds the block.
func parseFields(s string, fields []event.Field) ([]event.Field, fieldStats) {
	var st fieldStats
	for s != "" {
		var line string
		line, s = nextLine(s)
		if line == "" {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			v := strings.Trim(line, " \t")
			if n := len(fields); n > 0 {
				if v != "" {
					if fields[n-1].Value == "" {
						fields[n-1].Value = v
					} else {
						fields[n-1].Value += " " + v
					}
				}
				continue
			}
			st.note(line)
			continue
		}
		from := 0
		if line[0] == ':' {
			from = 1 // HTTP/2 pseudo-header written as a field (":authority: x")
		}
		colon := strings.IndexByte(line[from:], ':')
		if colon < 0 {
			st.note(line)
			continue
		}
		colon += from
		name := strings.TrimRight(line[:colon], " \t")
		if name == "" {
			st.note(line)
			continue
		}
		fields = append(fields, event.Field{Name: name, Value: strings.Trim(line[colon+1:], " \t")})
	}
	return fields, st
}

func (st *fieldStats) note(line string) {
	if st.bad == 0 {
		st.firstBad = clip(line, 80)
	}
	st.bad++
}

// clip shortens s for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// stripAngle removes the angle brackets some writers put around
// WARC-Target-URI (a WARC/1.0 grammar slip fixed in 1.1, §5.6).
func stripAngle(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '<' && s[len(s)-1] == '>' {
		return s[1 : len(s)-1]
	}
	return s
}

// trimID returns a record ID without the angle brackets, for comparing
// IDs written with and without them.
func trimID(s string) string {
	return stripAngle(s)
}

// parseDate parses a WARC-Date (WARC 1.1 §5.4: W3C ISO 8601 with second
// or finer precision; earlier drafts and some writers use lower precision,
// 14-digit ARC timestamps or HTTP dates). It returns the time in UTC.
func parseDate(s string) (time.Time, bool) {
	t, ok, _ := parseWARCDate(s)
	return t, ok
}

// parseWARCDate is parseDate that also says whether the value was exact:
// false for an ISO 8601 value without seconds or without a time zone
// (WARC 1.1 §5.4 asks for YYYY-MM-DDThh:mm:ssZ), read as the start of the
// minute (or day) in UTC.
func parseWARCDate(s string) (time.Time, bool, bool) {
	s = strings.TrimSpace(s)
	if t, ok := parseISO(s); ok {
		return t, true, isoExact(s)
	}
	t, ok := parseOtherDate(s)
	return t, ok, true
}

// isoExact reports whether an ISO 8601 value parseISO accepted has
// seconds and a zone: "YYYY-MM-DDThh:mm:ss" then Z or ±hh:mm.
func isoExact(s string) bool {
	if len(s) < 20 || s[16] != ':' {
		return false
	}
	last := s[len(s)-1]
	return last == 'Z' || last == 'z' || len(s) >= 25 && (s[len(s)-6] == '+' || s[len(s)-6] == '-')
}

func parseOtherDate(s string) (time.Time, bool) {
	if t, ok := parseDigits(s); ok {
		return t, true
	}
	for _, layout := range []string{time.RFC1123, time.RFC1123Z, time.RFC850, time.ANSIC, time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// parseISO parses YYYY[-MM[-DD[Thh:mm[:ss[.fff]]]]][Z|±hh:mm] without
// allocating.
func parseISO(s string) (time.Time, bool) {
	num := func(i, n int) (int, bool) {
		if i+n > len(s) {
			return 0, false
		}
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok := num(0, 4)
	if !ok {
		return time.Time{}, false
	}
	month, day, hour, min, sec, nsec := 1, 1, 0, 0, 0, 0
	i := 4
	if i < len(s) && s[i] == '-' {
		if month, ok = num(i+1, 2); !ok {
			return time.Time{}, false
		}
		i += 3
		if i < len(s) && s[i] == '-' {
			if day, ok = num(i+1, 2); !ok {
				return time.Time{}, false
			}
			i += 3
			if i < len(s) && (s[i] == 'T' || s[i] == 't' || s[i] == ' ') {
				if hour, ok = num(i+1, 2); !ok || i+3 >= len(s) || s[i+3] != ':' {
					return time.Time{}, false
				}
				if min, ok = num(i+4, 2); !ok {
					return time.Time{}, false
				}
				i += 6
				if i < len(s) && s[i] == ':' {
					if sec, ok = num(i+1, 2); !ok {
						return time.Time{}, false
					}
					i += 3
					if i < len(s) && (s[i] == '.' || s[i] == ',') {
						i++
						scale := 100000000
						j := i
						for ; j < len(s) && '0' <= s[j] && s[j] <= '9'; j++ {
							nsec += int(s[j]-'0') * scale
							scale /= 10
						}
						if j == i {
							return time.Time{}, false
						}
						i = j
					}
				}
			}
		}
	} else if len(s) != 4 {
		return time.Time{}, false
	}
	loc := time.UTC
	switch {
	case i == len(s):
	case (s[i] == 'Z' || s[i] == 'z') && i+1 == len(s):
	case (s[i] == '+' || s[i] == '-') && len(s)-i == 6 && s[i+3] == ':':
		h, ok1 := num(i+1, 2)
		m, ok2 := num(i+4, 2)
		if !ok1 || !ok2 {
			return time.Time{}, false
		}
		off := (h*60 + m) * 60
		if s[i] == '-' {
			off = -off
		}
		loc = time.FixedZone("", off)
	default:
		return time.Time{}, false
	}
	if month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || min > 59 || sec > 60 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, min, sec, nsec, loc).UTC(), true
}

// parseDigits parses 14-digit ARC timestamps (YYYYMMDDhhmmss) and their
// shorter (at least YYYYMMDD) and longer (fractional) forms.
func parseDigits(s string) (time.Time, bool) {
	if len(s) < 8 || len(s) > 20 {
		return time.Time{}, false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return time.Time{}, false
		}
	}
	v := [6]int{}
	widths := [6]int{4, 2, 2, 2, 2, 2}
	i := 0
	for k, w := range widths {
		if i+w > len(s) {
			if k < 3 {
				return time.Time{}, false
			}
			break
		}
		for _, c := range []byte(s[i : i+w]) {
			v[k] = v[k]*10 + int(c-'0')
		}
		i += w
	}
	if v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 24 || v[4] > 59 || v[5] > 60 {
		return time.Time{}, false
	}
	nsec := 0
	scale := 100000000
	for ; i < len(s) && scale > 0; i++ {
		nsec += int(s[i]-'0') * scale
		scale /= 10
	}
	return time.Date(v[0], time.Month(v[1]), v[2], v[3], v[4], v[5], nsec, time.UTC), true
}
