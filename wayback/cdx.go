package wayback

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Fields asked for in every query, in this order.
const Fields = "timestamp,original,statuscode,digest"

// TimestampLayout is the layout of a 14-digit Wayback timestamp (UTC).
const TimestampLayout = "20060102150405"

// MaxCDXRows caps the rows ParseCDX returns; the rest are reported.
const MaxCDXRows = 100000

// Query is a CDX query for the captures of one URL.
type Query struct {
	URL string // what to look up, without scheme: "example.com/robots.txt"
	// From and To limit the capture times (inclusive); each is 1 to 14
	// digits of yyyyMMddhhmmss, or "" for no limit.
	From, To string
}

// At returns the query URL under base (e.g. "https://web.archive.org"):
//
//	BASE/cdx/search/cdx?url=U&output=json&fl=timestamp,original,statuscode,digest&collapse=digest&gzip=false[&from=F][&to=T]
func (q Query) At(base string) string {
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(base, "/"))
	b.WriteString("/cdx/search/cdx?url=")
	b.WriteString(url.QueryEscape(q.URL))
	b.WriteString("&output=json&fl=" + Fields + "&collapse=digest&gzip=false")
	if q.From != "" {
		b.WriteString("&from=" + url.QueryEscape(q.From))
	}
	if q.To != "" {
		b.WriteString("&to=" + url.QueryEscape(q.To))
	}
	return b.String()
}

// Capture is one CDX row.
type Capture struct {
	Row       int       // 1-based index of the row after the header row
	Timestamp string    // as the CDX server gave it (14 digits)
	Time      time.Time // Timestamp as a UTC time
	Original  string    // the URL as it was captured (may be http:// or carry a port)
	Status    int       // HTTP status of the capture; 0 when the CDX says "-"
	Digest    string    // payload digest (base32 SHA-1)
}

// ErrNotCDX is returned by ParseCDX for a body that is not a CDX JSON
// answer (not a JSON array of string arrays, or no usable header row).
var ErrNotCDX = errors.New("wayback: not a CDX JSON answer")

// ParseCDX reads a CDX server answer in JSON form. It finds the fields by
// the header row (so their order does not matter), returns the usable
// rows in order and a message for each row it skipped (wrong number of
// fields, bad timestamp, missing URL, bad status). An empty answer ("[]",
// or a header row alone) has no captures and no error.
func ParseCDX(data []byte) ([]Capture, []string, error) {
	var rows [][]string
	if err := json.Unmarshal(data, &rows); err != nil {
		// A row that is not all strings makes the whole array fail; say
		// which shape was expected.
		return nil, nil, fmt.Errorf("%w: %v", ErrNotCDX, err)
	}
	if len(rows) == 0 {
		return nil, nil, nil
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, need := range []string{"timestamp", "original"} {
		if _, ok := col[need]; !ok {
			return nil, nil, fmt.Errorf("%w: header row %q has no %q field", ErrNotCDX, rows[0], need)
		}
	}
	get := func(r []string, name string) (string, bool) {
		i, ok := col[name]
		if !ok {
			return "", true
		}
		return r[i], true
	}
	var out []Capture
	var notes []string
	for n, r := range rows[1:] {
		row := n + 1
		if len(r) == 0 {
			// A resumption key follows an empty row ("[]"); no key was
			// asked for, so nothing after it is a capture.
			break
		}
		if len(r) != len(rows[0]) {
			notes = append(notes, fmt.Sprintf("row %d: %d fields, header has %d; skipped", row, len(r), len(rows[0])))
			continue
		}
		if len(out) == MaxCDXRows {
			notes = append(notes, fmt.Sprintf("more than %d rows; the rest are ignored (narrow --from/--to)", MaxCDXRows))
			break
		}
		c := Capture{Row: row}
		c.Timestamp, _ = get(r, "timestamp")
		t, err := ParseTimestamp(c.Timestamp)
		if err != nil {
			notes = append(notes, fmt.Sprintf("row %d: %v; skipped", row, err))
			continue
		}
		c.Time = t
		c.Original, _ = get(r, "original")
		if u, err := url.Parse(c.Original); err != nil || u.Host == "" {
			notes = append(notes, fmt.Sprintf("row %d: original %q is not an absolute URL; skipped", row, clip(c.Original)))
			continue
		}
		if s, _ := get(r, "statuscode"); s != "" && s != "-" {
			st, err := strconv.Atoi(s)
			if err != nil || st < 100 || st > 999 {
				notes = append(notes, fmt.Sprintf("row %d: status %q; skipped", row, clip(s)))
				continue
			}
			c.Status = st
		}
		c.Digest, _ = get(r, "digest")
		out = append(out, c)
	}
	return out, notes, nil
}

// ParseTimestamp reads a 14-digit Wayback timestamp as UTC.
func ParseTimestamp(s string) (time.Time, error) {
	if len(s) != 14 || strings.Trim(s, "0123456789") != "" {
		return time.Time{}, fmt.Errorf("timestamp %q is not 14 digits", clip(s))
	}
	t, err := time.Parse(TimestampLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q: %v", s, err)
	}
	return t, nil
}

// RawURL returns the replay URL of a capture's archived payload:
// BASE/web/TIMESTAMP"id_"/ORIGINAL.
func RawURL(base, timestamp, original string) string {
	return strings.TrimSuffix(base, "/") + "/web/" + timestamp + "id_/" + original
}

// replayPath matches the path of a replay URL: /web/TIMESTAMP[flags]/ORIGINAL.
var replayPath = regexp.MustCompile(`^/web/[0-9]{1,14}(?:[a-z]{2}_)?/(.+)$`)

// OriginalURL returns the archived URL a replay URL (absolute, or a path
// on the Wayback host) points at, as the Location of a replayed redirect
// does; ok is false for anything else.
func OriginalURL(replay string) (string, bool) {
	u, err := url.Parse(replay)
	if err != nil {
		return "", false
	}
	p := u.Path
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	m := replayPath.FindStringSubmatch(p)
	if m == nil {
		return "", false
	}
	orig := m[1]
	// Some servers collapse "//" in the path: "https:/example.com".
	for _, s := range []string{"http:/", "https:/"} {
		if strings.HasPrefix(orig, s) && !strings.HasPrefix(orig, s+"/") {
			orig = s + "/" + orig[len(s):]
		}
	}
	if o, err := url.Parse(orig); err != nil || o.Host == "" || (o.Scheme != "http" && o.Scheme != "https") {
		return "", false
	}
	return orig, true
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
