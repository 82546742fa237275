package signature

import (
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"strings"

	"github.com/dunglas/httpsfv"
)

// rawMember returns the text of dictionary member label's value exactly as
// received in dict (a joined Dictionary field), or "" when it cannot be
// found. It only splits on top-level commas, skipping strings, display
// strings and parentheses; dict has already parsed as a Dictionary, so this
// need not validate. Like RFC 9651 §4.2.2, a repeated key's last value wins.
func rawMember(dict, label string) string {
	out := ""
	i := 0
	for i < len(dict) {
		for i < len(dict) && (dict[i] == ' ' || dict[i] == '\t') {
			i++
		}
		start := i
		for i < len(dict) && dict[i] != '=' && dict[i] != ',' && dict[i] != ';' {
			i++
		}
		key := dict[start:i]
		valStart := -1
		if i < len(dict) && dict[i] == '=' {
			i++
			valStart = i
		}
		depth := 0
		for i < len(dict) {
			c := dict[i]
			if c == '"' {
				i++
				for i < len(dict) && dict[i] != '"' {
					if dict[i] == '\\' {
						i++
					}
					i++
				}
				i++
				continue
			}
			if c == '(' {
				depth++
			} else if c == ')' && depth > 0 {
				depth--
			} else if c == ',' && depth == 0 {
				break
			}
			i++
		}
		if key == label && valStart >= 0 && valStart <= len(dict) {
			end := min(i, len(dict))
			out = strings.TrimRight(dict[valStart:end], " \t")
		}
		i++ // skip the comma
	}
	return out
}

// checkContentDigest checks a Content-Digest field (RFC 9530 §2) against
// body. Only sha-256 and sha-512 are defined; a field with neither, or one
// that does not parse, counts as a mismatch.
func checkContentDigest(lines []string, body []byte) (ok bool, note string) {
	if len(lines) == 0 {
		return false, "Content-Digest covered but absent"
	}
	d, err := httpsfv.UnmarshalDictionary(lines)
	if err != nil {
		return false, "Content-Digest is not a Dictionary: " + err.Error()
	}
	checked := false
	for _, alg := range d.Names() {
		mem, _ := d.Get(alg)
		it, isItem := mem.(httpsfv.Item)
		if !isItem {
			continue
		}
		want, isBytes := it.Value.([]byte)
		if !isBytes {
			continue
		}
		var got []byte
		switch alg {
		case "sha-256":
			h := sha256.Sum256(body)
			got = h[:]
		case "sha-512":
			h := sha512.Sum512(body)
			got = h[:]
		default:
			continue
		}
		checked = true
		if subtle.ConstantTimeCompare(got, want) != 1 {
			return false, "Content-Digest " + alg + " does not match the archived body"
		}
	}
	if !checked {
		return false, "Content-Digest has no sha-256 or sha-512 member"
	}
	return true, ""
}
