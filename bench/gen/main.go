// Command gen writes the inputs bench/memory measures repaudit's memory on:
// an ordinary combined access log, a log of nothing but robots.txt
// requests (with one Host or a fresh Host on every line), and a WARC of
// many distinct large robots.txt captures.
//
//	go run ./bench/gen -kind combined -n 16000000 -out access.log
//	go run ./bench/gen -kind robots -n 2000000 -out robots.log
//	go run ./bench/gen -kind robots-hosts -n 2000000 -out robots-hosts.log
//	go run ./bench/gen -kind warc -n 1000 -size 512000 -out robots.warc.gz
//	go run ./bench/gen -kind crawl -n 40000 -size 40000 -out crawl.warc.gz
//
// -kind crawl writes what a crawler's WARC holds, for bench/inspect: one
// request, response and metadata record per fetched page (HTML of about
// -size bytes on average), robots.txt fetched once per host, some
// redirects and 404s, one gzip member per record at the default level.
//
// The output is a function of the flags alone (a fixed seed, no clock), so
// two runs measure the same bytes.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/warc"
)

func main() {
	kind := flag.String("kind", "", "what to write: combined, robots, robots-hosts, warc or crawl")
	n := flag.Int("n", 0, "log lines, robots.txt captures for -kind warc, fetches for -kind crawl")
	size := flag.Int("size", 500*1024, "bytes of each robots.txt body (-kind warc), mean bytes of a page (-kind crawl)")
	out := flag.String("out", "", "output `FILE`")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *out == "" || *n <= 0 {
		fmt.Fprintln(os.Stderr, "gen: -out FILE and -n N are required")
		os.Exit(2)
	}
	if err := run(*kind, *n, *size, *out, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(kind string, n, size int, out string, seed uint64) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(seed, 0x6d656d))
	switch kind {
	case "combined":
		err = combined(w, rng, n)
	case "robots":
		err = robotsLog(w, rng, n, false)
	case "robots-hosts":
		err = robotsLog(w, rng, n, true)
	case "warc":
		err = robotsWARC(w, rng, n, size)
	case "crawl":
		err = crawlWARC(w, rng, n, size, seed)
	default:
		err = fmt.Errorf("unknown -kind %q", kind)
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// start is the time of the first line; every line is a few seconds later.
var start = time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC)

var agents = []string{
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
	"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
	"CCBot/2.0 (https://commoncrawl.org/faq/)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
	"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
	"curl/8.5.0",
}

var statuses = []int{200, 200, 200, 200, 200, 200, 304, 301, 404, 403, 500, 503}

// line writes one combined-format line (host "" for the combined format,
// else vhost_combined: "host:port " first).
func line(w io.Writer, host, ip string, t time.Time, target string, status int, ua string) error {
	var err error
	if host != "" {
		_, err = fmt.Fprintf(w, "%s:443 ", host)
	}
	if err == nil {
		_, err = fmt.Fprintf(w, "%s - - [%s] \"GET %s HTTP/1.1\" %d %d \"-\" \"%s\"\n",
			ip, t.Format("02/Jan/2006:15:04:05 -0700"), target, status, 200+len(target)*31%9000, ua)
	}
	return err
}

func ipOf(rng *rand.Rand) string {
	return "198.51." + strconv.Itoa(rng.IntN(256)) + "." + strconv.Itoa(rng.IntN(256))
}

// combined writes n lines of ordinary traffic on one site: pages, assets,
// some robots.txt fetches, bots and browsers.
func combined(w io.Writer, rng *rand.Rand, n int) error {
	t := start
	for i := 0; i < n; i++ {
		t = t.Add(time.Duration(rng.IntN(400)) * time.Millisecond)
		var target string
		switch r := rng.IntN(100); {
		case r < 1:
			target = "/robots.txt"
		case r < 20:
			target = "/img/" + strconv.Itoa(rng.IntN(500)) + ".png"
		case r < 30:
			target = "/search?q=" + strconv.Itoa(rng.IntN(1_000_000))
		case r < 35:
			target = "/private/" + strconv.Itoa(rng.IntN(1000))
		default:
			target = "/blog/" + strconv.Itoa(rng.IntN(200_000)) + "/post"
		}
		ua := agents[rng.IntN(len(agents))]
		if err := line(w, "", ipOf(rng), t, target, statuses[rng.IntN(len(statuses))], ua); err != nil {
			return err
		}
	}
	return nil
}

// robotsLog writes n requests of /robots.txt from a handful of bots, with
// every status class, on one host or (uniqueHosts) a new Host each line.
func robotsLog(w io.Writer, rng *rand.Rand, n int, uniqueHosts bool) error {
	t := start
	for i := 0; i < n; i++ {
		t = t.Add(time.Duration(rng.IntN(2000)) * time.Millisecond)
		host := "www.example.com"
		if uniqueHosts {
			host = "h" + strconv.Itoa(i) + ".example.com"
		}
		ua := agents[rng.IntN(5)]
		if err := line(w, host, ipOf(rng), t, "/robots.txt", statuses[rng.IntN(len(statuses))], ua); err != nil {
			return err
		}
	}
	return nil
}

// robotsWARC writes n response records of https://www.example.com/robots.txt,
// one a day, each a distinct body of about size bytes: groups for a few
// bots, then many short allow and disallow rules, some with wildcards.
func robotsWARC(w io.Writer, rng *rand.Rand, n, size int) error {
	id := 0
	ww := warc.NewWriter(w, warc.WriterOptions{Level: 1, NewID: func() string {
		id++
		var u [16]byte
		copy(u[:], fmt.Sprintf("%016d", id))
		return warc.FormatRecordID(u)
	}})
	if _, err := ww.WriteWarcinfo(start, "robots.warc.gz", event.Header{
		{Name: "software", Value: "repaudit bench/gen"},
		{Name: "http-header-user-agent", Value: agents[3]},
	}); err != nil {
		return err
	}
	body := make([]byte, 0, size+256)
	for v := 0; v < n; v++ {
		body = body[:0]
		body = append(body, "# version "+strconv.Itoa(v)+"\n"...)
		for g := 0; len(body) < size-64; g++ {
			body = append(body, "\nUser-agent: "...)
			body = append(body, []string{"*", "GPTBot", "CCBot", "Googlebot", "bot-" + strconv.Itoa(g)}[g%5]...)
			body = append(body, '\n')
			for r := 0; r < 200 && len(body) < size-64; r++ {
				switch rng.IntN(4) {
				case 0:
					body = append(body, "Allow: /a/"...)
				case 1:
					body = append(body, "Disallow: /*.p"...)
				default:
					body = append(body, "Disallow: /d/"...)
				}
				body = strconv.AppendInt(body, int64(rng.IntN(1_000_000)), 36)
				body = append(body, '\n')
			}
		}
		head := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
		if err := ww.WriteExchange(&warc.Exchange{
			URL:          "https://www.example.com/robots.txt",
			Time:         start.Add(time.Duration(v) * 24 * time.Hour),
			ResponseHead: []byte(head),
			Body:         body,
		}); err != nil {
			return err
		}
	}
	return nil
}
