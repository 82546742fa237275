package bots

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/internal/fixtures"
)

func mustLoad(t testing.TB, name, data string) *Catalog {
	t.Helper()
	c, err := Load(strings.NewReader(data), name)
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	return c
}

func TestIdentifyWholeTokens(t *testing.T) {
	c := mustLoad(t, "test.json", `{"bots": [
		{"token": "Spider", "category": "other"},
		{"token": "LCC", "category": "other"},
		{"token": "Googlebot", "category": "search"},
		{"token": "Googlebot-Image", "category": "search"},
		{"token": "Yahoo! Slurp", "category": "search"},
		{"token": "Quokka Web Preview", "category": "other"},
		{"token": "QTST", "patterns": ["QTST/"], "category": "monitor"},
		{"token": "RED", "patterns": ["RED/"], "category": "other"},
		{"token": "ExampleBot", "patterns": ["ExampleBot", "example-crawler"], "category": "other"},
		{"token": "Example-Extended", "robots_txt_only": true}
	]}`)
	tests := []struct {
		ua   string
		want string
	}{
		{"Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", ""},
		// A generic word is never a name, even when a catalog names it.
		{"Mozilla/5.0 (compatible; Spider/1.0)", ""},
		{"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; SLCC2; .NET CLR 2.0.50727)", ""},
		{"Mozilla/5.0 (compatible; LCC/1.0)", "LCC"},
		{"Googlebot-Image/1.0", "Googlebot-Image"},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		// Both appear: the longer pattern wins wherever it is.
		{"Googlebot/2.1 Googlebot-Image/1.0", "Googlebot-Image"},
		{"Googlebot-Image/1.0 (compatible; Googlebot/2.1)", "Googlebot-Image"},
		// An unversioned pattern inside a comment yields to a product
		// with a version: the token the client declares.
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; Quokka Web Preview Analytics) Chrome/41.0 Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Mozilla/5.0 (compatible; Quokka Web Preview)", "Quokka Web Preview"},
		{"Quokka Web Preview (compatible; Googlebot/2.1)", "Quokka Web Preview"},
		{"Quokka Web Preview/1.0 (compatible; Googlebot/2.1)", "Quokka Web Preview"},
		// A product in the old comment grammar: its version after a
		// space, ending the element; a handset's model goes on.
		{"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; QTST 2.295)", "QTST"},
		{"Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0; QTST 2.386) like Gecko", "QTST"},
		{"Mozilla/5.0 (Linux; Android 10; RED 30 Build/QP1A.191105.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/74.0.3729.186 Mobile Safari/537.36", ""},
		{"Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", "Yahoo! Slurp"},
		{"example-crawler/3 (+https://example.com)", "ExampleBot"},
		{"EXAMPLEBOT", "ExampleBot"},
		{"Example-Extended/1.0", ""},
		// Words of links and mail addresses name no product.
		{"Mozilla/5.0 (compatible; NewBot/1.0; +https://example.com/googlebot)", ""},
		{"Mozilla/5.0 (compatible; NewBot/1.0; +http://googlebot.example.com/)", ""},
		{"NewBot/1.0 (googlebot@example.com)", ""},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0 Safari/537.36", ""},
		{"", ""},
	}
	for _, tt := range tests {
		b, ok := c.Identify(tt.ua)
		got := ""
		if ok {
			got = b.Token
		}
		if got != tt.want {
			t.Errorf("Identify(%q): got %q, want %q", tt.ua, got, tt.want)
		}
	}
}

func TestIdentifyDoesNotAllocate(t *testing.T) {
	c := Default()
	uas := []string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
		"Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)",
	}
	for _, ua := range uas {
		if n := testing.AllocsPerRun(100, func() { c.Identify(ua) }); n != 0 {
			t.Errorf("Identify(%q): got %v allocations, want 0", ua, n)
		}
	}
}

func TestLookup(t *testing.T) {
	c := Default()
	for _, tok := range []string{"GPTBot", "gptbot", "GPTBOT", "googlebot-image", "Google-Extended", "ARCHIVE.ORG_BOT"} {
		if _, ok := c.Lookup(tok); !ok {
			t.Errorf("Lookup(%q): got not found, want found", tok)
		}
	}
	if _, ok := c.Lookup("NoSuchBot"); ok {
		t.Error("Lookup(NoSuchBot): got found, want not found")
	}
	if _, ok := c.Lookup(strings.Repeat("x", 100)); ok {
		t.Error("Lookup(long): got found, want not found")
	}
}

func TestDefaultCatalog(t *testing.T) {
	c := Default()
	if n := c.Len(); n < 1000 {
		t.Errorf("got %d bots, want over 1000 (crawler-user-agents and the overlay)", n)
	}
	if v := c.DataVersions(); v.CrawlerUserAgents == "" {
		t.Errorf("data versions %+v: want an npm version", v)
	}
	prev := ""
	for _, b := range c.Bots() {
		if !categories[b.Category] && b.Category != "" {
			t.Errorf("%s: category %q is not a known category", b.Token, b.Category)
		}
		if b.RobotsTxtOnly != (len(b.Patterns) == 0) {
			t.Errorf("%s: robots_txt_only %v with %d patterns", b.Token, b.RobotsTxtOnly, len(b.Patterns))
		}
		if b.Framework && b.Operator != "" {
			t.Errorf("%s: a framework with operator %q", b.Token, b.Operator)
		}
		// A generic token ("Spider" of ai.robots.txt, "Fetch" of
		// crawler-user-agents) is known to Lookup but never read from a
		// User-Agent.
		if id := c.IdentifyUA(b.Token + "/1.0"); IsGeneric(b.Token) && id.Bot == b {
			t.Errorf("%s: a generic word named as a bot's token", b.Token)
		}
		for _, u := range b.IPRangesURLs {
			if !strings.HasPrefix(u, "https://") {
				t.Errorf("%s: IP range list %q is not https", b.Token, u)
			}
		}
		if len(b.IPRangesURLs) > 0 && b.IPRangesURL != b.IPRangesURLs[0] {
			t.Errorf("%s: IPRangesURL %q is not the first of %v", b.Token, b.IPRangesURL, b.IPRangesURLs)
		}
		if l := strings.ToLower(b.Token); l < prev {
			t.Errorf("Bots() not sorted: %q after %q", l, prev)
		} else {
			prev = l
		}
		// A bot's own token, written as crawlers write theirs, names it.
		if !b.RobotsTxtOnly && !b.Framework && !IsGeneric(b.Token) && b.verify[b.Token] == nil && hasUnanchored(b, b.Token) && !isLink(b.Token) {
			got, ok := c.Identify("Mozilla/5.0 (compatible; " + b.Token + "/1.0; +https://example.com/bot)")
			if !ok || !strings.EqualFold(got.Token, b.Token) && !hasPattern(got, b.Token) {
				t.Errorf("%s: Identify of its own token gave %v", b.Token, got)
			}
		}
	}
	want := map[string][2]any{
		"GPTBot":             {CategoryAITraining, false},
		"OAI-SearchBot":      {CategoryAISearch, false},
		"ChatGPT-User":       {CategoryAIAssistant, true},
		"ClaudeBot":          {CategoryAITraining, false},
		"Claude-User":        {CategoryAIAssistant, true},
		"Google-Extended":    {CategoryAITraining, false},
		"Googlebot":          {CategorySearch, false},
		"CCBot":              {CategoryAITraining, false},
		"Perplexity-User":    {CategoryAIAssistant, true},
		"archive.org_bot":    {CategoryArchiver, false},
		"SemrushBot":         {CategorySEO, false},
		"meta-externalagent": {CategoryAITraining, false},
		"ChatGPT Agent":      {CategoryAIAssistant, true},
		"FeedFetcher-Google": {CategoryFeed, true},
	}
	for tok, w := range want {
		b, ok := c.Lookup(tok)
		if !ok {
			t.Errorf("%s: missing", tok)
			continue
		}
		if b.Category != w[0] || b.UserTriggered != w[1] {
			t.Errorf("%s: got %s/%v, want %s/%v", tok, b.Category, b.UserTriggered, w[0], w[1])
		}
	}
	if b, _ := c.Lookup("Google-Extended"); !b.RobotsTxtOnly {
		t.Error("Google-Extended: got robots_txt_only false, want true")
	}
	if b, _ := c.Lookup("GPTBot"); b.IPRangesURL != "https://openai.com/gptbot.json" {
		t.Errorf("GPTBot: got IP ranges URL %q", b.IPRangesURL)
	}
	for _, tok := range []string{"heritrix", "Scrapy", "python-requests", "curl", "Go-http-client", "Nutch"} {
		if b, ok := c.Lookup(tok); !ok || !b.Framework || b.Operator != "" {
			t.Errorf("%s: got %+v, want a framework with no operator", tok, b)
		}
	}
}

func hasUnanchored(b *Bot, p string) bool {
	for _, q := range b.Patterns {
		if strings.EqualFold(q, p) {
			return true
		}
	}
	return false
}

func hasPattern(b *Bot, p string) bool {
	for _, q := range b.Patterns {
		if strings.EqualFold(strings.TrimPrefix(q, "^"), p) {
			return true
		}
	}
	return false
}

// aiRobotsJSON is ai.robots.txt's robots.json, a third-party fixture
// (../shared/fixtures): users merge it with --bots.
func aiRobotsJSON(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(fixtures.Path(t, "bot-catalogs/ai.robots.txt/robots.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAIRobotsNames checks that every name of ai.robots.txt's robots.json,
// merged over the default catalog as --bots does, is known by Lookup, and
// that a User-Agent carrying it names that bot, except the generic word
// "Spider", which names no bot in a User-Agent (docs/semantics.md).
func TestAIRobotsNames(t *testing.T) {
	air := aiRobotsJSON(t)
	file, err := Load(bytes.NewReader(air), "robots.json")
	if err != nil {
		t.Fatal(err)
	}
	c := Default().Merge(file)
	var names map[string]json.RawMessage
	if err := json.Unmarshal(air, &names); err != nil {
		t.Fatal(err)
	}
	if len(names) < 150 {
		t.Fatalf("got %d names, want over 150", len(names))
	}
	for name := range names {
		tok := normalName(name)
		b, ok := c.Lookup(tok)
		if !ok {
			t.Errorf("%q: Lookup(%q) finds nothing", name, tok)
			continue
		}
		if b.RobotsTxtOnly {
			continue
		}
		ua := "Mozilla/5.0 (compatible; " + tok + "/1.0; +https://example.com/bot)"
		id := c.IdentifyUA(ua)
		if IsGeneric(tok) {
			if id.Bot == b {
				t.Errorf("%q: the generic word names the bot in %q", name, ua)
			}
			continue
		}
		if id.Bot == nil || !strings.EqualFold(id.Bot.Token, tok) && !hasPattern(id.Bot, tok) {
			t.Errorf("%q: IdentifyUA(%q) = %+v", name, ua, id)
		}
	}
}

// TestMentionsAndGenerics holds the cases of issue 10: a User-Agent that
// only mentions a bot is not that bot, generic words are never names, a
// word must stand whole, frameworks never imply an operator.
func TestMentionsAndGenerics(t *testing.T) {
	c := Default()
	tests := []struct {
		ua, agent, operator string
	}{
		{"FreshRSS/1.11.2 (Linux; https://freshrss.org) like Googlebot", "FreshRSS", ""},
		{"Mozilla/5.0 (compatible;acapbot/0.1;treat like Googlebot)", "acapbot", ""},
		{"Feedly/1.0 (+http://www.feedly.com/fetcher.html; like FeedFetcher-Google)", "Feedly", ""},
		{"TelegramBot (like TwitterBot)", "TelegramBot", ""},
		{"Mozilla/5.0 (compatible; NewsReader/2.0; compatible with Googlebot; +https://example.org)", "NewsReader", ""},
		{"Mozilla/5.0 (Linux; Android 8.0.0; CUBOT_P20) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.110 Mobile Safari/537.36", "", ""},
		{"Mozilla/5.0 (Linux; Android 10; YAL-L21) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/98.0.4758.101 YaSearchBrowser/24.17 Mobile Safari/537.36", "", ""},
		{"Sogou News Spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)", "Sogou web spider", "Sogou"},
		{"Mozilla/5.0 (compatible; Kangaroo Bot/1.0)", "Kangaroo Bot", ""},
		{"Mozilla/5.0 (compatible; SISTRIX Crawler; http://crawler.sistrix.net/)", "SISTRIX Crawler", ""},
		{"Mozilla/5.0 (compatible; Exabot PyExalead/3.0; +http://www.exabot.com/go/robot)", "ExaBot", ""},
		{"Arquivo-web-crawler (compatible; heritrix/3.4.0-20200304 +https://arquivo.pt/faq-crawling)", "Arquivo-web-crawler", ""},
		{"Mozilla/5.0 (compatible; heritrix/3.4.0 +https://example.org/crawler)", "heritrix", ""},
		{"Mozilla/5.0 (compatible; Google-Safety; +http://www.google.com/bot.html)", "Google-Safety", "Google"},
		{"YandexMetrika/2.0", "YandexMetrika", ""},
		{"Mozilla/5.0 (compatible; coccoc/1.0; +http://help.coccoc.com/)", "coccoc", ""},
		{"PerplexityUser/1.0", "PerplexityUser", "Perplexity"},
		{"Mozilla/5.0 (compatible; Seekport Crawler; http://seekport.com/)", "Seekport", ""},
		{"Zealbot 1.0", "Zealbot", ""},
		{"Mozilla/5.0 (compatible; UnknownCrawler/1.0; +https://example.net)", "UnknownCrawler", ""},
		{"Mozilla/5.0 (compatible; Some Unknown Spider/2.0; +https://example.net)", "Some Unknown Spider", ""},
		// A bare generic word names no one; the header is a bot's all
		// the same.
		{"Mozilla/5.0 (compatible; Bot/1.0)", Unnamed, ""},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)", "ChatGPT-User", "OpenAI"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; DeepSeekBot/1.0)", "DeepSeekBot", "DeepSeek"},
		{"Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html)", "Googlebot", "Google"},
	}
	for _, tt := range tests {
		id := c.IdentifyUA(tt.ua)
		op := ""
		if id.Bot != nil {
			op = id.Bot.Operator
		}
		if !strings.EqualFold(id.Agent, tt.agent) || op != tt.operator {
			t.Errorf("IdentifyUA(%q): got agent %q operator %q, want %q %q", tt.ua, id.Agent, op, tt.agent, tt.operator)
		}
	}
}

// robotsJSONFixture is shaped like the ai.robots.txt project's robots.json.
const robotsJSONFixture = `{
  "GPTBot": {
    "operator": "[OpenAI](https://openai.com)",
    "respect": "Yes",
    "function": "Scrapes data to train OpenAI's products.",
    "frequency": "No information.",
    "description": "Data is used to train current and future models."
  },
  "ChatGPT-User": {
    "operator": "[OpenAI](https://openai.com)",
    "respect": "Yes",
    "function": "Takes action based on user prompts.",
    "frequency": "Only when prompted by a user.",
    "description": "Used by plugins in ChatGPT to answer queries based on user input."
  },
  "NewAISearch": {
    "operator": "Example AI Inc.",
    "respect": "Unclear at this time.",
    "function": "AI Search Crawlers",
    "frequency": "Unclear at this time.",
    "description": "Unclear at this time."
  },
  "Helper-Agent": {
    "operator": "Unclear at this time.",
    "respect": "No",
    "function": "AI Assistants",
    "frequency": "No information.",
    "description": "Fetches pages on behalf of its users."
  },
  "Mystery": {"operator": "Someone", "function": "Unclear at this time."}
}`

func TestLoadRobotsJSON(t *testing.T) {
	c := mustLoad(t, "robots.json", robotsJSONFixture)
	tests := []struct {
		token, operator, category string
		user                      bool
	}{
		{"GPTBot", "OpenAI", CategoryAITraining, false},
		{"ChatGPT-User", "OpenAI", CategoryAIAssistant, true},
		{"NewAISearch", "Example AI Inc.", CategoryAISearch, false},
		{"Helper-Agent", "", CategoryAIAssistant, true},
		{"Mystery", "Someone", "", false},
	}
	if c.Len() != len(tests) {
		t.Errorf("got %d bots, want %d", c.Len(), len(tests))
	}
	for _, tt := range tests {
		b, ok := c.Lookup(tt.token)
		if !ok {
			t.Errorf("%s: missing", tt.token)
			continue
		}
		if b.Operator != tt.operator || b.Category != tt.category || b.UserTriggered != tt.user {
			t.Errorf("%s: got %q/%q/%v, want %q/%q/%v", tt.token, b.Operator, b.Category, b.UserTriggered, tt.operator, tt.category, tt.user)
		}
		if len(b.Patterns) != 1 || b.Patterns[0] != tt.token {
			t.Errorf("%s: got patterns %v, want [%s]", tt.token, b.Patterns, tt.token)
		}
	}
}

func TestMerge(t *testing.T) {
	base := Default()
	// robots.json over the default: new bots are added, known bots keep
	// what robots.json does not say.
	m := base.Merge(mustLoad(t, "robots.json", robotsJSONFixture))
	if got, want := m.Len(), base.Len()+3; got != want {
		t.Errorf("got %d bots, want %d", got, want)
	}
	b, _ := m.Lookup("chatgpt-user")
	if b.Category != CategoryAIAssistant || !b.UserTriggered || b.IPRangesURL == "" {
		t.Errorf("ChatGPT-User after merge: got %+v, want the default's category, flag and IP URL kept", b)
	}
	if _, ok := m.Identify("NewAISearch/1.0"); !ok {
		t.Error("NewAISearch: not identified after merge")
	}

	// Our shape overrides field by field, including explicit false.
	over := mustLoad(t, "mine.json", `{"bots": [
		{"token": "gptbot", "category": "other", "notes": "site policy: treat as other"},
		{"token": "ChatGPT-User", "user_triggered": false},
		{"token": "Googlebot", "patterns": ["Googlebot", "Googlebot-Custom"]},
		{"token": "MyVeryOwnBot", "operator": "Me", "category": "seo"}
	]}`)
	m = base.Merge(over)
	b, _ = m.Lookup("GPTBot")
	if b.Category != CategoryOther || b.Operator != "OpenAI" || b.Notes != "site policy: treat as other" || b.IPRangesURL == "" {
		t.Errorf("GPTBot: got %+v", b)
	}
	if b.Token != "gptbot" {
		t.Errorf("GPTBot: got token %q, want the override's spelling", b.Token)
	}
	if b, _ := m.Lookup("ChatGPT-User"); b.UserTriggered {
		t.Error("ChatGPT-User: got user_triggered true, want the explicit false")
	}
	if b, ok := m.Identify("Googlebot-Custom/2.1"); !ok || b.Token != "Googlebot" {
		t.Errorf("Googlebot-Custom: got %v", b)
	}
	if _, ok := m.Lookup("MyVeryOwnBot"); !ok {
		t.Error("MyVeryOwnBot: not added")
	}
	// The inputs are unchanged.
	if b, _ := base.Lookup("GPTBot"); b.Category != CategoryAITraining {
		t.Errorf("base changed by Merge: GPTBot category %q", b.Category)
	}
	if _, ok := base.Lookup("MyVeryOwnBot"); ok {
		t.Error("base changed by Merge: MyVeryOwnBot present")
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, data string
		line, col  int
		contains   string
	}{
		{"syntax", "{\"bots\": [\n  {\"token\": \"A\",}\n]}", 2, 17, "invalid character"},
		{"not object", "[1, 2]", 1, 1, "top level"},
		{"unknown field", "{\"bots\": [\n  {\"token\": \"A\"},\n  {\"token\": \"B\", \"pattern\": [\"B\"]}\n]}", 3, 3, "unknown field"},
		{"empty token", "{\"bots\": [{\"token\": \"\"}]}", 1, 11, "empty token"},
		{"bad category", "{\"bots\": [\n{\"token\": \"A\", \"category\": \"evil\"}]}", 2, 1, "unknown category"},
		{"duplicate", "{\"bots\": [{\"token\": \"A\"},\n {\"token\": \"a\"}]}", 2, 2, "given twice"},
		{"wrong type", "{\"bots\": [{\"token\": 5}]}", 1, 22, "cannot unmarshal"},
		{"robots.json wrong type", "{\n \"A\": {\"operator\": 1}\n}", 2, 22, "cannot unmarshal"},
		{"mixed shapes", "{\"A\": {}, \"bots\": []}", 1, 19, "want"},
		{"truncated", "{\"bots\": [{\"token\": \"A\"}", 1, 25, "unexpected end"},
		{"trailing data", "{} x", 1, 4, "after top-level value"},
		{"robots only with patterns", "{\"bots\": [{\"token\": \"A\", \"robots_txt_only\": true, \"patterns\": [\"A\"]}]}", 1, 11, "robots_txt_only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(strings.NewReader(tt.data), "in.json")
			if err == nil {
				t.Fatal("got no error")
			}
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("got %T, want *LoadError", err)
			}
			if le.File != "in.json" || le.Line != tt.line || le.Column != tt.col {
				t.Errorf("got position %s:%d:%d, want in.json:%d:%d (%v)", le.File, le.Line, le.Column, tt.line, tt.col, err)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("got %q, want it to contain %q", err, tt.contains)
			}
			if !errors.Is(err, ErrFormat) {
				t.Errorf("got %v, want it to wrap ErrFormat", err)
			}
		})
	}
}

func TestLoadTooLarge(t *testing.T) {
	r := strings.NewReader(`{"bots": [` + strings.Repeat(" ", MaxCatalogBytes) + `]}`)
	if _, err := Load(r, "big.json"); !errors.Is(err, ErrFormat) {
		t.Errorf("got %v, want ErrFormat", err)
	}
}

// TestIPRangeLists checks the published lists the catalog carries (issue
// 9) and the bots each vouches for; repaudit ranges fetch downloads them.
func TestIPRangeLists(t *testing.T) {
	lists := Default().IPRangeLists()
	by := map[string][]string{}
	for i, l := range lists {
		if i > 0 && lists[i-1].URL >= l.URL {
			t.Errorf("not sorted by URL: %q after %q", l.URL, lists[i-1].URL)
		}
		if !sort.StringsAreSorted(l.Tokens) || len(l.Tokens) == 0 {
			t.Errorf("%s: tokens %v not sorted or empty", l.URL, l.Tokens)
		}
		by[l.URL] = l.Tokens
	}
	const g, old = "https://developers.google.com/crawling/ipranges/", "https://developers.google.com/static/search/apis/ipranges/"
	// URL: tokens it must vouch for (among others); operators' lists as of
	// 2026-11.
	want := map[string][]string{
		"https://www.bing.com/toolbox/bingbot.json":        {"bingbot"},
		"https://openai.com/gptbot.json":                   {"GPTBot"},
		"https://openai.com/searchbot.json":                {"OAI-SearchBot"},
		"https://openai.com/chatgpt-user.json":             {"ChatGPT-User"},
		"https://claude.com/crawling/bots.json":            {"Claude-SearchBot", "Claude-User", "ClaudeBot"},
		"https://www.perplexity.com/perplexitybot.json":    {"PerplexityBot"},
		"https://www.perplexity.com/perplexity-user.json":  {"Perplexity-User"},
		"https://search.developer.apple.com/applebot.json": {"Applebot"},
		"https://index.commoncrawl.org/ccbot.json":         {"CCBot"},
		"https://duckduckgo.com/duckduckbot.json":          {"DuckDuckBot"},
		"https://duckduckgo.com/duckassistbot.json":        {"DuckAssistBot"},
		"https://mistral.ai/mistralai-user-ips.json":       {"MistralAI-User"},
		g + "common-crawlers.json":                         {"Googlebot", "Googlebot-Image", "Googlebot-Video", "GoogleOther"},
		g + "special-crawlers.json":                        {"AdsBot-Google", "APIs-Google", "Google-Safety", "Mediapartners-Google"},
		g + "user-triggered-fetchers.json":                 {"FeedFetcher-Google", "Google-Read-Aloud", "Google-Site-Verification"},
		g + "user-triggered-fetchers-google.json":          {"FeedFetcher-Google", "Google-Read-Aloud", "Google-Site-Verification"},
		g + "user-triggered-agents.json":                   {"Google-Agent"},
		old + "googlebot.json":                             {"Googlebot", "Googlebot-Image"},
		old + "special-crawlers.json":                      {"AdsBot-Google"},
		old + "user-triggered-fetchers.json":               {"FeedFetcher-Google"},
		old + "user-triggered-fetchers-google.json":        {"Google-Site-Verification"},
	}
	for u, toks := range want {
		for _, tok := range toks {
			if !slices.Contains(by[u], tok) {
				t.Errorf("%s: got tokens %v, want %s among them", u, by[u], tok)
			}
		}
	}
	// The old Google URLs are former: recognised, never fetched.
	for _, l := range lists {
		if got, want := l.Former, strings.HasPrefix(l.URL, old); got != want {
			t.Errorf("%s: Former %v, want %v", l.URL, got, want)
		}
	}
	for _, tok := range []string{"Google-Extended", "Googlebot-News"} {
		if b, _ := Default().Lookup(tok); len(b.IPRangesURLs)+len(b.IPRangesFormerURLs) > 0 {
			t.Errorf("%s: a robots.txt-only token with IP lists %v %v", tok, b.IPRangesURLs, b.IPRangesFormerURLs)
		}
	}
	if b, _ := Default().Lookup("Googlebot"); len(b.IPRangesURLs) != 1 || b.IPRangesURL != g+"common-crawlers.json" ||
		!slices.Equal(b.IPRangesFormerURLs, []string{old + "googlebot.json"}) {
		t.Errorf("Googlebot: IPRangesURLs %v, former %v", b.IPRangesURLs, b.IPRangesFormerURLs)
	}
}

// TestLoadIPRangesFormer: a --bots file's ip_ranges_former_urls replaces
// the bot's former lists and makes them IPRangeLists entries marked Former.
func TestLoadIPRangesFormer(t *testing.T) {
	c, err := Load(strings.NewReader(`{"bots":[{"token":"ExampleBot","ip_ranges_urls":["https://example.com/new.json"],"ip_ranges_former_urls":["https://example.com/old.json"]}]}`), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	got := c.IPRangeLists()
	want := []IPRangeList{
		{URL: "https://example.com/new.json", Tokens: []string{"ExampleBot"}},
		{URL: "https://example.com/old.json", Tokens: []string{"ExampleBot"}, Former: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("IPRangeLists: got %+v, want %+v", got, want)
	}
	if _, err := Load(strings.NewReader(`{"bots":[{"token":"ExampleBot","ip_ranges_former_urls":[""]}]}`), "x.json"); !errors.Is(err, ErrFormat) {
		t.Errorf("empty former URL: got %v, want ErrFormat", err)
	}
}

// TestLoadRobotsJSONDuplicates: --bots robots.json accepts the current
// ai.robots.txt file, whose names repeat in another case or with a version
// ("meta-externalagent" and "Meta-ExternalAgent", "MistralAI-User/1.0"):
// one bot each, merged.
func TestLoadRobotsJSONDuplicates(t *testing.T) {
	c, err := Load(bytes.NewReader(aiRobotsJSON(t)), "robots.json")
	if err != nil {
		t.Fatalf("Load(robots.json): %v", err)
	}
	b, ok := c.Lookup("meta-externalagent")
	if !ok || b.Operator != "Meta" || b.Category != CategoryAITraining {
		t.Errorf("meta-externalagent: got %+v", b)
	}
	if _, ok := c.Lookup("MistralAI-User/1.0"); ok {
		t.Error("MistralAI-User/1.0 kept as its own bot, want it merged into MistralAI-User")
	}
	if b, ok := c.Lookup("MistralAI-User"); !ok || !b.UserTriggered {
		t.Errorf("MistralAI-User: got %+v", b)
	}
	small := mustLoad(t, "dup.json", `{"A-Bot": {"operator": "Unclear at this time.", "function": "AI Search Crawlers"}, "a-bot": {"operator": "[Alpha](https://alpha.example)"}}`)
	if b, _ := small.Lookup("A-Bot"); small.Len() != 1 || b.Token != "A-Bot" || b.Operator != "Alpha" || b.Category != CategoryAISearch {
		t.Errorf("merged duplicate: got %d bots, %+v", small.Len(), b)
	}
}

// rdns_doc_url is read, kept by the default catalog for the operators
// that document reverse-DNS verification, and replaced by a --bots file.
func TestRDNSDocURL(t *testing.T) {
	c := Default()
	for tok, want := range map[string]string{
		"Googlebot": "https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot",
		"Amazonbot": "https://developer.amazon.com/amazonbot",
		"GPTBot":    "",
	} {
		b, ok := c.Lookup(tok)
		if !ok || b.RDNSDocURL != want {
			t.Errorf("%s: rdns_doc_url %q, want %q", tok, b.RDNSDocURL, want)
		}
	}
	o, err := Load(strings.NewReader(`{"bots":[{"token":"Googlebot","rdns_doc_url":"https://doc.example/verify"}]}`), "mine.json")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Merge(o).Lookup("Googlebot")
	if b.RDNSDocURL != "https://doc.example/verify" || len(b.RDNSSuffixes) == 0 {
		t.Errorf("merged: rdns_doc_url %q, suffixes %v", b.RDNSDocURL, b.RDNSSuffixes)
	}
}
