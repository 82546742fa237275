package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// CCAgent is the User-Agent of Common Crawl's crawler in the sample.
const CCAgent = "CCBot/2.0 (https://commoncrawl.org/faq/)"

// GenerateCC writes a tiny sample shaped like one Common Crawl segment:
// robotstxt/*.warc.gz with CCBot's robots.txt fetches (request and
// response records, some 404 and 5xx, one redirect to another host) and
// warc/*.warc.gz with the pages it then fetched, some of them disallowed
// for CCBot by the robots.txt it had just fetched. It stands in for the
// real files where there is no network; the layout and the command are
// the same.
func GenerateCC(dir string, hosts int) error {
	seg := "CC-MAIN-20250401000000-20250401010000"
	for _, sub := range []string{"robotstxt", "warc"} {
		if err := os.MkdirAll(filepath.Join(dir, "segment", sub), 0o755); err != nil {
			return err
		}
	}
	rw, err := newWARC(filepath.Join(dir, "segment", "robotstxt", seg+"-00000.warc.gz"), 0)
	if err != nil {
		return err
	}
	pw, err := newWARC(filepath.Join(dir, "segment", "warc", seg+"-00000.warc.gz"), 1)
	if err != nil {
		return err
	}
	for i := range hosts {
		h := fmt.Sprintf("site-%02d.example", i)
		at := t0.Add(time.Duration(i) * time.Minute)
		switch i % 6 {
		case 0:
			err = rw.exchange("https://"+h+"/robots.txt", at, CCAgent, 404, []string{"Content-Type: text/html"}, "not found")
		case 1:
			err = rw.exchange("https://"+h+"/robots.txt", at, CCAgent, 503, []string{"Content-Type: text/html"}, "busy")
		case 2:
			err = rw.exchange("https://"+h+"/robots.txt", at, CCAgent, 301, []string{"Location: https://www." + h + "/robots.txt"}, "")
			if err == nil {
				err = rw.exchange("https://www."+h+"/robots.txt", at, CCAgent, 200, []string{"Content-Type: text/plain"}, "User-agent: CCBot\nDisallow: /private/\n")
			}
		default:
			err = rw.exchange("https://"+h+"/robots.txt", at, CCAgent, 200, []string{"Content-Type: text/plain"},
				"User-agent: *\nDisallow: /private/\n\nUser-agent: CCBot\nDisallow: /no-ccbot/\n")
		}
		if err != nil {
			return err
		}
		for j, p := range []string{"/", "/private/a", "/no-ccbot/b", "/blog/c"} {
			pt := at.Add(time.Duration(2+j) * time.Hour)
			body := "<html><head><title>t</title></head><body>page</body></html>"
			if j == 3 {
				body = `<html><head><meta name="robots" content="noarchive"></head><body>page</body></html>`
			}
			if err := pw.exchange("https://"+h+p, pt, CCAgent, 200, []string{"Content-Type: text/html"}, body); err != nil {
				return err
			}
		}
	}
	if err := rw.close(); err != nil {
		return err
	}
	return pw.close()
}
