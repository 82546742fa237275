package accesslog

import (
	"strconv"
	"strings"
	"time"
)

// Hand-written parsers for the few fixed time layouts logs use. They avoid
// time.Parse (which allocates on error and is slow) on the hot path; the
// CLF parser also caches the last conversion, since consecutive lines
// mostly share their second.

// clfTimeCache converts "10/Oct/2000:13:55:36 -0700" and remembers the last
// string it converted, in an array of its own: the string parsed may
// alias the read buffer (Reader.zeroCopy), and copying it at every new
// second would cost an allocation per line of a sparse log. A string
// that differs from the last one only in its seconds is converted from
// the last one's minute: the lines of one minute parse one date.
type clfTimeCache struct {
	key [clfTimeLen]byte
	ok  bool  // key holds a converted string
	min int64 // Unix seconds of key's minute (its seconds set to 00)
}

const (
	clfTimeLen = len("10/Oct/2000:13:55:36 -0700")
	clfSecAt   = len("10/Oct/2000:13:55:") // where the seconds are
)

func (c *clfTimeCache) parse(s string) (time.Time, bool) {
	if c.ok && len(s) == clfTimeLen && s[:clfSecAt] == string(c.key[:clfSecAt]) && s[clfSecAt+2:] == string(c.key[clfSecAt+2:]) {
		// The seconds as parseCLFTime and civilSeconds check them; the
		// rest was checked when key was converted.
		if ss, ok := num2(s[clfSecAt : clfSecAt+2]); ok && ss <= 60 {
			return time.Unix(c.min+int64(ss), 0).UTC(), true
		}
		return time.Time{}, false
	}
	t, ok := parseCLFTime(s)
	if ok { // len(s) == clfTimeLen
		ss, _ := num2(s[clfSecAt : clfSecAt+2])
		copy(c.key[:], s)
		c.ok, c.min = true, t.Unix()-int64(ss)
	}
	return t, ok
}

// parseCLFTime parses the strftime layout "%d/%b/%Y:%H:%M:%S %z" that
// Apache %t and nginx $time_local write, without the brackets.
func parseCLFTime(s string) (time.Time, bool) {
	if len(s) != 26 || s[2] != '/' || s[6] != '/' || s[11] != ':' || s[14] != ':' || s[17] != ':' || s[20] != ' ' {
		return time.Time{}, false
	}
	day, ok1 := num2(s[0:2])
	mon := monthNum(s[3:6])
	year, ok2 := num4(s[7:11])
	hh, ok3 := num2(s[12:14])
	mm, ok4 := num2(s[15:17])
	ss, ok5 := num2(s[18:20])
	off, ok6 := zoneOffset(s[21:])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || mon == 0 {
		return time.Time{}, false
	}
	sec, ok := civilSeconds(year, mon, day, hh, mm, ss)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(sec-int64(off), 0).UTC(), true
}

// parseISOTime parses RFC 3339 / ISO 8601 date-times as logs write them:
// "2006-01-02T15:04:05", 'T' or ' ' between date and time, an optional
// fraction of up to 9 digits, and an optional zone "Z", "+hh:mm", "+hhmm"
// or "+hh" (also "UTC" or "GMT"). No zone means UTC.
func parseISOTime(s string) (time.Time, bool) {
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := num4(s[0:4])
	mon, ok2 := num2(s[5:7])
	day, ok3 := num2(s[8:10])
	hh, ok4 := num2(s[11:13])
	mm, ok5 := num2(s[14:16])
	ss, ok6 := num2(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return time.Time{}, false
	}
	rest := s[19:]
	nsec := 0
	if len(rest) > 0 && (rest[0] == '.' || rest[0] == ',') {
		i := 1
		scale := 100000000
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			if scale > 0 {
				nsec += int(rest[i]-'0') * scale
				scale /= 10
			}
			i++
		}
		if i == 1 {
			return time.Time{}, false
		}
		rest = rest[i:]
	}
	off := 0
	switch {
	case rest == "" || rest == "Z" || rest == "z" || rest == "UTC" || rest == "GMT" || rest == " UTC" || rest == " GMT":
	default:
		var ok bool
		if off, ok = zoneOffset(rest); !ok {
			return time.Time{}, false
		}
	}
	sec, ok := civilSeconds(year, mon, day, hh, mm, ss)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(sec-int64(off), int64(nsec)).UTC(), true
}

// zoneOffset parses "+hhmm", "+hh:mm" or "+hh" (also '-') into seconds
// east of UTC.
func zoneOffset(s string) (int, bool) {
	if len(s) < 3 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	h, ok := num2(s[1:3])
	if !ok {
		return 0, false
	}
	m := 0
	switch len(s) {
	case 3:
	case 5:
		if m, ok = num2(s[3:5]); !ok {
			return 0, false
		}
	case 6:
		if s[3] != ':' {
			return 0, false
		}
		if m, ok = num2(s[4:6]); !ok {
			return 0, false
		}
	default:
		return 0, false
	}
	if h > 23 || m > 59 {
		return 0, false
	}
	off := h*3600 + m*60
	if s[0] == '-' {
		off = -off
	}
	return off, true
}

// parseUnixTime parses a Unix timestamp written as a decimal number, in
// seconds with an optional fraction ("1714564800.123"), or as an integer
// whose unit is told by its magnitude: seconds below 1e11, milliseconds
// below 1e14, microseconds below 1e17, nanoseconds above (Cloudflare
// Logpush writes seconds or nanoseconds depending on its settings).
func parseUnixTime(s string) (time.Time, bool) {
	if strings.ContainsAny(s, "eE") {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v < 0 || v > 1e19 {
			return time.Time{}, false
		}
		sec := int64(v)
		return time.Unix(sec, int64((v-float64(sec))*1e9)).UTC(), true
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	if intPart == "" || len(intPart) > 19 {
		return time.Time{}, false
	}
	var n int64
	for i := 0; i < len(intPart); i++ {
		c := intPart[i]
		if c < '0' || c > '9' {
			return time.Time{}, false
		}
		n = n*10 + int64(c-'0')
	}
	if hasFrac {
		nsec, scale := int64(0), int64(100000000)
		for i := 0; i < len(frac); i++ {
			c := frac[i]
			if c < '0' || c > '9' {
				return time.Time{}, false
			}
			nsec += int64(c-'0') * scale
			scale /= 10
		}
		if n >= 1e11 {
			return time.Time{}, false
		}
		return time.Unix(n, nsec).UTC(), true
	}
	switch {
	case n < 1e11:
		return time.Unix(n, 0).UTC(), true
	case n < 1e14:
		return time.UnixMilli(n).UTC(), true
	case n < 1e17:
		return time.UnixMicro(n).UTC(), true
	default:
		return time.Unix(0, n).UTC(), true
	}
}

// dateCache converts W3C "2006-01-02" dates to Unix seconds at midnight
// UTC and remembers the last one.
type dateCache struct {
	key string
	sec int64
}

// parse converts a W3C date and time ("2006-01-02", "15:04:05[.fff]") in
// UTC.
func (c *dateCache) parse(date, clock string) (time.Time, bool) {
	if date != c.key || date == "" {
		if len(date) != 10 || date[4] != '-' || date[7] != '-' {
			return time.Time{}, false
		}
		y, ok1 := num4(date[0:4])
		m, ok2 := num2(date[5:7])
		d, ok3 := num2(date[8:10])
		if !(ok1 && ok2 && ok3) {
			return time.Time{}, false
		}
		sec, ok := civilSeconds(y, m, d, 0, 0, 0)
		if !ok {
			return time.Time{}, false
		}
		c.key, c.sec = date, sec
	}
	if len(clock) < 8 || clock[2] != ':' || clock[5] != ':' {
		return time.Time{}, false
	}
	hh, ok1 := num2(clock[0:2])
	mm, ok2 := num2(clock[3:5])
	ss, ok3 := num2(clock[6:8])
	if !(ok1 && ok2 && ok3) || hh > 23 || mm > 59 || ss > 60 {
		return time.Time{}, false
	}
	nsec := 0
	if rest := clock[8:]; rest != "" {
		if rest[0] != '.' || len(rest) == 1 {
			return time.Time{}, false
		}
		scale := 100000000
		for i := 1; i < len(rest); i++ {
			if rest[i] < '0' || rest[i] > '9' {
				return time.Time{}, false
			}
			nsec += int(rest[i]-'0') * scale
			scale /= 10
		}
	}
	return time.Unix(c.sec+int64(hh*3600+mm*60+ss), int64(nsec)).UTC(), true
}

// civilSeconds returns the Unix time of a UTC civil date-time, checking
// ranges (a second of 60 is accepted for leap seconds and rolls over).
func civilSeconds(y, m, d, hh, mm, ss int) (int64, bool) {
	if m < 1 || m > 12 || d < 1 || d > daysIn(y, m) || hh > 23 || mm > 59 || ss > 60 {
		return 0, false
	}
	// Days from civil (Howard Hinnant's algorithm, proleptic Gregorian).
	yy := y
	if m <= 2 {
		yy--
	}
	era := yy / 400
	if yy < 0 {
		era = (yy - 399) / 400 // floor division: January and February of year 0
	}
	yoe := yy - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	days := int64(era)*146097 + int64(doe) - 719468
	return days*86400 + int64(hh*3600+mm*60+ss), true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func num2(s string) (int, bool) {
	if len(s) != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return 0, false
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), true
}

func num4(s string) (int, bool) {
	if len(s) != 4 {
		return 0, false
	}
	n := 0
	for i := 0; i < 4; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// monthNum maps an English month abbreviation (any case) to 1..12, or 0.
func monthNum(s string) int {
	if len(s) != 3 {
		return 0
	}
	a, b, c := s[0]|0x20, s[1]|0x20, s[2]|0x20
	switch {
	case a == 'j' && b == 'a' && c == 'n':
		return 1
	case a == 'f' && b == 'e' && c == 'b':
		return 2
	case a == 'm' && b == 'a' && c == 'r':
		return 3
	case a == 'a' && b == 'p' && c == 'r':
		return 4
	case a == 'm' && b == 'a' && c == 'y':
		return 5
	case a == 'j' && b == 'u' && c == 'n':
		return 6
	case a == 'j' && b == 'u' && c == 'l':
		return 7
	case a == 'a' && b == 'u' && c == 'g':
		return 8
	case a == 's' && b == 'e' && c == 'p':
		return 9
	case a == 'o' && b == 'c' && c == 't':
		return 10
	case a == 'n' && b == 'o' && c == 'v':
		return 11
	case a == 'd' && b == 'e' && c == 'c':
		return 12
	}
	return 0
}
