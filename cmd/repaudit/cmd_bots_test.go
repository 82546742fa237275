package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func runBotsCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"bots"}, args...), stdio{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func TestBotsIdentify(t *testing.T) {
	in := strings.Join([]string{
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
		"FreshRSS/1.11.2 (Linux; https://freshrss.org) like Googlebot",
		`{"user_agent": "Mozilla/5.0 (compatible; Some Unknown Spider/2.0; +https://example.net)"}`,
		`"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"`,
		`{"ua": 5}`,
		"Mozilla/5.0 (compatible; heritrix/3.4.0 +https://example.org/crawler)",
	}, "\n")
	code, out, errs := runBotsCmd(t, in, "identify")
	if code != exitUsage {
		t.Errorf("exit %d, want %d (one unusable line)", code, exitUsage)
	}
	if !strings.Contains(errs, "stdin:5:") {
		t.Errorf("stderr %q does not name line 5", errs)
	}
	want := []identifyResult{
		{Agent: "GPTBot", Operator: "OpenAI", Category: "ai-training", IdentifiedBy: "catalog", Rule: "catalog-literal", Matched: "GPTBot"},
		{Agent: "FreshRSS", Category: "feed", IdentifiedBy: "catalog", Rule: "catalog-literal", Matched: "FreshRSS"},
		{Agent: "Some Unknown Spider", Category: "other", IdentifiedBy: "ua-token", Rule: "generic-word-full-name", Matched: "Some Unknown Spider"},
		{},
		{Error: `member "ua" is not a string`},
		{Agent: "heritrix", Category: "archiver", IdentifiedBy: "catalog", Rule: "framework", Matched: "heritrix"},
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, l := range lines {
		var got identifyResult
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		got.UserAgent = ""
		if got != want[i] {
			t.Errorf("line %d: got %+v, want %+v", i+1, got, want[i])
		}
	}
}

func TestBotsIdentifyText(t *testing.T) {
	in := "Mozilla/5.0 (compatible; Quokka/1.0; +https://quokka.example/)\nMozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0\n"
	code, out, _ := runBotsCmd(t, in, "identify", "--text")
	if code != exitOK {
		t.Errorf("exit %d", code)
	}
	want := "Quokka\tua-token\tcomment-slot\tQuokka\tMozilla/5.0 (compatible; Quokka/1.0; +https://quokka.example/)\n" +
		"-\t-\t-\t-\tMozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestBotsList(t *testing.T) {
	code, out, errs := runBotsCmd(t, "", "list")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(out, "# crawler-user-agents ") || !strings.Contains(out, "(npm) and repaudit's overlay") {
		t.Errorf("list does not start with the data versions:\n%.300s", out)
	}
	if !strings.Contains(out, "\nGPTBot ") {
		t.Error("list has no GPTBot row")
	}
	extra := filepath.Join(t.TempDir(), "mine.json")
	if err := os.WriteFile(extra, []byte(`{"bots": [{"token": "MyVeryOwnBot", "operator": "Me", "category": "seo"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runBotsCmd(t, "", "list", "--json", "--bots", extra)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Data catalogVersions `json:"data"`
		Bots []listedBot     `json:"bots"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Data.CrawlerUserAgents == "" || len(doc.Data.Files) != 1 {
		t.Errorf("data: got %+v", doc.Data)
	}
	found := false
	for _, b := range doc.Bots {
		found = found || b.Token == "MyVeryOwnBot" && b.Operator == "Me"
	}
	if !found {
		t.Error("the --bots file's bot is not listed")
	}
	// Per bot: the current IP list URLs, the former ones, the reverse-DNS
	// suffixes and the operator's page documenting the DNS check.
	want := map[string]struct{ list, former, suffix, doc string }{
		"Googlebot": {"https://developers.google.com/crawling/ipranges/common-crawlers.json",
			"https://developers.google.com/static/search/apis/ipranges/googlebot.json", ".googlebot.com",
			"https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot"},
		"bingbot":   {"https://www.bing.com/toolbox/bingbot.json", "", ".search.msn.com", "https://www.bing.com/webmaster/help/how-to-verify-bingbot-3905dc26"},
		"Applebot":  {"", "", ".applebot.apple.com", "https://support.apple.com/en-us/119829"},
		"Amazonbot": {"", "", ".crawl.amazonbot.amazon", "https://developer.amazon.com/amazonbot"},
		"CCBot":     {"", "", ".crawl.commoncrawl.org", "https://commoncrawl.org/faq"},
	}
	for _, b := range doc.Bots {
		w, ok := want[b.Token]
		if !ok {
			continue
		}
		delete(want, b.Token)
		if w.list != "" && !slices.Contains(b.IPRangesURLs, w.list) || w.former != "" && !slices.Contains(b.IPRangesFormer, w.former) ||
			!slices.Contains(b.RDNSSuffixes, w.suffix) || b.RDNSDocURL != w.doc {
			t.Errorf("%s: got %+v, want %+v", b.Token, b, w)
		}
	}
	if len(want) > 0 {
		t.Errorf("not listed: %v", want)
	}
	if code, _, _ := runBotsCmd(t, "", "list", "--bots", filepath.Join(t.TempDir(), "missing.json")); code != exitUsage {
		t.Errorf("missing --bots file: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := runBotsCmd(t, "", "nonsense"); code != exitUsage {
		t.Errorf("unknown subcommand: exit %d, want %d", code, exitUsage)
	}
}

func FuzzLineUA(f *testing.F) {
	for _, s := range []string{"curl/8.0", `"x"`, `{"user_agent": "y"}`, `{"ua": 1}`, `{`, `"\u0000"`, ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ua, err := lineUA(b)
		if err != nil && ua != "" {
			t.Fatalf("lineUA(%q) gave %q and an error", b, ua)
		}
	})
}
