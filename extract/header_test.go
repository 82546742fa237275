package extract

import (
	"strings"
	"testing"
	"time"
)

// r is a compact rule description for tables: token, name, value.
type r struct{ tok, name, val string }

func rulesOf(rules []Rule) []r {
	var out []r
	for _, x := range rules {
		out = append(out, r{x.Token, x.Name, x.Value})
	}
	return out
}

func codesOf(diags []Diagnostic) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Code)
	}
	return out
}

func sameRules(got, want []r) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func sameStrings(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func TestParseXRobotsTag(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		want   []r
		diags  []string
	}{
		{"plain", []string{"noindex"}, []r{{"*", "noindex", ""}}, nil},
		{"two rules", []string{"noindex, nofollow"}, []r{{"*", "noindex", ""}, {"*", "nofollow", ""}}, nil},
		{"upper case", []string{"NoIndex, NOFOLLOW"}, []r{{"*", "noindex", ""}, {"*", "nofollow", ""}}, nil},
		{"scoped", []string{"googlebot: noindex"}, []r{{"googlebot", "noindex", ""}}, nil},
		{"scoped two", []string{"googlebot: noindex, nofollow"}, []r{{"googlebot", "noindex", ""}, {"googlebot", "nofollow", ""}}, nil},
		{"scoped mixed case", []string{"OtherBot: noindex, nofollow"}, []r{{"otherbot", "noindex", ""}, {"otherbot", "nofollow", ""}}, nil},
		{"scope without space", []string{"googlebot:noindex"}, []r{{"googlebot", "noindex", ""}}, nil},
		{"scope per line", []string{"googlebot: nofollow", "otherbot: noindex, nofollow", "noarchive"},
			[]r{{"googlebot", "nofollow", ""}, {"otherbot", "noindex", ""}, {"otherbot", "nofollow", ""}, {"*", "noarchive", ""}}, nil},
		{"rescope in line", []string{"googlebot: noindex, bingbot: nosnippet"},
			[]r{{"googlebot", "noindex", ""}, {"bingbot", "nosnippet", ""}}, nil},
		{"robots scope is global", []string{"robots: noindex"}, []r{{"*", "noindex", ""}}, nil},
		{"unavailable_after google form", []string{"unavailable_after: 25 Jun 2010 15:00:00 PST"},
			[]r{{"*", "unavailable_after", "25 Jun 2010 15:00:00 PST"}}, nil},
		{"unavailable_after rfc850", []string{"unavailable_after: Friday, 25-Jun-10 15:00:00 PST"},
			[]r{{"*", "unavailable_after", "Friday, 25-Jun-10 15:00:00 PST"}}, nil},
		{"unavailable_after rfc1123 then rule", []string{"unavailable_after: Fri, 25 Jun 2010 15:00:00 GMT, noarchive"},
			[]r{{"*", "unavailable_after", "Fri, 25 Jun 2010 15:00:00 GMT"}, {"*", "noarchive", ""}}, nil},
		{"scoped unavailable_after", []string{"googlebot: unavailable_after: Friday, 25-Jun-10 15:00:00 PST"},
			[]r{{"googlebot", "unavailable_after", "Friday, 25-Jun-10 15:00:00 PST"}}, nil},
		{"unavailable_after month first", []string{"unavailable_after: Jun 25, 2010"},
			[]r{{"*", "unavailable_after", "Jun 25, 2010"}}, nil},
		{"bad date", []string{"unavailable_after: someday"}, []r{{"*", "unavailable_after", "someday"}}, []string{DiagBadDate}},
		{"max-snippet colon", []string{"max-snippet:20"}, []r{{"*", "max-snippet", "20"}}, nil},
		{"max-snippet equals", []string{"max-snippet=20"}, []r{{"*", "max-snippet", "20"}}, nil},
		{"max-snippet bad", []string{"max-snippet: many"}, []r{{"*", "max-snippet", "many"}}, []string{DiagBadValue}},
		{"image preview", []string{"max-image-preview:large, max-snippet:-1"},
			[]r{{"*", "max-image-preview", "large"}, {"*", "max-snippet", "-1"}}, nil},
		{"scoped valued", []string{"googlebot: max-snippet: 0"}, []r{{"googlebot", "max-snippet", "0"}}, nil},
		{"none", []string{"none"}, []r{{"*", "none", ""}}, nil},
		{"unknown rule kept", []string{"noai, NoImageAI"}, []r{{"*", "noai", ""}, {"*", "noimageai", ""}}, nil},
		{"trailing comma", []string{"noindex,"}, []r{{"*", "noindex", ""}}, nil},
		{"space separated", []string{"noindex nofollow"}, []r{{"*", "noindex", ""}, {"*", "nofollow", ""}}, nil},
		{"semicolon separated", []string{"noindex;nofollow"}, []r{{"*", "noindex", ""}, {"*", "nofollow", ""}}, nil},
		{"sf form", []string{"*;nosnippet, ExampleBot;noindex"}, []r{{"*", "nosnippet", ""}, {"examplebot", "noindex", ""}}, nil},
		{"sf form valued", []string{`googlebot;max-snippet=5;unavailable_after="2025-12-31"`},
			[]r{{"googlebot", "max-snippet", "5"}, {"googlebot", "unavailable_after", "2025-12-31"}}, nil},
		{"sf-ish member in legacy", []string{"googlebot;noindex, nofollow"}, []r{{"googlebot", "noindex", ""}, {"*", "nofollow", ""}}, nil},
		{"quoted value", []string{`"noindex, nofollow"`}, []r{{"*", "noindex", ""}, {"*", "nofollow", ""}}, nil},
		{"quoted rules", []string{`"noindex", "nofollow"`}, []r{{"*", "noindex", ""}, {"*", "nofollow", ""}}, nil},
		{"rule with true", []string{"noindex: true"}, []r{{"*", "noindex", "true"}}, nil},
		{"empty scope", []string{"otherbot:"}, nil, nil},
		{"empty", []string{""}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, diags := ParseXRobotsTag(tt.values, Options{})
			if got := rulesOf(rules); !sameRules(got, tt.want) {
				t.Errorf("rules: got %v, want %v", got, tt.want)
			}
			if got := codesOf(diags); !sameStrings(got, tt.diags) {
				t.Errorf("diagnostics: got %v, want %v (%v)", got, tt.diags, diags)
			}
			for _, x := range rules {
				if x.Via != ViaXRobotsTag {
					t.Errorf("via: got %q, want %q", x.Via, ViaXRobotsTag)
				}
				if !strings.HasPrefix(x.Evidence, "X-Robots-Tag: ") {
					t.Errorf("evidence: got %q, want an X-Robots-Tag line", x.Evidence)
				}
			}
		})
	}
}

func TestXRobotsTagEvidenceIsTheLine(t *testing.T) {
	rules, _ := ParseXRobotsTag([]string{"noarchive", "googlebot: noindex"}, Options{})
	if len(rules) != 2 {
		t.Fatalf("got %d rules, want 2", len(rules))
	}
	if got, want := rules[1].Evidence, "X-Robots-Tag: googlebot: noindex"; got != want {
		t.Errorf("got evidence %q, want %q", got, want)
	}
	if got, want := rules[0].Evidence, "X-Robots-Tag: noarchive"; got != want {
		t.Errorf("got evidence %q, want %q", got, want)
	}
}

func TestUnavailableAfterTime(t *testing.T) {
	rules, _ := ParseXRobotsTag([]string{"unavailable_after: Friday, 25-Jun-10 15:00:00 PST"}, Options{})
	if len(rules) != 1 {
		t.Fatalf("got %d rules, want 1", len(rules))
	}
	want := time.Date(2010, 6, 25, 23, 0, 0, 0, time.UTC)
	if !rules[0].Time.Equal(want) {
		t.Errorf("got %v, want %v", rules[0].Time, want)
	}
}

func TestParseRobotsTag(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		want   []r
		diags  []string
	}{
		{"spec example", []string{"*;nosnippet, ExampleBot;noindex"}, []r{{"*", "nosnippet", ""}, {"examplebot", "noindex", ""}}, nil},
		{"two lines", []string{"*;nosnippet", "ExampleBot;noindex"}, []r{{"*", "nosnippet", ""}, {"examplebot", "noindex", ""}}, nil},
		{"duplicate token", []string{"a;noindex, a;nosnippet"}, []r{{"a", "noindex", ""}, {"a", "nosnippet", ""}}, nil},
		{"params with values", []string{`bot;max-snippet=20;unavailable_after="2025-12-31"`},
			[]r{{"bot", "max-snippet", "20"}, {"bot", "unavailable_after", "2025-12-31"}}, nil},
		{"sf date", []string{`bot;unavailable_after=@1735689600`}, []r{{"bot", "unavailable_after", "1735689600"}}, nil},
		{"false param", []string{"bot;noindex=?0;nosnippet"}, []r{{"bot", "nosnippet", ""}}, []string{DiagRuleFalse}},
		{"bare rule", []string{"noindex"}, []r{{"*", "noindex", ""}}, []string{DiagBareRule}},
		{"bare rules", []string{"noindex, nofollow"}, []r{{"*", "noindex", ""}, {"*", "nofollow", ""}}, []string{DiagBareRule, DiagBareRule}},
		{"token no rules", []string{"ExampleBot"}, nil, []string{DiagNoRules}},
		{"legacy colon token", []string{"googlebot:noindex"}, []r{{"googlebot", "noindex", ""}}, []string{DiagBareRule}},
		{"legacy fallback", []string{"googlebot: noindex, nofollow"},
			[]r{{"googlebot", "noindex", ""}, {"googlebot", "nofollow", ""}}, []string{DiagSFFallback}},
		{"invalid sf fallback", []string{"*;noindex;;"}, []r{{"*", "noindex", ""}}, []string{DiagSFFallback}},
		{"inner list", []string{"(a b);noindex, c;nosnippet"}, []r{{"c", "nosnippet", ""}}, []string{DiagBadMember}},
		{"string member", []string{`"bot";noindex`}, nil, []string{DiagBadMember}},
		{"string across lines", []string{`a;x="1`, `2";noindex`}, []r{{"a", "x", "1, 2"}, {"a", "noindex", ""}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, diags := ParseRobotsTag(tt.values, Options{})
			if got := rulesOf(rules); !sameRules(got, tt.want) {
				t.Errorf("rules: got %v, want %v", got, tt.want)
			}
			if got := codesOf(diags); !sameStrings(got, tt.diags) {
				t.Errorf("diagnostics: got %v, want %v (%v)", got, tt.diags, diags)
			}
			for _, x := range rules {
				if x.Via != ViaRobotsTag {
					t.Errorf("via: got %q, want %q", x.Via, ViaRobotsTag)
				}
			}
		})
	}
}

func TestRobotsTagTruncation(t *testing.T) {
	// Members "b0;noindex" ... until past 8 KiB.
	var members []string
	n := 0
	for i := 0; n < DefaultMaxHeaderBytes+100; i++ {
		m := "bot" + strings.Repeat("x", i%7) + ";noindex"
		members = append(members, m)
		n += len(m) + 2
	}
	value := strings.Join(members, ", ")
	rules, diags := ParseRobotsTag([]string{value}, Options{})
	if got := codesOf(diags); !sameStrings(got, []string{DiagHeaderTruncated}) {
		t.Fatalf("diagnostics: got %v, want [%s]", got, DiagHeaderTruncated)
	}
	// Count members that end within the limit.
	want := 0
	end := 0
	for i, m := range members {
		if i > 0 {
			end += 2
		}
		end += len(m)
		if end <= DefaultMaxHeaderBytes {
			want++
		}
	}
	if len(rules) != want {
		t.Errorf("got %d rules, want %d complete members honoured", len(rules), want)
	}
}

func TestTruncationBoundary(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		max    int
		want   []r
	}{
		// "a;noindex, b;nosnippet" is 22 bytes; the first member ends at 9.
		{"cut inside second member", []string{"a;noindex, b;nosnippet"}, 15, []r{{"a", "noindex", ""}}},
		{"cut right after first member", []string{"a;noindex, b;nosnippet"}, 9, []r{{"a", "noindex", ""}}},
		{"cut inside first member", []string{"a;noindex, b;nosnippet"}, 8, nil},
		{"limit at end", []string{"a;noindex, b;nosnippet"}, 22, []r{{"a", "noindex", ""}, {"b", "nosnippet", ""}}},
		{"second line cut", []string{"a;noindex", "b;nosnippet, c;noarchive"}, 24, []r{{"a", "noindex", ""}, {"b", "nosnippet", ""}}},
		{"second line after limit", []string{"a;noindex", "b;nosnippet"}, 10, []r{{"a", "noindex", ""}}},
		{"cut in string", []string{`a;noindex, b;x="p, q", c;noarchive`}, 20, []r{{"a", "noindex", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, _ := ParseRobotsTag(tt.values, Options{MaxHeaderBytes: tt.max})
			if got := rulesOf(rules); !sameRules(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestXRobotsTagTruncation(t *testing.T) {
	line := strings.Repeat("noindex, ", DefaultMaxHeaderBytes/9+10)
	rules, diags := ParseXRobotsTag([]string{"nosnippet", line}, Options{})
	if got := codesOf(diags); !sameStrings(got, []string{DiagHeaderTruncated}) {
		t.Fatalf("diagnostics: got %v, want [%s]", got, DiagHeaderTruncated)
	}
	// "nosnippet, " is 11 bytes; then whole "noindex" members of 9 bytes.
	want := 1 + (DefaultMaxHeaderBytes-11+2)/9
	if len(rules) != want {
		t.Errorf("got %d rules, want %d", len(rules), want)
	}
}

func TestParseDate(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s int) time.Time {
		return time.Date(y, mo, d, h, mi, s, 0, time.UTC)
	}
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"25 Jun 2010 15:00:00 PST", utc(2010, 6, 25, 23, 0, 0), true},
		{"25 Jun 2010 15:00:00 PDT", utc(2010, 6, 25, 22, 0, 0), true},
		{"25 Jun 2010 15:00:00 EST", utc(2010, 6, 25, 20, 0, 0), true},
		{"25 Jun 2010 15:00:00 CET", utc(2010, 6, 25, 14, 0, 0), true},
		{"25 Jun 2010 15:00 GMT", utc(2010, 6, 25, 15, 0, 0), true},
		{"25 June 2010", utc(2010, 6, 25, 0, 0, 0), true},
		{"Friday, 25-Jun-10 15:00:00 PST", utc(2010, 6, 25, 23, 0, 0), true},
		{"Friday, 25-Jun-2010 15:00:00 GMT", utc(2010, 6, 25, 15, 0, 0), true},
		{"Fri, 25 Jun 2010 15:00:00 GMT", utc(2010, 6, 25, 15, 0, 0), true},
		{"Fri, 25 Jun 2010 15:00:00 +0200", utc(2010, 6, 25, 13, 0, 0), true},
		{"Fri, 25 Jun 2010 15:00:00 -0800", utc(2010, 6, 25, 23, 0, 0), true},
		{"fri, 25 jun 2010 15:00:00 utc", utc(2010, 6, 25, 15, 0, 0), true},
		{"Fri, 25 Jun 10 15:00:00 UT", utc(2010, 6, 25, 15, 0, 0), true},
		{"Fri Jun 25 15:00:00 2010", utc(2010, 6, 25, 15, 0, 0), true},
		{"Fri Jun 25 15:00:00 CEST 2010", utc(2010, 6, 25, 13, 0, 0), true},
		{"2025-12-31", utc(2025, 12, 31, 0, 0, 0), true},
		{"2025-12-31T23:59:59Z", utc(2025, 12, 31, 23, 59, 59), true},
		{"2025-12-31T23:59:59.5Z", time.Date(2025, 12, 31, 23, 59, 59, 5e8, time.UTC), true},
		{"2025-12-31T23:59:59+01:00", utc(2025, 12, 31, 22, 59, 59), true},
		{"2025-12-31T23:59", utc(2025, 12, 31, 23, 59, 0), true},
		{"2025-12-31 23:59:59", utc(2025, 12, 31, 23, 59, 59), true},
		{"2025-12-31 23:59:59 PST", utc(2026, 1, 1, 7, 59, 59), true},
		{"2025-12-31T10:00:00 GMT+1", utc(2025, 12, 31, 9, 0, 0), true},
		{"Jun 25, 2010", utc(2010, 6, 25, 0, 0, 0), true},
		{"June 25, 2010", utc(2010, 6, 25, 0, 0, 0), true},
		{`"2025-12-31"`, utc(2025, 12, 31, 0, 0, 0), true},
		{"  25 Jun 2010   15:00:00   PST ", utc(2010, 6, 25, 23, 0, 0), true},
		{"25 Jun 2010 15:00:00 XYZ", time.Time{}, false},
		{"someday", time.Time{}, false},
		{"", time.Time{}, false},
		{"2025-13-45", time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := ParseDate(tt.in)
			if ok != tt.ok || !got.Equal(tt.want) {
				t.Errorf("ParseDate(%q): got %v, %v, want %v, %v", tt.in, got, ok, tt.want, tt.ok)
			}
			if ok && got.Location() != time.UTC {
				t.Errorf("ParseDate(%q): got location %v, want UTC", tt.in, got.Location())
			}
		})
	}
}
