package retention

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSummaryLines(t *testing.T) {
	due := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	kept := &Capture{URL: "https://example.com/a", Action: ActionKeep, WARCFile: "a.warc.gz", Offset: 10}
	p := &Plan{
		Format:   FormatPywbACL,
		Rules:    []Rule{{Key: "com,example)/a", URL: "https://example.com/a", Access: "exclude", Hidden: []*Capture{{URL: "https://example.com/a"}}, AlsoHidden: []*Capture{kept}}},
		Problems: []Problem{{Capture: &Capture{URL: "https://example.com/b", WARCFile: "b.warc.gz", Offset: 7}, Err: errors.New("no key")}},
		Captures: 3,
	}
	for range MaxUpcomingLines + 2 {
		p.Upcoming = append(p.Upcoming, &Capture{URL: "https://example.com/c", Action: ActionKeep, Due: &due})
	}
	got := p.SummaryLines("out.aclj")
	if len(got) != 4+MaxUpcomingLines+1 {
		t.Fatalf("%d lines:\n%s", len(got), strings.Join(got, "\n"))
	}
	if !strings.HasPrefix(got[0], "out.aclj: ") || got[0] != "out.aclj: "+p.Comments()[0] {
		t.Errorf("line 1 = %q", got[0])
	}
	if got[1] != ConflictText(p.Rules[0]) || got[2] != "no rule for https://example.com/b (b.warc.gz@7): no key" {
		t.Errorf("lines 2, 3 = %q, %q", got[1], got[2])
	}
	if got[3] != "12 upcoming deadline(s), earliest first:" || got[4] != "  "+UpcomingText(p.Upcoming[0]) || got[len(got)-1] != "  ... and 2 more" {
		t.Errorf("deadlines:\n%s", strings.Join(got[3:], "\n"))
	}
}
