package robots

import (
	"github.com/repaudit/repaudit/internal/cputime"

	"fmt"
	"strings"
	"testing"
)

// realisticRobots resembles a large news site's robots.txt: a "*" group
// with wildcard rules, AI crawlers shut out, search crawlers with their own
// groups.
const realisticRobots = `# robots.txt for www.example-news.com
User-agent: *
Disallow: /search
Disallow: /*?utm_
Disallow: /*&utm_
Disallow: /account/
Disallow: /api/
Disallow: /*.json$
Disallow: /print/
Disallow: /*/amp$
Allow: /api/public/
Allow: /search/about
Crawl-delay: 1

User-agent: Googlebot
User-agent: Bingbot
Disallow: /search
Disallow: /account/
Disallow: /*?sort=
Allow: /*?page=
Allow: /

User-agent: Googlebot-News
Disallow: /opinion/
Disallow: /live/*/comments

User-agent: GPTBot
User-agent: CCBot
User-agent: ClaudeBot
User-agent: Google-Extended
User-agent: PerplexityBot
User-agent: Bytespider
Disallow: /

User-agent: AhrefsBot
User-agent: SemrushBot
User-agent: MJ12bot
Crawl-delay: 10
Disallow: /archive/
Disallow: /tag/
Disallow: /*/page/*

Sitemap: https://www.example-news.com/sitemap.xml
Sitemap: https://www.example-news.com/news-sitemap.xml
`

var benchAgents = []string{"Googlebot", "bingbot", "GPTBot", "Googlebot-News", "SomeOtherBot", "MJ12bot"}

var benchURLs = []string{
	"/",
	"/world/2024/05/17/some-long-article-slug-about-things.html",
	"/world/2024/05/17/some-long-article-slug-about-things.html?utm_source=x&utm_medium=y",
	"/search?q=weather",
	"/api/public/v1/feed.json",
	"/live/2024-election/comments",
	"/tag/politics/page/3",
	"https://www.example-news.com/opinion/columns/a-b-c?page=2",
	"/caf%C3%A9/ツ",
}

// largeRobots generates about size bytes of robots.txt: many groups, each
// with several agents and wildcard rules.
func largeRobots(size int) []byte {
	var b strings.Builder
	for g := 0; b.Len() < size; g++ {
		fmt.Fprintf(&b, "User-agent: bot%d\nUser-agent: Crawler-%d\n", g, g)
		for r := 0; r < 12; r++ {
			switch r % 4 {
			case 0:
				fmt.Fprintf(&b, "Disallow: /section%d/*/private%d/\n", g, r)
			case 1:
				fmt.Fprintf(&b, "Allow: /section%d/public/*.html$\n", g)
			case 2:
				fmt.Fprintf(&b, "Disallow: /*?session=%d&*\n", r)
			default:
				fmt.Fprintf(&b, "Disallow: /caf%%C3%%A9/%d # comment\n", r)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("User-agent: *\nDisallow: /\n")
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	body := largeRobots(DefaultMaxBytes - 1024)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		Parse(body, Options{})
	}
	cputime.Report(b, start, int64(len(body)))
}

func BenchmarkParseRealistic(b *testing.B) {
	body := []byte(realisticRobots)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		Parse(body, Options{})
	}
	cputime.Report(b, start, int64(len(body)))
}

func BenchmarkCheck(b *testing.B) {
	f := Parse([]byte(realisticRobots), Options{})
	b.ReportAllocs()
	i := 0
	start := cputime.Process()
	for b.Loop() {
		f.Check(benchAgents[i%len(benchAgents)], benchURLs[i%len(benchURLs)])
		i++
	}
	cputime.Report(b, start, 0)
}

func BenchmarkCheckLargeFile(b *testing.B) {
	f := Parse(largeRobots(DefaultMaxBytes-1024), Options{})
	agents := []string{"bot7", "crawler-300", "unknown"}
	b.ReportAllocs()
	i := 0
	start := cputime.Process()
	for b.Loop() {
		f.Check(agents[i%len(agents)], benchURLs[i%len(benchURLs)])
		i++
	}
	cputime.Report(b, start, 0)
}

func BenchmarkACAPCheck(b *testing.B) {
	f := Parse([]byte(acapSample), Options{})
	b.ReportAllocs()
	i := 0
	start := cputime.Process()
	for b.Loop() {
		f.ACAPCheck("named-crawler", "index", benchURLs[i%len(benchURLs)])
		i++
	}
	cputime.Report(b, start, 0)
}

// worstRobots is the adversarial file of issue 11: a "*" group filled to
// the parsing limit with "Disallow: /*aaaa…ab" rules (64 'a's), none of
// which matches a long run of 'a's.
func worstRobots() []byte {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	rule := "Disallow: /*" + strings.Repeat("a", 64) + "b\n"
	for b.Len()+len(rule) < DefaultMaxBytes {
		b.WriteString(rule)
	}
	return []byte(b.String())
}

// worstURL is a 100 KB URL of 'a's.
var worstURL = "/" + strings.Repeat("a", 100_000)

// BenchmarkCheckWorstCase checks the 100 KB URL against the worst file: the
// matcher's work must not grow with rules × URL length.
func BenchmarkCheckWorstCase(b *testing.B) {
	f := Parse(worstRobots(), Options{})
	b.ReportMetric(float64(len(f.Groups[0].Rules)), "rules")
	f.Check("bot", worstURL) // builds the group's index once
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		if f.Check("bot", worstURL).Reason != ReasonNoMatchingRule {
			b.Fatal("a rule matched")
		}
	}
	cputime.Report(b, start, 0)
}

// BenchmarkCheckWorstDistinct is the harder file for the index: rules
// "/*a…a*b" with every run length from 1 up, so that at each position of
// the URL of 'a's as many segments end as there are distinct lengths.
func BenchmarkCheckWorstDistinct(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("User-agent: *\n")
	for k := 1; ; k++ {
		rule := "Disallow: /*" + strings.Repeat("a", k) + "*b\n"
		if sb.Len()+len(rule) >= DefaultMaxBytes {
			break
		}
		sb.WriteString(rule)
	}
	f := Parse([]byte(sb.String()), Options{})
	b.ReportMetric(float64(len(f.Groups[0].Rules)), "rules")
	f.Check("bot", worstURL)
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		if f.Check("bot", worstURL).Reason != ReasonNoMatchingRule {
			b.Fatal("a rule matched")
		}
	}
	cputime.Report(b, start, 0)
}
