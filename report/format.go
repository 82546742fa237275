package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/repaudit/repaudit/internal/safetext"
)

// Cell formatting shared by the writers. Times are UTC; the text and
// Markdown forms drop the "T" and zone for width, JSON keeps RFC 3339.

// isDate reports a DuckDB DATE column.
func isDate(typ string) bool { return typ == "DATE" }

// isTime reports a DuckDB date or timestamp column.
func isTime(typ string) bool { return typ == "DATE" || strings.HasPrefix(typ, "TIMESTAMP") }

// textCell renders a value for a terminal, Markdown, CSV or HTML cell.
func textCell(v any, typ string) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		if isDate(typ) {
			return x.Format(time.DateOnly)
		}
		if x.Nanosecond() != 0 {
			return x.Format("2006-01-02 15:04:05.999999")
		}
		return x.Format(time.DateTime)
	case []byte:
		return fmt.Sprintf("%x", x)
	default:
		b, err := json.Marshal(jsonValue(x, typ))
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
}

// jsonValue maps a value to what encoding/json should write.
func jsonValue(v any, typ string) any {
	switch x := v.(type) {
	case time.Time:
		if isDate(typ) {
			return x.Format(time.DateOnly)
		}
		return x.Format(time.RFC3339Nano)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return x
	case []byte:
		return fmt.Sprintf("%x", x)
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = jsonValue(x[i], "")
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonValue(e, "")
		}
		return out
	}
	return v
}

// object is a JSON object that keeps its keys in order.
type object []field

type field struct {
	Key   string
	Value any
}

// MarshalJSON writes the fields in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// rowObject makes one row an ordered JSON object.
func rowObject(cols, types []string, row []any) object {
	o := make(object, len(cols))
	for i, c := range cols {
		o[i] = field{c, jsonValue(row[i], types[i])}
	}
	return o
}

// sectionObject is the JSON form of a section.
func sectionObject(s *Section) object {
	rows := make([]object, len(s.Rows))
	for i, r := range s.Rows {
		rows[i] = rowObject(s.Columns, s.Types, r)
	}
	return object{
		{"id", s.ID}, {"title", s.Title}, {"note", s.Note}, {"query", s.Query + ".sql"},
		{"remarks", nonNil(s.Remarks)}, {"columns", nonNil(s.Columns)}, {"rows", rows}, {"more_rows", s.More},
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteJSON writes the report as indented JSON with a stable key order:
// header fields, inputs, counts in table order, totals, then the sections
// in report order with their rows as objects keyed by column. Every row of
// every section is included up to 10000 per section (more_rows counts the
// rest). Times are RFC 3339 in the report's zone (time_zone). Wall-clock
// timings are left out so the output depends only on the audit's data.
func (r *Report) WriteJSON(w io.Writer) error {
	m := &r.Manifest
	inputs := make([]object, len(m.Inputs))
	for i, in := range m.Inputs {
		inputs[i] = object{{"path", in.Path}, {"kind", in.Kind}, {"format", in.Format},
			{"size", in.Size}, {"sha256", in.SHA256}, {"records", in.Records}, {"problems", in.Problems}}
	}
	counts := object{}
	for _, c := range r.countsInOrder() {
		counts = append(counts, field{c.Name, c.N})
	}
	var totals object
	if len(r.Totals.Rows) == 1 {
		totals = rowObject(r.Totals.Columns, r.Totals.Types, r.Totals.Rows[0])
	}
	sections := make([]object, len(r.Sections))
	for i := range r.Sections {
		sections[i] = sectionObject(&r.Sections[i])
	}
	top := object{
		{"tool", m.Tool}, {"version", m.Version}, {"schema_version", m.SchemaVersion},
		{"as_of", r.manifestTime(m.AsOf)}, {"started", r.manifestTime(m.Started)}, {"finished", r.manifestTime(m.Finished)},
		{"time_zone", r.zone()},
		{"command", nonNil(m.Command)}, {"inputs", inputs}, {"counts", counts},
		{"summary", r.summaryLines()}, {"totals", totals}, {"sections", sections},
	}
	data, err := json.MarshalIndent(top, "", "  ")
	if err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	data = append(safetext.AppendJSON(nil, data), '\n')
	_, err = w.Write(data)
	return err
}

// maxTableRows caps the rows a text, Markdown or HTML table shows; the rest
// are counted and the full data is in JSON or `repaudit query`.
const maxTableRows = 50

// Text layout: a table is fitted to textWidth columns (or Report.Width) by
// shrinking its widest columns, never below minColWidth; cells that do not
// fit end in "…". Notes wrap at noteWidth or the table width if narrower.
const (
	textWidth   = 120
	minColWidth = 8
	colGap      = 2
	noteWidth   = 100
)

// width is the width of the report's terminal tables.
func (r *Report) width() int {
	if r.Width > 0 {
		return r.Width
	}
	return textWidth
}

// visible returns the column indexes a terminal shows.
func (s *Section) visible() []int {
	if s.TextColumns == nil {
		idx := make([]int, len(s.Columns))
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	var idx []int
	for _, name := range s.TextColumns {
		if i := s.Col(name); i >= 0 {
			idx = append(idx, i)
		}
	}
	return idx
}

// clean makes a cell one line of printable text: line breaks and tabs
// become spaces, and every other control character, bidirectional
// override or invalid byte a visible escape (safetext.Escape), so logged
// data cannot drive the terminal. Escaping per cell keeps the columns'
// widths true.
func clean(s string) string {
	if strings.ContainsAny(s, "\n\r\t") {
		s = strings.Map(func(r rune) rune {
			switch r {
			case '\n', '\r', '\t':
				return ' '
			}
			return r
		}, s)
	}
	return safetext.Escape(s)
}

// truncate cuts s to at most n runes, ending in "…" when cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// truncateLeft cuts s to at most n runes, starting with "…" when cut.
func truncateLeft(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	return "…" + string(r[len(r)-n+1:])
}

// keepEnd reports columns whose end matters more than their start when
// cut: file paths and locations end in the file name and line or offset.
func keepEnd(col string) bool {
	return col == "path" || strings.HasSuffix(col, "location") || strings.HasSuffix(col, "file") ||
		strings.HasSuffix(col, "filename") || strings.HasSuffix(col, "_record")
}

// numeric reports whether a column is right-aligned.
func numeric(typ string) bool {
	switch typ {
	case "BIGINT", "INTEGER", "SMALLINT", "TINYINT", "HUGEINT", "UBIGINT", "UINTEGER",
		"USMALLINT", "UTINYINT", "DOUBLE", "FLOAT", "DECIMAL":
		return true
	}
	return strings.HasPrefix(typ, "DECIMAL")
}

// writeTextTable writes an aligned table of the given columns.
func writeTextTable(w io.Writer, cols []string, types []string, rows [][]string, width int) error {
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = utf8.RuneCountInString(c)
	}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	total := func() int {
		t := 0
		for _, w := range widths {
			t += w + colGap
		}
		return t - colGap
	}
	// Shrink the widest text column first; numbers and times are cut only
	// when text columns are already at their minimum, since a cut number
	// or time is useless.
	for _, textOnly := range []bool{true, false} {
		for total() > width {
			wi := -1
			for i := range widths {
				if textOnly && (numeric(types[i]) || isTime(types[i])) {
					continue
				}
				if widths[i] > minColWidth && (wi < 0 || widths[i] > widths[wi]) {
					wi = i
				}
			}
			if wi < 0 {
				break
			}
			widths[wi]--
		}
	}
	var b strings.Builder
	line := func(cells []string, rule bool) {
		b.Reset()
		for i, c := range cells {
			if i > 0 {
				b.WriteString(strings.Repeat(" ", colGap))
			}
			if keepEnd(cols[i]) {
				c = truncateLeft(c, widths[i])
			} else {
				c = truncate(c, widths[i])
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			switch {
			case rule:
				b.WriteString(strings.Repeat("-", widths[i]))
			case numeric(types[i]):
				b.WriteString(pad + c)
			case i == len(cells)-1:
				b.WriteString(c)
			default:
				b.WriteString(c + pad)
			}
		}
		trimmed := strings.TrimRight(b.String(), " ")
		b.Reset()
		b.WriteString(trimmed)
		b.WriteByte('\n')
	}
	line(cols, false)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	line(cols, true)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	for _, r := range rows {
		line(r, false)
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// cells renders rows of the chosen columns as text, at most limit rows.
func cells(rows [][]any, types []string, idx []int, limit int) [][]string {
	n := len(rows)
	if limit >= 0 && n > limit {
		n = limit
	}
	out := make([][]string, n)
	for r := range n {
		out[r] = make([]string, len(idx))
		for j, i := range idx {
			out[r][j] = clean(textCell(rows[r][i], types[i]))
		}
	}
	return out
}

func pick(s []string, idx []int) []string {
	out := make([]string, len(idx))
	for j, i := range idx {
		out[j] = s[i]
	}
	return out
}

// WriteText writes the report as aligned terminal tables that fit in
// Report.Width columns, 120 by default (long cells are cut with "…"; each
// table shows at most 50 rows). It leads with the answer: the headline
// numbers and the lead sections (what the bots did), then the notices of
// what could not be judged, the other sections, and last the inputs and
// row counts. Times are in the report's zone. Control
// characters, bidirectional overrides and invalid bytes in the data are
// written as visible escapes (package safetext).
func (r *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: safetext.NewWriter(w)}
	m := &r.Manifest
	width := r.width()
	fmt.Fprintf(ew, "repaudit report — %s %s, schema %d\n", m.Tool, m.Version, m.SchemaVersion)
	fmt.Fprintf(ew, "as of %s (all times %s)\n", orNone(r.manifestTime(m.AsOf)), r.zone())
	if m.Started != "" || m.Finished != "" {
		fmt.Fprintf(ew, "data from %s to %s\n", orNone(r.manifestTime(m.Started)), orNone(r.manifestTime(m.Finished)))
	}
	fmt.Fprintln(ew)
	for _, l := range r.headlineLines() {
		fmt.Fprintln(ew, wrap(l, width))
	}
	lead, rest := r.split()
	for _, s := range lead {
		r.writeTextSection(ew, s)
	}
	if notices := r.noticeLines(); len(notices) > 0 {
		fmt.Fprintf(ew, "\n%s\n%s\n", noticesTitle, strings.Repeat("=", utf8.RuneCountInString(noticesTitle)))
		for _, n := range notices {
			fmt.Fprintln(ew, "- "+indent(wrap(n, min(noteWidth, width)-2), "  "))
		}
	}
	for _, s := range rest {
		r.writeTextSection(ew, s)
	}
	if len(m.Inputs) > 0 {
		fmt.Fprintf(ew, "\nInputs\n======\n")
		rows := make([][]string, len(m.Inputs))
		for i, in := range m.Inputs {
			rows[i] = []string{clean(in.Path), in.Kind, in.Format, strconv.FormatInt(in.Size, 10),
				strconv.FormatInt(in.Records, 10), strconv.FormatInt(in.Problems, 10)}
		}
		writeTextTable(ew, []string{"path", "kind", "format", "bytes", "records", "problems"},
			[]string{"", "", "", "BIGINT", "BIGINT", "BIGINT"}, rows, width)
	}
	var counts []string
	for _, c := range r.countsInOrder() {
		counts = append(counts, fmt.Sprintf("%s %d", c.Name, c.N))
	}
	fmt.Fprintf(ew, "\n%s\n", wrap("Rows: "+strings.Join(counts, ", "), width))
	return ew.err
}

// writeTextSection writes one section of WriteText: its title, note and
// remarks, and its table of at most maxTableRows rows.
func (r *Report) writeTextSection(ew *errWriter, s *Section) {
	width := r.width()
	nw := min(noteWidth, width)
	fmt.Fprintf(ew, "\n%s\n%s\n", s.Title, strings.Repeat("=", utf8.RuneCountInString(s.Title)))
	if s.Note != "" {
		fmt.Fprintln(ew, wrap(s.Note, nw))
	}
	for _, l := range s.Remarks {
		fmt.Fprintln(ew, wrap(l, nw))
	}
	if len(s.Rows) == 0 {
		fmt.Fprintln(ew, "(none)")
		return
	}
	idx := s.visible()
	writeTextTable(ew, pick(s.Columns, idx), pick(s.Types, idx), cells(s.Rows, s.Types, idx, maxTableRows), width)
	if n := int64(len(s.Rows)-maxTableRows) + s.More; n > 0 {
		fmt.Fprintf(ew, "… %d more rows (all rows: --format json, or repaudit query with queries/%s.sql)\n", n, s.Query)
	}
}

// indent puts prefix before every line of s but the first.
func indent(s, prefix string) string {
	return strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// wrap breaks text into lines of at most width runes at spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		l := utf8.RuneCountInString(word)
		if i > 0 {
			if n+1+l > width {
				b.WriteByte('\n')
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(word)
		n += l
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "(not recorded)"
	}
	return s
}

// errWriter remembers the first write error so the writers can print
// freely and check once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

// mdEscape makes text safe in a Markdown table cell: pipes, backslashes,
// markup characters and HTML are escaped so data cannot change the layout.
// Underscores inside words (column names, finding kinds) are left alone:
// GitHub-flavoured Markdown never reads them as emphasis.
func mdEscape(s string) string {
	s = clean(s)
	rs := []rune(s)
	var b strings.Builder
	word := func(i int) bool {
		return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]))
	}
	for i, r := range rs {
		switch r {
		case '|', '\\', '`', '*', '[', ']', '<', '>', '#', '~':
			b.WriteByte('\\')
		case '_':
			if !word(i-1) || !word(i+1) {
				b.WriteByte('\\')
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// WriteMarkdown writes the report as GitHub-flavoured Markdown in the
// order of WriteText: a header, the summary, one table per section with
// every column (at most 50 rows each), the notices after the lead
// sections, the inputs last. Control characters are escaped as in WriteText.
func (r *Report) WriteMarkdown(w io.Writer) error {
	ew := &errWriter{w: safetext.NewWriter(w)}
	m := &r.Manifest
	fmt.Fprintf(ew, "# repaudit report\n\n")
	fmt.Fprintf(ew, "- Tool: %s %s, schema %d\n", mdEscape(m.Tool), mdEscape(m.Version), m.SchemaVersion)
	fmt.Fprintf(ew, "- As of: %s (all times %s)\n", mdEscape(orNone(r.manifestTime(m.AsOf))), mdEscape(r.zone()))
	if m.Started != "" || m.Finished != "" {
		fmt.Fprintf(ew, "- Data from %s to %s\n", mdEscape(orNone(r.manifestTime(m.Started))), mdEscape(orNone(r.manifestTime(m.Finished))))
	}
	fmt.Fprintf(ew, "\n## Summary\n\n")
	for _, l := range r.headlineLines() {
		fmt.Fprintf(ew, "- %s\n", mdEscape(l))
	}
	lead, rest := r.split()
	for _, s := range lead {
		writeMarkdownSection(ew, s)
	}
	if notices := r.noticeLines(); len(notices) > 0 {
		fmt.Fprintf(ew, "\n## %s\n\n", noticesTitle)
		for _, n := range notices {
			fmt.Fprintf(ew, "- %s\n", mdEscape(n))
		}
	}
	for _, s := range rest {
		writeMarkdownSection(ew, s)
	}
	if len(m.Inputs) > 0 {
		fmt.Fprintf(ew, "\n## Inputs\n\n| path | kind | format | bytes | records | problems | sha256 |\n|---|---|---|--:|--:|--:|---|\n")
		for _, in := range m.Inputs {
			fmt.Fprintf(ew, "| %s | %s | %s | %d | %d | %d | %s |\n", mdEscape(in.Path), mdEscape(in.Kind),
				mdEscape(in.Format), in.Size, in.Records, in.Problems, mdEscape(in.SHA256))
		}
	}
	var counts []string
	for _, c := range r.countsInOrder() {
		counts = append(counts, fmt.Sprintf("%s %d", c.Name, c.N))
	}
	fmt.Fprintf(ew, "\nRows: %s\n", strings.Join(counts, ", "))
	return ew.err
}

// writeMarkdownSection writes one section of WriteMarkdown: a heading, its
// note and remarks, and a table of every column, at most maxTableRows rows.
func writeMarkdownSection(ew *errWriter, s *Section) {
	fmt.Fprintf(ew, "\n## %s\n\n", mdEscape(s.Title))
	if s.Note != "" {
		fmt.Fprintf(ew, "%s\n\n", mdEscape(s.Note))
	}
	for _, l := range s.Remarks {
		fmt.Fprintf(ew, "%s\n\n", mdEscape(l))
	}
	if len(s.Rows) == 0 {
		fmt.Fprintf(ew, "None.\n")
		return
	}
	var head, rule strings.Builder
	for j, c := range s.Columns {
		head.WriteString("| " + mdEscape(c) + " ")
		if numeric(s.Types[j]) {
			rule.WriteString("|--:")
		} else {
			rule.WriteString("|---")
		}
	}
	fmt.Fprintf(ew, "%s|\n%s|\n", head.String(), rule.String())
	n := min(len(s.Rows), maxTableRows)
	for _, row := range s.Rows[:n] {
		var b strings.Builder
		for j, v := range row {
			b.WriteString("| " + mdEscape(textCell(v, s.Types[j])) + " ")
		}
		fmt.Fprintf(ew, "%s|\n", b.String())
	}
	if more := int64(len(s.Rows)-n) + s.More; more > 0 {
		fmt.Fprintf(ew, "\n%d more rows: see `--format json` or run `queries/%s.sql` with `repaudit query`.\n", more, s.Query)
	}
}

// WriteResult writes a query result as an aligned table ("table", fitted
// to 120 columns), CSV ("csv", RFC 4180, header row first, RFC 3339 times)
// or JSON ("json", an array of objects keyed by column, in column order).
// The table escapes control characters as WriteText does. CSV escapes them
// too (safetext.EscapeLines: newlines and tabs stay, quoted by CSV), and
// JSON writes them as \u escapes, so it decodes to the exact data;
// ExportOptions.Raw turns both off.
func WriteResult(w io.Writer, res *Result, format string) error {
	return writeResult(w, res, format, textWidth)
}

func writeResult(w io.Writer, res *Result, format string, width int) error {
	if format == "" || format == "table" {
		idx := make([]int, len(res.Columns))
		for i := range idx {
			idx[i] = i
		}
		ew := &errWriter{w: safetext.NewWriter(w)}
		writeTextTable(ew, res.Columns, res.Types, cells(res.Rows, res.Types, idx, -1), width)
		if res.More > 0 {
			fmt.Fprintf(ew, "… %d more rows (use --format csv or json for all rows)\n", res.More)
		}
		return ew.err
	}
	rw, err := newRowWriter(w, format)
	if err != nil {
		return err
	}
	if err := rw.head(res.Columns, res.Types); err != nil {
		return err
	}
	for _, row := range res.Rows {
		if err := rw.row(row); err != nil {
			return err
		}
	}
	return rw.end()
}

// ExportOptions change how Export writes rows.
type ExportOptions struct {
	// GuardFormulas prefixes a text cell of CSV output that starts with
	// =, +, -, @, a tab or a carriage return with a single quote, so that
	// a spreadsheet shows it as text instead of running it as a formula
	// (CSV formula injection: logged URLs and User-Agents are chosen by
	// whoever sent the request). Numbers and times are left alone. Off by
	// default: the prefix changes the data for every other CSV reader.
	GuardFormulas bool
	// Raw writes CSV cells and JSON strings with control characters and
	// bidirectional formatting as they are in the data. By default CSV
	// shows them as visible escapes (\x1b, \u202e; newlines and tabs
	// stay) and JSON as \u escapes, so a hostile User-Agent printed to a
	// terminal cannot drive it. The terminal table is always escaped.
	Raw bool
}

// rowWriter streams rows in one format.
type rowWriter interface {
	head(cols, types []string) error
	row([]any) error
	end() error
}

func newRowWriter(w io.Writer, format string) (rowWriter, error) {
	switch format {
	case "csv":
		return &csvRows{w: csv.NewWriter(w)}, nil
	case "json":
		return &jsonRows{w: w}, nil
	}
	return nil, fmt.Errorf("report: unknown format %q (want table, csv or json)", format)
}

type csvRows struct {
	w     *csv.Writer
	types []string
	rec   []string
	guard bool // ExportOptions.GuardFormulas
	raw   bool // ExportOptions.Raw
}

func (c *csvRows) head(cols, types []string) error {
	c.types = types
	c.rec = make([]string, len(cols))
	for i, col := range cols {
		c.rec[i] = c.escape(col)
	}
	return c.w.Write(c.rec)
}

func (c *csvRows) row(row []any) error {
	for i, v := range row {
		c.rec[i] = c.escape(csvCell(v, c.types[i]))
		if _, text := v.(string); c.guard && text {
			c.rec[i] = guardFormula(c.rec[i])
		}
	}
	return c.w.Write(c.rec)
}

func (c *csvRows) escape(s string) string {
	if c.raw {
		return s
	}
	return safetext.EscapeLines(s)
}

func (c *csvRows) end() error {
	c.w.Flush()
	return c.w.Error()
}

// jsonRows writes the same bytes as json.MarshalIndent(rows, "", "  ")
// would, one row at a time.
type jsonRows struct {
	w           io.Writer
	cols, types []string
	n           int
	raw         bool   // ExportOptions.Raw
	buf         []byte // the escaped row
}

func (j *jsonRows) head(cols, types []string) error {
	j.cols, j.types = cols, types
	return nil
}

func (j *jsonRows) row(row []any) error {
	data, err := json.MarshalIndent(rowObject(j.cols, j.types, row), "  ", "  ")
	if err != nil {
		return fmt.Errorf("encode row: %w", err)
	}
	sep := ",\n  "
	if j.n == 0 {
		sep = "[\n  "
	}
	j.n++
	if _, err := io.WriteString(j.w, sep); err != nil {
		return err
	}
	if !j.raw {
		j.buf = safetext.AppendJSON(j.buf[:0], data)
		data = j.buf
	}
	_, err = j.w.Write(data)
	return err
}

func (j *jsonRows) end() error {
	end := "\n]\n"
	if j.n == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(j.w, end)
	return err
}

// csvCell is textCell with RFC 3339 times, which spreadsheets and other
// tools parse without guessing the zone.
func csvCell(v any, typ string) string {
	if t, ok := v.(time.Time); ok && !isDate(typ) {
		return t.Format(time.RFC3339Nano)
	}
	return textCell(v, typ)
}

// guardFormula prefixes s with a single quote when a spreadsheet would read
// it as a formula (OWASP's CSV injection list: = + - @ tab CR).
func guardFormula(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}
