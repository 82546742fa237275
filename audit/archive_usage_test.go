package audit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/table"
	"github.com/repaudit/repaudit/warc"
)

// exchange is one hand-written capture: a URL, its time, the response
// head as received and the body.
type exchange struct {
	url  string
	at   time.Time
	head string
	body string
}

// writeExchanges writes a heritrix WARC of request and response records.
func writeExchanges(t *testing.T, path string, xs []exchange) {
	t.Helper()
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, warc.WriterOptions{})
	if _, err := w.WriteWarcinfo(xs[0].at, filepath.Base(path), event.Header{{Name: "software", Value: "Heritrix/3.4.0"}}); err != nil {
		t.Fatal(err)
	}
	for _, x := range xs {
		host := strings.SplitN(strings.TrimPrefix(x.url, "https://"), "/", 2)[0]
		path := strings.TrimPrefix(x.url, "https://"+host)
		e := &warc.Exchange{
			URL: x.url, Time: x.at, ResponseHead: []byte(strings.ReplaceAll(x.head, "\n", "\r\n") + "\r\n"), Body: []byte(x.body),
			Request: []byte("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: " + uaHeritrix + "\r\n\r\n"),
		}
		if err := w.WriteExchange(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestArchiveUsagesFromWARC runs the audit over a hand-written WARC: ACAP
// present-oldcopy and crawl prohibitions, an Archive-Embargo header (one
// malformed), and a robots.txt that redirects to a login page (RFC 9309
// §2.3.1.2: no rules, allow all).
func TestArchiveUsagesFromWARC(t *testing.T) {
	t0 := time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC)
	ok := "HTTP/1.1 200 OK\nContent-Type: text/html\n"
	acap := "User-agent: *\nDisallow:\n\nACAP-crawler: *\nACAP-disallow-present-oldcopy: /news/\nACAP-disallow-crawl: /members/\n"
	path := filepath.Join(t.TempDir(), "crawl.warc.gz")
	writeExchanges(t, path, []exchange{
		{"https://acap.example.org/robots.txt", t0, "HTTP/1.1 200 OK\nContent-Type: text/plain\n", acap},
		{"https://acap.example.org/news/a", t0.Add(time.Hour), ok, "<html>one</html>"},
		{"https://acap.example.org/news/a", t0.Add(48 * time.Hour), ok, "<html>two</html>"},
		{"https://acap.example.org/members/x", t0.Add(time.Hour), ok, "<html>m</html>"},
		{"https://acap.example.org/embargoed", t0.Add(time.Hour), ok + "Archive-Embargo: m\n", "<html>e</html>"},
		{"https://acap.example.org/odd", t0.Add(time.Hour), ok + "Archive-Embargo: 2w\n", "<html>o</html>"},
		{"https://login.example.org/robots.txt", t0, "HTTP/1.1 302 Found\nLocation: /login\n", ""},
		{"https://login.example.org/login", t0.Add(time.Second), ok, "<!doctype html><html><body>Sign in</body></html>"},
		{"https://login.example.org/private/x", t0.Add(time.Hour), ok, "<html>x</html>"},
	})
	col, _ := runOwn(t, Config{Inputs: []string{path}})

	ret := map[string]string{}
	for _, r := range col.Retentions {
		ret[r.URL+" "+r.FetchTime.Format(time.RFC3339)] = r.Action + " " + r.Reason
	}
	for key, want := range map[string]string{
		"https://acap.example.org/news/a 2025-04-01T01:00:00Z":    "embargo acap-present-oldcopy-prohibited",
		"https://acap.example.org/news/a 2025-04-03T00:00:00Z":    "keep no-restriction",
		"https://acap.example.org/members/x 2025-04-01T01:00:00Z": "review acap-crawl-prohibited",
		"https://acap.example.org/embargoed 2025-04-01T01:00:00Z": "embargo archive-embargo",
		"https://acap.example.org/odd 2025-04-01T01:00:00Z":       "keep no-restriction",
	} {
		if got := ret[key]; got != want {
			t.Errorf("%s: got %q, want %q", key, got, want)
		}
	}
	var malformed []table.Problem
	for _, p := range col.Problems {
		if p.Code == string(problem.ArchiveEmbargoMalformed) {
			malformed = append(malformed, p)
		}
	}
	if len(malformed) != 1 || malformed[0].SourceFile != path || malformed[0].Offset <= 0 ||
		!strings.Contains(malformed[0].Message, `byte 0: member "2w" is not w, m or q`) {
		t.Errorf("archive-embargo-malformed problems = %+v", malformed)
	}
	found := 0
	for _, v := range col.RobotsVersions {
		if v.Authority != "https://login.example.org" {
			continue
		}
		found++
		if v.StatusRule != "redirect" || v.Effect != "allow_all" ||
			v.RedirectChain != "https://login.example.org/robots.txt 302 -> https://login.example.org/login 200" {
			t.Errorf("login.example.org version %+v", v)
		}
	}
	for _, f := range col.Fetches {
		if f.URL == "https://login.example.org/private/x" {
			found++
			if f.RobotsVerdict != "allowed" {
				t.Errorf("%s: verdict %s (%s), want allowed", f.URL, f.RobotsVerdict, f.NotJudgedReason)
			}
		}
	}
	if found != 2 {
		t.Errorf("found %d of the login.example.org version and fetch, want 2", found)
	}
}
