package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/internal/decompress"
	"github.com/repaudit/repaudit/listing"
	"github.com/repaudit/repaudit/robots"
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
	KindDNS     Kind = "dns"    // a reverse-DNS snapshot as 'repaudit dns verify' writes it
	KindRobots  Kind = "robots" // a plain robots.txt file: one version of the site's robots.txt
	KindUnknown Kind = "unknown"
)

// ParseKind reads a kind name as given to --kind style flags.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(strings.ToLower(s)); k {
	case KindWARC, KindARC, KindLog, KindCard, KindJWKS, KindIPList, KindListing, KindRobots, KindDNS:
		return k, nil
	}
	return "", fmt.Errorf("ingest: unknown kind %q", s)
}

// File is one input file and what it was found to hold.
type File struct {
	Path string // the name given by the user: records and problems carry it
	// Spool, when set, is a copy of the input that Read reads instead of
	// Path: an input that cannot be read twice (standard input, a pipe)
	// is copied once, and Path keeps the name the user gave.
	Spool       string
	Size        int64
	Kind        Kind
	Format      string // log format, listing shape; "" for archives and documents
	Compression string // "gzip", "bzip2", "zstd" or "none" as sniffed
	Note        string // why the kind was chosen when it was not obvious
}

const sniffBytes = 256 << 10

// ReadPath is the file to read: Spool when set, else Path.
func (f File) ReadPath() string {
	if f.Spool != "" {
		return f.Spool
	}
	return f.Path
}

// OpenDecompressed opens a file for reading through the one opener of
// every input (package internal/decompress): gzip (also multi-member), bzip2 and zstd
// are decompressed, detected by their magic bytes; anything else is read
// as stored. compression is "gzip", "bzip2", "zstd" or "none". Closing
// the result closes the file.
func OpenDecompressed(path string) (rc io.ReadCloser, compression string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	dr, err := decompress.NewReader(f)
	if err != nil {
		f.Close()
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return &openFile{Reader: dr, f: f}, dr.Compression(), nil
}

type openFile struct {
	*decompress.Reader
	f *os.File
}

func (o *openFile) Close() error {
	o.Reader.Close()
	return o.f.Close()
}

// head returns up to sniffBytes of the file's content, decompressed
// through the one opener. It gives up when ctx is done (see Open).
func head(ctx context.Context, path string) (data []byte, compression string, size int64, err error) {
	f, err := Open(ctx, path)
	if err != nil {
		return nil, "", 0, err
	}
	defer f.Close()
	defer WatchReads(ctx, f)()
	st, err := f.Stat()
	if err != nil {
		return nil, "", 0, err
	}
	data, compression, err = headOf(f)
	return data, compression, st.Size(), err
}

// headOf returns up to sniffBytes of r's content, decompressed.
func headOf(r io.Reader) (data []byte, compression string, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, _ := br.Peek(8)
	dr, err := decompress.NewReader(br)
	if err != nil {
		return nil, decompress.Detect(magic), err
	}
	defer dr.Close()
	compression = dr.Compression()
	data, err = io.ReadAll(io.LimitReader(dr, sniffBytes))
	var ce *decompress.Error
	if errors.As(err, &ce) && ce.Kind == decompress.KindWindow {
		// Never guess what a file holds from what it does not show.
		return data, compression, err
	}
	if err != nil && len(data) == 0 && decompress.IsZstdDictionaryFrame(magic) {
		// A .warc.zst file starts with its dictionary frame, which a
		// plain decoder cannot use; the WARC reader knows how.
		return []byte("WARC/"), compression, nil
	}
	// A truncated or corrupt stream still leaves a usable head.
	return data, compression, nil
}

// Sniff reads the start of a file and says what it holds. logFormat, when
// not empty, is used for files that are not archives or JSON documents.
func Sniff(path string, logFormat accesslog.Format) (File, error) {
	return SniffContext(context.Background(), path, logFormat)
}

// SniffContext is Sniff that gives up when ctx is done (a named pipe
// without a writer blocks its open; see Open).
func SniffContext(ctx context.Context, path string, logFormat accesslog.Format) (File, error) {
	data, comp, size, err := head(ctx, path)
	return classify(File{Path: path, Size: size, Compression: comp, Kind: KindUnknown}, data, err, logFormat)
}

// SniffReader is Sniff of an input that can be read only once (standard
// input, a pipe): it reads the start of r, and the reader it returns
// gives every byte of r from the first, those read to sniff included, so
// that ReadFrom (or a copy) continues where sniffing began. name is the
// input's name; Size is 0 (unknown).
func SniffReader(name string, r io.Reader, logFormat accesslog.Format) (File, io.Reader, error) {
	var prefix bytes.Buffer
	data, comp, err := headOf(io.TeeReader(r, &prefix))
	f, err := classify(File{Path: name, Compression: comp, Kind: KindUnknown}, data, err, logFormat)
	return f, io.MultiReader(&prefix, r), err
}

// classify says what a file holds from its decompressed head data, or
// from the error that kept it from being read.
func classify(f File, data []byte, err error, logFormat accesslog.Format) (File, error) {
	path := f.Path
	var ce *decompress.Error
	if err != nil && (len(data) == 0 || errors.As(err, &ce) && ce.Kind == decompress.KindWindow) {
		f.Note = err.Error()
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
	if isDNSSnapshot(trimmed) {
		f.Kind = KindDNS
		return f, nil
	}
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		if k := documentKind(trimmed); k != "" {
			f.Kind = k
			return f, nil
		}
	}
	if robots.Sniff(data) {
		f.Kind = KindRobots
		return f, nil
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
	f.Note = "not a WARC, ARC, known log format, robots.txt, card, key set, IP list, DNS snapshot or listing"
	if lf, n := accesslog.Closest(lines); lf != "" {
		f.Note += fmt.Sprintf("; its lines come closest to the %s log format (%d of %d lines sampled; name it with --log-format to read it as such)", lf, n, len(lines))
	}
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

// isDNSSnapshot reports whether data's first line is the header of a
// reverse-DNS snapshot (identity.DNSSnapshotFormat): a JSON object whose
// "format" names it. The rest of the file is left to
// identity.ParseDNSSnapshot, which reports bad lines as problems.
func isDNSSnapshot(data []byte) bool {
	if len(data) == 0 || data[0] != '{' {
		return false
	}
	line := data
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		line = data[:i]
	}
	if len(line) > identity.MaxDNSLine || !bytes.Contains(line, []byte(identity.DNSSnapshotFormat)) {
		return false // cheap rejection before decoding
	}
	var h struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(line, &h) == nil && h.Format == identity.DNSSnapshotFormat
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
