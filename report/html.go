package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
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
	Summary  []string
	Counts   []tableCount
	Charts   []*chart
	Sections []htmlSection
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

// WriteHTML writes the report as one self-contained HTML page: inline CSS
// and inline SVG charts (findings by kind, findings per bot over time,
// traffic per bot over time, robots.txt versions per authority coloured by
// effect), then one table per section (at most 50 rows each), each in a
// container that scrolls sideways when the table is wider than the page.
// There is no script and no external resource; every value is escaped by
// html/template.
func (r *Report) WriteHTML(w io.Writer) error {
	m := &r.Manifest
	p := htmlPage{R: r, Zone: r.zone(), AsOf: r.manifestTime(m.AsOf), Started: r.manifestTime(m.Started),
		Finished: r.manifestTime(m.Finished), Summary: r.summaryLines(), Counts: r.countsInOrder()}
	var firstFetch, lastFetch time.Time
	if len(r.Totals.Rows) == 1 {
		firstFetch, _ = cellTime(r.Totals.Rows[0], r.Totals.Col("first_fetch"))
		lastFetch, _ = cellTime(r.Totals.Rows[0], r.Totals.Col("last_fetch"))
	}
	for _, c := range []*chart{
		kindsChart(r.Section("findings_by_kind")),
		overTimeChart(r.Section("findings_over_time"), p.Zone),
		trafficChart(r.Section("traffic_per_day"), r.Section("traffic_by_bot"), p.Zone),
		timelineChart(r.Section("robots_timeline"), firstFetch, lastFetch),
	} {
		if c != nil {
			p.Charts = append(p.Charts, c)
		}
	}
	for i := range r.Sections {
		s := &r.Sections[i]
		hs := htmlSection{ID: s.ID, Title: s.Title, Note: s.Note, Query: s.Query, Remarks: s.Remarks}
		for j, c := range s.Columns {
			hs.Columns = append(hs.Columns, htmlCol{c, numeric(s.Types[j])})
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
		p.Sections = append(p.Sections, hs)
	}
	if err := pageTemplate.Execute(w, p); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	return nil
}
