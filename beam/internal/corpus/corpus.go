// Package corpus generates a multi-site audit corpus for comparing the
// Beam pipeline with `repaudit audit`: many hosts, each with a robots.txt
// history in WARC files (changes, a 503 outage, redirects from alias
// hosts across partitions, one and two hops), page captures with
// X-Robots-Tag and meta robots, an archive crawler's request records, and
// access logs in vhost_combined (and one host-less combined log) whose
// time ranges overlap, so that fetches of the same second in different
// files test the merge order.
//
// It is deterministic for given Options.
package corpus

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Options size the corpus.
type Options struct {
	Hosts    int // sites (each one partition, plus alias hosts)
	Lines    int // access log lines in all
	LogFiles int // vhost_combined files (one more, combined, for the host-less lines)
	WARCs    int // WARC files the captures are spread over
	Seed     uint64
}

// Site is the --site value for the host-less log.
const Site = "https://host-000.example"

var t0 = time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC)

var agents = []struct {
	ua     string
	weight int
	robots float64 // chance that a request is for /robots.txt
}{
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", 20, 0.02},
	{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", 20, 0.01},
	{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", 10, 0.05},
	{"CCBot/2.0 (https://commoncrawl.org/faq/)", 10, 0},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", 8, 0.001},
	{"Mozilla/5.0 (compatible; ExampleResearchBot/0.1; +https://research.example/bot)", 4, 0},
	{"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", 28, 0},
}

var paths = []string{"/", "/private/a", "/private/b", "/archive/2024/x", "/blog/post-1", "/blog/post-2", "/page/1", "/page/2", "/search?q=x", "/img/logo.png"}

func host(i int) string { return fmt.Sprintf("host-%03d.example", i) }

// robots returns version v of host i's robots.txt: status and body.
func robots(i, v int) (int, string) {
	switch {
	case v == 1 && i%7 == 0:
		return 503, "busy\n"
	case v == 0:
		return 200, "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"
	case v == 1:
		return 200, "User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n\nUser-agent: CCBot\nDisallow: /archive/\n\nUser-agent: ExampleResearchBot\nDisallow: /blog/\n"
	default:
		return 200, fmt.Sprintf("# version %d\nUser-agent: *\nDisallow: /private/\nDisallow: /page/\nCrawl-delay: 2\n\nUser-agent: Googlebot\nAllow: /\n", v)
	}
}

// Generate writes the corpus into dir (created): archive/*.warc.gz and
// logs/*.log.
func Generate(dir string, o Options) error {
	if o.Hosts < 1 || o.WARCs < 1 || o.LogFiles < 1 {
		return fmt.Errorf("corpus: need at least one host, WARC and log file")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b9))
	if err := os.MkdirAll(filepath.Join(dir, "archive"), 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		return err
	}
	if err := writeWARCs(dir, o); err != nil {
		return err
	}
	return writeLogs(dir, o, rng)
}

// writeWARCs writes o.WARCs WARC files into dir/archive, the hosts dealt
// round-robin among them.
func writeWARCs(dir string, o Options) error {
	warcs := make([]*warcWriter, o.WARCs)
	for i := range warcs {
		w, err := newWARC(filepath.Join(dir, "archive", fmt.Sprintf("crawl-%02d.warc.gz", i)), i)
		if err != nil {
			return err
		}
		warcs[i] = w
	}
	// Each file holds the hosts i with i%len(warcs) its number, in
	// order, and nothing else: the files are written in parallel, and
	// each is the same whatever the number of cores.
	errs := make([]error, len(warcs))
	var wg sync.WaitGroup
	for f, w := range warcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := f; i < o.Hosts; i += len(warcs) {
				writeHost(w, i)
			}
			errs[f] = w.close()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// writeHost writes host i's records to w: its robots.txt versions, the
// redirects of its alias hosts, and four pages with robots directives in
// headers or meta tags.
func writeHost(w *warcWriter, i int) {
	ccbot := agents[3].ua
	h := host(i)
	for v := range 1 + i%3 {
		at := t0.Add(time.Duration(v*10*24)*time.Hour + time.Duration(i)*time.Minute)
		st, body := robots(i, v)
		w.exchange("https://"+h+"/robots.txt", at, ccbot, st, []string{"Content-Type: text/plain"}, body)
	}
	// Alias hosts redirect their robots.txt to the site: one hop, and
	// for some two (alias2 -> alias -> site), across partitions.
	if i%10 == 3 {
		at := t0.Add(time.Duration(i) * time.Minute)
		alias := "alias-" + h
		w.exchange("http://"+alias+"/robots.txt", at, ccbot, 301, []string{"Location: https://" + h + "/robots.txt"}, "")
		if i%20 == 3 {
			w.exchange("http://alias2-"+h+"/robots.txt", at, ccbot, 302, []string{"Location: http://" + alias + "/robots.txt"}, "")
		}
	}
	for p := range 4 {
		at := t0.Add(time.Duration(24*(1+p*7))*time.Hour + time.Duration(i)*time.Minute)
		u := fmt.Sprintf("https://%s/page/%d", h, p)
		var hdr []string
		body := "<html><head><title>p</title></head><body>text</body></html>"
		switch (i + p) % 5 {
		case 0:
			hdr = append(hdr, "X-Robots-Tag: noindex, nofollow")
		case 1:
			body = `<html><head><meta name="robots" content="noarchive, nosnippet"></head><body>x</body></html>`
		case 2:
			hdr = append(hdr, "X-Robots-Tag: unavailable_after: 2025-04-20")
		}
		w.exchange(u, at, ccbot, 200, append([]string{"Content-Type: text/html"}, hdr...), body)
	}
}

// writeLogs writes o.LogFiles vhost_combined files and one host-less
// combined file into dir/logs, o.Lines lines in all, drawing agents,
// paths, hosts and addresses from rng.
func writeLogs(dir string, o Options, rng *rand.Rand) error {
	// Logs: LogFiles vhost_combined files with overlapping time ranges,
	// plus one host-less combined file for Site.
	files := make([]*bufio.Writer, o.LogFiles+1)
	var closers []*os.File
	for i := range files {
		name := fmt.Sprintf("access-%02d.log", i)
		if i == o.LogFiles {
			name = "hostless-combined.log"
		}
		f, err := os.Create(filepath.Join(dir, "logs", name))
		if err != nil {
			return err
		}
		closers = append(closers, f)
		files[i] = bufio.NewWriterSize(f, 1<<20)
	}
	totalW := 0
	for _, a := range agents {
		totalW += a.weight
	}
	span := 30 * 24 * time.Hour
	perFile := o.Lines / len(files)
	for fi, bw := range files {
		n := perFile
		if fi == 0 {
			n += o.Lines - perFile*len(files)
		}
		step := span / time.Duration(max(n, 1))
		at := t0.Add(time.Duration(fi) * time.Second)
		for range n {
			at = at.Add(step).Truncate(time.Second)
			x := rng.IntN(totalW)
			a := agents[0]
			for _, c := range agents {
				if x < c.weight {
					a = c
					break
				}
				x -= c.weight
			}
			target := paths[rng.IntN(len(paths))]
			if rng.Float64() < a.robots {
				target = "/robots.txt"
			}
			hi := rng.IntN(o.Hosts)
			h := host(hi)
			if hi%10 == 3 && rng.IntN(10) == 0 {
				h = "alias-" + h
			}
			status := 200
			if strings.HasPrefix(target, "/private/") && rng.IntN(4) == 0 {
				status = 403
			}
			ip := fmt.Sprintf("198.51.100.%d", 1+rng.IntN(250))
			ts := at.Format("02/Jan/2006:15:04:05 -0700")
			var err error
			if fi == o.LogFiles {
				_, err = fmt.Fprintf(bw, "%s - - [%s] \"GET %s HTTP/1.1\" %d %d \"-\" \"%s\"\n", ip, ts, target, status, 100+rng.IntN(9000), a.ua)
			} else {
				_, err = fmt.Fprintf(bw, "%s:443 %s - - [%s] \"GET %s HTTP/1.1\" %d %d \"-\" \"%s\"\n", h, ip, ts, target, status, 100+rng.IntN(9000), a.ua)
			}
			if err != nil {
				return err
			}
		}
	}
	for i, bw := range files {
		if err := bw.Flush(); err != nil {
			return err
		}
		if err := closers[i].Close(); err != nil {
			return err
		}
	}
	return nil
}

// warcWriter writes WARC/1.0 records, one gzip member each.
type warcWriter struct {
	f    *os.File
	bw   *bufio.Writer
	zw   *gzip.Writer // reset for each record: a new one costs more than the record
	file int
	n    int
}

func newWARC(path string, file int) (*warcWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &warcWriter{f: f, bw: bufio.NewWriter(f), file: file}, nil
}

func (w *warcWriter) id() string {
	w.n++
	return fmt.Sprintf("<urn:uuid:%08x-0000-4000-8000-%012x>", w.file, w.n)
}

func (w *warcWriter) record(typ, uri string, at time.Time, ct string, block []byte, extra ...string) (string, error) {
	id := w.id()
	var sb strings.Builder
	sb.WriteString("WARC/1.0\r\n")
	fmt.Fprintf(&sb, "WARC-Type: %s\r\nWARC-Record-ID: %s\r\nWARC-Date: %s\r\nWARC-Target-URI: %s\r\n", typ, id, at.UTC().Format(time.RFC3339), uri)
	for _, e := range extra {
		sb.WriteString(e + "\r\n")
	}
	fmt.Fprintf(&sb, "Content-Type: %s\r\nContent-Length: %d\r\n\r\n", ct, len(block))
	if w.zw == nil {
		w.zw = gzip.NewWriter(w.bw)
	} else {
		w.zw.Reset(w.bw)
	}
	zw := w.zw
	if _, err := zw.Write([]byte(sb.String())); err != nil {
		return "", err
	}
	if _, err := zw.Write(block); err != nil {
		return "", err
	}
	if _, err := zw.Write([]byte("\r\n\r\n")); err != nil {
		return "", err
	}
	return id, zw.Close()
}

// exchange writes a response record and its request record.
func (w *warcWriter) exchange(uri string, at time.Time, ua string, status int, headers []string, body string) error {
	var resp strings.Builder
	fmt.Fprintf(&resp, "HTTP/1.1 %d %s\r\n", status, reason(status))
	for _, h := range headers {
		resp.WriteString(h + "\r\n")
	}
	fmt.Fprintf(&resp, "Content-Length: %d\r\n\r\n%s", len(body), body)
	rid, err := w.record("response", uri, at, "application/http; msgtype=response", []byte(resp.String()))
	if err != nil {
		return err
	}
	hostport, target := uri, "/"
	if i := strings.Index(uri, "://"); i >= 0 {
		hostport = uri[i+3:]
	}
	if j := strings.IndexByte(hostport, '/'); j >= 0 {
		hostport, target = hostport[:j], hostport[j:]
	}
	req := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: %s\r\n\r\n", target, hostport, ua)
	_, err = w.record("request", uri, at, "application/http; msgtype=request", []byte(req), "WARC-Concurrent-To: "+rid)
	return err
}

func reason(status int) string {
	switch status {
	case 200:
		return "OK"
	case 301:
		return "Moved Permanently"
	case 302:
		return "Found"
	case 503:
		return "Service Unavailable"
	}
	return "Status"
}

func (w *warcWriter) close() error {
	if err := w.bw.Flush(); err != nil {
		return err
	}
	return w.f.Close()
}
