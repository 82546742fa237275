package input

import (
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/identity"
)

const (
	googlebotURL = "https://developers.google.com/static/search/apis/ipranges/googlebot.json"
	bingbotURL   = "https://www.bing.com/toolbox/bingbot.json"
)

func TestMapIPListFile(t *testing.T) {
	lists := []bots.IPRangeList{
		{URL: googlebotURL, Tokens: []string{"Googlebot", "Googlebot-Image"}},
		{URL: "https://developers.google.com/static/crawling/ipranges/googlebot.json", Tokens: []string{"Googlebot", "Googlebot-Image"}},
		{URL: bingbotURL, Tokens: []string{"bingbot"}},
		{URL: "https://a.example/bots.json", Tokens: []string{"ABot"}},
		{URL: "https://b.example/bots.json", Tokens: []string{"BBot"}},
	}
	at := time.Date(2026, 11, 23, 18, 45, 0, 0, time.UTC)
	dated, _ := identity.IPListFileName(bingbotURL, at)
	unknown, _ := identity.IPListFileName("https://c.example/ips.json", at)
	tests := []struct {
		name, url, why string
		fetched        time.Time
	}{
		{"dir/" + dated, bingbotURL, "", at},
		{"bingbot.json", bingbotURL, "", time.Time{}},
		{"dir/googlebot.json", googlebotURL, "", time.Time{}}, // two URLs, same bots
		{"bots.json", "", "several lists for different bots", time.Time{}},
		{"my-ranges.json", "", "its name is not one the catalog's IP lists are published under (bingbot.json, bots.json, googlebot.json)", time.Time{}},
		{unknown, "", "named for https://c.example/ips.json, which no bot in the catalog publishes", time.Time{}},
	}
	for _, tt := range tests {
		o, why := mapIPListFile(tt.name, lists)
		if o.URL != tt.url || !o.Fetched.Equal(tt.fetched) || (tt.why == "") != (why == "") || !strings.Contains(why, tt.why) {
			t.Errorf("mapIPListFile(%q) = %+v, %q; want %s at %v, %q", tt.name, o, why, tt.url, tt.fetched, tt.why)
		}
		if why != "" && !strings.Contains(why, "--ip-ranges TOKEN="+tt.name) {
			t.Errorf("mapIPListFile(%q): %q does not say what to do", tt.name, why)
		}
	}
}

// TestCatalogListNames: every list of the default catalog is recognised
// under its published file name and under the name 'ranges fetch'
// writes, and each vouches for some bot.
func TestCatalogListNames(t *testing.T) {
	lists := bots.Default().IPRangeLists()
	at := time.Date(2026, 11, 23, 18, 45, 0, 0, time.UTC)
	for _, u := range []string{
		"https://developers.google.com/crawling/ipranges/common-crawlers.json",
		"https://developers.google.com/crawling/ipranges/special-crawlers.json",
		"https://developers.google.com/crawling/ipranges/user-triggered-fetchers.json",
		"https://developers.google.com/crawling/ipranges/user-triggered-fetchers-google.json",
		"https://developers.google.com/crawling/ipranges/user-triggered-agents.json",
		"https://claude.com/crawling/bots.json",
		"https://openai.com/gptbot.json",
		"https://openai.com/searchbot.json",
		"https://openai.com/chatgpt-user.json",
	} {
		dated, err := identity.IPListFileName(u, at)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{dated, u[strings.LastIndex(u, "/")+1:]} {
			o, why := mapIPListFile(name, lists)
			if why != "" || len(o.Tokens) == 0 {
				t.Errorf("%s (%s): not recognised: %s", name, u, why)
			}
		}
	}
}
