package signature

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"math/big"

	"github.com/repaudit/repaudit/identity"
)

// Algorithms of the RFC 9421 §6.2.2 registry that a public key can verify.
const (
	AlgEd25519        = "ed25519"           // §3.3.6
	AlgRSAPSSSHA512   = "rsa-pss-sha512"    // §3.3.1
	AlgRSAv15SHA256   = "rsa-v1_5-sha256"   // §3.3.2
	AlgECDSAP256      = "ecdsa-p256-sha256" // §3.3.4
	AlgECDSAP384      = "ecdsa-p384-sha384" // §3.3.5
	algHMACSHA256     = "hmac-sha256"       // §3.3.3: shared secret, never acceptable here
	rsaPSSSaltLength  = 64                  // §3.3.1
	maxSignatureBytes = 1024                // larger than any RSA-8192 signature
)

// jwkAlgs maps a JWK "alg" (RFC 7518, RFC 8037) to the RFC 9421 algorithm
// it implies.
var jwkAlgs = map[string]string{
	"EdDSA":   AlgEd25519,
	"Ed25519": AlgEd25519,
	"PS512":   AlgRSAPSSSHA512,
	"RS256":   AlgRSAv15SHA256,
	"ES256":   AlgECDSAP256,
	"ES384":   AlgECDSAP384,
}

// keyAlgs returns the algorithms a key can verify, and "" plus a reason
// when alg (the signature's alg parameter, possibly empty) is not
// consistent with the key (RFC 9421 §3.2 step 6.5: the alg parameter, when
// present, must match the key's algorithm).
func keyAlgs(k *identity.Key, alg string) (algs []string, problem string) {
	var fits []string
	switch pub := k.Public.(type) {
	case ed25519.PublicKey:
		if len(pub) != ed25519.PublicKeySize {
			return nil, "Ed25519 key has the wrong length"
		}
		fits = []string{AlgEd25519}
	case *rsa.PublicKey:
		if pub == nil || pub.N == nil {
			return nil, "RSA key is empty"
		}
		fits = []string{AlgRSAPSSSHA512, AlgRSAv15SHA256}
	case *ecdsa.PublicKey:
		if pub == nil || pub.Curve == nil {
			return nil, "EC key is empty"
		}
		switch pub.Curve {
		case elliptic.P256():
			fits = []string{AlgECDSAP256}
		case elliptic.P384():
			fits = []string{AlgECDSAP384}
		default:
			return nil, "EC key on an unsupported curve"
		}
	default:
		return nil, "unsupported key type"
	}
	// A JWK that names its algorithm narrows the choice.
	if want, ok := jwkAlgs[k.Alg]; ok {
		if !contains(fits, want) {
			return nil, "key's JWK alg " + k.Alg + " does not fit its key type"
		}
		fits = []string{want}
	}
	switch alg {
	case "":
		return fits, ""
	case algHMACSHA256:
		return nil, "alg hmac-sha256 is a shared-secret algorithm"
	}
	if !contains(fits, alg) {
		if k.Alg != "" {
			return nil, "alg " + alg + " does not match the key (" + k.KeyType + ", JWK alg " + k.Alg + ")"
		}
		return nil, "alg " + alg + " does not match the key (" + k.KeyType + ")"
	}
	return []string{alg}, ""
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// verifyWith checks sig over base with key under one algorithm.
func verifyWith(pub crypto.PublicKey, alg string, base, sig []byte) bool {
	if len(sig) == 0 || len(sig) > maxSignatureBytes {
		return false
	}
	switch alg {
	case AlgEd25519:
		k, ok := pub.(ed25519.PublicKey)
		return ok && len(k) == ed25519.PublicKeySize && ed25519.Verify(k, base, sig)
	case AlgRSAPSSSHA512:
		k, ok := pub.(*rsa.PublicKey)
		if !ok {
			return false
		}
		h := sha512.Sum512(base)
		return rsa.VerifyPSS(k, crypto.SHA512, h[:], sig, &rsa.PSSOptions{SaltLength: rsaPSSSaltLength}) == nil
	case AlgRSAv15SHA256:
		k, ok := pub.(*rsa.PublicKey)
		if !ok {
			return false
		}
		h := sha256.Sum256(base)
		return rsa.VerifyPKCS1v15(k, crypto.SHA256, h[:], sig) == nil
	case AlgECDSAP256, AlgECDSAP384:
		k, ok := pub.(*ecdsa.PublicKey)
		if !ok {
			return false
		}
		// §3.3.4/§3.3.5: the signature is r||s, each a fixed-size
		// big-endian integer, not ASN.1.
		size := 32
		var digest []byte
		if alg == AlgECDSAP384 {
			size = 48
			h := sha512.Sum384(base)
			digest = h[:]
		} else {
			h := sha256.Sum256(base)
			digest = h[:]
		}
		if len(sig) != 2*size {
			return false
		}
		r := new(big.Int).SetBytes(sig[:size])
		s := new(big.Int).SetBytes(sig[size:])
		return ecdsa.Verify(k, digest, r, s)
	}
	return false
}

// testKeyThumbprints are the RFC 7638 thumbprints of the public RFC 9421
// Appendix B.1 test keys, checked in signature's tests from the keys
// themselves: anyone can sign with them.
var testKeyThumbprints = map[string]string{
	"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U": "RFC 9421 B.1.4 test-key-ed25519",
	"oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA": "RFC 9421 B.1.2 test-key-rsa-pss",
	"ydQXMtvbsOsZyFir-Y7A8t7fKEM1gbKPvyFkdpu4fvI": "RFC 9421 B.1.3 test-key-ecc-p256",
	// Listed by other Web Bot Auth verifiers as B.1.1 test-key-rsa; not
	// recomputed here (a thumbprint cannot collide with a real key, so a
	// wrong entry could only fail to flag).
	"BHj8s0GPnMEQtkaULIM-PLgEhLBbuGUQ1vMxmBWZzEo": "RFC 9421 B.1.1 test-key-rsa",
}
