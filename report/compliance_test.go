//go:build cgo

package report

import (
	"fmt"
	"testing"
	"time"

	"github.com/repaudit/repaudit/table"
)

// complianceAudit is a small audit for the compliance and crawl-to-refer
// sections: GPTBot with robots.txt fetches, pages of each freshness, an
// asset and a 304; a spoofed GPTBot; readers referred from OpenAI's and
// Perplexity's products; 2,408 PerplexityBot pages.
func complianceAudit(t *testing.T) *Report {
	t.Helper()
	c := &table.Collector{}
	at := ts("2025-03-01T00:00:00Z")
	n := 0
	fetch := func(f table.Fetch) {
		n++
		f.FetchTime = at.Add(time.Duration(n) * time.Minute)
		f.Method, f.URLHostName, f.URL = "GET", "example.com", "https://example.com"+f.URLPath
		f.SourceFile, f.SourceFormat, f.SourceLine, f.WARCRecordOffset = "access.log", "combined", int64(n), -1
		f.Signature, f.ResponseBytes = "unrecorded", -1
		if f.FetchStatus == 0 {
			f.FetchStatus = 200
		}
		if f.Agent == "" {
			f.UserAgent, f.RobotsVerdict = "Mozilla/5.0", "not_judged"
		}
		c.Fetches = append(c.Fetches, f)
	}
	gpt := func(path, view, verdict string, status int32) {
		fetch(table.Fetch{Agent: "GPTBot", Operator: "OpenAI", Category: "ai-training", Identity: "claimed",
			UserAgent: "GPTBot/1.2", URLPath: path, FetchStatus: status, RobotsView: view, RobotsVerdict: verdict})
	}
	gpt("/robots.txt", "fresh", "allowed", 200)
	for i := range 10 {
		view, verdict := "fresh", "allowed"
		switch {
		case i == 0:
			verdict = "disallowed"
		case i == 1:
			verdict = "unreachable"
		case i < 4:
			view = "stale"
		case i == 4:
			view = "unchecked"
		}
		gpt(fmt.Sprintf("/news/%d", i), view, verdict, 200)
	}
	gpt("/static/site.CSS", "fresh", "allowed", 200) // an asset: not a page
	gpt("/news/0", "stale", "allowed", 304)          // not 200: not a page
	gpt("/robots.txt", "fresh", "allowed", 200)
	fetch(table.Fetch{Agent: "GPTBot", Identity: "spoofed", UserAgent: "GPTBot", URLPath: "/news/x",
		RobotsView: "unchecked", RobotsVerdict: "disallowed"})
	for range 2408 {
		fetch(table.Fetch{Agent: "PerplexityBot", Operator: "Perplexity", Category: "ai-search", Identity: "verified",
			UserAgent: "PerplexityBot/1.0", URLPath: "/news/p", RobotsView: "fresh", RobotsVerdict: "allowed"})
	}
	for _, ref := range []string{
		"https://chatgpt.com/",
		"https://user@CHAT.OpenAI.com.:443/c/1", // case, trailing dot, user info and port
		"https://notchatgpt.com/",               // another host
		"chatgpt.com",                           // not a URL
		"https://www.perplexity.ai/search?q=x",
		"https://perplexity.ai/",
	} {
		fetch(table.Fetch{URLPath: "/news/1", Referrer: ref})
	}
	fetch(table.Fetch{URLPath: "/app.js", Referrer: "https://chatgpt.com/"}) // an asset
	return buildCollector(t, c)
}

func TestComplianceByBot(t *testing.T) {
	t.Parallel()
	r := complianceAudit(t)
	var got []string
	for _, m := range rows(t, r, "compliance_by_bot") {
		got = append(got, fmt.Sprintf("%v %v %v fetches=%v robots=%v pages=%v fresh=%v disallowed=%v first=%v last=%v",
			m["agent"], m["operator"], m["identity"], m["fetches"], m["robots_fetches"], m["page_fetches"],
			m["pct_fresh"], m["disallowed"], m["first_robots_check"], m["last_robots_check"]))
	}
	want := []string{
		// 12 fetches besides robots.txt, 8 of them fresh (the asset
		// included, the 304 stale): 66.7%; disallowed and unreachable both count.
		"GPTBot OpenAI claimed fetches=14 robots=2 pages=12 fresh=66.7 disallowed=2 " +
			"first=2025-03-01 00:01:00 +0000 UTC last=2025-03-01 00:14:00 +0000 UTC",
		"GPTBot  spoofed fetches=1 robots=0 pages=1 fresh=0 disallowed=1 first=<nil> last=<nil>",
		"PerplexityBot Perplexity verified fetches=2408 robots=0 pages=2408 fresh=100 disallowed=0 first=<nil> last=<nil>",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("compliance_by_bot:\ngot  %q\nwant %q", got, want)
	}
}

func TestCrawlToRefer(t *testing.T) {
	t.Parallel()
	r := complianceAudit(t)
	var got []string
	for _, m := range rows(t, r, "crawl_to_refer") {
		got = append(got, fmt.Sprintf("%v %v/%v %v", m["operator"], m["page_fetches"], m["referrals"], m["ratio"]))
	}
	want := []string{
		// 2,408 pages for 2 referrals (www.perplexity.ai, perplexity.ai).
		"Perplexity 2408/2 1,204 : 1",
		// 10 pages (not the asset, the 304, robots.txt or the spoofed
		// client) for 2 referrals (chatgpt.com, chat.openai.com).
		"OpenAI 10/2 5.0 : 1",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("crawl_to_refer:\ngot  %q\nwant %q", got, want)
	}
}
