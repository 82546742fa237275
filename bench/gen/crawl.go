package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/internal/synth"
	"github.com/repaudit/repaudit/warc"
)

// crawlWARC writes n fetches of a crawler (see the package comment).
// Pages are made of a pseudo-vocabulary so that they compress like text
// (about 3 to 4 times), not like random bytes or like repeated ones.
func crawlWARC(w io.Writer, rng *rand.Rand, n, size int, seed uint64) error {
	id := 0
	ww := warc.NewWriter(w, warc.WriterOptions{NewID: func() string {
		id++
		var u [16]byte
		copy(u[:], fmt.Sprintf("%08x%08d", seed, id))
		return warc.FormatRecordID(u)
	}})
	ua := "Mozilla/5.0 (compatible; ExampleBot/2.1; +https://bot.example/info)"
	if _, err := ww.WriteWarcinfo(start, "crawl.warc.gz", event.Header{
		{Name: "software", Value: "repaudit bench/gen"},
		{Name: "format", Value: "WARC File Format 1.1"},
		{Name: "http-header-user-agent", Value: ua},
	}); err != nil {
		return err
	}
	vocab := synth.Vocabulary(rng, 3000)
	hosts := 200
	seen := make([]bool, hosts)
	t := start.Add(time.Duration(seed) * time.Hour)
	var page strings.Builder
	for i := 0; i < n; i++ {
		t = t.Add(time.Duration(50+rng.IntN(900)) * time.Millisecond)
		h := rng.IntN(hosts)
		host := "www.site" + strconv.Itoa(h) + ".example"
		ip := fmt.Sprintf("192.0.2.%d", 1+h%250)
		var path, head string
		var body []byte
		switch r := rng.IntN(100); {
		case !seen[h]:
			seen[h] = true
			path = "/robots.txt"
			body = []byte("User-agent: *\nDisallow: /private/\nDisallow: /search\n\nUser-agent: ExampleBot\nCrawl-delay: 2\nAllow: /\n\nSitemap: https://" + host + "/sitemap.xml\n")
			head = responseHead("200 OK", "text/plain", len(body), rng)
		case r < 5:
			path = "/" + vocab[rng.IntN(len(vocab))] + "/" + strconv.Itoa(rng.IntN(100000))
			head = "HTTP/1.1 301 Moved Permanently\r\nServer: nginx/1.25.3\r\nLocation: https://" + host + path + "/\r\nContent-Length: 0\r\n\r\n"
		case r < 8:
			path = "/" + vocab[rng.IntN(len(vocab))] + ".php"
			body = []byte("<html><body><h1>Not Found</h1></body></html>\n")
			head = responseHead("404 Not Found", "text/html; charset=utf-8", len(body), rng)
		default:
			path = fmt.Sprintf("/%s/%s-%d.html", vocab[rng.IntN(len(vocab))], vocab[rng.IntN(len(vocab))], i)
			page.Reset()
			synth.HTMLPage(&page, rng, vocab, size/8+rng.IntN(size*7/4))
			body = []byte(page.String())
			head = responseHead("200 OK", "text/html; charset=utf-8", len(body), rng)
		}
		uri := "https://" + host + path
		req := "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: " + ua +
			"\r\nAccept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n"
		if err := ww.WriteExchange(&warc.Exchange{URL: uri, Time: t, IP: ip, Request: []byte(req), ResponseHead: []byte(head), Body: body}); err != nil {
			return err
		}
		meta := fmt.Sprintf("via: https://%s/\r\nhopsFromSeed: L\r\nfetchTimeMs: %d\r\n", host, 20+rng.IntN(900))
		if err := ww.WriteRecord(event.Header{
			{Name: "WARC-Type", Value: "metadata"},
			{Name: "WARC-Record-ID", Value: "<urn:uuid:meta-" + strconv.Itoa(i) + ">"},
			{Name: "WARC-Date", Value: warc.FormatDate(t)},
			{Name: "WARC-Target-URI", Value: uri},
			{Name: "Content-Type", Value: "application/warc-fields"},
		}, []byte(meta)); err != nil {
			return err
		}
	}
	return nil
}

func responseHead(status, ctype string, n int, rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString("HTTP/1.1 " + status + "\r\nDate: Wed, 01 May 2024 12:00:00 GMT\r\nServer: nginx/1.25.3\r\n")
	b.WriteString("Content-Type: " + ctype + "\r\nContent-Length: " + strconv.Itoa(n) + "\r\n")
	b.WriteString("Cache-Control: max-age=600\r\nSet-Cookie: sid=" + strconv.FormatUint(rng.Uint64(), 16) + "; Path=/; HttpOnly\r\nVary: Accept-Encoding\r\n")
	if rng.IntN(8) == 0 {
		b.WriteString("X-Robots-Tag: noarchive\r\n")
	}
	b.WriteString("\r\n")
	return b.String()
}
