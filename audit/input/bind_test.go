package input

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSplitBound reads the URL= forms of the robots.txt source flags and
// of the inputs: a URL binds, an existing path is a path whatever it
// holds, and a bad URL is an error naming the flag.
func TestSplitBound(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	// Paths that look like bindings but exist: names are names first.
	for _, p := range []string{"https:/www.example.org=logs", "a=b.log", "dir=x/robots.txt"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	robotsPath := func(a string) string {
		if i := strings.LastIndexByte(a, '@'); i > 0 {
			return a[:i]
		}
		return a
	}
	for _, tc := range []struct {
		flag, arg       string
		pathOf          func(string) string
		wantAuth, rest  string
		wantErrContains string
	}{
		{flag: "--robots-dir", arg: "https://blog.example.org=blog-robots", wantAuth: "https://blog.example.org", rest: "blog-robots"},
		{flag: "--robots-dir", arg: "HTTPS://Blog.Example.ORG:443/=d", wantAuth: "https://blog.example.org", rest: "d"},
		{flag: "--robots-dir", arg: "http://www.example.org:80=d", wantAuth: "http://www.example.org", rest: "d"},
		{flag: "--robots-dir", arg: "https://blog.example.org:8080=d", wantAuth: "https://blog.example.org:8080", rest: "d"},
		{flag: "--robots-dir", arg: "https://www.example.org/robots.txt=d=e", wantAuth: "https://www.example.org", rest: "d=e"},
		{flag: "--robots", arg: "https://www.example.org=robots.txt@2025-03-01", pathOf: robotsPath, wantAuth: "https://www.example.org", rest: "robots.txt@2025-03-01"},
		{flag: "--robots-git", arg: "https://www.example.org=/srv/site:public/robots.txt", wantAuth: "https://www.example.org", rest: "/srv/site:public/robots.txt"},
		{flag: "input", arg: "https://blog.example.org=/var/log/blog/access.log", wantAuth: "https://blog.example.org", rest: "/var/log/blog/access.log"},
		{flag: "input", arg: "https://blog.example.org=-", wantAuth: "https://blog.example.org", rest: "-"},
		// Plain paths, existing or not.
		{flag: "--robots-dir", arg: "www-robots", rest: "www-robots"},
		{flag: "input", arg: "a=b.log", rest: "a=b.log"},
		{flag: "input", arg: `C:\logs\site=www\access.log`, rest: `C:\logs\site=www\access.log`},
		{flag: "input", arg: "https:/www.example.org=logs", rest: "https:/www.example.org=logs"},
		{flag: "--robots", arg: "dir=x/robots.txt@2025-03-01", pathOf: robotsPath, rest: "dir=x/robots.txt@2025-03-01"},
		// Bad URLs.
		{flag: "--robots-dir", arg: "ftp://www.example.org=d", wantErrContains: "--robots-dir"},
		{flag: "--robots-dir", arg: "https://=d", wantErrContains: "--robots-dir"},
		{flag: "--robots-git", arg: "https://exa mple.org=d", wantErrContains: "--robots-git"},
		{flag: "--robots", arg: "https://exa!mple.org=f", wantErrContains: "not a host name"},
		{flag: "--robots", arg: "http://intranet:8080=f", wantAuth: "http://intranet:8080", rest: "f"},
		{flag: "--robots-dir", arg: "https://www.example.org=", wantErrContains: "no path"},
		{flag: "input", arg: "https://www.example.org:99999=x.log", wantErrContains: "input"},
	} {
		b, err := SplitBound(tc.flag, tc.arg, tc.pathOf)
		if tc.wantErrContains != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErrContains) {
				t.Errorf("%s %s: err = %v, want one naming %q", tc.flag, tc.arg, err, tc.wantErrContains)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", tc.flag, tc.arg, err)
			continue
		}
		if b.Auth != tc.wantAuth || b.Rest != tc.rest {
			t.Errorf("%s %s: got site %q path %q, want %q %q", tc.flag, tc.arg, b.Auth, b.Rest, tc.wantAuth, tc.rest)
		}
	}
}

func TestValidHost(t *testing.T) {
	for h, want := range map[string]bool{
		"www.example.org": true, "blog.example.org:8080": true, "localhost": true, "192.0.2.1": true,
		"[2001:db8::1]:8443": true, "xn--bcher-kva.example": true, "WWW.Example.ORG.": true,
		"old": false, "2024": false, "2025-03": false, "a..b": false, "example.org:": false,
		"example.org:0": false, "1.2.3": false, "exa mple.org": false, "[zz]": false, "": false,
	} {
		if got := validHost(h); got != want {
			t.Errorf("validHost(%q) = %v, want %v", h, got, want)
		}
	}
}

// TestHostAuthority: a host subdirectory of --robots-dir is https, unless
// a --site names that host with http.
func TestHostAuthority(t *testing.T) {
	sites := []string{"http://old.example.org", "https://www.example.org"}
	for name, want := range map[string]string{
		"www.example.org":      "https://www.example.org",
		"old.example.org":      "http://old.example.org",
		"old.example.org:80":   "http://old.example.org",
		"blog.example.org:443": "https://blog.example.org",
		"blog.example.org:80":  "https://blog.example.org:80",
		"Blog.Example.org":     "https://blog.example.org",
		"archive":              "",
	} {
		got, _ := hostAuthority(name, sites)
		if got != want {
			t.Errorf("hostAuthority(%q) = %q, want %q", name, got, want)
		}
	}
}
