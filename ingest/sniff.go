package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/listing"
)

// Kind is what a file holds.
type Kind string

// File kinds.
const (
	KindWARC    Kind = "warc"
	KindARC     Kind = "arc"
	KindLog     Kind = "log"
	KindCard    Kind = "card"
	KindJWKS    Kind = "jwks"
	KindIPList  Kind = "iplist"
	KindListing Kind = "listing"
	KindUnknown Kind = "unknown"
)

// ParseKind reads a kind name as given to --kind style flags.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(strings.ToLower(s)); k {
	case KindWARC, KindARC, KindLog, KindCard, KindJWKS, KindIPList, KindListing:
		return k, nil
	}
	return "", fmt.Errorf("ingest: unknown kind %q", s)
}

// File is one input file and what it was found to hold.
type File struct {
	Path        string
	Size        int64
	Kind        Kind
	Format      string // log format, listing shape; "" for archives and documents
	Compression string // "gzip", "zstd" or "none" as sniffed
	Note        string // why the kind was chosen when it was not obvious
}

// ErrNoInput is returned by Expand when a pattern matches nothing.
var ErrNoInput = errors.New("ingest: no such input")

// Expand turns files, directories (walked recursively, hidden entries
// skipped) and glob patterns into a sorted list of regular files without
// duplicates. A pattern that matches nothing is an error naming it.
func Expand(args []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, arg := range args {
		matches := []string{arg}
		if strings.ContainsAny(arg, "*?[") {
			m, err := filepath.Glob(arg)
			if err != nil {
				return nil, fmt.Errorf("ingest: pattern %q: %w", arg, err)
			}
			if len(m) == 0 {
				return nil, fmt.Errorf("%w: %q matches nothing", ErrNoInput, arg)
			}
			matches = m
		}
		for _, m := range matches {
			st, err := os.Stat(m)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrNoInput, err)
			}
			if !st.IsDir() {
				add(m)
				continue
			}
			err = filepath.WalkDir(m, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if p != m && strings.HasPrefix(d.Name(), ".") {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				if d.Type().IsRegular() {
					add(p)
				}
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("ingest: walk %s: %w", m, err)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

const sniffBytes = 256 << 10

// head returns up to sniffBytes of the file's content, decompressed when
// it starts with a gzip or zstd frame.
func head(path string) (data []byte, compression string, size int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, "", 0, err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	magic, _ := br.Peek(4)
	var r io.Reader = br
	compression = "none"
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, "gzip", st.Size(), fmt.Errorf("gzip header: %w", err)
		}
		defer zr.Close()
		r, compression = zr, "gzip"
	case len(magic) == 4 && (bytes.Equal(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}) || (magic[0]&0xf0 == 0x50 && magic[1] == 0x2a && magic[2] == 0x4d && magic[3] == 0x18)):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, "zstd", st.Size(), fmt.Errorf("zstd: %w", err)
		}
		defer zr.Close()
		r, compression = zr, "zstd"
	}
	data, err = io.ReadAll(io.LimitReader(r, sniffBytes))
	if err != nil && len(data) == 0 && compression == "zstd" {
		// A WARC zstd file may start with a dictionary frame our plain
		// decoder cannot use; the WARC reader knows how.
		return []byte("WARC/"), compression, st.Size(), nil
	}
	// A truncated or corrupt stream still leaves a usable head.
	return data, compression, st.Size(), nil
}

// Sniff reads the start of a file and says what it holds. logFormat, when
// not empty, is used for files that are not archives or JSON documents.
func Sniff(path string, logFormat accesslog.Format) (File, error) {
	data, comp, size, err := head(path)
	f := File{Path: path, Size: size, Compression: comp, Kind: KindUnknown}
	if err != nil && len(data) == 0 {
		return f, fmt.Errorf("ingest: %s: %w", path, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	switch {
	case bytes.HasPrefix(trimmed, []byte("WARC/")):
		f.Kind = KindWARC
		return f, nil
	case bytes.HasPrefix(trimmed, []byte("filedesc://")):
		f.Kind = KindARC
		return f, nil
	}
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		if k := documentKind(trimmed); k != "" {
			f.Kind = k
			return f, nil
		}
	}
	lines := sampleLines(data, 64)
	if logFormat != "" {
		f.Kind, f.Format, f.Note = KindLog, string(logFormat), "format given with --log-format"
		return f, nil
	}
	if len(lines) == 0 {
		f.Note = "empty file"
		return f, nil
	}
	if lf, ok := accesslog.Detect(lines); ok {
		f.Kind, f.Format = KindLog, string(lf)
		return f, nil
	}
	lr := listing.NewReader(bytes.NewReader(data), path)
	n := 0
	for range 16 {
		if _, err := lr.Next(); err != nil {
			break
		}
		n++
	}
	if n > 0 && len(lr.Problems()) == 0 {
		f.Kind, f.Format = KindListing, lr.Shape()
		return f, nil
	}
	f.Note = "not a WARC, ARC, known log format, card, key set, IP list or listing"
	return f, nil
}

// documentKind classifies a whole JSON document (not a JSON-lines log).
func documentKind(data []byte) Kind {
	// A JSON-lines log has one complete object on its first line; a
	// document is one value spanning the sample (or the whole file).
	// Bing's bingbot.json carries U+200B between tokens (see
	// identity.ParseIPList).
	dec := json.NewDecoder(bytes.NewReader(bytes.ReplaceAll(data, []byte("\u200b"), nil)))
	var v any
	if err := dec.Decode(&v); err != nil {
		return ""
	}
	if dec.More() {
		return "" // several values: JSON lines
	}
	switch identity.CaptureKind("", "application/json", data) {
	case "card":
		return KindCard
	case "jwks":
		return KindJWKS
	case "iplist":
		return KindIPList
	}
	return ""
}

func sampleLines(data []byte, n int) [][]byte {
	var out [][]byte
	for len(data) > 0 && len(out) < n {
		i := bytes.IndexByte(data, '\n')
		var line []byte
		if i < 0 {
			line, data = data, nil
		} else {
			line, data = data[:i], data[i+1:]
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) > 0 {
			out = append(out, line)
		}
	}
	return out
}
