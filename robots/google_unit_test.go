package robots

import (
	"slices"
	"strings"
	"testing"
)

// googleUnitCase is one EXPECT of Google's robots.txt parser unit tests:
// robots_test.cc of github.com/google/robotstxt at commit
// 22b355ff855419e6a3ff8ff09c0ad7fdb17116f9 (2026-04-01), translated to a
// table. test is the gtest name. want is Google's expectation; div, when
// set, says why repaudit answers the other way (RFC 9309 text over Google's
// parser), and the test then requires the opposite answer.
type googleUnitCase struct {
	test, robots, agent, url string
	want                     bool
	div                      string
}

// googleUnitCases is the whole table, in the order of robots_test.cc.
func googleUnitCases() []googleUnitCase {
	return slices.Concat(googleLineCases(), googleMatchCases(), googleDocCases())
}

// googleLineCases are the line syntax, group, case and global group
// cases.
func googleLineCases() []googleUnitCase {
	const fooDisallowAll = "user-agent: FooBot\ndisallow: /\n"
	groups := "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n"
	upper := "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n"
	lower := "user-agent: FooBot\nallow: /x/\ndisallow: /\n"
	camel := "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n"
	uaUpper := "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n"
	uaLower := "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n"
	uaCamel := "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n"
	global := "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n"
	onlySpecific := "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n"

	return []googleUnitCase{
		{"GoogleOnly_SystemTest", "", "FooBot", "", true, ""},
		{"GoogleOnly_SystemTest", fooDisallowAll, "", "", true, ""},
		{"GoogleOnly_SystemTest", fooDisallowAll, "FooBot", "", false, ""},
		{"GoogleOnly_SystemTest", "", "", "", true, ""},

		{"ID_LineSyntax_Line", fooDisallowAll, "FooBot", "http://foo.bar/x/y", false, ""},
		{"ID_LineSyntax_Line", "foo: FooBot\nbar: /\n", "FooBot", "http://foo.bar/x/y", true, ""},
		{"ID_LineSyntax_Line", "user-agent FooBot\ndisallow /\n", "FooBot", "http://foo.bar/x/y", false, ""},

		{"ID_LineSyntax_Groups", groups, "FooBot", "http://foo.bar/x/b", true, ""},
		{"ID_LineSyntax_Groups", groups, "FooBot", "http://foo.bar/z/d", true, ""},
		{"ID_LineSyntax_Groups", groups, "FooBot", "http://foo.bar/y/c", false, ""},
		{"ID_LineSyntax_Groups", groups, "BarBot", "http://foo.bar/y/c", true, ""},
		{"ID_LineSyntax_Groups", groups, "BarBot", "http://foo.bar/w/a", true, ""},
		{"ID_LineSyntax_Groups", groups, "BarBot", "http://foo.bar/z/d", false, ""},
		{"ID_LineSyntax_Groups", groups, "BazBot", "http://foo.bar/z/d", true, ""},
		{"ID_LineSyntax_Groups", groups, "FooBot", "http://foo.bar/foo/bar/", false, ""},
		{"ID_LineSyntax_Groups", groups, "BarBot", "http://foo.bar/foo/bar/", false, ""},
		{"ID_LineSyntax_Groups", groups, "BazBot", "http://foo.bar/foo/bar/", false, ""},

		{"ID_LineSyntax_Groups_OtherRules", "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n", "FooBot", "http://foo.bar/", false, ""},
		{"ID_LineSyntax_Groups_OtherRules", "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n", "BarBot", "http://foo.bar/", false, ""},
		{"ID_LineSyntax_Groups_OtherRules", "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n", "FooBot", "http://foo.bar/", false, ""},
		{"ID_LineSyntax_Groups_OtherRules", "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n", "BarBot", "http://foo.bar/", false, ""},

		{"ID_REPLineNamesCaseInsensitive", upper, "FooBot", "http://foo.bar/x/y", true, ""},
		{"ID_REPLineNamesCaseInsensitive", lower, "FooBot", "http://foo.bar/x/y", true, ""},
		{"ID_REPLineNamesCaseInsensitive", camel, "FooBot", "http://foo.bar/x/y", true, ""},
		{"ID_REPLineNamesCaseInsensitive", upper, "FooBot", "http://foo.bar/a/b", false, ""},
		{"ID_REPLineNamesCaseInsensitive", lower, "FooBot", "http://foo.bar/a/b", false, ""},
		{"ID_REPLineNamesCaseInsensitive", camel, "FooBot", "http://foo.bar/a/b", false, ""},

		{"ID_UserAgentValueCaseInsensitive", uaUpper, "Foo", "http://foo.bar/x/y", true, ""},
		{"ID_UserAgentValueCaseInsensitive", uaLower, "Foo", "http://foo.bar/x/y", true, ""},
		{"ID_UserAgentValueCaseInsensitive", uaCamel, "Foo", "http://foo.bar/x/y", true, ""},
		{"ID_UserAgentValueCaseInsensitive", uaUpper, "Foo", "http://foo.bar/a/b", false, ""},
		{"ID_UserAgentValueCaseInsensitive", uaLower, "Foo", "http://foo.bar/a/b", false, ""},
		{"ID_UserAgentValueCaseInsensitive", uaCamel, "Foo", "http://foo.bar/a/b", false, ""},
		{"ID_UserAgentValueCaseInsensitive", uaUpper, "foo", "http://foo.bar/x/y", true, ""},
		{"ID_UserAgentValueCaseInsensitive", uaLower, "foo", "http://foo.bar/x/y", true, ""},
		{"ID_UserAgentValueCaseInsensitive", uaCamel, "foo", "http://foo.bar/x/y", true, ""},
		{"ID_UserAgentValueCaseInsensitive", uaUpper, "foo", "http://foo.bar/a/b", false, ""},
		{"ID_UserAgentValueCaseInsensitive", uaLower, "foo", "http://foo.bar/a/b", false, ""},
		{"ID_UserAgentValueCaseInsensitive", uaCamel, "foo", "http://foo.bar/a/b", false, ""},

		{"GoogleOnly_AcceptUserAgentUpToFirstSpace", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", "Foo", "http://foo.bar/x/y", true, ""},
		{"GoogleOnly_AcceptUserAgentUpToFirstSpace", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", "Foo Bar", "http://foo.bar/x/y", false, ""},

		{"ID_GlobalGroups_Secondary", "", "FooBot", "http://foo.bar/x/y", true, ""},
		{"ID_GlobalGroups_Secondary", global, "FooBot", "http://foo.bar/x/y", false, ""},
		{"ID_GlobalGroups_Secondary", global, "BarBot", "http://foo.bar/x/y", true, ""},
		{"ID_GlobalGroups_Secondary", onlySpecific, "QuxBot", "http://foo.bar/x/y", true, ""},

		{"ID_AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/y", false, ""},
		{"ID_AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /X/\n", "FooBot", "http://foo.bar/x/y", true, ""},
	}
}

// googleMatchCases are the matching, encoding, special character and
// line length cases.
func googleMatchCases() []googleUnitCase {
	// GoogleOnly_LineTooLong: Google cuts lines at 8 × 2083 bytes.
	const maxLine = 2083 * 8
	long1 := "/x/" + strings.Repeat("a", maxLine-len("/x/")-len("disallow: ")+1-len("/x/"))
	long2a := "/x/" + strings.Repeat("a", maxLine-len("/x/")-len("allow: ")+1-len("/x/"))
	long2b := "/x/" + strings.Repeat("b", len(long2a)-len("/x/"))
	tooLong1 := "user-agent: FooBot\ndisallow: " + long1 + "/qux\n"
	tooLong2 := "user-agent: FooBot\ndisallow: /\nallow: " + long2a + "/qux\nallow: " + long2b + "/qux\n"

	return []googleUnitCase{
		{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", "FooBot", "http://foo.bar/x/page.html", false, ""},
		{"ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/page.html", true, ""},
		{"ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/", false, ""},
		{"ID_LongestMatch", "user-agent: FooBot\ndisallow: \nallow: \n", "FooBot", "http://foo.bar/x/page.html", true, ""},
		{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /\nallow: /\n", "FooBot", "http://foo.bar/x/page.html", true, ""},
		{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x", false, ""},
		{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x/", true, ""},
		{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", "FooBot", "http://foo.bar/x/page.html", true, ""},
		{"ID_LongestMatch", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page.html", false, ""},
		{"ID_LongestMatch", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page", true, ""},
		{"ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", "http://foo.bar/x/page.html", true, ""},
		{"ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", "http://foo.bar/x/y.html", false, ""},
		{"ID_LongestMatch", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/x/page", true, ""},
		{"ID_LongestMatch", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/y/page", false, ""},

		{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n", "FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true, ""},
		{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, ""},
		{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", "http://foo.bar/foo/bar/ツ", false, divPercent},
		{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, ""},
		{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "FooBot", "http://foo.bar/foo/bar/ツ", false, divPercent},
		{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", "http://foo.bar/foo/bar/baz", false, divPercent},
		{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", "http://foo.bar/foo/bar/%62%61%7A", true, ""},

		{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/bar/quz", false, ""},
		{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/quz", true, ""},
		{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo//quz", true, ""},
		{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/bax/quz", true, ""},
		{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar", false, ""},
		{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/qux", true, ""},
		{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/", true, ""},
		{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/baz", true, ""},
		{"ID_SpecialCharacters", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", "http://foo.bar/foo/bar", true, ""},
		{"ID_SpecialCharacters", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", "http://foo.bar/foo/quz", false, ""},

		{"GoogleOnly_IndexHTMLisDirectory", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/allowed-slash/", true, divIndexHTML},
		{"GoogleOnly_IndexHTMLisDirectory", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/allowed-slash/index.htm", false, ""},
		{"GoogleOnly_IndexHTMLisDirectory", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/allowed-slash/index.html", true, ""},
		{"GoogleOnly_IndexHTMLisDirectory", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/anyother-url", false, ""},

		{"GoogleOnly_LineTooLong", tooLong1, "FooBot", "http://foo.bar/fux", true, ""},
		{"GoogleOnly_LineTooLong", tooLong1, "FooBot", "http://foo.bar" + long1 + "/fux", false, divLineLen},
		{"GoogleOnly_LineTooLong", tooLong2, "FooBot", "http://foo.bar/", false, ""},
		{"GoogleOnly_LineTooLong", tooLong2, "FooBot", "http://foo.bar" + long2a + "/qux", true, ""},
		{"GoogleOnly_LineTooLong", tooLong2, "FooBot", "http://foo.bar" + long2b + "/fux", true, divLineLen},
	}
}

// googleDocCases are the examples of Google's robots.txt documentation.
func googleDocCases() []googleUnitCase {
	fish := "user-agent: FooBot\ndisallow: /\nallow: /fish\n"
	fishStar := "user-agent: FooBot\ndisallow: /\nallow: /fish*\n"
	fishSlash := "user-agent: FooBot\ndisallow: /\nallow: /fish/\n"
	php := "user-agent: FooBot\ndisallow: /\nallow: /*.php\n"
	phpEnd := "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n"
	fishPhp := "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n"

	return []googleUnitCase{
		{"GoogleOnly_DocumentationChecks", fish, "FooBot", "http://foo.bar/bar", false, ""},
		{"GoogleOnly_DocumentationChecks", fish, "FooBot", "http://foo.bar/fish", true, ""},
		{"GoogleOnly_DocumentationChecks", fish, "FooBot", "http://foo.bar/fish.html", true, ""},
		{"GoogleOnly_DocumentationChecks", fish, "FooBot", "http://foo.bar/fish/salmon.html", true, ""},
		{"GoogleOnly_DocumentationChecks", fish, "FooBot", "http://foo.bar/fishheads", true, ""},
		{"GoogleOnly_DocumentationChecks", fish, "FooBot", "http://foo.bar/fishheads/yummy.html", true, ""},
		{"GoogleOnly_DocumentationChecks", fish, "FooBot", "http://foo.bar/fish.html?id=anything", true, ""},
		{"GoogleOnly_DocumentationChecks", fish, "FooBot", "http://foo.bar/Fish.asp", false, ""},
		{"GoogleOnly_DocumentationChecks", fish, "FooBot", "http://foo.bar/catfish", false, ""},
		{"GoogleOnly_DocumentationChecks", fish, "FooBot", "http://foo.bar/?id=fish", false, ""},
		{"GoogleOnly_DocumentationChecks", fishStar, "FooBot", "http://foo.bar/bar", false, ""},
		{"GoogleOnly_DocumentationChecks", fishStar, "FooBot", "http://foo.bar/fish", true, ""},
		{"GoogleOnly_DocumentationChecks", fishStar, "FooBot", "http://foo.bar/fish.html", true, ""},
		{"GoogleOnly_DocumentationChecks", fishStar, "FooBot", "http://foo.bar/fish/salmon.html", true, ""},
		{"GoogleOnly_DocumentationChecks", fishStar, "FooBot", "http://foo.bar/fishheads", true, ""},
		{"GoogleOnly_DocumentationChecks", fishStar, "FooBot", "http://foo.bar/fishheads/yummy.html", true, ""},
		{"GoogleOnly_DocumentationChecks", fishStar, "FooBot", "http://foo.bar/fish.html?id=anything", true, ""},
		{"GoogleOnly_DocumentationChecks", fishStar, "FooBot", "http://foo.bar/Fish.bar", false, ""},
		{"GoogleOnly_DocumentationChecks", fishStar, "FooBot", "http://foo.bar/catfish", false, ""},
		{"GoogleOnly_DocumentationChecks", fishStar, "FooBot", "http://foo.bar/?id=fish", false, ""},
		{"GoogleOnly_DocumentationChecks", fishSlash, "FooBot", "http://foo.bar/bar", false, ""},
		{"GoogleOnly_DocumentationChecks", fishSlash, "FooBot", "http://foo.bar/fish/", true, ""},
		{"GoogleOnly_DocumentationChecks", fishSlash, "FooBot", "http://foo.bar/fish/salmon", true, ""},
		{"GoogleOnly_DocumentationChecks", fishSlash, "FooBot", "http://foo.bar/fish/?salmon", true, ""},
		{"GoogleOnly_DocumentationChecks", fishSlash, "FooBot", "http://foo.bar/fish/salmon.html", true, ""},
		{"GoogleOnly_DocumentationChecks", fishSlash, "FooBot", "http://foo.bar/fish/?id=anything", true, ""},
		{"GoogleOnly_DocumentationChecks", fishSlash, "FooBot", "http://foo.bar/fish", false, ""},
		{"GoogleOnly_DocumentationChecks", fishSlash, "FooBot", "http://foo.bar/fish.html", false, ""},
		{"GoogleOnly_DocumentationChecks", fishSlash, "FooBot", "http://foo.bar/Fish/Salmon.html", false, ""},
		{"GoogleOnly_DocumentationChecks", php, "FooBot", "http://foo.bar/bar", false, ""},
		{"GoogleOnly_DocumentationChecks", php, "FooBot", "http://foo.bar/filename.php", true, ""},
		{"GoogleOnly_DocumentationChecks", php, "FooBot", "http://foo.bar/folder/filename.php", true, ""},
		{"GoogleOnly_DocumentationChecks", php, "FooBot", "http://foo.bar/folder/filename.php?parameters", true, ""},
		{"GoogleOnly_DocumentationChecks", php, "FooBot", "http://foo.bar//folder/any.php.file.html", true, ""},
		{"GoogleOnly_DocumentationChecks", php, "FooBot", "http://foo.bar/filename.php/", true, ""},
		{"GoogleOnly_DocumentationChecks", php, "FooBot", "http://foo.bar/index?f=filename.php/", true, ""},
		{"GoogleOnly_DocumentationChecks", php, "FooBot", "http://foo.bar/php/", false, ""},
		{"GoogleOnly_DocumentationChecks", php, "FooBot", "http://foo.bar/index?php", false, ""},
		{"GoogleOnly_DocumentationChecks", php, "FooBot", "http://foo.bar/windows.PHP", false, ""},
		{"GoogleOnly_DocumentationChecks", phpEnd, "FooBot", "http://foo.bar/bar", false, ""},
		{"GoogleOnly_DocumentationChecks", phpEnd, "FooBot", "http://foo.bar/filename.php", true, ""},
		{"GoogleOnly_DocumentationChecks", phpEnd, "FooBot", "http://foo.bar/folder/filename.php", true, ""},
		{"GoogleOnly_DocumentationChecks", phpEnd, "FooBot", "http://foo.bar/filename.php?parameters", false, ""},
		{"GoogleOnly_DocumentationChecks", phpEnd, "FooBot", "http://foo.bar/filename.php/", false, ""},
		{"GoogleOnly_DocumentationChecks", phpEnd, "FooBot", "http://foo.bar/filename.php5", false, ""},
		{"GoogleOnly_DocumentationChecks", phpEnd, "FooBot", "http://foo.bar/php/", false, ""},
		{"GoogleOnly_DocumentationChecks", phpEnd, "FooBot", "http://foo.bar/filename?php", false, ""},
		{"GoogleOnly_DocumentationChecks", phpEnd, "FooBot", "http://foo.bar/aaaphpaaa", false, ""},
		{"GoogleOnly_DocumentationChecks", phpEnd, "FooBot", "http://foo.bar//windows.PHP", false, ""},
		{"GoogleOnly_DocumentationChecks", fishPhp, "FooBot", "http://foo.bar/bar", false, ""},
		{"GoogleOnly_DocumentationChecks", fishPhp, "FooBot", "http://foo.bar/fish.php", true, ""},
		{"GoogleOnly_DocumentationChecks", fishPhp, "FooBot", "http://foo.bar/fishheads/catfish.php?parameters", true, ""},
		{"GoogleOnly_DocumentationChecks", fishPhp, "FooBot", "http://foo.bar/Fish.PHP", false, ""},
		{"GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /p\ndisallow: /\n", "FooBot", "http://example.com/page", true, ""},
		{"GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", "FooBot", "http://example.com/folder/page", true, ""},
		{"GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", "FooBot", "http://example.com/page.htm", false, ""},
		{"GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/", true, ""},
		{"GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/page.html", false, ""},
	}
}

// TestGoogleUnitCases checks every allow/disallow expectation of Google's
// unit tests (see googleUnitCase).
func TestGoogleUnitCases(t *testing.T) {
	agree, diverge := 0, 0
	for i, c := range googleUnitCases() {
		got := Parse([]byte(c.robots), Options{}).Check(c.agent, c.url).Allowed
		want := c.want
		if c.div != "" {
			want = !c.want
			diverge++
		} else {
			agree++
		}
		if got != want {
			t.Errorf("%s case %d: agent %q url %.80q: got allowed=%v, want %v (Google: %v; divergence: %q)",
				c.test, i, c.agent, c.url, got, want, c.want, c.div)
		}
	}
	t.Logf("%d cases as Google expects, %d documented divergences", agree, diverge)
}

// directives counts what Google's RobotsStatsReporter counts: user-agent,
// allow, disallow and sitemap lines (valid), unknown lines, and the last
// line number seen of either.
func directives(f *File) (valid, unknown, last int) {
	for _, l := range f.Lines {
		switch l.Kind {
		case KindUserAgent, KindAllow, KindDisallow, KindSitemap:
			valid++
			last = l.Number
		case KindDiagnostic:
			unknown++
			last = l.Number
		}
	}
	return valid, unknown, last
}

// TestGoogleParseCases translates the parser-level tests of robots_test.cc:
// ID_LinesNumbersAreCountedCorrectly, ID_UTF8ByteOrderMarkIsSkipped and
// ID_NonStandardLineExample_Sitemap.
func TestGoogleParseCases(t *testing.T) {
	for _, c := range []struct {
		name                 string
		body                 string
		valid, unknown, last int
	}{
		{"unix", "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n", 4, 0, 6},
		{"dos", "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n", 4, 0, 6},
		{"mac", "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r", 4, 0, 6},
		{"no final newline", "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /", 4, 0, 6},
		{"mixed", "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /", 4, 0, 6},
		{"full BOM", "\xEF\xBB\xBFUser-Agent: foo\nAllow: /AnyValue\n", 2, 0, 2},
		{"partial BOM EF BB", "\xEF\xBBUser-Agent: foo\nAllow: /AnyValue\n", 2, 0, 2},
		{"partial BOM EF", "\xEFUser-Agent: foo\nAllow: /AnyValue\n", 2, 0, 2},
		{"broken BOM", "\xEF\x11\xBFUser-Agent: foo\nAllow: /AnyValue\n", 1, 1, 2},
		{"BOM in the middle", "User-Agent: foo\n\xEF\xBB\xBFAllow: /AnyValue\n", 1, 1, 2},
	} {
		f := Parse([]byte(c.body), Options{})
		valid, unknown, last := directives(f)
		if valid != c.valid || unknown != c.unknown || last != c.last {
			t.Errorf("%s: got %d valid, %d unknown, last line %d; want %d, %d, %d", c.name, valid, unknown, last, c.valid, c.unknown, c.last)
		}
	}
	// The partial BOM is skipped, so the group and its rule apply.
	for _, bom := range []string{"\xEF\xBB\xBF", "\xEF\xBB", "\xEF"} {
		f := Parse([]byte(bom+"User-Agent: foo\nDisallow: /AnyValue\n"), Options{})
		if f.Check("foo", "/AnyValue").Allowed {
			t.Errorf("BOM %q: /AnyValue allowed, want disallowed", bom)
		}
	}
	for _, body := range []string{
		"User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nSitemap: http://foo.bar/sitemap.xml\n",
		"Sitemap: http://foo.bar/sitemap.xml\nUser-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n",
	} {
		f := Parse([]byte(body), Options{})
		if len(f.Sitemaps) != 1 || f.Sitemaps[0].URL != "http://foo.bar/sitemap.xml" {
			t.Errorf("sitemaps %v, want http://foo.bar/sitemap.xml", f.Sitemaps)
		}
	}
}

// TestGoogleURLCases translates TestGetPathParamsQuery and
// TestMaybeEscapePattern: the path-and-query a URL is matched by, and a
// pattern's escaping, compared in repaudit's canonical form (the query's
// ':', '/', '?', '@' are data there, RFC 9309 §2.2.2 Table 4).
func TestGoogleURLCases(t *testing.T) {
	canon := func(s string) string { return string(appendTarget(nil, s, false)) }
	for _, c := range []struct{ url, path, div string }{
		{"", "/", ""},
		{"http://www.example.com", "/", ""},
		{"http://www.example.com/", "/", ""},
		{"http://www.example.com/a", "/a", ""},
		{"http://www.example.com/a/", "/a/", ""},
		{"http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/", ""},
		{"http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f", ""},
		{"example.com", "/", divHostless},
		{"example.com/", "/", divHostless},
		{"example.com/a", "/a", divHostless},
		{"example.com/a/", "/a/", divHostless},
		{"example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f", divHostless},
		{"a", "/", divHostless},
		{"a/", "/", divHostless},
		{"/a", "/a", ""},
		{"a/b", "/b", divHostless},
		{"example.com?a", "/?a", divHostless},
		{"example.com/a;b#c", "/a;b", divHostless},
		{"//a/b/c", "/b/c", ""},
	} {
		got, want := canon(c.url), canon(c.path)
		if (got == want) != (c.div == "") {
			t.Errorf("target %q: got %q, Google %q (divergence %q)", c.url, got, want, c.div)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"http://www.example.com", "http://www.example.com"},
		{"/a/b/c", "/a/b/c"},
		{"á", "%C3%A1"},
		{"%aa", "%AA"},
	} {
		if got, _ := appendCanon(nil, c.in, true, false, false); string(got) != c.want {
			t.Errorf("pattern %q: got %q, want %q", c.in, got, c.want)
		}
	}
	// ID_VerifyValidUserAgentsToObey: which crawler names are product
	// tokens. Digits are kept (divDigits), so only the listed names matter.
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"Foobot", true}, {"Foobot-Bar", true}, {"Foo_Bar", true},
		{"", false}, {"ツ", false}, {"Foobot*", false}, {" Foobot ", false}, {"Foobot/2.1", false}, {"Foobot Bar", false},
	} {
		if got := c.name != "" && c.name != "*" && validTokenChars(c.name); got != c.ok {
			t.Errorf("crawler name %q: valid=%v, want %v", c.name, got, c.ok)
		}
	}
}
