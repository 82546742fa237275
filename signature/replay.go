package signature

import (
	"container/heap"
	"crypto/sha256"
	"net/netip"
	"strings"
	"time"
)

// Replay detection defaults.
const (
	// DefaultReplayEntries bounds a ReplayDetector when NewReplayDetector
	// is given a size ≤ 0.
	DefaultReplayEntries = 1 << 20
	// DefaultReplayRetention is how long after a signature's expires (plus
	// skew) its first sighting is kept, so that late reuse is still seen.
	DefaultReplayRetention = time.Hour
	maxReplayPath          = 512
)

// never is the eviction time of a sighting whose signature has no expires:
// it stays until the size cap pushes it out.
var never = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)

// ReplayDetector finds a signature reused where its signer could not have
// meant it (an offline advantage: the whole log is at hand): the same
// signature bytes, or the same (keyid, nonce), seen again on a different
// path, from a different IP, or after the signature expired. A reuse on
// the same path from the same IP inside the window is a retry or a
// duplicated log line, not a replay.
//
// It keeps the first sighting of each signature and nonce for as long as
// the signature is valid: until its expires (plus skew and Retention) has
// passed, however far away that is (a signature valid for ten years and
// replayed after a day is still a replay; one without expires is kept
// indefinitely). Memory is bounded by the size cap alone: beyond it, the
// sighting due to be evicted soonest goes first, so long-lived signatures
// outlast short-lived ones. Feed requests in time order. Not safe for
// concurrent use.
type ReplayDetector struct {
	// Skew is the clock allowance for "after expires"; DefaultSkew when
	// zero, none when negative (as Options.Skew).
	Skew time.Duration
	// Retention is how long past expires+Skew a sighting is kept;
	// DefaultReplayRetention when zero.
	Retention time.Duration

	max     int
	entries map[[32]byte]*sighting
	byEvict evictHeap
	seq     uint64
}

// sighting is the first time a signature or nonce was seen.
type sighting struct {
	key     [32]byte
	time    time.Time
	path    string
	ip      netip.Addr
	where   string
	expires time.Time
	evictAt time.Time
	seq     uint64 // insertion order, to evict the oldest at the cap
	index   int    // in the heap
}

// NewReplayDetector returns a detector keeping at most maxEntries
// sightings (DefaultReplayEntries when ≤ 0).
func NewReplayDetector(maxEntries int) *ReplayDetector {
	if maxEntries <= 0 {
		maxEntries = DefaultReplayEntries
	}
	return &ReplayDetector{max: maxEntries, entries: make(map[[32]byte]*sighting)}
}

// Len returns the number of sightings held.
func (d *ReplayDetector) Len() int { return len(d.entries) }

// Observe records a verified request's signature and reports whether it
// replays an earlier one, with a reason naming the first sighting's time,
// path, IP and location. Requests without a signature (no Result.Label or
// signature bytes) are ignored.
func (d *ReplayDetector) Observe(r *Request, res Result) (replay bool, reason string) {
	sig := res.signature
	if res.Label == "" || len(sig) == 0 {
		return false, ""
	}
	skew := d.Skew
	switch {
	case skew == 0:
		skew = DefaultSkew
	case skew < 0:
		skew = 0
	}
	retention := d.Retention
	if retention == 0 {
		retention = DefaultReplayRetention
	}
	d.evict(r.Time)

	path, _, _ := splitTarget(r.Target)
	path = capString(path, maxReplayPath)
	keys := [][32]byte{hashKey("s", string(sig))}
	what := []string{"same signature"}
	if res.Nonce != "" && res.KeyID != "" {
		keys = append(keys, hashKey("n", res.KeyID+"\x00"+res.Nonce))
		what = append(what, "same keyid and nonce")
	}
	for i, k := range keys {
		first, ok := d.entries[k]
		if !ok {
			continue
		}
		var why []string
		if first.path != path {
			why = append(why, "different path "+path)
		}
		if first.ip.IsValid() && r.IP.IsValid() && first.ip != r.IP {
			why = append(why, "different IP "+r.IP.String())
		}
		if !first.expires.IsZero() && !r.Time.IsZero() && r.Time.After(first.expires.Add(skew)) {
			why = append(why, "after expires "+first.expires.Format(time.RFC3339))
		}
		if len(why) == 0 {
			continue
		}
		var b strings.Builder
		b.WriteString("replay: ")
		b.WriteString(what[i])
		b.WriteString(" first seen at ")
		b.WriteString(timeOrDash(first.time))
		b.WriteString(" on ")
		b.WriteString(orDash(first.path))
		b.WriteString(" from ")
		if first.ip.IsValid() {
			b.WriteString(first.ip.String())
		} else {
			b.WriteString("-")
		}
		if first.where != "" {
			b.WriteString(" (")
			b.WriteString(first.where)
			b.WriteString(")")
		}
		b.WriteString("; now ")
		b.WriteString(strings.Join(why, ", "))
		return true, b.String()
	}
	for _, k := range keys {
		if _, ok := d.entries[k]; ok {
			continue
		}
		d.insert(&sighting{
			key: k, time: r.Time, path: path, ip: r.IP, where: r.Where,
			expires: res.Expires, evictAt: evictAt(res.Expires, skew+retention),
		})
	}
	return false, ""
}

func hashKey(kind, s string) [32]byte {
	h := sha256.New()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(s))
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// evictAt is when a sighting may be forgotten: once the signature can no
// longer be valid, after expires plus grace. The window is as long as the
// signature's validity, not capped: a cap shorter than the validity would
// let a replay after the cap pass as a first sighting. Without expires the
// signature is valid indefinitely and the sighting is never evicted by
// time (only by the size cap).
func evictAt(expires time.Time, grace time.Duration) time.Time {
	if expires.IsZero() {
		return never
	}
	at := expires.Add(grace)
	if at.After(never) {
		return never
	}
	return at
}

func (d *ReplayDetector) insert(s *sighting) {
	for len(d.entries) >= d.max {
		d.removeOldest()
	}
	d.seq++
	s.seq = d.seq
	d.entries[s.key] = s
	heap.Push(&d.byEvict, s)
}

// evict drops sightings whose time has passed.
func (d *ReplayDetector) evict(now time.Time) {
	if now.IsZero() {
		return
	}
	for len(d.byEvict) > 0 && d.byEvict[0].evictAt.Before(now) {
		s := heap.Pop(&d.byEvict).(*sighting)
		delete(d.entries, s.key)
	}
}

// removeOldest drops the sighting due to be evicted soonest; at the cap
// that is the least useful one.
func (d *ReplayDetector) removeOldest() {
	if len(d.byEvict) == 0 {
		return
	}
	s := heap.Pop(&d.byEvict).(*sighting)
	delete(d.entries, s.key)
}

// evictHeap orders sightings by evictAt, then insertion.
type evictHeap []*sighting

func (h evictHeap) Len() int { return len(h) }
func (h evictHeap) Less(i, j int) bool {
	if h[i].evictAt.Equal(h[j].evictAt) {
		return h[i].seq < h[j].seq
	}
	return h[i].evictAt.Before(h[j].evictAt)
}
func (h evictHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *evictHeap) Push(x any) {
	s := x.(*sighting)
	s.index = len(*h)
	*h = append(*h, s)
}
func (h *evictHeap) Pop() any {
	old := *h
	n := len(old)
	s := old[n-1]
	old[n-1] = nil
	*h = old[:n-1]
	return s
}
