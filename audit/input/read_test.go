package input

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/problem"
)

// recorder is a Sink that keeps copies of what it is given.
type recorder struct {
	fetches  []event.Fetch
	captures int
	versions []evaluate.SiteVersion
	entries  []evaluate.ListingEntry
	docs     []ingest.File
}

func (r *recorder) Fetch(ft *event.Fetch)               { r.fetches = append(r.fetches, *ft) }
func (r *recorder) Capture(*event.Capture, bool)        { r.captures++ }
func (r *recorder) Warcinfo(event.Source, event.Header) {}
func (r *recorder) SiteVersion(v evaluate.SiteVersion)  { r.versions = append(r.versions, v) }
func (r *recorder) Entry(e evaluate.ListingEntry)       { r.entries = append(r.entries, e) }
func (r *recorder) Document(f ingest.File)              { r.docs = append(r.docs, f) }

const twoLines = `192.0.2.1 - - [05/Mar/2025:10:00:00 +0000] "GET /a HTTP/1.1" 200 10 "-" "Mozilla/5.0 (compatible; ExampleBot/1.0)"
192.0.2.2 - - [05/Mar/2025:10:00:01 +0000] "GET /b HTTP/1.1" 200 10 "-" "Mozilla/5.0 (compatible; ExampleBot/1.0)"
`

func readOne(t *testing.T, path string, opts Options, f func(*File)) (*Result, *recorder) {
	t.Helper()
	sn, err := ingest.Sniff(path, "")
	in := File{File: sn, Err: err}
	if f != nil {
		f(&in)
	}
	r := Reader{Options: &opts, Catalog: bots.Default(), IDs: identity.NewStore()}
	var rec recorder
	return r.Read(context.Background(), in, &rec), &rec
}

func write(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReadBoundLog: a log bound to its site gives its host-less fetches
// that site, notes it among the hosts, and its record counts and hashes
// the bytes read.
func TestReadBoundLog(t *testing.T) {
	p := write(t, t.TempDir(), "access.log", twoLines)
	res, rec := readOne(t, p, Options{}, func(f *File) { f.Site = "https://www.example.org" })
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(rec.fetches) != 2 || rec.fetches[0].Host != "www.example.org" || rec.fetches[0].Scheme != "https" {
		t.Fatalf("fetches %+v, want 2 of https://www.example.org", rec.fetches)
	}
	if hosts, hostless := res.Hosts.Hosts(); len(hosts) != 1 || hosts[0] != "https://www.example.org" || hostless != 0 {
		t.Errorf("hosts %v (%d host-less), want [https://www.example.org]", hosts, hostless)
	}
	in := res.Input()
	if in.Path != p || in.Size != int64(len(twoLines)) || in.Records != 2 || len(in.SHA256) != 64 {
		t.Errorf("input record %+v", in)
	}
	if c := res.Closing(); len(c) != 0 {
		t.Errorf("closing problems %+v, want none", c)
	}
}

// TestReadProblemCap: past the cap, problems are counted by code and
// summarised once per code, located at the file as named, also when a
// copy is read (Spool).
func TestReadProblemCap(t *testing.T) {
	dir := t.TempDir()
	data := strings.Repeat(twoLines, 10) + strings.Repeat("this is not a log line\n", 5)
	copyPath := write(t, dir, "copy.log", data)
	res, _ := readOne(t, copyPath, Options{MaxProblemsPerFile: 2}, func(f *File) { f.Path, f.Spool = "named.log", copyPath })
	if len(res.Problems.List) != 2 {
		t.Fatalf("kept %d problems, want 2", len(res.Problems.List))
	}
	for _, p := range res.Problems.List {
		if p.Source.File != "named.log" {
			t.Errorf("problem at %q, want named.log", p.Source.File)
		}
	}
	c := res.Closing()
	if len(c) != 1 || c[0].Source.File != "named.log" || !strings.Contains(c[0].Message, "3 more problems with this code not listed (cap 2 per file)") {
		t.Errorf("closing problems %+v, want one summary of 3 more", c)
	}
}

// TestReadKinds: a robots.txt file is one version, a listing gives its
// entries, an empty log is worth a problem, and a file of no kind is a
// failed input that says so.
func TestReadKinds(t *testing.T) {
	dir := t.TempDir()
	res, rec := readOne(t, write(t, dir, "robots.txt", "User-agent: *\nDisallow: /private\n"), Options{}, nil)
	if res.Err != nil || len(rec.versions) != 1 || res.Input().Records != 1 {
		t.Errorf("robots.txt: err %v, versions %d, record %+v", res.Err, len(rec.versions), res.Input())
	}
	res, rec = readOne(t, write(t, dir, "index.csv", "url,time\nhttps://www.example.org/a,2025-03-01\nhttps://www.example.org/b,2025-03-02\n"), Options{}, nil)
	if res.Err != nil || len(rec.entries) != 2 {
		t.Errorf("listing: err %v, %d entries, want 2", res.Err, len(rec.entries))
	}
	res, _ = readOne(t, write(t, dir, "blob.bin", "\x00\x01\x02 nothing repaudit reads"), Options{}, nil)
	if res.Err == nil || !strings.Contains(res.Err.Error(), "cannot tell what this file holds") {
		t.Errorf("unknown file: err %v", res.Err)
	}
	if c := res.Closing(); len(c) != 1 || c[0].Code != problem.InputUnreadable {
		t.Errorf("unknown file: closing %+v, want input-unreadable", c)
	}
}

// TestDuplicates: the second of two files with the same content is
// dropped with a problem naming the first; equal sizes alone are not
// enough.
func TestDuplicates(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a.log", "same\n")
	b := write(t, dir, "b.log", "same\n")
	c := write(t, dir, "c.log", "diff\n")
	var cands []Candidate
	for _, p := range []string{a, b, c} {
		cands = append(cands, Candidate{File: ingest.File{Path: p, Size: 5}})
	}
	var st State
	dup := Duplicates(cands, &st)
	if len(dup) != 1 || !dup[1] {
		t.Fatalf("duplicates %v, want [1]", dup)
	}
	if len(st.Problems) != 1 || st.Problems[0].Code != problem.InputDuplicate || !strings.Contains(st.Problems[0].Message, a) {
		t.Errorf("problems %+v", st.Problems)
	}
}
