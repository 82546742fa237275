//go:build cgo

package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/table"
)

// declaredAudit is a small audit for the declared-compliance section:
// HeronCrawler's card declares rfc9309-compliance true (registry-04
// §3.2.3); its verified fetches break robots.txt three ways, while a
// claimed and a spoofed HeronCrawler break it too (never counted). Wren's
// card declares false, Finch's true with a clean record, and Lark has no
// card: none of them is named.
func declaredAudit(t *testing.T) *Report {
	t.Helper()
	c := &table.Collector{}
	at := ts("2025-05-01T00:00:00Z")
	n := 0
	type spec struct {
		agent, identity, card, compliance, path string
		kinds                                   []string
	}
	add := func(s spec) {
		n++
		f := table.Fetch{FetchTime: at.Add(time.Duration(n) * time.Minute), Agent: s.agent, Operator: "Example",
			Category: "search", IdentifiedBy: "card", Identity: s.identity, Method: "GET", URLHostName: "example.com",
			URL: "https://example.com" + s.path, URLPath: s.path, FetchStatus: 200, ResponseBytes: -1,
			UserAgent: s.agent + "/2", RobotsView: "fresh", RobotsVerdict: "allowed", Signature: "verified",
			SourceFile: "edge.jsonl", SourceFormat: "nginx-json", SourceLine: int64(n), WARCRecordOffset: -1,
			CardURL: s.card, CardCompliance: s.compliance, Findings: int32(len(s.kinds))}
		if s.card != "" {
			f.CardPurpose = "search"
		}
		c.Fetches = append(c.Fetches, f)
		for _, k := range s.kinds {
			c.Violations = append(c.Violations, table.Violation{Kind: k, Severity: "high", FetchTime: f.FetchTime,
				Agent: f.Agent, Operator: f.Operator, Category: f.Category, Identity: f.Identity, URL: f.URL,
				URLHostName: f.URLHostName, URLPath: f.URLPath, Evidence: "test", SourceFile: f.SourceFile,
				SourceLine: f.SourceLine, WARCRecordOffset: -1})
		}
	}
	const heron = "https://crawler.example.net/agent-card"
	add(spec{"HeronCrawler", "verified", heron, "true", "/a", nil})
	add(spec{"HeronCrawler", "verified", heron, "true", "/private/1", []string{"disallowed_fetch"}})
	add(spec{"HeronCrawler", "verified", heron, "true", "/private/2", []string{"disallowed_fetch", "crawl_delay_ignored"}})
	add(spec{"HeronCrawler", "verified", heron, "true", "/private/3", []string{"usage_reserved"}}) // not a robots.txt kind
	add(spec{"HeronCrawler", "claimed", heron, "true", "/private/4", []string{"disallowed_fetch"}})
	add(spec{"HeronCrawler", "spoofed", heron, "true", "/private/5", []string{"stale_robots", "invalid_signature"}})
	add(spec{"Wren", "verified", "https://wren.example/card", "false", "/private/1", []string{"disallowed_fetch"}})
	add(spec{"Finch", "verified", "https://finch.example/card", "true", "/a", nil})
	add(spec{"Lark", "verified", "", "", "/private/1", []string{"disallowed_fetch"}})
	return buildCollector(t, c)
}

func TestDeclaredCompliance(t *testing.T) {
	t.Parallel()
	r := declaredAudit(t)
	var got []string
	for _, m := range rows(t, r, "declared_compliance") {
		got = append(got, fmt.Sprintf("%v %v [%v] purpose=%v verified=%v findings=%v (%v)",
			m["agent"], m["card_url"], m["declaration"], m["purpose"], m["verified_fetches"],
			m["robots_findings"], m["findings_by_kind"]))
	}
	want := []string{
		"HeronCrawler https://crawler.example.net/agent-card [rfc9309-compliance: true] purpose=search " +
			"verified=4 findings=3 (disallowed_fetch 2, crawl_delay_ignored 1)",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("declared_compliance:\ngot  %q\nwant %q", got, want)
	}

	var text, html bytes.Buffer
	r.Width = 200 // every column whole
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "html": html.String()} {
		for _, w := range []string{"Declared robots.txt compliance, broken", "HeronCrawler",
			"https://crawler.example.net/agent-card", "rfc9309-compliance: true", "disallowed_fetch 2"} {
			if !strings.Contains(out, w) {
				t.Errorf("%s report lacks %q", name, w)
			}
		}
		for _, no := range []string{"wren.example", "finch.example"} {
			if strings.Contains(out, no) {
				t.Errorf("%s report names %q, whose card does not declare compliance or whose record is clean", name, no)
			}
		}
	}
}

// TestDeclaredComplianceOptional: an audit with no such bot has no section,
// so reports of audits without cards stay as they were.
func TestDeclaredComplianceOptional(t *testing.T) {
	t.Parallel()
	r := buildCollector(t, fixture())
	if s := r.Section("declared_compliance"); s != nil {
		t.Errorf("fixture report has a declared_compliance section with %d rows; want none", len(s.Rows))
	}
}
