package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tarball(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(tw, body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// registry serves the npm metadata of crawler-user-agents and its tarball
// on loopback; integrity "" means the right one.
func registry(t *testing.T, tgz []byte, integrity string) *httptest.Server {
	t.Helper()
	if integrity == "" {
		sum := sha512.Sum512(tgz)
		integrity = "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	}
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/crawler-user-agents/latest":
			json.NewEncoder(w).Encode(map[string]any{"version": "9.9.9", "dist": map[string]string{
				"tarball": srv.URL + "/crawler-user-agents/-/crawler-user-agents-9.9.9.tgz", "integrity": integrity}})
		case "/crawler-user-agents/-/crawler-user-agents-9.9.9.tgz":
			w.Write(tgz)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRun(t *testing.T) {
	tgz := tarball(t, map[string]string{
		"package/crawler-user-agents.json": `[{"pattern": "ExampleBot", "instances": ["ExampleBot/1.0"]}]`,
		"package/LICENSE":                  "MIT License (test)",
		"package/index.js":                 "not taken",
	})
	srv := registry(t, tgz, "")
	out := t.TempDir()
	src := t.TempDir()
	robots := filepath.Join(src, "robots.json")
	os.WriteFile(robots, []byte(`{"ExampleBot": {"operator": "Example"}}`), 0o644)
	os.WriteFile(filepath.Join(src, "LICENSE"), []byte("MIT (ai.robots.txt test)"), 0o644)
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"-out", out, "-registry", srv.URL, "-robots", robots,
		"-robots-commit", strings.Repeat("a", 40), "-robots-date", "2026-01-02T03:04:05Z"}, &stderr)
	if err != nil {
		t.Fatalf("run: %v (%s)", err, stderr.String())
	}
	for name, want := range map[string]string{
		"crawler-user-agents.json":    `[{"pattern": "ExampleBot", "instances": ["ExampleBot/1.0"]}]`,
		"crawler-user-agents.LICENSE": "MIT License (test)",
		"robots.json":                 `{"ExampleBot": {"operator": "Example"}}`,
		"ai.robots.txt.LICENSE":       "MIT (ai.robots.txt test)",
	} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || string(got) != want {
			t.Errorf("%s: got %q (%v), want %q", name, got, err, want)
		}
	}
	var v Versions
	b, _ := os.ReadFile(filepath.Join(out, "versions.json"))
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.CrawlerUserAgents.Version != "9.9.9" || !strings.HasPrefix(v.CrawlerUserAgents.Integrity, "sha512-") ||
		v.AIRobotsTxt.Commit != strings.Repeat("a", 40) || v.AIRobotsTxt.CommitDate != "2026-01-02T03:04:05Z" {
		t.Errorf("versions.json: %+v", v)
	}

	// Without -robots the committed robots.json and its commit are kept.
	if err := run(context.Background(), []string{"-out", out, "-registry", srv.URL}, &stderr); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(filepath.Join(out, "versions.json"))
	json.Unmarshal(b, &v)
	if v.AIRobotsTxt.Commit != strings.Repeat("a", 40) {
		t.Errorf("commit not kept: %+v", v.AIRobotsTxt)
	}
}

func TestRunRejects(t *testing.T) {
	good := tarball(t, map[string]string{"package/crawler-user-agents.json": `[{"pattern": "x"}]`, "package/LICENSE": "MIT"})
	tests := []struct {
		name      string
		tgz       []byte
		integrity string
		args      []string
		want      string
	}{
		{"bad integrity", good, "sha512-AAAA", nil, "integrity"},
		{"no sha512", good, "sha1-abc", nil, "no sha512"},
		{"missing member", tarball(t, map[string]string{"package/LICENSE": "MIT"}), "", nil, "has no package/crawler-user-agents.json"},
		{"not a list", tarball(t, map[string]string{"package/crawler-user-agents.json": `{}`, "package/LICENSE": "MIT"}), "", nil, "not a JSON array"},
		{"robots without commit", good, "", []string{"-robots", "x.json"}, "-robots-commit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registry(t, tt.tgz, tt.integrity)
			args := append([]string{"-out", t.TempDir(), "-registry", srv.URL}, tt.args...)
			err := run(context.Background(), args, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
}
