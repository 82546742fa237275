//go:build cgo

package report

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// trafficRow is one row of a traffic section, for comparison.
type trafficRow struct {
	day                          string // YYYY-MM-DD, "" for totals
	traffic, agent, operator     string
	requests, bytes, withoutSize int64 // bytes -1 for NULL
	size                         string
}

func trafficRows(t *testing.T, r *Report, id string) []trafficRow {
	t.Helper()
	var out []trafficRow
	for _, m := range rows(t, r, id) {
		tr := trafficRow{traffic: m["traffic"].(string), agent: m["agent"].(string), operator: m["operator"].(string),
			requests: m["requests"].(int64), withoutSize: m["unsized"].(int64), bytes: -1}
		if d, ok := m["day"].(time.Time); ok {
			tr.day = d.Format(time.DateOnly)
		}
		if b, ok := m["bytes"].(int64); ok {
			tr.bytes = b
		}
		if sz, ok := m["size"].(string); ok {
			tr.size = sz
		}
		out = append(out, tr)
	}
	return out
}

// TestTraffic: requests and bytes per bot, with spoofed clients apart from
// the bot they claimed and non-bot traffic as one line.
func TestTraffic(t *testing.T) {
	t.Parallel()
	db, _ := openFixture(t)
	r, err := db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	total := r.Section("traffic_by_bot")
	if total == nil || r.Section("traffic_per_day") == nil {
		t.Fatal("traffic sections missing")
	}
	if total.Col("period") >= 0 || total.Col("day") >= 0 {
		t.Errorf("traffic_by_bot columns %q: period and day should be dropped", total.Columns)
	}
	wantTotal := []trafficRow{
		{"", "bot", "GPTBot", "OpenAI", 2, 12288, 0, "12.0 KiB"},
		{"", "bot", "ClaudeBot", "Anthropic", 1, 8192, 0, "8.0 KiB"},
		{"", "bot", "ChatGPT-User", "OpenAI", 1, -1, 1, ""},
		// Spoofed: never under the operator of the bot they claimed.
		{"", "spoofed", "GPTBot", "", 1, 524288, 0, "512.0 KiB"},
		{"", "spoofed", "ClaudeBot", "", 1, -1, 1, ""},
		{"", "other", "", "", 1, 1048576, 0, "1.0 MiB"},
	}
	if got := trafficRows(t, r, "traffic_by_bot"); fmt.Sprint(got) != fmt.Sprint(wantTotal) {
		t.Errorf("traffic_by_bot:\ngot  %v\nwant %v", got, wantTotal)
	}
	wantDays := []trafficRow{
		{"2025-03-01", "bot", "GPTBot", "OpenAI", 2, 12288, 0, "12.0 KiB"},
		{"2025-03-01", "other", "", "", 1, 1048576, 0, "1.0 MiB"},
		{"2025-03-02", "bot", "ClaudeBot", "Anthropic", 1, 8192, 0, "8.0 KiB"},
		{"2025-03-02", "bot", "ChatGPT-User", "OpenAI", 1, -1, 1, ""},
		{"2025-03-02", "spoofed", "GPTBot", "", 1, 524288, 0, "512.0 KiB"},
		{"2025-03-02", "spoofed", "ClaudeBot", "", 1, -1, 1, ""},
	}
	if got := trafficRows(t, r, "traffic_per_day"); fmt.Sprint(got) != fmt.Sprint(wantDays) {
		t.Errorf("traffic_per_day:\ngot  %v\nwant %v", got, wantDays)
	}
	// Shares: of all known bytes, and of the day's.
	if row := find(rows(t, r, "traffic_by_bot"), "agent", ""); row == nil || row["pct_bytes"] != 65.8 {
		t.Errorf("other clients' share of all bytes: got %v, want 65.8", row)
	}
	if row := find(rows(t, r, "traffic_per_day"), "agent", "ClaudeBot"); row == nil || row["pct_bytes"] != 1.5 {
		t.Errorf("ClaudeBot's share of 2025-03-02: got %v, want 1.5", row)
	}
}

// TestTimeZone: --tz shows every time in the zone and counts days there;
// the tables' UTC values are the same instants.
func TestTimeZone(t *testing.T) {
	t.Parallel()
	db, _ := openFixture(t)
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	r, err := db.BuildWith(context.Background(), Options{Location: tokyo})
	if err != nil {
		t.Fatal(err)
	}
	// The browser fetched at 2025-03-01 15:00 UTC: 00:00 on 2 March in Tokyo.
	var other []string
	for _, tr := range trafficRows(t, r, "traffic_per_day") {
		if tr.traffic == "other" {
			other = append(other, tr.day)
		}
	}
	if fmt.Sprint(other) != "[2025-03-02]" {
		t.Errorf("other clients' days in Tokyo: got %v, want [2025-03-02]", other)
	}
	row := find(rows(t, r, "crawlers"), "agent", "GPTBot")
	lc, _ := row["last_robots_check"].(time.Time)
	if !lc.Equal(ts("2025-03-01T08:00:00Z")) || lc.Location() != tokyo {
		t.Errorf("last_robots_check: got %v, want 2025-03-01 17:00 in Asia/Tokyo", lc)
	}
	var txt, md, js, page bytes.Buffer
	must(t, r.WriteText(&txt))
	must(t, r.WriteMarkdown(&md))
	must(t, r.WriteJSON(&js))
	must(t, r.WriteHTML(&page))
	for name, want := range map[string][]string{
		"text": {"as of 2025-03-05T09:00:00+09:00 (all times Asia/Tokyo)", "2025-03-01 17:00:00"},
		"md":   {"- As of: 2025-03-05T09:00:00+09:00 (all times Asia/Tokyo)", "Asia/Tokyo days."},
		"json": {`"as_of": "2025-03-05T09:00:00+09:00"`, `"time_zone": "Asia/Tokyo"`, `"last_robots_check": "2025-03-01T17:00:00+09:00"`},
		"html": {"all times Asia/Tokyo", "2025-03-01 17:00:00"},
	} {
		got := map[string]string{"text": txt.String(), "md": md.String(), "json": js.String(), "html": page.String()}[name]
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s report lacks %q", name, w)
			}
		}
		if strings.Contains(got, "all times UTC") {
			t.Errorf("%s report still says all times UTC", name)
		}
	}
	// The default stays UTC.
	r, err = db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.zone() != "UTC" {
		t.Errorf("default zone %s, want UTC", r.zone())
	}
	for _, tr := range trafficRows(t, r, "traffic_per_day") {
		if tr.traffic == "other" && tr.day != "2025-03-01" {
			t.Errorf("after a Tokyo build, a UTC build counts other clients on %s, want 2025-03-01", tr.day)
		}
	}
}

// TestTextWidth: the text report fits the width it is given.
func TestTextWidth(t *testing.T) {
	t.Parallel()
	db, _ := openFixture(t)
	r, err := db.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Nine columns of at least 8 runes need 88; below that tables cannot
	// shrink further, so 100 is the narrowest width checked.
	for _, width := range []int{100, 200} {
		r.Width = width
		var b bytes.Buffer
		must(t, r.WriteText(&b))
		widest := 0
		for _, l := range strings.Split(b.String(), "\n") {
			widest = max(widest, utf8.RuneCountInString(l))
		}
		if widest > width {
			t.Errorf("width %d: widest line %d", width, widest)
		}
		if width == 200 && widest <= textWidth {
			t.Errorf("width 200: widest line %d, tables did not use the room", widest)
		}
	}
}
