package audit

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/table"
)

// rawRecord is one WARC record (ISO 28500 §5): its fields in order and
// its block. Content-Length is added unless noLength.
type rawRecord struct {
	fields   [][2]string
	block    string
	noLength bool
}

func (r rawRecord) bytes() []byte {
	var b strings.Builder
	b.WriteString("WARC/1.1\r\n")
	for _, f := range r.fields {
		b.WriteString(f[0] + ": " + f[1] + "\r\n")
	}
	if !r.noLength {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(r.block))
	}
	b.WriteString("\r\n" + r.block + "\r\n\r\n")
	return []byte(b.String())
}

// pipeCrawl builds the records of a crawl of hosts hosts: per host a
// robots.txt (200 with rules, 503 or a redirect), pages with and without
// meta robots and X-Robots-Tag, some large, and revisits of earlier
// pages; each request record before its response.
func pipeCrawl(hosts int) []rawRecord {
	t0 := time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC)
	recs := []rawRecord{{fields: [][2]string{{"WARC-Type", "warcinfo"}, {"WARC-Date", "2025-04-01T00:00:00Z"},
		{"WARC-Record-ID", "<urn:uuid:00000000-0000-4000-8000-000000000000>"}, {"Content-Type", "application/warc-fields"}},
		block: "software: Heritrix/3.4.0\r\nhttp-header-user-agent: " + uaHeritrix + "\r\n"}}
	n := 0
	exchange := func(at time.Time, url, head, body string) string {
		n++
		req, resp := fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", 2*n), fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", 2*n+1)
		host, path, _ := strings.Cut(strings.TrimPrefix(url, "https://"), "/")
		date := at.Format(time.RFC3339)
		recs = append(recs,
			rawRecord{fields: [][2]string{{"WARC-Type", "request"}, {"WARC-Target-URI", url}, {"WARC-Date", date}, {"WARC-Record-ID", req},
				{"WARC-Concurrent-To", resp}, {"Content-Type", "application/http;msgtype=request"}},
				block: "GET /" + path + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: " + uaHeritrix + "\r\n\r\n"},
			rawRecord{fields: [][2]string{{"WARC-Type", "response"}, {"WARC-Target-URI", url}, {"WARC-Date", date}, {"WARC-Record-ID", resp},
				{"WARC-Concurrent-To", req}, {"WARC-Payload-Digest", "sha1:" + fmt.Sprintf("%032X", len(body))}, {"Content-Type", "application/http;msgtype=response"}},
				block: strings.ReplaceAll(head, "\n", "\r\n") + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)) + body})
		return resp
	}
	revisit := func(at time.Time, url, of string, ofAt time.Time, digestOf int) {
		n++
		recs = append(recs, rawRecord{fields: [][2]string{{"WARC-Type", "revisit"}, {"WARC-Target-URI", url}, {"WARC-Date", at.Format(time.RFC3339)},
			{"WARC-Record-ID", fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", 2*n)},
			{"WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"},
			{"WARC-Refers-To", of}, {"WARC-Refers-To-Target-URI", url}, {"WARC-Refers-To-Date", ofAt.Format(time.RFC3339)},
			{"WARC-Payload-Digest", "sha1:" + fmt.Sprintf("%032X", digestOf)}, {"Content-Type", "application/http;msgtype=response"}},
			block: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"})
	}
	for h := range hosts {
		base := fmt.Sprintf("https://h%03d.example", h)
		at := t0.Add(time.Duration(h) * time.Hour)
		switch h % 5 {
		case 0:
			exchange(at, base+"/robots.txt", "HTTP/1.1 503 Service Unavailable\nContent-Type: text/plain\n", "busy")
		case 1:
			exchange(at, base+"/robots.txt", "HTTP/1.1 301 Moved\nLocation: /other-robots.txt\n", "")
			exchange(at.Add(time.Second), base+"/other-robots.txt", "HTTP/1.1 200 OK\nContent-Type: text/plain\n", "User-agent: *\nDisallow: /p1\n")
		default:
			exchange(at, base+"/robots.txt", "HTTP/1.1 200 OK\nContent-Type: text/plain\n", fmt.Sprintf("User-agent: *\nDisallow: /p%d\nCrawl-delay: 5\n", h%4))
		}
		for p := range 4 {
			head := "HTTP/1.1 200 OK\nContent-Type: text/html\n"
			meta := ""
			switch (h + p) % 4 {
			case 0:
				meta = `<meta name="robots" content="noindex, nofollow">`
			case 1:
				head += "X-Robots-Tag: googlebot: nosnippet\n"
				meta = `<meta name="googlebot" content="noarchive">`
			case 2:
				head += "X-Robots-Tag: unavailable_after: 2025-05-01\n"
			}
			body := "<html><head><title>p</title>" + meta + "</head><body>" + strings.Repeat("x", (h*37+p*1009)%(90<<10)) + "</body></html>"
			url := fmt.Sprintf("%s/p%d", base, p)
			pAt := at.Add(time.Duration(p+1) * time.Minute)
			id := exchange(pAt, url, head, body)
			if p%2 == 1 {
				revisit(pAt.Add(time.Hour), url, id, pAt, len(body))
			}
		}
	}
	return recs
}

// writePipeWARC writes recs as a .warc.gz, one gzip member a record (WARC
// 1.1 Annex D), with one record whose header is not a header at all in
// the middle and the last record cut short.
func writePipeWARC(t *testing.T, path string, recs []rawRecord) {
	t.Helper()
	var out bytes.Buffer
	var m bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&m, gzip.BestSpeed) // one writer, Reset: a new one per member is slow under -race
	member := func(b []byte) []byte {
		m.Reset()
		zw.Reset(&m)
		zw.Write(b)
		zw.Close()
		return bytes.Clone(m.Bytes())
	}
	for i, r := range recs {
		if i == len(recs)/2 {
			bad := rawRecord{fields: [][2]string{{"WARC-Type", "response"}, {"this is no header line", ""}}, block: "HTTP/1.1 200 OK\r\n\r\n", noLength: true}
			out.Write(member(bad.bytes()))
		}
		b := member(r.bytes())
		if i == len(recs)-1 {
			b = b[:len(b)/2]
		}
		out.Write(b)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPipelinedWARCSameTables: one WARC read pipelined (-j 2 and -j 4:
// the file is the last, and only, one handed out) gives the tables of
// the same WARC read on one goroutine (-j 1), byte for byte.
func TestPipelinedWARCSameTables(t *testing.T) {
	tmp := t.TempDir()
	path := filepath.Join(tmp, "crawl.warc.gz")
	writePipeWARC(t, path, pipeCrawl(60))
	var mu sync.Mutex
	var piped []string
	onPipelined = func(p string) { mu.Lock(); piped = append(piped, p); mu.Unlock() }
	defer func() { onPipelined = nil }()
	var outs []string
	for _, jobs := range []int{1, 2, 4} {
		piped = nil
		out := filepath.Join(tmp, fmt.Sprint("j", jobs))
		if _, err := Run(context.Background(), Config{Inputs: []string{path}, Out: out, Jobs: jobs}); err != nil {
			t.Fatalf("jobs=%d: %v", jobs, err)
		}
		want := []string{path}
		if jobs == 1 {
			want = nil
		}
		if !reflect.DeepEqual(piped, want) {
			t.Errorf("jobs=%d: pipelined %q, want %q", jobs, piped, want)
		}
		outs = append(outs, out)
	}
	sameTables(t, outs)

	// The case holds what it claims to: pages with directives, revisits
	// resolved, the bad record and the cut one reported.
	col := &table.Collector{}
	if _, _, err := execute(context.Background(), Config{Inputs: []string{path}, Out: filepath.Join(tmp, "c"), Jobs: 2}, col); err != nil {
		t.Fatal(err)
	}
	codes := problemCodes(col)
	for _, c := range []problem.Code{problem.WARCTruncated} {
		if codes[string(c)] == 0 {
			t.Errorf("no %s problem; problems %v", c, codes)
		}
	}
	if len(codes) < 2 {
		t.Errorf("problems %v, want the bad record's besides the cut one's", codes)
	}
	kinds := map[string]int{}
	for _, r := range col.Retentions {
		kinds[r.RecordType]++
	}
	if kinds["revisit"] == 0 || kinds["response"] == 0 || len(col.Directives) == 0 || len(col.RobotsVersions) < 50 {
		t.Errorf("retention rows by record type %v, %d directives rows, %d robots.txt versions: the case lacks what it claims",
			kinds, len(col.Directives), len(col.RobotsVersions))
	}
}
