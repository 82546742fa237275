//go:build cgo

package report

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func tsp(s string) *time.Time { t := ts(s); return &t }

// fixture is a small audit that covers every report section: verified,
// claimed and spoofed bots, a user-triggered fetcher, a bot known only from
// an index listing, several finding kinds, three robots.txt versions with
// each effect, retention actions due and upcoming, and input problems.
func fixture() *table.Collector {
	c := &table.Collector{}
	fixtureFetches(c)
	fixtureViolations(c)
	fixtureRobots(c)
	fixtureRetentions(c)
	c.Problems = []table.Problem{
		{SourceFile: "access.log", SourceLine: 17, Offset: -1, Code: "log-unparsed-line", Severity: "error", Message: "no closing quote in request field"},
		{SourceFile: "access.log", SourceLine: 5, Offset: -1, Code: "log-unparsed-line", Severity: "error", Message: "line does not match combined format"},
		{SourceFile: "site.warc.gz", Offset: 12345, Code: "warc-truncated-gzip", Severity: "error", Message: "unexpected EOF in gzip member"},
	}
	return c
}

// fixtureFetches adds the fixture's fetches: verified, claimed and
// spoofed bots, a user-triggered fetcher and a browser.
func fixtureFetches(c *table.Collector) {
	fetch := func(f table.Fetch) {
		if f.Method == "" {
			f.Method = "GET"
		}
		if f.URLHostName == "" {
			f.URLHostName = "example.com"
			f.URL = "https://example.com" + f.URLPath
		}
		if f.SourceFile == "" {
			f.SourceFile = "access.log"
			f.SourceFormat = "combined"
			f.WARCRecordOffset = -1
		}
		if f.Signature == "" {
			f.Signature = "unrecorded"
		}
		c.Fetches = append(c.Fetches, f)
	}
	fetch(table.Fetch{FetchTime: ts("2025-03-01T09:00:00Z"), Agent: "GPTBot", Operator: "OpenAI", Category: "ai-training",
		IdentifiedBy: "catalog", Identity: "verified", ClientIP: "192.0.2.10", URLPath: "/private/a", FetchStatus: 200, ResponseBytes: 10240, Referrer: "https://example.com/",
		UserAgent: "Mozilla/5.0 (compatible; GPTBot/1.2)", RobotsView: "fresh", RobotsViewTime: tsp("2025-03-01T08:00:00Z"),
		RobotsViewStatus: 200, RobotsVerdict: "disallowed", RobotsVersionID: "example.com@20250228T100000Z-ab12",
		MatchedGroup: "gptbot", MatchedRule: "Disallow: /private/", MatchedLine: 3, IPCheck: "in_range", Findings: 1, SourceLine: 1})
	fetch(table.Fetch{FetchTime: ts("2025-03-01T10:00:00Z"), Agent: "GPTBot", Operator: "OpenAI", Category: "ai-training",
		IdentifiedBy: "catalog", Identity: "claimed", ClientIP: "192.0.2.11", URLPath: "/public", FetchStatus: 200, ResponseBytes: 2048,
		UserAgent: "Mozilla/5.0 (compatible; GPTBot/1.2)", RobotsView: "fresh", RobotsViewTime: tsp("2025-03-01T08:00:00Z"),
		RobotsViewStatus: 200, RobotsVerdict: "allowed", RobotsVersionID: "example.com@20250228T100000Z-ab12", IPCheck: "not_given", IPListURL: "https://openai.com/gptbot.json", SourceLine: 2})
	fetch(table.Fetch{FetchTime: ts("2025-03-02T11:00:00Z"), Agent: "GPTBot", Operator: "OpenAI", Category: "ai-training",
		IdentifiedBy: "catalog", Identity: "spoofed", ClientIP: "203.0.113.9", URLPath: "/private/b", FetchStatus: 200, ResponseBytes: 524288,
		UserAgent: "GPTBot", RobotsView: "unchecked", RobotsVerdict: "disallowed", IPCheck: "not_in_range", Findings: 2, SourceLine: 3})
	fetch(table.Fetch{FetchTime: ts("2025-03-02T12:00:00Z"), Agent: "ClaudeBot", Operator: "Anthropic", Category: "ai-training",
		IdentifiedBy: "catalog", Identity: "claimed", ClientIP: "198.51.100.7", URLPath: "/private/a", FetchStatus: 200, ResponseBytes: 8192,
		UserAgent: "ClaudeBot/1.0", RobotsView: "fresh", RobotsViewTime: tsp("2025-03-02T11:30:00Z"), RobotsViewStatus: 503,
		RobotsVerdict: "unreachable", RobotsVersionID: "example.com@20250302T100000Z-cd34", Findings: 1, SourceLine: 4})
	fetch(table.Fetch{FetchTime: ts("2025-03-02T13:00:00Z"), Agent: "ChatGPT-User", Operator: "OpenAI", Category: "ai-assistant",
		IdentifiedBy: "card", Identity: "verified", UserTriggered: true, ClientIP: "192.0.2.20", URLPath: "/private/c",
		FetchStatus: 200, ResponseBytes: -1, UserAgent: "ChatGPT-User/1.0", RobotsView: "unchecked", RobotsVerdict: "disallowed",
		Signature: "verified", SignatureKeyID: "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U",
		SignatureAgent: "https://chatgpt.com", SourceFile: "edge.jsonl", SourceFormat: "nginx-json", SourceLine: 1,
		WARCRecordOffset: -1, Findings: 1})
	fetch(table.Fetch{FetchTime: ts("2025-03-02T14:00:00Z"), Agent: "ClaudeBot", Operator: "Anthropic", Category: "ai-training",
		IdentifiedBy: "catalog", Identity: "spoofed", ClientIP: "203.0.113.50", URLPath: "/x", FetchStatus: 200, ResponseBytes: -1,
		UserAgent: "ClaudeBot/1.0", RobotsView: "fresh", RobotsVerdict: "allowed", Signature: "invalid",
		SignatureReasons: "bad-signature", SignatureKeyID: "k1", SourceFile: "edge.jsonl", SourceFormat: "nginx-json",
		SourceLine: 2, WARCRecordOffset: -1, Findings: 1})
	fetch(table.Fetch{FetchTime: ts("2025-03-01T15:00:00Z"), ClientIP: "198.51.100.99", URLPath: "/", FetchStatus: 200, ResponseBytes: 1048576, Referrer: "https://search.example/?q=x",
		UserAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/135.0", RobotsVerdict: "not_judged", Signature: "", SourceLine: 5})
}

// fixtureViolations adds one finding of each kind the report shows.
func fixtureViolations(c *table.Collector) {
	viol := func(v table.Violation) {
		if v.URLHostName == "" {
			v.URLHostName = "example.com"
			v.URL = "https://example.com" + v.URLPath
		}
		if v.WARCRecordOffset == 0 {
			v.WARCRecordOffset = -1
		}
		c.Violations = append(c.Violations, v)
	}
	viol(table.Violation{Kind: "disallowed_fetch", Severity: "high", FetchTime: ts("2025-03-01T09:00:00Z"), Agent: "GPTBot",
		Operator: "OpenAI", Category: "ai-training", Identity: "verified", URLPath: "/private/a", ClientIP: "192.0.2.10",
		Evidence:        "robots.txt example.com@20250228T100000Z-ab12 line 3 'Disallow: /private/' (group gptbot)",
		RobotsVersionID: "example.com@20250228T100000Z-ab12", RobotsCaptureTime: tsp("2025-02-28T10:00:00Z"),
		RobotsWARCFile: "site.warc.gz", RobotsWARCOffset: 0, RobotsStatus: 200, MatchedGroup: "gptbot",
		MatchedRule: "Disallow: /private/", MatchedLine: 3, SourceFile: "access.log", SourceLine: 1})
	viol(table.Violation{Kind: "unchecked_disallowed", Severity: "medium", FetchTime: ts("2025-03-02T11:00:00Z"), Agent: "GPTBot",
		Operator: "OpenAI", Category: "ai-training", Identity: "spoofed", URLPath: "/private/b", ClientIP: "203.0.113.9",
		Evidence: "every version in the grace window disallows /private/b", SourceFile: "access.log", SourceLine: 3})
	viol(table.Violation{Kind: "ip_not_published", Severity: "high", FetchTime: ts("2025-03-02T11:00:00Z"), Agent: "GPTBot",
		Operator: "OpenAI", Category: "ai-training", Identity: "spoofed", URLPath: "/private/b", ClientIP: "203.0.113.9",
		Evidence: "203.0.113.9 not in gptbot.json (creationTime 2025-02-01T00:00:00Z)", SourceFile: "access.log", SourceLine: 3})
	viol(table.Violation{Kind: "fetch_while_unreachable", Severity: "high", FetchTime: ts("2025-03-02T12:00:00Z"), Agent: "ClaudeBot",
		Operator: "Anthropic", Category: "ai-training", Identity: "claimed", URLPath: "/private/a", ClientIP: "198.51.100.7",
		Evidence: "the bot's robots.txt fetch at 2025-03-02T11:30:00Z got 503: complete disallow", RobotsStatus: 503,
		SourceFile: "access.log", SourceLine: 4})
	viol(table.Violation{Kind: "disallowed_fetch", Severity: "high", FetchTime: ts("2025-03-02T13:00:00Z"), Agent: "ChatGPT-User",
		Operator: "OpenAI", Category: "ai-assistant", Identity: "verified", UserTriggered: true, URLPath: "/private/c",
		Evidence: "robots.txt line 3 'Disallow: /private/' (group *)", SourceFile: "edge.jsonl", SourceLine: 1})
	viol(table.Violation{Kind: "invalid_signature", Severity: "high", FetchTime: ts("2025-03-02T14:00:00Z"), Agent: "ClaudeBot",
		Operator: "Anthropic", Category: "ai-training", Identity: "spoofed", URLPath: "/x", ClientIP: "203.0.113.50",
		Evidence: "signature sig1 keyid k1: bad-signature", SignatureReason: "bad-signature", SourceFile: "edge.jsonl", SourceLine: 2})
	viol(table.Violation{Kind: "noindex_indexed", Severity: "medium", FetchTime: ts("2025-03-03T00:00:00Z"), Agent: "PerplexityBot",
		Operator: "Perplexity", Category: "ai-search", Identity: "claimed", URLPath: "/private/a",
		Evidence: "X-Robots-Tag: noindex (site.warc.gz@2048)", Directive: "X-Robots-Tag: noindex",
		SourceFile: "index.txt", SourceLine: 7})
}

// fixtureRobots adds three robots.txt versions, one with each effect,
// their rules and a page directive.
func fixtureRobots(c *table.Collector) {
	c.RobotsVersions = []table.RobotsVersion{
		{VersionID: "example.com@20250228T100000Z-ab12", Authority: "https://example.com", URLHostName: "example.com",
			URL: "https://example.com/robots.txt", FetchTime: ts("2025-02-28T10:00:00Z"), ValidFrom: ts("2025-02-28T10:00:00Z"),
			ValidUntil: tsp("2025-03-02T10:00:00Z"), FetchStatus: 200, Effect: "rules", StatusRule: "success",
			ContentDigest: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", Size: 64, Groups: 2, Rules: 3,
			WARCFilename: "site.warc.gz", WARCRecordOffset: 0, WARCRecordLength: 512, WARCRecordID: "<urn:uuid:1>"},
		{VersionID: "example.com@20250302T100000Z-cd34", Authority: "https://example.com", URLHostName: "example.com",
			URL: "https://example.com/robots.txt", FetchTime: ts("2025-03-02T10:00:00Z"), ValidFrom: ts("2025-03-02T10:00:00Z"),
			FetchStatus: 503, Effect: "disallow_all", StatusRule: "unreachable",
			WARCFilename: "site.warc.gz", WARCRecordOffset: 4096, WARCRecordLength: 300, WARCRecordID: "<urn:uuid:2>"},
		{VersionID: "news.example.org@20250227T000000Z-ef56", Authority: "https://news.example.org", URLHostName: "news.example.org",
			URL: "https://news.example.org/robots.txt", FetchTime: ts("2025-02-27T00:00:00Z"), ValidFrom: ts("2025-02-27T00:00:00Z"),
			FetchStatus: 404, Effect: "allow_all", StatusRule: "unavailable",
			WARCFilename: "news.warc.gz", WARCRecordOffset: 0, WARCRecordLength: 280, WARCRecordID: "<urn:uuid:3>"},
	}
	c.RobotsRules = []table.RobotsRule{
		{VersionID: "example.com@20250228T100000Z-ab12", Line: 1, Kind: "user-agent", Group: "gptbot", Value: "GPTBot"},
		{VersionID: "example.com@20250228T100000Z-ab12", Line: 3, Kind: "disallow", Group: "gptbot", Value: "/private/"},
	}
	c.Directives = []table.Directive{
		{URL: "https://example.com/private/a", URLHostName: "example.com", FetchTime: ts("2025-02-28T10:05:00Z"), Token: "*",
			Rule: "noindex", Via: "x-robots-tag", Evidence: "X-Robots-Tag: noindex", WARCFilename: "site.warc.gz", WARCRecordOffset: 2048},
	}
}

// fixtureRetentions adds retention actions due, upcoming and none.
func fixtureRetentions(c *table.Collector) {
	ret := func(r table.Retention) {
		r.URLHostName = "example.com"
		r.Agent = "ia_archiver"
		r.RecordType = "response"
		r.FetchStatus = 200
		r.WARCFilename = "site.warc.gz"
		c.Retentions = append(c.Retentions, r)
	}
	ret(table.Retention{URL: "https://example.com/a", FetchTime: ts("2025-02-28T10:05:00Z"), Action: "delete",
		Reason: "acap-time-limit", DueDate: tsp("2025-03-01T00:00:00Z"), Evidence: "ACAP-allow-preserve: /a time-limit=1-days (robots.txt line 9)",
		WARCRecordOffset: 1024, WARCRecordLength: 900, WARCRecordID: "<urn:uuid:4>"})
	ret(table.Retention{URL: "https://example.com/b", FetchTime: ts("2025-02-28T10:06:00Z"), Action: "embargo",
		Reason: "unavailable_after", DueDate: tsp("2025-04-01T00:00:00Z"), Evidence: "X-Robots-Tag: unavailable_after: 2025-04-01",
		WARCRecordOffset: 2048, WARCRecordLength: 900, WARCRecordID: "<urn:uuid:5>"})
	ret(table.Retention{URL: "https://example.com/private/a", FetchTime: ts("2025-02-28T10:07:00Z"), Action: "review",
		Reason: "captured-while-disallowed", Evidence: "robots.txt line 3 'Disallow: /private/'",
		WARCRecordOffset: 3072, WARCRecordLength: 900, WARCRecordID: "<urn:uuid:6>"})
	ret(table.Retention{URL: "https://example.com/news/c", FetchTime: ts("2025-02-28T10:09:00Z"), Action: "keep",
		Reason: "acap-time-limit", DueDate: tsp("2025-03-30T10:09:00Z"), Evidence: "ACAP-allow-preserve: /news/ time-limit=30-days (robots.txt line 10)",
		WARCRecordOffset: 5000, WARCRecordLength: 900, WARCRecordID: "<urn:uuid:8>"})
	ret(table.Retention{URL: "https://example.com/", FetchTime: ts("2025-02-28T10:08:00Z"), Action: "keep",
		Reason: "no-restriction", WARCRecordOffset: 4000, WARCRecordLength: 900, WARCRecordID: "<urn:uuid:7>"})
}

// fixtureManifest is the manifest written with the fixture.
func fixtureManifest() *output.Manifest {
	return &output.Manifest{
		Version: "0.1.0-test",
		Command: []string{"audit", "--as-of", "2025-03-05T00:00:00Z", "--out", "audit", "site.warc.gz", "access.log", "edge.jsonl"},
		Options: map[string]any{"robots_ttl": "24h0m0s"},
		Inputs: []output.Input{
			{Path: "site.warc.gz", Size: 20480, SHA256: "aa11", Kind: "warc", Format: "warc.gz", Records: 12, Problems: 1},
			{Path: "access.log", Size: 4096, SHA256: "bb22", Kind: "log", Format: "combined", Records: 7, Problems: 2},
			{Path: "edge.jsonl", Size: 1024, SHA256: "cc33", Kind: "log", Format: "nginx-json", Records: 2},
		},
		Timings:  map[string]float64{"read": 0.5},
		AsOf:     "2025-03-05T00:00:00Z",
		Started:  "2025-02-27T00:00:00Z",
		Finished: "2025-03-03T00:00:00Z",
	}
}

// writeAudit writes rows to a new audit directory under t.TempDir().
func writeAudit(t testing.TB, c *table.Collector, m *output.Manifest) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "audit")
	w, err := output.Create(dir, output.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for i := range c.Fetches {
		must(t, w.Fetch(&c.Fetches[i]))
	}
	for i := range c.Violations {
		must(t, w.Violation(&c.Violations[i]))
	}
	for i := range c.RobotsVersions {
		must(t, w.RobotsVersion(&c.RobotsVersions[i]))
	}
	for i := range c.RobotsRules {
		must(t, w.RobotsRule(&c.RobotsRules[i]))
	}
	for i := range c.Directives {
		must(t, w.Directive(&c.Directives[i]))
	}
	for i := range c.Retentions {
		must(t, w.Retention(&c.Retentions[i]))
	}
	for i := range c.Problems {
		must(t, w.Problem(&c.Problems[i]))
	}
	if err := w.Commit(m); err != nil {
		t.Fatal(err)
	}
	return dir
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
