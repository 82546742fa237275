// Command gencatalog refreshes the maintained data the bot catalog is built
// from (bots/data): the crawler-user-agents list from the npm registry, and
// records its version in bots/data/versions.json. It runs from "go
// generate ./bots/"; see bots/doc.go.
//
//	go run ./internal/gencatalog -out data [-version 1.60.0] [-npm npm]
//
// crawler-user-agents comes from the registry through its own client:
// "npm pack crawler-user-agents@VERSION --json" downloads the package's
// tarball (from whatever registry npm is configured with) and reports its
// version and sha512 integrity, which is checked on the tarball before
// crawler-user-agents.json and LICENSE are taken out of it.
// versions.json records the package as name@version and the integrity,
// not a registry address.
//
// ai.robots.txt's robots.json is not part of the embedded catalog: a file
// copied from another repository is not kept in this one. Users merge it
// at run time with --bots (bots.Load reads its shape).
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
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Versions is the shape of bots/data/versions.json (bots.DataVersions reads it).
type Versions struct {
	CrawlerUserAgents struct {
		Version   string `json:"version"`
		Package   string `json:"package"` // name@version, as given to npm
		Integrity string `json:"integrity"`
	} `json:"crawler-user-agents"`
}

// cuaPackage is the npm package the crawler-user-agents list comes from.
const cuaPackage = "crawler-user-agents"

const (
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
	npm := fs.String("npm", "npm", "npm client `command` (the registry is the one npm is configured with)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var v Versions
	if b, err := os.ReadFile(filepath.Join(*out, "versions.json")); err == nil {
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("read %s: %w", filepath.Join(*out, "versions.json"), err)
		}
	}
	if err := fetchCUA(ctx, *npm, *version, *out, &v); err != nil {
		return fmt.Errorf("crawler-user-agents: %w", err)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(*out, "versions.json"), append(b, '\n'), 0o644)
}

// fetchCUA downloads crawler-user-agents@version with "npm pack" into a
// temporary folder, checks the tarball against the integrity npm reports,
// and writes its list and licence into out.
func fetchCUA(ctx context.Context, npm, version, out string, v *Versions) error {
	dir, err := os.MkdirTemp("", "gencatalog-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	spec := cuaPackage + "@" + version
	cmd := exec.CommandContext(ctx, npm, "pack", spec, "--json", "--ignore-scripts", "--pack-destination", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s pack %s: %w: %s", npm, spec, err, strings.TrimSpace(stderr.String()))
	}
	var packed []struct {
		Name      string `json:"name"`
		Version   string `json:"version"`
		Filename  string `json:"filename"`
		Integrity string `json:"integrity"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &packed); err != nil {
		return fmt.Errorf("npm pack output: %w", err)
	}
	if len(packed) != 1 || packed[0].Name != cuaPackage || packed[0].Version == "" || packed[0].Filename == "" {
		return fmt.Errorf("npm pack output names no %s version or tarball: %s", cuaPackage, strings.TrimSpace(stdout.String()))
	}
	m := packed[0]
	tgz, err := readLimited(filepath.Join(dir, filepath.Base(m.Filename)), maxTarball)
	if err != nil {
		return err
	}
	if err := checkIntegrity(tgz, m.Integrity); err != nil {
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
	v.CrawlerUserAgents.Package = cuaPackage + "@" + m.Version
	v.CrawlerUserAgents.Integrity = m.Integrity
	return nil
}

// readLimited reads a file of at most limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, limit)
	}
	return b, nil
}

// checkIntegrity checks a Subresource Integrity string ("sha512-BASE64").
func checkIntegrity(b []byte, integrity string) error {
	for _, f := range strings.Fields(integrity) {
		if d, ok := strings.CutPrefix(f, "sha512-"); ok {
			sum := sha512.Sum512(b)
			if base64.StdEncoding.EncodeToString(sum[:]) != d {
				return errors.New("tarball does not match npm's sha512 integrity")
			}
			return nil
		}
	}
	return fmt.Errorf("npm gives no sha512 integrity (%q)", integrity)
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
