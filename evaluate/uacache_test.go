package evaluate

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/identity"
)

func TestUAShardCap(t *testing.T) {
	for _, tc := range []struct {
		limit int64
		want  int
	}{
		{100 << 20, 157}, // --memory-limit 100MiB: some 10,000 agents, 6 MiB
		{1 << 10, 64},
		{1 << 62, uaShardMax}, // no limit
	} {
		if got := uaShardCap(tc.limit); got != tc.want {
			t.Errorf("uaShardCap(%d) = %d, want %d", tc.limit, got, tc.want)
		}
	}
}

// TestUACachesBounded: a run of many distinct User-Agents, each a bot
// the catalog does not know, keeps the User-Agent cache and the IP list
// owners' cache within their caps.
func TestUACachesBounded(t *testing.T) {
	m := NewBuilder(Options{}, bots.Default(), identity.NewStore()).Build()
	defer m.Close()
	m.uaCache.max = 8
	ip := netip.MustParseAddr("198.51.100.7")
	at := time.Date(2025, 3, 12, 0, 0, 0, 0, time.UTC)
	n := ipOwnerMax + 1000
	for i := range n {
		ua := fmt.Sprintf("Mozilla/5.0 (compatible; Crawler%d/1.0; +https://crawler%d.example/bot)", i, i)
		id := m.identifyUA(ua, nil, at)
		if id.token == "" {
			t.Fatalf("%s: no token", ua)
		}
		m.checkIP(id, ip, at, nil)
	}
	held := 0
	for i := range m.uaCache.shards {
		held += len(m.uaCache.shards[i].m)
	}
	if held > 8*len(m.uaCache.shards) {
		t.Errorf("UA cache holds %d agents, cap %d", held, 8*len(m.uaCache.shards))
	}
	if got := len(m.ipOwners.m); got > ipOwnerMax || got == 0 {
		t.Errorf("IP owners cache holds %d owners after %d; want 1 to %d", got, n, ipOwnerMax)
	}
}
