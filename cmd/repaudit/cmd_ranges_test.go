package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/identity"
)

// rangesMirror serves every catalog list under /HOST/PATH over TLS on
// loopback: chatgpt-user.json is missing (404), applebot.json is an HTML
// page, bingbot.json carries Bing's zero-width spaces, Google's old
// /static/search/apis/ipranges/ URLs redirect as Google's do, the rest are
// lists.
func rangesMirror(t *testing.T) (*httptest.Server, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		switch {
		case strings.Contains(r.URL.Path, "/static/search/apis/ipranges/"):
			http.Redirect(w, r, "/developers.google.com/crawling/ipranges/common-crawlers.json", http.StatusMovedPermanently)
		case strings.HasSuffix(r.URL.Path, "/chatgpt-user.json"):
			http.NotFound(w, r)
		case strings.HasSuffix(r.URL.Path, "/applebot.json"):
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html><body>Moved to a new page</body></html>")
		case strings.HasSuffix(r.URL.Path, "/bingbot.json"):
			io.WriteString(w, "{\n\u200b  \"creationTime\": \"2026-11-01T00:00:00\",\n  \"prefixes\": [\n\u200b    {\"ipv4Prefix\": \"157.55.39.0/24\u200b\"}\n  ]\n}\n")
		default:
			io.WriteString(w, `{"creationTime":"2026-11-20T08:00:00.000000","prefixes":[{"ipv4Prefix":"66.249.64.0/27"},{"ipv6Prefix":"2001:4860:4801:10::/64"}]}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &paths
}

func TestRangesFetch(t *testing.T) {
	srv, paths := rangesMirror(t)
	at := time.Date(2026, 11, 23, 18, 45, 0, 0, time.UTC)
	var delays []time.Duration
	ctx, hooks := context.Background(), netHooks{
		tlsConfig: srv.Client().Transport.(*http.Transport).TLSClientConfig,
		now:       func() time.Time { return at },
		sleep:     func(_ context.Context, d time.Duration) error { delays = append(delays, d); return nil },
	}
	out := filepath.Join(t.TempDir(), "ranges")
	args := []string{"ranges", "fetch", "--out", out, "--mirror", srv.URL + "/", "--allow-private", "--delay", "2s"}
	var se bytes.Buffer
	code := run(ctx, args, stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: hooks})
	if code != exitFindings {
		t.Fatalf("exit = %d, want %d (one list missing, one not a list); stderr:\n%s", code, exitFindings, se.String())
	}
	// Only current lists are fetched; former URLs (Google's old paths)
	// are not.
	var lists []bots.IPRangeList
	for _, l := range bots.Default().IPRangeLists() {
		if !l.Former {
			lists = append(lists, l)
		}
	}
	if len(*paths) != len(lists) {
		t.Errorf("%d requests for %d lists: %v", len(*paths), len(lists), *paths)
	}
	for _, want := range []string{
		"/developers.google.com/crawling/ipranges/common-crawlers.json",
		"/developers.google.com/crawling/ipranges/special-crawlers.json",
		"/developers.google.com/crawling/ipranges/user-triggered-fetchers.json",
		"/developers.google.com/crawling/ipranges/user-triggered-fetchers-google.json",
		"/developers.google.com/crawling/ipranges/user-triggered-agents.json",
		"/claude.com/crawling/bots.json",
		"/openai.com/gptbot.json",
		"/openai.com/searchbot.json",
	} {
		if !slices.Contains(*paths, want) {
			t.Errorf("no request for %s; got %v", want, *paths)
		}
	}
	for _, p := range *paths {
		if strings.Contains(p, "/static/search/apis/ipranges/") {
			t.Errorf("fetched a former URL: %s", p)
		}
	}
	if len(delays) != len(lists)-1 || delays[0] != 2*time.Second {
		t.Errorf("delays between requests: %v; want %d of 2s", delays, len(lists)-1)
	}
	stderr := se.String()
	for _, want := range []string{
		"https://openai.com/chatgpt-user.json: refused: status 404 Not Found: only 200 is accepted",
		"https://search.developer.apple.com/applebot.json: refused: 200, but identity: not an IP range list",
		"https://www.bing.com/toolbox/bingbot.json: 200, 1 prefixes (creationTime 2026-11-01T00:00:00Z), for bingbot, 1 note(s): 3 zero-width spaces (U+200B) removed",
		"-> www.bing.com_toolbox_bingbot.json.2026-11-23T184500Z.json",
		"https://claude.com/crawling/bots.json: 200, 2 prefixes (creationTime 2026-11-20T08:00:00Z), for Claude-SearchBot, Claude-User, ClaudeBot -> claude.com_crawling_bots.json.2026-11-23T184500Z.json",
		"-> developers.google.com_crawling_ipranges_common-crawlers.json.2026-11-23T184500Z.json",
		"ranges fetch: " + strconv.Itoa(len(lists)) + " lists: " + strconv.Itoa(len(lists)-2) + " written, 2 failed",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q; got:\n%s", want, stderr)
		}
	}
	checkRangesFiles(t, out, lists, at)

	// Same second again: every written list is refused without --force,
	// and replaced with it.
	se.Reset()
	if code := run(ctx, args, stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: hooks}); code != exitFindings ||
		!strings.Contains(se.String(), "0 written, "+strconv.Itoa(len(lists))+" failed") || !strings.Contains(se.String(), "use --force") {
		t.Errorf("rerun without --force: exit %d; stderr:\n%s", code, se.String())
	}
	se.Reset()
	if code := run(ctx, append(args, "--force"), stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: hooks}); code != exitFindings ||
		!strings.Contains(se.String(), strconv.Itoa(len(lists)-2)+" written, 2 failed") {
		t.Errorf("rerun with --force: exit %d; stderr:\n%s", code, se.String())
	}
	if hidden, _ := filepath.Glob(filepath.Join(out, ".*")); len(hidden) != 0 {
		t.Errorf("temporary files left: %v", hidden)
	}
}

// checkRangesFiles checks that out holds one file per list written
// (all but the two that failed), each named for its list and fetch time
// at and readable as an IP range list.
func checkRangesFiles(t *testing.T, out string, lists []bots.IPRangeList, at time.Time) {
	t.Helper()
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(lists)-2 {
		t.Errorf("%d files written, want %d: %v", len(entries), len(lists)-2, entries)
	}
	for _, e := range entries {
		u, ft, err := identity.ParseIPListFileName(e.Name())
		if err != nil || !ft.Equal(at) {
			t.Errorf("file %q: %v, %v", e.Name(), ft, err)
			continue
		}
		i := -1
		for j, l := range lists {
			if l.URL == u {
				i = j
			}
		}
		if i < 0 || strings.HasSuffix(u, "chatgpt-user.json") || strings.HasSuffix(u, "applebot.json") {
			t.Errorf("file %q names %q", e.Name(), u)
		}
		body, _ := os.ReadFile(filepath.Join(out, e.Name()))
		if _, _, err := identity.ParseIPList(body, e.Name()); err != nil {
			t.Errorf("file %q does not read as a list: %v", e.Name(), err)
		}
	}
}

func TestRangesFetchRefusesPrivateAddresses(t *testing.T) {
	srv, paths := rangesMirror(t)
	hooks := netHooks{tlsConfig: srv.Client().Transport.(*http.Transport).TLSClientConfig}
	out := t.TempDir()
	var se bytes.Buffer
	code := run(context.Background(), []string{"ranges", "fetch", "--out", out, "--mirror", srv.URL, "--delay", "0s"}, stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: hooks})
	if code != exitFindings || !strings.Contains(se.String(), "refusing non-public address: 127.0.0.1 (use --allow-private to allow it)") {
		t.Errorf("exit %d; stderr:\n%s", code, se.String())
	}
	if len(*paths) != 0 {
		t.Errorf("requests reached the server: %v", *paths)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("files written: %v", entries)
	}
}

func TestRangesFetchUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
		want int
	}{
		{"no subcommand", []string{"ranges"}, exitUsage},
		{"help", []string{"ranges", "-h"}, exitOK},
		{"missing out", []string{"ranges", "fetch"}, exitUsage},
		{"http mirror", []string{"ranges", "fetch", "--out", dir, "--mirror", "http://127.0.0.1:1"}, exitUsage},
		{"bad bots file", []string{"ranges", "fetch", "--out", dir, "--bots", filepath.Join(dir, "none.json")}, exitUsage},
		{"stray argument", []string{"ranges", "fetch", "--out", dir, "x"}, exitUsage},
		{"cancelled", nil, exitUsage},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			args := tt.args
			if args == nil {
				c, cancel := context.WithCancel(ctx)
				cancel()
				ctx, args = c, []string{"ranges", "fetch", "--out", dir}
			}
			var se bytes.Buffer
			if got := run(ctx, args, stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se}); got != tt.want {
				t.Errorf("exit = %d, want %d; stderr:\n%s", got, tt.want, se.String())
			}
		})
	}
}

// TestRangesFetchFeedsAudit: what ranges fetch writes, audit
// --ip-ranges-dir reads: a fake Googlebot outside the fetched ranges is
// spoofed, the real one verified.
func TestRangesFetchFeedsAudit(t *testing.T) {
	srv, _ := rangesMirror(t)
	hooks := netHooks{
		tlsConfig: srv.Client().Transport.(*http.Transport).TLSClientConfig,
		now:       func() time.Time { return time.Date(2026, 11, 23, 18, 45, 0, 0, time.UTC) },
	}
	dir := t.TempDir()
	ranges := filepath.Join(dir, "ranges")
	if code := run(context.Background(), []string{"ranges", "fetch", "--out", ranges, "--mirror", srv.URL, "--allow-private", "--delay", "0s"},
		stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Net: hooks}); code != exitFindings {
		t.Fatalf("ranges fetch: exit %d", code)
	}
	ua := `"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`
	// After the lists' creationTime (2026-11-20): how a list covers earlier
	// fetches is identity's timeline rule, not this command's.
	log := `66.249.64.5 - - [22/Nov/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 10 "-" ` + ua + "\n" +
		`185.220.101.1 - - [22/Nov/2026:10:00:01 +0000] "GET /b HTTP/1.1" 200 10 "-" ` + ua + "\n"
	logPath := filepath.Join(dir, "access.log")
	os.WriteFile(logPath, []byte(log), 0o644)
	out := filepath.Join(dir, "out")
	if code, _, stderr := runCmd(t, "audit", logPath, "--ip-ranges-dir", ranges, "--site", "https://example.com", "--out", out, "-q"); code != exitOK {
		t.Fatalf("audit: exit %d; stderr:\n%s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "query", out, "select client_ip, ip_check, identity from fetches order by fetch_time", "--format", "csv")
	if code != exitOK {
		t.Fatalf("query: exit %d; stderr:\n%s", code, stderr)
	}
	if want := "client_ip,ip_check,identity\n66.249.64.5,in_range,verified\n185.220.101.1,not_in_range,spoofed\n"; stdout != want {
		t.Errorf("fetches:\n%s\nwant:\n%s", stdout, want)
	}
}
