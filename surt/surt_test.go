package surt

import (
	"errors"
	"strings"
	"testing"
)

// The expected keys follow the rules of the Python surt library's default
// canonicalisation (surt.surt); see doc.go for the steps.
var keyTests = []struct {
	name, in, want string
}{
	{"brief example", "http://www.Example.com/Path?b=2&a=1", "com,example)/path?a=1&b=2"},
	{"scheme dropped", "https://shop.example.org/cart", "org,example,shop)/cart"},
	{"no scheme", "example.net/a", "net,example)/a"},
	{"empty path is slash", "http://example.net", "net,example)/"},
	{"fragment dropped", "http://example.net/a#top", "net,example)/a"},
	{"www digits dropped", "http://www7.example.net/", "net,example)/"},
	{"only a leading www", "http://a.www.example.net/", "net,example,www,a)/"},
	{"wwwx kept", "http://wwwx.example.net/", "net,example,wwwx)/"},
	{"default http port", "http://example.net:80/x", "net,example)/x"},
	{"default https port", "https://example.net:443/x", "net,example)/x"},
	{"port of the other scheme kept", "https://example.net:80/x", "net,example:80)/x"},
	{"other port kept", "http://example.net:8443/x", "net,example:8443)/x"},
	{"port leading zeros", "http://example.net:0080/x", "net,example)/x"},
	{"port zero is none", "http://example.net:0/x", "net,example)/x"},
	{"trailing colon", "http://example.net:/x", "net,example)/x"},
	{"user info dropped", "http://ann:secret@example.net/x", "net,example)/x"},
	{"path lower-cased", "http://example.net/Docs/README.TXT", "net,example)/docs/readme.txt"},
	{"trailing slash dropped", "http://example.net/dir/", "net,example)/dir"},
	{"dot segments", "http://example.net/a/b/./../c/", "net,example)/a/c"},
	{"dotdot above root kept", "http://example.net/../a", "net,example)/../a"},
	{"empty segments", "http://example.net//a///b", "net,example)/a/b"},
	{"escapes decoded", "http://example.net/%7Eann/%41", "net,example)/~ann/a"},
	{"double escapes decoded", "http://example.net/%2541", "net,example)/a"},
	{"space escaped", "http://example.net/a b", "net,example)/a%20b"},
	{"lone percent escaped", "http://example.net/100%", "net,example)/100%25"},
	{"utf-8 path escaped lower", "http://example.net/caf\u00e9", "net,example)/caf%c3%a9"},
	{"query sorted", "http://example.net/?z=1&b=2&b=1&a", "net,example)/?a&b=1&b=2&z=1"},
	{"name before name=", "http://example.net/?k=&k", "net,example)/?k&k="},
	{"query lower-cased", "http://example.net/s?Q=Cats", "net,example)/s?q=cats"},
	{"empty query dropped", "http://example.net/s?", "net,example)/s"},
	{"query on bare host", "http://example.net?x=1", "net,example)/?x=1"},
	{"jsessionid stripped", "http://example.net/p?jsessionid=ABCDEFGHIJKLMNOPQRSTUVWXYZ012345&q=1", "net,example)/p?q=1"},
	{"phpsessid stripped", "http://example.net/p?q=1&PHPSESSID=abcdefabcdefabcdefabcdefabcdef12", "net,example)/p?&q=1"},
	{"sid stripped", "http://example.net/p?sid=0000000000000000000000000000000f", "net,example)/p"},
	{"short sid kept", "http://example.net/p?sid=0001", "net,example)/p?sid=0001"},
	{"aspsessionid stripped", "http://example.net/p?ASPSESSIONIDQRSTUVWX=ABCDEFGHIJKLMNOPQRSTUVWX&v=2", "net,example)/p?v=2"},
	{"cfid cftoken stripped", "http://example.net/p?cfid=77&cftoken=88&v=2", "net,example)/p?v=2"},
	{"aspx path session", "http://example.net/app/(S(abcdefghijklmnopqrstuvwx))/Home.aspx", "net,example)/app/home.aspx"},
	{"aspx bare path session", "http://example.net/app/(abcdefghijklmnopqrstuvwx)/Home.aspx?x=1", "net,example)/app/home.aspx?x=1"},
	{"ip reversed", "http://10.20.30.40/x", "40,30,20,10)/x"},
	{"ip as number", "http://167772161/", "1,0,0,10)/"},
	{"ip shorthand", "http://10.1/", "1,0,0,10)/"},
	{"ip octal", "http://012.0.0.1/", "1,0,0,10)/"},
	{"bad ip is a name", "http://10.0.0.300/", "300,0,0,10)/"},
	{"ipv6 brackets dropped", "http://[2001:DB8::7]:8080/", "2001:db8::7:8080)/"},
	{"idn host", "http://m\u00fcnchen.example/", "example,xn--mnchen-3ya)/"},
	{"escaped host", "http://ex%61mple.net/", "net,example)/"},
	{"double dots in host", "http://a..example.net./", "net,example,a)/"},
	{"repeated protocols", "http://https://example.net/x", "net,example)/x"},
	{"empty authority", "http:///example.net/x", "net,example)/x"},
	{"no host scheme kept", "dns:Example.NET", "dns:example.net"},
	{"mailto", "mailto:Ann@Example.net", "mailto:ann@example.net"},
	{"tabs and newlines removed", " http://exa\tmple.net/a\r\nb ", "net,example)/ab"},
	{"host colon is a scheme", "localhost:8080/x", "localhost:8080/x"},
	{"empty", "", "-"},
	{"arc header", "filedesc://x.arc", "filedesc://x.arc"},
}

func TestKey(t *testing.T) {
	for _, tt := range keyTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Key(tt.in)
			if err != nil {
				t.Fatalf("Key(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Key(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestKeyErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"http://example.net:http/", ErrPort},
		{"http://example.net:70000/", ErrPort},
		{"http://example.net:-1/", ErrPort},
		{" \t", ErrEmpty},
		{"http://example.net/" + strings.Repeat("a", MaxLen), ErrTooLong},
	}
	for _, tt := range tests {
		_, err := Key(tt.in)
		if !errors.Is(err, tt.want) {
			t.Errorf("Key(%.40q) error = %v, want %v", tt.in, err, tt.want)
		}
	}
}

// TestKeySameResource checks that spellings of one resource share a key
// and that different resources do not.
func TestKeySameResource(t *testing.T) {
	same := [][]string{
		{"http://www.example.net/a?x=1&y=2", "https://EXAMPLE.net:443/A?y=2&x=1#f", "example.net/a/?x=1&y=2"},
		{"http://example.net/", "http://example.net", "http://www.example.net:80/"},
	}
	for _, group := range same {
		first, _ := Key(group[0])
		for _, u := range group[1:] {
			if k, _ := Key(u); k != first {
				t.Errorf("Key(%q) = %q, want %q as for %q", u, k, first, group[0])
			}
		}
	}
	different := [][2]string{
		{"http://example.net/a", "http://example.net/ab"},
		{"http://example.net/a", "http://example.net:8080/a"},
		{"http://example.net/a?x", "http://example.net/a"},
		{"http://a.example.net/", "http://example.net/"},
	}
	for _, p := range different {
		k0, _ := Key(p[0])
		k1, _ := Key(p[1])
		if k0 == k1 {
			t.Errorf("Key(%q) = Key(%q) = %q, want different keys", p[0], p[1], k0)
		}
	}
}
