package evaluate

import (
	"math/rand/v2"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/internal/fixtures"
)

// benchModel builds a realistic model: 50 authorities with 20 robots.txt
// versions each, 10 bots that fetch robots.txt now and then, and a batch
// of page fetches to judge.
func benchModel(b testing.TB) (*Model, []*event.Fetch) {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	uas := []string{
		uaGPTBot, uaCCBot, uaGooglebot, uaChatGPT,
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
		"Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
		"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
		"Mozilla/5.0 (compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)",
		"Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)",
		uaBrowser,
	}
	ids := identity.NewStore()
	ids.AddIPList("Googlebot", &identity.IPList{Prefixes: []netip.Prefix{netip.MustParsePrefix("66.249.64.0/19")}, Source: "googlebot.json"}, t0)
	bld := NewBuilder(Options{}, bots.Default(), ids)
	var off int64
	for a := range 50 {
		host := "https://site" + itoa(a) + ".example"
		for v := range 20 {
			var sb strings.Builder
			sb.WriteString("User-agent: *\nDisallow: /private/\nDisallow: /tmp/*.html$\nAllow: /private/public/\n\n")
			sb.WriteString("User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\nAllow: /open/\nCrawl-delay: 2\n\n")
			sb.WriteString("User-agent: Googlebot\nDisallow: /search\nDisallow: /v" + itoa(v) + "/\n\nSitemap: " + host + "/sitemap.xml\n")
			status := 200
			if v%9 == 8 {
				status = 503
			}
			bld.AddCapture(&event.Capture{
				Time: days(float64(v)), URL: host + "/robots.txt", RecordType: "response", Status: status,
				Body: []byte(sb.String()), Source: event.Source{File: "crawl.warc.gz", Offset: off}, RecordID: "<r" + itoa(int(off)) + ">",
			})
			off += 1000
		}
	}
	mk := func(ua, host, target string, t time.Time) *event.Fetch {
		auth, hp, _, _ := splitURL(host)
		return &event.Fetch{
			Time: t, ClientIP: netip.MustParseAddr("192.0.2.7"), Method: "GET", Scheme: auth[:strings.Index(auth, ":")],
			Host: hp, Target: target, Status: 200, Bytes: 10, UserAgent: ua, Origin: event.OriginLog, Format: "combined",
			Source: event.Source{File: "access.log", Line: 1, Offset: -1},
		}
	}
	for a := range 50 {
		host := "https://site" + itoa(a) + ".example"
		for bi := range 10 {
			for d := 0; d < 20; d += 1 + bi%3 {
				bld.AddFetch(mk(uas[bi], host, "/robots.txt", days(float64(d)+0.5)))
			}
		}
	}
	paths := []string{"/", "/private/x", "/private/public/y", "/tmp/a.html", "/open/z", "/search?q=1", "/v3/page", "/articles/2025/03/some-long-slug-here?utm_source=x"}
	fetches := make([]*event.Fetch, 4096)
	for i := range fetches {
		host := "https://site" + itoa(rng.IntN(50)) + ".example"
		fetches[i] = mk(uas[rng.IntN(len(uas))], host, paths[rng.IntN(len(paths))], days(rng.Float64()*21))
	}
	return bld.Build(), fetches
}

func BenchmarkJudge(b *testing.B) {
	m, fetches := benchModel(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		j := m.Judge(fetches[i%len(fetches)])
		_ = j
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fetches/s")
}

// BenchmarkJudgeInto judges into one reused Judgement, as pass 2 does:
// the Violations array is reused, so only strings are allocated.
func BenchmarkJudgeInto(b *testing.B) {
	m, fetches := benchModel(b)
	benchJudgeInto(b, fetches, m.JudgeInto)
}

// benchJudgeInto judges fetches in turn into one reused Judgement.
func benchJudgeInto(b *testing.B, fetches []*event.Fetch, judge func(*Judgement, *event.Fetch)) {
	var j Judgement
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		judge(&j, fetches[i%len(fetches)])
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fetches/s")
}

func BenchmarkJudgeAndTrack(b *testing.B) {
	m, fetches := benchModel(b)
	tr := m.NewTracker()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		f := fetches[i%len(fetches)]
		j := m.Judge(f)
		tr.Observe(&j)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fetches/s")
}

// BenchmarkJudgeClean judges only fetches that produce no finding (most
// real traffic): no evidence strings are built.
func BenchmarkJudgeClean(b *testing.B) {
	m, all := benchModel(b)
	var fetches []*event.Fetch
	for _, f := range all {
		if j := m.Judge(f); len(j.Violations) == 0 && j.Fetch.Agent != "" {
			fetches = append(fetches, f)
		}
	}
	if len(fetches) < 100 {
		b.Fatalf("only %d clean fetches", len(fetches))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_ = m.Judge(fetches[i%len(fetches)])
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fetches/s")
}

// uaMix is a realistic log's User-Agents: real browser headers (the
// device-detector sample in shared/fixtures/user-agents) and real crawler headers
// (crawler-user-agents instances), 2,500 distinct, drawn with a Zipf
// weighting so that a few dominate as in a site's traffic.
func uaMix(b *testing.B) []string {
	b.Helper()
	data, err := os.ReadFile(fixtures.Path(b, "user-agents/device-detector/browsers.txt"))
	if err != nil {
		b.Fatal(err)
	}
	distinct := strings.Split(strings.TrimSpace(string(data)), "\n")[:2000]
	distinct = append(distinct, bots.CrawlerUserAgentsInstances()[:500]...)
	rng := rand.New(rand.NewPCG(3, 4))
	z := rand.NewZipf(rng, 1.1, 1, uint64(len(distinct)-1))
	mix := make([]string, 1<<16)
	for i := range mix {
		mix[i] = distinct[z.Uint64()]
	}
	return mix
}

// BenchmarkIdentifyCached measures identification of a fetch's client by
// User-Agent through the model's per-UA cache (issue 10 asks for at least
// 1M lookups/s per core; the figure is reported, never asserted).
func BenchmarkIdentifyCached(b *testing.B) {
	m := NewBuilder(Options{}, bots.Default(), identity.NewStore()).Build()
	mix := uaMix(b)
	for _, ua := range mix {
		m.identifyUA(ua, nil, t0) // warm the cache as a long log would
	}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		m.identifyUA(mix[i&(len(mix)-1)], nil, t0)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lookups/s")
}

// BenchmarkIdentifyUncached is the same mix without the cache: the cost of
// each distinct User-Agent's first sighting.
func BenchmarkIdentifyUncached(b *testing.B) {
	c := bots.Default()
	mix := uaMix(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c.IdentifyUA(mix[i&(len(mix)-1)])
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lookups/s")
}

// BenchmarkIdentifyLocal is BenchmarkIdentifyCached through a
// goroutine's own cache (uaLocal), as the judge and the view tracker
// identify: the mix's strings repeat as one string per value, as the
// spool's decoder interns them.
func BenchmarkIdentifyLocal(b *testing.B) {
	m := NewBuilder(Options{}, bots.Default(), identity.NewStore()).Build()
	mix := uaMix(b)
	var l uaLocal
	for _, ua := range mix {
		m.identifyUALocal(ua, nil, t0, &l)
	}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		m.identifyUALocal(mix[i&(len(mix)-1)], nil, t0, &l)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lookups/s")
}

// BenchmarkJudger judges as a pass-2 worker does: one Judger, into one
// reused Judgement (its caches of addresses, rules, evidence parts and
// Crawl-delays in use).
func BenchmarkJudger(b *testing.B) {
	m, fetches := benchModel(b)
	benchJudgeInto(b, fetches, m.NewJudger().JudgeInto)
}
