package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inspectDemoFiles are demo inputs of each reader: nginx JSON with a line
// cut short, Apache combined, and a gzip WARC with robots.txt captures.
var inspectDemoFiles = []string{
	demo + "/logs/access-2025-03-12.json.log",
	demo + "/logs/access-2025-03-01.log",
	demo + "/archive/site-2025-03.warc.gz",
	demo + "/dns/dns-2025-03-13T060000Z.jsonl",
}

// TestInspectText pins the text output on demo files.
func TestInspectText(t *testing.T) {
	code, stdout, stderr := runCmd(t, append([]string{"inspect"}, inspectDemoFiles...)...)
	if code != exitOK {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	golden := filepath.Join("testdata", "inspect-demo.txt")
	if *updateGolden {
		if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/repaudit -run TestInspectText -update)", err)
	}
	if stdout != string(want) {
		t.Errorf("inspect output differs from %s (run with -update and review the diff):\n%s", golden, stdout)
	}
}

// inspectJSON runs inspect --json and decodes its document.
func inspectJSON(t *testing.T, args ...string) (int, map[string]inspectFile) {
	t.Helper()
	code, stdout, stderr := runCmd(t, append([]string{"inspect", "--json"}, args...)...)
	var doc struct {
		Files []inspectFile `json:"files"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("inspect --json: %v\nstdout: %s\nstderr: %s", err, stdout, stderr)
	}
	byPath := map[string]inspectFile{}
	for _, f := range doc.Files {
		byPath[f.Path] = f
	}
	return code, byPath
}

func TestInspectJSON(t *testing.T) {
	code, files := inspectJSON(t, inspectDemoFiles...)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if len(files) != len(inspectDemoFiles) {
		t.Fatalf("got %d files, want %d", len(files), len(inspectDemoFiles))
	}
	tests := []struct {
		path                      string
		kind, format              string
		fetches, captures         int64
		robotsCaps, robotsFetches int64
		first, last               string
		problems                  int
	}{
		{inspectDemoFiles[0], "log", "nginx-json", 36, 0, 0, 10, "2025-03-05T10:00:00Z", "2025-03-28T08:02:00Z", 1},
		{inspectDemoFiles[1], "log", "combined", 4, 0, 0, 1, "2025-03-01T11:11:00Z", "2025-03-01T12:10:00Z", 0},
		{inspectDemoFiles[2], "warc", "gzip", 0, 14, 5, 0, "2025-03-01T00:00:00Z", "2025-03-28T00:00:00Z", 0},
		// A reverse-DNS snapshot is named as such, with no fetches of its own.
		{inspectDemoFiles[3], "dns", "", 0, 0, 0, 0, "", "", 0},
	}
	for _, tt := range tests {
		f, ok := files[tt.path]
		if !ok {
			t.Errorf("%s missing from the document", tt.path)
			continue
		}
		if f.Kind != tt.kind || f.Format != tt.format {
			t.Errorf("%s: kind %s (%s), want %s (%s)", tt.path, f.Kind, f.Format, tt.kind, tt.format)
		}
		if f.Fetches != tt.fetches || f.Captures != tt.captures {
			t.Errorf("%s: %d fetches, %d captures, want %d, %d", tt.path, f.Fetches, f.Captures, tt.fetches, tt.captures)
		}
		if f.RobotsCaptures != tt.robotsCaps || f.RobotsFetches != tt.robotsFetches {
			t.Errorf("%s: robots.txt %d captures, %d fetches, want %d, %d", tt.path, f.RobotsCaptures, f.RobotsFetches, tt.robotsCaps, tt.robotsFetches)
		}
		if f.First != tt.first || f.Last != tt.last {
			t.Errorf("%s: time range %s .. %s, want %s .. %s", tt.path, f.First, f.Last, tt.first, tt.last)
		}
		if len(f.Problems) != tt.problems {
			t.Errorf("%s: %d problems, want %d: %+v", tt.path, len(f.Problems), tt.problems, f.Problems)
		}
		if f.Problems == nil {
			t.Errorf("%s: problems is null, want a list", tt.path)
		}
	}
	// The cut-short line is located by file and line, not by offset.
	if ps := files[inspectDemoFiles[0]].Problems; len(ps) == 1 {
		p := ps[0]
		if p.Source.File != inspectDemoFiles[0] || p.Source.Line != 34 || p.Source.Offset != -1 || p.Code != "log-unparsed-line" || p.Severity != "error" {
			t.Errorf("problem = %+v, want %s:34 log-unparsed-line error", p, inspectDemoFiles[0])
		}
	}
	if st := files[inspectDemoFiles[2]].Statuses; st["200"] != 13 || st["503"] != 1 {
		t.Errorf("WARC statuses = %v, want 200: 13, 503: 1", st)
	}
}

func TestInspectEvents(t *testing.T) {
	code, stdout, stderr := runCmd(t, "inspect", "--events", inspectDemoFiles[0], inspectDemoFiles[2])
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	counts := map[string]int{}
	var first jsonEvent
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for n := 0; sc.Scan(); n++ {
		var e jsonEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d: %v: %s", n+1, err, sc.Text())
		}
		if n == 0 {
			first = e
		}
		counts[e.Type+" "+e.SourceFile]++
		switch e.Type {
		case "fetch":
			if e.SourceLine <= 0 || e.Offset != nil {
				t.Errorf("fetch %s has no line location: %s", e.URL, sc.Text())
			}
		case "capture":
			if e.Offset == nil || e.Length <= 0 || e.RecordID == "" || e.RecordType == "" {
				t.Errorf("capture %s has no record location: %s", e.URL, sc.Text())
			}
		default:
			t.Errorf("unknown event type %q", e.Type)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"fetch " + inspectDemoFiles[0]:   36,
		"capture " + inspectDemoFiles[2]: 14,
	}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("%d events %s, want %d (all: %v)", counts[k], k, n, counts)
		}
	}
	if len(counts) != len(want) {
		t.Errorf("event kinds %v, want %v", counts, want)
	}
	// Files are read in the order ingest.Expand gives (sorted paths), each
	// from its start: the first capture of the WARC comes first.
	if first.Type != "capture" || first.SourceFile != inspectDemoFiles[2] || first.Offset == nil ||
		first.URL != "https://www.example.com/robots.txt" || first.Time != "2025-03-01T00:00:00Z" {
		t.Errorf("first event = %+v, want the first capture of %s, its robots.txt", first, inspectDemoFiles[2])
	}
	if first.Headers["Content-Type"] == nil || first.Status != 200 || first.RecordType != "response" {
		t.Errorf("first event lacks its response: %+v", first)
	}
}

// TestInspectBadFiles: an unreadable file and a truncated WARC are
// reported with their location, the rest is still shown, and the exit
// code says something could not be read.
func TestInspectBadFiles(t *testing.T) {
	tmp := t.TempDir()
	garbage := filepath.Join(tmp, "garbage.bin")
	if err := os.WriteFile(garbage, []byte("\x00\x01 not anything repaudit reads\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The crawl WARC cut inside its last gzip members.
	data, err := os.ReadFile(demo + "/archive/crawl-2025-03.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(tmp, "cut.warc.gz")
	if err := os.WriteFile(cut, data[:3000], 0o644); err != nil {
		t.Fatal(err)
	}

	code, stdout, _ := runCmd(t, "inspect", garbage, cut)
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	for _, want := range []string{
		garbage + ": unknown, 31 B\n  note: not a WARC",
		cut + ": warc (gzip), 2.9 KiB\n",
		"  problems: 1\n    " + cut + "@2873: error warc-truncated: record incomplete",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, stdout)
		}
	}

	code, files := inspectJSON(t, garbage, cut)
	if code != exitUsage {
		t.Errorf("--json: exit %d, want %d", code, exitUsage)
	}
	if f := files[garbage]; f.Kind != "unknown" || f.Note == "" {
		t.Errorf("garbage: %+v, want kind unknown with a note", f)
	}
	f := files[cut]
	if len(f.Problems) != 1 || f.Problems[0].Source.Line != 0 || f.Problems[0].Source.Offset != 2873 || f.Problems[0].Code != "warc-truncated" {
		t.Errorf("cut WARC problems = %+v, want warc-truncated at offset 2873", f.Problems)
	}
	if f.Captures == 0 {
		t.Errorf("cut WARC: no captures read before the cut")
	}

	if code, _, stderr := runCmd(t, "inspect", filepath.Join(tmp, "missing.log")); code != exitUsage || !strings.Contains(stderr, "missing.log") {
		t.Errorf("missing file: exit %d, stderr %q; want %d naming the file", code, stderr, exitUsage)
	}
	if code, _, _ := runCmd(t, "inspect"); code != exitUsage {
		t.Errorf("no files: exit %d, want %d", code, exitUsage)
	}
	if code, _, stderr := runCmd(t, "inspect", "--log-format", "nonsense", inspectDemoFiles[0]); code != exitUsage || !strings.Contains(stderr, "nonsense") {
		t.Errorf("bad --log-format: exit %d, stderr %q", code, stderr)
	}
	if code, _, _ := runCmd(t, "inspect", "-h"); code != exitOK {
		t.Errorf("-h: exit %d, want %d", code, exitOK)
	}
}
