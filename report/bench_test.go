//go:build cgo

package report

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

// writeLargeAudit writes n fetches by 20 bots over 90 days on 50 hosts,
// with a finding for one fetch in ten, a few robots.txt versions per host,
// retention rows and problems.
func writeLargeAudit(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "audit")
	w, err := output.Create(dir, output.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Abort()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	identities := []string{"claimed", "claimed", "claimed", "verified", "spoofed"}
	kinds := []string{"disallowed_fetch", "stale_robots", "unchecked_disallowed", "possible_violation", "ip_not_published"}
	for i := range n {
		agent, host := fmt.Sprintf("Bot%02d", i%20), fmt.Sprintf("host%02d.example", i%50)
		path := fmt.Sprintf("/section%d/page%d", i%37, i%5000)
		at := start.Add(time.Duration(i) * 90 * 24 * time.Hour / time.Duration(n))
		view := at.Add(-time.Hour)
		f := table.Fetch{FetchTime: at, Agent: agent, Operator: "Operator " + agent, Category: "ai-training",
			Identity: identities[i%len(identities)], UserTriggered: i%20 == 19, ClientIP: fmt.Sprintf("192.0.2.%d", i%250),
			Method: "GET", URL: "https://" + host + path, URLHostName: host, URLPath: path, FetchStatus: 200,
			UserAgent: "Mozilla/5.0 (compatible; " + agent + "/1.0)", RobotsView: "fresh", RobotsViewTime: &view,
			RobotsVerdict: "allowed", Signature: "unrecorded", SourceFormat: "combined", SourceFile: "access.log",
			SourceLine: int64(i + 1), WARCRecordOffset: -1}
		if i%10 == 0 {
			f.RobotsVerdict = "disallowed"
			f.Findings = 1
		}
		if err := w.Fetch(&f); err != nil {
			b.Fatal(err)
		}
		if i%10 == 0 {
			v := table.Violation{Kind: kinds[(i/10)%len(kinds)], Severity: "high", FetchTime: at, Agent: agent,
				Operator: f.Operator, Category: f.Category, Identity: f.Identity, UserTriggered: f.UserTriggered,
				URL: f.URL, URLHostName: host, URLPath: path, ClientIP: f.ClientIP,
				Evidence: "robots.txt line 3 'Disallow: /section'", SourceFile: "access.log", SourceLine: f.SourceLine,
				WARCRecordOffset: -1}
			if err := w.Violation(&v); err != nil {
				b.Fatal(err)
			}
		}
	}
	for h := range 50 {
		for k := range 4 {
			from := start.Add(time.Duration(k) * 20 * 24 * time.Hour)
			rv := table.RobotsVersion{VersionID: fmt.Sprintf("h%d-v%d", h, k), Authority: fmt.Sprintf("https://host%02d.example", h),
				FetchTime: from, ValidFrom: from, FetchStatus: 200, Effect: "rules", StatusRule: "success"}
			if k < 3 {
				u := from.Add(20 * 24 * time.Hour)
				rv.ValidUntil = &u
			}
			if err := w.RobotsVersion(&rv); err != nil {
				b.Fatal(err)
			}
		}
	}
	for i := range 1000 {
		due := start.Add(time.Duration(i) * time.Hour)
		if err := w.Retention(&table.Retention{URL: fmt.Sprintf("https://host.example/%d", i), Action: "delete",
			Reason: "acap-time-limit", DueDate: &due, WARCFilename: "a.warc.gz", WARCRecordOffset: int64(i) * 1000}); err != nil {
			b.Fatal(err)
		}
		if err := w.Problem(&table.Problem{SourceFile: "access.log", SourceLine: int64(i), Offset: -1,
			Code: "log-unparsed-line", Severity: "error", Message: "bad line"}); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Commit(&output.Manifest{Version: "bench", AsOf: "2025-04-01T00:00:00Z"}); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkBuild measures Open + Build + WriteJSON over one million
// fetches and 100,000 findings.
func BenchmarkBuild(b *testing.B) {
	dir := writeLargeAudit(b, 1_000_000)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		db, err := Open(ctx, dir)
		if err != nil {
			b.Fatal(err)
		}
		r, err := db.Build(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
}
