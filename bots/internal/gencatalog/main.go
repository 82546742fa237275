// Command gencatalog refreshes the maintained data the bot catalog is built
// from (bots/data): the crawler-user-agents list from the npm registry and
// ai.robots.txt's robots.json from a local copy, and records their versions
// in bots/data/versions.json. It runs from "go generate ./bots/"; see
// bots/doc.go.
//
//	go run ./internal/gencatalog -out data \
//	    [-version 1.60.0] [-registry https://registry.npmjs.org] \
//	    [-robots PATH -robots-commit HASH [-robots-date RFC3339]]
//
// crawler-user-agents comes from the registry itself: the package's
// metadata names the tarball and its sha512 integrity, which is checked
// before crawler-user-agents.json and LICENSE are taken out of it.
//
// robots.json is not downloaded: the GitHub host is not reachable from the
// machines this project is built on. Give a checked-out copy with -robots
// (or $REPAUDIT_ROBOTS_JSON) and the commit it came from with
// -robots-commit (or $REPAUDIT_ROBOTS_COMMIT), e.g. from
// "git -C ai.robots.txt show HEAD:robots.json > /tmp/robots.json" and
// "git -C ai.robots.txt rev-parse HEAD". Without -robots the committed
// robots.json and its recorded commit are kept. Its LICENSE is copied when
// a file named LICENSE sits next to the given robots.json.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Versions is the shape of bots/data/versions.json (bots.DataVersions reads it).
type Versions struct {
	CrawlerUserAgents struct {
		Version   string `json:"version"`
		Tarball   string `json:"tarball"`
		Integrity string `json:"integrity"`
	} `json:"crawler-user-agents"`
	AIRobotsTxt struct {
		Commit     string `json:"commit"`
		CommitDate string `json:"commit_date,omitempty"`
		Repository string `json:"repository"`
	} `json:"ai.robots.txt"`
}

const (
	maxMeta    = 8 << 20  // bytes of registry metadata read
	maxTarball = 32 << 20 // bytes of tarball read
	maxFile    = 16 << 20 // bytes of one extracted file
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gencatalog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "data", "output `directory`")
	version := fs.String("version", "latest", "crawler-user-agents `version` to fetch")
	registry := fs.String("registry", "https://registry.npmjs.org", "npm registry `URL`")
	robots := fs.String("robots", os.Getenv("REPAUDIT_ROBOTS_JSON"), "ai.robots.txt robots.json `file` (default $REPAUDIT_ROBOTS_JSON; empty keeps the committed one)")
	commit := fs.String("robots-commit", os.Getenv("REPAUDIT_ROBOTS_COMMIT"), "ai.robots.txt `commit` the robots.json comes from (default $REPAUDIT_ROBOTS_COMMIT)")
	date := fs.String("robots-date", os.Getenv("REPAUDIT_ROBOTS_DATE"), "that commit's `time` (RFC 3339), optional")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *robots != "" && *commit == "" {
		return errors.New("-robots needs -robots-commit (the ai.robots.txt commit it comes from)")
	}
	var v Versions
	if b, err := os.ReadFile(filepath.Join(*out, "versions.json")); err == nil {
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("read %s: %w", filepath.Join(*out, "versions.json"), err)
		}
	}
	client := &http.Client{Timeout: 2 * time.Minute}
	if err := fetchCUA(ctx, client, *registry, *version, *out, &v); err != nil {
		return fmt.Errorf("crawler-user-agents: %w", err)
	}
	if *robots != "" {
		if err := copyRobots(*robots, *out); err != nil {
			return err
		}
		v.AIRobotsTxt.Commit = *commit
		v.AIRobotsTxt.CommitDate = *date
	}
	v.AIRobotsTxt.Repository = "https://github.com/ai-robots-txt/ai.robots.txt"
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(*out, "versions.json"), append(b, '\n'), 0o644)
}

func get(ctx context.Context, client *http.Client, url string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("get %s: %s", url, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", url, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("get %s: larger than %d bytes", url, limit)
	}
	return b, nil
}

func fetchCUA(ctx context.Context, client *http.Client, registry, version, out string, v *Versions) error {
	meta, err := get(ctx, client, strings.TrimRight(registry, "/")+"/crawler-user-agents/"+version, maxMeta)
	if err != nil {
		return err
	}
	var m struct {
		Version string `json:"version"`
		Dist    struct {
			Tarball   string `json:"tarball"`
			Integrity string `json:"integrity"`
		} `json:"dist"`
	}
	if err := json.Unmarshal(meta, &m); err != nil {
		return fmt.Errorf("registry metadata: %w", err)
	}
	if m.Version == "" || m.Dist.Tarball == "" {
		return errors.New("registry metadata names no version or tarball")
	}
	tgz, err := get(ctx, client, m.Dist.Tarball, maxTarball)
	if err != nil {
		return err
	}
	if err := checkIntegrity(tgz, m.Dist.Integrity); err != nil {
		return err
	}
	files, err := untar(tgz, map[string]string{
		"package/crawler-user-agents.json": "crawler-user-agents.json",
		"package/LICENSE":                  "crawler-user-agents.LICENSE",
	})
	if err != nil {
		return err
	}
	var probe []json.RawMessage
	if err := json.Unmarshal(files["crawler-user-agents.json"], &probe); err != nil || len(probe) == 0 {
		return fmt.Errorf("crawler-user-agents.json is not a JSON array of entries: %v", err)
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			return err
		}
	}
	v.CrawlerUserAgents.Version = m.Version
	v.CrawlerUserAgents.Tarball = m.Dist.Tarball
	v.CrawlerUserAgents.Integrity = m.Dist.Integrity
	return nil
}

// checkIntegrity checks a Subresource Integrity string ("sha512-BASE64").
func checkIntegrity(b []byte, integrity string) error {
	for _, f := range strings.Fields(integrity) {
		if d, ok := strings.CutPrefix(f, "sha512-"); ok {
			sum := sha512.Sum512(b)
			if base64.StdEncoding.EncodeToString(sum[:]) != d {
				return errors.New("tarball does not match the registry's sha512 integrity")
			}
			return nil
		}
	}
	return fmt.Errorf("registry gives no sha512 integrity (%q)", integrity)
}

// untar extracts the wanted members of a gzipped tarball.
func untar(tgz []byte, want map[string]string) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	got := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		name, ok := want[h.Name]
		if !ok {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, maxFile+1))
		if err != nil {
			return nil, err
		}
		if len(b) > maxFile {
			return nil, fmt.Errorf("%s: larger than %d bytes", h.Name, maxFile)
		}
		got[name] = b
	}
	for member, name := range want {
		if got[name] == nil {
			return nil, fmt.Errorf("tarball has no %s", member)
		}
	}
	return got, nil
}

func copyRobots(path, out string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil || len(probe) == 0 {
		return fmt.Errorf("%s is not a robots.json object: %v", path, err)
	}
	if err := os.WriteFile(filepath.Join(out, "robots.json"), b, 0o644); err != nil {
		return err
	}
	if lic, err := os.ReadFile(filepath.Join(filepath.Dir(path), "LICENSE")); err == nil {
		return os.WriteFile(filepath.Join(out, "ai.robots.txt.LICENSE"), lic, 0o644)
	}
	return nil
}
