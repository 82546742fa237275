package extract

import (
	"strings"
	"testing"

	"github.com/repaudit/repaudit/event"
)

// typicalPage is a page head shaped like a CMS's output, with a long body.
func typicalPage() []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<title>An article about crawlers</title>\n")
	b.WriteString("<meta name=\"description\" content=\"What crawlers do and how to tell them what not to do.\">\n")
	b.WriteString("<meta name=\"robots\" content=\"index, follow, max-image-preview:large, max-snippet:-1\">\n")
	b.WriteString("<meta name=\"googlebot\" content=\"noarchive\">\n")
	b.WriteString("<meta property=\"og:title\" content=\"An article about crawlers\">\n")
	for i := 0; i < 8; i++ {
		b.WriteString("<link rel=\"stylesheet\" href=\"/assets/css/site.css?v=12345\" media=\"all\">\n")
	}
	b.WriteString("<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}</script>\n")
	b.WriteString("</head>\n<body>\n")
	for i := 0; i < 200; i++ {
		b.WriteString("<p>Paragraph of body text that a crawler would index <a href=\"/x\">link</a>.</p>\n")
	}
	b.WriteString("</body></html>\n")
	return []byte(b.String())
}

func BenchmarkFromResponse(b *testing.B) {
	h := event.Header{
		{Name: "Content-Type", Value: "text/html; charset=utf-8"},
		{Name: "Cache-Control", Value: "max-age=600"},
		{Name: "X-Robots-Tag", Value: "noai, noimageai"},
		{Name: "X-Robots-Tag", Value: "googlebot: unavailable_after: 25 Jun 2030 15:00:00 PST"},
	}
	body := typicalPage()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		d := FromResponse(h, body, "text/html; charset=utf-8", Options{})
		if len(d.Rules) == 0 {
			b.Fatal("no rules")
		}
	}
}

// BenchmarkParseMetaNoMeta measures a page without meta tags (most pages
// of a crawl), with ParseMeta's shortcut and with the tokenizer alone.
func BenchmarkParseMetaNoMeta(b *testing.B) {
	body := []byte(strings.ReplaceAll(string(typicalPage()), "<meta", "<link"))
	for _, quick := range []bool{true, false} {
		name := "tokenizer"
		if quick {
			name = "shortcut"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if r, d := parseMeta(body, Options{}, quick); len(r)+len(d) != 0 {
					b.Fatal(r, d)
				}
			}
		})
	}
}
