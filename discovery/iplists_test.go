package discovery

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/bots"
)

func TestIPListsFetch(t *testing.T) {
	bodies := map[string]string{
		"https://mirror.test/ops.example/good.json": `{"creationTime":"2026-11-20T08:00:00Z","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`,
		"https://mirror.test/ops.example/page.json": "<html>moved</html>",
	}
	written := map[string]string{}
	var delays []time.Duration
	f := IPLists{
		Dir: "out", Mirror: "https://mirror.test",
		Get: func(_ context.Context, u string) ([]byte, error) {
			if b, ok := bodies[u]; ok {
				return []byte(b), nil
			}
			return nil, errors.New("status 404")
		},
		Write: func(path string, body []byte) error { written[path] = string(body); return nil },
		Now:   func() time.Time { return time.Date(2026, 11, 23, 18, 45, 0, 0, time.UTC) },
		Sleep: func(_ context.Context, d time.Duration) error { delays = append(delays, d); return nil },
		Delay: 2 * time.Second,
	}
	lists := []bots.IPRangeList{
		{URL: "https://ops.example/good.json", Tokens: []string{"ExampleBot"}},
		{URL: "https://ops.example/page.json"},
		{URL: "https://ops.example/gone.json"},
	}
	var got []string
	w, failed, err := f.Fetch(context.Background(), lists, func(r IPListResult) {
		if r.Err != nil {
			got = append(got, r.URL+": "+r.Err.Error())
			return
		}
		got = append(got, r.URL+": "+r.Note)
	})
	if err != nil || w != 1 || failed != 2 {
		t.Fatalf("written %d, failed %d, err %v; want 1, 2, nil", w, failed, err)
	}
	if len(got) != 3 || !strings.HasPrefix(got[0], "https://ops.example/good.json: 200, ") ||
		!strings.HasPrefix(got[1], "https://ops.example/page.json: 200, but ") || got[2] != "https://ops.example/gone.json: status 404" {
		t.Errorf("results:\n%s", strings.Join(got, "\n"))
	}
	if len(written) != 1 {
		t.Fatalf("written %v, want one file", written)
	}
	for path, body := range written {
		if !strings.HasPrefix(path, "out/ops.example_good.json.2026-11-23T184500Z") || body != bodies["https://mirror.test/ops.example/good.json"] {
			t.Errorf("wrote %s: %q", path, body)
		}
	}
	if len(delays) != 2 || delays[0] != 2*time.Second {
		t.Errorf("delays %v, want two of 2s", delays)
	}

	f.Sleep = func(ctx context.Context, _ time.Duration) error { return context.Canceled }
	if w, _, err := f.Fetch(context.Background(), lists, func(IPListResult) {}); !errors.Is(err, context.Canceled) || w != 1 {
		t.Errorf("interrupted while waiting: written %d, err %v; want 1, context.Canceled", w, err)
	}
}
