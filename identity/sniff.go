package identity

import (
	"bytes"
	"encoding/json"
	"strings"
)

// CaptureKind sniffs a captured document and returns KindCard, KindJWKS,
// KindIPList or "". It is cheap for the common case (a byte scan rejects
// most JSON documents) and decides by JSON shape, using the URL and
// Content-Type only to accept an empty key directory ({"keys":[]}), which
// has no shape of its own:
//
//   - card: a "web_bot_auth" object; or a string "client_id" together with
//     jwks_uri, jwks or client_name (an OAuth Client ID Metadata Document is
//     a valid card); or the flat layout's "rfc9309-product-token",
//     "expected-user-agent" or "ips_uri" at top level;
//   - jwks: a "keys" array whose members carry "kty", or a single JWK;
//   - iplist: a "prefixes" array with ipv4Prefix/ipv6Prefix members.
//
// Zero-width spaces (U+200B) are ignored, as ParseIPList ignores them.
func CaptureKind(url, contentType string, body []byte) string {
	b := bytes.TrimLeft(trimBOM(body), " \t\r\n")
	if bytes.Contains(b, zeroWidthSpace) {
		b = bytes.TrimLeft(bytes.ReplaceAll(b, zeroWidthSpace, nil), " \t\r\n")
	}
	if len(b) == 0 || b[0] != '{' || len(b) > MaxIPListBytes {
		return ""
	}
	hinted := strings.HasSuffix(strings.SplitN(url, "?", 2)[0], directoryPath) ||
		strings.Contains(strings.ToLower(contentType), "http-message-signatures-directory") ||
		strings.Contains(strings.ToLower(contentType), "jwk-set+json")
	if !hinted && !containsAny(b, `"web_bot_auth"`, `"client_id"`, `"rfc9309-product-token"`,
		`"expected-user-agent"`, `"ips_uri"`, `"kty"`, `"prefixes"`) {
		return ""
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) != nil {
		return ""
	}
	first := func(name string) byte {
		v := bytes.TrimLeft(top[name], " \t\r\n")
		if len(v) == 0 {
			return 0
		}
		return v[0]
	}
	switch {
	case first("web_bot_auth") == '{':
		return KindCard
	case first("client_id") == '"' && (top["jwks_uri"] != nil || top["jwks"] != nil || top["client_name"] != nil):
		return KindCard
	case top["rfc9309-product-token"] != nil || top["expected-user-agent"] != nil || top["ips_uri"] != nil:
		return KindCard
	case first("prefixes") == '[' && (containsAny(top["prefixes"], `"ipv4Prefix"`, `"ipv6Prefix"`)):
		return KindIPList
	case first("keys") == '[' && (bytes.Contains(top["keys"], []byte(`"kty"`)) || hinted):
		return KindJWKS
	case first("kty") == '"' && (top["x"] != nil || top["n"] != nil):
		return KindJWKS
	}
	return ""
}

func containsAny(b []byte, subs ...string) bool {
	for _, s := range subs {
		if bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}
