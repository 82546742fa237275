package output

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ManifestName is the file name of the manifest inside an output directory.
// It is written last: a directory without it is not a finished run.
const ManifestName = "manifest.json"

// maxManifestSize caps how much of a manifest.json is read.
const maxManifestSize = 64 << 20

// ErrNoManifest reports an output directory without manifest.json: a run
// that did not finish, or not a repaudit output directory at all.
var ErrNoManifest = errors.New("output: no manifest.json (not a finished repaudit run)")

// Manifest describes one finished run. It is written to manifest.json with
// stable key order (struct fields in order, map keys sorted).
//
// Every field is reproducible from the inputs and options except Timings,
// which are wall-clock measurements. Started and Finished are filled by the
// caller: from the data (first and last event time) or --as-of where
// possible, so that two runs over the same inputs write the same manifest
// apart from Timings.
type Manifest struct {
	Tool          string           `json:"tool"`           // "repaudit"
	Version       string           `json:"version"`        // tool version
	SchemaVersion int              `json:"schema_version"` // table.SchemaVersion
	Command       []string         `json:"command"`        // command line arguments
	Options       map[string]any   `json:"options"`        // effective options
	Inputs        []Input          `json:"inputs"`         // in the order given
	Counts        map[string]int64 `json:"counts"`         // rows per table, filled by Commit
	// Tables records each table file as Commit wrote it: report and
	// query refuse a table whose size (or, with --verify, SHA-256) no
	// longer matches. Absent from manifests of older versions and of the
	// Beam pipeline, whose tables are directories of parts.
	Tables   []TableFile        `json:"tables,omitempty"`
	Timings  map[string]float64 `json:"timings"`           // wall-clock seconds per phase
	Catalog  *Catalog           `json:"catalog,omitempty"` // the bot catalog used
	AsOf     string             `json:"as_of"`             // RFC 3339: --as-of, or the latest time seen in the data
	Started  string             `json:"started"`           // RFC 3339
	Finished string             `json:"finished"`          // RFC 3339
	// Notices say what the run judged less than it could, why, and what
	// to pass to judge it (site inferred, fetches not judged by reason,
	// IP lists not given).
	Notices []Notice `json:"notices,omitempty"`
	// ArchiveCrawlers names the crawler each input WARC file's captures
	// are attributed to, sorted by file.
	ArchiveCrawlers []ArchiveCrawler `json:"archive_crawlers,omitempty"`
}

// ArchiveCrawler is the crawler of one input WARC or ARC file: whose
// robots.txt fetches its robots.txt captures are and whose fetches its
// captures are.
type ArchiveCrawler struct {
	File  string `json:"file"`
	Agent string `json:"agent"` // product token; "" when no crawler could be named
	// DerivedFrom says how: option (--archive-agent, for every file or
	// FILE=TOKEN for this one), request-records (the file's own request
	// records), warcinfo-user-agent, warcinfo-software (its warcinfo
	// record, or an ARC file's filedesc record), crawl-files (a file
	// naming no crawler takes the only one the other files of its crawl
	// name), or "" (none: unknown, or request records of no bot).
	DerivedFrom string `json:"derived_from"`
	// Crawl is the file's crawl key: the agent's lower-case token, ":",
	// and the isPartOf its warcinfo (filedesc) record states
	// ("heritrix:archive.org-shallow"), or "file:" and the file's name
	// when it states none or has no crawler.
	Crawl string `json:"crawl"`
}

// TableFile is one table file of a run, recorded when it was complete.
type TableFile struct {
	Name   string `json:"name"`   // table name: fetches, violations, ...
	File   string `json:"file"`   // path relative to the output directory, slash-separated
	Rows   int64  `json:"rows"`   // rows in the file
	Bytes  int64  `json:"bytes"`  // file size
	SHA256 string `json:"sha256"` // hex digest of the file's bytes
}

// Notice is one thing a run judged less than it could, or judged on an
// assumption, with the fix.
type Notice struct {
	Code    string `json:"code"`    // stable: site-inferred, no-host, no-robots-version, ...
	Count   int64  `json:"count"`   // fetches concerned; 0 when not about fetches
	Message string `json:"message"` // for a person, with the fix
}

// Catalog records the bot catalog a run identified clients with: the
// versions of the maintained data embedded in the binary and the --bots
// files merged over it.
type Catalog struct {
	CrawlerUserAgents string   `json:"crawler_user_agents"`  // npm version of crawler-user-agents
	Bots              int      `json:"bots"`                 // bots in the catalog, --bots files included
	Files             []string `json:"bots_files,omitempty"` // --bots files, in the order merged
}

// Input is one input file of a run.
type Input struct {
	Path     string `json:"path"`
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256"`   // hex digest of the file as read
	Kind     string `json:"kind"`     // warc, log, bots, card, ip-ranges, index, ...
	Format   string `json:"format"`   // detected or named format, e.g. combined, warc.gz
	Records  int64  `json:"records"`  // records or lines read
	Problems int64  `json:"problems"` // problems reported for this input
}

// ReadManifest reads DIR/manifest.json. A directory without one yields an
// error wrapping ErrNoManifest.
//
// A manifest.json that is not a regular file (a named pipe, which would
// block the read) is an error.
func ReadManifest(dir string) (*Manifest, error) {
	name := filepath.Join(dir, ManifestName)
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("read manifest: %s is not a regular file (%s)", name, fi.Mode().Type())
	}
	f, err := os.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", dir, ErrNoManifest)
		}
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxManifestSize+1))
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	if len(data) > maxManifestSize {
		return nil, fmt.Errorf("read manifest %s: larger than %d bytes", f.Name(), maxManifestSize)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("read manifest %s: %w", f.Name(), err)
	}
	return &m, nil
}

// marshal renders the manifest as indented JSON with a final newline.
func (m *Manifest) marshal() ([]byte, error) {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	return append(data, '\n'), nil
}
