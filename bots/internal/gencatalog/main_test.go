package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
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

// TestMain makes the test binary a stand-in for the npm client when
// GENCATALOG_FAKE_NPM names a tarball: "pack SPEC --json ...
// --pack-destination DIR" copies it into DIR as npm would and prints npm's
// JSON report, with the integrity in GENCATALOG_FAKE_INTEGRITY ("" means
// the right one).
func TestMain(m *testing.M) {
	if tgzPath := os.Getenv("GENCATALOG_FAKE_NPM"); tgzPath != "" {
		os.Exit(fakeNPM(tgzPath, os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fakeNPM(tgzPath string, args []string) int {
	if len(args) < 2 || args[0] != "pack" || args[1] != "crawler-user-agents@latest" {
		fmt.Fprintf(os.Stderr, "fake npm: unexpected arguments %q\n", args)
		return 1
	}
	dest := ""
	for i, a := range args {
		if a == "--pack-destination" && i+1 < len(args) {
			dest = args[i+1]
		}
	}
	tgz, err := os.ReadFile(tgzPath)
	if err != nil || dest == "" {
		fmt.Fprintln(os.Stderr, "fake npm:", err, dest)
		return 1
	}
	const name = "crawler-user-agents-9.9.9.tgz"
	if err := os.WriteFile(filepath.Join(dest, name), tgz, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "fake npm:", err)
		return 1
	}
	integrity := os.Getenv("GENCATALOG_FAKE_INTEGRITY")
	if integrity == "" {
		sum := sha512.Sum512(tgz)
		integrity = "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	}
	json.NewEncoder(os.Stdout).Encode([]map[string]any{{"id": "crawler-user-agents@9.9.9",
		"name": "crawler-user-agents", "version": "9.9.9", "filename": name, "integrity": integrity}})
	return 0
}

// useFakeNPM makes the test binary the npm client of run, packing tgz with
// the given integrity; it returns the -npm argument.
func useFakeNPM(t *testing.T, tgz []byte, integrity string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "package.tgz")
	if err := os.WriteFile(p, tgz, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GENCATALOG_FAKE_NPM", p)
	t.Setenv("GENCATALOG_FAKE_INTEGRITY", integrity)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func TestRun(t *testing.T) {
	tgz := tarball(t, map[string]string{
		"package/crawler-user-agents.json": `[{"pattern": "ExampleBot", "instances": ["ExampleBot/1.0"]}]`,
		"package/LICENSE":                  "MIT License (test)",
		"package/index.js":                 "not taken",
	})
	npm := useFakeNPM(t, tgz, "")
	out := t.TempDir()
	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"-out", out, "-npm", npm}, &stderr); err != nil {
		t.Fatalf("run: %v (%s)", err, stderr.String())
	}
	for name, want := range map[string]string{
		"crawler-user-agents.json":    `[{"pattern": "ExampleBot", "instances": ["ExampleBot/1.0"]}]`,
		"crawler-user-agents.LICENSE": "MIT License (test)",
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
	if v.CrawlerUserAgents.Version != "9.9.9" || v.CrawlerUserAgents.Package != "crawler-user-agents@9.9.9" || !strings.HasPrefix(v.CrawlerUserAgents.Integrity, "sha512-") {
		t.Errorf("versions.json: %+v", v)
	}
	// Nothing copied from another repository is written.
	if _, err := os.Stat(filepath.Join(out, "robots.json")); err == nil {
		t.Error("robots.json written")
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			npm := useFakeNPM(t, tt.tgz, tt.integrity)
			args := append([]string{"-out", t.TempDir(), "-npm", npm}, tt.args...)
			err := run(context.Background(), args, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
}
