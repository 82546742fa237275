//go:build cgo

package report

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/output"
)

// TestReportLeadsWithAnswer: the text, Markdown and HTML reports open with
// what the bots did (findings by bot), then the notices of what could not
// be judged, grouped, then the other sections, with the inputs last.
func TestReportLeadsWithAnswer(t *testing.T) {
	t.Parallel()
	db, _ := openFixture(t)
	r, err := db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	const notice = "GPTBot publishes IP ranges at https://openai.com/gptbot.json; none given"
	r.Manifest.Notices = append(r.Manifest.Notices, output.Notice{Code: "ip-list-not-given", Count: 3, Message: notice})
	if s := r.Section("findings_by_bot"); s == nil || len(s.Rows) == 0 || !s.Lead {
		t.Fatalf("findings_by_bot section missing, empty or not a lead section: %+v", s)
	}
	tests := []struct {
		name    string
		write   func(*bytes.Buffer) error
		inOrder []string
	}{
		{"text", func(b *bytes.Buffer) error { return r.WriteText(b) },
			[]string{"\nFindings by bot\n", "\nJudged less than it could\n", "- " + notice, "\nFindings by kind\n", "\nInputs\n", "\nRows: "}},
		{"markdown", func(b *bytes.Buffer) error { return r.WriteMarkdown(b) },
			[]string{"## Summary", "## Findings by bot", "## Judged less than it could", "## Findings by kind", "## Inputs"}},
		{"html", func(b *bytes.Buffer) error { return r.WriteHTML(b) },
			[]string{`id="summary"`, `<section id="findings_by_bot">`, `<section id="notices">`, `<div id="charts">`,
				`<section id="findings_by_kind">`, `<section id="inputs">`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			must(t, tt.write(&b))
			out := b.String()
			at := -1
			for _, want := range tt.inOrder {
				i := strings.Index(out, want)
				if i < 0 {
					t.Fatalf("no %q in the report:\n%s", want, out)
				}
				if i < at {
					t.Errorf("%q comes before what precedes it in %v", want, tt.inOrder)
				}
				at = i
			}
			// A notice is said once, in its group, not among the headline lines.
			if n := strings.Count(out, notice); n != 1 {
				t.Errorf("the notice appears %d times, want 1", n)
			}
		})
	}
}

// TestBotColorsStable: a bot has one colour in every chart of the report,
// whatever its rank in each chart.
func TestBotColorsStable(t *testing.T) {
	t.Parallel()
	day := func(d int) time.Time { return time.Date(2025, 3, d, 0, 0, 0, 0, time.UTC) }
	colors := newBotColors([]string{"GPTBot", "ClaudeBot", "Googlebot (spoofed)", "GPTBot"})
	// GPTBot leads the first chart, ClaudeBot the second.
	a := stackedDays([]dayValue{{day(1), "GPTBot", 9}, {day(1), "ClaudeBot", 1}}, false, colors)
	b := stackedDays([]dayValue{{day(2), "ClaudeBot", 9}, {day(2), "GPTBot", 1}, {day(2), "Bytespider", 4}}, true, colors)
	fill := make(map[string]string)
	for _, c := range []*dayChart{a, b} {
		for _, l := range c.Legend {
			if f, ok := fill[l.Text]; ok && f != l.Fill {
				t.Errorf("%s is %s in one chart and %s in another", l.Text, f, l.Fill)
			}
			fill[l.Text] = l.Fill
		}
	}
	if fill["GPTBot"] != palette[0] || fill["ClaudeBot"] != palette[1] {
		t.Errorf("colours in order: got GPTBot %s, ClaudeBot %s, want %s, %s", fill["GPTBot"], fill["ClaudeBot"], palette[0], palette[1])
	}
	// A bot without a colour of its own is "other bots", in grey.
	if fill["other bots"] != otherColor || fill["Bytespider"] != "" {
		t.Errorf("Bytespider: got legend %v, want it summed as other bots in %s", b.Legend, otherColor)
	}
	for _, r := range b.Rects {
		if strings.Contains(r.Title, "GPTBot") && r.Fill != palette[0] {
			t.Errorf("bar %q is %s, want GPTBot's %s", r.Title, r.Fill, palette[0])
		}
	}
	// Past maxSeries bots, the rest share the grey.
	var many []string
	for i := range maxSeries + 3 {
		many = append(many, string(rune('A'+i)))
	}
	c := newBotColors(many)
	if c.index(many[maxSeries-1]) != maxSeries-1 || c.index(many[maxSeries]) != maxSeries {
		t.Errorf("got indexes %d, %d for the last coloured bot and the next, want %d, %d",
			c.index(many[maxSeries-1]), c.index(many[maxSeries]), maxSeries-1, maxSeries)
	}
}
