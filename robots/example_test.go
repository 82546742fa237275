package robots_test

import (
	"fmt"

	"github.com/repaudit/repaudit/robots"
)

func Example() {
	body := []byte(`User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: GPTBot
Disallow: /
`)
	f := robots.Parse(body, robots.Options{})
	for _, q := range []struct{ agent, url string }{
		{"Googlebot", "https://example.com/private/press/2024.html"},
		{"Googlebot", "https://example.com/private/salaries.html"},
		{"gptbot", "https://example.com/"},
		{"gptbot", "https://example.com/robots.txt"},
	} {
		v := f.Check(q.agent, q.url)
		fmt.Printf("%-9s %-44s %-5v %s\n", q.agent, q.url, v.Allowed, v.Evidence())
	}
	// Output:
	// Googlebot https://example.com/private/press/2024.html  true  group "*" (line 1): line 3 "Allow: /private/press/" matched
	// Googlebot https://example.com/private/salaries.html    false group "*" (line 1): line 2 "Disallow: /private/" matched
	// gptbot    https://example.com/                         false group "GPTBot" (line 5): line 6 "Disallow: /" matched
	// gptbot    https://example.com/robots.txt               true  /robots.txt is always allowed (RFC 9309 §2.2.2)
}

func ExampleFile_ACAPCheck() {
	body := []byte(`ACAP-crawler: *
ACAP-allow-index: /news/
ACAP-disallow-index: /news/archive/
ACAP-allow-present-snippet: /news/ max-length=250-chars
`)
	f := robots.Parse(body, robots.Options{})
	fmt.Println(f.ACAPCheck("newsbot", "index", "/news/archive/1999.html").Evidence())
	v := f.ACAPCheck("newsbot", "present-snippet", "/news/today.html")
	fmt.Println(v.Allowed, v.Qualifiers)
	// Output:
	// ACAP index: crawler "*": line 3 "ACAP-disallow-index: /news/archive/" (narrowest-scope): prohibited
	// true [{max-length 250-chars}]
}

func ExampleFile_UsagePrefs() {
	body := []byte(`User-agent: *
Content-Signal: search=yes, ai-train=no
Content-Usage: train-ai=n, search=y
Content-Usage: /blog/ train-ai=y
Content-Usage: /blog/drafts/ Train-AI=n
Allow: /

User-agent: ExampleBot
Content-Usage: /shop train-ai=y
Content-Usage: /shop train-ai=n
`)
	f := robots.Parse(body, robots.Options{})
	for _, d := range f.Diagnostics {
		fmt.Printf("line %d: %s\n", d.Line, d.Code)
	}
	for _, q := range []struct{ agent, path string }{
		{"GPTBot", "/about"},
		{"GPTBot", "/blog/post"},
		{"GPTBot", "/blog/drafts/x"},
		{"ExampleBot", "/shop/cart"},
	} {
		v := f.UsagePrefs(q.agent, q.path)
		fmt.Printf("%-10s %-14s train-ai=%-7v (line %d) search=%-7v signal ai-train=%v\n",
			q.agent, q.path, v.TrainAI.Value, v.TrainAI.Line, v.Search.Value, v.SignalAITrain.Value)
	}
	// Output:
	// line 5: content-usage-invalid
	// GPTBot     /about         train-ai=no      (line 3) search=yes     signal ai-train=no
	// GPTBot     /blog/post     train-ai=yes     (line 4) search=unknown signal ai-train=no
	// GPTBot     /blog/drafts/x train-ai=unknown (line 5) search=unknown signal ai-train=no
	// ExampleBot /shop/cart     train-ai=no      (line 10) search=unknown signal ai-train=unknown
}
