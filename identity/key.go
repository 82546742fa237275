package identity

import (
	"crypto"
	"time"
)

// Key is one public key published by a signature agent (a JWK from a JWK
// Set, a key directory or a card's jwks), with its RFC 7638 thumbprint
// computed by us: a published "kid" is never trusted.
type Key struct {
	// Thumbprint is the RFC 7638 SHA-256 JWK thumbprint, base64url without
	// padding. This is what a Web Bot Auth keyid names.
	Thumbprint string
	KeyType    string // JWK "kty": OKP, RSA, EC
	Curve      string // JWK "crv" for OKP and EC keys
	Alg        string // JWK "alg" when published; "" otherwise
	Kid        string // the published "kid", informational only
	// Public is ed25519.PublicKey, *rsa.PublicKey or *ecdsa.PublicKey.
	Public crypto.PublicKey
	// NotBefore and Expires come from the JWK "nbf" and "exp" members;
	// zero means unbounded.
	NotBefore time.Time
	Expires   time.Time
	// TestKey marks the public RFC 9421 test keys (e.g. thumbprint
	// poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U): anyone can sign with
	// them.
	TestKey bool
	// Source says where the key was published: the directory, JWKS or card
	// URL, and the capture (file@offset) or local file it was read from.
	Source string
}

// ValidAt reports whether t falls within the key's nbf/exp window.
func (k *Key) ValidAt(t time.Time) bool {
	if !k.NotBefore.IsZero() && t.Before(k.NotBefore) {
		return false
	}
	if !k.Expires.IsZero() && t.After(k.Expires) {
		return false
	}
	return true
}
