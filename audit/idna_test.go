package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/repaudit/repaudit/table"
)

// warcResponse writes one uncompressed WARC response record.
func warcResponse(uri, date, body string) string {
	http := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + fmt.Sprint(len(body)) + "\r\n\r\n" + body
	return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri + "\r\nWARC-Date: " + date +
		"\r\nWARC-Record-ID: <urn:uuid:6c2b0a8e-1b1f-4f7e-9a55-3f7d8c1e2a10>\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: " +
		fmt.Sprint(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
}

// TestIDNAHostsAreOne: a log line whose Host is münchen.example is judged
// by the robots.txt captured at https://xn--mnchen-3ya.example/robots.txt:
// both name one host.
func TestIDNAHostsAreOne(t *testing.T) {
	tmp := t.TempDir()
	w := filepath.Join(tmp, "robots.warc")
	os.WriteFile(w, []byte(warcResponse("https://xn--mnchen-3ya.example/robots.txt", "2025-03-01T00:00:00Z", "User-agent: *\nDisallow: /private\n")), 0o644)
	l := filepath.Join(tmp, "access.log")
	ua := `"Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"`
	os.WriteFile(l, []byte("münchen.example:443 44.221.181.252 - - [12/Mar/2025:10:00:00 +0000] \"GET /private/a HTTP/1.1\" 200 100 \"-\" "+ua+"\n"), 0o644)
	col := &table.Collector{}
	cfg := Config{Inputs: []string{w, l}, Out: filepath.Join(tmp, "out"), Jobs: 1}
	if _, _, err := execute(context.Background(), cfg, col); err != nil {
		t.Fatal(err)
	}
	if len(col.Fetches) == 0 {
		t.Fatalf("no fetch read; problems %+v", col.Problems)
	}
	for _, f := range col.Fetches {
		if f.SourceFile != l {
			continue
		}
		if f.URL != "https://xn--mnchen-3ya.example/private/a" || f.RobotsVerdict != "disallowed" || f.RobotsVersionID == "" {
			t.Errorf("fetch %s: verdict %q version %q; want the ASCII URL judged disallowed by the captured robots.txt", f.URL, f.RobotsVerdict, f.RobotsVersionID)
		}
	}
}
