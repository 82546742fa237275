package identity

import (
	"errors"
	"io"
)

var errTODO = errors.New("identity: not implemented yet")

// Thumbprint computes the RFC 7638 SHA-256 JWK thumbprint.
func Thumbprint(jwk map[string]any) (string, error) { return "", errTODO }

// ParseJWKS reads a JWK Set, a single JWK or a key directory.
func ParseJWKS(data []byte, source string) ([]Key, []Problem, error) { return nil, nil, errTODO }

// ParseCard reads a Signature Agent Card.
func ParseCard(data []byte, source string) (*Card, []Problem, error) { return nil, nil, errTODO }

// MatchesUA reports whether ua matches the card.
func (c *Card) MatchesUA(ua string) bool { return false }

// ParseRegistry reads a registry file.
func ParseRegistry(r io.Reader, source string) ([]RegistryEntry, []Problem) { return nil, nil }

// ParseIPList reads an IP range list.
func ParseIPList(data []byte, source string) (*IPList, []Problem, error) { return nil, nil, errTODO }

// CaptureKind sniffs a captured document.
func CaptureKind(url, contentType string, body []byte) string { return "" }
