package identity

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/problem"
)

// Limits on key material. Documents larger than these are refused whole;
// they are far above anything a signature agent publishes.
const (
	// MaxDocumentBytes caps a card, JWK Set or key directory.
	MaxDocumentBytes = 1 << 20
	// MaxKeys caps the keys read from one JWK Set; the rest are reported.
	MaxKeys = 256
	// maxRSABits caps the RSA modulus size we accept (verification cost).
	maxRSABits = 8192
	// minRSABits is the smallest RSA modulus we accept (RFC 9421 §3.3.1
	// and §3.3.2 use 2048-bit keys; smaller ones are forgeable).
	minRSABits = 2048
)

// Errors returned when a whole document cannot be used.
var (
	ErrTooLarge  = errors.New("identity: document too large")
	ErrNotJSON   = errors.New("identity: not a JSON object")
	ErrNotJWKS   = errors.New("identity: not a JWK Set or JWK")
	ErrNotCard   = errors.New("identity: not a Signature Agent Card")
	ErrNotIPList = errors.New("identity: not an IP range list")
	ErrBadJWK    = errors.New("identity: unusable JWK")
)

// testKeyThumbprints are the RFC 7638 thumbprints of the public test keys
// of RFC 9421 Appendix B.1. Anyone holding the RFC can sign with them, so a
// signature made with one proves nothing about who sent it.
var testKeyThumbprints = map[string]string{
	// B.1.1 test-key-rsa (RSA, rsa-v1_5-sha256)
	"BHj8s0GPnMEQtkaULIM-PLgEhLBbuGUQ1vMxmBWZzEo": "test-key-rsa",
	// B.1.2 test-key-rsa-pss (RSA, rsa-pss-sha512); also the RSA key of the
	// Web Bot Auth architecture drafts' examples.
	"oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA": "test-key-rsa-pss",
	// B.1.3 test-key-ecc-p256 (ecdsa-p256-sha256)
	"ydQXMtvbsOsZyFir-Y7A8t7fKEM1gbKPvyFkdpu4fvI": "test-key-ecc-p256",
	// B.1.4 test-key-ed25519 (ed25519)
	"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U": "test-key-ed25519",
}

// TestKeyName returns the RFC 9421 Appendix B.1 name of a public test key
// ("test-key-ed25519", ...) given its thumbprint, or "" when the thumbprint
// is not one of them.
func TestKeyName(thumbprint string) string { return testKeyThumbprints[thumbprint] }

// thumbprintMembers lists, per key type, the required members that enter an
// RFC 7638 thumbprint (RFC 7638 §3.2; OKP from RFC 8037 §2), already in
// lexicographic order.
var thumbprintMembers = map[string][]string{
	"OKP": {"crv", "kty", "x"},
	"EC":  {"crv", "kty", "x", "y"},
	"RSA": {"e", "kty", "n"},
}

// Thumbprint computes the RFC 7638 SHA-256 JWK thumbprint (base64url, no
// padding) from the required members only (OKP: crv,kty,x; EC: crv,kty,x,y;
// RSA: e,kty,n), in lexicographic order with no whitespace (RFC 7638 §3).
// Member values are used exactly as published.
func Thumbprint(jwk map[string]any) (string, error) {
	kty, _ := jwk["kty"].(string)
	members, ok := thumbprintMembers[kty]
	if !ok {
		return "", fmt.Errorf("%w: thumbprint of kty %q", ErrBadJWK, kty)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		v, ok := jwk[m].(string)
		if !ok {
			return "", fmt.Errorf("%w: member %q missing or not a string", ErrBadJWK, m)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, m)
		b.WriteByte(':')
		writeJSONString(&b, v)
	}
	b.WriteByte('}')
	sum := sha256.Sum256(b.Bytes())
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// writeJSONString writes s as a JSON string with the minimal escaping of
// RFC 8259 §7 (RFC 7638 §3.3: no HTML escaping, no extra whitespace).
func writeJSONString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// decodeObject decodes data as one JSON object with numbers kept exact.
func decodeObject(data []byte) (map[string]any, error) {
	if len(data) > MaxDocumentBytes {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(data), MaxDocumentBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(trimBOM(data)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotJSON, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: top level is %s", ErrNotJSON, jsonKind(v))
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("%w: data after the object", ErrNotJSON)
	}
	return obj, nil
}

func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "unknown"
}

// ParseJWKS reads a JWK Set ({"keys":[...]}, RFC 7517 §5), a single JWK, or
// a key directory (the same shape, served at
// /.well-known/http-message-signatures-directory). It accepts Ed25519 OKP
// keys (RFC 8037), RSA keys of 2048 to 8192 bits and EC P-256/P-384 keys;
// symmetric ("oct") keys are rejected with a problem, as are keys whose
// "use" is not "sig". "nbf" and "exp" (NumericDate) become NotBefore and
// Expires. Thumbprints are computed (RFC 7638); a published "kid" that
// disagrees is reported as a problem and never trusted. Keys equal to the
// RFC 9421 Appendix B.1 test keys are flagged TestKey.
//
// The error is non-nil only when the document as a whole is unusable (not
// JSON, not a key set, too large); a bad key is a Problem and is skipped.
func ParseJWKS(data []byte, source string) ([]Key, []Problem, error) {
	v, ps, err := parseJWKS(data, source)
	return v, located(ps, source), err
}

func parseJWKS(data []byte, source string) ([]Key, []Problem, error) {
	obj, err := decodeObject(data)
	if err != nil {
		return nil, nil, err
	}
	return jwksFromObject(obj, source)
}

// jwksFromObject reads a decoded JWK Set or single JWK.
func jwksFromObject(obj map[string]any, source string) ([]Key, []Problem, error) {
	var raw []any
	switch ks := obj["keys"].(type) {
	case []any:
		raw = ks
	case map[string]any: // registry-00 cards carried one key object
		raw = []any{ks}
	case nil:
		if _, ok := obj["kty"]; !ok {
			return nil, nil, fmt.Errorf("%w: no \"keys\" array and no \"kty\"", ErrNotJWKS)
		}
		raw = []any{obj}
	default:
		return nil, nil, fmt.Errorf("%w: \"keys\" is %s", ErrNotJWKS, jsonKind(ks))
	}
	return parseKeyList(raw, source)
}

func parseKeyList(raw []any, source string) ([]Key, []Problem, error) {
	var (
		keys  []Key
		probs []Problem
		seen  = map[string]bool{}
	)
	for i, r := range raw {
		loc := source + "#keys[" + strconv.Itoa(i) + "]"
		if i >= MaxKeys {
			probs = append(probs, Problem{Source: loc, Code: problem.JWKTooMany, Message: fmt.Sprintf("%d keys; only the first %d are read", len(raw), MaxKeys)})
			break
		}
		m, ok := r.(map[string]any)
		if !ok {
			probs = append(probs, Problem{Source: loc, Code: problem.JWKNotObject, Message: "key is " + jsonKind(r)})
			continue
		}
		k, kp, err := parseJWK(m, loc)
		probs = append(probs, kp...)
		if err != nil {
			continue
		}
		if seen[k.Thumbprint] {
			probs = append(probs, Problem{Source: loc, Code: problem.JWKDuplicate, Message: "key " + k.Thumbprint + " appears more than once"})
			continue
		}
		seen[k.Thumbprint] = true
		k.Source = source
		keys = append(keys, k)
	}
	return keys, probs, nil
}

// parseJWK reads one public JWK. The error means the key is unusable; its
// reason is also in the problems.
func parseJWK(m map[string]any, loc string) (Key, []Problem, error) {
	r := &jwkReader{m: m, loc: loc}
	k, err := r.read()
	if err != nil {
		return Key{}, r.probs, err
	}
	return k, r.probs, nil
}

// jwkReader holds one JWK object while it is read, with the problems found
// so far in the order they were found.
type jwkReader struct {
	m     map[string]any
	loc   string
	kty   string
	canon map[string]any // canonical (unpadded base64url) members for the thumbprint
	probs []Problem
}

// note records a problem against the key.
func (r *jwkReader) note(code problem.Code, msg string) {
	r.probs = append(r.probs, Problem{Source: r.loc, Code: code, Message: msg})
}

// fail records a problem that makes the key unusable and returns it as an
// ErrBadJWK error.
func (r *jwkReader) fail(code problem.Code, msg string) error {
	r.note(code, msg)
	return fmt.Errorf("%w: %s", ErrBadJWK, msg)
}

// read reads the key: its header members, its public key material, its
// thumbprint and its validity dates.
func (r *jwkReader) read() (Key, error) {
	m := r.m
	kty, ok := m["kty"].(string)
	if !ok {
		return Key{}, r.fail(problem.JWKNoKty, "key has no \"kty\" string")
	}
	r.kty = kty
	var k Key
	k.KeyType = kty
	k.Kid, _ = m["kid"].(string)
	k.Alg, _ = m["alg"].(string)
	if use, ok := m["use"]; ok {
		if s, _ := use.(string); s != "sig" {
			return Key{}, r.fail(problem.JWKUseNotSig, fmt.Sprintf("key use %v is not \"sig\"", use))
		}
	}
	if strings.HasPrefix(strings.ToUpper(k.Alg), "HS") {
		return Key{}, r.fail(problem.JWKSymmetric, "symmetric algorithm "+k.Alg+" is never accepted for a public key")
	}
	r.canon = map[string]any{"kty": kty}
	var err error
	switch kty {
	case "oct":
		return Key{}, r.fail(problem.JWKSymmetric, "symmetric (oct) keys are never accepted")
	case "OKP":
		k.Curve, k.Public, err = r.okpKey()
	case "EC":
		k.Curve, k.Public, err = r.ecKey()
	case "RSA":
		k.Public, err = r.rsaKey()
	default:
		return Key{}, r.fail(problem.JWKUnsupportedKty, fmt.Sprintf("key type %q is not supported", kty))
	}
	if err != nil {
		return Key{}, err
	}
	for _, priv := range []string{"d", "p", "q", "dp", "dq", "qi", "k"} {
		if _, ok := m[priv]; ok {
			r.note(problem.JWKPrivateMember, fmt.Sprintf("key publishes the private member %q: it is compromised", priv))
			break
		}
	}
	tp, err := Thumbprint(r.canon)
	if err != nil {
		return Key{}, r.fail(problem.JWKBadKey, err.Error())
	}
	k.Thumbprint = tp
	if k.Kid != "" && k.Kid != tp {
		r.note(problem.JWKKidMismatch, fmt.Sprintf("published kid %q is not the RFC 7638 thumbprint %s; the thumbprint is used", k.Kid, tp))
	}
	k.TestKey = testKeyThumbprints[tp] != ""
	r.readDates(&k)
	return k, nil
}

// member decodes the base64url member name, noting a missing, undecodable
// or non-canonical value, and records its canonical form for the
// thumbprint. ok is false when the member is unusable.
func (r *jwkReader) member(name string) (b []byte, ok bool) {
	s, ok := r.m[name].(string)
	if !ok {
		r.note(problem.JWKMissingMember, fmt.Sprintf("%s key has no %q string", r.kty, name))
		return nil, false
	}
	b, lenient, err := decodeB64URL(s)
	if err != nil {
		r.note(problem.JWKBadBase64, fmt.Sprintf("member %q: %v", name, err))
		return nil, false
	}
	if lenient {
		r.note(problem.JWKNoncanonicalBase64, fmt.Sprintf("member %q is not unpadded base64url (RFC 7515 §2); read leniently", name))
	}
	r.canon[name] = base64.RawURLEncoding.EncodeToString(b)
	return b, true
}

// okpKey reads an OKP key's curve and public key; only Ed25519 is
// accepted.
func (r *jwkReader) okpKey() (string, crypto.PublicKey, error) {
	crv, _ := r.m["crv"].(string)
	if crv != "Ed25519" {
		return "", nil, r.fail(problem.JWKUnsupportedCurve, fmt.Sprintf("OKP curve %q is not supported (only Ed25519)", crv))
	}
	r.canon["crv"] = crv
	x, ok := r.member("x")
	if !ok {
		return "", nil, fmt.Errorf("%w: bad x", ErrBadJWK)
	}
	if len(x) != ed25519.PublicKeySize {
		return "", nil, r.fail(problem.JWKBadKey, fmt.Sprintf("Ed25519 x is %d bytes, want %d", len(x), ed25519.PublicKeySize))
	}
	return crv, ed25519.PublicKey(x), nil
}

// ecKey reads an EC key's curve and public point; P-256 and P-384 are
// accepted, and the point must lie on the curve.
func (r *jwkReader) ecKey() (string, crypto.PublicKey, error) {
	crv, _ := r.m["crv"].(string)
	var curve elliptic.Curve
	switch crv {
	case "P-256":
		curve = elliptic.P256()
	case "P-384":
		curve = elliptic.P384()
	default:
		return "", nil, r.fail(problem.JWKUnsupportedCurve, fmt.Sprintf("EC curve %q is not supported (P-256, P-384)", crv))
	}
	r.canon["crv"] = crv
	x, okx := r.member("x")
	y, oky := r.member("y")
	if !okx || !oky {
		return "", nil, fmt.Errorf("%w: bad x or y", ErrBadJWK)
	}
	size := (curve.Params().BitSize + 7) / 8
	if len(x) != size || len(y) != size {
		return "", nil, r.fail(problem.JWKBadKey, fmt.Sprintf("%s coordinates are %d and %d bytes, want %d", crv, len(x), len(y), size))
	}
	pt := make([]byte, 0, 1+2*size)
	pt = append(append(append(pt, 4), x...), y...)
	pub, err := ecdsa.ParseUncompressedPublicKey(curve, pt)
	if err != nil {
		return "", nil, r.fail(problem.JWKBadKey, "EC point is not on the curve")
	}
	return crv, pub, nil
}

// rsaKey reads an RSA public key, canonicalising leading zero bytes and
// refusing moduli outside minRSABits..maxRSABits and exponents that are
// not odd integers in 3..2^31-1.
func (r *jwkReader) rsaKey() (crypto.PublicKey, error) {
	n, okn := r.member("n")
	e, oke := r.member("e")
	if !okn || !oke {
		return nil, fmt.Errorf("%w: bad n or e", ErrBadJWK)
	}
	if len(n) > 0 && n[0] == 0 {
		r.note(problem.JWKNoncanonicalBase64, "RSA modulus has leading zero bytes (RFC 7518 §6.3.1.1)")
		n = bytes.TrimLeft(n, "\x00")
		r.canon["n"] = base64.RawURLEncoding.EncodeToString(n)
	}
	if len(e) > 0 && e[0] == 0 {
		e = bytes.TrimLeft(e, "\x00")
		r.canon["e"] = base64.RawURLEncoding.EncodeToString(e)
	}
	N := new(big.Int).SetBytes(n)
	if bits := N.BitLen(); bits < minRSABits || bits > maxRSABits {
		return nil, r.fail(problem.JWKBadKey, fmt.Sprintf("RSA modulus of %d bits is outside %d..%d", bits, minRSABits, maxRSABits))
	}
	E := new(big.Int).SetBytes(e)
	if !E.IsInt64() || E.Int64() < 3 || E.Int64() > math.MaxInt32 || E.Bit(0) == 0 {
		return nil, r.fail(problem.JWKBadKey, "RSA exponent is not an odd integer in 3..2^31-1")
	}
	return &rsa.PublicKey{N: N, E: int(E.Int64())}, nil
}

// readDates reads the key's "nbf" and "exp" into k, noting a key whose
// exp is before its nbf.
func (r *jwkReader) readDates(k *Key) {
	var tprobs []Problem
	k.NotBefore, tprobs = numericDate(r.m, "nbf", r.loc)
	r.probs = append(r.probs, tprobs...)
	k.Expires, tprobs = numericDate(r.m, "exp", r.loc)
	r.probs = append(r.probs, tprobs...)
	if !k.NotBefore.IsZero() && !k.Expires.IsZero() && k.Expires.Before(k.NotBefore) {
		r.note(problem.JWKExpBeforeNbf, "exp is before nbf: the key is never valid")
	}
}

// numericDate reads an RFC 7519 §2 NumericDate member; absent → zero time.
func numericDate(m map[string]any, name, loc string) (time.Time, []Problem) {
	v, ok := m[name]
	if !ok {
		return time.Time{}, nil
	}
	bad := []Problem{{Source: loc, Code: problem.JWKBadDate, Message: fmt.Sprintf("%q is not a NumericDate; ignored", name)}}
	num, ok := v.(json.Number)
	if !ok {
		return time.Time{}, bad
	}
	f, err := num.Float64()
	// Years 0001..9999 only, so that the value stays a sensible time.Time.
	if err != nil || math.IsNaN(f) || f < -62135596800 || f > 253402300799 {
		return time.Time{}, bad
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC(), nil
}

// decodeB64URL decodes unpadded base64url, and leniently padded base64url
// or standard base64 (lenient reports true).
func decodeB64URL(s string) (b []byte, lenient bool, err error) {
	if b, err := base64.RawURLEncoding.Strict().DecodeString(s); err == nil {
		return b, false, nil
	}
	t := strings.TrimRight(s, "=")
	t = strings.NewReplacer("+", "-", "/", "_").Replace(t)
	b, err = base64.RawURLEncoding.DecodeString(t)
	if err != nil {
		return nil, false, errors.New("not base64url")
	}
	return b, true, nil
}
