package signature

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
)

// thumbprintJWK computes an RFC 7638 thumbprint from a JWK's members: the
// required members for its kty, sorted, no whitespace (RFC 7638 §3.2-3.3).
// It is written here independently of identity.Thumbprint so that the two
// check each other.
func thumbprintJWK(t testing.TB, jwk map[string]string) string {
	t.Helper()
	var names []string
	switch jwk["kty"] {
	case "OKP":
		names = []string{"crv", "kty", "x"}
	case "EC":
		names = []string{"crv", "kty", "x", "y"}
	case "RSA":
		names = []string{"e", "kty", "n"}
	default:
		t.Fatalf("thumbprint of kty %q", jwk["kty"])
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(n))
		b.WriteByte(':')
		b.WriteString(strconv.Quote(jwk[n]))
	}
	b.WriteByte('}')
	h := sha256.Sum256([]byte(b.String()))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// testKey is a key pair generated in the test, with its public half as an
// identity.Key.
type testKey struct {
	priv crypto.Signer
	alg  string
	key  identity.Key
	jwk  map[string]string
}

func b64u(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func newEd25519Key(t testing.TB, seed byte) *testKey {
	t.Helper()
	s := make([]byte, ed25519.SeedSize)
	for i := range s {
		s[i] = seed + byte(i)
	}
	priv := ed25519.NewKeyFromSeed(s)
	pub := priv.Public().(ed25519.PublicKey)
	jwk := map[string]string{"kty": "OKP", "crv": "Ed25519", "x": b64u(pub)}
	k := &testKey{priv: priv, alg: AlgEd25519, jwk: jwk}
	k.key = identity.Key{Thumbprint: thumbprintJWK(t, jwk), KeyType: "OKP", Curve: "Ed25519", Public: pub, Source: "test ed25519 " + strconv.Itoa(int(seed))}
	return k
}

var (
	rsaOnce sync.Once
	rsaPriv *rsa.PrivateKey
	ecOnce  sync.Once
	ecPriv  *ecdsa.PrivateKey
)

func newRSAKey(t testing.TB, alg string) *testKey {
	t.Helper()
	rsaOnce.Do(func() {
		var err error
		rsaPriv, err = rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
	})
	jwk := map[string]string{"kty": "RSA", "e": b64u(big.NewInt(int64(rsaPriv.E)).Bytes()), "n": b64u(rsaPriv.N.Bytes())}
	k := &testKey{priv: rsaPriv, alg: alg, jwk: jwk}
	k.key = identity.Key{Thumbprint: thumbprintJWK(t, jwk), KeyType: "RSA", Public: &rsaPriv.PublicKey, Source: "test rsa"}
	return k
}

func newECKey(t testing.TB) *testKey {
	t.Helper()
	ecOnce.Do(func() {
		var err error
		ecPriv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
	})
	pub := ecPriv.PublicKey
	// Bytes is the uncompressed point 0x04 || X || Y (SEC 1 §2.3.3).
	b, err := pub.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	x, y := b[1:33], b[33:65]
	jwk := map[string]string{"kty": "EC", "crv": "P-256", "x": b64u(x), "y": b64u(y)}
	k := &testKey{priv: ecPriv, alg: AlgECDSAP256, jwk: jwk}
	k.key = identity.Key{Thumbprint: thumbprintJWK(t, jwk), KeyType: "EC", Curve: "P-256", Public: &pub, Source: "test ec"}
	return k
}

// sign signs base with the key's algorithm, the RFC 9421 §3.3 way.
func (k *testKey) sign(t testing.TB, base string) []byte {
	t.Helper()
	switch k.alg {
	case AlgEd25519:
		return ed25519.Sign(k.priv.(ed25519.PrivateKey), []byte(base))
	case AlgRSAPSSSHA512:
		h := sha512.Sum512([]byte(base))
		s, err := rsa.SignPSS(rand.Reader, k.priv.(*rsa.PrivateKey), crypto.SHA512, h[:], &rsa.PSSOptions{SaltLength: 64})
		if err != nil {
			t.Fatal(err)
		}
		return s
	case AlgRSAv15SHA256:
		h := sha256.Sum256([]byte(base))
		s, err := rsa.SignPKCS1v15(rand.Reader, k.priv.(*rsa.PrivateKey), crypto.SHA256, h[:])
		if err != nil {
			t.Fatal(err)
		}
		return s
	case AlgECDSAP256:
		h := sha256.Sum256([]byte(base))
		r, s, err := ecdsa.Sign(rand.Reader, k.priv.(*ecdsa.PrivateKey), h[:])
		if err != nil {
			t.Fatal(err)
		}
		out := make([]byte, 64)
		r.FillBytes(out[:32])
		s.FillBytes(out[32:])
		return out
	}
	t.Fatalf("sign with alg %q", k.alg)
	return nil
}

// line is one covered component and the value the signer put in the base.
type line struct{ ident, value string }

// signed builds Signature-Input and Signature values by hand: the base is
// written out from the lines given, independently of buildBase.
func signed(t testing.TB, k *testKey, label string, lines []line, params string) (input, sig string) {
	t.Helper()
	idents := make([]string, len(lines))
	var b strings.Builder
	for i, l := range lines {
		idents[i] = l.ident
		b.WriteString(l.ident + ": " + l.value + "\n")
	}
	inner := "(" + strings.Join(idents, " ") + ")" + params
	b.WriteString(`"@signature-params": ` + inner)
	s := k.sign(t, b.String())
	return label + "=" + inner, label + "=:" + base64.StdEncoding.EncodeToString(s) + ":"
}

// wbaParams renders the usual Web Bot Auth parameters.
func wbaParams(k *testKey, created, expires time.Time, nonce string) string {
	p := ";created=" + strconv.FormatInt(created.Unix(), 10) +
		";expires=" + strconv.FormatInt(expires.Unix(), 10) +
		";keyid=" + strconv.Quote(k.key.Thumbprint)
	if nonce != "" {
		p += ";nonce=" + strconv.Quote(nonce)
	}
	return p + `;tag="web-bot-auth"`
}

// hdr builds a header from name, value pairs.
func hdr(kv ...string) event.Header {
	var h event.Header
	for i := 0; i+1 < len(kv); i += 2 {
		h = append(h, event.Field{Name: kv[i], Value: kv[i+1]})
	}
	return h
}

// snapshot is the key set published under a ref from a time on.
type snapshot struct {
	at   time.Time
	keys []identity.Key
}

// memSource is an in-memory KeySource with snapshots over time, and
// optionally cards (CardSource).
type memSource struct {
	snaps   map[string][]snapshot // in time order
	trusted []identity.Key
	cards   []*identity.Card
}

func newMemSource() *memSource { return &memSource{snaps: map[string][]snapshot{}} }

func (s *memSource) add(ref string, at time.Time, keys ...identity.Key) *memSource {
	s.snaps[ref] = append(s.snaps[ref], snapshot{at, keys})
	return s
}

func (s *memSource) Keys(ref string, t time.Time) ([]identity.Key, bool) {
	var cur *snapshot
	for i := range s.snaps[ref] {
		if !s.snaps[ref][i].at.After(t) {
			cur = &s.snaps[ref][i]
		}
	}
	if cur == nil {
		return nil, false
	}
	return cur.keys, true
}

func (s *memSource) TrustedKeys() []identity.Key { return s.trusted }

// cardSource adds CardSource to memSource.
type cardSource struct{ *memSource }

func (s cardSource) CardForUA(ua string, _ time.Time) (*identity.Card, bool) {
	for _, c := range s.cards {
		for _, p := range c.ExpectedUserAgent {
			if strings.HasPrefix(ua, p) {
				return c, true
			}
		}
	}
	return nil, false
}

func (s cardSource) CardByID(id string, _ time.Time) (*identity.Card, bool) {
	for _, c := range s.cards {
		if c.ClientID == id {
			return c, true
		}
	}
	return nil, false
}

// loadJWKS reads a JWK Set from testdata with identity.ParseJWKS and checks
// each key's thumbprint against thumbprintJWK.
func loadJWKS(t testing.TB, name string) []identity.Key {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	keys, probs, err := identity.ParseJWKS(data, name)
	if err != nil {
		t.Fatalf("ParseJWKS(%s): %v", name, err)
	}
	if len(probs) > 0 {
		t.Logf("ParseJWKS(%s) problems: %v", name, probs)
	}
	var set struct {
		Keys []map[string]string `json:"keys"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		t.Fatal(err)
	}
	if len(set.Keys) != len(keys) {
		t.Fatalf("%s: got %d keys from ParseJWKS, want %d", name, len(keys), len(set.Keys))
	}
	for i := range keys {
		if got, want := keys[i].Thumbprint, thumbprintJWK(t, set.Keys[i]); got != want {
			t.Fatalf("%s key %d: identity thumbprint %s, ours %s", name, i, got, want)
		}
	}
	return keys
}
