package robots

import (
	"strings"
	"testing"
)

func TestRules(t *testing.T) {
	tests := []struct {
		name   string
		rules  string // lines after "user-agent: *" (line 1)
		checks []check
	}{
		{"longest match wins", "disallow: /a\nallow: /a/b\ndisallow: /a/b/c\n", []check{
			{"x", "/a/x", false, 2}, {"x", "/a/b/x", true, 3}, {"x", "/a/b/c", false, 4},
		}},
		{"allow wins a tie", "disallow: /a\nallow: /a\n", []check{{"x", "/a", true, 3}}},
		{"allow wins a tie, allow first", "allow: /a\ndisallow: /a\n", []check{{"x", "/a", true, 2}}},
		{"tie of equivalent encodings", "disallow: /%61\nallow: /a\n", []check{{"x", "/a", true, 3}}},
		{"tie of equivalent non-ASCII forms", "allow: /ツ\ndisallow: /%E3%83%84\n", []check{{"x", "/ツ", true, 2}}},
		{"trailing star adds no length", "disallow: /a*\nallow: /a\n", []check{{"x", "/abc", true, 3}}},
		{"star dollar adds no length", "disallow: /a*$\nallow: /a\n", []check{{"x", "/abc", true, 3}}},
		{"inner star counts", "disallow: /a*c\nallow: /abc\n", []check{{"x", "/abc", true, 3}, {"x", "/axc", false, 2}}},
		{"dollar counts one octet", "allow: /a\ndisallow: /a$\n", []check{{"x", "/a", false, 3}, {"x", "/ab", true, 2}}},
		{"duplicate rules: first line reported", "disallow: /a\ndisallow: /a\n", []check{{"x", "/a", false, 2}}},
		{"matching starts at first octet", "disallow: /b\n", []check{{"x", "/a/b", true, 0}}},
		{"empty disallow allows", "disallow:\n", []check{{"x", "/", true, 0}, {"x", "/a", true, 0}}},
		{"empty allow ignored", "disallow: /\nallow:\n", []check{{"x", "/a", false, 2}}},
		{"disallow all", "disallow: /\n", []check{{"x", "/", false, 2}, {"x", "/a?b", false, 2}}},
		{"robots.txt always allowed", "disallow: /\n", []check{
			{"x", "/robots.txt", true, 0}, {"x", "/robots.txt?a=b", true, 0}, {"x", "/ROBOTS.TXT", false, 2},
			{"x", "/%72obots.txt", true, 0},
		}},
		{"pattern without slash gets one", "disallow: private/\n", []check{
			{"x", "/private/a", false, 2}, {"x", "/a/private/", true, 0},
		}},
		{"star pattern needs no slash", "disallow: *private\n", []check{{"x", "/a/private", false, 2}}},
		{"full URL target", "disallow: /a\n", []check{
			{"x", "https://example.com/a", false, 2},
			{"x", "https://example.com:8080/a?x#frag", false, 2},
			{"x", "//example.com/a", false, 2},
			{"x", "https://example.com/b/a", true, 0},
			{"x", "https://example.com", true, 0},
		}},
		{"query-only and relative targets", "disallow: /?\ndisallow: /b\n", []check{
			{"x", "https://example.com?q", false, 2},
			{"x", "b/c", false, 3},
			{"x", "", true, 0},
		}},
		{"fragment ignored", "disallow: /a$\n", []check{{"x", "/a#top", false, 2}}},
		{"query matching", "disallow: /*?\nallow: /*?page=\n", []check{
			{"x", "/x?a", false, 2}, {"x", "/x?page=2", true, 3}, {"x", "/x", true, 0},
		}},
		{"query data: slash in query is data", "disallow: /*/edit\n", []check{
			{"x", "/page/edit", false, 2}, {"x", "/page?ref=/edit", true, 0},
		}},
		{"query data in rule", "disallow: /out?url=http://\n", []check{
			{"x", "/out?url=http%3A%2F%2Fx.com", false, 2},
			{"x", "/out?url=http://x.com", false, 2},
			{"x", "/out?url=https://x.com", true, 0},
		}},
		{"second question mark is data", "disallow: /a?b%3Fc\n", []check{{"x", "/a?b?c", false, 2}}},
		{"brackets equal their encoding", "disallow: /a?x[]=1\n", []check{{"x", "/a?x%5B%5D=1", false, 2}}},
		{"invalid UTF-8 in URL", "disallow: /%FF\n", []check{{"x", "/\xff", false, 2}}},
		{"invalid UTF-8 in rule", "disallow: /\xff\n", []check{{"x", "/%ff", false, 2}, {"x", "/\xff", false, 2}}},
		{"lone percent", "disallow: /a%\n", []check{{"x", "/a%25", false, 2}, {"x", "/a%zz", false, 2}}},
		{"plus is not space", "disallow: /a+b\n", []check{{"x", "/a%20b", true, 0}, {"x", "/a+b", false, 2}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runChecks(t, "user-agent: *\n"+tc.rules, tc.checks) })
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		in      string
		pattern bool
		want    string
	}{
		{"/foo/bar?baz=http://foo.bar", false, "/foo/bar?baz=http%3A%2F%2Ffoo.bar"},
		{"/foo/bar/ツ", false, "/foo/bar/%E3%83%84"},
		{"/foo/bar/%62%61%7a", false, "/foo/bar/baz"},
		{"/a%2fb", false, "/a%2Fb"},
		{"/a*b$", false, "/a%2Ab%24"},
		{"/a*b$", true, "/a*b$"},
		{"/a$b", true, "/a%24b"},
		{"/a b\t", false, "/a%20b%09"},
		{"/%", false, "/%25"},
		{"/%4", false, "/%254"},
		{"/a?b?c@d", false, "/a?b%3Fc%40d"},
		{"/a:b@c", false, "/a:b@c"},
		{"/{x}|^`\\\"<>", false, "/%7Bx%7D%7C%5E%60%5C%22%3C%3E"},
		{"/\x7f\x00", false, "/%7F%00"},
	}
	for _, tc := range tests {
		got, _ := appendCanon(nil, tc.in, tc.pattern, false, false)
		if string(got) != tc.want {
			t.Errorf("appendCanon(%q, pattern=%v) = %q, want %q", tc.in, tc.pattern, got, tc.want)
		}
	}
}

func TestCompilePattern(t *testing.T) {
	tests := []struct {
		in     string
		canon  string
		length int
	}{
		{"/a", "/a", 2},
		{"/a*", "/a", 2},
		{"/a**", "/a", 2},
		{"/a*$", "/a", 2},
		{"/a$", "/a$", 3},
		{"/a**b", "/a*b", 4},
		{"*", "", 0},
		{"/%61", "/a", 2},
		{"/ツ", "/%E3%83%84", 10},
		{"/%2A", "/%2A", 4},
	}
	for _, tc := range tests {
		p := compilePattern(tc.in, false)
		if p.String() != tc.canon || p.length != tc.length {
			t.Errorf("compilePattern(%q) = %q (%d), want %q (%d)", tc.in, p.String(), p.length, tc.canon, tc.length)
		}
	}
}

func TestTargetPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/a/b?c=d", "/a/b?c=d"},
		{"https://example.com/a/b?c=d#e", "/a/b?c=d"},
		{"HTTP://Example.com", "/"},
		{"http://example.com?x", "/?x"},
		{"//example.com/x", "/x"},
		{"a", "/a"},
		{"", "/"},
		{"mailto:x", "/mailto:x"},
	}
	for _, tc := range tests {
		got := string(appendTarget(nil, tc.in, false))
		if got != tc.want {
			t.Errorf("appendTarget(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Check is the hot path: no allocation for ordinary URLs.
func TestCheckAllocs(t *testing.T) {
	f := Parse([]byte(realisticRobots), Options{})
	for _, u := range benchURLs {
		for _, a := range benchAgents {
			if n := testing.AllocsPerRun(20, func() { f.Check(a, u) }); n != 0 {
				t.Errorf("Check(%q, %q) allocates %v times, want 0", a, u, n)
			}
		}
	}
	for _, tc := range []struct {
		url  string
		want float64
	}{
		{"/" + strings.Repeat("a", 500), 0},
		{strings.Repeat("/a", 250), 0},
		{"/" + strings.Repeat("ツ", 200), 1},
		{"/" + strings.Repeat("a/b?c=d&", 1000), 1},
	} {
		if n := testing.AllocsPerRun(20, func() { f.Check("x", tc.url) }); n != tc.want {
			t.Errorf("Check with a %d-byte URL allocates %v times, want %v", len(tc.url), n, tc.want)
		}
	}
}
