package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
)

// StdinName is the input name that means standard input (Config.Stdin).
const StdinName = "-"

// spool holds the inputs that cannot be read twice — standard input, a
// pipe, a FIFO, process substitution (<(zcat x.gz)), a character device —
// each copied once to a temporary file, so that sniffing and both passes
// read the same bytes (docs/semantics.md, "Inputs").
type spool struct {
	dir   string                // temporary directory beside the output; "" until needed
	base  string                // where to create dir
	files map[string]spoolEntry // input name → its copy
}

type spoolEntry struct {
	path string // the copy
	size int64
	sha  string
}

func newSpool(out string) *spool {
	base := os.TempDir()
	if out != "" {
		base = filepath.Dir(filepath.Clean(out))
	}
	return &spool{base: base, files: map[string]spoolEntry{}}
}

// needsSpool reports whether the input name cannot be read twice: it is
// "-" or anything that is neither a regular file nor a directory.
func needsSpool(name string) bool {
	if name == StdinName {
		return true
	}
	st, err := os.Stat(name)
	return err == nil && !st.Mode().IsRegular() && !st.IsDir()
}

// add copies the input name (from stdin when name is "-") to the spool,
// counting and hashing the bytes, and gives up when ctx is done.
func (s *spool) add(ctx context.Context, name string, stdin io.Reader) (spoolEntry, error) {
	if e, ok := s.files[name]; ok {
		return e, nil
	}
	if s.dir == "" {
		d, err := os.MkdirTemp(s.base, ".repaudit-spool-*")
		if err != nil {
			return spoolEntry{}, fmt.Errorf("spool %s: %w", name, err)
		}
		s.dir = d
	}
	var src io.Reader
	switch {
	case name == StdinName && stdin == nil:
		return spoolEntry{}, errors.New("standard input (-) is not available")
	case name == StdinName:
		src = stdin
		if f, ok := stdin.(*os.File); ok {
			defer ingest.WatchReads(ctx, f)()
		}
	default:
		f, err := ingest.Open(ctx, name) // a FIFO without writer must not hang the run
		if err != nil {
			return spoolEntry{}, err
		}
		defer f.Close()
		defer ingest.WatchReads(ctx, f)()
		src = f
	}
	out, err := os.CreateTemp(s.dir, "input-*")
	if err != nil {
		return spoolEntry{}, fmt.Errorf("spool %s: %w", name, err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), ctxReader{ctx, src})
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(out.Name())
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return spoolEntry{}, fmt.Errorf("read %s: %w", name, err)
	}
	e := spoolEntry{path: out.Name(), size: n, sha: hex.EncodeToString(h.Sum(nil))}
	s.files[name] = e
	return e, nil
}

// remove deletes the spool.
func (s *spool) remove() {
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

// ctxReader stops a copy between reads once ctx is done (a reader that
// is not an *os.File cannot be woken by WatchReads).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// renameSource makes problems found in a spooled copy name the input
// the user gave.
func renameSource(fs *fileState, p event.Problem) event.Problem {
	if fs.f.Spool != "" && p.Source.File == fs.f.Spool {
		p.Source.File = fs.f.Path
	}
	return p
}

// countingHash is a SHA-256 that counts the bytes written to it.
type countingHash struct {
	hash.Hash
	n int64
}

func newCountingHash() *countingHash { return &countingHash{Hash: sha256.New()} }

func (c *countingHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.Hash.Write(p)
}

func (c *countingHash) hex() string { return hex.EncodeToString(c.Sum(nil)) }
