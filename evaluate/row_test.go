package evaluate

import (
	"testing"

	"github.com/repaudit/repaudit/table"
)

// TestResponseBytesAndReferrer: the fetches row carries the log's response
// size and Referer, and -1 (not 0) when the source gives no size.
func TestResponseBytesAndReferrer(t *testing.T) {
	s := newScenario(t)
	s.robots(site+"/robots.txt", t0, 200, "User-agent: *\nAllow: /\n")
	sized := s.fetch(uaGPTBot, site+"/a", hours(1), 200)
	sized.Bytes = 5120
	sized.Referer = "https://news.example/story"
	unsized := s.fetch(uaBrowser, site+"/b", hours(2), 304)
	unsized.Bytes = -1
	s.run()
	if got := s.j(sized).Fetch; got.ResponseBytes != 5120 || got.Referrer != "https://news.example/story" {
		t.Errorf("sized fetch: got response_bytes %d referrer %q, want 5120 %q", got.ResponseBytes, got.Referrer, "https://news.example/story")
	}
	if got := s.j(unsized).Fetch; got.ResponseBytes != -1 || got.Referrer != "" {
		t.Errorf("unsized fetch: got response_bytes %d referrer %q, want -1 \"\"", got.ResponseBytes, got.Referrer)
	}
	if n := s.fetchRows(func(f *table.Fetch) bool { return f.ResponseBytes == 5120 }); n != 1 {
		t.Errorf("rows with response_bytes 5120: got %d, want 1", n)
	}
}
