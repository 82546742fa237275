package audit

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/table"
)

// TestDNSDirWithIPRanges: IP ranges and reverse DNS combine (either one
// confirming the address verifies it; docs/semantics.md, "Reverse
// DNS"), and snapshot files that do not read are problem rows.
func TestDNSDirWithIPRanges(t *testing.T) {
	tmp := t.TempDir()
	ranges := filepath.Join(tmp, "ranges")
	os.Mkdir(ranges, 0o755)
	writeList(t, ranges, "common-crawlers.json", "2026-03-01T00:00:00Z", "66.249.64.0/27")
	dns := filepath.Join(tmp, "dns")
	os.Mkdir(dns, 0o755)
	snap := `{"format":"repaudit-dns-snapshot/1","resolver":"system","started":"2026-03-06T00:00:00Z","finished":"2026-03-06T00:00:01Z"}
{"address":"66.249.70.1","tokens":["Googlebot"],"ptr":["crawl-66-249-70-1.googlebot.com"],"forward":[{"name":"crawl-66-249-70-1.googlebot.com","addresses":["66.249.70.1"]}],"result":"confirmed","time":"2026-03-06T00:00:00Z"}
{"address":"66.249.64.2","tokens":["Googlebot"],"ptr":["host.elsewhere.example"],"result":"name_outside_suffixes","time":"2026-03-06T00:00:00Z"}
{"address":"203.0.113.9","tokens":["Googlebot"],"ptr":["host.elsewhere.example"],"result":"name_outside_suffixes","time":"2026-03-06T00:00:00Z"}
{"address":"203.0.113.10","result":"maybe","time":"2026-03-06T00:00:00Z"}
`
	os.WriteFile(filepath.Join(dns, "dns-2026-03-06T000000Z.jsonl"), []byte(snap), 0o644)
	os.WriteFile(filepath.Join(dns, "notes.txt"), []byte("not a snapshot\n"), 0o644)
	ua := `"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`
	log := `66.249.70.1 - - [05/Mar/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 1 "-" ` + ua + `
66.249.64.2 - - [05/Mar/2026:10:00:01 +0000] "GET /b HTTP/1.1" 200 1 "-" ` + ua + `
203.0.113.9 - - [05/Mar/2026:10:00:02 +0000] "GET /c HTTP/1.1" 200 1 "-" ` + ua + `
`
	logPath := filepath.Join(tmp, "access.log")
	os.WriteFile(logPath, []byte(log), 0o644)
	cfg := Config{Inputs: []string{logPath}, Out: filepath.Join(tmp, "out"), Jobs: 1, IPRangesDirs: []string{ranges}, DNSDirs: []string{dns},
		Eval: evaluate.Options{DefaultAuthority: "https://www.example.com", RobotsTTL: 24 * time.Hour}}
	col := &table.Collector{}
	if err := runInto(context.Background(), cfg, col); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range col.Fetches {
		got = append(got, f.URLPath+":"+f.IPCheck+":"+f.DNSCheck+":"+f.Identity)
	}
	want := "/a:not_in_range:confirmed:verified /b:in_range:name_outside_suffixes:verified /c:not_in_range:name_outside_suffixes:spoofed"
	if strings.Join(got, " ") != want {
		t.Errorf("fetches %q, want %q", strings.Join(got, " "), want)
	}
	kinds := map[string]string{}
	for _, v := range col.Violations {
		if v.Kind == evaluate.KindIPNotPublished || v.Kind == evaluate.KindRDNSMismatch {
			kinds[v.URLPath] += v.Kind + " "
		}
	}
	if kinds["/a"] != "" || kinds["/b"] != "" || kinds["/c"] != "ip_not_published rdns_mismatch " {
		t.Errorf("identity findings %v, want both for /c only", kinds)
	}
	codes := map[string]string{}
	for _, p := range col.Problems {
		codes[filepath.Base(p.SourceFile)+":"+strconv.FormatInt(p.SourceLine, 10)] += p.Code + " "
	}
	if codes["notes.txt:0"] != string(problem.DNSUnreadable)+" " || codes["dns-2026-03-06T000000Z.jsonl:5"] != string(problem.DNSBadEntry)+" " {
		t.Errorf("problems %v, want notes.txt unreadable and line 5 a bad entry", codes)
	}

	empty := filepath.Join(tmp, "empty")
	os.Mkdir(empty, 0o755)
	cfg.DNSDirs, cfg.Out = []string{empty}, filepath.Join(tmp, "o2")
	if err := runInto(context.Background(), cfg, &table.Collector{}); err == nil || !strings.Contains(err.Error(), "dns verify") {
		t.Errorf("an empty --dns-dir: err %v, want a hint at dns verify", err)
	}
}
