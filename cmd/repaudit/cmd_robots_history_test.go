package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/warc"
)

// waybackServer is a local stand-in for the Wayback Machine: a CDX server
// answering cdx with the given JSON, and raw replays of a few captures.
type waybackServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string // path and query of each request, in order
}

func newWaybackServer(t *testing.T, cdx string, cdxStatus int) *waybackServer {
	t.Helper()
	ws := &waybackServer{}
	ws.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws.mu.Lock()
		ws.requests = append(ws.requests, r.URL.RequestURI())
		ws.mu.Unlock()
		p := r.URL.Path
		switch {
		case p == "/cdx/search/cdx":
			if cdxStatus != 200 {
				http.Error(w, "CDX server overloaded", cdxStatus)
				return
			}
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, cdx)
		case p == "/web/20200101000000id_/https://example.com/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		case p == "/web/20210101000000id_/http://example.com:80/robots.txt":
			io.WriteString(w, "User-agent: GPTBot\nDisallow: /\n")
		case p == "/web/20220101000000id_/https://example.com/robots.txt":
			http.Redirect(w, r, "/web/20220101000000id_/https://example.com/new-robots.txt", http.StatusFound)
		case p == "/web/20230101000000id_/https://example.com/robots.txt":
			http.Error(w, "bad gateway", http.StatusBadGateway) // the replay fails
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ws.Close)
	return ws
}

func (ws *waybackServer) hooks(at time.Time, delays *[]time.Duration) netHooks {
	return netHooks{
		tlsConfig: ws.Client().Transport.(*http.Transport).TLSClientConfig,
		now:       func() time.Time { return at },
		sleep: func(_ context.Context, d time.Duration) error {
			*delays = append(*delays, d)
			return nil
		},
	}
}

const historyCDX = `[["timestamp","original","statuscode","digest"],
["20200101000000","https://example.com/robots.txt","200","AAAA"],
["20200601000000","https://www.example.com/robots.txt","200","WWWW"],
["20210101000000","http://example.com:80/robots.txt","200","BBBB"],
["20210601000000","https://example.com/robots.txt","503","CCCC"],
["20220101000000","https://example.com/robots.txt","301","DDDD"],
["20220601000000","https://example.com/robots.txt","404","EEEE"],
["20230101000000","https://example.com/robots.txt","200","FFFF"],
["20230601000000","https://example.com/robots.txt","-","GGGG"]]`

type historyRecord struct {
	date, target, source, location string
	status                         int
	body                           string
}

func readHistory(t *testing.T, path string) (info event.Header, recs []historyRecord) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := warc.NewReader(f, path, warc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for rec, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		if rec.Type == "warcinfo" {
			info = rec.WARCHeader
			continue
		}
		c := rec.Capture
		if c == nil || c.RecordType != "response" {
			t.Fatalf("unexpected record %s", rec.Type)
		}
		recs = append(recs, historyRecord{
			date: c.Time.Format(time.RFC3339), target: c.URL, source: c.SourceURI, status: c.Status,
			body: string(c.Body), location: c.Header.Get("Location"),
		})
	}
	if ps := r.Problems(); len(ps) > 0 {
		t.Errorf("problems reading the history WARC: %v", ps)
	}
	return info, recs
}

func TestRobotsHistory(t *testing.T) {
	ws := newWaybackServer(t, historyCDX, 200)
	var delays []time.Duration
	ctx, hooks := context.Background(), ws.hooks(time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC), &delays)
	out := filepath.Join(t.TempDir(), "history.warc.gz")
	var se bytes.Buffer
	code := run(ctx, []string{"robots", "history", "https://Example.com/", "--from", "2020-01-01", "--to", "2024-12-31",
		"--out", out, "--wayback", ws.URL, "--allow-private", "--delay", "1500ms"},
		stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: hooks})
	stderr := se.String()
	if code != exitFindings {
		t.Fatalf("exit = %d, want %d (one replay fails, one row has no status); stderr:\n%s", code, exitFindings, stderr)
	}
	wantQuery := "/cdx/search/cdx?url=example.com%2Frobots.txt&output=json&fl=timestamp,original,statuscode,digest&collapse=digest&gzip=false&from=20200101&to=20241231"
	if len(ws.requests) == 0 || ws.requests[0] != wantQuery {
		t.Errorf("first request %q, want %q", ws.requests, wantQuery)
	}
	// CDX, then the 200, 200, 301 and failing 200 replays; 4xx/5xx and
	// other hosts are not fetched.
	if len(ws.requests) != 5 {
		t.Errorf("requests %q, want the CDX query and 4 replays", ws.requests)
	}
	if len(delays) != 4 || delays[0] != 1500*time.Millisecond {
		t.Errorf("delays %v, want 4 of 1.5s", delays)
	}
	for _, want := range []string{
		"left out captures of other hosts: www.example.com: 1",
		"20230101000000 https://example.com/robots.txt: not written: " + ws.URL + "/web/20230101000000id_/https://example.com/robots.txt: status 502 Bad Gateway: only 200 is accepted",
		`20230601000000 https://example.com/robots.txt: not written: the CDX row has no status`,
		"robots history: 5 versions written, 2 failed",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q; got:\n%s", want, stderr)
		}
	}

	_, recs := readHistory(t, out)
	// gowarc, reading strictly, checks digests and lengths; the warcinfo
	// block names the command and the query.
	all := readWARC(t, out)
	if all[0].typ != "warcinfo" || !strings.Contains(string(all[0].block), "isPartOf: repaudit robots history https://example.com\r\n") ||
		!strings.Contains(string(all[0].block), "cdx-query: "+ws.URL+wantQuery+"\r\n") {
		t.Errorf("warcinfo %q", all[0].block)
	}
	src := func(ts, orig string) string { return ws.URL + "/web/" + ts + "id_/" + orig }
	want := []historyRecord{
		{"2020-01-01T00:00:00Z", "https://example.com/robots.txt", src("20200101000000", "https://example.com/robots.txt"), "", 200, "User-agent: *\nDisallow: /private\n"},
		{"2021-01-01T00:00:00Z", "https://example.com/robots.txt", src("20210101000000", "http://example.com:80/robots.txt"), "", 200, "User-agent: GPTBot\nDisallow: /\n"},
		{"2021-06-01T00:00:00Z", "https://example.com/robots.txt", src("20210601000000", "https://example.com/robots.txt"), "", 503, ""},
		{"2022-01-01T00:00:00Z", "https://example.com/robots.txt", src("20220101000000", "https://example.com/robots.txt"), "https://example.com/new-robots.txt", 301, ""},
		{"2022-06-01T00:00:00Z", "https://example.com/robots.txt", src("20220601000000", "https://example.com/robots.txt"), "", 404, ""},
	}
	if len(recs) != len(want) {
		t.Fatalf("records:\n%+v\nwant:\n%+v", recs, want)
	}
	for i := range want {
		if recs[i] != want[i] {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, recs[i], want[i])
		}
	}
}

func TestRobotsHistoryEmptyAndFailures(t *testing.T) {
	at := time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)
	t.Run("no captures", func(t *testing.T) {
		ws := newWaybackServer(t, "[]", 200)
		var delays []time.Duration
		out := filepath.Join(t.TempDir(), "h.warc.gz")
		var se bytes.Buffer
		code := run(context.Background(), []string{"robots", "history", "example.com", "--out", out, "--wayback", ws.URL, "--allow-private"},
			stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: ws.hooks(at, &delays)})
		if code != exitOK || !strings.Contains(se.String(), "no captures of example.com/robots.txt") {
			t.Errorf("exit %d; stderr:\n%s", code, se.String())
		}
		if info, recs := readHistory(t, out); info == nil || len(recs) != 0 {
			t.Errorf("warcinfo %v, %d records; want the warcinfo alone", info, len(recs))
		}
	})
	for _, tt := range []struct {
		name   string
		cdx    string
		status int
		want   string
	}{
		{"CDX server error", "", 503, "status 503 Service Unavailable: only 200 is accepted"},
		{"not a CDX answer", "<html>maintenance</html>", 200, "not a CDX JSON answer"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ws := newWaybackServer(t, tt.cdx, tt.status)
			var delays []time.Duration
			out := filepath.Join(t.TempDir(), "h.warc.gz")
			var se bytes.Buffer
			code := run(context.Background(), []string{"robots", "history", "example.com", "--out", out, "--wayback", ws.URL, "--allow-private"},
				stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: ws.hooks(at, &delays)})
			if code != exitUsage || !strings.Contains(se.String(), tt.want) {
				t.Errorf("exit %d; stderr:\n%s\nwant %q", code, se.String(), tt.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("output written after a failed query (%v)", err)
			}
		})
	}
	t.Run("private address refused", func(t *testing.T) {
		ws := newWaybackServer(t, historyCDX, 200)
		var delays []time.Duration
		var se bytes.Buffer
		code := run(context.Background(), []string{"robots", "history", "example.com", "--out", filepath.Join(t.TempDir(), "h.warc.gz"), "--wayback", ws.URL},
			stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: ws.hooks(at, &delays)})
		if code != exitUsage || !strings.Contains(se.String(), "use --allow-private") || len(ws.requests) != 0 {
			t.Errorf("exit %d, %d requests; stderr:\n%s", code, len(ws.requests), se.String())
		}
	})
}

func TestRobotsHistoryUsage(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.warc.gz")
	os.WriteFile(existing, []byte("x"), 0o644)
	for _, tt := range []struct {
		name string
		args []string
		want int
	}{
		{"help", []string{"robots", "history", "-h"}, exitOK},
		{"no URL", []string{"robots", "history", "--out", filepath.Join(dir, "a")}, exitUsage},
		{"two URLs", []string{"robots", "history", "a.example", "b.example", "--out", filepath.Join(dir, "a")}, exitUsage},
		{"no out", []string{"robots", "history", "example.com"}, exitUsage},
		{"bad URL", []string{"robots", "history", "ftp://example.com", "--out", filepath.Join(dir, "a")}, exitUsage},
		{"bad date", []string{"robots", "history", "example.com", "--from", "yesterday", "--out", filepath.Join(dir, "a")}, exitUsage},
		{"from after to", []string{"robots", "history", "example.com", "--from", "2025-01-02", "--to", "2025-01-01", "--out", filepath.Join(dir, "a")}, exitUsage},
		{"http wayback", []string{"robots", "history", "example.com", "--wayback", "http://web.archive.org", "--out", filepath.Join(dir, "a")}, exitUsage},
		{"existing output", []string{"robots", "history", "example.com", "--out", existing}, exitUsage},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var se bytes.Buffer
			if got := run(context.Background(), tt.args, stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se}); got != tt.want {
				t.Errorf("exit = %d, want %d; stderr:\n%s", got, tt.want, se.String())
			}
		})
	}
}

// TestRobotsHistoryFeedsAudit: the WARC robots history writes is read by
// the audit like any capture of the site's robots.txt: each version is in
// force from its capture time, with its status.
func TestRobotsHistoryFeedsAudit(t *testing.T) {
	ws := newWaybackServer(t, historyCDX, 200)
	var delays []time.Duration
	dir := t.TempDir()
	hist := filepath.Join(dir, "history.warc.gz")
	var se bytes.Buffer
	if code := run(context.Background(),
		[]string{"robots", "history", "example.com", "--out", hist, "--wayback", ws.URL, "--allow-private", "--delay", "0s"},
		stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: ws.hooks(time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC), &delays)}); code != exitFindings {
		t.Fatalf("robots history: exit %d; stderr:\n%s", code, se.String())
	}
	gpt := `"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot"`
	log := `20.171.206.10 - - [01/Mar/2020:10:00:00 +0000] "GET /private/a HTTP/1.1" 200 10 "-" ` + gpt + "\n" +
		`20.171.206.10 - - [01/Mar/2021:10:00:00 +0000] "GET /b HTTP/1.1" 200 10 "-" ` + gpt + "\n" +
		`20.171.206.10 - - [01/Aug/2022:10:00:00 +0000] "GET /c HTTP/1.1" 200 10 "-" ` + gpt + "\n"
	logPath := filepath.Join(dir, "access.log")
	os.WriteFile(logPath, []byte(log), 0o644)
	out := filepath.Join(dir, "out")
	if code, _, stderr := runCmd(t, "audit", hist, logPath, "--site", "https://example.com", "--out", out, "-q"); code != exitOK {
		t.Fatalf("audit: exit %d; stderr:\n%s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "query", out, "select url_path, robots_verdict, matched_rule from fetches order by fetch_time", "--format", "csv")
	if code != exitOK {
		t.Fatalf("query: exit %d; stderr:\n%s", code, stderr)
	}
	want := "url_path,robots_verdict,matched_rule\n/private/a,disallowed,Disallow: /private\n/b,disallowed,Disallow: /\n/c,allowed,\n"
	if stdout != want {
		t.Errorf("fetches:\n%s\nwant:\n%s", stdout, want)
	}
	// Each version says it came from the Wayback Machine, and where.
	code, stdout, stderr = runCmd(t, "query", out, "select distinct source, source_ref like '"+ws.URL+"/web/%id_/%' as ref from robots_versions", "--format", "csv")
	if code != exitOK || stdout != "source,ref\nwayback,true\n" {
		t.Errorf("robots_versions sources: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCmd(t, "query", out, "select evidence from violations where url_path = '/b'", "--format", "csv")
	if code != exitOK || !strings.Contains(stdout, "by the Wayback Machine ("+ws.URL+"/web/") {
		t.Errorf("evidence does not name the Wayback capture:\n%s", stdout)
	}
}

// TestRobotsHistoryMaxCaptures: a CDX answer of 10,000 rows is not
// 10,000 requests: over --max-captures, captures repeating an earlier
// content go, then the oldest, and stderr says what was skipped.
func TestRobotsHistoryMaxCaptures(t *testing.T) {
	var cdx strings.Builder
	cdx.WriteString(`[["timestamp","original","statuscode","digest"]`)
	t0 := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 10000 {
		fmt.Fprintf(&cdx, `,[%q,"https://example.com/robots.txt","200","D%d"]`, t0.Add(time.Duration(i)*time.Hour).Format("20060102150405"), i%5)
	}
	cdx.WriteString("]")
	ws := newWaybackServer(t, cdx.String(), 200)
	var delays []time.Duration
	ctx, hooks := context.Background(), ws.hooks(time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC), &delays)
	out := filepath.Join(t.TempDir(), "history.warc.gz")
	var se bytes.Buffer
	run(ctx, []string{"robots", "history", "https://example.com/", "--out", out, "--wayback", ws.URL, "--allow-private", "--max-captures", "3"},
		stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: hooks})
	if len(ws.requests) != 4 {
		t.Errorf("%d requests, want the CDX query and 3 replays", len(ws.requests))
	}
	want := "fetching 3 (--max-captures 3): left out 9995 that repeat an earlier content with the same status and 2 older ones"
	if !strings.Contains(se.String(), want) {
		t.Errorf("stderr lacks %q; got:\n%s", want, se.String())
	}
	// The latest three distinct contents: D2, D3 and D4, the first time
	// each was captured.
	for i, ts := range []string{"2015010102", "2015010103", "2015010104"} {
		if i+1 < len(ws.requests) && !strings.Contains(ws.requests[i+1], "/web/"+ts) {
			t.Errorf("request %d %q, want the capture of %s", i+1, ws.requests[i+1], ts)
		}
	}
}
