package bots

import (
	"strings"
	"testing"
)

// uaCase is a User-Agent written in the shape real clients send, with what
// each function should make of it.
type uaCase struct {
	name     string
	ua       string
	tokens   string // ProductTokens joined with " "
	botToken string // BotToken
	identify string // Default().Identify token, "" for none
}

var uaCases = []uaCase{
	{"googlebot desktop", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla compatible Googlebot", "Googlebot", "Googlebot"},
	{"googlebot smartphone", "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla Linux Build AppleWebKit KHTML Chrome Mobile Safari compatible Googlebot", "Googlebot", "Googlebot"},
	{"googlebot image", "Googlebot-Image/1.0", "Googlebot-Image", "Googlebot-Image", "Googlebot-Image"},
	{"googlebot video", "Googlebot-Video/1.0", "Googlebot-Video", "Googlebot-Video", "Googlebot-Video"},
	{"storebot", "Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36",
		"Mozilla X11 Storebot-Google AppleWebKit KHTML Chrome Safari", "Storebot-Google", "Storebot-Google"},
	{"adsbot mobile", "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.84 Mobile Safari/537.36 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)",
		"Mozilla Linux Build AppleWebKit KHTML Chrome Mobile Safari compatible AdsBot-Google-Mobile", "AdsBot-Google-Mobile", "AdsBot-Google-Mobile"},
	{"gptbot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
		"Mozilla AppleWebKit KHTML compatible GPTBot", "GPTBot", "GPTBot"},
	{"chatgpt-user", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
		"Mozilla AppleWebKit KHTML compatible ChatGPT-User", "ChatGPT-User", "ChatGPT-User"},
	{"oai-searchbot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
		"Mozilla AppleWebKit KHTML compatible OAI-SearchBot", "OAI-SearchBot", "OAI-SearchBot"},
	{"claudebot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
		"Mozilla AppleWebKit KHTML compatible ClaudeBot", "ClaudeBot", "ClaudeBot"},
	{"claude-user", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)",
		"Mozilla AppleWebKit KHTML compatible Claude-User", "Claude-User", "Claude-User"},
	{"perplexitybot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
		"Mozilla AppleWebKit KHTML compatible PerplexityBot", "PerplexityBot", "PerplexityBot"},
	{"bingbot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"Mozilla compatible bingbot", "bingbot", "bingbot"},
	{"bingbot chrome", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
		"Mozilla AppleWebKit KHTML compatible bingbot Chrome Safari", "bingbot", "bingbot"},
	{"applebot", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
		"Mozilla Macintosh AppleWebKit KHTML Version Safari Applebot", "Applebot", "Applebot"},
	{"ccbot", "CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot", "CCBot", "CCBot"},
	{"bytespider", "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
		"Mozilla Linux AppleWebKit KHTML Mobile Safari compatible Bytespider", "Bytespider", "Bytespider"},
	{"amazonbot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36",
		"Mozilla AppleWebKit KHTML compatible Amazonbot Chrome Safari", "Amazonbot", "Amazonbot"},
	{"meta-externalagent", "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
		"meta-externalagent", "meta-externalagent", "meta-externalagent"},
	{"facebookexternalhit", "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
		"facebookexternalhit", "facebookexternalhit", "facebookexternalhit"},
	{"baiduspider", "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
		"Mozilla compatible Baiduspider", "Baiduspider", "Baiduspider"},
	{"baiduspider-image", "Baiduspider-image+(+http://www.baidu.com/search/spider.htm)",
		"Baiduspider-image+", "Baiduspider-image", "Baiduspider-image"},
	{"yandex", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
		"Mozilla compatible YandexBot", "YandexBot", "YandexBot"},
	{"yahoo slurp", "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)",
		"Mozilla compatible", "Slurp", "Slurp"},
	{"semrush", "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
		"Mozilla compatible SemrushBot", "SemrushBot", "SemrushBot"},
	{"ahrefs", "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
		"Mozilla compatible AhrefsBot", "AhrefsBot", "AhrefsBot"},
	{"archive.org", "Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot) Zeno/b4d3a5e warc/v0.8.47",
		"Mozilla compatible archive.org_bot Zeno warc", "archive.org_bot", "archive.org_bot"},
	{"heritrix", "Mozilla/5.0 (compatible; heritrix/3.4.0 +https://example.org/crawler)",
		"Mozilla compatible heritrix", "heritrix", "heritrix"},
	{"unknown bot in comment", "Mozilla/5.0 (compatible; ExampleCrawler/0.3; +https://example.net/bot)",
		"Mozilla compatible ExampleCrawler", "ExampleCrawler", ""},
	{"unknown bot product", "NewsFetcher/1.0 (like curl)", "NewsFetcher", "NewsFetcher", ""},
	{"python-requests", "python-requests/2.31.0", "python-requests", "python-requests", "python-requests"},
	{"curl", "curl/8.4.0", "curl", "curl", "curl"},
	{"go", "Go-http-client/1.1", "Go-http-client", "Go-http-client", "Go-http-client"},
	{"scrapy", "Scrapy/2.11.0 (+https://scrapy.org)", "Scrapy", "Scrapy", "Scrapy"},
	{"chrome", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
		"Mozilla Win64 x64 AppleWebKit KHTML Chrome Safari", "", ""},
	{"firefox", "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
		"Mozilla X11 Ubuntu Gecko Firefox", "", ""},
	{"safari iphone", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
		"Mozilla iPhone AppleWebKit KHTML Version Mobile Safari", "", ""},
	{"old ie with SLCC2", "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; WOW64; Trident/4.0; SLCC2; .NET CLR 2.0.50727; Media Center PC 6.0)",
		"Mozilla compatible WOW64 Trident SLCC2", "", ""},
	{"headless", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.28 Safari/537.36",
		"Mozilla X11 AppleWebKit KHTML HeadlessChrome Safari", "HeadlessChrome", "HeadlessChrome"},
	{"link outside comment", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ExampleBot/1.0; +https://example.com/bot; bot@example.com",
		"Mozilla AppleWebKit KHTML compatible ExampleBot", "ExampleBot", ""},
	{"wget", "Wget/1.21.4", "Wget", "Wget", "Wget"},
	{"empty", "", "", "", ""},
	{"dash", "-", "", "", ""},
	{"nested comment", "Foo/1 (a (b; FooBot/2) c)", "Foo a b FooBot c", "FooBot", ""},
	{"unclosed comment", "Mozilla/5.0 (compatible; BarBot/1.0", "Mozilla compatible BarBot", "BarBot", ""},
}

func TestProductTokens(t *testing.T) {
	for _, tt := range uaCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(ProductTokens(tt.ua), " "); got != tt.tokens {
				t.Errorf("ProductTokens(%q):\ngot  %q\nwant %q", tt.ua, got, tt.tokens)
			}
		})
	}
}

func TestBotToken(t *testing.T) {
	for _, tt := range uaCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := BotToken(tt.ua); got != tt.botToken {
				t.Errorf("BotToken(%q): got %q, want %q", tt.ua, got, tt.botToken)
			}
		})
	}
}

func TestIdentifyDefault(t *testing.T) {
	c := Default()
	for _, tt := range uaCases {
		t.Run(tt.name, func(t *testing.T) {
			b, ok := c.Identify(tt.ua)
			got := ""
			if ok {
				got = b.Token
			}
			if !strings.EqualFold(got, tt.identify) {
				t.Errorf("Identify(%q): got %q, want %q", tt.ua, got, tt.identify)
			}
		})
	}
}

func TestContainsToken(t *testing.T) {
	tests := []struct {
		ua, token string
		want      bool
	}{
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot", true},
		{"Mozilla/5.0 (compatible; bingbot/2.0)", "BingBot", true},
		{"Mozilla/5.0 (compatible; Baiduspider/2.0)", "Spider", false},
		{"Mozilla/5.0 (compatible; Baiduspider/2.0)", "Baiduspider", true},
		{"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; SLCC2; .NET CLR 2.0.50727)", "LCC", false},
		{"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; SLCC2; .NET CLR 2.0.50727)", "CLR", true},
		{"Googlebot-Image/1.0", "Googlebot", false},
		{"Googlebot-Image/1.0", "Googlebot-Image", true},
		{"Mozilla/5.0 (compatible; Googlebot/2.1)", "Googlebot", true},
		{"x archive.org_bot y", "archive.org_bot", true},
		{"x archive.org_botz y", "archive.org_bot", false},
		{"Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com)", "Yahoo! Slurp", true},
		{"Sogou web spider/4.0", "sogou web spider", true},
		{"Sogou web spiders/4.0", "sogou web spider", false},
		{"GPTBot", "GPTBot", true},
		{"GPTBot", "GPTBot2", false},
		{"", "GPTBot", false},
		{"GPTBot", "", false},
		{"xGPTBot", "GPTBot", false},
		{"GPTBot1", "GPTBot", false},
		{"(GPTBot)", "GPTBot", true},
	}
	for _, tt := range tests {
		if got := ContainsToken(tt.ua, tt.token); got != tt.want {
			t.Errorf("ContainsToken(%q, %q): got %v, want %v", tt.ua, tt.token, got, tt.want)
		}
	}
}

// stemAnywhere is hasCrawlerStem's rule for stems written as plainly as
// it is stated: some stem occurs, case-insensitively, and ends the name
// or stands before '-', '.' or a digit.
func stemAnywhere(name string) bool {
	for _, st := range crawlerStems {
		for i := 0; i+len(st) <= len(name); i++ {
			if !equalFoldASCII(name[i:i+len(st)], st) {
				continue
			}
			if j := i + len(st); j == len(name) || name[j] == '-' || name[j] == '.' || '0' <= name[j] && name[j] <= '9' {
				return true
			}
		}
	}
	return false
}

// FuzzCrawlerStem checks that hasCrawlerStem, which tries only the places
// where a stem may end, finds the stems the plain rule finds.
func FuzzCrawlerStem(f *testing.F) {
	for _, s := range []string{"Googlebot", "msnbot-media", "trendictionbot0.5", "CUBOT_P20", "AgentWeb",
		"WombatObservatory", "quokka.spider.x", "ROBOT", "botbot", "Quokka-Synthetics2", "xbotx-", "a.b.c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if len(name) > 64 {
			return
		}
		want := len(name) >= 3 && !strings.Contains(strings.ToLower(name), "browser") && stemAnywhere(name)
		// The "-User"/CamelCase "User" endings are a rule of their own.
		if got := hasCrawlerStem(name); got != want && !strings.HasSuffix(strings.ToLower(name), "user") {
			t.Errorf("hasCrawlerStem(%q) = %v, want %v", name, got, want)
		}
	})
}
