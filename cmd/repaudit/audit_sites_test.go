package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/output"
)

// sitesFiles writes issue 24's publisher: one vhost_combined log naming
// www and blog, and a dated robots.txt history of each.
func sitesFiles(t *testing.T) (log, www, blog string) {
	t.Helper()
	dir := t.TempDir()
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	www, blog = filepath.Join(dir, "www-robots"), filepath.Join(dir, "blog-robots")
	write(filepath.Join(www, "2025-03-01.txt"), "User-agent: GPTBot\nDisallow: /\n")
	write(filepath.Join(blog, "2025-03-01.txt"), "User-agent: *\nDisallow: /admin/\n")
	const gpt = `"-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot"`
	log = filepath.Join(dir, "logs", "access.log")
	write(log, ""+
		`www.example.org:443 20.171.207.1 - - [02/Mar/2025:09:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 40 `+gpt+"\n"+
		`blog.example.org:443 20.171.207.1 - - [02/Mar/2025:09:00:10 +0000] "GET /robots.txt HTTP/1.1" 200 40 `+gpt+"\n"+
		`www.example.org:443 20.171.207.1 - - [02/Mar/2025:09:01:00 +0000] "GET /news/a HTTP/1.1" 200 512 `+gpt+"\n"+
		`blog.example.org:443 20.171.207.1 - - [02/Mar/2025:09:01:10 +0000] "GET /news/a HTTP/1.1" 200 512 `+gpt+"\n"+
		`blog.example.org:443 20.171.207.1 - - [02/Mar/2025:09:01:20 +0000] "GET /admin/x HTTP/1.1" 200 512 `+gpt+"\n"+
		`shop.example.org:443 20.171.207.1 - - [02/Mar/2025:09:02:00 +0000] "GET /cart HTTP/1.1" 200 512 `+gpt+"\n")
	return log, www, blog
}

// TestAuditSeveralSites drives 'repaudit audit' as the publisher
// did: two --site and two unbound --robots-dir exit 2 before anything is
// written, naming the sites and URL=; bound, they exit 0, both sites are
// judged, and the host without a source is named in the summary and the
// manifest with its count.
func TestAuditSeveralSites(t *testing.T) {
	log, www, blog := sitesFiles(t)
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := runCmd(t, "audit", log, "--site", "https://www.example.org", "--site", "https://blog.example.org",
		"--robots-dir", www, "--robots-dir", blog, "--out", out)
	if code != exitUsage || !strings.Contains(stderr, "URL=") || !strings.Contains(stderr, "https://blog.example.org") || !strings.Contains(stderr, "--robots-dir") {
		t.Fatalf("unbound: exit %d, stderr:\n%s\nwant 2 naming --robots-dir, the sites and URL=", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("unbound: %s written", out)
	}

	code, _, stderr = runCmd(t, "audit", log, "--robots-dir", "https://www.example.org="+www, "--robots-dir", "https://blog.example.org="+blog, "--out", out)
	if code != exitOK {
		t.Fatalf("bound: exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "2 findings") || !strings.Contains(stderr, "https://shop.example.org (1)") || strings.Contains(stderr, "give --robots-dir DIR") {
		t.Errorf("bound: summary does not say 2 findings and name shop.example.org as lacking a source:\n%s", stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m output.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range m.Notices {
		if n.Code == "no-robots-version" {
			found = n.Count == 1 && strings.Contains(n.Message, "on 1 site with no known robots.txt version: https://shop.example.org (1)")
		}
	}
	if !found {
		t.Errorf("manifest notices do not count shop.example.org's fetch: %+v", m.Notices)
	}

	// Unbound, without --site, while the log names three hosts: the
	// tables are written, and the run exits 2 naming the hosts and URL=.
	out2 := filepath.Join(t.TempDir(), "out")
	code, _, stderr = runCmd(t, "audit", log, "--robots-dir", www, "--out", out2)
	if code != exitUsage || !strings.Contains(stderr, "URL=") || !strings.Contains(stderr, "https://shop.example.org") {
		t.Errorf("unbound without --site: exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out2, "manifest.json")); err != nil {
		t.Errorf("unbound without --site: tables not written: %v", err)
	}

	for _, bad := range [][]string{
		{"--robots-dir", "ftp://www.example.org=" + www},
		{"--robots", "https://=x.txt"},
		{"--robots-git", "https://www.exa mple.org=" + www},
		{"--site", "www.example.org"},
	} {
		code, _, stderr := runCmd(t, append([]string{"audit", log, "--out", filepath.Join(t.TempDir(), "o")}, bad...)...)
		if code != exitUsage || !strings.Contains(stderr, bad[0]) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", bad, code, stderr, bad[0])
		}
	}
}
