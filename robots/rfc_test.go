package robots

import (
	"strings"
	"testing"
)

// check is one question to a robots.txt body and its expected answer.
type check struct {
	agent, url string
	allowed    bool
	ruleLine   int // 0: no rule decides
}

func runChecks(t *testing.T, body string, checks []check) {
	t.Helper()
	f := Parse([]byte(body), Options{})
	for _, c := range checks {
		v := f.Check(c.agent, c.url)
		gotLine := 0
		if v.Rule != nil {
			gotLine = v.Rule.Line
		}
		if v.Allowed != c.allowed || gotLine != c.ruleLine {
			t.Errorf("Check(%q, %q) = allowed %v, rule line %d (%s); want allowed %v, rule line %d",
				c.agent, c.url, v.Allowed, gotLine, v.Evidence(), c.allowed, c.ruleLine)
		}
	}
}

// RFC 9309 §2.2.1, Table 2: two groups for one product token merge.
func TestRFCTable2MergeGroups(t *testing.T) {
	body := "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n"
	runChecks(t, body, []check{
		{"ExampleBot", "/foo", false, 2},
		{"ExampleBot", "/bar", false, 3},
		{"ExampleBot", "/baz", false, 6},
		{"examplebot", "/baz", false, 6},
		{"ExampleBot", "/qux", true, 0},
	})
	f := Parse([]byte(body), Options{})
	v := f.Check("EXAMPLEBOT", "/baz")
	if v.Group != "ExampleBot" || v.GroupLine != 1 {
		t.Errorf("merged group = %q line %d, want %q line 1", v.Group, v.GroupLine, "ExampleBot")
	}
}

// RFC 9309 §2.2.1, Table 3: with no group of its own, ExampleBot obeys "*".
func TestRFCTable3StarFallback(t *testing.T) {
	body := "user-agent: *\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: BazBot\ndisallow: /baz\n"
	runChecks(t, body, []check{
		{"ExampleBot", "/foo", false, 2},
		{"ExampleBot", "/bar", false, 3},
		{"ExampleBot", "/baz", true, 0},
		{"BazBot", "/baz", false, 6},
		{"BazBot", "/foo", true, 0}, // BazBot does not inherit "*"
	})
}

// RFC 9309 §2.2.2, Table 4: percent-encoded URI components.
func TestRFCTable4Encoding(t *testing.T) {
	tests := []struct {
		name, rule, url string
		match           bool
	}{
		{"plain query", "/foo/bar?baz=quz", "/foo/bar?baz=quz", true},
		{"query data raw url", "/foo/bar?baz=http%3A%2F%2Ffoo.bar", "/foo/bar?baz=http://foo.bar", true},
		{"query data raw rule", "/foo/bar?baz=http://foo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar", true},
		{"query data both raw", "/foo/bar?baz=http://foo.bar", "/foo/bar?baz=http://foo.bar", true},
		{"utf8 raw url", "/foo/bar/%E3%83%84", "/foo/bar/ツ", true},
		{"utf8 raw rule", "/foo/bar/ツ", "/foo/bar/%E3%83%84", true},
		{"utf8 encoded both", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", true},
		{"utf8 lower hex", "/foo/bar/%e3%83%84", "/foo/bar/ツ", true},
		{"unreserved encoded url", "/foo/bar/baz", "/foo/bar/%62%61%7A", true},
		{"unreserved encoded rule", "/foo/bar/%62%61%7A", "/foo/bar/baz", true},
		{"unreserved tilde", "/~joe", "/%7Ejoe", true},
		{"hex case", "/a%2fb", "/a%2Fb", true},
		{"reserved stays encoded in path", "/a%2Fb", "/a/b", false},
		{"reserved stays encoded in path rule raw", "/a/b", "/a%2Fb", false},
		{"encoded question mark in path", "/a%3Fb", "/a?b", false},
		{"percent literal", "/100%", "/100%25", true},
		{"space", "/a b", "/a%20b", true},
		{"case sensitive", "/Foo", "/foo", false},
		{"sub-delims stay distinct", "/a=b", "/a%3Db", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte("user-agent: *\ndisallow: "+tc.rule+"\n"), Options{})
			v := f.Check("bot", tc.url)
			if got := !v.Allowed; got != tc.match {
				t.Errorf("rule %q url %q: matched %v, want %v", tc.rule, tc.url, got, tc.match)
			}
		})
	}
}

// RFC 9309 §2.2.3, Tables 5 and 6: special characters and their
// percent-encoded literal forms.
func TestRFCSpecialCharacters(t *testing.T) {
	tests := []struct {
		name, rule, url string
		match           bool
	}{
		{"comment", "/ # comment in line", "/anything", true},
		{"dollar exact", "/this/path/exactly$", "/this/path/exactly", true},
		{"dollar longer", "/this/path/exactly$", "/this/path/exactly/more", false},
		{"dollar query", "/this/path/exactly$", "/this/path/exactly?q", false},
		{"star middle", "/this/*/exactly", "/this/a/b/exactly", true},
		{"star empty", "/this/*/exactly", "/this//exactly", true},
		{"star no", "/this/*/exactly", "/this/exactly", false},
		{"star slash", "*.gif$", "/a/b.gif", true},
		{"star not end", "*.gif$", "/a/b.gif?x", false},
		{"table 6 star", "/path/file-with-a-%2A.html", "https://www.example.com/path/file-with-a-*.html", true},
		{"table 6 star other", "/path/file-with-a-%2A.html", "/path/file-with-a-x.html", false},
		{"table 6 star encoded url", "/path/file-with-a-%2A.html", "/path/file-with-a-%2A.html", true},
		{"table 6 dollar", "/path/foo-%24", "https://www.example.com/path/foo-$", true},
		{"table 6 dollar not anchor", "/path/foo-%24", "/path/foo-", false},
		{"raw star is wildcard", "/path/file-with-a-*.html", "/path/file-with-a-x.html", true},
		{"dollar in middle literal", "/a$b", "/a$b", true},
		{"dollar in middle not anchor", "/a$b", "/a", false},
		{"double star", "/a**b", "/axxb", true},
		{"star dollar", "/a*$", "/abc", true},
		{"only star", "*", "/x", true},
		{"multi star", "/a*b*c", "/a1b2c3", true},
		{"multi star order", "/a*b*c", "/a1c2b3", false},
		{"anchored multi", "/a*b$", "/axbyb", true},
		{"anchored multi no", "/a*b$", "/axbyc", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte("user-agent: *\ndisallow: "+tc.rule+"\n"), Options{})
			v := f.Check("bot", tc.url)
			if got := !v.Allowed; got != tc.match {
				t.Errorf("rule %q url %q: matched %v, want %v (%s)", tc.rule, tc.url, got, tc.match, v.Evidence())
			}
		})
	}
}

// RFC 9309 §5.1, the simple example.
func TestRFCSimpleExample(t *testing.T) {
	body := strings.Join([]string{
		"User-agent: *",                // 1
		"Disallow: *.gif$",             // 2
		"Disallow: /example/",          // 3
		"Allow: /publications/",        // 4
		"",                             // 5
		"User-Agent: foobot",           // 6
		"Disallow:/",                   // 7
		"Allow:/example/page.html",     // 8
		"Allow:/example/allowed.gif",   // 9
		"",                             // 10
		"User-Agent: barbot",           // 11
		"User-Agent: bazbot",           // 12
		"Disallow: /example/page.html", // 13
		"",                             // 14
		"User-Agent: quxbot",           // 15
		"",                             // 16
	}, "\n")
	runChecks(t, body, []check{
		{"otherbot", "/publications/a.html", true, 4},
		{"otherbot", "/publications/a.gif", true, 4}, // 14 octets beat "*.gif$" (6)
		{"otherbot", "/example/x", false, 3},
		{"otherbot", "/a/b.gif", false, 2},
		{"otherbot", "/a/b.gifx", true, 0},
		{"otherbot", "/", true, 0},
		{"foobot", "/", false, 7},
		{"foobot", "/example/page.html", true, 8},
		{"foobot", "/example/allowed.gif", true, 9},
		{"foobot", "/example/other.gif", false, 7},
		{"foobot", "/publications/", false, 7},
		{"barbot", "/example/page.html", false, 13},
		{"bazbot", "/example/page.html", false, 13},
		{"bazbot", "/example/page.htm", true, 0},
		{"bazbot", "/a.gif", true, 0},
		{"quxbot", "/example/x", true, 0},
		{"quxbot", "/a.gif", true, 0},
	})
	f := Parse([]byte(body), Options{})
	if v := f.Check("bazbot", "/example/page.html"); v.Group != "bazbot" || v.GroupLine != 11 {
		t.Errorf("bazbot group = %q line %d, want %q line 11", v.Group, v.GroupLine, "bazbot")
	}
	if v := f.Check("quxbot", "/x"); v.Reason != ReasonNoMatchingRule || v.GroupLine != 15 {
		t.Errorf("quxbot reason = %q line %d, want %q line 15", v.Reason, v.GroupLine, ReasonNoMatchingRule)
	}
	if len(f.Diagnostics) != 0 {
		t.Errorf("diagnostics = %+v, want none", f.Diagnostics)
	}
}

// RFC 9309 §5.2: the longest match decides.
func TestRFCLongestMatch(t *testing.T) {
	body := "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
	runChecks(t, body, []check{
		{"foobot", "/example/page/disallowed.gif", false, 3},
		{"foobot", "/example/page/disallow.gif", true, 2},
		{"foobot", "/example/page/", true, 2},
		{"foobot", "/example/", true, 0},
	})
}
