package rdns

import (
	"context"
	"fmt"
	"time"

	"github.com/repaudit/repaudit/identity"
)

// Snapshot looks up every request (Verify) and returns the entries with
// the header of their snapshot: the resolver, and when the lookups
// started and finished, to the second (o.Now, UTC).
func Snapshot(ctx context.Context, reqs []Request, o Options) (identity.DNSSnapshotHeader, []identity.DNSEntry, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	h := identity.DNSSnapshotHeader{Resolver: o.ResolverName(), Started: o.Now().UTC().Truncate(time.Second)}
	entries, err := Verify(ctx, reqs, o)
	if err != nil {
		return h, nil, err
	}
	h.Finished = o.Now().UTC().Truncate(time.Second)
	return h, entries, nil
}

// SummaryText says how many addresses were looked up and what came of
// them, result by result: "6 addresses: 4 confirmed, 1 name outside
// suffixes, 1 forward mismatch, 0 no PTR, 0 lookup errors".
func SummaryText(entries []identity.DNSEntry) string {
	n := Summary(entries)
	return fmt.Sprintf("%d addresses: %d confirmed, %d name outside suffixes, %d forward mismatch, %d no PTR, %d lookup errors",
		len(entries), n[identity.DNSConfirmed], n[identity.DNSNameOutsideSuffixes], n[identity.DNSForwardMismatch], n[identity.DNSNoPTR], n[identity.DNSLookupError])
}
