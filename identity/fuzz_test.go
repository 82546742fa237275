package identity

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// seedSamples adds every testdata file to the corpus, whole and unwrapped.
func seedSamples(f *testing.F, wrappers ...string) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, w := range wrappers {
		for _, name := range files {
			b, _ := os.ReadFile(name)
			var m map[string]json.RawMessage
			if json.Unmarshal(b, &m) == nil && m[w] != nil {
				f.Add([]byte(m[w]))
			}
		}
	}
}

func FuzzParseCard(f *testing.F) {
	seedSamples(f, "card")
	f.Add([]byte(`{"client_id":"https://a.example/c","jwks":{"keys":[]},"jwks_uri":"https://a.example/k","web_bot_auth":{"expected-user-agent":["*a*b",1]}}`))
	f.Add([]byte(`{"keys":{"kty":"oct"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, _, err := ParseCard(data, "fuzz")
		if err != nil {
			return
		}
		c.MatchesUA(string(data))
		c.MatchesUA("Mozilla/5.0 ExampleBot/1.0")
		s := NewStore()
		s.AddCard(c, time.Time{})
		s.Keys(c.ClientID, time.Time{})
		s.CardForUA(string(data), time.Time{})
	})
}

func FuzzParseJWKS(f *testing.F) {
	seedSamples(f, "body")
	f.Add([]byte(`{"kty":"EC","crv":"P-256","x":"` + b1ECX + `","y":"` + b1ECY + `"}`))
	f.Add([]byte(`{"keys":[{"kty":"RSA","n":"` + rfc7638N + `","e":"AQAB","nbf":1.5e9,"exp":-1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		keys, _, err := ParseJWKS(data, "fuzz")
		if err != nil && len(keys) > 0 {
			t.Fatalf("error %v with %d keys", err, len(keys))
		}
		for _, k := range keys {
			if k.Thumbprint == "" || k.Public == nil {
				t.Fatalf("key without thumbprint or public key: %+v", k)
			}
			k.ValidAt(time.Unix(0, 0))
		}
	})
}

func FuzzParseIPList(f *testing.F) {
	seedSamples(f, "example")
	f.Add([]byte(`{"creationTime":"2025-01-01 00:00:00","prefixes":["::ffff:1.2.3.4/104",{"ipv6Prefix":"fe80::/10"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, _, err := ParseIPList(data, "fuzz")
		if err != nil {
			return
		}
		s := NewStore()
		s.AddIPList("bot", l, time.Time{})
		for _, a := range []string{"1.2.3.4", "::1", "2001:db8::1"} {
			if r := s.CheckIP("bot", netip.MustParseAddr(a), time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)).Result; r != IPInRange && r != IPNotInRange {
				t.Fatalf("CheckIP = %q with a list present", r)
			}
		}
	})
}

func FuzzParseRegistry(f *testing.F) {
	f.Add([]byte(draftRegistry))
	f.Add([]byte("https://a.example/c # x\r\ndata:;base64,e30=\rhttp://b\n\xff"))
	f.Add([]byte("data:application/json,%7B%7D\n#\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, probs := ParseRegistry(bytes.NewReader(data), "fuzz")
		last := 0
		for _, e := range entries {
			if e.Line <= last {
				t.Fatalf("line numbers not increasing: %d after %d", e.Line, last)
			}
			last = e.Line
			if e.URL == "" {
				t.Fatal("empty entry URL")
			}
		}
		for _, p := range probs {
			if p.Code == "" || p.Source == "" {
				t.Fatalf("problem without code or source: %+v", p)
			}
		}
	})
}
