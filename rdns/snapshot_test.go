package rdns

import (
	"context"
	"testing"
	"time"

	"github.com/repaudit/repaudit/internal/dnstest"
)

func TestSnapshot(t *testing.T) {
	srv := dnstest.Start(t, testTable())
	g := []string{".googlebot.com"}
	reqs := []Request{
		{Addr: ipGood, Tokens: []string{"Googlebot"}, Suffixes: g},
		{Addr: ipNoPTR, Tokens: []string{"Googlebot"}, Suffixes: g},
		{Addr: ipFail, Tokens: []string{"Googlebot"}, Suffixes: g},
	}
	// The clock moves a second a call: the header keeps the first and
	// the last reading, to the second.
	at := time.Date(2026, 3, 1, 10, 0, 0, 500, time.UTC)
	tick := func() time.Time { at = at.Add(time.Second); return at }
	h, entries, err := Snapshot(context.Background(), reqs, Options{Server: srv.Addr, Concurrency: 1, Timeout: 5 * time.Second, Now: tick})
	if err != nil || len(entries) != 3 {
		t.Fatalf("%d entries, err %v", len(entries), err)
	}
	if h.Resolver != srv.Addr || !h.Started.Equal(time.Date(2026, 3, 1, 10, 0, 1, 0, time.UTC)) || !h.Finished.Equal(at.Truncate(time.Second)) || !h.Finished.After(h.Started) {
		t.Errorf("header %+v", h)
	}
	if got, want := SummaryText(entries), "3 addresses: 1 confirmed, 0 name outside suffixes, 0 forward mismatch, 1 no PTR, 1 lookup errors"; got != want {
		t.Errorf("SummaryText = %q, want %q", got, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Snapshot(ctx, reqs, Options{Server: srv.Addr, Now: tick}); err == nil {
		t.Error("cancelled: no error")
	}
}
