package audit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/table"
)

const (
	googlebotURL = "https://developers.google.com/static/search/apis/ipranges/googlebot.json"
	bingbotURL   = "https://www.bing.com/toolbox/bingbot.json"
)

// googlebotLog has real Googlebot fetches (66.249.64.5, 66.249.66.9) and a
// fake one from a Tor exit (185.220.101.1), on 5 and 12 March 2025.
const googlebotLog = `66.249.64.5 - - [05/Mar/2025:10:00:00 +0000] "GET /a HTTP/1.1" 200 100 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
185.220.101.1 - - [05/Mar/2025:10:00:01 +0000] "GET /b HTTP/1.1" 200 100 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
66.249.64.5 - - [12/Mar/2025:10:00:00 +0000] "GET /c HTTP/1.1" 200 100 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
66.249.66.9 - - [12/Mar/2025:10:00:01 +0000] "GET /d HTTP/1.1" 200 100 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
`

func writeList(t *testing.T, dir, name, created, prefix string) {
	t.Helper()
	doc := `{"creationTime":"` + created + `","prefixes":[{"ipv4Prefix":"` + prefix + `"}]}`
	if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIPRangesDir: dated snapshots of googlebot.json in a directory form a
// timeline (the 1 March list covers 5 March, the 10 March list 12 March),
// a file named for no catalog list is a problem row and the run goes on,
// and the same directory given as an input is read the same way.
func TestIPRangesDir(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "ranges")
	os.Mkdir(dir, 0o755)
	n1, _ := identity.IPListFileName(googlebotURL, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC))
	n2, _ := identity.IPListFileName(googlebotURL, time.Date(2025, 3, 10, 0, 0, 0, 0, time.UTC))
	writeList(t, dir, n1, "2025-03-01T00:00:00.000000", "66.249.64.0/27")
	writeList(t, dir, n2, "2025-03-10T00:00:00.000000", "66.249.66.0/27")
	writeList(t, dir, "my-ranges.json", "2025-03-01T00:00:00Z", "10.0.0.0/8")
	logPath := filepath.Join(tmp, "access.log")
	os.WriteFile(logPath, []byte(googlebotLog), 0o644)

	for _, asInput := range []bool{false, true} {
		cfg := Config{Inputs: []string{logPath}, Out: filepath.Join(tmp, "out"), Jobs: 2,
			Options: input.Options{Eval: evaluate.Options{DefaultAuthority: "https://www.example.com", RobotsTTL: 24 * time.Hour}}}
		if asInput {
			cfg.Inputs = append(cfg.Inputs, dir)
		} else {
			cfg.IPRangesDirs = []string{dir}
		}
		col := &table.Collector{}
		if err := runInto(context.Background(), cfg, col); err != nil {
			t.Fatalf("as input %v: %v", asInput, err)
		}
		var got []string
		for _, f := range col.Fetches {
			got = append(got, f.URLPath+":"+f.IPCheck+":"+f.Identity)
		}
		want := "/a:in_range:verified /b:not_in_range:spoofed /c:not_in_range:spoofed /d:in_range:verified"
		if strings.Join(got, " ") != want {
			t.Errorf("as input %v: fetches %q, want %q", asInput, strings.Join(got, " "), want)
		}
		var unmapped int
		for _, p := range col.Problems {
			if p.Code == string(problem.IPListUnmapped) {
				unmapped++
				if !strings.HasSuffix(p.SourceFile, "my-ranges.json") || !strings.Contains(p.Message, "--ip-ranges TOKEN=") {
					t.Errorf("as input %v: problem %+v", asInput, p)
				}
			}
		}
		if unmapped != 1 {
			t.Errorf("as input %v: %d iplist-unmapped problems, want 1: %+v", asInput, unmapped, col.Problems)
		}
		for _, v := range col.Violations {
			if v.Kind == "ip_not_published" && !strings.Contains(v.Evidence, googlebotURL) {
				t.Errorf("as input %v: evidence %q does not name the list", asInput, v.Evidence)
			}
		}
	}

	if err := runInto(context.Background(), Config{Inputs: []string{logPath}, Out: filepath.Join(tmp, "o2"), Options: input.Options{IPRangesDirs: []string{filepath.Join(tmp, "none")}}}, &table.Collector{}); err == nil {
		t.Error("a missing --ip-ranges-dir is not an error")
	}
	empty := filepath.Join(tmp, "empty")
	os.Mkdir(empty, 0o755)
	if err := runInto(context.Background(), Config{Inputs: []string{logPath}, Out: filepath.Join(tmp, "o3"), Options: input.Options{IPRangesDirs: []string{empty}}}, &table.Collector{}); err == nil ||
		!strings.Contains(err.Error(), "ranges fetch") {
		t.Errorf("an empty --ip-ranges-dir: err %v, want a hint at ranges fetch", err)
	}
}

// bingShaped is an IP list in the shape Bing serves bingbot.json: JSON
// with creationTime and prefixes[].ipv4Prefix, zero-width spaces (U+200B)
// between tokens and inside keys and values, and here a byte order mark.
// The prefixes are documentation ranges, not Bing's.
const bingShaped = "\ufeff{\n\u200b  \"creation\u200bTime\": \"2025-03-01T10:00:00.121331\u200b\",\n" +
	"  \"prefixes\": [\n\u200b    {\"ipv4\u200bPrefix\": \"198.51.100.0/24\u200b\"},\n" +
	"    {\"\u200bipv4Prefix\": \"203.0.113.0/24\"}\n\u200b  ]\n}\n"

// TestIPListSeverity: a list exactly as its publisher serves it is used
// and its quirks are info, so --fail-on-problems (warning) passes; a list
// with real damage still raises a warning.
func TestIPListSeverity(t *testing.T) {
	const log = `198.51.100.7 - - [12/Mar/2025:10:00:00 +0000] "GET /a HTTP/1.1" 200 100 "-" "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"` + "\n"
	tests := []struct {
		name      string
		list      string
		wantCheck string
		wantProbs string // code:severity, sorted as reported
	}{
		{"Bing's shape", bingShaped, "in_range", "iplist-zero-width-space:info"},
		{"plain JAFAR", `{"creationTime":"2025-03-01T10:00:00Z","prefixes":[{"ipv4Prefix":"198.51.100.0/24"}]}`, "in_range", ""},
		{"Bing's shape with a broken prefix", strings.Replace(bingShaped, "203.0.113.0/24", "203.0.113.0/33", 1), "in_range",
			"iplist-zero-width-space:info iplist-bad-prefix:warning"},
		{"a prefix with host bits", `{"prefixes":[{"ipv4Prefix":"198.51.100.9/24"}]}`, "in_range", "iplist-host-bits:warning"},
		{"not a list", `{"creationTime":"2025-03-01T10:00:00Z"}`, "not_given", "iplist-unreadable:error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			dir := filepath.Join(tmp, "ranges")
			os.Mkdir(dir, 0o755)
			os.WriteFile(filepath.Join(dir, "bingbot.json"), []byte(tt.list), 0o644)
			logPath := filepath.Join(tmp, "access.log")
			os.WriteFile(logPath, []byte(log), 0o644)
			cfg := Config{Inputs: []string{logPath}, Out: filepath.Join(tmp, "out"), Jobs: 1, Options: input.Options{IPRangesDirs: []string{dir}, Eval: evaluate.Options{DefaultAuthority: "https://www.example.com", RobotsTTL: 24 * time.Hour}}}
			col := &table.Collector{}
			if err := runInto(context.Background(), cfg, col); err != nil {
				t.Fatal(err)
			}
			if len(col.Fetches) != 1 || col.Fetches[0].IPCheck != tt.wantCheck {
				t.Fatalf("fetches %+v, want one with ip_check %s", col.Fetches, tt.wantCheck)
			}
			var got []string
			for _, p := range col.Problems {
				if strings.HasPrefix(p.Code, "iplist-") {
					got = append(got, p.Code+":"+p.Severity)
				}
			}
			if strings.Join(got, " ") != tt.wantProbs {
				t.Errorf("problems %q, want %q", strings.Join(got, " "), tt.wantProbs)
			}
		})
	}
}

// TestCatalogListNames: in an --ip-ranges-dir, a list shared by several
// bots (claude.com's bots.json, Google's common-crawlers.json) verifies
// each of them.
func TestCatalogListNames(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "ranges")
	os.Mkdir(dir, 0o755)
	writeList(t, dir, "bots.json", "2026-03-01T00:00:00Z", "160.79.104.0/23")
	writeList(t, dir, "common-crawlers.json", "2026-03-01T00:00:00Z", "66.249.64.0/19")
	log := `160.79.104.10 - - [05/Mar/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 1 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
160.79.104.11 - - [05/Mar/2026:10:00:01 +0000] "GET /b HTTP/1.1" 200 1 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)"
160.79.104.12 - - [05/Mar/2026:10:00:02 +0000] "GET /c HTTP/1.1" 200 1 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +Claude-SearchBot@anthropic.com)"
192.0.2.1 - - [05/Mar/2026:10:00:03 +0000] "GET /d HTTP/1.1" 200 1 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)"
66.249.66.1 - - [05/Mar/2026:10:00:04 +0000] "GET /e HTTP/1.1" 200 1 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
66.249.66.2 - - [05/Mar/2026:10:00:05 +0000] "GET /f HTTP/1.1" 200 1 "-" "Mozilla/5.0 (compatible; GoogleOther)"
`
	logPath := filepath.Join(tmp, "access.log")
	os.WriteFile(logPath, []byte(log), 0o644)
	cfg := Config{Inputs: []string{logPath}, Out: filepath.Join(tmp, "out"), Jobs: 1, Options: input.Options{IPRangesDirs: []string{dir}, Eval: evaluate.Options{DefaultAuthority: "https://www.example.com", RobotsTTL: 24 * time.Hour}}}
	col := &table.Collector{}
	if err := runInto(context.Background(), cfg, col); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range col.Fetches {
		got = append(got, f.Agent+":"+f.IPCheck+":"+f.Identity)
	}
	want := "ClaudeBot:in_range:verified Claude-User:in_range:verified Claude-SearchBot:in_range:verified Claude-User:not_in_range:spoofed " +
		"Googlebot:in_range:verified GoogleOther:in_range:verified"
	if strings.Join(got, " ") != want {
		t.Errorf("fetches %q, want %q", strings.Join(got, " "), want)
	}
}
