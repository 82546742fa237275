package extract

import (
	"strings"
	"testing"
)

func TestParseMeta(t *testing.T) {
	tests := []struct {
		name  string
		html  string
		want  []r
		diags []string
	}{
		{"robots in head", `<!DOCTYPE html><html><head><meta name="robots" content="noindex"></head><body></body></html>`,
			[]r{{"*", "noindex", ""}}, nil},
		{"specific token", `<html><head><meta name="examplebot" content="nosnippet"></head></html>`,
			[]r{{"examplebot", "nosnippet", ""}}, nil},
		{"union of tags", `<head><meta name="robots" content="nosnippet"><meta name="Googlebot" content="noindex, nofollow"><meta name="ROBOTS" content="noarchive"></head>`,
			[]r{{"*", "nosnippet", ""}, {"googlebot", "noindex", ""}, {"googlebot", "nofollow", ""}, {"*", "noarchive", ""}}, nil},
		{"upper case tags unquoted", `<HTML><HEAD><META NAME=ROBOTS CONTENT=NOINDEX></HEAD></HTML>`,
			[]r{{"*", "noindex", ""}}, nil},
		{"content before name", `<head><meta content="noindex,nofollow" name="robots"></head>`,
			[]r{{"*", "noindex", ""}, {"*", "nofollow", ""}}, nil},
		{"self closing single quotes", `<head><meta name='robots' content='noindex' /></head>`,
			[]r{{"*", "noindex", ""}}, nil},
		{"implicit head", `<!doctype html><title>x</title><meta name="robots" content="noindex"><p>text</p>`,
			[]r{{"*", "noindex", ""}}, nil},
		{"no html no head", `<meta name="robots" content="none">`, []r{{"*", "none", ""}}, nil},
		{"comment ignored", `<head><!-- <meta name="robots" content="noindex"> --><meta name="robots" content="nosnippet"></head>`,
			[]r{{"*", "nosnippet", ""}}, nil},
		{"script content ignored", `<head><script>document.write('<meta name="robots" content="noindex">')</script></head>`,
			nil, nil},
		{"noscript in head", `<head><noscript><meta name="robots" content="noindex"></noscript></head>`,
			[]r{{"*", "noindex", ""}}, nil},
		{"in body", `<html><head></head><body><meta name="robots" content="noindex"></body></html>`,
			nil, []string{DiagMetaInBody}},
		{"after body-only element", `<head><div>x</div><meta name="robots" content="noindex"></head>`,
			nil, []string{DiagMetaInBody}},
		{"after text", `<head>oops<meta name="robots" content="noindex"></head>`,
			nil, []string{DiagMetaInBody}},
		{"in body mixed case", `<html><head><title>t</title></head><body><p>x</p><mEtA name="robots" content="noindex"></body></html>`,
			nil, []string{DiagMetaInBody}},
		{"mixed case in head", `<head><mEtA name="robots" content="noindex"></head>`,
			[]r{{"*", "noindex", ""}}, nil},
		{"between head and body", `<head></head><meta name="robots" content="noindex"><body>`,
			[]r{{"*", "noindex", ""}}, nil},
		{"after html end", `<head></head></html><meta name="robots" content="noindex">`,
			nil, []string{DiagMetaInBody}},
		{"whitespace is fine", "<html>\n  <head>\n  <meta name=\"robots\" content=\"noindex\">\n</head>",
			[]r{{"*", "noindex", ""}}, nil},
		{"bom", "\ufeff<head><meta name=\"robots\" content=\"noindex\"></head>", []r{{"*", "noindex", ""}}, nil},
		{"description not robots", `<head><meta name="description" content="none"><meta name="author" content="all"></head>`, nil, nil},
		{"token with non rule content", `<head><meta name="generator-x" content="WordPress 6.0"></head>`, nil, nil},
		{"og property ignored", `<head><meta property="og:title" content="noindex"><meta name="twitter:card" content="noindex"></head>`, nil, nil},
		{"no content", `<head><meta name="robots"></head>`, nil, []string{DiagMetaNoContent}},
		{"entities", `<head><meta name="robots" content="noindex&#44; nofollow"></head>`,
			[]r{{"*", "noindex", ""}, {"*", "nofollow", ""}}, nil},
		{"values", `<head><meta name="robots" content="max-snippet:0, max-image-preview:large, unavailable_after: 2025-12-31"></head>`,
			[]r{{"*", "max-snippet", "0"}, {"*", "max-image-preview", "large"}, {"*", "unavailable_after", "2025-12-31"}}, nil},
		{"specific with date", `<head><meta name="googlebot" content="unavailable_after: Friday, 25-Jun-10 15:00:00 PST"></head>`,
			[]r{{"googlebot", "unavailable_after", "Friday, 25-Jun-10 15:00:00 PST"}}, nil},
		{"template inert", `<head><template><meta name="robots" content="noindex"></template></head>`, nil, nil},
		{"head after body tag ignored", `<body><head><meta name="robots" content="noindex"></head>`, nil, []string{DiagMetaInBody}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, diags := ParseMeta([]byte(tt.html), Options{})
			if got := rulesOf(rules); !sameRules(got, tt.want) {
				t.Errorf("rules: got %v, want %v", got, tt.want)
			}
			if got := codesOf(diags); !sameStrings(got, tt.diags) {
				t.Errorf("diagnostics: got %v, want %v (%v)", got, tt.diags, diags)
			}
			for _, x := range rules {
				if x.Via != ViaMeta {
					t.Errorf("via: got %q, want %q", x.Via, ViaMeta)
				}
				if !strings.Contains(tt.html, x.Evidence) || !strings.HasPrefix(strings.ToLower(x.Evidence), "<meta") {
					t.Errorf("evidence %q is not a tag of the input", x.Evidence)
				}
			}
		})
	}
}

func TestMetaInBodyNamesTheTag(t *testing.T) {
	const tag = `<meta name="robots" content="noindex">`
	_, diags := ParseMeta([]byte(`<head></head><body><p>x</p>`+tag+`</body>`), Options{})
	if len(diags) != 1 {
		t.Fatalf("got %d diagnostics, want 1", len(diags))
	}
	if diags[0].Evidence != tag {
		t.Errorf("got evidence %q, want %q", diags[0].Evidence, tag)
	}
	if !strings.Contains(diags[0].Message, "byte 27") {
		t.Errorf("got message %q, want the byte offset 27", diags[0].Message)
	}
}

func TestMetaLimit(t *testing.T) {
	pad := "<head><title>" + strings.Repeat("x", 200) + "</title>"
	doc := pad + `<meta name="robots" content="noindex"></head>`
	tests := []struct {
		name  string
		max   int
		want  int
		diags []string
	}{
		{"within", len(doc), 1, nil},
		{"cut before meta", len(pad) + 5, 0, []string{DiagHTMLTruncated}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, diags := ParseMeta([]byte(doc), Options{MaxHTMLBytes: tt.max})
			if len(rules) != tt.want {
				t.Errorf("got %d rules, want %d", len(rules), tt.want)
			}
			if got := codesOf(diags); !sameStrings(got, tt.diags) {
				t.Errorf("diagnostics: got %v, want %v", got, tt.diags)
			}
		})
	}
}

// TestMetaLimitPrefix: readers keep only the first 64 KiB of an HTML body
// (warc.HTMLBodyLimit), so ParseMeta usually gets a prefix exactly as long
// as its limit. A noindex past the cut must not be missed in silence: the
// head is still open at the end, which is reported.
func TestMetaLimitPrefix(t *testing.T) {
	head := "<html><head><title>t</title><script>" + strings.Repeat("var x = 1;\n", 70<<10/11) + "</script>"
	doc := head + `<meta name="robots" content="noindex"></head><body>x</body></html>`
	if len(head) <= DefaultMaxHTMLBytes {
		t.Fatalf("fixture head is %d bytes, want more than %d", len(head), DefaultMaxHTMLBytes)
	}
	prefix := []byte(doc[:DefaultMaxHTMLBytes])
	for _, c := range []struct {
		name string
		body []byte
		opts Options
	}{
		{"whole document", []byte(doc), Options{}},
		{"prefix as long as the limit", prefix, Options{}},
		{"shorter prefix said to be cut", prefix[:32<<10], Options{BodyTruncated: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rules, diags := ParseMeta(c.body, c.opts)
			if len(rules) != 0 {
				t.Errorf("got %d rules, want none (the tag is past the scan)", len(rules))
			}
			if got := codesOf(diags); !sameStrings(got, []string{DiagHTMLTruncated}) {
				t.Errorf("diagnostics: got %v, want [%s]", got, DiagHTMLTruncated)
			}
		})
	}
	t.Run("head ended inside the prefix", func(t *testing.T) {
		small := `<head><meta name="robots" content="noindex"></head><body>` + strings.Repeat("y", 70<<10)
		rules, diags := ParseMeta([]byte(small[:DefaultMaxHTMLBytes]), Options{BodyTruncated: true})
		if len(rules) != 1 || len(diags) != 0 {
			t.Errorf("got %d rules %v, want 1 rule and no diagnostic", len(rules), codesOf(diags))
		}
	})
	t.Run("short complete head-only document", func(t *testing.T) {
		_, diags := ParseMeta([]byte(`<head><title>x</title>`), Options{})
		if len(diags) != 0 {
			t.Errorf("got %v, want no diagnostic for an uncut document", codesOf(diags))
		}
	})
}
