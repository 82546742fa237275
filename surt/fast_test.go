package surt

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/internal/slowtest"
)

// checkSame fails t unless Key, AppendKey and the fast path (where it
// accepts s) agree with keySlow, the full algorithm, on s: the same key
// and the same error. It reports whether the fast path took s.
func checkSame(t *testing.T, s string) (fast bool) {
	t.Helper()
	want, wantErr := keySlow(s)
	got, err := Key(s)
	if got != want || errString(err) != errString(wantErr) {
		t.Fatalf("Key(%q) = %q, %v; keySlow = %q, %v", s, got, err, want, wantErr)
	}
	prefix := []byte("prefix ")
	b, err := AppendKey(prefix, s)
	wantB := "prefix "
	if wantErr == nil {
		wantB += want
	}
	if string(b) != wantB || errString(err) != errString(wantErr) {
		t.Fatalf("AppendKey(%q, %q) = %q, %v; want %q, %v", prefix, s, b, err, wantB, wantErr)
	}
	b, ok := appendFast(nil, s)
	if ok && (wantErr != nil || string(b) != want) {
		t.Fatalf("appendFast(%q) = %q; keySlow = %q, %v", s, b, want, wantErr)
	}
	if !ok && len(b) != 0 {
		t.Fatalf("appendFast(%q) declined but appended %q", s, b)
	}
	return ok
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestFastMatchesSlowTable(t *testing.T) {
	for _, tt := range keyTests {
		checkSame(t, tt.in)
	}
	for _, u := range benchURLs {
		checkSame(t, u)
	}
	for _, u := range []string{
		"http://example.net:http/", "http://example.net:70000/", "http://example.net:-1/",
		" \t", "http://example.net/" + strings.Repeat("a", MaxLen), "http://example.net/" + strings.Repeat("a", MaxLen-19),
	} {
		checkSame(t, u)
	}
}

// TestFastPathTaken checks that the plain shapes do take the fast path,
// so that a change making it decline everything does not pass unnoticed.
func TestFastPathTaken(t *testing.T) {
	for _, u := range benchURLs[:22] {
		if _, ok := appendFast(nil, u); !ok {
			t.Errorf("appendFast(%q) declined", u)
		}
	}
}

// Pieces for generated URLs: each is a shape one of the canonicalisation
// steps treats specially, or a plain one next to it.
var (
	genSchemes = []string{"http://", "https://", "http://", "https://", "HTTP://", "Https://", "",
		"http://http://", "https://http://", "http://https://", "ftp://", "dns:", "http:/", "http:", "https:///"}
	genUsers = []string{"", "", "", "", "ann@", "a:b@", "@", "a@b@"}
	genHosts = []string{"example.com", "www.example.com", "WWW.Example.COM", "www7.example.net",
		"www12.a.b", "wwwx.example.net", "www.", "www", "www1.x", "www.w", "a..b.com", ".example.com",
		"example.com.", "10.0.0.1", "010.0.0.1", "10.0.0.01", "10.0.0.0", "10.0.00.1", "1.2.3.456",
		"256.1.1.1", "0.0.0.0", "0.1.2.3", "00.1.2.3", "1.0.0.0", "1.2.3", "1.2", "167772161", "0x7f.0.0.1",
		"10.0.0.1.5", "99999999999.1.1.1", "1.2.3.4a", "www.1.2.3.4", "ex%61mple.com", "m\u00fcnchen.example",
		"xn--mnchen-3ya.example", "[::1]", "[2001:DB8::7]", "host_name.example", "a-b.example", "",
		"httpfoo.com", "https.example.com", "a", "A", "localhost", "-.-", "a.b.c.d.e.f.g", "x%2Ey.com"}
	genPorts = []string{"", "", "", ":", ":80", ":443", ":8080", ":0", ":0080", ":65535", ":65536",
		":000000080", ":00443", ":x", "::80", ":80:", ":8a", ":99999"}
	genSegs = []string{"", "a", "A", "abc", "Index.HTML", ".", "..", "...", ".a", "a.", "%41", "%2541",
		"%2F", "%2f", "%", "%z", "%zz", "caf\u00e9", "a b", "(S(abcdefghijklmnopqrstuvwx))",
		"(abcdefghijklmnopqrstuvwx)", "home.aspx", "~ann", "a,b", "x;y=z", "@", ":", "a?b", "a#b", "\t",
		"\x7f", "\xff", "robots.txt", "2025", "%2E", "%2e%2e", "a&b=c"}
	genArgs = []string{"a=1", "b=2", "A=1", "a", "a=", "", "=", "==", "b=1", "a=B", "Z=z", "z", "utm_source=x",
		"jsessionid=ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "JSESSIONID=abcdefghijklmnopqrstuvwxyz012345",
		"PHPSESSID=abcdefabcdefabcdefabcdefabcdef12", "sid=0000000000000000000000000000000f", "sid=1",
		"xsid=1", "ASPSESSIONIDQRSTUVWX=ABCDEFGHIJKLMNOPQRSTUVWX", "aspsessionidx=1", "cfid=77&cftoken=88",
		"CFID=1&CFTOKEN=2", "cfid=1", "q=new%20york", "x=%41", "k=v#", "p=a+b", "s=a/b", "t=?", "u=%zz", "v=\xe9"}
	genFrags = []string{"", "", "", "#", "#frag", "#a b\t", "# ", "#\n", "#%zz", "##"}

	// Plain pieces, near the edges of what the fast path takes, so that
	// half the corpus exercises it.
	plainSchemes = []string{"http://", "https://"}
	plainHosts   = []string{"example.com", "www.example.com", "WWW.Example.COM", "www7.example.net",
		"www12.a.b", "wwwx.example.net", "www", "www1.x", "www.w", "10.0.0.1", "10.0.0.0", "1.2.3.456",
		"256.1.1.1", "0.0.0.0", "0.1.2.3", "1.0.0.0", "www.1.2.3.4", "99999999999.1.1.1", "1.2.3.4a",
		"host_name.example", "a-b.example", "a", "A", "-.-", "a.b.c.d.e.f.g", "httpfoo.com"}
	plainPorts = []string{"", "", ":80", ":443", ":8080", ":0", ":0080", ":65535", ":00443", ":99999"}
	plainSegs  = []string{"", "a", "A", "abc", "Index.HTML", "...", ".a", "a.", "..a", "a..", "home.aspx",
		"~ann", "a,b", "x;y=z", "@", ":", "robots.txt", "2025", "a)b", "s=a/b"}
	plainArgs = []string{"a=1", "b=2", "A=1", "a", "a=", "", "=", "==", "b=1", "a=B", "Z=z", "z",
		"utm_source=x", "xsi=1", "si=d", "cfi=1", "sessio=1", "p=a+b", "s=a/b", "t=?", "aa", "a=1=2"}
	plainFrags = []string{"", "", "#", "#frag", "#a b\t", "# ", "#\n", "#%zz", "##", "#\xff"}
)

func pick(r *rand.Rand, list []string) string { return list[r.IntN(len(list))] }

// genURL builds a URL from the pieces above, sometimes with white space
// around it, a tab inside or a byte changed.
func genURL(r *rand.Rand) string {
	schemes, users, hosts, ports, segs, args, frags := genSchemes, genUsers, genHosts, genPorts, genSegs, genArgs, genFrags
	if r.IntN(2) == 0 {
		schemes, users, hosts, ports, segs, args, frags = plainSchemes, []string{""}, plainHosts, plainPorts, plainSegs, plainArgs, plainFrags
	}
	var b strings.Builder
	b.WriteString(pick(r, schemes))
	b.WriteString(pick(r, users))
	b.WriteString(pick(r, hosts))
	b.WriteString(pick(r, ports))
	for n := r.IntN(6); n > 0; n-- {
		b.WriteByte('/')
		if r.IntN(8) == 0 {
			b.WriteByte('/')
		}
		b.WriteString(pick(r, segs))
	}
	if r.IntN(4) == 0 {
		b.WriteByte('/')
	}
	if r.IntN(2) == 0 {
		b.WriteByte('?')
		n := r.IntN(4)
		if r.IntN(8) == 0 {
			n = 14 + r.IntN(6) // around the fast path's argument limit
		}
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte('&')
			}
			b.WriteString(pick(r, args))
		}
	}
	b.WriteString(pick(r, frags))
	s := b.String()
	switch r.IntN(16) {
	case 0:
		s = " " + s
	case 1:
		s += "\n"
	case 2:
		if s != "" {
			i := r.IntN(len(s))
			s = s[:i] + "\t" + s[i:]
		}
	case 3, 4:
		if s != "" {
			const odd = " \t\r\n%#?/.:@[]()&=AZaz09\x00\x7f\x80\xc3"
			i := r.IntN(len(s))
			s = s[:i] + string(odd[r.IntN(len(odd))]) + s[i+1:]
		}
	}
	return s
}

// TestFastMatchesSlowGenerated runs a generated corpus through checkSame.
func TestFastMatchesSlowGenerated(t *testing.T) {
	n := slowtest.Size(20000, 200000)
	r := rand.New(rand.NewPCG(1, 2))
	fast := 0
	for i := 0; i < n; i++ {
		if checkSame(t, genURL(r)) {
			fast++
		}
	}
	t.Logf("%d of %d generated URLs took the fast path", fast, n)
	if fast < n/20 {
		t.Errorf("only %d of %d generated URLs took the fast path", fast, n)
	}
}
