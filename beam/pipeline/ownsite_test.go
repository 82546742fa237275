package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/output"
)

// The own-site scenario of audit/ownsite_test.go: a publisher's combined
// log (no host in it), the history of their robots.txt kept in files, in
// git, in dated snapshots and captured in a WARC, and Google's published
// IP ranges.
const (
	ownSite  = "https://news.example.org"
	robotsV1 = "# news.example.org\nUser-agent: *\nDisallow: /admin/\n\nUser-agent: GPTBot\nDisallow: /archive/\n"
	robotsV2 = "# news.example.org\nUser-agent: *\nDisallow: /admin/\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /drafts/\n"
	// googlebot.json in the shape Google publishes it.
	ownGooglebotJSON = `{
  "creationTime": "2025-11-20T23:00:45.000000",
  "prefixes": [
    {"ipv4Prefix": "66.249.64.0/27"},
    {"ipv4Prefix": "66.249.66.0/27"}
  ]
}
`
	uaGPTBot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	uaGooglebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaClaudeBot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	uaChrome    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
)

var (
	ownV1Time = time.Date(2025, 4, 20, 8, 0, 0, 0, time.UTC)
	ownV2Time = time.Date(2025, 5, 5, 12, 0, 0, 0, time.UTC)
)

func ownLog() string {
	line := func(ip, ts, path string, status int, ua string) string {
		return fmt.Sprintf("%s - - [%s +0000] \"GET %s HTTP/1.1\" %d 5120 \"-\" \"%s\"\n", ip, ts, path, status, ua)
	}
	return line("20.171.207.10", "01/May/2025:10:00:00", "/robots.txt", 200, uaGPTBot) +
		line("20.171.207.10", "01/May/2025:10:05:00", "/news/a", 200, uaGPTBot) +
		line("20.171.207.10", "01/May/2025:10:06:00", "/archive/old", 200, uaGPTBot) +
		line("198.51.100.7", "01/May/2025:11:00:00", "/news/a", 200, uaChrome) +
		line("66.249.66.1", "06/May/2025:00:00:00", "/robots.txt", 200, uaGooglebot) +
		line("66.249.66.1", "06/May/2025:00:10:00", "/drafts/x", 200, uaGooglebot) +
		line("185.220.101.34", "06/May/2025:01:00:00", "/drafts/y", 200, uaGooglebot) +
		line("20.171.207.10", "06/May/2025:09:00:00", "/robots.txt", 200, uaGPTBot) +
		line("20.171.207.10", "06/May/2025:09:10:00", "/news/b", 200, uaGPTBot) +
		line("45.146.164.110", "07/May/2025:08:00:00", "/drafts/z", 200, uaGooglebot) +
		line("160.79.104.10", "08/May/2025:10:00:00", "/admin/panel", 200, uaClaudeBot)
}

// ownWARC is the two robots.txt versions captured in a WARC.
func ownWARC() string {
	rec := func(id string, at time.Time, body string) string {
		http := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + fmt.Sprint(len(body)) + "\r\n\r\n" + body
		return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: " + ownSite + "/robots.txt\r\n" +
			"WARC-Date: " + at.Format(time.RFC3339) + "\r\nWARC-Record-ID: <urn:uuid:" + id + ">\r\n" +
			"Content-Type: application/http; msgtype=response\r\nContent-Length: " + fmt.Sprint(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	}
	return rec("6f2d1c9e-0000-4000-8000-000000000001", ownV1Time, robotsV1) + rec("6f2d1c9e-0000-4000-8000-000000000002", ownV2Time, robotsV2)
}

type ownFiles struct {
	dir, log, warc, repo, snaps, v1, v2, ranges, rangesDir string
}

func writeOwnFiles(t *testing.T) ownFiles {
	t.Helper()
	d := t.TempDir()
	f := ownFiles{
		dir: d, log: filepath.Join(d, "access.log"), warc: filepath.Join(d, "robots-captures.warc"),
		repo: filepath.Join(d, "site"), snaps: filepath.Join(d, "snapshots"),
		v1: filepath.Join(d, "robots-v1.txt"), v2: filepath.Join(d, "robots-v2.txt"),
		ranges: filepath.Join(d, "googlebot.json"), rangesDir: filepath.Join(d, "ranges"),
	}
	for _, dir := range []string{f.snaps, f.rangesDir} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, body := range map[string]string{
		f.log: ownLog(), f.warc: ownWARC(), f.v1: robotsV1, f.v2: robotsV2, f.ranges: ownGooglebotJSON,
		filepath.Join(f.rangesDir, "googlebot.json"):              ownGooglebotJSON,
		filepath.Join(f.snaps, "2025-04-20T08:00:00Z.txt"):        robotsV1,
		filepath.Join(f.snaps, "robots-2025-05-05T12:00:00Z.txt"): robotsV2,
	} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repo, err := git.PlainInit(f.repo, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	commit := func(name, body string, when time.Time, msg string) {
		if err := os.WriteFile(filepath.Join(f.repo, name), []byte(body), 0o644); err != nil {
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
	commit("index.html", "<h1>News</h1>", ownV1Time.Add(-72*time.Hour), "first page")
	commit("robots.txt", robotsV1, ownV1Time, "robots.txt: keep GPTBot out of the archive")
	commit("robots.txt", robotsV2, ownV2Time, "robots.txt: block GPTBot, keep Googlebot out of drafts")
	return f
}

// compareWithAudit runs the pipeline and audit.Run on cfg and checks every
// table as a multiset and the manifest's inputs; it returns audit's error
// (an ErrInputs when an input failed).
func compareWithAudit(t *testing.T, cfg Config) error {
	t.Helper()
	_, err := compareWithAuditOut(t, cfg)
	return err
}

// compareWithAuditOut is compareWithAudit that also returns the
// pipeline's output directory.
func compareWithAuditOut(t *testing.T, cfg Config) (string, error) {
	t.Helper()
	dir := t.TempDir()
	cfg.Out = filepath.Join(dir, "beam")
	runPipeline(t, cfg)
	acfg := auditConfig(cfg)
	acfg.Out = filepath.Join(dir, "audit")
	_, aerr := audit.Run(context.Background(), acfg)
	if aerr != nil && !errors.Is(aerr, audit.ErrInputs) {
		t.Fatal(aerr)
	}
	compareOutputs(t, acfg.Out, cfg.Out)
	am, err := output.ReadManifest(acfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	bm, err := output.ReadManifest(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(bm.Inputs, am.Inputs) {
		t.Errorf("manifest inputs:\n got %+v\nwant %+v", bm.Inputs, am.Inputs)
	}
	if bm.AsOf != am.AsOf {
		t.Errorf("manifest as_of %s, audit %s", bm.AsOf, am.AsOf)
	}
	compareManifestNotes(t, am, bm)
	return cfg.Out, aerr
}

// TestOwnSiteSourcesSameRowsAsAudit: --robots FILE[@TIME], --robots-git,
// --robots-dir, --ip-ranges-dir, a robots.txt among the inputs, and the
// site given with --site or inferred from the one authority the inputs
// name (or not settled at all) give the rows `audit` gives.
func TestOwnSiteSourcesSameRowsAsAudit(t *testing.T) {
	f := writeOwnFiles(t)
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"files, site given", Config{Inputs: []string{f.log}, Robots: []string{f.v1 + "@2025-04-20T08:00:00Z", f.v2 + "@2025-05-05T12:00:00Z"},
			IPRanges: map[string][]string{"Googlebot": {f.ranges}}, Eval: evaluate.Options{DefaultAuthority: ownSite}}},
		{"git, ip-ranges-dir, site given", Config{Inputs: []string{f.log}, RobotsGit: []string{f.repo}, IPRangesDirs: []string{f.rangesDir},
			Eval: evaluate.Options{DefaultAuthority: ownSite}}},
		{"snapshots, file without time", Config{Inputs: []string{f.log}, RobotsDir: []string{f.snaps}, Robots: []string{f.v2},
			Eval: evaluate.Options{DefaultAuthority: ownSite}}},
		{"warc, site inferred", Config{Inputs: []string{f.log, f.warc}, IPRangesDirs: []string{f.rangesDir}}},
		{"git and robots.txt input, site inferred from the warc", Config{Inputs: []string{f.log, f.warc, f.v2}, RobotsGit: []string{f.repo}}},
		{"no site settled", Config{Inputs: []string{f.log}, RobotsGit: []string{f.repo}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := compareWithAudit(t, tc.cfg); err != nil {
				t.Errorf("audit: %v", err)
			}
		})
	}
}

// TestUnreadableInputsLikeAudit: a missing input, a missing --robots file,
// a corrupt compressed log and the same log given twice give the rows
// `audit` gives; the rest is judged.
func TestUnreadableInputsLikeAudit(t *testing.T) {
	f := writeOwnFiles(t)
	dup := filepath.Join(f.dir, "access-copy.log")
	bad := filepath.Join(f.dir, "broken.log.gz")
	if err := os.WriteFile(dup, []byte(ownLog()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03not deflate at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Inputs: []string{f.log, dup, bad, filepath.Join(f.dir, "nope.log")},
		Robots: []string{filepath.Join(f.dir, "missing-robots.txt")}, RobotsGit: []string{f.repo},
		Eval: evaluate.Options{DefaultAuthority: ownSite}}
	err := compareWithAudit(t, cfg)
	if !errors.Is(err, audit.ErrInputs) || !strings.Contains(err.Error(), "nope.log") || !strings.Contains(err.Error(), "broken.log.gz") {
		t.Errorf("audit: %v, want an input error naming nope.log and broken.log.gz", err)
	}
}
