package bots

import (
	"errors"
	"strings"
	"testing"
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
		{"token": "ExampleBot", "patterns": ["ExampleBot", "example-crawler"], "category": "other"},
		{"token": "Example-Extended", "robots_txt_only": true}
	]}`)
	tests := []struct {
		ua   string
		want string
	}{
		{"Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", ""},
		{"Mozilla/5.0 (compatible; Spider/1.0)", "Spider"},
		{"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; SLCC2; .NET CLR 2.0.50727)", ""},
		{"Mozilla/5.0 (compatible; LCC/1.0)", "LCC"},
		{"Googlebot-Image/1.0", "Googlebot-Image"},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		// Both appear: the longer pattern wins wherever it is.
		{"Googlebot/2.1 Googlebot-Image/1.0", "Googlebot-Image"},
		{"Googlebot-Image/1.0 (compatible; Googlebot/2.1)", "Googlebot-Image"},
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
	if n := c.Len(); n < 50 {
		t.Errorf("got %d bots, want at least 50", n)
	}
	prev := ""
	for _, b := range c.Bots() {
		if !categories[b.Category] {
			t.Errorf("%s: category %q is not a known category", b.Token, b.Category)
		}
		if b.Operator == "" {
			t.Errorf("%s: no operator", b.Token)
		}
		if b.RobotsTxtOnly != (len(b.Patterns) == 0) {
			t.Errorf("%s: robots_txt_only %v with %d patterns", b.Token, b.RobotsTxtOnly, len(b.Patterns))
		}
		for _, u := range []string{b.URL, b.IPRangesURL} {
			if u != "" && !strings.HasPrefix(u, "https://") {
				t.Errorf("%s: URL %q is not https", b.Token, u)
			}
		}
		if l := strings.ToLower(b.Token); l < prev {
			t.Errorf("Bots() not sorted: %q after %q", l, prev)
		} else {
			prev = l
		}
		// Every UA-visible bot identifies itself by its own token.
		if !b.RobotsTxtOnly {
			got, ok := c.Identify("Mozilla/5.0 (compatible; " + b.Patterns[0] + "/1.0)")
			if !ok || got != b {
				t.Errorf("%s: Identify of its own pattern gave %v", b.Token, got)
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
}

// robotsJSON is shaped like the ai.robots.txt project's robots.json.
const robotsJSON = `{
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
	c := mustLoad(t, "robots.json", robotsJSON)
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
	m := base.Merge(mustLoad(t, "robots.json", robotsJSON))
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
		{"token": "Googlebot", "patterns": ["Googlebot", "Googlebot-Mobile"]},
		{"token": "MyBot", "operator": "Me", "category": "seo"}
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
	if b, ok := m.Identify("Googlebot-Mobile/2.1"); !ok || b.Token != "Googlebot" {
		t.Errorf("Googlebot-Mobile: got %v", b)
	}
	if _, ok := m.Lookup("MyBot"); !ok {
		t.Error("MyBot: not added")
	}
	// The inputs are unchanged.
	if b, _ := base.Lookup("GPTBot"); b.Category != CategoryAITraining {
		t.Errorf("base changed by Merge: GPTBot category %q", b.Category)
	}
	if _, ok := base.Lookup("MyBot"); ok {
		t.Error("base changed by Merge: MyBot present")
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
