package audit

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/audit/input"
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
	cfg := Config{Inputs: []string{logPath}, Out: filepath.Join(tmp, "out"), Jobs: 1, Options: input.Options{IPRangesDirs: []string{ranges}, DNSDirs: []string{dns}, Eval: evaluate.Options{DefaultAuthority: "https://www.example.com", RobotsTTL: 24 * time.Hour}}}
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

// TestDNSSnapshotAsInput: a snapshot given as an input (or found in an
// input directory) is read as a file of a --dns-dir is: the same
// identities, findings with the same evidence, the same problems.
func TestDNSSnapshotAsInput(t *testing.T) {
	tmp := t.TempDir()
	snap := `{"format":"repaudit-dns-snapshot/1","resolver":"system","started":"2026-03-06T00:00:00Z","finished":"2026-03-06T00:00:01Z"}
{"address":"66.249.70.1","tokens":["Googlebot"],"ptr":["crawl-66-249-70-1.googlebot.com"],"forward":[{"name":"crawl-66-249-70-1.googlebot.com","addresses":["66.249.70.1"]}],"result":"confirmed","time":"2026-03-06T00:00:00Z"}
{"address":"203.0.113.9","tokens":["Googlebot"],"ptr":["host.elsewhere.example"],"result":"name_outside_suffixes","time":"2026-03-06T00:00:00Z"}
{"address":"203.0.113.10","result":"maybe","time":"2026-03-06T00:00:00Z"}
`
	in := filepath.Join(tmp, "in")
	os.MkdirAll(filepath.Join(in, "dns"), 0o755)
	snapPath := filepath.Join(in, "dns", "dns-2026-03-06T000000Z.jsonl")
	os.WriteFile(snapPath, []byte(snap), 0o644)
	ua := `"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`
	log := `66.249.70.1 - - [05/Mar/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 1 "-" ` + ua + `
203.0.113.9 - - [05/Mar/2026:10:00:02 +0000] "GET /c HTTP/1.1" 200 1 "-" ` + ua + `
`
	logPath := filepath.Join(in, "access.log")
	os.WriteFile(logPath, []byte(log), 0o644)

	run := func(name string, cfg Config) (fetches, findings, problems string) {
		t.Helper()
		cfg.Out, cfg.Jobs = filepath.Join(tmp, name), 1
		cfg.Eval = evaluate.Options{DefaultAuthority: "https://www.example.com", RobotsTTL: 24 * time.Hour}
		col := &table.Collector{}
		if err := runInto(context.Background(), cfg, col); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, f := range col.Fetches {
			fetches += f.URLPath + ":" + f.DNSCheck + ":" + f.Identity + ":" + f.Operator + ":" + f.DNSEvidence + "\n"
		}
		for _, v := range col.Violations {
			findings += v.URLPath + ":" + v.Kind + ":" + v.Evidence + "\n"
		}
		for _, p := range col.Problems {
			problems += p.SourceFile + ":" + strconv.FormatInt(p.SourceLine, 10) + ":" + p.Code + ":" + p.Message + "\n"
		}
		return fetches, findings, problems
	}
	wantF, wantV, wantP := run("dir", Config{Inputs: []string{logPath}, Options: input.Options{DNSDirs: []string{filepath.Dir(snapPath)}}})
	if !strings.Contains(wantF, "/c:name_outside_suffixes:spoofed::") || !strings.Contains(wantV, "/c:rdns_mismatch:") ||
		!strings.Contains(wantP, snapPath+":4:"+string(problem.DNSBadEntry)) {
		t.Fatalf("--dns-dir run: fetches\n%s findings\n%s problems\n%s", wantF, wantV, wantP)
	}
	for _, tt := range []struct {
		name   string
		inputs []string
	}{
		{"file", []string{logPath, snapPath}},
		{"directory", []string{in}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, v, p := run(tt.name, Config{Inputs: tt.inputs})
			if f != wantF {
				t.Errorf("fetches:\n%s\nwant (as --dns-dir):\n%s", f, wantF)
			}
			if v != wantV {
				t.Errorf("findings:\n%s\nwant (as --dns-dir):\n%s", v, wantV)
			}
			if p != wantP {
				t.Errorf("problems:\n%s\nwant (as --dns-dir):\n%s", p, wantP)
			}
		})
	}
}
