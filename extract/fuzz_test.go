package extract

import (
	"reflect"
	"strings"
	"testing"
)

func FuzzParseRobotsTag(f *testing.F) {
	for _, s := range []string{
		"*;nosnippet, ExampleBot;noindex",
		"noindex, nofollow",
		"googlebot: noindex",
		`a;x="1, 2";noindex, (b c);d`,
		"bot;unavailable_after=@1735689600;max-snippet=2.5",
		"*;noindex;;",
	} {
		f.Add(s, 64)
	}
	f.Fuzz(func(t *testing.T, v string, max int) {
		lines := strings.Split(v, "\n")
		rules, _ := ParseRobotsTag(lines, Options{MaxHeaderBytes: max % 4096})
		checkRules(t, rules, ViaRobotsTag)
	})
}

func FuzzParseXRobotsTag(f *testing.F) {
	for _, s := range []string{
		"noindex, nofollow",
		"googlebot: noindex, bingbot: nosnippet",
		"unavailable_after: Friday, 25-Jun-10 15:00:00 PST",
		"googlebot;noindex, nofollow",
		"max-snippet:20, max-image-preview:large",
		"noindex;nofollow",
		"unavailable_after: Fri, 25 Jun 2010 15:00:00 GMT, noarchive",
	} {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, v string, max int) {
		lines := strings.Split(v, "\n")
		rules, _ := ParseXRobotsTag(lines, Options{MaxHeaderBytes: max % 4096})
		checkRules(t, rules, ViaXRobotsTag)
	})
}

func FuzzParseMeta(f *testing.F) {
	for _, s := range []string{
		`<html><head><meta name="robots" content="noindex"></head><body><meta name=robots content=nofollow></body></html>`,
		`<head><noscript><meta name="googlebot" content="nosnippet"></noscript><template><meta name=robots content=none></template>`,
		`<META CONTENT=NOINDEX NAME=ROBOTS><div>`,
		`<head><script><meta name=robots content=noindex></script><title><meta></title>`,
	} {
		f.Add([]byte(s), 0)
	}
	f.Fuzz(func(t *testing.T, body []byte, max int) {
		rules, _ := ParseMeta(body, Options{MaxHTMLBytes: max % 8192})
		checkRules(t, rules, ViaMeta)
	})
}

// checkRules asserts the invariants every parsed rule keeps.
func checkRules(t *testing.T, rules []Rule, via string) {
	t.Helper()
	for _, x := range rules {
		if x.Via != via {
			t.Fatalf("got via %q, want %q", x.Via, via)
		}
		if x.Token != "*" && x.Token != strings.ToLower(x.Token) {
			t.Fatalf("token %q is not lower-cased", x.Token)
		}
		if x.Name != strings.ToLower(x.Name) {
			t.Fatalf("name %q is not lower-cased", x.Name)
		}
		if x.Evidence == "" {
			t.Fatalf("rule %+v has no evidence", x)
		}
		if len(x.Evidence) > maxEvidence+len("…") {
			t.Fatalf("evidence is %d bytes, over the cap", len(x.Evidence))
		}
		if !x.Time.IsZero() && x.Time.Location().String() != "UTC" {
			t.Fatalf("time %v is not UTC", x.Time)
		}
	}
}

// FuzzParseMetaQuick holds ParseMeta's shortcuts for documents and bodies
// without a meta tag to the tokenizer's answer on the same bytes.
func FuzzParseMetaQuick(f *testing.F) {
	for _, s := range []string{
		`<html><head><title>p</title></head><body>text</body></html>`,
		`<html><head><meta name="robots" content="noindex"></head></html>`,
		`<head><noscript><MeTa name=robots content=none></noscript>`,
		`<head><title>x</title>`,
		`<me<meta name=robots content=noarchive>`,
		`<head><!-- <meta name=robots content=noindex> --></head>`,
		`<head><title>t</title></head><body><p>x</p><mEtA name=robots content=noindex></body>`,
		`<p>text</p><!-- <META> --><x-meta name=robots content=none><mETa name=robots>`,
	} {
		f.Add([]byte(s), 0, false)
	}
	f.Fuzz(func(t *testing.T, body []byte, max int, cut bool) {
		opts := Options{MaxHTMLBytes: max % 8192, BodyTruncated: cut}
		r1, d1 := parseMeta(body, opts, true)
		r2, d2 := parseMeta(body, opts, false)
		if !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(d1, d2) {
			t.Fatalf("shortcut differs from the tokenizer on %q:\n%v %v\n%v %v", body, r1, d1, r2, d2)
		}
	})
}

// FuzzParseDateQuick holds ParseDate's skipping of ISO layouts that
// cannot match to the answer of trying every layout.
func FuzzParseDateQuick(f *testing.F) {
	for _, s := range []string{
		"2025-04-20", "2025-04-20T10:00:00Z", "2025-04-20 10:00:00 -0800",
		"2025-04-20T10:00", "2025-04-20 10:00", "2025-4-20", "2025-04-2",
		"2025-04-20X", "2025-04-20T", "2025-04-20 ", "+025-04-20",
		"2025-04-20T10:00:00.5+01:00", "25 Jun 2010 15:00:00 -0800",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		t1, ok1 := parseDateLayouts(s, true)
		t2, ok2 := parseDateLayouts(s, false)
		if ok1 != ok2 || !t1.Equal(t2) {
			t.Fatalf("quick parse of %q: got %v, %v; every layout gives %v, %v", s, t1, ok1, t2, ok2)
		}
	})
}
