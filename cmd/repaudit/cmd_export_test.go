package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/retention"
	"github.com/repaudit/repaudit/surt"
	"github.com/repaudit/repaudit/warc"
)

const exportUA = "Mozilla/5.0 (compatible; ExampleArchiver/1.0; +https://archive.example.org/bot)"

// exportRobots forbids /private/ to every crawler and, in ACAP 1.0
// records (ACAP §2.5.4.1 time-limits), lets /tl-recrawl/ be preserved
// until it is recrawled and /tl-days/ for 30 days.
const exportRobots = `##ACAP version=1.0
User-agent: *
Disallow: /private/

ACAP-crawler: *
ACAP-allow-preserve: /tl-recrawl/ time-limit=until-recrawled
ACAP-allow-preserve: /tl-days/ time-limit=30-days
`

// exportCapture is one capture of the held-out crawl and the action the
// audit must give it as of exportAsOf.
type exportCapture struct {
	at, path, header, body string
	action                 string
}

var exportAsOf = time.Date(2025, 4, 15, 0, 0, 0, 0, time.UTC)

var exportCaptures = []exportCapture{
	{"2025-03-01T00:00:00Z", "/robots.txt", "Content-Type: text/plain", exportRobots, "keep"},
	{"2025-03-01T00:01:00Z", "/private/report", "", "secret", "review"},   // robots.txt disallow
	{"2025-03-01T00:02:00Z", "/tl-recrawl/a", "", "first", "delete"},      // recrawled on 03-10: limit passed
	{"2025-03-01T00:03:00Z", "/tl-recrawl/ab", "", "longer name", "keep"}, // same prefix, never recrawled
	{"2025-03-01T00:04:00Z", "/tl-recrawl/a/child", "", "below", "keep"},  // below the URL, never recrawled
	{"2025-03-01T00:05:00Z", "/tl-days/old", "", "old", "delete"},         // 30 days ended 03-31
	{"2025-03-01T00:06:00Z", "/event", "X-Robots-Tag: unavailable_after: 1 Apr 2025 00:00:00 GMT", "e", "embargo"},
	{"2025-03-01T00:08:00Z", "/event/sub", "", "below a hidden URL", "keep"},
	{"2025-03-01T00:07:00Z", "/event2", "", "first, unrestricted", "keep"}, // kept, then hidden: an "after" rule
	{"2025-03-10T00:00:00Z", "/tl-recrawl/a", "", "second", "keep"},        // the recrawl: kept
	{"2025-03-20T00:00:00Z", "/event2", "X-Robots-Tag: unavailable_after: 2 Apr 2025 00:00:00 GMT", "e2", "embargo"},
	{"2025-04-01T00:00:00Z", "/tl-days/new", "", "new", "keep"}, // deadline 2025-05-01: upcoming
}

// writeExportWARC writes the held-out crawl: every capture with the
// archive crawler's request record, so the audit judges each as that
// crawler's fetch.
func writeExportWARC(t *testing.T, path string) {
	t.Helper()
	var buf bytes.Buffer
	n := 0
	w := warc.NewWriter(&buf, warc.WriterOptions{NewID: func() string {
		n++
		return fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", n)
	}})
	if _, err := w.WriteWarcinfo(time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), "crawl.warc.gz",
		event.Header{{Name: "software", Value: "repaudit export test"}, {Name: "isPartOf", Value: "export-test-crawl"}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range exportCaptures {
		at, err := time.Parse(time.RFC3339, c.at)
		if err != nil {
			t.Fatal(err)
		}
		head := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
		if c.header != "" {
			head += c.header + "\r\n"
		}
		head += fmt.Sprintf("Content-Length: %d\r\n\r\n", len(c.body))
		req := "GET " + c.path + " HTTP/1.1\r\nHost: www.example.org\r\nUser-Agent: " + exportUA + "\r\n\r\n"
		if err := w.WriteExchange(&warc.Exchange{URL: "https://www.example.org" + c.path, Time: at,
			Request: []byte(req), ResponseHead: []byte(head), Body: []byte(c.body)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestExportPywbACLDoneWhen audits a crawl that has a robots.txt
// disallow, ACAP time-limits (one passed, one still to come), an
// unavailable_after, and URLs captured twice with one capture to hide and
// one to keep; exports pywb-acl; and looks up every capture as pywb
// would (pywbLookup): kept captures stay visible, the others are hidden.
func TestExportPywbACLDoneWhen(t *testing.T) {
	dir := t.TempDir()
	warcFile := filepath.Join(dir, "crawl.warc.gz")
	writeExportWARC(t, warcFile)
	out := filepath.Join(dir, "audit")
	if code, _, stderr := runCmd(t, "audit", warcFile, "--as-of", exportAsOf.Format(time.RFC3339), "--out", out); code != exitOK {
		t.Fatalf("audit exit %d: %s", code, stderr)
	}
	// The audit's own verdicts, first: the test is about the export.
	var rows []*retention.Capture
	if err := retention.ReadDir(out)(func(c *retention.Capture) error { rows = append(rows, c); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(exportCaptures) {
		t.Fatalf("retention rows = %d, want %d", len(rows), len(exportCaptures))
	}
	for _, r := range rows {
		want := exportAction(t, r)
		if r.Action != want {
			t.Errorf("retention %s %s = %s (%s), want %s", r.URL, r.Time.Format(time.RFC3339), r.Action, r.Reason, want)
		}
	}
	aclFile := filepath.Join(dir, "rules.aclj")
	code, stdout, stderr := runCmd(t, "export", out, "--format", "pywb-acl", "-o", aclFile)
	if code != exitOK || stdout != "" {
		t.Fatalf("export exit %d, stdout %q: %s", code, stdout, stderr)
	}
	acl, err := os.ReadFile(aclFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, blockSize := range []int{8192, 64, 16} {
		for _, r := range rows {
			got := pywbLookup(t, acl, blockSize, r.URL, r.Time.UTC().Format(retention.Timestamp))
			want := map[string]string{"keep": "allow", "delete": "exclude", "embargo": "block", "review": "block"}[r.Action]
			if got != want {
				t.Errorf("block size %d: pywb access for %s at %s (%s) = %s, want %s\nACL:\n%s",
					blockSize, r.URL, r.Time.Format(time.RFC3339), r.Action, got, want, acl)
			}
		}
	}
	for _, want := range []string{"upcoming: 2025-05-01T00:00:00Z time-limit ends: https://www.example.org/tl-days/new", "5 rules hide 5 of 12 captures"} {
		if !strings.Contains(string(acl), want) || !strings.Contains(stderr, want) {
			t.Errorf("export file and stderr should say %q; file:\n%s\nstderr:\n%s", want, acl, stderr)
		}
	}
	if strings.Contains(stderr, "conflict") {
		t.Errorf("stderr names a conflict, want none (pywb's date fields separate every capture):\n%s", stderr)
	}
}

// exportAction is the action exportCaptures gives the row's capture.
func exportAction(t *testing.T, r *retention.Capture) string {
	t.Helper()
	for _, c := range exportCaptures {
		if "https://www.example.org"+c.path == r.URL && r.Time.UTC().Format(time.RFC3339) == c.at {
			return c.action
		}
	}
	t.Fatalf("unexpected retention row %s %s", r.URL, r.Time)
	return ""
}

// pywbLookup is pywb's access decision for a capture of url at the
// 14-digit timestamp ts, re-implemented from pywb 2.10's
// pywb/warcserver/access_checker.py (FileAccessIndexSource._do_iter,
// AccessChecker.find_access_rule, check_date_access and wrap_iter) and
// pywb/utils/binsearch.py (search: binsearch_offset then linearsearch
// with prev_size=1, compared with rev_cmp over the reverse-sorted file),
// with the collection's default access "allow" and no user. The key is
// pywb's canonicalize(url), which package surt reproduces.
func pywbLookup(t *testing.T, acl []byte, blockSize int, url, ts string) string {
	t.Helper()
	key, err := surt.Key(url)
	if err != nil {
		t.Fatal(err)
	}
	lines := pywbSearch(acl, key+"####", blockSize)
	rule := pywbFindRule(t, lines, key)
	if rule == nil {
		return "allow" // the default rule
	}
	access, ok := rule["access"].(string)
	if !ok {
		access = "exclude" // wrap_iter: rule.get('access', 'exclude')
	}
	// check_date_access: a date field not met gives the default access.
	if before, _ := rule["before"].(string); before != "" {
		if !pywbTime(t, ts).Before(pywbTime(t, before)) {
			return "allow"
		}
	} else if after, _ := rule["after"].(string); after != "" {
		if !pywbTime(t, ts).After(pywbTime(t, after)) {
			return "allow"
		}
	}
	return access
}

// pywbSearch is binsearch.search(fh, key, prev_size=1,
// compare_func=rev_cmp) over the file's bytes.
func pywbSearch(data []byte, key string, blockSize int) []string {
	readLine := func(pos int) (string, int) { // readline(): up to and with '\n'
		if pos >= len(data) {
			return "", pos
		}
		i := bytes.IndexByte(data[pos:], '\n')
		if i < 0 {
			return string(data[pos:]), len(data)
		}
		return string(data[pos : pos+i+1]), pos + i + 1
	}
	lo, hi := 0, len(data)/blockSize // binsearch_offset
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		pos := mid * blockSize
		if mid > 0 {
			_, pos = readLine(pos)
		}
		line, _ := readLine(pos)
		if key < line { // rev_cmp(key, line) > 0
			lo = mid
		} else {
			hi = mid
		}
	}
	pos := lo * blockSize
	if lo > 0 {
		_, pos = readLine(pos)
	}
	var all []string
	for {
		line, next := readLine(pos)
		if line == "" {
			break
		}
		all = append(all, strings.TrimRight(line, " \t\r\n"))
		pos = next
	}
	// linearsearch: stop at the first line <= key, keeping one line before.
	for i, line := range all {
		if line <= key {
			if i > 0 {
				return all[i-1:]
			}
			return all[i:]
		}
	}
	if len(all) > 1 {
		return all[len(all)-1:]
	}
	return nil
}

// pywbFindRule is AccessChecker.find_access_rule's loop without users.
func pywbFindRule(t *testing.T, lines []string, key string) map[string]any {
	t.Helper()
	keyExact := key + "###"
	tld, _, _ := strings.Cut(key, ",")
	for _, line := range lines {
		if line == "" {
			continue
		}
		aclKey, _, _ := strings.Cut(line, " ")
		if aclKey == keyExact || strings.HasPrefix(key, aclKey) || aclKey == "*," {
			return pywbRule(t, line) // no "user": the first match is returned
		}
		if aclKey < tld {
			break
		}
	}
	return nil
}

// pywbRule parses "KEY TIMESTAMP {json}" as CDXObject does.
func pywbRule(t *testing.T, line string) map[string]any {
	t.Helper()
	parts := strings.SplitN(line, " ", 3)
	if len(parts) != 3 {
		t.Fatalf("ACL line %q: want KEY - {json}", line)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(parts[2]), &m); err != nil {
		t.Fatalf("ACL line %q: %v", line, err)
	}
	return m
}

// pywbTime reads a 14-digit timestamp, as warcio's timestamp_to_datetime.
func pywbTime(t *testing.T, ts string) time.Time {
	t.Helper()
	v, err := time.Parse(retention.Timestamp, ts)
	if err != nil {
		t.Fatalf("timestamp %q: %v", ts, err)
	}
	return v
}

// TestExportWaybackAndCDX exports the same audit as an OpenWayback
// exclusion list, which has no time and matches prefixes, so every kept
// capture a line also hides is named on stderr; and as the CDX lines of
// the captures to remove.
func TestExportWaybackAndCDX(t *testing.T) {
	dir := t.TempDir()
	warcFile := filepath.Join(dir, "crawl.warc.gz")
	writeExportWARC(t, warcFile)
	out := filepath.Join(dir, "audit")
	if code, _, stderr := runCmd(t, "audit", warcFile, "--as-of", exportAsOf.Format(time.RFC3339), "--out", out); code != exitOK {
		t.Fatalf("audit exit %d: %s", code, stderr)
	}
	excl := filepath.Join(dir, "exclusions.txt")
	code, _, stderr := runCmd(t, "export", out, "--format", "wayback-exclusions", "-o", excl)
	if code != exitOK {
		t.Fatalf("export exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(excl)
	if err != nil {
		t.Fatal(err)
	}
	want := "https://www.example.org/event\nhttps://www.example.org/event2\nhttps://www.example.org/private/report\n" +
		"https://www.example.org/tl-days/old\nhttps://www.example.org/tl-recrawl/a\n"
	if string(got) != want {
		t.Errorf("exclusions:\n%s\nwant:\n%s", got, want)
	}
	for _, w := range []string{
		"rule for https://www.example.org/tl-recrawl/a (org,example)/tl-recrawl/a) also hides 3 kept capture(s): " +
			"https://www.example.org/tl-recrawl/ab 2025-03-01T00:03:00Z",
		"https://www.example.org/tl-recrawl/a/child 2025-03-01T00:04:00Z",
		"https://www.example.org/tl-recrawl/a 2025-03-10T00:00:00Z",
		"rule for https://www.example.org/event (org,example)/event) also hides 2 kept capture(s)",
		"rule for https://www.example.org/event2 (org,example)/event2) also hides 1 kept capture(s)",
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}

	cdx := filepath.Join(dir, "remove.cdx")
	if code, _, stderr := runCmd(t, "export", out, "--format", "cdx", "-o", cdx); code != exitOK {
		t.Fatalf("export exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(cdx)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if lines[0] != " CDX N b a m s k r M S V g" {
		t.Errorf("CDX legend = %q", lines[0])
	}
	var rows []string
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "#") {
			f := strings.Fields(l)
			if len(f) != 11 {
				t.Fatalf("CDX line %q: %d fields, want 11", l, len(f))
			}
			rows = append(rows, f[0]+" "+f[1]+" "+f[4])
		}
	}
	wantRows := []string{
		"org,example)/event 20250301000600 200",
		"org,example)/event2 20250320000000 200",
		"org,example)/private/report 20250301000100 200",
		"org,example)/tl-days/old 20250301000500 200",
		"org,example)/tl-recrawl/a 20250301000200 200",
	}
	if strings.Join(rows, "\n") != strings.Join(wantRows, "\n") {
		t.Errorf("CDX rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(wantRows, "\n"))
	}
	// Offsets name the records to remove.
	var recs []*retention.Capture
	if err := retention.ReadDir(out)(func(c *retention.Capture) error { recs = append(recs, c); return nil }); err != nil {
		t.Fatal(err)
	}
	for _, c := range recs {
		line := fmt.Sprintf("%s - %d - - - %d %d %s\n", c.URL, c.Status, c.Length, c.Offset, c.WARCFile)
		if c.Action != "keep" && !strings.Contains(string(data), line) {
			t.Errorf("CDX file lacks %q", line)
		}
	}
}

func TestExportUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"export"},
		{"export", dir, "-o", filepath.Join(dir, "x")},
		{"export", dir, "--format", "pywb-acl"},
		{"export", dir, "--format", "nope", "-o", filepath.Join(dir, "x")},
		{"export", dir, "--format", "cdx", "-o", filepath.Join(dir, "x")}, // no manifest
	} {
		if code, _, stderr := runCmd(t, args...); code != exitUsage || stderr == "" {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 with a message", args, code, stderr)
		}
	}
}
