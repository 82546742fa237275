package discovery

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/internal/atomicfile"
	"github.com/repaudit/repaudit/netfetch"
	"github.com/repaudit/repaudit/warc"
)

// FileRun is one resolution of a registry into a WARC file: the client
// that fetches (and its body limit), the clock that dates the records,
// and what the warcinfo record names.
type FileRun struct {
	Client    *netfetch.Client
	MaxBytes  int64
	Now       func() time.Time
	UserAgent string // the client's User-Agent
	Software  string
}

// WriteFile resolves the registry's entries and line problems (Resolve)
// into a new gzip-per-record WARC at path, after a warcinfo record,
// handing each entry to each as it is done. The file is written whole or
// not at all. It returns the failed entries and the records written; the
// error is for the output or an interruption (then nothing is written).
func (f FileRun) WriteFile(ctx context.Context, path, regName string, entries []identity.RegistryEntry, probs []identity.Problem, each func(Entry)) (failed, records int, err error) {
	out, err := atomicfile.Create(path)
	if err != nil {
		return 0, 0, fmt.Errorf("create output: %w", err)
	}
	defer out.Abort()
	ww := warc.NewWriter(out, warc.WriterOptions{})
	r := New(f.Client, ww, f.Now, f.MaxBytes)
	if err := r.WriteWarcinfo(filepath.Base(path), regName, f.UserAgent, f.Software); err != nil {
		return 0, 0, err
	}
	if failed, err = r.Resolve(ctx, regName, entries, probs, each); err != nil {
		return failed, 0, err
	}
	if err := out.Commit(); err != nil {
		return failed, 0, fmt.Errorf("write output: %w", err)
	}
	return failed, ww.Records(), nil
}
