package identity

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sample returns a document from testdata. The shared samples wrap the
// document under a key ("body", "card", "example") next to "_source";
// wrapper "" means the file is the document.
func sample(t testing.TB, name, wrapper string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if wrapper == "" {
		return b
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	doc, ok := m[wrapper]
	if !ok {
		t.Fatalf("%s: no %q member", name, wrapper)
	}
	return doc
}

// edJWK returns a deterministic Ed25519 public JWK (as JSON) and its
// thumbprint, from a one-byte seed.
func edJWK(t testing.TB, seed byte, extra string) (jwk, thumbprint string) {
	t.Helper()
	s := make([]byte, ed25519.SeedSize)
	for i := range s {
		s[i] = seed
	}
	pub := ed25519.NewKeyFromSeed(s).Public().(ed25519.PublicKey)
	x := base64.RawURLEncoding.EncodeToString(pub)
	tp, err := Thumbprint(map[string]any{"kty": "OKP", "crv": "Ed25519", "x": x})
	if err != nil {
		t.Fatal(err)
	}
	jwk = `{"kty":"OKP","crv":"Ed25519","x":"` + x + `"` + extra + `}`
	return jwk, tp
}

func mustTime(t testing.TB, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// problemCodes lists the codes of ps, for compact comparison.
func problemCodes(ps []Problem) string {
	var codes []string
	for _, p := range ps {
		codes = append(codes, string(p.Code))
	}
	return strings.Join(codes, ",")
}

func hasProblem(ps []Problem, code string) bool {
	for _, p := range ps {
		if string(p.Code) == code {
			return true
		}
	}
	return false
}
