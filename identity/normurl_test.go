package identity

import (
	"testing"
	"time"
)

func TestNormURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"HTTPS://Example.COM:443/", "https://example.com"},
		{"https://example.com:/jwks.json", "https://example.com/jwks.json"},
		{"http://example.com:80/a", "http://example.com/a"},
		{"https://example.com:8443/a", "https://example.com:8443/a"},
		// RFC 3986 §6.2.2.1: hex digits upper-cased; §6.2.2.2: unreserved decoded.
		{"https://example.com/%7euser/a%2fb", "https://example.com/~user/a%2Fb"},
		{"https://example.com/%41%62c", "https://example.com/Abc"},
		// §6.2.2.3: dot segments (the examples of §5.2.4).
		{"https://example.com/a/b/c/./../../g", "https://example.com/a/g"},
		{"https://example.com/mid/content=5/../6", "https://example.com/mid/6"},
		{"https://example.com/a/%2E%2E/b", "https://example.com/b"},
		{"https://example.com/a/..", "https://example.com"},
		{"https://example.com/.well-known/x", "https://example.com/.well-known/x"},
		{"https://example.com/k?v=%7e1", "https://example.com/k?v=~1"},
		{"https://example.com/k#frag", "https://example.com/k"},
		{"  not a url ", "not a url"},
	} {
		if got := normURL(c.in); got != c.want {
			t.Errorf("normURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestKeyIdentifierDropsQuery(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://agent.example/jwks.json?v=2", "https://agent.example/jwks.json"},
		{"https://Agent.example/a/../jwks.json?", "https://agent.example/jwks.json"},
		{"https://agent.example/?x", "https://agent.example"},
	} {
		if got := keyIdentifier(c.in); got != c.want {
			t.Errorf("keyIdentifier(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A key set is found under any spelling of its identifier
// (draft-ietf-webbotauth-httpsig-protocol-01 §5.5), the exact URL first,
// and the key's source names the URL it was fetched from.
func TestKeysByIdentifier(t *testing.T) {
	at := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	s := NewStore()
	s.AddKeys("https://agent.example/jwks.json?v=1", []Key{{Kid: "one"}}, at)
	s.AddKeys("https://agent.example/other.json", []Key{{Kid: "other"}}, at)
	for _, c := range []struct {
		ref, kid, src string
	}{
		{"https://agent.example/jwks.json?v=1", "one", "https://agent.example/jwks.json?v=1"},
		{"https://agent.example/jwks.json?v=2", "one", "https://agent.example/jwks.json?v=1"},
		{"https://AGENT.example:443/x/../jwks.json", "one", "https://agent.example/jwks.json?v=1"},
		{"https://agent.example/%6Fther.json?cache=no", "other", "https://agent.example/other.json"},
	} {
		keys, known := s.Keys(c.ref, at.Add(time.Hour))
		if !known || len(keys) != 1 || keys[0].Kid != c.kid {
			t.Errorf("Keys(%q) = %v, %v; want the %q key", c.ref, keys, known, c.kid)
			continue
		}
		if want := c.src + " (as of 2026-10-01T00:00:00Z)"; keys[0].Source != want {
			t.Errorf("Keys(%q) source %q, want %q", c.ref, keys[0].Source, want)
		}
	}
	if _, known := s.Keys("https://agent.example/jwks.json", at.Add(-time.Hour)); known {
		t.Error("a key set is known before it was fetched")
	}
	if _, known := s.Keys("https://agent.example/jwks.json.bak", at.Add(time.Hour)); known {
		t.Error("another path shares the identifier")
	}
}

func FuzzNormURL(f *testing.F) {
	for _, s := range []string{"https://a.example/%7e/./b/../c?%7a", "HTTP://x:80/..", "https://x/%zz%2", "data:,x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := normURL(s)
		if again := normURL(n); again != n {
			t.Errorf("normURL is not idempotent: %q -> %q -> %q", s, n, again)
		}
		if id := keyIdentifier(s); keyIdentifier(id) != id {
			t.Errorf("keyIdentifier is not idempotent: %q -> %q -> %q", s, id, keyIdentifier(id))
		}
	})
}
