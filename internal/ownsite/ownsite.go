// Package ownsite is the own-site scenario the audit and Beam tests share:
// a publisher with an nginx combined log (no host in it), the history of
// their robots.txt (two files, a git repository, dated snapshots, a WARC
// of captures) and googlebot.json as Google publishes it (creationTime:
// the day it was downloaded, after the log).
package ownsite

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// The site, its two robots.txt versions and Google's published ranges.
const (
	Site     = "https://news.example.org"
	RobotsV1 = "# news.example.org\nUser-agent: *\nDisallow: /admin/\n\nUser-agent: GPTBot\nDisallow: /archive/\n"
	RobotsV2 = "# news.example.org\nUser-agent: *\nDisallow: /admin/\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /drafts/\n"
	// googlebot.json in the shape Google publishes it, downloaded after the log.
	GooglebotJSON = `{
  "creationTime": "2025-11-20T23:00:45.000000",
  "prefixes": [
    {"ipv6Prefix": "2001:4860:4801:10::/64"},
    {"ipv4Prefix": "66.249.64.0/27"},
    {"ipv4Prefix": "66.249.66.0/27"}
  ]
}
`
)

var (
	V1Time = time.Date(2025, 4, 20, 8, 0, 0, 0, time.UTC)
	V2Time = time.Date(2025, 5, 5, 12, 0, 0, 0, time.UTC)
)

const (
	UAGPTBot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	UAGooglebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	UAClaudeBot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	UAChrome    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
)

// Log is the site's nginx combined log: GPTBot before and after each
// version, a reader, the real Googlebot and two fakes, and ClaudeBot.
func Log() string {
	line := func(ip, ts, path string, status int, ua string) string {
		ref := "-"
		if ua == UAChrome {
			ref = Site + "/" // a reader who came from the front page
		}
		return fmt.Sprintf("%s - - [%s +0000] \"GET %s HTTP/1.1\" %d 5120 \"%s\" \"%s\"\n", ip, ts, path, status, ref, ua)
	}
	return line("20.171.207.10", "01/May/2025:10:00:00", "/robots.txt", 200, UAGPTBot) +
		line("20.171.207.10", "01/May/2025:10:05:00", "/news/a", 200, UAGPTBot) +
		line("20.171.207.10", "01/May/2025:10:06:00", "/archive/old", 200, UAGPTBot) + // v1 line 6
		line("198.51.100.7", "01/May/2025:11:00:00", "/news/a", 200, UAChrome) +
		line("66.249.66.1", "06/May/2025:00:00:00", "/robots.txt", 200, UAGooglebot) +
		line("66.249.66.1", "06/May/2025:00:10:00", "/drafts/x", 200, UAGooglebot) + // real Googlebot, v2 line 10
		line("185.220.101.34", "06/May/2025:01:00:00", "/drafts/y", 200, UAGooglebot) + // fake: Tor exit
		line("20.171.207.10", "06/May/2025:09:00:00", "/robots.txt", 200, UAGPTBot) +
		line("20.171.207.10", "06/May/2025:09:10:00", "/news/b", 200, UAGPTBot) + // v2 line 6
		line("45.146.164.110", "07/May/2025:08:00:00", "/drafts/z", 200, UAGooglebot) + // fake: a VPS, stale view
		line("160.79.104.10", "08/May/2025:10:00:00", "/admin/panel", 200, UAClaudeBot) // never fetched robots.txt
}

// WARC is the same two robots.txt versions captured in a WARC.
func WARC() string {
	rec := func(id string, at time.Time, body string) string {
		http := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + fmt.Sprint(len(body)) + "\r\n\r\n" + body
		return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: " + Site + "/robots.txt\r\n" +
			"WARC-Date: " + at.Format(time.RFC3339) + "\r\nWARC-Record-ID: <urn:uuid:" + id + ">\r\n" +
			"Content-Type: application/http; msgtype=response\r\nContent-Length: " + fmt.Sprint(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	}
	return rec("6f2d1c9e-0000-4000-8000-000000000001", V1Time, RobotsV1) + rec("6f2d1c9e-0000-4000-8000-000000000002", V2Time, RobotsV2)
}

// gitRepo builds a site repository with go-git: a page, then the two
// robots.txt versions committed at their times.
func gitRepo(t testing.TB, dir string) {
	t.Helper()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	commit := func(name, body string, when time.Time, msg string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			t.Fatal(err)
		}
		sig := &object.Signature{Name: "Web Team", Email: "web@example.org", When: when}
		if _, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
			t.Fatal(err)
		}
	}
	commit("index.html", "<h1>News</h1>", V1Time.Add(-72*time.Hour), "first page")
	commit("robots.txt", RobotsV1, V1Time, "robots.txt: keep GPTBot out of the archive")
	commit("index.html", "<h1>The News</h1>", V1Time.Add(24*time.Hour), "title")
	commit("robots.txt", RobotsV2, V2Time, "robots.txt: block GPTBot, keep Googlebot out of drafts")
}

// Files are the scenario's files, written by Write.
type Files struct {
	Dir       string // the temporary directory holding them all
	Log       string // access.log
	WARC      string // robots-captures.warc: both versions captured
	Repo      string // site/: a git repository with both versions committed
	Snaps     string // snapshots/: both versions named by their times
	V1, V2    string // robots-v1.txt, robots-v2.txt
	Ranges    string // googlebot.json
	RangesDir string // ranges/: googlebot.json, for --ip-ranges-dir
}

// Write writes the scenario's files into a new temporary directory of t.
func Write(t testing.TB) Files {
	t.Helper()
	d := t.TempDir()
	f := Files{
		Dir: d, Log: filepath.Join(d, "access.log"), WARC: filepath.Join(d, "robots-captures.warc"),
		Repo: filepath.Join(d, "site"), Snaps: filepath.Join(d, "snapshots"),
		V1: filepath.Join(d, "robots-v1.txt"), V2: filepath.Join(d, "robots-v2.txt"),
		Ranges: filepath.Join(d, "googlebot.json"), RangesDir: filepath.Join(d, "ranges"),
	}
	for _, dir := range []string{f.Snaps, f.RangesDir} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, body := range map[string]string{
		f.Log: Log(), f.WARC: WARC(), f.V1: RobotsV1, f.V2: RobotsV2, f.Ranges: GooglebotJSON,
		filepath.Join(f.RangesDir, "googlebot.json"):              GooglebotJSON,
		filepath.Join(f.Snaps, "2025-04-20T08:00:00Z.txt"):        RobotsV1,
		filepath.Join(f.Snaps, "robots-2025-05-05T12:00:00Z.txt"): RobotsV2,
	} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRepo(t, f.Repo)
	return f
}
