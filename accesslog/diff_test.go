package accesslog

// Differential tests: the hand-written JSON scanner (jsonscan.go) against
// encoding/json, and the hand-written time parsers (timeparse.go) against
// time.Parse. Each runs a fixed-seed generator of many inputs in the
// ordinary test run and has a Fuzz target for longer runs (go test -fuzz
// FuzzDiffJSON ./accesslog). Where the two are meant to differ, the
// difference is listed, with an example that pins it, in the
// ...Divergences tests below: a change on either side shows up there.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// --- JSON -----------------------------------------------------------------

// stdMembers decodes a JSON object's members in order with encoding/json:
// keys decoded, values as their raw text. ok is false when s is not one
// valid JSON object, or nests deeper than the scanner's cap.
func stdMembers(s string) (keys []string, vals []json.RawMessage, ok bool) {
	if !json.Valid([]byte(s)) || depthOf(s) > maxJSONDepth {
		return nil, nil, false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, false
		}
		keys = append(keys, tok.(string))
		vals = append(vals, raw)
	}
	return keys, vals, true
}

// depthOf is the deepest bracket nesting of valid JSON s.
func depthOf(s string) int {
	dec := json.NewDecoder(strings.NewReader(s))
	d, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return deepest
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			d++
			deepest = max(deepest, d)
		case json.Delim('}'), json.Delim(']'):
			d--
		}
	}
}

// perByteFFFD replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD, as encoding/json does when it decodes a string.
func perByteFFFD(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// diffJSON checks that for one valid JSON object the scanner yields the
// members encoding/json does. Known divergence applied: the scanner passes
// invalid UTF-8 through (the Parquet writer replaces it later), where
// encoding/json replaces it byte by byte; the comparison maps ours the same
// way.
func diffJSON(t *testing.T, s string) {
	t.Helper()
	keys, vals, ok := stdMembers(s)
	if !ok {
		return
	}
	it := iterJSON(s, 0, '{')
	n := 0
	for {
		k, v, more := it.next()
		if !more {
			break
		}
		if n >= len(keys) {
			t.Fatalf("%q: scanner found member %d (%q), encoding/json only %d", s, n, k.str(), len(keys))
		}
		if got := perByteFFFD(k.str()); got != keys[n] {
			t.Fatalf("%q: key %d = %q, encoding/json %q", s, n, got, keys[n])
		}
		raw := vals[n]
		switch raw[0] {
		case '"':
			var want string
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if v.kind != jsonString || perByteFFFD(v.str()) != want {
				t.Fatalf("%q: value of %q = %q (kind %d), encoding/json %q", s, keys[n], v.str(), v.kind, want)
			}
		case '{', '[':
			want := jsonObject
			if raw[0] == '[' {
				want = jsonArray
			}
			if v.kind != want || v.raw != string(raw) {
				t.Fatalf("%q: value of %q = %q (kind %d), encoding/json %s", s, keys[n], v.raw, v.kind, raw)
			}
		default:
			if v.raw != string(raw) {
				t.Fatalf("%q: value of %q = %q, encoding/json %s", s, keys[n], v.raw, raw)
			}
			var want jsonKind
			switch raw[0] {
			case 't', 'f':
				want = jsonBool
			case 'n':
				want = jsonNull
			default:
				want = jsonNumber
			}
			if v.kind != want {
				t.Fatalf("%q: value of %q has kind %d, want %d", s, keys[n], v.kind, want)
			}
		}
		n++
	}
	if it.bad {
		t.Fatalf("%q: scanner rejected valid JSON after %d members", s, n)
	}
	if n != len(keys) {
		t.Fatalf("%q: scanner found %d members, encoding/json %d", s, n, len(keys))
	}
}

// genString makes a string with the characters that need care: quotes,
// backslashes, control characters, non-ASCII, astral runes, invalid UTF-8.
func genString(r *rand.Rand) string {
	pieces := []string{"a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\x00", "\x1f", "é", "€", "🤖", "\u2028",
		"\xff", "\xc3", "<", "&", "GET /x HTTP/1.1", "Mozilla/5.0 (compatible; GPTBot/1.2)"}
	var b strings.Builder
	for range r.IntN(6) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// genValue makes a random JSON value of at most depth levels.
func genValue(r *rand.Rand, depth int) any {
	switch k := r.IntN(8); {
	case k == 0 && depth > 0:
		m := map[string]any{}
		for range r.IntN(4) {
			m[genString(r)] = genValue(r, depth-1)
		}
		return m
	case k == 1 && depth > 0:
		var a []any
		for range r.IntN(4) {
			a = append(a, genValue(r, depth-1))
		}
		return a
	case k == 2:
		return r.IntN(2) == 0
	case k == 3:
		return nil
	case k == 4:
		return json.Number([]string{"0", "-1", "12.5", "1e9", "-0.25E-3", "1714564800.123"}[r.IntN(6)])
	default:
		return genString(r)
	}
}

// genObject renders a random object as one line, with its members in a
// random order (so duplicate keys and order matter), random white space,
// and strings escaped by encoding/json or written with other valid escapes.
func genObject(r *rand.Rand) string {
	ws := func() string { return []string{"", "", " ", "\t", " \r\n "}[r.IntN(5)] }
	var b strings.Builder
	b.WriteString(ws() + "{")
	for i := range r.IntN(6) {
		if i > 0 {
			b.WriteString(ws() + ",")
		}
		k, _ := json.Marshal(genString(r))
		v, _ := json.Marshal(genValue(r, 3))
		if r.IntN(4) == 0 {
			// \u escapes for every escapable rune, as some loggers write.
			k = []byte(strings.ReplaceAll(string(k), "/", `\/`))
			v = bytes.ReplaceAll(v, []byte(`\n`), []byte(`\u000a`))
		}
		b.WriteString(ws() + string(k) + ws() + ":" + ws() + string(v))
	}
	b.WriteString(ws() + "}" + ws())
	return b.String()
}

func TestDiffJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	valid := 0
	for range 20000 {
		s := genObject(r)
		if json.Valid([]byte(s)) {
			valid++
		}
		diffJSON(t, s)
	}
	if valid < 19000 {
		t.Fatalf("only %d of 20000 generated objects are valid JSON: the generator is broken", valid)
	}
}

func FuzzDiffJSON(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		f.Add(genObject(r))
	}
	f.Add(`{"time_iso8601": "2025-03-12T10:00:00+00:00", "remote_addr": "192.0.2.1", "request": "GET /a HTTP/1.1", "status": 200}`)
	f.Add(`{"a": {"b": [1, {"c": "\ud83e\udd16"}]}, "d": null, "e": true}`)
	f.Fuzz(func(t *testing.T, s string) {
		diffJSON(t, s)
	})
}

// TestJSONDivergences records where the scanner deliberately accepts what
// encoding/json rejects, or reads it otherwise. Each case must stay as
// described: the scanner reads logs that real servers write, not only
// valid JSON.
func TestJSONDivergences(t *testing.T) {
	tests := []struct {
		why  string
		in   string
		key  string
		want string // the scanner's decoded value of key
	}{
		{"nginx's \\xHH escape (a JSON-shaped log_format without escape=json)", `{"ua": "caf\xC3\xA9"}`, "ua", "café"},
		{"raw control characters inside strings are kept", "{\"ua\": \"a\tb\"}", "ua", "a\tb"},
		{"a malformed escape is kept as written", `{"u": "a\qb"}`, "u", `a\qb`},
		{"a short \\u escape is kept as written", `{"u": "\u12"}`, "u", `\u12`},
		{"numbers are not validated, only delimited", `{"n": 1.2.3e--}`, "n", "1.2.3e--"},
		{"a nested value is only bracket-matched until walked", `{"o": {"a" 1}, "k": "v"}`, "k", "v"},
		{"a leading zero is accepted", `{"n": 007}`, "n", "007"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			if json.Valid([]byte(tt.in)) {
				t.Fatalf("encoding/json now accepts %q: not a divergence", tt.in)
			}
			it := iterJSON(tt.in, 0, '{')
			found := false
			for {
				k, v, ok := it.next()
				if !ok {
					break
				}
				if k.str() == tt.key {
					found = true
					if got := v.str(); got != tt.want {
						t.Errorf("%q: %s = %q, want %q", tt.in, tt.key, got, tt.want)
					}
				}
			}
			if it.bad || !found {
				t.Errorf("scanner rejected %q (bad %v, found %v)", tt.in, it.bad, found)
			}
		})
	}
	// And the other way: valid JSON the scanner refuses.
	// The cap counts the levels below the object walked: this is one too many.
	deep := strings.Repeat(`{"a":`, maxJSONDepth+2) + "1" + strings.Repeat("}", maxJSONDepth+2)
	if !json.Valid([]byte(deep)) {
		t.Fatal("test input is not valid JSON")
	}
	it := iterJSON(deep, 0, '{')
	for {
		if _, _, ok := it.next(); !ok {
			break
		}
	}
	if !it.bad {
		t.Errorf("nesting deeper than %d: scanner accepted it, want it refused (the cap bounds its work)", maxJSONDepth)
	}
}

// --- times ----------------------------------------------------------------

const clfLayout = "02/Jan/2006:15:04:05 -0700"

// diffCLF: whatever parseCLFTime accepts, time.Parse accepts as the same
// instant, except a leap second (:60), which parseCLFTime rolls over and
// time.Parse refuses. Whatever time.Parse accepts, parseCLFTime accepts,
// except the shapes listed in clfGoOnly.
func diffCLF(t *testing.T, s string) {
	t.Helper()
	got, ok := parseCLFTime(s)
	want, err := time.Parse(clfLayout, s)
	switch {
	case ok && err == nil:
		if !got.Equal(want) {
			t.Fatalf("%q: parseCLFTime %v, time.Parse %v", s, got, want)
		}
	case ok && err != nil:
		if len(s) == 26 && s[18:20] == "60" {
			return // leap second: see TestTimeDivergences
		}
		t.Fatalf("%q: parseCLFTime accepts (%v), time.Parse refuses: %v", s, got, err)
	case !ok && err == nil:
		if why := clfGoOnly(s); why == "" {
			t.Fatalf("%q: time.Parse accepts (%v), parseCLFTime refuses", s, want)
		}
	}
}

// clfGoOnly says why time.Parse accepts s where parseCLFTime does not, or
// "" when it knows no reason. Logs never write these shapes.
func clfGoOnly(s string) string {
	switch {
	case len(s) > 17 && strings.ContainsAny(s[17:], ".,"):
		return "fractional seconds, which time.Parse accepts after any seconds field"
	case len(s) > 13 && s[13] == ':':
		return "a one-digit hour (layout 15 reads one or two digits)"
	case len(s) >= 5 && (s[len(s)-4:len(s)-2] == "24" || s[len(s)-2:] == "60"):
		return "zone offset hour 24 or minute 60, which time.Parse allows"
	}
	return ""
}

// diffISO: whatever parseISOTime accepts, time.Parse reads as the same
// instant with one of the layouts of the shapes it accepts (after mapping
// a lower-case 't' or 'z' or a space separator to 'T' and 'Z', which
// time.Parse takes literally); whatever time.Parse accepts as RFC 3339,
// parseISOTime accepts as the same instant.
func diffISO(t *testing.T, s string) {
	t.Helper()
	got, ok := parseISOTime(s)
	if want, err := time.Parse(time.RFC3339Nano, s); err == nil && !(!ok && isoGoOnly(s)) {
		if !ok || !got.Equal(want) {
			t.Fatalf("%q: time.Parse(RFC3339) %v, parseISOTime %v (ok %v)", s, want, got, ok)
		}
	}
	if !ok {
		return
	}
	if len(s) >= 19 && s[17:19] == "60" {
		return // leap second: see TestTimeDivergences
	}
	norm := []byte(s)
	norm[10] = 'T'
	if norm[len(norm)-1] == 'z' {
		norm[len(norm)-1] = 'Z'
	}
	for _, layout := range []string{"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05Z07",
		"2006-01-02T15:04:05", "2006-01-02T15:04:05MST", "2006-01-02T15:04:05 MST"} {
		if want, err := time.Parse(layout, string(norm)); err == nil {
			if !got.Equal(want) {
				t.Fatalf("%q: parseISOTime %v, time.Parse(%q) %v", s, got, layout, want)
			}
			return
		}
	}
	if fracDigits(s) > 9 {
		return // more than 9 fraction digits: see TestTimeDivergences
	}
	t.Fatalf("%q: parseISOTime accepts (%v), no time.Parse layout does", s, got)
}

// isoGoOnly reports the RFC 3339-like shapes time.Parse accepts and
// parseISOTime does not: a zone offset of 24 hours (RFC 3339 §5.6's
// time-hour is 00-23) and a one-digit hour (time.Parse falls back from
// its strict RFC 3339 reader to the general one, whose "15" reads one or
// two digits). Logs write neither.
func isoGoOnly(s string) bool {
	offset24 := len(s) > 6 && (strings.HasSuffix(s[:len(s)-3], "+24") || strings.HasSuffix(s[:len(s)-3], "-24"))
	oneDigitHour := len(s) > 13 && s[12] == ':' && s[13] != ':'
	return offset24 || oneDigitHour
}

// fracDigits counts the digits of the fraction after the seconds.
func fracDigits(s string) int {
	if len(s) < 20 || (s[19] != '.' && s[19] != ',') {
		return 0
	}
	n := 0
	for _, c := range []byte(s[20:]) {
		if c < '0' || c > '9' {
			break
		}
		n++
	}
	return n
}

// genTime writes a time in one of the shapes logs use, with fields
// sometimes out of range or malformed.
func genTime(r *rand.Rand, clf bool) string {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	num := func(width, limit int) string {
		if r.IntN(20) == 0 {
			return pick("", "x", "1", "123", "-1", " 1")
		}
		return fmt.Sprintf("%0*d", width, r.IntN(limit))
	}
	year := pick("0000", "1969", "1970", "2000", "2024", "2025", "2100", "9999", num(4, 10000))
	mon := r.IntN(13) + 1
	day, hh, mm, ss := num(2, 33), num(2, 26), num(2, 61), num(2, 62)
	if clf {
		names := []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "jan", "OCT", "Foo"}
		zone := pick("+0000", "-0700", "+0530", "+1400", "-1200", "+2400", "+0060", "+2359", "Z", "+07", "+07:00", num(5, 99999))
		return day + "/" + names[r.IntN(len(names))] + "/" + year + ":" + hh + ":" + mm + ":" + ss + pick(" ", " ", " ", ".5 ", "") + zone
	}
	frac := pick("", "", ".5", ",25", ".123456789", ".1234567891", ".", ".000001")
	zone := pick("", "Z", "z", "+00:00", "-07:00", "+0530", "+05", "+24:00", "+23:59", "UTC", " UTC", "GMT", " GMT", "EST", "+5:30")
	return year + "-" + fmt.Sprintf("%02d", mon) + "-" + day + pick("T", " ", "t", "_") + hh + ":" + mm + ":" + ss + frac + zone
}

func TestDiffTimes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var clfOK, isoOK int
	for range 50000 {
		s := genTime(r, true)
		if _, ok := parseCLFTime(s); ok {
			clfOK++
		}
		diffCLF(t, s)
		s = genTime(r, false)
		if _, ok := parseISOTime(s); ok {
			isoOK++
		}
		diffISO(t, s)
	}
	// The generator must reach both sides of each parser.
	if clfOK < 5000 || clfOK > 45000 || isoOK < 5000 || isoOK > 45000 {
		t.Fatalf("accepted %d CLF and %d ISO times of 50000: the generator is off", clfOK, isoOK)
	}
}

func FuzzDiffTimes(f *testing.F) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		f.Add(genTime(r, true))
		f.Add(genTime(r, false))
	}
	f.Fuzz(func(t *testing.T, s string) {
		diffCLF(t, s)
		diffISO(t, s)
	})
}

// TestTimeDivergences pins each place where the hand-written parsers and
// time.Parse are meant to disagree.
func TestTimeDivergences(t *testing.T) {
	// Leap seconds: logs of servers with leap-second smearing off write
	// :60; parseCLFTime and parseISOTime roll it over to the next minute,
	// time.Parse refuses it.
	for _, tc := range []struct{ in, layout, want string }{
		{"31/Dec/2016:23:59:60 +0000", clfLayout, "2017-01-01T00:00:00Z"},
		{"2016-12-31T23:59:60Z", time.RFC3339, "2017-01-01T00:00:00Z"},
	} {
		var got time.Time
		var ok bool
		if tc.layout == clfLayout {
			got, ok = parseCLFTime(tc.in)
		} else {
			got, ok = parseISOTime(tc.in)
		}
		if !ok || got.Format(time.RFC3339) != tc.want {
			t.Errorf("%q = %v (ok %v), want %s", tc.in, got, ok, tc.want)
		}
		if _, err := time.Parse(tc.layout, tc.in); err == nil {
			t.Errorf("time.Parse now accepts the leap second %q", tc.in)
		}
	}
	// Shapes only time.Parse accepts for the CLF layout.
	for _, in := range []string{"10/Oct/2000:13:55:36.5 -0700", "10/Oct/2000:1:55:36 -0700", "10/Oct/2000:13:55:36 +2400", "10/Oct/2000:13:55:36 +0060"} {
		if _, err := time.Parse(clfLayout, in); err != nil {
			t.Errorf("time.Parse refuses %q: %v; not a divergence any more", in, err)
		}
		if _, ok := parseCLFTime(in); ok {
			t.Errorf("parseCLFTime accepts %q", in)
		}
		if clfGoOnly(in) == "" {
			t.Errorf("clfGoOnly has no reason for %q", in)
		}
	}
	// A zone offset of 24 hours and a one-digit hour: time.Parse takes
	// them as RFC 3339, parseISOTime does not.
	for _, in := range []string{"2025-03-12T10:00:00+24:00", "2025-03-12T1:00:00Z"} {
		if _, err := time.Parse(time.RFC3339, in); err != nil {
			t.Errorf("time.Parse refuses %q: %v; not a divergence any more", in, err)
		}
		if _, ok := parseISOTime(in); ok || !isoGoOnly(in) {
			t.Errorf("parseISOTime accepts %q, or isoGoOnly does not know it", in)
		}
	}
	// More than 9 fraction digits: parseISOTime drops the rest; the Go
	// layouts with an implicit fraction refuse them.
	in := "2025-03-12T10:00:00.1234567891Z"
	if got, ok := parseISOTime(in); !ok || got.Nanosecond() != 123456789 {
		t.Errorf("%q = %v (ok %v), want .123456789", in, got, ok)
	}
	// Shapes parseISOTime accepts that RFC 3339 does not, read as UTC or
	// with their offset.
	for in, want := range map[string]string{
		"2025-03-12 10:00:00":       "2025-03-12T10:00:00Z",
		"2025-03-12t10:00:00z":      "2025-03-12T10:00:00Z",
		"2025-03-12T10:00:00+0530":  "2025-03-12T04:30:00Z",
		"2025-03-12T10:00:00+05":    "2025-03-12T05:00:00Z",
		"2025-03-12T10:00:00 UTC":   "2025-03-12T10:00:00Z",
		"2025-03-12T10:00:00,5 GMT": "2025-03-12T10:00:00.5Z",
	} {
		if got, ok := parseISOTime(in); !ok || got.Format(time.RFC3339Nano) != want {
			t.Errorf("%q = %v (ok %v), want %s", in, got, ok, want)
		}
		if _, err := time.Parse(time.RFC3339Nano, in); err == nil {
			t.Errorf("time.Parse(RFC3339) accepts %q: not a divergence", in)
		}
	}
}
