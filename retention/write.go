package retention

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Timestamp is the 14-digit UTC time of CDX files and pywb rules.
const Timestamp = "20060102150405"

// Write writes the plan in its format: the rules, and the deadlines and
// conflicts as comments where the format has comments (see
// docs/semantics.md, "Retention export").
func (p *Plan) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var lines []string
	switch p.Format {
	case FormatPywbACL:
		lines = p.pywbLines()
	case FormatWaybackExclusions:
		lines = p.waybackLines()
	case FormatCDX:
		lines = p.cdxLines()
	}
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Comments returns the plan's notes, one per line without a comment
// marker: what the export is, every conflict and every upcoming deadline.
func (p *Plan) Comments() []string {
	asOf := "no as-of (every action counts as due)"
	if p.AsOf != nil {
		asOf = "as of " + p.AsOf.UTC().Format(time.RFC3339)
	}
	unit := "rules"
	if p.Format == FormatCDX {
		unit = "lines"
	}
	out := []string{fmt.Sprintf("repaudit retention export, %s, %s: %d %s hide %d of %d captures",
		p.Format, asOf, len(p.Rules), unit, p.Hidden, p.Captures)}
	for _, r := range p.Conflicts() {
		out = append(out, ConflictText(r))
	}
	for _, c := range p.Upcoming {
		out = append(out, UpcomingText(c))
	}
	return out
}

// ConflictText says which kept captures a rule hides too.
func ConflictText(r Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "conflict: the rule for %s (%s) also hides %d kept capture(s):", r.URL, r.Key, len(r.AlsoHidden))
	for _, c := range r.AlsoHidden {
		fmt.Fprintf(&b, " %s %s (%s@%d)", c.URL, c.Time.UTC().Format(time.RFC3339), c.WARCFile, c.Offset)
	}
	return b.String()
}

// UpcomingText says what changes for a capture, and when.
func UpcomingText(c *Capture) string {
	what := "time-limit ends"
	if c.Action != ActionKeep {
		what = c.Action + " due"
	}
	return fmt.Sprintf("upcoming: %s %s: %s captured %s (%s@%d), %s",
		c.Due.UTC().Format(time.RFC3339), what, c.URL, c.Time.UTC().Format(time.RFC3339), c.WARCFile, c.Offset, c.Reason)
}

// pywbLines writes exact-match rules as "wb-manager acl add --exact-match"
// does (pywb/manager/aclmanager.py, ACLManager._add_rule and to_key:
// "KEY### - {json}" with the fields access, url in that order, json.dumps
// spacing), with pywb's date field after them (AccessChecker's
// check_date_access reads "before" and "after"). Comments are lines
// with the key "#", which sorts below every SURT key, so pywb's lookup
// never reaches them, and wb-manager loads them as rules with no access
// that match no URL. All lines are sorted in reverse byte order, which
// AccessChecker's binary search (FileAccessIndexSource, rev_cmp) needs.
func (p *Plan) pywbLines() []string {
	var lines []string
	for _, r := range p.Rules {
		var b strings.Builder
		b.WriteString(r.Key + "### - {\"access\": " + pyJSON(r.Access) + ", \"url\": " + pyJSON(r.URL))
		if !r.Before.IsZero() {
			b.WriteString(", \"before\": " + pyJSON(r.Before.UTC().Format(Timestamp)))
		}
		if !r.After.IsZero() {
			b.WriteString(", \"after\": " + pyJSON(r.After.UTC().Format(Timestamp)))
		}
		b.WriteString("}")
		lines = append(lines, b.String())
	}
	for _, c := range p.Comments() {
		lines = append(lines, "# - {\"comment\": "+pyJSON(c)+"}")
	}
	sort.Sort(sort.Reverse(sort.StringSlice(lines)))
	return lines
}

// waybackLines writes one URL per line, the format of OpenWayback's
// static exclusion files (StaticMapExclusionFilterFactory and
// StaticListExclusionFilterFactory read each trimmed non-empty line as a
// URL to exclude with everything under it). The format has no comments:
// any line would be read as a URL, so the notes go to the caller only.
func (p *Plan) waybackLines() []string {
	lines := make([]string, 0, len(p.Rules))
	for _, r := range p.Rules {
		lines = append(lines, r.URL)
	}
	return lines
}

// cdxHeader is the CDX legend of the 11-field format that OpenWayback
// writes and pywb reads (CDXObject's "CDX 11 Format"): massaged URL,
// date, original URL, MIME type, status, digest, redirect, meta tags,
// compressed record size, offset, file name.
const cdxHeader = " CDX N b a m s k r M S V g"

// cdxLines writes the CDX11 lines of the captures to remove, sorted in
// byte order as CDX files are, after the legend and the notes as "#"
// lines. Fields the retention table does not hold (MIME type, digest,
// redirect, meta tags) are "-".
func (p *Plan) cdxLines() []string {
	lines := []string{cdxHeader}
	for _, c := range p.Comments() {
		lines = append(lines, "# "+oneLine(c))
	}
	var rows []string
	for _, r := range p.Rules {
		for _, c := range r.Hidden {
			status := "-"
			if c.Status > 0 {
				status = strconv.Itoa(c.Status)
			}
			rows = append(rows, strings.Join([]string{
				r.Key, cdxTime(c.Time), cdxField(c.URL), "-", status, "-", "-", "-",
				strconv.FormatInt(c.Length, 10), strconv.FormatInt(c.Offset, 10), cdxField(c.WARCFile),
			}, " "))
		}
	}
	sort.Strings(rows)
	return append(lines, rows...)
}

func cdxTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(Timestamp)
}

// cdxField keeps a field in one piece: space and line breaks as %XX.
func cdxField(s string) string {
	if s == "" {
		return "-"
	}
	return strings.NewReplacer(" ", "%20", "\n", "%0A", "\r", "%0D", "\t", "%09").Replace(s)
}

func oneLine(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}

// pyJSON quotes s as Python's json.dumps does by default (ensure_ascii):
// '"' and '\' escaped, \n \r \t \b \f by name, other controls and every
// non-ASCII rune as \uXXXX (UTF-16 surrogate pairs above U+FFFF);
// invalid UTF-8 becomes U+FFFD.
func pyJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || (r >= 0x7F && r <= 0xFFFF):
			fmt.Fprintf(&b, `\u%04x`, r)
		case r > 0xFFFF:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// MaxUpcomingLines caps the deadlines SummaryLines names; the file holds
// them all where the format has comments.
const MaxUpcomingLines = 10

// SummaryLines says what an export written to path holds, as "repaudit
// export" reports it: the counts, every conflict, every capture that got
// no rule, and the first deadlines to come, earliest first.
func (p *Plan) SummaryLines(path string) []string {
	out := []string{fmt.Sprintf("%s: %s", path, p.Comments()[0])}
	for _, r := range p.Conflicts() {
		out = append(out, ConflictText(r))
	}
	for _, pr := range p.Problems {
		out = append(out, fmt.Sprintf("no rule for %s (%s@%d): %v", pr.Capture.URL, pr.Capture.WARCFile, pr.Capture.Offset, pr.Err))
	}
	if n := len(p.Upcoming); n > 0 {
		out = append(out, fmt.Sprintf("%d upcoming deadline(s), earliest first:", n))
		for i, c := range p.Upcoming {
			if i == MaxUpcomingLines {
				out = append(out, fmt.Sprintf("  ... and %d more", n-MaxUpcomingLines))
				break
			}
			out = append(out, "  "+UpcomingText(c))
		}
	}
	return out
}
