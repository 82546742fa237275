package bots_test

import (
	"fmt"
	"strings"

	"github.com/repaudit/repaudit/bots"
)

func Example() {
	cat := bots.Default()
	// A site's own additions, as --bots FILE gives them.
	extra, err := bots.Load(strings.NewReader(`{"bots": [{"token": "ExampleBot", "operator": "Example Inc.", "category": "seo"}]}`), "mine.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	cat = cat.Merge(extra)

	for _, ua := range []string{
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
		"Googlebot-Image/1.0",
		"Mozilla/5.0 (compatible; ExampleBot/0.9)",
		"Mozilla/5.0 (compatible; UnknownCrawler/1.0; +https://example.net)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
	} {
		if b, ok := cat.Identify(ua); ok {
			fmt.Printf("%s (%s, %s)\n", b.Token, b.Operator, b.Category)
		} else if tok := bots.BotToken(ua); tok != "" {
			fmt.Printf("%s (not in the catalog)\n", tok)
		} else {
			fmt.Println("browser")
		}
	}
	// Output:
	// GPTBot (OpenAI, ai-training)
	// Googlebot-Image (Google, search)
	// ExampleBot (Example Inc., seo)
	// UnknownCrawler (not in the catalog)
	// browser
}
