package extract

import (
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
)

func TestFromResponse(t *testing.T) {
	h := event.Header{
		{Name: "Content-Type", Value: "text/html; charset=utf-8"},
		{Name: "robots-tag", Value: "*;nosnippet, ExampleBot;noindex"},
		{Name: "X-Robots-Tag", Value: "googlebot: noarchive"},
	}
	body := []byte(`<html><head><meta name="robots" content="noimageindex"></head></html>`)
	d := FromResponse(h, body, "text/html; charset=utf-8", Options{})
	want := []r{{"*", "nosnippet", ""}, {"examplebot", "noindex", ""}, {"googlebot", "noarchive", ""}, {"*", "noimageindex", ""}}
	if got := rulesOf(d.Rules); !sameRules(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if len(d.Diagnostics) != 0 {
		t.Errorf("got diagnostics %v, want none", d.Diagnostics)
	}
}

func TestFromResponseContentType(t *testing.T) {
	page := []byte(`<!DOCTYPE html><html><head><meta name="robots" content="noindex"></head></html>`)
	tests := []struct {
		ct   string
		body []byte
		want int
	}{
		{"text/html", page, 1},
		{"TEXT/HTML; charset=ISO-8859-1", page, 1},
		{"application/xhtml+xml", page, 1},
		{"", page, 1},
		{"application/octet-stream", []byte("  \n<html><head><meta name=robots content=noindex>"), 1},
		{"", []byte("<!-- c --><meta name=robots content=noindex>"), 1},
		{"", []byte("%PDF-1.7 <meta name=robots content=noindex>"), 0},
		{"text/plain", page, 0},
		{"application/pdf", page, 0},
		{"application/json", page, 0},
	}
	for _, tt := range tests {
		t.Run(tt.ct, func(t *testing.T) {
			d := FromResponse(nil, tt.body, tt.ct, Options{})
			if len(d.Rules) != tt.want {
				t.Errorf("got %d rules, want %d", len(d.Rules), tt.want)
			}
		})
	}
}

func TestEffective(t *testing.T) {
	d := FromResponse(event.Header{
		{Name: "Robots-Tag", Value: "*;nosnippet, ExampleBot;noindex, OtherBot;none"},
		{Name: "X-Robots-Tag", Value: "thirdbot: max-snippet:0, unavailable_after: 2030-01-01"},
		{Name: "X-Robots-Tag", Value: "thirdbot: unavailable_after: 2029-06-01, noarchive"},
		{Name: "X-Robots-Tag", Value: "fourthbot: max-snippet: 20"},
	}, nil, "", Options{})

	tests := []struct {
		token     string
		noindex   string // evidence rule name establishing it, "" = not in force
		nofollow  string
		nosnippet string
		noarchive bool
		until     string // unavailable_after date
	}{
		{"ExampleBot", "noindex", "", "nosnippet", false, ""},
		{"examplebot", "noindex", "", "nosnippet", false, ""},
		{"otherbot", "none", "none", "nosnippet", false, ""},
		{"ThirdBot", "", "", "nosnippet", true, "2029-06-01"},
		{"fourthbot", "", "", "nosnippet", false, ""},
		{"nobody", "", "", "nosnippet", false, ""},
		{"*", "", "", "nosnippet", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.token, func(t *testing.T) {
			e := d.For(tt.token)
			check := func(what string, r Rule, ok bool, want string) {
				t.Helper()
				if ok != (want != "") || ok && r.Name != want {
					t.Errorf("%s: got %v %q, want %q", what, ok, r.Name, want)
				}
			}
			r, ok := e.Noindex()
			check("noindex", r, ok, tt.noindex)
			r, ok = e.Rule("NOFOLLOW")
			check("nofollow", r, ok, tt.nofollow)
			if _, ok := e.Nosnippet(); ok != (tt.nosnippet != "") {
				t.Errorf("nosnippet: got %v, want %v", ok, tt.nosnippet != "")
			}
			if _, ok := e.Noarchive(); ok != tt.noarchive {
				t.Errorf("noarchive: got %v, want %v", ok, tt.noarchive)
			}
			if e.Has("noindex") != (tt.noindex != "") {
				t.Errorf("Has(noindex): got %v", e.Has("noindex"))
			}
			u, ok := e.UnavailableAfter()
			if ok != (tt.until != "") || ok && u.Value != tt.until {
				t.Errorf("unavailable_after: got %v %q, want %q", ok, u.Value, tt.until)
			}
		})
	}
}

func TestNosnippetFromMaxSnippetZero(t *testing.T) {
	tests := []struct {
		value string
		want  bool
	}{
		{"0", true}, {"00", true}, {"+0", true}, {" 0 ", true},
		{"-1", false}, {"20", false}, {"", false}, {"0x", false},
	}
	for _, tt := range tests {
		e := Effective{Rules: []Rule{{Token: "*", Name: RuleMaxSnippet, Value: tt.value}}}
		r, ok := e.Nosnippet()
		if ok != tt.want {
			t.Errorf("max-snippet %q: got nosnippet %v, want %v", tt.value, ok, tt.want)
		}
		if ok && r.Name != RuleMaxSnippet {
			t.Errorf("max-snippet %q: got establishing rule %q", tt.value, r.Name)
		}
	}
}

func TestUnavailableAfterEarliest(t *testing.T) {
	d := &Directives{}
	d.Rules, _ = ParseXRobotsTag([]string{
		"unavailable_after: 2031-01-01",
		"unavailable_after: not a date",
		"unavailable_after: 25 Jun 2010 15:00:00 PST",
	}, Options{})
	u, ok := d.For("anybot").UnavailableAfter()
	if !ok {
		t.Fatal("got no unavailable_after, want one")
	}
	if want := time.Date(2010, 6, 25, 23, 0, 0, 0, time.UTC); !u.Time.Equal(want) {
		t.Errorf("got %v, want %v", u.Time, want)
	}
	if !strings.Contains(u.Evidence, "PST") {
		t.Errorf("got evidence %q, want the PST line", u.Evidence)
	}
}

func TestTokens(t *testing.T) {
	d := FromResponse(event.Header{
		{Name: "Robots-Tag", Value: "*;nosnippet, ExampleBot;noindex, OtherBot;none, examplebot;noarchive"},
		{Name: "X-Robots-Tag", Value: "googlebot: noindex"},
	}, nil, "", Options{})
	got := strings.Join(d.Tokens(), " ")
	if want := "examplebot googlebot otherbot"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
