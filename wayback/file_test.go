package wayback

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/netfetch"
)

func TestHistoryWriteFile(t *testing.T) {
	ok := RawURL(testBase, "20200101000000", "https://example.com/robots.txt")
	h := newTestHistory(nil, &fakeGetter{answers: map[string]*netfetch.Response{ok: {Status: 200, Body: []byte("User-agent: *\n")}}}, new([]time.Duration))
	l := Listing{QueryURL: "https://wayback.test/cdx?q", Selection: Selection{Keep: []Capture{{Timestamp: "20200101000000", Original: "https://example.com/robots.txt", Status: 200}}}}
	path := filepath.Join(t.TempDir(), "h.warc.gz")
	written, failed, err := h.WriteFile(context.Background(), path, l, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "sw/1", "ua/1", func(Result) {})
	if err != nil || written != 1 || failed != 0 {
		t.Fatalf("written %d, failed %d, err %v; want 1, 0, nil", written, failed, err)
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("output is not gzip: %v", err)
	}

	// Interrupted: nothing is left at the path.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path2 := filepath.Join(t.TempDir(), "h2.warc.gz")
	if _, _, err := h.WriteFile(ctx, path2, l, time.Now(), "sw/1", "ua/1", func(Result) {}); err == nil {
		t.Error("cancelled: no error")
	}
	if _, err := os.Stat(path2); !os.IsNotExist(err) {
		t.Errorf("cancelled: output exists (%v)", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path2))
	if len(entries) != 0 {
		t.Errorf("cancelled: left %v", entries)
	}
}

func TestHistoryWarcinfo(t *testing.T) {
	h := newTestHistory(nil, nil, new([]time.Duration))
	var b bytes.Buffer
	for _, f := range h.Warcinfo("Q", "sw/1", "ua/1") {
		b.WriteString(f.Name + ": " + f.Value + "\n")
	}
	for _, want := range []string{"software: sw/1\n", "cdx-query: Q\n", "http-header-user-agent: ua/1\n", "isPartOf: repaudit robots history https://example.com\n", "robots.txt of example.com as"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("warcinfo lacks %q:\n%s", want, b.String())
		}
	}
}

func TestHistoryLines(t *testing.T) {
	h := newTestHistory(nil, nil, new([]time.Duration))
	h.Max, h.From = 2, "2020"
	l := Listing{Notes: []string{"row 3: bad"}, Others: "www.example.com: 2", Distinct: 5, Selection: Selection{Keep: make([]Capture, 2), Seen: 1, Older: 2, Repeats: 4}}
	want := []string{
		"CDX answer: row 3: bad",
		"CDX answer: left out captures of other hosts: www.example.com: 2 (ask for that host to get them)",
		"CDX answer: 5 captures of distinct content and status; fetching 2 (--max-captures 2): left out 1 that repeat an earlier content with the same status and 2 older ones (narrow with --from/--to, or raise --max-captures)",
		"CDX answer: 4 captures repeat the content and status of the one before: not fetched",
	}
	if got := h.Lines(l); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := h.Lines(Listing{}); len(got) != 1 || got[0] != `no captures of example.com/robots.txt in https://wayback.test between "2020" and ""` {
		t.Errorf("empty: %q", got)
	}
}
