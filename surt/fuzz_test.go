package surt

import (
	"strings"
	"testing"
)

// FuzzKey checks that Key never panics, that it agrees with the full
// algorithm (keySlow) whether or not the fast path takes the input, that
// keys are printable ASCII without space or '#' (so they fit CDX and ACL
// lines), and that a fragment added to a URL without one never changes
// the key.
func FuzzKey(f *testing.F) {
	for _, s := range []string{
		"http://www.Example.com/Path?b=2&a=1",
		"https://[::1]:8443/%zz?a=%2541",
		"HTTP://m\u00fcnchen.example/x/../y/",
		"167772161:0",
		"http:////example.net//a?jsessionid=ABCDEFGHIJKLMNOPQRSTUVWXYZ012345",
		"dns:example.net",
		"\t \n",
		"https://www.example.com/news/2025/03/a-story.html",
		"http://blog.example.org/?p=123&utm_source=x&B=2&a",
		"http://10.0.0.1:8080/robots.txt",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkSame(t, s)
		k, err := Key(s)
		if err != nil {
			return
		}
		if s == "" || strings.HasPrefix(s, "filedesc") {
			return
		}
		for i := 0; i < len(k); i++ {
			if c := k[i]; c <= ' ' || c >= 0x7F || c == '#' {
				t.Fatalf("Key(%q) = %q: byte %#x at %d", s, k, c, i)
			}
		}
		if strings.Contains(s, "#") || strings.TrimRight(s, " \t\n\r\v\f") != s {
			return // trailing white space is trimmed only at the end
		}
		k2, err := Key(s + "#frag")
		if err != nil || k2 != k {
			t.Fatalf("Key(%q) = %q but Key(%q) = %q, %v", s, k, s+"#frag", k2, err)
		}
	})
}
