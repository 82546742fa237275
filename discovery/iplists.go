package discovery

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/identity"
)

// IPLists fetches published IP range lists into Dir, one file per list
// named by its URL and the fetch time (identity.IPListSnapshot.FileName),
// holding the body as served: what "repaudit ranges fetch" does. Only a
// body that reads as an IP range list is written.
type IPLists struct {
	Dir    string
	Mirror string // fetch each list from MIRROR/HOST/PATH (identity.MirrorURL); "" for its own URL
	// Get fetches one URL: the body of a whole 200 response, or why
	// there is none. Write writes a new file (refusing one that exists,
	// unless told to replace it).
	Get   func(ctx context.Context, url string) ([]byte, error)
	Write func(path string, body []byte) error
	Now   func() time.Time // dates the snapshots
	// Sleep waits Delay between two requests, or until ctx is done.
	Sleep func(ctx context.Context, d time.Duration) error
	Delay time.Duration
}

// IPListResult is what became of one list: Note says what was written,
// or Err why nothing was.
type IPListResult struct {
	URL  string
	Note string
	Err  error
}

// Fetch fetches the lists one after another, Delay apart, handing each
// result to each. A list that cannot be fetched or written is reported
// and the rest go on; the error is ctx's when the run is interrupted
// (the lists written stay).
func (f IPLists) Fetch(ctx context.Context, lists []bots.IPRangeList, each func(IPListResult)) (written, failed int, err error) {
	for i, l := range lists {
		if i > 0 {
			if err := f.Sleep(ctx, f.Delay); err != nil {
				return written, failed, err
			}
		}
		if err := ctx.Err(); err != nil {
			return written, failed, err
		}
		note, err := f.one(ctx, l)
		if err != nil && ctx.Err() != nil {
			return written, failed, ctx.Err()
		}
		if err != nil {
			failed++
		} else {
			written++
		}
		each(IPListResult{URL: l.URL, Note: note, Err: err})
	}
	return written, failed, nil
}

// one fetches and writes one list.
func (f IPLists) one(ctx context.Context, l bots.IPRangeList) (string, error) {
	from, err := identity.MirrorURL(f.Mirror, l.URL)
	if err != nil {
		return "", err
	}
	body, err := f.Get(ctx, from)
	if err != nil {
		return "", err
	}
	snap, err := identity.NewIPListSnapshot(l.URL, body, f.Now())
	if err != nil {
		return "", fmt.Errorf("200, but %v", err)
	}
	name, err := snap.FileName()
	if err != nil {
		return "", err
	}
	if err := f.Write(filepath.Join(f.Dir, name), snap.Body); err != nil {
		return "", err
	}
	return "200, " + snap.Summary(l.Tokens), nil
}
