package extract

import (
	"strings"
	"time"
)

// zoneOffsets maps the time zone abbreviations met in unavailable_after
// dates to their UTC offset in minutes. time.Parse does not know them: it
// reads an unknown abbreviation as a zone with offset zero, which would
// move "15:00:00 PST" by eight hours. Ambiguous abbreviations (IST, CST in
// China) take their most common web meaning, the North American one for
// CST.
var zoneOffsets = map[string]int{
	"UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "WET": 0,
	"EST": -5 * 60, "EDT": -4 * 60, "CST": -6 * 60, "CDT": -5 * 60,
	"MST": -7 * 60, "MDT": -6 * 60, "PST": -8 * 60, "PDT": -7 * 60,
	"AKST": -9 * 60, "AKDT": -8 * 60, "HST": -10 * 60,
	"AST": -4 * 60, "ADT": -3 * 60, "NST": -(3*60 + 30), "NDT": -(2*60 + 30),
	"BST": 60, "IST": 5*60 + 30, "WEST": 60, "CET": 60, "CEST": 2 * 60,
	"MET": 60, "MEST": 2 * 60, "EET": 2 * 60, "EEST": 3 * 60, "MSK": 3 * 60,
	"JST": 9 * 60, "KST": 9 * 60, "HKT": 8 * 60, "SGT": 8 * 60, "AWST": 8 * 60,
	"ACST": 9*60 + 30, "ACDT": 10*60 + 30, "AEST": 10 * 60, "AEDT": 11 * 60,
	"NZST": 12 * 60, "NZDT": 13 * 60,
}

// isoDateLayouts and dateLayouts are tried in order once zone names are
// replaced by numeric offsets: the first for values that start with a four
// digit year, the second for the others. Layouts without a zone are read
// as UTC.
var isoDateLayouts = []string{
	// ISO 8601 / RFC 3339, with and without time and zone.
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04:05 -0700",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 Z07:00",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04 -0700",
	"2006-01-02 15:04",
	"2006-01-02",
}

var dateLayouts = []string{
	// Google's documented form: 25 Jun 2010 15:00:00 PST.
	"2 Jan 2006 15:04:05 -0700",
	"2 Jan 2006 15:04:05 Z07:00",
	"2 Jan 2006 15:04:05",
	"2 Jan 2006 15:04 -0700",
	"2 Jan 2006 15:04",
	"2 Jan 2006",
	"2 January 2006 15:04:05 -0700",
	"2 January 2006",
	// RFC 1123 / RFC 822 / RFC 5322.
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04:05 Z07:00",
	"Mon, 2 Jan 2006 15:04:05",
	"Mon, 2 Jan 2006 15:04 -0700",
	"Mon, 2 Jan 2006 15:04",
	"Mon, 2 Jan 06 15:04:05 -0700",
	"Mon, 2 Jan 2006",
	"Monday, 2 Jan 2006 15:04:05 -0700",
	"Monday, 2 January 2006 15:04:05 -0700",
	// RFC 850.
	"Monday, 2-Jan-06 15:04:05 -0700",
	"Monday, 2-Jan-2006 15:04:05 -0700",
	"Monday, 2-Jan-06 15:04:05",
	"Mon, 2-Jan-06 15:04:05 -0700",
	"Mon, 2-Jan-2006 15:04:05 -0700",
	"2-Jan-06 15:04:05 -0700",
	"2-Jan-2006 15:04:05 -0700",
	"2-Jan-2006 15:04:05",
	"2-Jan-2006",
	// ANSI C asctime and Unix date.
	"Mon Jan 2 15:04:05 2006",
	"Mon Jan 2 15:04:05 -0700 2006",
	// Month first.
	"Jan 2, 2006 15:04:05 -0700",
	"Jan 2, 2006 15:04:05",
	"Jan 2, 2006",
	"January 2, 2006 15:04:05 -0700",
	"January 2, 2006 15:04:05",
	"January 2, 2006",
	"Monday, January 2, 2006",
}

// maxDateLen bounds the work spent on one date value.
const maxDateLen = 128

// ParseDate reads an unavailable_after date in any of the formats sites
// use: RFC 850, RFC 1123 and RFC 822 with zone names (PST, CET, ...) or
// numeric offsets, ISO 8601 and RFC 3339 with or without time, Google's
// "25 Jun 2010 15:00:00 PST", ANSI C asctime. A date without a zone is
// read as UTC. The result is in UTC; ok is false when no format matches.
func ParseDate(s string) (t time.Time, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxDateLen {
		return time.Time{}, false
	}
	s = unquote(s)
	words := strings.Fields(s)
	for i, w := range words {
		// A trailing zone after a Z07:00 layout's time, or a zone word
		// anywhere (Unix date puts it before the year).
		if off, ok := zoneOffsets[strings.ToUpper(w)]; ok && i > 0 {
			words[i] = formatOffset(off)
		} else if z, ok := zoneWithOffset(w); ok && i > 0 {
			words[i] = z
		}
	}
	return parseDateLayouts(strings.Join(words, " "), true)
}

// parseDateLayouts tries the layouts on s, whose zone names are numeric
// offsets already. quick skips the ISO layouts that cannot match (tests
// compare it with trying them all): each starts with "2006-01-02", which
// time.Parse reads as exactly ten bytes, and then ends or goes on with
// the byte at s[10] ('T' or ' '). A failed time.Parse allocates its
// error, and a date only the last of them matches made twelve.
func parseDateLayouts(s string, quick bool) (time.Time, bool) {
	layouts := dateLayouts
	iso := len(s) > 4 && s[4] == '-'
	if iso {
		layouts = isoDateLayouts
	}
	for _, layout := range layouts {
		if quick && iso && !isoMayMatch(layout, s) {
			continue
		}
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// isoMayMatch reports whether the ISO layout may match s: false only when
// time.Parse surely fails (see parseDateLayouts).
func isoMayMatch(layout, s string) bool {
	const dateLen = len("2006-01-02")
	if len(layout) == dateLen || len(s) <= dateLen {
		return len(layout) == len(s)
	}
	return layout[dateLen] == s[dateLen]
}

// zoneWithOffset reads "GMT+1", "UTC+01:00", "GMT-0800" as a numeric
// offset.
func zoneWithOffset(w string) (string, bool) {
	u := strings.ToUpper(w)
	var rest string
	switch {
	case strings.HasPrefix(u, "GMT"), strings.HasPrefix(u, "UTC"):
		rest = u[3:]
	default:
		return "", false
	}
	if len(rest) < 2 || (rest[0] != '+' && rest[0] != '-') {
		return "", false
	}
	sign := 1
	if rest[0] == '-' {
		sign = -1
	}
	digits := strings.ReplaceAll(rest[1:], ":", "")
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return "", false
		}
	}
	var h, m int
	switch len(digits) {
	case 1, 2:
		h = atoiSmall(digits)
	case 3, 4:
		h, m = atoiSmall(digits[:len(digits)-2]), atoiSmall(digits[len(digits)-2:])
	default:
		return "", false
	}
	if h > 14 || m > 59 {
		return "", false
	}
	return formatOffset(sign * (h*60 + m)), true
}

func atoiSmall(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

func formatOffset(min int) string {
	sign := byte('+')
	if min < 0 {
		sign, min = '-', -min
	}
	h, m := min/60, min%60
	return string([]byte{sign, byte('0' + h/10), byte('0' + h%10), byte('0' + m/10), byte('0' + m%10)})
}
