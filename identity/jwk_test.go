package identity

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"
)

// RFC 7638 §3.1 example RSA key.
const rfc7638N = "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"

// RFC 9421 Appendix B.1 public test keys, as JWK members.
const (
	b1EdX    = "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"
	b1ECX    = "qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA"
	b1ECY    = "Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0"
	b1PSSN   = "r4tmm3r20Wd_PbqvP1s2-QEtvpuRaV8Yq40gjUR8y2Rjxa6dpG2GXHbPfvMs8ct-Lh1GH45x28Rw3Ry53mm-oAXjyQ86OnDkZ5N8lYbggD4O3w6M6pAvLkhk95AndTrifbIFPNU8PPMO7OyrFAHqgDsznjPFmTOtCEcN2Z1FpWgchwuYLPL-Wokqltd11nqqzi-bJ9cvSKADYdUAAN5WUtzdpiy6LbTgSxP7ociU4Tn0g5I6aDZJ7A8Lzo0KSyZYoA485mqcO0GVAdVw9lq4aOT9v6d-nb4bnNkQVklLQ3fVAvJm-xdDOp9LCNCN48V2pnDOkFV6-U9nV5oyc6XI2w"
	b1RSAN   = "hAKYdtoeoy8zcAcR874L8cnZxKzAGwd7v36APp7Pv6Q2jdsPBRrwWEBnez6d0UDKDwGbc6nxfEXAy5mbhgajzrw3MOEt8uA5txSKobBpKDeBLOsdJKFqMGmXCQvEG7YemcxDTRPxAleIAgYYRjTSd_QBwVW9OwNFhekro3RtlinV0a75jfZgkne_YiktSvLG34lw2zqXBDTC5NHROUqGTlML4PlNZS5Ri2U4aCNx2rUPRcKIlE0PuKxI4T-HIaFpv8-rdV6eUgOrB2xeI1dSFFn_nnv5OoZJEIB-VmuKn3DCUcCZSFlQPSXSfBDiUGhwOw76WuSSsf1D4b_vLoJ10w"
	b1EdTP   = "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"
	b1ECTP   = "ydQXMtvbsOsZyFir-Y7A8t7fKEM1gbKPvyFkdpu4fvI"
	b1PSSTP  = "oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA"
	b1RSATP  = "BHj8s0GPnMEQtkaULIM-PLgEhLBbuGUQ1vMxmBWZzEo"
	rfc7638T = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"
)

func TestThumbprint(t *testing.T) {
	tests := []struct {
		name    string
		jwk     map[string]any
		want    string
		wantErr bool
	}{
		{"RFC 7638 §3.1 RSA", map[string]any{"kty": "RSA", "n": rfc7638N, "e": "AQAB", "alg": "RS256", "kid": "2011-04-29"}, rfc7638T, false},
		{"RFC 9421 B.1.4 Ed25519", map[string]any{"kty": "OKP", "crv": "Ed25519", "x": b1EdX}, b1EdTP, false},
		{"Ed25519 with extra members", map[string]any{"kty": "OKP", "crv": "Ed25519", "x": b1EdX, "use": "sig", "kid": "x", "nbf": 1}, b1EdTP, false},
		{"RFC 9421 B.1.3 P-256", map[string]any{"kty": "EC", "crv": "P-256", "x": b1ECX, "y": b1ECY}, b1ECTP, false},
		{"RFC 9421 B.1.2 RSA-PSS", map[string]any{"kty": "RSA", "n": b1PSSN, "e": "AQAB"}, b1PSSTP, false},
		{"missing x", map[string]any{"kty": "OKP", "crv": "Ed25519"}, "", true},
		{"x not a string", map[string]any{"kty": "OKP", "crv": "Ed25519", "x": 5}, "", true},
		{"oct", map[string]any{"kty": "oct", "k": "AAAA"}, "", true},
		{"no kty", map[string]any{"x": b1EdX}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Thumbprint(tt.jwk)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Thumbprint err = %v, want error %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Thumbprint = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTestKeyName(t *testing.T) {
	for tp, want := range map[string]string{
		b1EdTP: "test-key-ed25519", b1ECTP: "test-key-ecc-p256",
		b1PSSTP: "test-key-rsa-pss", b1RSATP: "test-key-rsa", rfc7638T: "",
	} {
		if got := TestKeyName(tp); got != want {
			t.Errorf("TestKeyName(%s) = %q, want %q", tp, got, want)
		}
	}
}

// jwksCase is one JWK Set document and what ParseJWKS should make of it.
type jwksCase struct {
	name      string
	doc       string
	wantTPs   []string
	wantProbs string // problem codes, comma separated, in order
	wantErr   error
	check     func(t *testing.T, keys []Key)
}

// checkParseJWKS parses tt.doc and compares the keys' thumbprints, the
// problems and the error with tt's, then runs tt.check.
func checkParseJWKS(t *testing.T, tt jwksCase) {
	t.Helper()
	keys, probs, err := ParseJWKS([]byte(tt.doc), "dir")
	if !errors.Is(err, tt.wantErr) {
		t.Fatalf("err = %v, want %v", err, tt.wantErr)
	}
	var got []string
	for _, k := range keys {
		got = append(got, k.Thumbprint)
	}
	if strings.Join(got, " ") != strings.Join(tt.wantTPs, " ") {
		t.Errorf("thumbprints = %v, want %v", got, tt.wantTPs)
	}
	if gp := problemCodes(probs); gp != tt.wantProbs {
		t.Errorf("problems = %q, want %q (%v)", gp, tt.wantProbs, probs)
	}
	for _, p := range probs {
		if !strings.HasPrefix(p.Source, "dir#keys[") {
			t.Errorf("problem source %q does not locate the key", p.Source)
		}
	}
	if tt.check != nil && len(keys) > 0 {
		tt.check(t, keys)
	}
}

// TestParseJWKS reads the published directories and RFC example keys.
func TestParseJWKS(t *testing.T) {
	tests := []jwksCase{
		{
			name:      "draft directory example: test key, kid mismatch, nbf/exp",
			doc:       string(sample(t, "directory_draft_example.json", "body")),
			wantTPs:   []string{b1EdTP},
			wantProbs: "jwk-kid-mismatch",
			check: func(t *testing.T, keys []Key) {
				k := keys[0]
				if !k.TestKey {
					t.Error("TestKey = false, want true for the RFC 9421 test key")
				}
				if want := time.Unix(1712793600, 0).UTC(); !k.NotBefore.Equal(want) {
					t.Errorf("NotBefore = %v, want %v", k.NotBefore, want)
				}
				if want := time.Unix(1715385600, 0).UTC(); !k.Expires.Equal(want) {
					t.Errorf("Expires = %v, want %v", k.Expires, want)
				}
				if k.Kid != "NFcWBst6DXG-N35nHdzMrioWntdzNZghQSkjHNMMSjw" {
					t.Errorf("Kid = %q, want the published kid kept for information", k.Kid)
				}
				if _, ok := k.Public.(ed25519.PublicKey); !ok {
					t.Errorf("Public is %T, want ed25519.PublicKey", k.Public)
				}
				if k.Source != "dir" {
					t.Errorf("Source = %q, want %q", k.Source, "dir")
				}
				if !k.ValidAt(time.Unix(1714000000, 0)) || k.ValidAt(time.Unix(1716000000, 0)) {
					t.Error("ValidAt does not follow nbf/exp")
				}
			},
		},
		{
			name:    "OpenAI directory sample: kid is the thumbprint, extra members ignored",
			doc:     string(sample(t, "directory_openai_chatgpt_sample_2025.json", "body")),
			wantTPs: []string{"otMqcjr17mGyruktGvJU8oojQTSMHlVm7uO-lrcqbdg"},
			check: func(t *testing.T, keys []Key) {
				if keys[0].TestKey {
					t.Error("TestKey = true for a real key")
				}
				if want := time.Unix(1754656053, 0).UTC(); !keys[0].Expires.Equal(want) {
					t.Errorf("Expires = %v, want %v", keys[0].Expires, want)
				}
			},
		},
		{
			name:    "RFC 7638 RSA example as a single JWK",
			doc:     `{"kty":"RSA","n":"` + rfc7638N + `","e":"AQAB","alg":"RS256","kid":"2011-04-29"}`,
			wantTPs: []string{rfc7638T}, wantProbs: "jwk-kid-mismatch",
			check: func(t *testing.T, keys []Key) {
				pub, ok := keys[0].Public.(*rsa.PublicKey)
				if !ok || pub.N.BitLen() != 2048 || pub.E != 65537 {
					t.Errorf("Public = %T %v, want a 2048-bit RSA key with e=65537", keys[0].Public, keys[0].Public)
				}
				if keys[0].Alg != "RS256" {
					t.Errorf("Alg = %q, want RS256", keys[0].Alg)
				}
			},
		},
		{
			name:    "RFC 9421 test keys are all flagged",
			doc:     `{"keys":[{"kty":"RSA","n":"` + b1RSAN + `","e":"AQAB"},{"kty":"RSA","n":"` + b1PSSN + `","e":"AQAB"},{"kty":"EC","crv":"P-256","x":"` + b1ECX + `","y":"` + b1ECY + `"},{"kty":"OKP","crv":"Ed25519","x":"` + b1EdX + `"}]}`,
			wantTPs: []string{b1RSATP, b1PSSTP, b1ECTP, b1EdTP},
			check: func(t *testing.T, keys []Key) {
				for _, k := range keys {
					if !k.TestKey {
						t.Errorf("key %s: TestKey = false, want true", k.Thumbprint)
					}
				}
				if _, ok := keys[2].Public.(*ecdsa.PublicKey); !ok {
					t.Errorf("EC key Public is %T, want *ecdsa.PublicKey", keys[2].Public)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkParseJWKS(t, tt) })
	}
}

// TestParseJWKSKeyRules reads sets whose keys break a rule: refused
// types and uses, private members, duplicates, weak keys, bad documents.
func TestParseJWKSKeyRules(t *testing.T) {
	userJWK, userTP := edJWK(t, 7, `,"kid":"`+"placeholder"+`"`)
	userJWK = strings.Replace(userJWK, "placeholder", "", 1) // kid "" is no claim
	goodJWK, goodTP := edJWK(t, 8, "")
	withKid, withKidTP := edJWK(t, 9, "")
	withKid = strings.TrimSuffix(withKid, "}") + `,"kid":"` + withKidTP + `"}`
	tests := []jwksCase{
		{
			name:      "oct key rejected, good key kept",
			doc:       `{"keys":[{"kty":"oct","k":"c2VjcmV0"},` + goodJWK + `]}`,
			wantTPs:   []string{goodTP},
			wantProbs: "jwk-symmetric",
		},
		{
			name:      "HS256 alg on a non-oct key rejected",
			doc:       `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + b1EdX + `","alg":"HS256"}]}`,
			wantProbs: "jwk-symmetric",
		},
		{name: "kid equal to thumbprint: no problem", doc: `{"keys":[` + withKid + `]}`, wantTPs: []string{withKidTP}},
		{name: "empty kid is no claim", doc: `{"keys":[` + userJWK + `]}`, wantTPs: []string{userTP}},
		{
			name:      "use enc skipped",
			doc:       `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + b1EdX + `","use":"enc"}]}`,
			wantProbs: "jwk-use-not-sig",
		},
		{
			name:      "padded base64url read leniently, thumbprint from canonical form",
			doc:       `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + b1EdX + `="}]}`,
			wantTPs:   []string{b1EdTP},
			wantProbs: "jwk-noncanonical-base64",
		},
		{
			name:      "private member published",
			doc:       `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + b1EdX + `","d":"n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU"}]}`,
			wantTPs:   []string{b1EdTP},
			wantProbs: "jwk-private-member",
		},
		{
			name:      "duplicate key",
			doc:       `{"keys":[` + goodJWK + `,` + goodJWK + `]}`,
			wantTPs:   []string{goodTP},
			wantProbs: "jwk-duplicate",
		},
		{
			name:      "EC point off the curve",
			doc:       `{"keys":[{"kty":"EC","crv":"P-256","x":"` + b1ECX + `","y":"` + b1ECX + `"}]}`,
			wantProbs: "jwk-bad-key",
		},
		{
			name:      "short Ed25519 key",
			doc:       `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AAAA"}]}`,
			wantProbs: "jwk-bad-key",
		},
		{
			name:      "Ed448 unsupported",
			doc:       `{"keys":[{"kty":"OKP","crv":"Ed448","x":"AAAA"}]}`,
			wantProbs: "jwk-unsupported-curve",
		},
		{
			name:      "1024-bit RSA refused",
			doc:       `{"keys":[{"kty":"RSA","e":"AQAB","n":"` + base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{0xff}, 128)) + `"}]}`,
			wantProbs: "jwk-bad-key",
		},
		{
			name:      "bad nbf ignored, key kept",
			doc:       `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + b1EdX + `","nbf":"yesterday","exp":1e30}]}`,
			wantTPs:   []string{b1EdTP},
			wantProbs: "jwk-bad-date,jwk-bad-date",
		},
		{
			name:      "non-object key and missing kty",
			doc:       `{"keys":[5,{"x":"y"}]}`,
			wantProbs: "jwk-not-object,jwk-no-kty",
		},
		{name: "registry-00 single key object under keys", doc: `{"keys":{"kty":"OKP","crv":"Ed25519","x":"` + b1EdX + `"}}`, wantTPs: []string{b1EdTP}},
		{name: "empty set", doc: `{"keys":[]}`},
		{name: "not JSON", doc: `keys`, wantErr: ErrNotJSON},
		{name: "array at top", doc: `[{"kty":"OKP"}]`, wantErr: ErrNotJSON},
		{name: "trailing data", doc: `{"keys":[]} {}`, wantErr: ErrNotJSON},
		{name: "no keys member", doc: `{"foo":1}`, wantErr: ErrNotJWKS},
		{name: "keys is a string", doc: `{"keys":"abc"}`, wantErr: ErrNotJWKS},
		{name: "too large", doc: `{"keys":[],"pad":"` + strings.Repeat("a", MaxDocumentBytes) + `"}`, wantErr: ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkParseJWKS(t, tt) })
	}
}

func TestParseJWKSTooManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"keys":[`)
	for i := 0; i < MaxKeys+5; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		jwk, _ := edJWK(t, byte(i), "")
		b.WriteString(jwk)
	}
	b.WriteString(`]}`)
	keys, probs, err := ParseJWKS([]byte(b.String()), "big")
	if err != nil {
		t.Fatal(err)
	}
	// 256 distinct seeds (byte wraps), so duplicates never occur below MaxKeys.
	if len(keys) != MaxKeys {
		t.Errorf("got %d keys, want %d", len(keys), MaxKeys)
	}
	if !hasProblem(probs, "jwk-too-many") {
		t.Errorf("problems %v lack jwk-too-many", probs)
	}
}
