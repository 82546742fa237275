package surt

import "testing"

// benchURLs is a mix shaped like a crawler's fetch log: mostly plain
// http(s) URLs of a few path segments, some with short queries, plus the
// less common shapes (IP hosts, escapes, upper case, ports, session ids)
// in about the proportion they turn up.
var benchURLs = []string{
	"https://www.example.com/news/2025/03/a-story.html",
	"https://www.example.com/robots.txt",
	"http://example.org/robots.txt",
	"http://blog.example.org/?p=123&utm_source=x",
	"https://shop.example.net/products/shoes/running?size=42&color=blue",
	"https://www.example.co.uk/",
	"https://example.com",
	"http://www2.example.edu/~ann/papers/2019/draft.pdf",
	"https://docs.example.io/en/latest/guide/install.html",
	"https://cdn.example.net/static/js/app.3f9a1c.js",
	"https://www.example.com/search?q=weather&hl=en",
	"http://forum.example.org/viewtopic.php?t=4411&start=20",
	"https://en.example.org/wiki/Main_Page",
	"https://api.example.com/v2/items/8841/comments?page=3",
	"https://www.example.com/news/2025/03/",
	"https://sub.domain.example.com/a/b/c/d/e.html",
	"http://www.example.com/index.php?option=com_content&view=article&id=12",
	"https://images.example.com/photos/2024/12/IMG_0042.JPG",
	"https://www.example.de/impressum",
	"https://example.org/feed.xml",
	"http://www.example.com/sitemap.xml",
	"https://news.example.com/world/europe/story-123456",
	"https://www.example.com/Products/Category/Item?ID=77",
	"https://WWW.EXAMPLE.COM/About-Us",
	"http://Example.COM/robots.txt",
	"https://www.example.com:443/login",
	"http://example.com:8080/status",
	"http://192.0.2.17/index.html",
	"http://10.0.0.1:8080/robots.txt",
	"https://www.example.com/caf%C3%A9/menu",
	"https://www.example.com/search?q=new%20york&lang=en",
	"https://www.example.com/a%2Fb/c",
	"http://example.com/cart?jsessionid=ABCDEFGHIJKLMNOPQRSTUVWXYZ012345",
	"https://www.example.com/docs/./intro/../setup.html",
	"https://www.example.com/page#section-2",
	"https://user@example.com/private",
	"http://[2001:db8::1]/",
	"https://m\u00fcnchen.example/stadt",
	"example.com/no-scheme",
	"https://www.example.com//double//slashes/",
}

// BenchmarkKey times one Key call per iteration, cycling through the
// URLs: "typical" is the plain crawler shape the fast path is meant for
// (the first 22 of benchURLs), "mix" is all of them.
func BenchmarkKey(b *testing.B) {
	for _, bm := range []struct {
		name string
		urls []string
	}{
		{"typical", benchURLs[:22]},
		{"mix", benchURLs},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := Key(bm.urls[i]); err != nil {
					b.Fatal(err)
				}
				if i++; i == len(bm.urls) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkAppendKey is BenchmarkKey/typical with a reused buffer.
func BenchmarkAppendKey(b *testing.B) {
	b.ReportAllocs()
	urls := benchURLs[:22]
	var buf []byte
	i := 0
	for b.Loop() {
		var err error
		if buf, err = AppendKey(buf[:0], urls[i]); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(urls) {
			i = 0
		}
	}
}
