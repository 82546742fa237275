package robots

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// acapSample is the sample robots.txt of ACAP 1.0 §2.1, with the named
// crawler's commented-out alternatives left as comments.
const acapSample = `##ACAP version=1.0
# Legacy robots.txt content...

User-agent: *
Disallow: /

User-agent: named-crawler
Allow: /index.html
Allow: /public/
Allow: /promotion/
Allow: /news/

# Un-comment the line below, if crawlers capable of understanding
# ACAP records are to ignore conventional records
# ACAP-ignore-conventional-records

# ACAP local definitions
# Resources found in three directories are crawlable
ACAP-resource-set: crawlable /public/ /promotion/ /news/

# On this site 'cache' means 'preserve (store) until re-crawled'
ACAP-qualified-usage: cache preserve time-limit=until-recrawled

# The same usages are permitted for all resources in the specified
# resource set, so we can define a composite usage
ACAP-composite-usage: basic-usages crawl index present

# Crawlers in general are prohibited to crawl this site
ACAP-crawler: *
ACAP-disallow-crawl: /

# Named crawler may crawl, index and display the content of /public/ ...
ACAP-crawler: named-crawler
# All my usages are permitted for the specified resource set...
ACAP-allow-(basic-usages): the-acap:resource-set:crawlable
# which is equivalent to permitting the three separate usages, which are
# commented out here...
# ACAP-allow-crawl: the-acap:resource-set:crawlable
# ACAP-allow-index: the-acap:resource-set:crawlable
# ACAP-allow-present: the-acap:resource-set:crawlable

# ...but may only preserve copies in the locally-defined sense
# ACAP-allow-(cache): the-acap:resource-set:crawlable
`

type acapQ struct {
	agent, purpose, usage, url string
	applies, allowed           bool
	line                       int
	reason                     string
}

func runACAP(t *testing.T, body string, qs []acapQ) {
	t.Helper()
	f := Parse([]byte(body), Options{})
	for _, q := range qs {
		var v ACAPVerdict
		if q.purpose != "" {
			v = f.ACAPCheckPurpose(q.agent, q.purpose, q.usage, q.url)
		} else {
			v = f.ACAPCheck(q.agent, q.usage, q.url)
		}
		if v.Applies != q.applies || v.Allowed != q.allowed || v.Line != q.line || v.Reason != q.reason {
			t.Errorf("ACAPCheck(%q, %q, %q, %q) = applies %v allowed %v line %d reason %q (%s); want applies %v allowed %v line %d reason %q",
				q.agent, q.purpose, q.usage, q.url, v.Applies, v.Allowed, v.Line, v.Reason, v.Evidence(), q.applies, q.allowed, q.line, q.reason)
		}
	}
}

// ACAP 1.0 §2.1: the sample file.
func TestACAPSample(t *testing.T) {
	f := Parse([]byte(acapSample), Options{})
	a := f.ACAP
	if a == nil {
		t.Fatal("ACAP = nil")
	}
	if a.Version != "1.0" || a.IgnoreConventional {
		t.Errorf("Version = %q, IgnoreConventional = %v", a.Version, a.IgnoreConventional)
	}
	wantSets := []ACAPResourceSet{{Name: "crawlable", Patterns: []string{"/public/", "/promotion/", "/news/"}, Line: 19,
		Text: "ACAP-resource-set: crawlable /public/ /promotion/ /news/"}}
	if !reflect.DeepEqual(a.ResourceSets, wantSets) {
		t.Errorf("ResourceSets = %+v, want %+v", a.ResourceSets, wantSets)
	}
	wantQ := []ACAPQualifiedUsage{{Name: "cache", Usage: "preserve", Qualifiers: []Qualifier{{"time-limit", "until-recrawled"}},
		TimeLimit: &TimeLimit{Kind: TimeLimitUntilRecrawled, Text: "until-recrawled"}, Line: 22,
		Text: "ACAP-qualified-usage: cache preserve time-limit=until-recrawled"}}
	if !reflect.DeepEqual(a.QualifiedUsages, wantQ) {
		t.Errorf("QualifiedUsages = %+v, want %+v", a.QualifiedUsages, wantQ)
	}
	wantC := []ACAPCompositeUsage{{Name: "basic-usages", Usages: []string{"crawl", "index", "present"}, Line: 26,
		Text: "ACAP-composite-usage: basic-usages crawl index present"}}
	if !reflect.DeepEqual(a.CompositeUsages, wantC) {
		t.Errorf("CompositeUsages = %+v, want %+v", a.CompositeUsages, wantC)
	}
	if len(a.Blocks) != 2 || a.Blocks[0].Crawlers[0] != "*" || a.Blocks[1].Crawlers[0] != "named-crawler" || a.Blocks[1].Line != 33 {
		t.Errorf("Blocks = %+v", a.Blocks)
	}
	if len(a.Records) != 2 || a.Records[1].Usage != "(basic-usages)" || a.Records[1].Resource != "the-acap:resource-set:crawlable" {
		t.Errorf("Records = %+v", a.Records)
	}
	if len(f.Diagnostics) != 0 {
		t.Errorf("Diagnostics = %+v, want none", f.Diagnostics)
	}
	runACAP(t, acapSample, []acapQ{
		{"named-crawler", "", "crawl", "/public/a.html", true, true, 35, ACAPReasonNamedOverrides},
		{"Named-Crawler", "", "crawl", "/news/x", true, true, 35, ACAPReasonNamedOverrides},
		{"named-crawler", "", "index", "/promotion/x", true, true, 35, ACAPReasonRecord},
		{"named-crawler", "", "present", "/public/x", true, true, 35, ACAPReasonRecord},
		{"named-crawler", "", "present-snippet", "/public/x", true, true, 35, ACAPReasonRecord},
		{"named-crawler", "", "crawl", "/private/x", true, false, 30, ACAPReasonRecord},
		// The narrower conventional "Allow: /index.html" beats ACAP "*"
		// "disallow-crawl: /" (§2.4.5 applied across both, §2.9.2).
		{"named-crawler", "", "crawl", "/index.html", true, true, 8, ACAPReasonConventional},
		{"named-crawler", "", "preserve", "/public/x", false, true, 0, ACAPReasonNoRecord},
		{"named-crawler", "", "index", "/private/x", false, true, 0, ACAPReasonNoRecord},
		{"otherbot", "", "crawl", "/public/x", true, false, 30, ACAPReasonRecord},
		{"otherbot", "", "index", "/public/x", false, true, 0, ACAPReasonNoRecord},
		{"otherbot", "", "crawl", "/robots.txt", true, true, 0, ACAPReasonRobotsTxt},
		{"otherbot", "", "index", "/robots.txt", false, true, 0, ACAPReasonNoRecord},
		{"otherbot", "", "", "/x", false, true, 0, ACAPReasonNoUsage},
	})
	if got, want := f.ACAPCheck("x", "crawl", "https://e.com/robots.txt").Evidence(), "ACAP crawl: /robots.txt is always allowed (RFC 9309 §2.2.2)"; got != want {
		t.Errorf("Evidence() = %q, want %q", got, want)
	}
	// Conventional view of the same file (what non-ACAP crawlers obey).
	runChecks(t, acapSample, []check{
		{"named-crawler", "/public/x", true, 9},
		{"named-crawler", "/private/x", true, 0},
		{"otherbot", "/public/x", false, 5},
	})

	// Un-commenting the alternatives of the sample.
	body := strings.Replace(acapSample, "# ACAP-allow-(cache)", "ACAP-allow-(cache)", 1)
	body = strings.Replace(body, "# ACAP-ignore-conventional-records", "ACAP-ignore-conventional-records", 1)
	g := Parse([]byte(body), Options{})
	if !g.ACAP.IgnoreConventional {
		t.Errorf("IgnoreConventional = false after un-commenting")
	}
	v := g.ACAPCheck("named-crawler", "preserve", "/news/a")
	want := &TimeLimit{Kind: TimeLimitUntilRecrawled, Text: "until-recrawled"}
	if !v.Applies || !v.Allowed || v.Line != 43 || !reflect.DeepEqual(v.TimeLimit, want) {
		t.Errorf("preserve = %+v, want allowed by line 43 until re-crawled", v)
	}
	if want := `ACAP preserve: crawler "named-crawler": line 43 "ACAP-allow-(cache): the-acap:resource-set:crawlable" (record): permitted`; v.Evidence() != want {
		t.Errorf("Evidence() = %q, want %q", v.Evidence(), want)
	}
	runACAP(t, body, []acapQ{
		// Conventional records ignored: named-crawler's "Allow: /index.html" no longer counts.
		{"named-crawler", "", "crawl", "/index.html", true, false, 30, ACAPReasonRecord},
		{"named-crawler", "", "crawl", "/public/x", true, true, 35, ACAPReasonNamedOverrides},
	})
}

// ACAP §2.4.5: the character-by-character comparison.
func TestACAPNarrower(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"/a/", "/a/b", 1},
		{"/a/b", "/a/", -1},
		{"/a$", "/a", -1},
		{"/a$", "/ab", 1},
		{"/a*", "/ab", 1},
		{"/ab", "/a*", -1},
		{"/a*", "/a$", -1},
		{"/a$", "/a*", 1},
		{"*.gif", "/images/", 1},
		{"/a", "/b", 0},
		{"/a", "/a", 0},
		{"*a", "*b", 0},
	}
	for _, tc := range tests {
		if got := narrower(tc.a, tc.b); got != tc.want {
			t.Errorf("narrower(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestACAPConflicts(t *testing.T) {
	tests := []struct {
		name string
		body string
		qs   []acapQ
	}{
		{"narrower prohibition wins", "ACAP-crawler: *\nACAP-allow-index: /news/\nACAP-disallow-index: /news/archive/\n", []acapQ{
			{"x", "", "index", "/news/archive/1", true, false, 3, ACAPReasonNarrowest},
			{"x", "", "index", "/news/1", true, true, 2, ACAPReasonRecord},
		}},
		{"narrower permission wins", "ACAP-crawler: *\nACAP-disallow-index: /\nACAP-allow-index: /news/\n", []acapQ{
			{"x", "", "index", "/news/1", true, true, 3, ACAPReasonNarrowest},
			{"x", "", "index", "/other", true, false, 2, ACAPReasonRecord},
		}},
		{"same pattern is undecidable", "ACAP-crawler: *\nACAP-allow-index: /a\nACAP-disallow-index: /a\n", []acapQ{
			{"x", "", "index", "/a", true, false, 2, ACAPReasonUndecidable},
		}},
		{"literal beats star", "ACAP-crawler: *\nACAP-allow-index: *.html\nACAP-disallow-index: /private/\n", []acapQ{
			{"x", "", "index", "/private/a.html", true, false, 3, ACAPReasonNarrowest},
			{"x", "", "index", "/a.html", true, true, 2, ACAPReasonRecord},
		}},
		{"star loses to a letter", "ACAP-crawler: *\nACAP-allow-index: /*.html\nACAP-disallow-index: /p*\n", []acapQ{
			{"x", "", "index", "/pa.html", true, false, 3, ACAPReasonNarrowest},
		}},
		{"dollar loses to anything", "ACAP-crawler: *\nACAP-allow-index: /a*\nACAP-disallow-index: /a$\n", []acapQ{
			{"x", "", "index", "/a", true, true, 2, ACAPReasonNarrowest},
		}},
		{"different letters are undecidable", "ACAP-crawler: *\nACAP-allow-index: /a*b\nACAP-disallow-index: /a*c\n", []acapQ{
			{"x", "", "index", "/abc", true, false, 2, ACAPReasonUndecidable},
			{"x", "", "index", "/ab", true, true, 2, ACAPReasonRecord},
		}},
		{"qualifiers ignored in conflicts", "ACAP-crawler: *\nACAP-allow-present: /a time-limit=3-days\nACAP-disallow-present: /a\n", []acapQ{
			{"x", "", "present", "/a", true, false, 2, ACAPReasonUndecidable},
		}},
		{"case-insensitive matching (§2.8)", "ACAP-crawler: *\nACAP-disallow-index: /Private/\n", []acapQ{
			{"x", "", "INDEX", "/PRIVATE/x", true, false, 2, ACAPReasonRecord},
			{"x", "", "index", "/private/x", true, false, 2, ACAPReasonRecord},
		}},
		{"named crawler overrides *", "ACAP-crawler: *\nACAP-allow-index: /\nACAP-crawler: Bot\nACAP-disallow-index: /x/\n", []acapQ{
			{"bot", "", "index", "/x/a", true, false, 4, ACAPReasonNamedOverrides},
			{"bot", "", "index", "/y", true, true, 2, ACAPReasonRecord},
			{"other", "", "index", "/x/a", true, true, 2, ACAPReasonRecord},
		}},
		{"named crawler overrides even a narrower *", "ACAP-crawler: *\nACAP-disallow-index: /x/y/\nACAP-crawler: bot\nACAP-allow-index: /x/\n", []acapQ{
			{"bot", "", "index", "/x/y/z", true, true, 4, ACAPReasonNamedOverrides},
		}},
		{"record with several crawlers", "ACAP-crawler: a\nACAP-crawler: b\nACAP-disallow-index: /\nACAP-crawler: c\nACAP-allow-index: /\n", []acapQ{
			{"a", "", "index", "/x", true, false, 3, ACAPReasonRecord},
			{"B", "", "index", "/x", true, false, 3, ACAPReasonRecord},
			{"c", "", "index", "/x", true, true, 5, ACAPReasonRecord},
			{"d", "", "index", "/x", false, true, 0, ACAPReasonNoRecord},
		}},
		{"present covers its derived types", "ACAP-crawler: *\nACAP-disallow-present: /p/\nACAP-allow-present-snippet: /\n", []acapQ{
			{"x", "", "present-snippet", "/p/a", true, false, 2, ACAPReasonNarrowest},
			{"x", "", "present-snippet", "/a", true, true, 3, ACAPReasonRecord},
			{"x", "", "present-thumbnail", "/p/a", true, false, 2, ACAPReasonRecord},
			{"x", "", "present", "/a", false, true, 0, ACAPReasonNoRecord},
		}},
		{"derived type beats present on the same pattern", "ACAP-crawler: *\nACAP-allow-present: /public/\nACAP-disallow-present-thumbnail: /public/\n", []acapQ{
			{"x", "", "present-thumbnail", "/public/a", true, false, 3, ACAPReasonNarrowest},
			{"x", "", "present-snippet", "/public/a", true, true, 2, ACAPReasonRecord},
		}},
		{"§2.5.5.1.5 snippets but no thumbnails", "ACAP-crawler: *\nACAP-allow-present-snippet: /public/\nACAP-disallow-present-thumbnail: /public/\n", []acapQ{
			{"x", "", "present-snippet", "/public/a", true, true, 2, ACAPReasonRecord},
			{"x", "", "present-thumbnail", "/public/a", true, false, 3, ACAPReasonRecord},
		}},
		{"usage type other (§2.5.6)", "ACAP-crawler: *\nACAP-allow-index: /public/\nACAP-disallow-other: /public/\n", []acapQ{
			{"x", "", "index", "/public/a", true, true, 2, ACAPReasonRecord},
			{"x", "", "preserve", "/public/a", true, false, 3, ACAPReasonOther},
			{"x", "", "present-snippet", "/public/a", true, false, 3, ACAPReasonOther},
			{"x", "", "crawl", "/public/a", true, false, 3, ACAPReasonOther},
			{"x", "", "preserve", "/private/a", false, true, 0, ACAPReasonNoRecord},
		}},
		{"resource set (§2.7.3)", "ACAP-resource-set: images *.gif *.jpg *.png\nACAP-crawler: *\nACAP-disallow-index: the-acap:resource-set:images\n", []acapQ{
			{"x", "", "index", "/a/b.GIF", true, false, 3, ACAPReasonRecord},
			{"x", "", "index", "/a/b.html", false, true, 0, ACAPReasonNoRecord},
		}},
		{"usage purposes (§2.3.3)", "ACAP-crawler: bot\nACAP-allow-index: /\nACAP-usage-purpose: news\nACAP-disallow-index: /opinion/\nACAP-usage-purpose: http://news.search.*/*\nACAP-disallow-index: /live/\n", []acapQ{
			{"bot", "", "index", "/opinion/x", true, true, 2, ACAPReasonRecord},
			{"bot", "news", "index", "/opinion/x", true, false, 4, ACAPReasonRecord},
			{"bot", "NEWS", "index", "/live/x", true, true, 2, ACAPReasonRecord},
			{"bot", "http://news.search.example/x", "index", "/live/x", true, false, 6, ACAPReasonRecord},
			{"bot", "images", "index", "/opinion/x", true, true, 2, ACAPReasonRecord},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runACAP(t, tc.body, tc.qs) })
	}
}

// ACAP §2.9: ACAP and conventional records together.
func TestACAPConventional(t *testing.T) {
	tests := []struct {
		name string
		body string
		qs   []acapQ
	}{
		{"narrower conventional disallow decides", "User-agent: *\nDisallow: /private/\nACAP-crawler: *\nACAP-allow-crawl: /\n", []acapQ{
			{"x", "", "crawl", "/private/a", true, false, 2, ACAPReasonConventional},
			{"x", "", "crawl", "/a", true, true, 4, ACAPReasonRecord},
		}},
		{"same pattern: conventional ignored (§2.9.2)", "User-agent: *\nDisallow: /a/\nACAP-crawler: *\nACAP-allow-crawl: /a/\n", []acapQ{
			{"x", "", "crawl", "/a/b", true, true, 4, ACAPReasonACAPOverConv},
		}},
		{"conventional records ignored (§2.9.1)", "ACAP-ignore-conventional-records\nUser-agent: *\nDisallow: /private/\nACAP-crawler: *\nACAP-allow-crawl: /\n", []acapQ{
			{"x", "", "crawl", "/private/a", true, true, 5, ACAPReasonRecord},
		}},
		{"ignored conventional, no crawl field", "ACAP-ignore-conventional-records\nUser-agent: *\nDisallow: /\nACAP-crawler: *\nACAP-allow-index: /\n", []acapQ{
			{"x", "", "crawl", "/a", true, true, 0, ACAPReasonIgnoreNoRecord},
		}},
		{"no ACAP crawl field: conventional verdict", "User-agent: *\nDisallow: /p/\nACAP-crawler: *\nACAP-allow-index: /\n", []acapQ{
			{"x", "", "crawl", "/p/a", false, false, 2, ACAPReasonNoRecord},
			{"x", "", "crawl", "/a", false, true, 0, ACAPReasonNoRecord},
			{"x", "", "index", "/p/a", true, true, 4, ACAPReasonRecord},
		}},
		{"conventional rules inside ACAP records are ignored", "User-agent: *\nDisallow: /a\nACAP-crawler: *\nACAP-allow-index: /\nDisallow: /b\n", []acapQ{
			{"x", "", "crawl", "/b", false, true, 0, ACAPReasonNoRecord},
			{"x", "", "crawl", "/a", false, false, 2, ACAPReasonNoRecord},
		}},
		{"no ACAP at all", "User-agent: *\nDisallow: /p/\n", []acapQ{
			{"x", "", "crawl", "/p/a", false, false, 2, ACAPReasonNoACAP},
			{"x", "", "index", "/p/a", false, true, 0, ACAPReasonNoACAP},
		}},
		{"conventional group of the named crawler", "User-agent: *\nDisallow: /\nUser-agent: bot\nDisallow: /x/\nACAP-crawler: *\nACAP-allow-crawl: /\n", []acapQ{
			{"bot", "", "crawl", "/x/1", true, false, 4, ACAPReasonConventional},
			{"bot", "", "crawl", "/y", true, true, 6, ACAPReasonRecord},
			{"other", "", "crawl", "/y", true, true, 6, ACAPReasonACAPOverConv},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runACAP(t, tc.body, tc.qs) })
	}
	// The conventional view ignores ACAP fields entirely.
	runChecks(t, "User-agent: *\nDisallow: /a\nACAP-crawler: *\nACAP-allow-index: /\nDisallow: /b\n", []check{
		{"x", "/b", false, 5},
	})
}

func TestACAPQualifiers(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		usage  string
		url    string
		quals  []Qualifier
		tl     *TimeLimit
		diags  map[int]string
		allow  bool
		reason string
	}{
		{"max-length", "ACAP-crawler: *\nACAP-allow-present-snippet: /news/ max-length=250-chars\n", "present-snippet", "/news/a",
			[]Qualifier{{"max-length", "250-chars"}}, nil, nil, true, ACAPReasonRecord},
		{"time-limit date", "ACAP-crawler: *\nACAP-allow-index: /news/2007/ time-limit=until-2007-12-31\n", "index", "/news/2007/a",
			[]Qualifier{{"time-limit", "until-2007-12-31"}}, &TimeLimit{Kind: TimeLimitUntilDate, Until: time.Date(2007, 12, 31, 0, 0, 0, 0, time.UTC), Text: "until-2007-12-31"}, nil, true, ACAPReasonRecord},
		{"time-limit days", "ACAP-crawler: *\nACAP-allow-preserve: /current-news/ time-limit=3-days\n", "preserve", "/current-news/a",
			[]Qualifier{{"time-limit", "3-days"}}, &TimeLimit{Kind: TimeLimitDays, Days: 3, Text: "3-days"}, nil, true, ACAPReasonRecord},
		{"time-limit until-recrawl spelling of §2.4.1.2", "ACAP-crawler: *\nACAP-allow-preserve: /news/ time-limit=until-recrawl\n", "preserve", "/news/a",
			[]Qualifier{{"time-limit", "until-recrawl"}}, &TimeLimit{Kind: TimeLimitUntilRecrawled, Text: "until-recrawl"}, nil, true, ACAPReasonRecord},
		{"bad time-limit kept as text", "ACAP-crawler: *\nACAP-allow-preserve: /news/ time-limit=forever\n", "preserve", "/news/a",
			[]Qualifier{{"time-limit", "forever"}}, nil, map[int]string{2: DiagACAPBadQualifier}, true, ACAPReasonRecord},
		{"spaces around =", "ACAP-crawler: *\nACAP-allow-present: /p/ time-limit = 5-days\n", "present", "/p/a",
			[]Qualifier{{"time-limit", "5-days"}}, &TimeLimit{Kind: TimeLimitDays, Days: 5, Text: "5-days"}, nil, true, ACAPReasonRecord},
		{"repeated prohibited-modification on a continuation line", "ACAP-crawler: *\nACAP-allow-present-currentcopy: /public/ prohibited-modification=format\nprohibited-modification=translation\n", "present-currentcopy", "/public/a",
			[]Qualifier{{"prohibited-modification", "format"}, {"prohibited-modification", "translation"}}, nil, map[int]string{3: DiagACAPContinuation}, true, ACAPReasonRecord},
		{"other qualifiers kept", "ACAP-crawler: *\nACAP-allow-present-original: /public/ required-context=within-original-frame x-custom=1\n", "present-original", "/public/a",
			[]Qualifier{{"required-context", "within-original-frame"}, {"x-custom", "1"}}, nil, map[int]string{2: DiagACAPUnknownQualifier}, true, ACAPReasonRecord},
		{"qualified usage on the next line (§2.7.1 as typeset)", "ACAP-qualified-usage:\nmy-present-snippet present-snippet time-limit=5-days max-length=250-chars\nACAP-crawler: *\nACAP-allow-(my-present-snippet): /public/\n", "present-snippet", "/public/a",
			[]Qualifier{{"time-limit", "5-days"}, {"max-length", "250-chars"}}, &TimeLimit{Kind: TimeLimitDays, Days: 5, Text: "5-days"}, map[int]string{2: DiagACAPContinuation}, true, ACAPReasonRecord},
		{"composite with qualified (§2.7.2)", "ACAP-qualified-usage: present-30-word-snippet present-snippet max-length=30-words\nACAP-composite-usage: my-default-present (present-30-word-snippet) present-thumbnail\nACAP-crawler: *\nACAP-allow-(my-default-present): /public/\n", "present-snippet", "/public/a",
			[]Qualifier{{"max-length", "30-words"}}, nil, nil, true, ACAPReasonRecord},
		{"prohibition qualifiers ignored", "ACAP-crawler: *\nACAP-disallow-index: /a time-limit=3-days\n", "index", "/a",
			nil, nil, map[int]string{2: DiagACAPQualifierIgnored}, false, ACAPReasonRecord},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte(tc.body), Options{})
			v := f.ACAPCheck("x", tc.usage, tc.url)
			if !v.Applies || v.Allowed != tc.allow || v.Reason != tc.reason {
				t.Errorf("verdict = %+v, want applies, allowed %v, reason %q", v, tc.allow, tc.reason)
			}
			if !reflect.DeepEqual(v.Qualifiers, tc.quals) {
				t.Errorf("Qualifiers = %+v, want %+v", v.Qualifiers, tc.quals)
			}
			if !reflect.DeepEqual(v.TimeLimit, tc.tl) {
				t.Errorf("TimeLimit = %+v, want %+v", v.TimeLimit, tc.tl)
			}
			wantCodes(t, f, tc.diags)
		})
	}
	// The composite's other member.
	f := Parse([]byte("ACAP-qualified-usage: q present-snippet max-length=30-words\nACAP-composite-usage: c (q) present-thumbnail\nACAP-crawler: *\nACAP-allow-(c): /public/\n"), Options{})
	if v := f.ACAPCheck("x", "present-thumbnail", "/public/a"); !v.Applies || !v.Allowed || v.Qualifiers != nil {
		t.Errorf("present-thumbnail = %+v, want allowed without qualifiers", v)
	}
	if v := f.ACAPCheck("x", "present-original", "/public/a"); v.Applies {
		t.Errorf("present-original = %+v, want no record", v)
	}
}

func TestParseTimeLimit(t *testing.T) {
	tests := []struct {
		in   string
		want *TimeLimit
	}{
		{"until-recrawled", &TimeLimit{Kind: TimeLimitUntilRecrawled, Text: "until-recrawled"}},
		{"UNTIL-RECRAWLED", &TimeLimit{Kind: TimeLimitUntilRecrawled, Text: "UNTIL-RECRAWLED"}},
		{"until-2024-02-29", &TimeLimit{Kind: TimeLimitUntilDate, Until: time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), Text: "until-2024-02-29"}},
		{"until-2023-02-29", nil},
		{"until-tomorrow", nil},
		{"30-days", &TimeLimit{Kind: TimeLimitDays, Days: 30, Text: "30-days"}},
		{"1-day", &TimeLimit{Kind: TimeLimitDays, Days: 1, Text: "1-day"}},
		{"x-days", nil},
		{"-3-days", nil},
		{"", nil},
	}
	for _, tc := range tests {
		got, ok := parseTimeLimit(tc.in)
		if !reflect.DeepEqual(got, tc.want) || ok != (tc.want != nil) {
			t.Errorf("parseTimeLimit(%q) = %+v, %v; want %+v", tc.in, got, ok, tc.want)
		}
	}
}

func TestACAPRequests(t *testing.T) {
	body := strings.Join([]string{
		"ACAP-crawler: *", // 1
		"ACAP-request-take-down: /news/bad-story.htm", // 2
		"ACAP-request-re-crawl: /news/fixed.htm",      // 3
		"ACAP-crawler: bot",                           // 4
		"ACAP-request-take-down: /x/*.pdf",            // 5
		"ACAP-request-take-down: /q?id=1",             // 6
		"ACAP-crawler: ref-bot",                       // 7
		"ACAP-permissions-reference: /ref-bot.txt",    // 8
	}, "\n")
	f := Parse([]byte(body), Options{})
	a := f.ACAP
	if len(a.TakeDowns) != 3 || len(a.ReCrawls) != 1 || a.ReCrawls[0] != (ACAPRequest{Crawler: "*", Resource: "/news/fixed.htm", Line: 3, Text: "ACAP-request-re-crawl: /news/fixed.htm"}) {
		t.Errorf("TakeDowns = %+v, ReCrawls = %+v", a.TakeDowns, a.ReCrawls)
	}
	if !reflect.DeepEqual(a.PermissionsReferences, []string{"/ref-bot.txt"}) || a.Blocks[2].PermissionsReference != "/ref-bot.txt" {
		t.Errorf("PermissionsReferences = %+v", a.PermissionsReferences)
	}
	tests := []struct {
		agent, url string
		lines      []int
	}{
		{"any", "/news/bad-story.htm", []int{2}},
		{"any", "https://example.com/NEWS/Bad-Story.htm?utm=1", []int{2}},
		{"any", "/news/bad-story.html", nil},
		{"any", "/news/fixed.htm", nil},
		{"bot", "/x/a.pdf", []int{5}},
		{"other", "/x/a.pdf", nil},
		{"bot", "/q?id=1", []int{6}},
		{"bot", "/q?id=2", nil},
		{"bot", "/q", nil},
		{"bot", "/news/bad-story.htm", []int{2}},
	}
	for _, tc := range tests {
		var got []int
		for _, r := range f.TakeDownFor(tc.agent, tc.url) {
			got = append(got, r.Line)
		}
		if !reflect.DeepEqual(got, tc.lines) {
			t.Errorf("TakeDownFor(%q, %q) lines = %v, want %v", tc.agent, tc.url, got, tc.lines)
		}
	}
	if v := f.ACAPCheck("ref-bot", "index", "/a"); !strings.Contains(v.Note, "/ref-bot.txt") {
		t.Errorf("Note = %q, want the unresolved permissions reference", v.Note)
	}
	if Parse([]byte("user-agent: *\n"), Options{}).TakeDownFor("x", "/") != nil {
		t.Errorf("TakeDownFor without ACAP is not nil")
	}
}

func TestACAPDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		diags map[int]string
	}{
		{"unknown field", "ACAP-crawler: *\nACAP-frobnicate: /\n", map[int]string{2: DiagACAPUnknownField}},
		{"outside record", "ACAP-allow-index: /\n", map[int]string{1: DiagACAPOutsideRecord}},
		{"unknown usage", "ACAP-crawler: *\nACAP-allow-archive: /\n", map[int]string{2: DiagACAPUnknownUsage}},
		{"undefined local usage", "ACAP-crawler: *\nACAP-allow-(nope): /\n", map[int]string{2: DiagACAPUndefinedUsage}},
		{"undefined resource set", "ACAP-crawler: *\nACAP-allow-index: the-acap:resource-set:nope\n", map[int]string{2: DiagACAPUndefinedSet}},
		{"local prohibition", "ACAP-qualified-usage: q index time-limit=3-days\nACAP-crawler: *\nACAP-disallow-(q): /\n", map[int]string{3: DiagACAPLocalProhibition}},
		{"local usage with qualifiers", "ACAP-qualified-usage: q index time-limit=3-days\nACAP-crawler: *\nACAP-allow-(q): / max-length=3-words\n", map[int]string{3: DiagACAPQualifierIgnored}},
		{"definition after records", "ACAP-crawler: *\nACAP-allow-(q): /\nACAP-qualified-usage: q index time-limit=3-days\n", map[int]string{3: DiagACAPDefinitionLate}},
		{"any crawler mixed", "ACAP-crawler: a\nACAP-crawler: *\nACAP-allow-index: /\n", map[int]string{2: DiagACAPAnyCrawlerMixed}},
		{"empty definition", "ACAP-resource-set:\n\nACAP-crawler: *\n", map[int]string{1: DiagACAPEmptyValue}},
		{"bad definition", "ACAP-resource-set: lonely\n", map[int]string{1: DiagACAPBadDefinition}},
		{"missing colon", "ACAP-crawler *\nACAP-disallow-index /\n", map[int]string{1: DiagMissingColon, 2: DiagMissingColon}},
		{"ignore late", "ACAP-crawler: *\nACAP-ignore-conventional-records\n", map[int]string{2: DiagACAPIgnoreLate}},
		{"request in sub-record", "ACAP-crawler: *\nACAP-usage-purpose: news\nACAP-request-take-down: /a\n", map[int]string{3: DiagACAPRequestInPurpose}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte(tc.body), Options{})
			wantCodes(t, f, tc.diags)
			if f.ACAP == nil {
				t.Errorf("ACAP = nil")
			}
		})
	}
	if f := Parse([]byte("user-agent: *\ndisallow: /\n# ACAP-crawler: *\n"), Options{}); f.ACAP != nil {
		t.Errorf("ACAP = %+v for a file without ACAP records", f.ACAP)
	}
	// A local prohibition still prohibits its standard usage.
	f := Parse([]byte("ACAP-qualified-usage: q index time-limit=3-days\nACAP-crawler: *\nACAP-disallow-(q): /a\n"), Options{})
	if v := f.ACAPCheck("x", "index", "/a"); !v.Applies || v.Allowed || v.TimeLimit != nil {
		t.Errorf("local prohibition verdict = %+v", v)
	}
}
