package evaluate

import (
	"strconv"
	"strings"
	"testing"
)

// urlTextRef is what judgeCache.urlText must give.
func urlTextRef(scheme, host, target string) (url, key string) {
	url = scheme + "://" + host + target
	return url, surtKey(url)
}

// checkURLText asks c for the URL of (scheme, host, target) and compares
// it with urlTextRef's.
func checkURLText(t *testing.T, c *judgeCache, scheme, host, target string) {
	t.Helper()
	url, key := c.urlText(scheme, host, target)
	wantURL, wantKey := urlTextRef(scheme, host, target)
	if url != wantURL || key != wantKey {
		t.Fatalf("urlText(%q, %q, %q) = %q, %q, want %q, %q", scheme, host, target, url, key, wantURL, wantKey)
	}
}

// TestURLText: a Judger's URL table gives the URL and SURT key of the
// parts it is asked for, whether it holds them, holds others whose URL
// is the same string split elsewhere, or has turned itself off; it stays
// on while a log's URLs repeat and turns off for a stream of distinct
// ones.
func TestURLText(t *testing.T) {
	parts := [][3]string{
		{"https", "www.example.com", "/"},
		{"http", "www.example.com", "/"},
		{"https", "www.example.com:8443", "/a?b=1"},
		{"https", "www.example.co", "m/"},  // the same URL as the first, split elsewhere
		{"https", "www.example.com/", ""},  // and again
		{"http", "", "/robots.txt"},        // a site without a host: the key is ""
		{"", "www.example.com", "/x"},      // a scheme-less URL: no key
		{"https", "[2001:db8::1]", "/a b"}, // an IPv6 literal, a space in the path
		{"https", "www.example.com", ""},
		{"https", "WWW.Example.COM", "/Path/?Z=1&a=2"},
		{"https", "www.example.com", "/" + strings.Repeat("a", urlKeepMax)}, // too long to keep
	}
	var c judgeCache
	for range 3 {
		for _, p := range parts {
			checkURLText(t, &c, p[0], p[1], p[2])
		}
	}
	// The first entry is held: asked again, the table returns its strings.
	u1, _ := c.urlText(parts[0][0], parts[0][1], parts[0][2])
	u2, _ := c.urlText(parts[0][0], parts[0][1], parts[0][2])
	if addrOf(u1) != addrOf(u2) {
		t.Error("a repeated URL was built again: the table does not keep it")
	}
	// A thousand URLs (20 hosts, 50 paths) in turn: sets overflow now
	// and then, every answer is still right, and the table stays on.
	for i := range 8 * 2 * urlSets {
		checkURLText(t, &c, "https", "host-"+strconv.Itoa(i%20)+".example", "/p/"+strconv.Itoa(i/20%50))
	}
	if c.urlRun.bypass != 0 {
		t.Fatal("the table turned off for a thousand URLs in turn")
	}
	// A stream of distinct URLs turns the table off; answers stay right.
	for i := range 8 * 2 * urlSets {
		checkURLText(t, &c, "https", "www.example.com", "/distinct/"+strconv.Itoa(i))
	}
	if c.urlRun.bypass == 0 {
		t.Fatal("the table stayed on for a stream of distinct URLs")
	}
	for _, p := range parts {
		checkURLText(t, &c, p[0], p[1], p[2])
	}
	var nilCache *judgeCache
	checkURLText(t, nilCache, "https", "www.example.com", "/")
}

// FuzzURLText checks the URL table against urlTextRef for any parts,
// asked after other parts that share its slots or its URL's bytes.
func FuzzURLText(f *testing.F) {
	f.Add("https", "www.example.com", "/a", "www.example.co", "m/a")
	f.Add("http", "a", "", "", "a")
	f.Add("", "", "", "", "")
	f.Fuzz(func(t *testing.T, scheme, host, target, host2, target2 string) {
		var c judgeCache
		for range 2 {
			checkURLText(t, &c, scheme, host, target)
			checkURLText(t, &c, scheme, host2, target2)
			checkURLText(t, &c, scheme+host, "", target)
		}
	})
}
