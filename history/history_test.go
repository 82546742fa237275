package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// commitFile writes (or with body nil removes) name in the work tree of
// repo at dir and commits it at when.
func commitFile(t *testing.T, repo *git.Repository, dir, name string, body []byte, when time.Time, msg string) {
	t.Helper()
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if body == nil {
		if _, err := wt.Remove(name); err != nil {
			t.Fatal(err)
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			t.Fatal(err)
		}
	}
	sig := &object.Signature{Name: "Site Editor", Email: "editor@example.com", When: when}
	if _, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true}); err != nil {
		t.Fatal(err)
	}
}

func TestReadGit(t *testing.T) {
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2025, 3, 1, 9, 0, 0, 0, time.FixedZone("CET", 3600))
	commitFile(t, repo, dir, "index.html", []byte("<p>hi</p>"), t0, "site skeleton")
	commitFile(t, repo, dir, "public/robots.txt", []byte("User-agent: *\nAllow: /\n"), t0.Add(time.Hour), "allow everything")
	commitFile(t, repo, dir, "index.html", []byte("<p>hello</p>"), t0.Add(2*time.Hour), "copy edit")
	commitFile(t, repo, dir, "public/robots.txt", []byte("User-agent: GPTBot\nDisallow: /\n"), t0.Add(48*time.Hour), "block GPTBot\n\nlong body")
	commitFile(t, repo, dir, "public/robots.txt", nil, t0.Add(96*time.Hour), "drop robots.txt")

	vs, probs, err := ReadGit(filepath.Join(dir, "public"), "public/robots.txt") // a directory below the work tree
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != 0 {
		t.Errorf("problems: %v", probs)
	}
	if len(vs) != 3 {
		t.Fatalf("got %d versions, want 3: %+v", len(vs), vs)
	}
	want := []struct {
		from   time.Time
		body   string
		absent bool
		detail string
	}{
		{t0.Add(time.Hour), "User-agent: *\nAllow: /\n", false, `"allow everything" by Site Editor`},
		{t0.Add(48 * time.Hour), "User-agent: GPTBot\nDisallow: /\n", false, `"block GPTBot" by Site Editor`},
		{t0.Add(96 * time.Hour), "", true, `"drop robots.txt" by Site Editor`},
	}
	for i, w := range want {
		v := vs[i]
		if !v.From.Equal(w.from) || v.From.Location() != time.UTC {
			t.Errorf("version %d: From = %v, want %v in UTC", i, v.From, w.from.UTC())
		}
		if string(v.Body) != w.body || v.Absent != w.absent {
			t.Errorf("version %d: body %q absent %v, want %q %v", i, v.Body, v.Absent, w.body, w.absent)
		}
		if v.Detail != w.detail {
			t.Errorf("version %d: detail %q, want %q", i, v.Detail, w.detail)
		}
		if v.Origin != OriginGit || !strings.Contains(v.Ref, "@") || !strings.HasSuffix(v.Ref, ":public/robots.txt") {
			t.Errorf("version %d: origin %q ref %q", i, v.Origin, v.Ref)
		}
	}

	if _, _, err := ReadGit(dir, "robots.txt"); err == nil || !strings.Contains(err.Error(), "DIR:PATH") {
		t.Errorf("missing path: err = %v, want a hint to name DIR:PATH", err)
	}
	if _, _, err := ReadGit(t.TempDir(), "robots.txt"); err == nil {
		t.Error("not a repository: no error")
	}
}

func TestSplitGitArg(t *testing.T) {
	d := t.TempDir()
	tests := []struct{ arg, dir, file string }{
		{d, d, "robots.txt"},
		{d + ":static/robots.txt", d, "static/robots.txt"},
		{d + ":/robots.txt", d, "robots.txt"},
		{"site", "site", "robots.txt"},
	}
	for _, tt := range tests {
		if dir, file := SplitGitArg(tt.arg); dir != tt.dir || file != tt.file {
			t.Errorf("SplitGitArg(%q) = %q, %q; want %q, %q", tt.arg, dir, file, tt.dir, tt.file)
		}
	}
}

func TestParseTime(t *testing.T) {
	want := time.Date(2025, 3, 1, 12, 30, 0, 0, time.UTC)
	for _, s := range []string{"2025-03-01T12:30:00Z", "2025-03-01T13:30:00+01:00", "2025-03-01T12:30", "20250301T123000Z", "20250301123000"} {
		got, err := ParseTime(s)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	day := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, s := range []string{"2025-03-01", "20250301"} {
		if got, err := ParseTime(s); err != nil || !got.Equal(day) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", s, got, err, day)
		}
	}
	for _, s := range []string{"", "yesterday", "2025-13-01", "03/01/2025"} {
		if _, err := ParseTime(s); err == nil {
			t.Errorf("ParseTime(%q): no error", s)
		}
	}
}

func TestSplitFileTime(t *testing.T) {
	d := t.TempDir()
	at := filepath.Join(d, "robots@home.txt") // a real file with '@' in its name
	if err := os.WriteFile(at, []byte("User-agent: *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg, file string
		has       bool
		err       bool
	}{
		{"robots.txt", "robots.txt", false, false},
		{"robots.txt@2025-03-01", "robots.txt", true, false},
		{"old/robots.txt@2025-03-01T00:00:00Z", "old/robots.txt", true, false},
		{at, at, false, false},
		{"robots.txt@soon", "", false, true},
	}
	for _, tt := range tests {
		file, _, has, err := SplitFileTime(tt.arg)
		if (err != nil) != tt.err || file != tt.file || has != tt.has {
			t.Errorf("SplitFileTime(%q) = %q, %v, %v; want %q, %v, err %v", tt.arg, file, has, err, tt.file, tt.has, tt.err)
		}
	}
}

func TestSnapshotTime(t *testing.T) {
	tests := []struct {
		name string
		want string // RFC 3339, "" for none
	}{
		{"2025-03-01.txt", "2025-03-01T00:00:00Z"},
		{"robots-2025-03-01T12:00:00Z.txt", "2025-03-01T12:00:00Z"},
		{"robots-2025-03-01T12-00-00Z.txt", "2025-03-01T12:00:00Z"},
		{"robots_2025-03-01T13-00-00+01-00.txt", "2025-03-01T12:00:00Z"},
		{"robots_20250301.txt", "2025-03-01T00:00:00Z"},
		{"20250301120000.txt", "2025-03-01T12:00:00Z"},
		{"robots.txt", ""},
		{"robots-latest.txt", ""},
	}
	for _, tt := range tests {
		got, ok := SnapshotTime(tt.name)
		if tt.want == "" {
			if ok {
				t.Errorf("SnapshotTime(%q) = %v, want none", tt.name, got)
			}
			continue
		}
		if !ok || got.Format(time.RFC3339) != tt.want {
			t.Errorf("SnapshotTime(%q) = %v, %v; want %s", tt.name, got, ok, tt.want)
		}
	}
}

func TestReadDir(t *testing.T) {
	d := t.TempDir()
	files := map[string]string{
		"2025-03-10.txt":                  "User-agent: *\nDisallow: /b/\n",
		"robots-2025-03-01T12:00:00Z.txt": "User-agent: *\nDisallow: /a/\n",
		"notes.txt":                       "User-agent: *\n",
		"2025-03-20.html":                 "<html>not robots</html>",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(d, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vs, probs, err := ReadDir(d)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || !strings.Contains(string(vs[0].Body), "/a/") || !strings.Contains(string(vs[1].Body), "/b/") {
		t.Fatalf("versions: %+v", vs)
	}
	if vs[0].Origin != OriginDir || vs[0].From.Format(time.RFC3339) != "2025-03-01T12:00:00Z" {
		t.Errorf("first version: %+v", vs[0])
	}
	codes := map[string]bool{}
	for _, p := range probs {
		codes[string(p.Code)] = true
	}
	if !codes["robots-snapshot-undated"] || !codes["robots-snapshot-unreadable"] || len(probs) != 2 {
		t.Errorf("problems: %+v", probs)
	}
	if _, _, err := ReadDir(t.TempDir()); err == nil {
		t.Error("empty directory: no error")
	}
}

func TestReadFileRefusesHTML(t *testing.T) {
	p := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(p, []byte("<!doctype html><title>404</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(p, time.Time{}); err == nil {
		t.Error("an HTML page was read as robots.txt")
	}
}

func FuzzSnapshotTime(f *testing.F) {
	f.Add("robots-2025-03-01T12:00:00Z.txt")
	f.Add("20250301120000")
	f.Fuzz(func(t *testing.T, name string) {
		if tm, ok := SnapshotTime(name); ok && tm.Location() != time.UTC {
			t.Fatalf("%q: time not in UTC", name)
		}
		_, _ = ParseTime(name)
	})
}
