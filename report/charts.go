package report

import (
	"fmt"
	"math"
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
	Ticks  []line // marks on an axis (robots.txt version changes)
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

// palette is used for series in order (Tableau 10); its last colour, a
// grey, is otherColor, for "other bots".
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

// maxSeries is how many bots get a colour of their own; the rest are
// summed as "other bots", in otherColor.
const maxSeries = 9 // len(palette) - 1

// botColors gives each bot (a series name as the charts label it: the
// agent, "<agent> (spoofed)", "(no agent)") one colour for the whole
// report, so a bot is the same colour in every chart. The first maxSeries
// bots of order get the palette's colours in turn; the rest are "other
// bots".
type botColors map[string]int

// newBotColors assigns colours to bots in the order given, skipping
// repeats.
func newBotColors(order []string) botColors {
	c := make(botColors)
	for _, a := range order {
		if _, ok := c[a]; !ok && len(c) < maxSeries {
			c[a] = len(c)
		}
	}
	return c
}

// index is the palette index of a bot, maxSeries for "other bots".
func (c botColors) index(series string) int {
	if i, ok := c[series]; ok {
		return i
	}
	return maxSeries
}

// reportBotColors orders the report's bots for colouring: those with
// findings as the findings_by_bot section lists them (worst first), then
// the rest of the traffic_by_bot section in its order (most requests
// first), so the bots a reader looks at first get the distinct colours.
func reportBotColors(findings, traffic *Section) botColors {
	var order []string
	if findings != nil {
		ai := findings.Col("agent")
		for _, r := range findings.Rows {
			order = append(order, cellStr(r, ai))
		}
	}
	if traffic != nil {
		ti, ai := traffic.Col("traffic"), traffic.Col("agent")
		for _, r := range traffic.Rows {
			switch cellStr(r, ti) {
			case "spoofed":
				order = append(order, cellStr(r, ai)+" (spoofed)")
			case "other":
			default:
				order = append(order, cellStr(r, ai))
			}
		}
	}
	return newBotColors(order)
}

// overTimeChart is a stacked bar chart of findings per bot per day (or per
// several days when the range is long); days are of the zone named zone.
func overTimeChart(s *Section, zone string, colors botColors) *chart {
	if s == nil || len(s.Rows) == 0 {
		return nil
	}
	di, ai, ni := s.Col("day"), s.Col("agent"), s.Col("findings")
	var vals []dayValue
	for _, r := range s.Rows {
		if d, ok := cellTime(r, di); ok {
			vals = append(vals, dayValue{d, cellStr(r, ai), cellInt(r, ni)})
		}
	}
	c := stackedDays(vals, false, colors)
	if c == nil {
		return nil
	}
	c.ID, c.Title = "chart-over-time", "Findings per bot over time"
	c.Desc = fmt.Sprintf("Stacked bars: findings per %s (%s) from %s to %s, one colour per bot.",
		c.unit, zone, c.first.Format(time.DateOnly), c.last.Format(time.DateOnly))
	return c.chart
}

// trafficChart is a stacked bar chart of response bytes per bot per day
// from the traffic_per_day section (requests when no source gave a size).
// Spoofed clients are series of their own, "<token> (spoofed)"; clients
// that are not bots are not drawn, their totals (from the traffic_by_bot
// section) are in the caption.
func trafficChart(days, totals *Section, zone string, colors botColors) *chart {
	if days == nil || len(days.Rows) == 0 {
		return nil
	}
	di, ti, ai := days.Col("day"), days.Col("traffic"), days.Col("agent")
	bi, qi := days.Col("bytes"), days.Col("requests")
	bytes := false
	for _, r := range days.Rows {
		if t := cellStr(r, ti); t != "other" && cellInt(r, bi) > 0 {
			bytes = true
			break
		}
	}
	var vals []dayValue
	for _, r := range days.Rows {
		d, ok := cellTime(r, di)
		traffic := cellStr(r, ti)
		if !ok || traffic == "other" {
			continue
		}
		name := cellStr(r, ai)
		if traffic == "spoofed" {
			name += " (spoofed)"
		}
		n := cellInt(r, qi)
		if bytes {
			n = cellInt(r, bi)
		}
		if n > 0 { // a bot whose sources give no size is not drawn at 0
			vals = append(vals, dayValue{d, name, n})
		}
	}
	what := "requests"
	if bytes {
		what = "response bytes"
	}
	c := stackedDays(vals, bytes, colors)
	if c == nil {
		return nil
	}
	c.ID, c.Title = "chart-traffic", "Traffic per bot over time"
	c.Desc = fmt.Sprintf("Stacked bars: %s per %s (%s) from %s to %s, one colour per bot; spoofed clients are their own series.",
		what, c.unit, zone, c.first.Format(time.DateOnly), c.last.Format(time.DateOnly))
	if totals != nil {
		ti, qi, si := totals.Col("traffic"), totals.Col("requests"), totals.Col("size")
		for _, r := range totals.Rows {
			if cellStr(r, ti) == "other" {
				c.Desc += fmt.Sprintf(" Not drawn: clients that are not bots, %s", plural(cellInt(r, qi), "request", "requests"))
				if size := cellStr(r, si); size != "" {
					c.Desc += ", " + size
				}
				c.Desc += "."
			}
		}
	}
	return c.chart
}

// binaryBytes writes a byte count in binary units, as DuckDB's
// format_bytes does for the tables.
func binaryBytes(n float64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"}
	u := 0
	for n >= 1024 && u < len(units)-1 {
		n /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d bytes", int64(n))
	}
	return fmt.Sprintf("%.1f %s", n, units[u])
}

// niceBytes rounds a positive byte maximum up to 1, 2 or 5 times a power
// of ten of a binary unit, so the axis reads 50 KiB, not 51200.
func niceBytes(v float64) float64 {
	u := 1.0
	for v/u >= 1000 && u < 1<<50 {
		u *= 1024
	}
	return niceMax(v/u) * u
}

// dayValue is one value of one series on one day.
type dayValue struct {
	day    time.Time
	series string
	n      int64
}

// dayChart is a stacked day chart before its title and caption are set.
type dayChart struct {
	*chart
	first, last time.Time
	unit        string // "day" or "N days"
}

// stackedDays draws stacked bars of values per day (or per several days
// when the range is long, at most 120 bars), each series in its colour of
// colors, the series colors has none for summed as "other bots". Series
// stack and are listed in the legend in colour order. With bytes the
// values are byte counts, labelled in binary units.
func stackedDays(vals []dayValue, bytes bool, colors botColors) *dayChart {
	format := func(n float64) string { return fmt.Sprint(n) }
	if bytes {
		format = binaryBytes
	}
	var first, last time.Time
	var used [maxSeries + 1]bool // palette index -> drawn
	names := make([]string, maxSeries)
	for _, v := range vals {
		if first.IsZero() || v.day.Before(first) {
			first = v.day
		}
		if v.day.After(last) {
			last = v.day
		}
		i := colors.index(v.series)
		used[i] = true
		if i < maxSeries {
			names[i] = v.series
		}
	}
	if first.IsZero() {
		return nil
	}
	days := int(last.Sub(first).Hours()/24) + 1
	bucket := max(1, (days+119)/120) // at most 120 bars
	nb := (days + bucket - 1) / bucket
	stacks := make([][maxSeries + 1]int64, nb)
	for _, v := range vals {
		b := int(v.day.Sub(first).Hours()/24) / bucket
		stacks[b][colors.index(v.series)] += v.n
	}
	var maxN int64
	for _, st := range stacks {
		var t int64
		for _, n := range st {
			t += n
		}
		maxN = max(maxN, t)
	}
	const right, top, plotH, bottom, width = 30.0, 10.0, 220.0, 40.0, 860.0
	left := 50.0 // room for the y labels
	ymax := niceMax(float64(maxN))
	if bytes {
		left, ymax = 76, niceBytes(float64(maxN))
	}
	plotW := width - left - right
	c := &chart{W: left + plotW + right, H: top + plotH + bottom}
	unit := "day"
	if bucket > 1 {
		unit = fmt.Sprintf("%d days", bucket)
	}
	// Axes and y ticks.
	c.Lines = append(c.Lines, line{left, top, left, top + plotH}, line{left, top + plotH, left + plotW, top + plotH})
	ticks := []float64{0, 1}
	if bytes || math.Mod(ymax, 2) == 0 {
		ticks = []float64{0, 0.5, 1}
	}
	for _, f := range ticks {
		y := top + plotH - f*plotH
		c.Texts = append(c.Texts, label{X: left - 6, Y: y + 4, Text: strings.Replace(format(ymax*f), ".0 ", " ", 1), Anchor: "end", Class: "axis"})
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
			name := "other bots"
			if si < maxSeries {
				name = names[si]
			}
			c.Rects = append(c.Rects, shape{X: x + bw*0.1, Y: y, W: bw * 0.8, H: h, Fill: palette[si],
				Class: "bar day", Title: fmt.Sprintf("%s %s: %s", day, name, format(float64(n)))})
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
	c.Legend = seriesLegend(used, names)
	return &dayChart{chart: c, first: first, last: last, unit: unit}
}

// seriesLegend lists the drawn series (used, by palette index) in colour
// order, named by names; the last palette colour is "other bots".
func seriesLegend(used [maxSeries + 1]bool, names []string) []legendItem {
	var legend []legendItem
	for i, drawn := range used {
		switch {
		case !drawn:
		case i == maxSeries:
			legend = append(legend, legendItem{palette[i], "other bots"})
		default:
			legend = append(legend, legendItem{palette[i], names[i]})
		}
	}
	return legend
}

// maxLanes caps the authorities drawn on the robots.txt timeline.
const maxLanes = 40

// timelineLanes returns the authorities of the version rows of s (column
// ai), at most maxLanes in order of first appearance, with each one's
// lane, and the earliest valid_from (column fi) and latest valid_from or
// valid_until (ui) among them; start is zero when no row has a
// valid_from.
func timelineLanes(s *Section, ai, fi, ui int) (lanes []string, lane map[string]int, start, end time.Time) {
	lane = make(map[string]int)
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
	return lanes, lane, start, end
}

// timelineChart draws every robots.txt version as a bar over its validity
// interval, one lane per authority, coloured by effect, with a tick on the
// axis at each version change. The axis runs from the first version or
// firstFetch, whichever is earlier, to the last version change or
// lastFetch, whichever is later: where the data ends. The latest version of
// each authority runs to the end of the axis.
func timelineChart(s *Section, firstFetch, lastFetch time.Time) *chart {
	if s == nil || len(s.Rows) == 0 {
		return nil
	}
	ai, fi, ui := s.Col("authority"), s.Col("valid_from"), s.Col("valid_until")
	ei, sti, vi := s.Col("effect"), s.Col("fetch_status"), s.Col("version_id")
	lanes, lane, start, end := timelineLanes(s, ai, fi, ui)
	if start.IsZero() {
		return nil
	}
	if lastFetch.After(end) {
		end = lastFetch
	}
	if !firstFetch.IsZero() && firstFetch.Before(start) {
		start = firstFetch
	}
	if !end.After(start) {
		end = start.Add(24 * time.Hour)
	}
	const labelW, plotW, laneH, top, bottom = 240.0, 600.0, 22.0, 10.0, 30.0
	span := end.Sub(start).Seconds()
	xOf := func(t time.Time) float64 { return labelW + plotW*t.Sub(start).Seconds()/span }
	c := &chart{ID: "chart-robots", Title: "robots.txt versions",
		Desc: fmt.Sprintf("One lane per authority; each bar is a robots.txt version over its validity interval, from %s to %s, coloured by effect.",
			start.Format(time.DateOnly), end.Format(time.DateOnly)),
		W: labelW + plotW + 20, H: top + laneH*float64(len(lanes)) + bottom}
	c.Desc += " Ticks on the axis mark version changes."
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
		if x1-x0 < 2 { // too short to see: 2 px, inside the axis
			x0 = min(x0, labelW+plotW-2)
			x1 = x0 + 2
		}
		effect := cellStr(r, ei)
		fill := effectColors[effect]
		if fill == "" {
			fill = otherColor
		}
		untilText := until.Format(time.DateTime)
		if open {
			untilText = "latest"
		}
		c.Rects = append(c.Rects, shape{X: x0, Y: top + laneH*float64(l) + 3, W: x1 - x0, H: laneH - 6,
			Fill: fill, Class: "bar version " + effect,
			Title: fmt.Sprintf("%s %s (status %d) %s – %s [%s]", cellStr(r, ai), effect, cellInt(r, sti),
				from.Format(time.DateTime), untilText, cellStr(r, vi))})
	}
	y := top + laneH*float64(len(lanes))
	c.Lines = append(c.Lines, line{labelW, y, labelW + plotW, y})
	changes := make(map[time.Time]bool)
	for _, r := range s.Rows {
		if _, ok := lane[cellStr(r, ai)]; !ok {
			continue
		}
		if from, ok := cellTime(r, fi); ok && !changes[from] {
			changes[from] = true
			x := xOf(from)
			c.Ticks = append(c.Ticks, line{x, y, x, y + 6})
		}
	}
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
