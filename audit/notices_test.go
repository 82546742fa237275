package audit

import (
	"strings"
	"testing"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/table"
)

// The IP notices come from fetches.ip_check: not_given names the list
// and its fix per bot, not_published lists the bots the catalog knows.
func TestIPListNotices(t *testing.T) {
	row := func(agent, check, url string) *table.Fetch {
		return &table.Fetch{Agent: agent, ClientIP: "192.0.2.1", IPCheck: check, IPListURL: url}
	}
	tests := []struct {
		name string
		rows []*table.Fetch
		want []string // code: count: substring of the message, in order
	}{
		{
			name: "catalog list not given",
			rows: []*table.Fetch{
				row("ClaudeBot", identity.IPNotGiven, "https://claude.com/crawling/bots.json"),
				row("ClaudeBot", identity.IPNotGiven, "https://claude.com/crawling/bots.json"),
			},
			want: []string{"ip-list-not-given: 2: ClaudeBot publishes IP ranges at https://claude.com/crawling/bots.json; none given: 2 fetches unchecked"},
		},
		{
			name: "card's list not given",
			rows: []*table.Fetch{row("ExampleAgent", identity.IPNotGiven, "https://agent.example/ips.json")},
			want: []string{"ip-list-not-given: 1: ExampleAgent publishes IP ranges at https://agent.example/ips.json (its Signature Agent Card's ips_uri)"},
		},
		{
			name: "nothing published",
			rows: []*table.Fetch{row("Bytespider", identity.IPNotPublished, ""), row("FooCrawler", identity.IPNotPublished, "")},
			want: []string{"ip-list-not-published: 1: 1 fetch by bots whose operators publish no IP ranges, unverifiable by IP: Bytespider (1)"},
		},
		{
			name: "list given, or no address",
			rows: []*table.Fetch{row("GPTBot", identity.IPInRange, ""), row("GPTBot", identity.IPNotInRange, ""),
				{Agent: "GPTBot", IPCheck: ""}},
		},
		{
			name: "both, most fetches first",
			rows: []*table.Fetch{
				row("Bytespider", identity.IPNotPublished, ""),
				row("GPTBot", identity.IPNotGiven, "https://openai.com/gptbot.json"),
				row("ClaudeBot", identity.IPNotGiven, "https://claude.com/crawling/bots.json"),
				row("ClaudeBot", identity.IPNotGiven, "https://claude.com/crawling/bots.json"),
			},
			want: []string{"ip-list-not-given: 2: ClaudeBot", "ip-list-not-given: 1: GPTBot", "ip-list-not-published: 1: "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Tallied in two parts and merged, as the Beam pipeline does.
			var a, b NoticeFacts
			for i, r := range tt.rows {
				if i%2 == 0 {
					a.Tally(r)
				} else {
					b.Tally(r)
				}
			}
			a.Merge(b)
			got := Notices(&a, bots.Default())
			if len(got) != len(tt.want) {
				t.Fatalf("got %d notices %+v, want %d", len(got), got, len(tt.want))
			}
			for i, n := range got {
				code, rest, _ := strings.Cut(tt.want[i], ": ")
				count, msg, _ := strings.Cut(rest, ": ")
				if n.Code != code || count != "" && count != itoa(n.Count) || !strings.Contains(n.Message, msg) {
					t.Errorf("notice %d = %s %d %q, want %s %s %q", i, n.Code, n.Count, n.Message, code, count, msg)
				}
			}
		})
	}
}

func itoa(n int64) string { return count(n) }
