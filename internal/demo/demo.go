// Package demo generates the bundled demo data in testdata/demo: a small
// but realistic case in which every finding kind appears at least once.
// The files are reproducible byte for byte (fixed times, fixed keys,
// deterministic record ids), and a test checks that the committed files
// match what this code generates.
//
// The scenario is described in testdata/demo/README.md.
package demo

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/repaudit/repaudit/identity"
)

// Site is the demo site's authority.
const Site = "https://www.example.com"

const host = "www.example.com"

// GooglebotRangesURL is where the demo archive captured Googlebot's
// published IP ranges in 2025, before Google moved the list; it must be
// one of the bot catalog's URLs for Googlebot (a former one, now).
const GooglebotRangesURL = "https://developers.google.com/static/search/apis/ipranges/googlebot.json"

// ExampleBot is the demo's signed card holder.
const (
	botOrigin    = "https://bot.example.net"
	cardURL      = botOrigin + "/.well-known/signature-agent-card"
	directoryURL = botOrigin + "/.well-known/http-message-signatures-directory"
)

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// robotsV1 is in force from 2025-03-01 (and again after the 503 episode).
const robotsV1 = `##ACAP version=1.0
# robots.txt for www.example.com (repaudit demo)

User-agent: *
Disallow: /private/
Disallow: /drafts/
Allow: /private/press/

User-agent: GPTBot
Disallow: /news/
Disallow: /private/

User-agent: PerplexityBot
Crawl-delay: 30
Disallow: /private/

Sitemap: https://www.example.com/sitemap.xml

# ACAP: nobody may crawl /members/ or index and show /paywalled/;
# /news/ may be preserved only until it is crawled again.
ACAP-crawler: *
ACAP-disallow-crawl: /members/
ACAP-allow-preserve: /news/ time-limit=until-recrawled
ACAP-disallow-index: /paywalled/
ACAP-disallow-present: /paywalled/
`

// robotsV2 (from 2025-03-11) adds /archive/ for everyone and /blog/ for GPTBot.
var robotsV2 = strings.Replace(strings.Replace(robotsV1,
	"Allow: /private/press/\n", "Allow: /private/press/\nDisallow: /archive/\n", 1),
	"User-agent: GPTBot\nDisallow: /news/\n", "User-agent: GPTBot\nDisallow: /news/\nDisallow: /blog/\n", 1)

// robotsV3 (from 2025-03-28) adds AI usage preferences: a Content-Signal
// reserving training for everyone under "*", and a ClaudeBot group that
// reserves /news/ from training with Content-Usage (its own group
// replaces "*", Content-Signal included).
var robotsV3 = strings.Replace(strings.Replace(robotsV2,
	"Disallow: /archive/\n", "Disallow: /archive/\nContent-Signal: search=yes, ai-train=no\n", 1),
	"\nSitemap:", "\nUser-agent: ClaudeBot\nContent-Usage: /news/ train-ai=n\nDisallow: /private/\n\nSitemap:", 1)

func page(title, head, body string) string {
	return "<!doctype html>\n<html><head><title>" + title + "</title>" + head + "</head>\n<body><h1>" + title + "</h1>" + body + "</body></html>\n"
}

// botKey is ExampleBot's Ed25519 key, derived from a fixed seed.
func botKey() ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("repaudit demo: ExampleBot signing key"))
	return ed25519.NewKeyFromSeed(seed[:])
}

func b64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// thumbprint is the RFC 7638 SHA-256 thumbprint of an Ed25519 JWK.
func thumbprint(pub ed25519.PublicKey) string {
	sum := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + b64url(pub) + `"}`))
	return b64url(sum[:])
}

// Generate writes the demo files into dir (created if needed).
func Generate(dir string) error {
	for _, sub := range []string{"archive", "dns", "logs"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	files := map[string][]byte{}
	var err error
	if files["archive/site-2025-03.warc.gz"], err = siteWARC(); err != nil {
		return err
	}
	if files["archive/crawl-2025-03.warc.gz"], err = crawlWARC(); err != nil {
		return err
	}
	files["logs/access-2025-03-12.json.log"] = accessJSON()
	files["logs/access-2025-03-01.log"] = accessCombined()
	if files[dnsFile], err = dnsSnapshot(); err != nil {
		return err
	}
	files["index.csv"] = []byte("url,time,agent\n" +
		Site + "/news/secret,2025-03-20T00:00:00Z,googlebot\n" +
		Site + "/news/later,2025-03-20T00:00:00Z,googlebot\n" +
		Site + "/paywalled/story,2025-03-20T00:00:00Z,googlebot\n" +
		Site + "/news/a,2025-03-20T00:00:00Z,googlebot\n")
	files["snippets.csv"] = []byte("url,time,agent\n" +
		Site + "/blog/post,2025-03-20T00:00:00Z,googlebot\n" +
		Site + "/news/a,2025-03-20T00:00:00Z,googlebot\n")
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Files lists the generated files, relative to the demo directory.
func Files() []string {
	return []string{
		"archive/crawl-2025-03.warc.gz",
		"archive/site-2025-03.warc.gz",
		dnsFile,
		"index.csv",
		"logs/access-2025-03-01.log",
		"logs/access-2025-03-12.json.log",
		"snippets.csv",
	}
}

func htmlResponse(headers []string, body string) []byte {
	return httpResponse(200, "OK", append([]string{"Content-Type: text/html; charset=utf-8"}, headers...), body)
}

func jsonResponse(body string) []byte {
	return httpResponse(200, "OK", []string{"Content-Type: application/json"}, body)
}

// demoCrawl is the crawl both WARCs state (isPartOf): the site WARC, which
// names no crawler, is judged as ExampleArchiver's because the crawl WARC
// of the same crawl names it (docs/semantics.md, "Archive crawlers").
const demoCrawl = "example-archive-2025-03"

// siteWARC is the site's own capture history: its robots.txt versions, a
// few pages with directives, and the identity documents it relies on.
func siteWARC() ([]byte, error) {
	var buf bytes.Buffer
	w := newWARCWriter(&buf, "site")
	if err := w.warcinfo(ts("2025-03-01T00:00:00Z"), "software: repaudit demo generator\r\nformat: WARC File Format 1.1\r\nisPartOf: "+demoCrawl+"\r\ndescription: robots.txt history, pages and identity documents of www.example.com\r\n"); err != nil {
		return nil, err
	}
	robots := Site + "/robots.txt"
	text := []string{"Content-Type: text/plain"}
	pub := botKey().Public().(ed25519.PublicKey)
	card := `{
  "client_id": "` + cardURL + `",
  "client_name": "ExampleBot",
  "client_uri": "` + botOrigin + `/",
  "jwks_uri": "` + directoryURL + `",
  "web_bot_auth": {
    "expected-user-agent": "Mozilla/5.0 (compatible; ExampleBot/",
    "rfc9309-product-token": "ExampleBot",
    "trigger": "crawler",
    "purpose": "search"
  }
}
`
	dirJSON := `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + b64url(pub) + `"}]}` + "\n"
	ranges := `{
  "creationTime": "2025-03-01T00:00:00.000000",
  "prefixes": [
    {"ipv4Prefix": "66.249.64.0/19"},
    {"ipv6Prefix": "2001:4860:4801::/48"}
  ]
}
`
	steps := []func() error{
		func() error {
			return w.response(robots, ts("2025-03-01T00:00:00Z"), httpResponse(200, "OK", text, robotsV1))
		},
		func() error { return w.response(cardURL, ts("2025-03-01T00:10:00Z"), jsonResponse(card)) },
		func() error { return w.response(directoryURL, ts("2025-03-01T00:11:00Z"), jsonResponse(dirJSON)) },
		func() error { return w.response(GooglebotRangesURL, ts("2025-03-01T00:12:00Z"), jsonResponse(ranges)) },
		func() error {
			return w.response(Site+"/news/a", ts("2025-03-02T00:00:00Z"), htmlResponse(nil, page("Story A", "", "<p>Today's news.</p>")))
		},
		func() error {
			return w.response(Site+"/news/secret", ts("2025-03-03T00:00:00Z"), htmlResponse([]string{"X-Robots-Tag: noindex"}, page("Embargoed story", "", "<p>Not for search engines.</p>")))
		},
		func() error {
			return w.response(Site+"/news/later", ts("2025-03-03T00:00:00Z"), htmlResponse(nil, page("Later story", "", "<p>Indexable for now.</p>")))
		},
		func() error {
			return w.response(Site+"/blog/post", ts("2025-03-04T00:00:00Z"), htmlResponse(nil, page("Blog post",
				`<meta name="robots" content="nosnippet">`,
				`<p>Read it here.</p><meta name="robots" content="noindex">`)))
		},
		func() error {
			return w.response(Site+"/paywalled/story", ts("2025-03-04T00:00:00Z"), htmlResponse(nil, page("Paywalled story", "", "<p>Subscribers only.</p>")))
		},
		func() error {
			return w.response(robots, ts("2025-03-05T00:00:00Z"), httpResponse(503, "Service Unavailable", text, "maintenance\n"))
		},
		func() error {
			return w.response(robots, ts("2025-03-06T00:00:00Z"), httpResponse(200, "OK", text, robotsV1))
		},
		func() error {
			return w.response(robots, ts("2025-03-11T00:00:00Z"), httpResponse(200, "OK", text, robotsV2))
		},
		func() error {
			return w.response(Site+"/news/later", ts("2025-03-25T00:00:00Z"), htmlResponse([]string{"Robots-Tag: googlebot;noindex"}, page("Later story", "", "<p>Now withdrawn from search.</p>")))
		},
		func() error {
			return w.response(robots, ts("2025-03-28T00:00:00Z"), httpResponse(200, "OK", text, robotsV3))
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

const archiverUA = "Mozilla/5.0 (compatible; ExampleArchiver/1.0; +https://archive.example.org/bot)"

// crawlWARC is an archive's own crawl of the site, with request records.
func crawlWARC() ([]byte, error) {
	var buf bytes.Buffer
	w := newWARCWriter(&buf, "crawl")
	if err := w.warcinfo(ts("2025-03-02T01:00:00Z"), "software: repaudit demo generator\r\nformat: WARC File Format 1.1\r\nisPartOf: "+demoCrawl+"\r\ndescription: ExampleArchiver crawl of www.example.com\r\n"); err != nil {
		return nil, err
	}
	text := []string{"Content-Type: text/plain"}
	type ex struct {
		at, path string
		resp     []byte
	}
	for _, e := range []ex{
		{"2025-03-02T01:00:00Z", "/robots.txt", httpResponse(200, "OK", text, robotsV1)},
		{"2025-03-02T01:01:00Z", "/news/a", htmlResponse(nil, page("Story A", "", "<p>Today's news.</p>"))},
		{"2025-03-02T01:02:00Z", "/drafts/plan", htmlResponse(nil, page("Draft plan", "", "<p>Internal draft.</p>"))},
		{"2025-03-20T01:00:00Z", "/robots.txt", httpResponse(200, "OK", text, robotsV2)},
		{"2025-03-20T01:01:00Z", "/news/a", htmlResponse(nil, page("Story A", "", "<p>Today's news, updated.</p>"))},
		{"2025-03-20T01:02:00Z", "/events/spring", htmlResponse([]string{"X-Robots-Tag: unavailable_after: 1 Apr 2025 00:00:00 GMT"}, page("Spring event", "", "<p>Tickets on sale until April.</p>"))},
	} {
		if err := w.exchange(Site+e.path, ts(e.at), httpRequest("GET", e.path, host, archiverUA), e.resp); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// User-Agent strings as the bots send them.
const (
	uaClaude     = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	uaGPT        = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot"
	uaPerplexity = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"
	uaBytespider = "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)"
	uaCC         = "CCBot/2.0 (https://commoncrawl.org/faq/)"
	uaAmazon     = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36"
	uaGoogle     = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaChatGPT    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
	uaApple      = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"
	uaExample    = "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://bot.example.net/)"
	uaBing       = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36"
	uaBrowser    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
)

// nginxLine is one line of an nginx log_format with escape=json that
// records the Web Bot Auth headers.
type nginxLine struct {
	Time               string `json:"time_iso8601"`
	RemoteAddr         string `json:"remote_addr"`
	Method             string `json:"request_method"`
	URI                string `json:"request_uri"`
	Status             int    `json:"status"`
	BodyBytes          int    `json:"body_bytes_sent"`
	Referer            string `json:"http_referer"`
	UserAgent          string `json:"http_user_agent"`
	Host               string `json:"http_host"`
	Scheme             string `json:"scheme"`
	Signature          string `json:"http_signature"`
	SignatureInput     string `json:"http_signature_input"`
	SignatureAgentHead string `json:"http_signature_agent"`
}

// sign returns Signature-Agent, Signature-Input and Signature values for a
// request to host at time t, per the Web Bot Auth profile of RFC 9421.
func sign(t time.Time, nonce string) (agent, input, sig string) {
	agent = `sig1="` + botOrigin + `"`
	params := fmt.Sprintf(`("@authority" "signature-agent";key="sig1");created=%d;expires=%d;keyid="%s";alg="ed25519";nonce="%s";tag="web-bot-auth"`,
		t.Unix(), t.Add(5*time.Minute).Unix(), thumbprint(botKey().Public().(ed25519.PublicKey)), nonce)
	base := `"@authority": ` + host + "\n" +
		`"signature-agent";key="sig1": "` + botOrigin + `"` + "\n" +
		`"@signature-params": ` + params
	s := ed25519.Sign(botKey(), []byte(base))
	return agent, "sig1=" + params, "sig1=:" + base64.StdEncoding.EncodeToString(s) + ":"
}

func accessJSON() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	add := func(at, ip, ua, path string, status int, signed string) {
		l := nginxLine{Time: at, RemoteAddr: ip, Method: "GET", URI: path, Status: status, BodyBytes: 5120,
			Referer: "", UserAgent: ua, Host: host, Scheme: "https"}
		if status != 200 {
			l.BodyBytes = 0
		}
		switch signed {
		case "good", "bad":
			t := ts(at)
			l.SignatureAgentHead, l.SignatureInput, l.Signature = sign(t, base64.StdEncoding.EncodeToString([]byte(path+at)))
			if signed == "bad" {
				// A signature copied from another request: valid bytes,
				// wrong message.
				_, _, l.Signature = sign(t.Add(-time.Hour), "replayed")
			}
		}
		enc.Encode(l)
	}
	// CCBot gets a 503 for robots.txt during the outage, then crawls anyway.
	add("2025-03-05T10:00:00+00:00", "18.97.9.168", uaCC, "/robots.txt", 503, "")
	add("2025-03-05T10:05:00+00:00", "18.97.9.168", uaCC, "/news/a", 200, "")
	// GPTBot checks robots.txt on the 8th, then not again for four days.
	add("2025-03-08T09:00:00+00:00", "20.171.207.5", uaGPT, "/robots.txt", 200, "")
	// Bytespider never checks; at 06:00 on the 11th the last day saw two versions.
	add("2025-03-11T06:00:00+00:00", "110.249.201.5", uaBytespider, "/archive/2019/old-story", 200, "")
	add("2025-03-12T08:00:00+00:00", "160.79.104.10", uaClaude, "/robots.txt", 200, "")
	add("2025-03-12T08:01:00+00:00", "160.79.104.10", uaClaude, "/news/a", 200, "")
	add("2025-03-12T08:05:00+00:00", "160.79.104.10", uaClaude, "/private/press/release", 200, "")
	add("2025-03-12T08:10:00+00:00", "160.79.104.10", uaClaude, "/about", 200, "")
	add("2025-03-12T09:00:00+00:00", "44.221.181.252", uaPerplexity, "/robots.txt", 200, "")
	add("2025-03-12T09:00:10+00:00", "44.221.181.252", uaPerplexity, "/news/a", 200, "")
	add("2025-03-12T09:00:15+00:00", "44.221.181.252", uaPerplexity, "/news/b", 200, "")
	add("2025-03-12T09:00:20+00:00", "44.221.181.252", uaPerplexity, "/news/c", 200, "")
	add("2025-03-12T10:00:00+00:00", "20.171.207.5", uaGPT, "/blog/ai-policy", 200, "")
	add("2025-03-12T10:01:00+00:00", "20.171.207.5", uaGPT, "/about", 200, "")
	add("2025-03-12T11:00:00+00:00", "20.171.207.5", uaGPT, "/robots.txt", 200, "")
	add("2025-03-12T11:05:00+00:00", "20.171.207.5", uaGPT, "/news/today", 200, "")
	add("2025-03-12T12:00:00+00:00", "110.249.201.5", uaBytespider, "/private/salaries", 200, "")
	// Amazonbot alone gets a 503 for robots.txt (the archive saw a 200).
	add("2025-03-12T13:00:00+00:00", "52.70.240.171", uaAmazon, "/robots.txt", 503, "")
	add("2025-03-12T13:01:00+00:00", "52.70.240.171", uaAmazon, "/about", 200, "")
	// The real Googlebot, from its published ranges.
	add("2025-03-12T14:00:00+00:00", "66.249.66.1", uaGoogle, "/robots.txt", 200, "")
	add("2025-03-12T14:01:00+00:00", "66.249.66.1", uaGoogle, "/news/a", 200, "")
	// Someone else calling itself Googlebot.
	add("2025-03-12T14:30:00+00:00", "203.0.113.66", uaGoogle, "/private/salaries", 200, "")
	// Someone calling itself bingbot, from an address whose reverse DNS
	// names a host outside Bing's domain (see dnsSnapshot).
	add("2025-03-12T14:40:00+00:00", "203.0.113.77", uaBing, "/about", 200, "")
	add("2025-03-12T14:41:00+00:00", "203.0.113.77", uaBing, "/blog/post", 200, "")
	// A user-triggered fetcher.
	add("2025-03-12T15:00:00+00:00", "23.98.142.180", uaChatGPT, "/private/report", 200, "")
	add("2025-03-12T15:30:00+00:00", "17.241.75.1", uaApple, "/robots.txt", 200, "")
	add("2025-03-12T15:31:00+00:00", "17.241.75.1", uaApple, "/members/list", 200, "")
	// ExampleBot signs its requests; one signature does not match.
	add("2025-03-12T16:00:00+00:00", "198.51.100.7", uaExample, "/robots.txt", 200, "good")
	add("2025-03-12T16:01:00+00:00", "198.51.100.7", uaExample, "/news/a", 200, "good")
	add("2025-03-12T16:02:00+00:00", "198.51.100.7", uaExample, "/news/b", 200, "bad")
	// An impostor using ExampleBot's User-Agent without a signature.
	add("2025-03-12T16:30:00+00:00", "192.0.2.99", uaExample, "/news/c", 200, "")
	// A person with a browser.
	add("2025-03-12T17:00:00+00:00", "192.0.2.10", uaBrowser, "/", 200, "")
	add("2025-03-12T17:00:05+00:00", "192.0.2.10", uaBrowser, "/private/salaries", 200, "")
	buf.WriteString("{\"time_iso8601\": \"2025-03-12T17:05:00+00:00\", \"remote_addr\": \"192.0.2.10\", truncated by a log rotation\n")
	// After the rotation: ClaudeBot reads the 03-28 robots.txt, whose
	// Content-Usage reserves /news/ from training in its own group.
	add("2025-03-28T08:00:00+00:00", "160.79.104.10", uaClaude, "/robots.txt", 200, "")
	add("2025-03-28T08:01:00+00:00", "160.79.104.10", uaClaude, "/news/a", 200, "")
	add("2025-03-28T08:02:00+00:00", "160.79.104.10", uaClaude, "/about", 200, "")
	return buf.Bytes()
}

// dnsFile is the reverse-DNS snapshot, named as 'repaudit dns verify'
// names it (rdns.FileName of its start).
const dnsFile = "dns/dns-2025-03-13T060000Z.jsonl"

// dnsSnapshot is what 'repaudit dns verify' wrote on the morning after the
// JSON log's day: the real Googlebot's address, forward-confirmed, and the
// bingbot impostor's, whose PTR name is outside .search.msn.com. Read as an
// input of the demo, it makes the impostor rdns_mismatch (and spoofed).
func dnsSnapshot() ([]byte, error) {
	start := ts("2025-03-13T06:00:00Z")
	h := identity.DNSSnapshotHeader{Resolver: "system", Started: start, Finished: start.Add(2 * time.Second)}
	entries := []identity.DNSEntry{
		{
			Address: "66.249.66.1", Tokens: []string{"Googlebot"}, Suffixes: []string{".google.com", ".googlebot.com"},
			PTR:     []string{"crawl-66-249-66-1.googlebot.com"},
			Forward: []identity.DNSForward{{Name: "crawl-66-249-66-1.googlebot.com", Addresses: []string{"66.249.66.1"}}},
			Result:  identity.DNSConfirmed, Time: start.Add(time.Second),
		},
		{
			Address: "203.0.113.77", Tokens: []string{"bingbot"}, Suffixes: []string{".search.msn.com"},
			PTR:     []string{"host-77.example.net"},
			Forward: []identity.DNSForward{{Name: "host-77.example.net", Addresses: []string{"203.0.113.77"}}},
			Result:  identity.DNSNameOutsideSuffixes, Time: start.Add(time.Second),
		},
	}
	var buf bytes.Buffer
	if err := identity.WriteDNSSnapshot(&buf, h, entries); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// accessCombined is an older Apache log: no host, no signature headers.
func accessCombined() []byte {
	lines := []string{
		`160.79.104.10 - - [01/Mar/2025:12:05:00 +0000] "GET /robots.txt HTTP/1.1" 200 812 "-" "` + uaClaude + `"`,
		`160.79.104.10 - - [01/Mar/2025:12:06:00 +0000] "GET /news/a HTTP/1.1" 200 5120 "-" "` + uaClaude + `"`,
		`198.51.100.7 - - [01/Mar/2025:12:10:00 +0000] "GET /news/a HTTP/1.1" 200 5120 "-" "` + uaExample + `"`,
		`192.0.2.10 - - [01/Mar/2025:12:11:00 +0100] "GET / HTTP/1.1" 200 5120 "https://search.example/" "` + uaBrowser + `"`,
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}
