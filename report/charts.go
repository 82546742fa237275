package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// The charts of the HTML report are inline SVG built here as plain shapes
// and written by html/template, which escapes every label. No script, no
// external resource: the page renders offline.

// chart is one SVG chart.
type chart struct {
	ID     string
	Title  string
	Desc   string // accessible description and caption
	W, H   float64
	Rects  []shape
	Texts  []label
	Lines  []line
	Legend []legendItem
}

// shape is a rectangle with a tooltip.
type shape struct {
	X, Y, W, H float64
	Fill       string
	Class      string
	Title      string // tooltip, also what tests look for
}

type label struct {
	X, Y   float64
	Text   string
	Anchor string // start, middle, end
	Class  string
}

type line struct{ X1, Y1, X2, Y2 float64 }

type legendItem struct{ Fill, Text string }

// palette is used for series in order (Tableau 10).
var palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

// effectColors colour robots.txt versions by what they meant.
var effectColors = map[string]string{
	"rules":        "#4e79a7",
	"allow_all":    "#59a14f",
	"disallow_all": "#e15759",
}

const otherColor = "#bab0ac"

func cellInt(row []any, i int) int64 {
	if i < 0 {
		return 0
	}
	n, _ := row[i].(int64)
	return n
}

func cellStr(row []any, i int) string {
	if i < 0 {
		return ""
	}
	s, _ := row[i].(string)
	return s
}

func cellTime(row []any, i int) (time.Time, bool) {
	if i < 0 {
		return time.Time{}, false
	}
	t, ok := row[i].(time.Time)
	return t, ok
}

// niceMax rounds a positive maximum up to 1, 2 or 5 times a power of ten.
func niceMax(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// shorten cuts a label to n runes.
func shorten(s string, n int) string { return truncate(clean(s), n) }

// kindsChart is a horizontal bar chart of findings by kind, each bar split
// into attributed and spoofed findings.
func kindsChart(s *Section) *chart {
	if s == nil || len(s.Rows) == 0 {
		return nil
	}
	ki, ai, si := s.Col("kind"), s.Col("attributed"), s.Col("spoofed")
	const labelW, barW, rowH, top = 200.0, 440.0, 24.0, 10.0
	var maxN int64
	for _, r := range s.Rows {
		maxN = max(maxN, cellInt(r, ai)+cellInt(r, si))
	}
	scale := barW / niceMax(float64(maxN))
	c := &chart{ID: "chart-kinds", Title: "Findings by kind",
		Desc: "Horizontal bars: findings per kind; blue attributed to bots, orange by spoofed clients.",
		W:    labelW + barW + 70, H: top + rowH*float64(len(s.Rows)) + 10,
		Legend: []legendItem{{palette[0], "attributed"}, {palette[1], "spoofed"}}}
	for i, r := range s.Rows {
		y := top + rowH*float64(i)
		kind := cellStr(r, ki)
		a, sp := cellInt(r, ai), cellInt(r, si)
		c.Texts = append(c.Texts, label{X: labelW - 8, Y: y + rowH/2 + 4, Text: shorten(kind, 28), Anchor: "end"})
		x := labelW
		if a > 0 {
			w := float64(a) * scale
			c.Rects = append(c.Rects, shape{X: x, Y: y + 3, W: w, H: rowH - 6, Fill: palette[0], Class: "bar attributed",
				Title: fmt.Sprintf("%s: %d attributed", kind, a)})
			x += w
		}
		if sp > 0 {
			w := float64(sp) * scale
			c.Rects = append(c.Rects, shape{X: x, Y: y + 3, W: w, H: rowH - 6, Fill: palette[1], Class: "bar spoofed",
				Title: fmt.Sprintf("%s: %d spoofed", kind, sp)})
			x += w
		}
		c.Texts = append(c.Texts, label{X: x + 6, Y: y + rowH/2 + 4, Text: fmt.Sprint(a + sp), Anchor: "start", Class: "value"})
	}
	return c
}

// maxSeries is how many bots get their own colour in the over-time chart;
// the rest are summed as "other".
const maxSeries = 8

// overTimeChart is a stacked bar chart of findings per bot per day (or per
// several days when the range is long).
func overTimeChart(s *Section) *chart {
	if s == nil || len(s.Rows) == 0 {
		return nil
	}
	di, ai, ni := s.Col("day"), s.Col("agent"), s.Col("findings")
	totals := make(map[string]int64)
	var first, last time.Time
	for _, r := range s.Rows {
		d, ok := cellTime(r, di)
		if !ok {
			continue
		}
		if first.IsZero() || d.Before(first) {
			first = d
		}
		if d.After(last) {
			last = d
		}
		totals[cellStr(r, ai)] += cellInt(r, ni)
	}
	if first.IsZero() {
		return nil
	}
	agents := make([]string, 0, len(totals))
	for a := range totals {
		agents = append(agents, a)
	}
	slices.SortFunc(agents, func(a, b string) int {
		if totals[a] != totals[b] {
			if totals[a] > totals[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	series := make(map[string]int) // agent -> palette index, or maxSeries for other
	for i, a := range agents {
		series[a] = min(i, maxSeries)
	}
	days := int(last.Sub(first).Hours()/24) + 1
	bucket := max(1, (days+119)/120) // at most 120 bars
	nb := (days + bucket - 1) / bucket
	stacks := make([][maxSeries + 1]int64, nb)
	for _, r := range s.Rows {
		d, ok := cellTime(r, di)
		if !ok {
			continue
		}
		b := int(d.Sub(first).Hours()/24) / bucket
		stacks[b][series[cellStr(r, ai)]] += cellInt(r, ni)
	}
	var maxN int64
	for _, st := range stacks {
		var t int64
		for _, n := range st {
			t += n
		}
		maxN = max(maxN, t)
	}
	const left, right, top, plotH, bottom, plotW = 50.0, 10.0, 10.0, 220.0, 40.0, 800.0
	ymax := niceMax(float64(maxN))
	c := &chart{ID: "chart-over-time", Title: "Findings per bot over time",
		W: left + plotW + right, H: top + plotH + bottom}
	unit := "day"
	if bucket > 1 {
		unit = fmt.Sprintf("%d days", bucket)
	}
	c.Desc = fmt.Sprintf("Stacked bars: findings per %s (UTC) from %s to %s, one colour per bot.",
		unit, first.Format(time.DateOnly), last.Format(time.DateOnly))
	// Axes and y ticks.
	c.Lines = append(c.Lines, line{left, top, left, top + plotH}, line{left, top + plotH, left + plotW, top + plotH})
	ticks := []float64{0, 1}
	if math.Mod(ymax, 2) == 0 {
		ticks = []float64{0, 0.5, 1}
	}
	for _, f := range ticks {
		y := top + plotH - f*plotH
		c.Texts = append(c.Texts, label{X: left - 6, Y: y + 4, Text: fmt.Sprint(ymax * f), Anchor: "end", Class: "axis"})
	}
	slot := plotW / float64(nb)
	bw := min(slot, 50) // a few days should not make slabs
	for b, st := range stacks {
		x := left + slot*float64(b) + (slot-bw)/2
		y := top + plotH
		day := first.AddDate(0, 0, b*bucket).Format(time.DateOnly)
		for si, n := range st {
			if n == 0 {
				continue
			}
			h := float64(n) / ymax * plotH
			y -= h
			name := "other"
			if si < maxSeries {
				name = agents[si]
			}
			c.Rects = append(c.Rects, shape{X: x + bw*0.1, Y: y, W: bw * 0.8, H: h, Fill: palette[si%len(palette)],
				Class: "bar day", Title: fmt.Sprintf("%s %s: %d", day, name, n)})
		}
	}
	for _, b := range []int{0, nb / 2, nb - 1} {
		if b == nb/2 && (b == 0 || b == nb-1) {
			continue
		}
		x := left + slot*(float64(b)+0.5)
		c.Texts = append(c.Texts, label{X: x, Y: top + plotH + 18, Text: first.AddDate(0, 0, b*bucket).Format(time.DateOnly),
			Anchor: "middle", Class: "axis"})
	}
	for i, a := range agents {
		if i == maxSeries {
			c.Legend = append(c.Legend, legendItem{palette[maxSeries%len(palette)], "other"})
			break
		}
		c.Legend = append(c.Legend, legendItem{palette[i], a})
	}
	return c
}

// maxLanes caps the authorities drawn on the robots.txt timeline.
const maxLanes = 40

// timelineChart draws every robots.txt version as a bar over its validity
// interval, one lane per authority, coloured by effect. The axis runs from
// the first version to the last version change or lastFetch, whichever is
// later, plus a margin; the latest version of each authority runs to the
// end of the axis.
func timelineChart(s *Section, lastFetch time.Time) *chart {
	if s == nil || len(s.Rows) == 0 {
		return nil
	}
	ai, fi, ui := s.Col("authority"), s.Col("valid_from"), s.Col("valid_until")
	ei, sti, vi := s.Col("effect"), s.Col("fetch_status"), s.Col("version_id")
	var lanes []string
	lane := make(map[string]int)
	var start, end time.Time
	for _, r := range s.Rows {
		a := cellStr(r, ai)
		if _, ok := lane[a]; !ok {
			if len(lanes) == maxLanes {
				continue
			}
			lane[a] = len(lanes)
			lanes = append(lanes, a)
		}
		if t, ok := cellTime(r, fi); ok {
			if start.IsZero() || t.Before(start) {
				start = t
			}
			if t.After(end) {
				end = t
			}
		}
		if t, ok := cellTime(r, ui); ok && t.After(end) {
			end = t
		}
	}
	if start.IsZero() {
		return nil
	}
	if lastFetch.After(end) {
		end = lastFetch
	}
	if !end.After(start) {
		end = start.Add(24 * time.Hour)
	}
	end = end.Add(end.Sub(start) / 20)
	const labelW, plotW, laneH, top, bottom = 240.0, 600.0, 22.0, 10.0, 30.0
	span := end.Sub(start).Seconds()
	xOf := func(t time.Time) float64 { return labelW + plotW*t.Sub(start).Seconds()/span }
	c := &chart{ID: "chart-robots", Title: "robots.txt versions",
		Desc: fmt.Sprintf("One lane per authority; each bar is a robots.txt version over its validity interval, from %s to %s, coloured by effect.",
			start.Format(time.DateOnly), end.Format(time.DateOnly)),
		W: labelW + plotW + 20, H: top + laneH*float64(len(lanes)) + bottom}
	for i, a := range lanes {
		c.Texts = append(c.Texts, label{X: labelW - 8, Y: top + laneH*float64(i) + laneH/2 + 4, Text: shorten(a, 34), Anchor: "end"})
	}
	for _, r := range s.Rows {
		l, ok := lane[cellStr(r, ai)]
		if !ok {
			continue
		}
		from, ok := cellTime(r, fi)
		if !ok {
			continue
		}
		until, ok := cellTime(r, ui)
		open := !ok
		if open {
			until = end
		}
		x0, x1 := xOf(from), xOf(until)
		effect := cellStr(r, ei)
		fill := effectColors[effect]
		if fill == "" {
			fill = otherColor
		}
		untilText := until.Format(time.DateTime)
		if open {
			untilText = "latest"
		}
		c.Rects = append(c.Rects, shape{X: x0, Y: top + laneH*float64(l) + 3, W: max(x1-x0, 2), H: laneH - 6,
			Fill: fill, Class: "bar version " + effect,
			Title: fmt.Sprintf("%s %s (status %d) %s – %s [%s]", cellStr(r, ai), effect, cellInt(r, sti),
				from.Format(time.DateTime), untilText, cellStr(r, vi))})
	}
	y := top + laneH*float64(len(lanes))
	c.Lines = append(c.Lines, line{labelW, y, labelW + plotW, y})
	c.Texts = append(c.Texts,
		label{X: labelW, Y: y + 18, Text: start.Format(time.DateOnly), Anchor: "start", Class: "axis"},
		label{X: labelW + plotW, Y: y + 18, Text: end.Format(time.DateOnly), Anchor: "end", Class: "axis"})
	c.Legend = []legendItem{{effectColors["rules"], "rules"}, {effectColors["allow_all"], "allow_all"},
		{effectColors["disallow_all"], "disallow_all"}}
	if len(lanes) == maxLanes {
		c.Desc += fmt.Sprintf(" Only the first %d authorities are drawn.", maxLanes)
	}
	return c
}
