//go:build cgo

package report

import (
	"fmt"
	"testing"
	"time"

	"github.com/repaudit/repaudit/table"
)

// usageAudit is a small audit for the AI use of content sections: an
// authority whose robots.txt had no preferences, then Content-Signal in
// '*' and Content-Usage for ClaudeBot with a License, kept by a second
// version, then none again; and usage_reserved findings by a claimed and
// a spoofed ClaudeBot under two labels.
func usageAudit(t *testing.T) *Report {
	t.Helper()
	c := &table.Collector{}
	const site = "https://example.com"
	version := func(id, from, until string) {
		v := table.RobotsVersion{VersionID: id, Authority: site, FetchTime: ts(from), ValidFrom: ts(from),
			FetchStatus: 200, Effect: "rules", StatusRule: "2xx", WARCRecordOffset: -1}
		if until != "" {
			u := ts(until)
			v.ValidUntil = &u
		}
		c.RobotsVersions = append(c.RobotsVersions, v)
	}
	version("v1", "2025-03-01T00:00:00Z", "2025-03-10T00:00:00Z")
	version("v2", "2025-03-10T00:00:00Z", "2025-03-20T00:00:00Z")
	version("v3", "2025-03-20T00:00:00Z", "2025-04-01T00:00:00Z")
	version("v4", "2025-04-01T00:00:00Z", "")
	rule := func(id string, line int32, kind, group, value string) {
		c.RobotsRules = append(c.RobotsRules, table.RobotsRule{VersionID: id, Line: line, Kind: kind, Group: group, Value: value})
	}
	rule("v1", 1, "user-agent", "*", "*")
	rule("v1", 2, "disallow", "*", "/private/")
	for _, id := range []string{"v2", "v3"} {
		rule(id, 1, "user-agent", "*", "*")
		rule(id, 2, "content-signal", "*", "search=yes, ai-train=no")
		rule(id, 4, "user-agent", "claudebot", "ClaudeBot")
		rule(id, 5, "content-usage", "claudebot", "/news/ train-ai=n")
		rule(id, 6, "content-usage", "claudebot", "/blog/ train-ai=n")
		rule(id, 8, "license", "", "https://example.com/license.xml")
	}
	rule("v4", 1, "user-agent", "*", "*")
	reserved := func(identity, operator, usage, path, at string) {
		c.Violations = append(c.Violations, table.Violation{Kind: "usage_reserved", Severity: "medium",
			FetchTime: ts(at), Agent: "ClaudeBot", Operator: operator, Category: "ai-training", Identity: identity,
			URL: site + path, URLHostName: "example.com", URLPath: path, Usage: usage,
			MatchedRule: "Content-Usage: /news/ train-ai=n", SourceFile: "access.log", WARCRecordOffset: -1})
	}
	reserved("claimed", "Anthropic", "train-ai", "/news/a", "2025-03-12T00:00:00Z")
	reserved("claimed", "Anthropic", "train-ai", "/news/a", "2025-03-14T00:00:00Z")
	reserved("claimed", "Anthropic", "train-ai", "/news/b", "2025-03-13T00:00:00Z")
	reserved("claimed", "Anthropic", "ai-train", "/news/b", "2025-03-13T00:00:00Z")
	reserved("spoofed", "Anthropic", "train-ai", "/news/c", "2025-03-15T00:00:00Z")
	return buildCollector(t, c)
}

func TestUsagePrefs(t *testing.T) {
	t.Parallel()
	r := usageAudit(t)
	var got []string
	for _, m := range rows(t, r, "usage_prefs") {
		got = append(got, fmt.Sprintf("%v..%v n=%v [%v] %v {%v} %v", day(m["valid_from"]), day(m["valid_until"]),
			m["versions"], m["group"], m["preferences"], m["licenses"], m["version_id"]))
	}
	want := []string{
		"2025-03-01..2025-03-10 n=1 [] no preferences {} v1",
		// v2 and v3 carry the same lines: one span.
		"2025-03-10..2025-04-01 n=2 [*] Content-Signal: search=yes, ai-train=no (line 2) {https://example.com/license.xml} v2",
		"2025-03-10..2025-04-01 n=2 [claudebot] Content-Usage: /news/ train-ai=n (line 5); Content-Usage: /blog/ train-ai=n (line 6) {https://example.com/license.xml} v2",
		"2025-04-01..now n=1 [] no preferences {} v4",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("usage_prefs:\ngot  %q\nwant %q", got, want)
	}
}

func TestUsageReserved(t *testing.T) {
	t.Parallel()
	r := usageAudit(t)
	var got []string
	for _, m := range rows(t, r, "usage_reserved") {
		got = append(got, fmt.Sprintf("%v [%v] %v %v findings=%v urls=%v %v..%v", m["agent"], m["operator"], m["identity"],
			m["usage"], m["findings"], m["urls"], day(m["first_seen"]), day(m["last_seen"])))
	}
	want := []string{
		"ClaudeBot [Anthropic] claimed ai-train findings=1 urls=1 2025-03-13..2025-03-13",
		"ClaudeBot [Anthropic] claimed train-ai findings=3 urls=2 2025-03-12..2025-03-14",
		// A spoofed row never names the operator.
		"ClaudeBot [] spoofed train-ai findings=1 urls=1 2025-03-15..2025-03-15",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("usage_reserved:\ngot  %q\nwant %q", got, want)
	}
}

// day shows a time cell as its UTC day, "now" when NULL.
func day(v any) string {
	if t, ok := v.(interface{ UTC() time.Time }); ok {
		return t.UTC().Format(time.DateOnly)
	}
	return "now"
}
