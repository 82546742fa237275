package rdns

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/problem"
)

// Defaults of Options.
const (
	DefaultConcurrency = 8
	DefaultTimeout     = 5 * time.Second
)

// Request is one client address to check, with the bots it claimed.
type Request struct {
	Addr     netip.Addr
	Tokens   []string // catalog tokens of the bots it claimed, sorted
	Suffixes []string // their reverse-DNS suffixes, sorted, distinct
	Fetches  int64    // fetches that made the claim
}

// Collect reads the inputs (logs and archives, as the audit reads them:
// ingest.Expand, ingest.SniffContext, ingest.Read) and returns, sorted by
// address, every client address of a fetch whose User-Agent claims a bot
// with reverse-DNS suffixes in catalog. Files of other kinds are skipped;
// problems of the readers are returned, and an input that cannot be read
// at all is a problem too: the run goes on with the rest.
func Collect(ctx context.Context, inputs []string, catalog *bots.Catalog) ([]Request, []event.Problem, error) {
	files, probs, err := ingest.Expand(inputs)
	if err != nil {
		return nil, probs, err
	}
	byAddr := map[netip.Addr]*Request{}
	h := ingest.Handler{
		Fetch: func(f *event.Fetch) error {
			if !f.ClientIP.IsValid() {
				return nil
			}
			b, ok := catalog.Identify(f.UserAgent)
			if !ok || len(b.RDNSSuffixes) == 0 {
				return nil
			}
			ip := f.ClientIP.Unmap().WithZone("")
			r := byAddr[ip]
			if r == nil {
				r = &Request{Addr: ip}
				byAddr[ip] = r
			}
			r.Fetches++
			if !slices.Contains(r.Tokens, b.Token) {
				r.Tokens = append(r.Tokens, b.Token)
				for _, s := range b.RDNSSuffixes {
					if !slices.Contains(r.Suffixes, s) {
						r.Suffixes = append(r.Suffixes, s)
					}
				}
			}
			return nil
		},
		Problem: func(p event.Problem) { probs = append(probs, p) },
	}
	for _, p := range files {
		if err := ctx.Err(); err != nil {
			return nil, probs, err
		}
		f, err := ingest.SniffContext(ctx, p, "")
		if err != nil {
			probs = append(probs, unreadable(p, err))
			continue
		}
		switch f.Kind {
		case ingest.KindWARC, ingest.KindARC, ingest.KindLog:
		default:
			continue
		}
		if _, err := ingest.Read(ctx, f, ingest.Options{BodyLimit: noBodies}, h); err != nil {
			if ctx.Err() != nil {
				return nil, probs, ctx.Err()
			}
			probs = append(probs, unreadable(p, err))
		}
	}
	out := make([]Request, 0, len(byAddr))
	for _, r := range byAddr {
		sort.Strings(r.Tokens)
		sort.Strings(r.Suffixes)
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr.Less(out[j].Addr) })
	return out, probs, nil
}

func noBodies(string, string, int) int { return 0 }

func unreadable(path string, err error) event.Problem {
	return event.Problem{Source: event.Source{File: path, Offset: -1}, Code: problem.InputUnreadable, Severity: event.SevError, Message: err.Error()}
}

// Options tune Verify.
type Options struct {
	// Server is the DNS server as HOST:PORT; "" uses the system
	// resolver.
	Server      string
	Concurrency int           // lookups in flight at once (default DefaultConcurrency)
	Timeout     time.Duration // limit of each lookup (default DefaultTimeout)
	// Now stamps each lookup (the time of a live lookup: the one use of
	// the wall clock, as for 'ranges fetch').
	Now func() time.Time
}

// resolver returns the resolver o names.
func (o Options) resolver() *net.Resolver {
	if o.Server == "" {
		return net.DefaultResolver
	}
	server := o.Server
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, server)
	}}
}

// ResolverName is what a snapshot header says of the resolver.
func (o Options) ResolverName() string {
	if o.Server == "" {
		return "system"
	}
	return o.Server
}

// Verify looks up every request (at most Options.Concurrency at once)
// and returns one entry per request, in the requests' order. A lookup
// that fails is an entry with result lookup_error; Verify itself fails
// only when ctx is done.
func Verify(ctx context.Context, reqs []Request, o Options) ([]identity.DNSEntry, error) {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	r := o.resolver()
	out := make([]identity.DNSEntry, len(reqs))
	sem := make(chan struct{}, o.Concurrency)
	var wg sync.WaitGroup
	for i := range reqs {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return nil, ctx.Err()
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i] = lookup(ctx, r, reqs[i], o)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// lookup checks one address: PTR, then A/AAAA of each PTR name under the
// suffixes (at most identity.MaxDNSNames names, identity.MaxDNSAddresses
// answers each).
func lookup(ctx context.Context, r *net.Resolver, q Request, o Options) identity.DNSEntry {
	e := identity.DNSEntry{Address: q.Addr.String(), Tokens: q.Tokens, Suffixes: q.Suffixes, PTR: []string{}, Time: o.Now().UTC().Truncate(time.Second)}
	lctx, cancel := context.WithTimeout(ctx, o.Timeout)
	names, err := r.LookupAddr(lctx, q.Addr.String())
	cancel()
	if len(names) == 0 {
		if err == nil || isNotFound(err) {
			e.Result = identity.DNSNoPTR
		} else {
			e.Result, e.Error = identity.DNSLookupError, capText(err.Error())
		}
		return e
	}
	if len(names) > identity.MaxDNSNames {
		names = names[:identity.MaxDNSNames]
	}
	e.PTR = names
	for _, n := range names {
		if identity.DNSNameUnder(n, q.Suffixes) {
			e.Forward = append(e.Forward, forward(ctx, r, n, o.Timeout))
		}
	}
	e.Result, _ = identity.JudgeDNS(&e, q.Suffixes)
	return e
}

// forward resolves name's A and AAAA records. A name that does not
// exist has no addresses, and is no error: it does not confirm.
func forward(ctx context.Context, r *net.Resolver, name string, timeout time.Duration) identity.DNSForward {
	fw := identity.DNSForward{Name: name, Addresses: []string{}}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// An absolute name: no search domains are tried.
	q := name
	if !strings.HasSuffix(q, ".") {
		q += "."
	}
	addrs, err := r.LookupNetIP(ctx, "ip", q)
	if err != nil && !isNotFound(err) {
		fw.Error = capText(err.Error())
	}
	for i, a := range addrs {
		if i == identity.MaxDNSAddresses {
			break
		}
		fw.Addresses = append(fw.Addresses, a.Unmap().String())
	}
	return fw
}

func isNotFound(err error) bool {
	var de *net.DNSError
	return errors.As(err, &de) && de.IsNotFound
}

// capText bounds an error text kept in a snapshot.
func capText(s string) string {
	if len(s) > 256 {
		return s[:256] + "..."
	}
	return s
}

// Summary counts the entries by result.
func Summary(entries []identity.DNSEntry) map[string]int {
	m := map[string]int{}
	for _, e := range entries {
		m[e.Result]++
	}
	return m
}

// FileName is the name of a snapshot started at t:
// "dns-YYYY-MM-DDThhmmssZ.jsonl" (UTC).
func FileName(t time.Time) string {
	return "dns-" + t.UTC().Format("2006-01-02T150405Z") + ".jsonl"
}

// ErrExists is returned by WriteFile when the snapshot file exists and
// force is false.
var ErrExists = errors.New("rdns: file exists (use --force to replace it)")

// WriteFile writes a snapshot into dir under FileName(h.Started), through
// a temporary file renamed into place, and returns its path.
func WriteFile(dir string, h identity.DNSSnapshotHeader, entries []identity.DNSEntry, force bool) (string, error) {
	path := filepath.Join(dir, FileName(h.Started))
	if _, err := os.Lstat(path); err == nil && !force {
		return "", fmt.Errorf("%s: %w", path, ErrExists)
	}
	f, err := os.CreateTemp(dir, ".dns-*.tmp")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	if err := identity.WriteDNSSnapshot(f, h, entries); err != nil {
		f.Close()
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return "", err
	}
	return path, nil
}
