package signature

import (
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
)

// maxDataURL caps a data: URL's length; Signature-Agent is capped by
// maxAgentField anyway, this guards direct callers.
const maxDataURL = 16 << 10

// ErrDataURL is returned for a data: URL that cannot be decoded.
var ErrDataURL = errors.New("signature: malformed data: URL")

// decodeDataURL decodes an RFC 2397 data: URL: "data:" [mediatype]
// [";base64"] "," data. The payload is percent-decoded, then base64-decoded
// when ";base64" is present (standard or URL alphabet, padding optional).
func decodeDataURL(s string) ([]byte, error) {
	if len(s) > maxDataURL {
		return nil, ErrDataURL
	}
	if len(s) < 5 || !strings.EqualFold(s[:5], "data:") {
		return nil, ErrDataURL
	}
	meta, payload, ok := strings.Cut(s[5:], ",")
	if !ok {
		return nil, ErrDataURL
	}
	raw, err := url.PathUnescape(payload)
	if err != nil {
		return nil, ErrDataURL
	}
	isB64 := false
	for p := range strings.SplitSeq(meta, ";") {
		if strings.EqualFold(strings.TrimSpace(p), "base64") {
			isB64 = true
		}
	}
	if !isB64 {
		return []byte(raw), nil
	}
	raw = strings.TrimRight(strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, raw), "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(raw); err == nil {
			return b, nil
		}
	}
	return nil, ErrDataURL
}
