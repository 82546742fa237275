package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

// joinPath joins path elements for a local path or a filesystem URL.
func joinPath(base string, elem ...string) string {
	if hasScheme(base) {
		return strings.TrimSuffix(base, "/") + "/" + strings.Join(elem, "/")
	}
	return filepath.Join(append([]string{base}, elem...)...)
}

// tmpDir is where bundles leave their part files until finalize moves
// them: beside a local output directory (so that the output appears
// whole, by one rename), inside a remote one.
func tmpDir(out string) string {
	if hasScheme(out) {
		return joinPath(out, ".beam-tmp")
	}
	return filepath.Clean(out) + ".beam-tmp"
}

func randomID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// partWriter writes the rows of one bundle through output.Writer (the
// schema of `audit`) into a local temporary directory; finish publishes
// one part file per table that has rows.
type partWriter struct {
	out  string
	base string
	w    *output.Writer
	// notices counts what the manifest's notices need, as the local audit
	// counts it: from every fetch row and every partition's model.
	notices audit.NoticeFacts
	noticed bool
}

var _ table.Sink = (*partWriter)(nil)

func newPartWriter(out string) (*partWriter, error) {
	base, err := os.MkdirTemp("", "repaudit-beam-part-")
	if err != nil {
		return nil, err
	}
	w, err := output.Create(filepath.Join(base, "part"), output.Options{RowGroupBytes: partRowGroupBytes})
	if err != nil {
		os.RemoveAll(base)
		return nil, err
	}
	return &partWriter{out: out, base: base, w: w}, nil
}

func (p *partWriter) Fetch(r *table.Fetch) error {
	p.notices.Tally(r)
	p.noticed = true
	return p.w.Fetch(r)
}

// noteModel notes what the notices need of one partition's model: its
// robots.txt versions assumed for the whole range and its earliest one.
func (p *partWriter) noteModel(m *evaluate.Model) {
	p.notices.Merge(audit.NoticeFacts{AssumedVersions: m.AssumedVersions(), FirstVersion: m.FirstVersion()})
	p.noticed = true
}

func (p *partWriter) Violation(r *table.Violation) error   { return p.w.Violation(r) }
func (p *partWriter) RobotsRule(r *table.RobotsRule) error { return p.w.RobotsRule(r) }
func (p *partWriter) Directive(r *table.Directive) error   { return p.w.Directive(r) }

// Problem notes the given files a problem says were not used, as the
// local audit does.
func (p *partWriter) Problem(r *table.Problem) error {
	p.notices.TallyProblem(r)
	p.noticed = true
	return p.w.Problem(r)
}

// RobotsVersion notes what the notice on fetches of unknown content
// needs, as the local audit does.
func (p *partWriter) RobotsVersion(r *table.RobotsVersion) error {
	p.notices.TallyVersion(r)
	p.noticed = true
	return p.w.RobotsVersion(r)
}

// Retention counts the captures of files without a crawler, as the local audit
// does.
func (p *partWriter) Retention(r *table.Retention) error {
	p.notices.TallyRetention(r)
	p.noticed = true
	return p.w.Retention(r)
}

// finish closes the bundle's files and moves each non-empty table to
// tmpDir(out)/<table>-<random>.parquet, returning what it published.
func (p *partWriter) finish(ctx context.Context) ([]partInfo, error) {
	defer os.RemoveAll(p.base)
	if err := p.w.Commit(nil); err != nil {
		return nil, err
	}
	counts := p.w.Counts()
	names := make([]string, 0, len(counts))
	for n, c := range counts {
		if c > 0 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	id := randomID()
	var parts []partInfo
	for _, n := range names {
		dst := joinPath(tmpDir(p.out), n+"-"+id+".parquet")
		if err := publish(ctx, filepath.Join(p.base, "part", n+".parquet"), dst); err != nil {
			return nil, err
		}
		parts = append(parts, partInfo{Table: n, Path: dst, Rows: counts[n]})
	}
	if p.noticed {
		nf := p.notices
		parts = append(parts, partInfo{Notices: &nf})
	}
	return parts, nil
}

func (p *partWriter) abort() {
	p.w.Abort()
	os.RemoveAll(p.base)
}

// publish moves a local file to dst (a local path or a filesystem URL).
func publish(ctx context.Context, src, dst string) error {
	if !hasScheme(dst) {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.Rename(src, dst); err == nil {
			return nil
		}
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return copyTo(ctx, in, dst)
}

// copyTo writes r to dst through the filesystem Beam registers for it.
func copyTo(ctx context.Context, r io.Reader, dst string) error {
	fs, err := filesystem.New(ctx, dst)
	if err != nil {
		return err
	}
	defer fs.Close()
	if !hasScheme(dst) {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
	}
	w, err := fs.OpenWrite(ctx, dst)
	if err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return fmt.Errorf("write %s: %w", dst, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return nil
}

// fetchLocal returns a local path holding the file: the path itself, or a
// temporary copy of a file on a registered filesystem (removed by
// cleanup). The readers of repaudit take local files.
func fetchLocal(ctx context.Context, path string) (local string, cleanup func(), err error) {
	if !hasScheme(path) {
		return path, func() {}, nil
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return "", nil, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return "", nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer r.Close()
	f, err := os.CreateTemp("", "repaudit-beam-in-*-"+filepath.Base(path))
	if err != nil {
		return "", nil, err
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", nil, fmt.Errorf("copy %s: %w", path, err)
	}
	return f.Name(), func() { os.Remove(f.Name()) }, nil
}

// removePath removes a local path or, where the filesystem can, a remote
// file.
func removePath(ctx context.Context, p string) error {
	if !hasScheme(p) {
		return os.RemoveAll(p)
	}
	fs, err := filesystem.New(ctx, p)
	if err != nil {
		return err
	}
	defer fs.Close()
	if rm, ok := fs.(filesystem.Remover); ok {
		return rm.Remove(ctx, p)
	}
	return errors.ErrUnsupported
}

// partRowGroupBytes is output.Options.RowGroupBytes of a part writer. A
// writer buffers up to two row groups per table (the one filling, the one
// being written), and a worker process holds many writers at once: each
// judging bundle has Config.Workers of them, and Prism runs several
// bundles of a stage side by side in its one process (five on the
// 1M-line benchmark corpus). At output's default (8 MiB) the writers'
// column buffers (output.tableWriter.appendColumn) held 222 MB of a
// 550 MB live heap at the peak; at 2 MiB, 32 MB of 307 MB. The rows are
// the same; a part's row groups hold about a quarter as many rows.
const partRowGroupBytes = 2 << 20
