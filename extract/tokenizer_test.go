package extract

import (
	"reflect"
	"strings"
	"testing"
)

// TestMetaReuse reads documents that exercise the tokenizer's states,
// one after another with the same reused tokenizers, and checks each
// against what it says and against a new tokenizer per document (the
// package's reading before it reused them).
func TestMetaReuse(t *testing.T) {
	long := `<head><meta data-x="` + strings.Repeat("x", 5000) + `" name="robots" content="noindex, nofollow">`
	tests := []struct {
		name  string
		html  string
		want  []r
		diags []string
	}{
		{"comment holds a tag", `<head><!-- <meta name=robots content=noindex> --><meta name=robots content=nofollow></head>`,
			[]r{{"*", "nofollow", ""}}, nil},
		{"comment closed by --!>", `<head><!-- x --!><meta name=robots content=noarchive>`,
			[]r{{"*", "noarchive", ""}}, nil},
		{"empty comment <!-->", `<head><!--><meta name=robots content=nosnippet>`,
			[]r{{"*", "nosnippet", ""}}, nil},
		{"cdata is a bogus comment in html", `<head><![CDATA[<meta name=robots content=noindex>]]><meta name=robots content=nofollow>`,
			nil, []string{DiagMetaInBody}},
		{"script holds a tag", `<head><script>var s = "<meta name=robots content=noindex>";</script></head><body></body>`,
			nil, nil},
		{"escaped script", `<head><script><!-- <script> </script> <meta name=robots content=noindex> --></script><meta name=robots content=none>`,
			[]r{{"*", "none", ""}}, nil},
		{"style and title hold tags", `<head><style>/* <meta name=robots content=noindex> */</style><title><meta name=robots content=noindex></title>`,
			nil, nil},
		{"unquoted and upper case", `<HEAD><META NAME=ROBOTS CONTENT=NOINDEX,NOFOLLOW></HEAD>`,
			[]r{{"*", "noindex", ""}, {"*", "nofollow", ""}}, nil},
		{"entities in content", `<head><meta name="robots" content="noindex&comma; nosnippet&#x2C;noarchive"></head>`,
			[]r{{"*", "noindex", ""}, {"*", "nosnippet", ""}, {"*", "noarchive", ""}}, nil},
		{"entity in name", `<head><meta name="r&#111;bots" content="noimageindex"></head>`,
			[]r{{"*", "noimageindex", ""}}, nil},
		{"after body", `<head></head><body><p>x</p><meta name=robots content=noindex></body>`,
			nil, []string{DiagMetaInBody}},
		{"noscript with CRLF", "<head><noscript>\r\n<meta name=robots content=noindex>\r\n</noscript></head>",
			[]r{{"*", "noindex", ""}}, nil},
		{"tags after a noscript", `<head><noscript><meta name=googlebot content=nosnippet></noscript><meta name=robots content=noindex><p>`,
			[]r{{"googlebot", "nosnippet", ""}, {"*", "noindex", ""}}, nil},
		{"truncated in a tag", `<head><meta name=robots content="noin`, nil, nil},
		{"truncated in a comment", `<head><meta name=robots content=none><!-- <meta`, []r{{"*", "none", ""}}, nil},
		{"token over the 4 KiB buffer", long, []r{{"*", "noindex", ""}, {"*", "nofollow", ""}}, nil},
		{"duplicate attribute", `<head><meta name=robots name=description content=noindex>`,
			[]r{{"*", "noindex", ""}}, nil},
		{"nul in tag", "<head><meta name=\x00robots content=noindex><meta\x00 name=robots content=nofollow>", nil, nil},
	}
	reused := newMetaState()
	for round := range 2 {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rules, diags := scanMeta([]byte(tt.html), Options{}, true, reused)
				if got := rulesOf(rules); !sameRules(got, tt.want) {
					t.Errorf("round %d: rules: got %v, want %v", round, got, tt.want)
				}
				if got := codesOf(diags); !sameStrings(got, tt.diags) {
					t.Errorf("round %d: diagnostics: got %v, want %v (%v)", round, got, tt.diags, diags)
				}
				fr, fd := scanMeta([]byte(tt.html), Options{}, true, &metaState{fresh: true})
				if !reflect.DeepEqual(rules, fr) || !reflect.DeepEqual(diags, fd) {
					t.Errorf("round %d: reused tokenizer gives %v %v, a new one %v %v", round, rules, diags, fr, fd)
				}
			})
		}
	}
}

// FuzzParseMetaReuse holds the reused tokenizers to a new tokenizer per
// document: three documents read in turn by the same tokenizers (so each
// starts from the state the one before left), with and without the
// shortcuts, and through the pool as ParseMeta takes them.
func FuzzParseMetaReuse(f *testing.F) {
	for _, s := range [][2]string{
		{`<head><meta name=robots content=noindex>`, `<p>x<meta name=robots content=none>`},
		{`<head><noscript><meta name=googlebot content=nosnippet></noscript>`, `<title>t</title><meta name=robots`},
		{`<head><script><!--<script></script>--></script><META NAME=ROBOTS CONTENT=NOINDEX>`, `<!-- <meta --><meta name=x content=noarchive>`},
		{`<head><meta content="` + strings.Repeat("a", 5000) + `" name=robots>`, `<meta name=robots content=noindex>`},
		{"<head><noscript>\r\n<meta name=robots content=noindex></noscript><meta name=bot content=none>", `<body><template><meta name=robots content=none>`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]), 0, false)
	}
	f.Fuzz(func(t *testing.T, a, b []byte, max int, cut bool) {
		opts := Options{MaxHTMLBytes: max % 8192, BodyTruncated: cut}
		reused := newMetaState()
		for _, quick := range []bool{false, true} {
			for _, doc := range [][]byte{a, b, a} {
				r1, d1 := scanMeta(doc, opts, quick, reused)
				r2, d2 := scanMeta(doc, opts, quick, &metaState{fresh: true})
				if !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(d1, d2) {
					t.Fatalf("reused tokenizer differs from a new one on %q (quick %v):\n%v %v\n%v %v", doc, quick, r1, d1, r2, d2)
				}
				if quick {
					r3, d3 := ParseMeta(doc, opts)
					if !reflect.DeepEqual(r3, r2) || !reflect.DeepEqual(d3, d2) {
						t.Fatalf("pooled tokenizer differs from a new one on %q:\n%v %v\n%v %v", doc, r3, d3, r2, d2)
					}
				}
			}
		}
	})
}

// TestMetaReuseAllocs: a page with a meta tag costs no tokenizer buffer.
// (The state is the test's own, not the pool's, which the race detector
// empties at random.)
func TestMetaReuseAllocs(t *testing.T) {
	page := []byte(`<html><head><meta charset=utf-8><title>t</title></head><body>x</body></html>`)
	st, fr := newMetaState(), &metaState{fresh: true}
	got := testing.AllocsPerRun(100, func() { scanMeta(page, Options{}, true, st) })
	fresh := testing.AllocsPerRun(100, func() { scanMeta(page, Options{}, true, fr) })
	if got+3 > fresh { // a tokenizer, its buffer and its map
		t.Errorf("got %v allocations a page reusing the tokenizer, %v with a new one; want 3 fewer", got, fresh)
	}
}
