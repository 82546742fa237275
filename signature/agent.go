package signature

import (
	"net/url"
	"strings"

	"github.com/dunglas/httpsfv"
)

// Signature-Agent shapes (see doc.go).
const (
	ShapeLegacyString = "legacy-string" // Signature-Agent: "https://chatgpt.com"
	ShapeDictionary   = "dictionary"    // agent2="https://origin" (a key directory origin)
	ShapeTyped        = "typed"         // agent2="https://…";type=directory|jwks_uri|cimd
	ShapeJWKSURL      = "jwks-url"      // agent2="https://…/jwks.json" (newest WG text)
)

// DirectoryPath is where a key directory lives on a signature agent's
// origin (draft-meunier-http-message-signatures-directory §4).
const DirectoryPath = "/.well-known/http-message-signatures-directory"

// agentMember is one Signature-Agent member: where keys for a signature
// are to be found.
type agentMember struct {
	key   string // dictionary member key; "" for the legacy sf-String shape
	value string // the URL as written
	typ   string // "directory", "jwks_uri", "cimd" for typed members; "" otherwise
	shape string
	token bool // the value was an sf-Token (unquoted), read leniently
	// params are the member's parameter names ("type", ...), which
	// draft-ietf-webbotauth-httpsig-protocol-01 §5.2.1 prohibits.
	params []string
}

// agentField is a parsed Signature-Agent field.
type agentField struct {
	present bool
	err     string // non-empty when the field is present but unreadable
	legacy  bool   // a single sf-String (or token) rather than a Dictionary
	members []agentMember
}

// parseAgentField reads every Signature-Agent field line (joined with ", "
// as RFC 9651 §4.2 requires) in any of the four shapes.
func parseAgentField(lines []string) agentField {
	if len(lines) == 0 {
		return agentField{}
	}
	f := agentField{present: true}
	if it, err := httpsfv.UnmarshalItem(lines); err == nil {
		// Shape 1: a bare sf-String. A bare token (unquoted URL) is read
		// leniently the same way.
		m := agentMember{shape: ShapeLegacyString}
		switch v := it.Value.(type) {
		case string:
			m.value = v
		case httpsfv.Token:
			m.value, m.token = string(v), true
		default:
			f.err = "Signature-Agent is neither a string nor a Dictionary"
			return f
		}
		f.legacy = true
		f.members = []agentMember{m}
		return f
	}
	d, err := httpsfv.UnmarshalDictionary(lines)
	if err != nil {
		f.err = "Signature-Agent is not a structured field: " + err.Error()
		return f
	}
	for _, k := range d.Names() {
		mem, _ := d.Get(k)
		it, ok := mem.(httpsfv.Item)
		if !ok {
			f.members = append(f.members, agentMember{key: k, shape: ShapeDictionary})
			continue
		}
		m := agentMember{key: k}
		switch v := it.Value.(type) {
		case string:
			m.value = v
		case httpsfv.Token:
			m.value, m.token = string(v), true
		}
		m.params = it.Params.Names()
		if t, ok := it.Params.Get("type"); ok {
			m.shape = ShapeTyped
			switch tv := t.(type) {
			case httpsfv.Token:
				m.typ = string(tv)
			case string:
				m.typ = tv
			}
		} else {
			m.shape = untypedShape(m.value)
		}
		f.members = append(f.members, m)
	}
	return f
}

// untypedShape tells a key directory origin (architecture drafts) from a
// direct JWK Set URL (newest WG text): the syntax is the same, so an origin
// with no path (or "/") or the well-known directory path counts as a
// directory, anything else as a JWK Set URL.
func untypedShape(v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Scheme == "data" {
		return ShapeDictionary
	}
	if u.Path == "" || u.Path == "/" || u.Path == DirectoryPath {
		return ShapeDictionary
	}
	return ShapeJWKSURL
}

// directoryType reports whether the member names a key directory: typed
// type=directory, or untyped (draft-meunier-webbotauth-httpsig-protocol-02
// §5.5: the type defaults to directory). data: members are inline
// directories and are never looked up.
func (m *agentMember) directoryType() bool {
	return (m.typ == "" || m.typ == "directory") && !m.isData()
}

// isOrigin reports whether a directory member's value is the ASCII
// serialization of an origin (RFC 6454 §6.2), as draft -02 §5.5 requires:
// a scheme and host, no user information, query or fragment, and no path
// but "/" (which the draft lets a verifier accept) or the well-known
// directory path itself (registry-03's reference to the same directory).
func (m *agentMember) isOrigin() bool {
	u, err := url.Parse(m.value)
	if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil || u.Opaque != "" {
		return false
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(m.value, "#") {
		return false
	}
	return u.Path == "" || u.Path == "/" || u.Path == DirectoryPath
}

// isData reports whether the member carries an inline directory.
func (m *agentMember) isData() bool {
	return len(m.value) >= 5 && strings.EqualFold(m.value[:5], "data:")
}

// httpsOK reports whether the member's URL is an https URL with a host
// (registry-03 §"JWKS URI": "The URI scheme MUST be https"); data: URLs are
// accepted as inline directories.
func (m *agentMember) httpsOK() bool {
	if m.isData() {
		return true
	}
	u, err := url.Parse(m.value)
	return err == nil && u.Scheme == "https" && u.Host != ""
}

// refs returns the references under which a KeySource may hold this
// member's keys, most specific first: for a directory its origin and the
// well-known directory URL; for a JWK Set URL the URL; for a card its
// client_id.
func (m *agentMember) refs() []string {
	if m.value == "" || m.isData() {
		return nil
	}
	out := []string{m.value}
	add := func(s string) {
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	u, err := url.Parse(m.value)
	if err != nil || u.Host == "" {
		return out
	}
	origin := strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
	switch {
	case m.typ == "cimd" || m.typ == "jwks_uri":
		// The URL is the reference itself.
	case u.Path == "" || u.Path == "/":
		add(origin)
		add(origin + DirectoryPath)
	case u.Path == DirectoryPath:
		add(origin)
	}
	return out
}
