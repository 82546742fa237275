package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

//go:embed report.html.tmpl
var htmlTemplate string

var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"f": func(v float64) string { return fmt.Sprintf("%.1f", v) },
}).Parse(htmlTemplate))

// htmlPage is what the template renders.
type htmlPage struct {
	R        *Report
	Zone     string // time zone of every time shown
	AsOf     string // manifest times in that zone
	Started  string
	Finished string
	Summary  []string // the headline lines
	Notices  []string // what could not be judged, after the lead sections
	Counts   []tableCount
	Charts   []*chart
	Lead     []htmlSection // what the bots did, first
	Sections []htmlSection // the rest, after the charts
}

type htmlSection struct {
	ID, Title, Note, Query string
	Remarks                []string
	Columns                []htmlCol
	Rows                   [][]htmlCell
	More                   int64
}

type htmlCol struct {
	Name    string
	Numeric bool
	// Parts is Name cut after each underscore: the template puts a <wbr>
	// between them, so a long header (ip_list_not_given) may wrap there
	// and a wide table fits the page instead of scrolling.
	Parts []string
}

type htmlCell struct {
	Text  string
	Class string // num (right-aligned), time or short (no wrap), or empty
}

// shortCell is the longest text a table cell keeps on one line: names,
// categories and sizes stay whole ("ai-training", "25.7 KiB") and the table
// scrolls sideways instead; longer text (evidence, lists) wraps.
const shortCell = 32

// cellClass is the CSS class of a cell of a column of type typ.
func cellClass(typ string) string {
	switch {
	case numeric(typ):
		return "num"
	case isTime(typ):
		return "time"
	}
	return ""
}

// WriteHTML writes the report as one self-contained HTML page that leads
// with the answer: the headline numbers and the lead sections (what the
// bots did), then the notices of what could not be judged, the inline SVG
// charts (findings by kind, findings per bot over time, traffic per bot
// over time, robots.txt versions per authority coloured by effect; a bot
// has one colour in every chart), then one table per section (at most 50
// rows each), each in a container that scrolls sideways when the table is
// wider than the page. There is no script and no external resource; every
// value is escaped by html/template.
func (r *Report) WriteHTML(w io.Writer) error {
	m := &r.Manifest
	p := htmlPage{R: r, Zone: r.zone(), AsOf: r.manifestTime(m.AsOf), Started: r.manifestTime(m.Started),
		Finished: r.manifestTime(m.Finished), Summary: r.headlineLines(), Notices: r.noticeLines(),
		Counts: r.countsInOrder()}
	var firstFetch, lastFetch time.Time
	if len(r.Totals.Rows) == 1 {
		firstFetch, _ = cellTime(r.Totals.Rows[0], r.Totals.Col("first_fetch"))
		lastFetch, _ = cellTime(r.Totals.Rows[0], r.Totals.Col("last_fetch"))
	}
	colors := reportBotColors(r.Section("findings_by_bot"), r.Section("traffic_by_bot"))
	for _, c := range []*chart{
		kindsChart(r.Section("findings_by_kind")),
		overTimeChart(r.Section("findings_over_time"), p.Zone, colors),
		trafficChart(r.Section("traffic_per_day"), r.Section("traffic_by_bot"), p.Zone, colors),
		timelineChart(r.Section("robots_timeline"), firstFetch, lastFetch),
	} {
		if c != nil {
			p.Charts = append(p.Charts, c)
		}
	}
	lead, rest := r.split()
	for _, s := range lead {
		p.Lead = append(p.Lead, newHTMLSection(s))
	}
	for _, s := range rest {
		p.Sections = append(p.Sections, newHTMLSection(s))
	}
	if err := pageTemplate.Execute(w, p); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	return nil
}

// newHTMLSection is a section's table as the template shows it: every
// column, at most maxTableRows rows, each cell with its CSS class.
func newHTMLSection(s *Section) htmlSection {
	hs := htmlSection{ID: s.ID, Title: s.Title, Note: s.Note, Query: s.Query, Remarks: s.Remarks}
	for j, c := range s.Columns {
		hs.Columns = append(hs.Columns, htmlCol{c, numeric(s.Types[j]), strings.SplitAfter(c, "_")})
	}
	n := min(len(s.Rows), maxTableRows)
	for _, row := range s.Rows[:n] {
		cells := make([]htmlCell, len(row))
		for j, v := range row {
			text := textCell(v, s.Types[j])
			class := cellClass(s.Types[j])
			if class == "" && utf8.RuneCountInString(text) <= shortCell {
				class = "short"
			}
			cells[j] = htmlCell{text, class}
		}
		hs.Rows = append(hs.Rows, cells)
	}
	hs.More = int64(len(s.Rows)-n) + s.More
	return hs
}
