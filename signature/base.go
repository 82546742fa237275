package signature

import (
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"

	"github.com/dunglas/httpsfv"
	"github.com/repaudit/repaudit/event"
)

// component is one covered component identifier (RFC 9421 §2.1, §2.2): its
// name (a lower-case field name or a derived "@" name), its parameters, and
// its serialization as it appears on the left of a signature base line.
type component struct {
	name   string
	params *httpsfv.Params
	ident  string // serialized identifier, e.g. "signature-agent";key="agent2"
}

// param returns a component parameter.
func (c *component) param(k string) (any, bool) {
	if c.params == nil {
		return nil, false
	}
	return c.params.Get(k)
}

// flag reports whether a boolean component parameter (;sf, ;bs, ;req, ;tr)
// is set.
func (c *component) flag(k string) bool {
	v, ok := c.param(k)
	b, isBool := v.(bool)
	return ok && isBool && b
}

// stringParam returns a string-valued component parameter (;key, ;name).
func (c *component) stringParam(k string) (string, bool) {
	v, ok := c.param(k)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	return s, ok
}

// baseError says why a signature base could not be built. reason is one of
// the Reason constants.
type baseError struct {
	reason string
	detail string
}

func (e *baseError) Error() string { return e.reason + ": " + e.detail }

// quirks are known signer bugs tried, after a signature fails, to tell a
// buggy signer from a forgery. The zero value is RFC 9421.
type quirks struct {
	// unquotedKey writes a ;key dictionary member holding an sf-String
	// without its quotes (cloudflare/web-bot-auth before its "fix sf
	// dictionary signing" change).
	unquotedKey bool
	// emptyPath writes "@path" as empty instead of "/".
	emptyPath bool
	// rawParams, when set, replaces the re-serialized @signature-params
	// value by the member text exactly as received.
	rawParams string
}

func (q quirks) describe() string {
	var parts []string
	if q.unquotedKey {
		parts = append(parts, "dictionary member value unquoted in the base")
	}
	if q.emptyPath {
		parts = append(parts, `empty "@path" instead of "/"`)
	}
	if q.rawParams != "" {
		parts = append(parts, "@signature-params taken from the non-canonical received text")
	}
	return strings.Join(parts, ", ")
}

// message is what component values are read from: a request, and for
// response signatures (RFC 9421 §2.4) the response, whose ;req components
// read the request.
type message struct {
	req  *Request
	resp *Response
	// complete says the source recorded every header the client sent, so a
	// covered field that is absent was not sent (missing-component) rather
	// than not recorded (component-unrecorded).
	complete bool
}

// buildBase creates the signature base of RFC 9421 §2.5 for the covered
// components comps and the signature parameters line params.
func buildBase(m *message, comps []component, params string, q quirks) (string, *baseError) {
	var b strings.Builder
	for i := range comps {
		c := &comps[i]
		v, err := m.value(c, q)
		if err != nil {
			return "", err
		}
		b.WriteString(c.ident)
		b.WriteString(": ")
		b.WriteString(v)
		b.WriteByte('\n')
	}
	b.WriteString(`"@signature-params": `)
	if q.rawParams != "" {
		b.WriteString(q.rawParams)
	} else {
		b.WriteString(params)
	}
	return b.String(), nil
}

// allowedParams are the component parameters RFC 9421 §6.5.2 registers.
// Unknown ones make base creation fail (§2.5: "If the component identifier
// has a parameter that is not understood, produce an error").
var allowedParams = map[string]bool{"sf": true, "key": true, "bs": true, "req": true, "tr": true, "name": true}

// value returns one component value.
func (m *message) value(c *component, q quirks) (string, *baseError) {
	if c.params != nil {
		for _, k := range c.params.Names() {
			if !allowedParams[k] {
				return "", &baseError{ReasonInputUnreadable, "component " + c.ident + " has unknown parameter " + strconv.Quote(k)}
			}
		}
	}
	if c.flag("tr") {
		// Trailers are never in access logs or WARC request headers in a
		// form we can tell apart from headers.
		return "", &baseError{ReasonComponentUnrecorded, "component " + c.ident + " names a trailer field"}
	}
	fromReq := m.resp == nil || c.flag("req")
	if c.flag("req") && m.resp == nil {
		// RFC 9421 §2.4: ;req only appears in response signatures.
		return "", &baseError{ReasonInputUnreadable, "component " + c.ident + " uses ;req in a request signature"}
	}
	if strings.HasPrefix(c.name, "@") {
		return m.derived(c, fromReq, q)
	}
	if c.name != strings.ToLower(c.name) || c.name == "" {
		// RFC 9421 §2.1: field names are lower-cased in component identifiers.
		return "", &baseError{ReasonInputUnreadable, "component " + c.ident + " is not a lower-case field name"}
	}
	if _, ok := c.param("name"); ok {
		return "", &baseError{ReasonInputUnreadable, "component " + c.ident + ": ;name applies only to @query-param"}
	}
	h := m.req.Header
	if !fromReq {
		h = m.resp.Header
	}
	return m.field(h, c, q)
}

// field returns an HTTP field component value (RFC 9421 §2.1).
func (m *message) field(h event.Header, c *component, q quirks) (string, *baseError) {
	lines := h.Values(c.name)
	if len(lines) == 0 {
		reason := ReasonComponentUnrecorded
		if m.complete || (m.resp != nil && !c.flag("req")) {
			reason = ReasonMissingComponent
		}
		if c.name == "signature-agent" {
			reason = ReasonAgentMemberMissing
		}
		return "", &baseError{reason, "covered field " + strconv.Quote(c.name) + " is absent"}
	}
	key, hasKey := c.stringParam("key")
	if _, ok := c.param("key"); ok && !hasKey {
		return "", &baseError{ReasonInputUnreadable, "component " + c.ident + ": ;key is not a string"}
	}
	sf := c.flag("sf")
	if c.flag("bs") {
		// RFC 9421 §2.1.3: bs is incompatible with sf and key.
		if sf || hasKey {
			return "", &baseError{ReasonInputUnreadable, "component " + c.ident + " combines ;bs with ;sf or ;key"}
		}
		var b strings.Builder
		for i, l := range lines {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte(':')
			b.WriteString(base64.StdEncoding.EncodeToString([]byte(strings.TrimSpace(l))))
			b.WriteByte(':')
		}
		return b.String(), nil
	}
	if hasKey {
		// RFC 9421 §2.1.2: parse as a Dictionary, serialize the member.
		d, err := httpsfv.UnmarshalDictionary(lines)
		if err != nil {
			return "", &baseError{malformedReason(c.name), "field " + strconv.Quote(c.name) + " is not a Dictionary: " + err.Error()}
		}
		mem, ok := d.Get(key)
		if !ok {
			reason := ReasonMissingComponent
			if c.name == "signature-agent" {
				reason = ReasonAgentMemberMissing
			}
			return "", &baseError{reason, "field " + strconv.Quote(c.name) + " has no member " + strconv.Quote(key)}
		}
		if q.unquotedKey {
			if it, ok := mem.(httpsfv.Item); ok {
				if s, ok := it.Value.(string); ok && len(it.Params.Names()) == 0 {
					return s, nil
				}
			}
		}
		s, err := httpsfv.Marshal(mem)
		if err != nil {
			return "", &baseError{malformedReason(c.name), "field " + strconv.Quote(c.name) + " member " + strconv.Quote(key) + ": " + err.Error()}
		}
		return s, nil
	}
	if sf {
		s, err := reserialize(lines)
		if err != nil {
			return "", &baseError{malformedReason(c.name), "field " + strconv.Quote(c.name) + " is not a structured field: " + err.Error()}
		}
		return s, nil
	}
	// RFC 9421 §2.1: trim each line, join with ", ".
	if len(lines) == 1 {
		return strings.TrimSpace(lines[0]), nil
	}
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strings.TrimSpace(l))
	}
	return b.String(), nil
}

// reserialize parses a structured field of unknown type and serializes it
// (RFC 9421 §2.1.1). The type is not known for arbitrary fields, so it tries
// Dictionary, then List, then Item: every text that parses as more than one
// of these serializes the same under each.
func reserialize(lines []string) (string, error) {
	if d, err := httpsfv.UnmarshalDictionary(lines); err == nil {
		return httpsfv.Marshal(d)
	}
	if l, err := httpsfv.UnmarshalList(lines); err == nil {
		return httpsfv.Marshal(l)
	}
	it, err := httpsfv.UnmarshalItem(lines)
	if err != nil {
		return "", err
	}
	return httpsfv.Marshal(it)
}

// derived returns a derived component value (RFC 9421 §2.2).
func (m *message) derived(c *component, fromReq bool, q quirks) (string, *baseError) {
	for _, k := range []string{"sf", "key", "bs"} {
		if _, ok := c.param(k); ok {
			return "", &baseError{ReasonInputUnreadable, "derived component " + c.ident + " has field parameter ;" + k}
		}
	}
	if _, ok := c.param("name"); ok && c.name != "@query-param" {
		return "", &baseError{ReasonInputUnreadable, "component " + c.ident + ": ;name applies only to @query-param"}
	}
	if c.name == "@status" {
		// §2.2.9: responses only, never with ;req.
		if m.resp == nil || fromReq {
			return "", &baseError{ReasonInputUnreadable, `"@status" is only defined for responses`}
		}
		if m.resp.Status < 100 || m.resp.Status > 999 {
			return "", &baseError{ReasonComponentUnrecorded, "response status unknown"}
		}
		return strconv.Itoa(m.resp.Status), nil
	}
	if !fromReq {
		return "", &baseError{ReasonInputUnreadable, "request component " + c.ident + " in a response signature without ;req"}
	}
	r := m.req
	unrecorded := func(what string) (string, *baseError) {
		return "", &baseError{ReasonComponentUnrecorded, "the source does not record the request " + what}
	}
	switch c.name {
	case "@method":
		// §2.2.1: as sent; methods are case-sensitive.
		if r.Method == "" {
			return unrecorded("method")
		}
		return r.Method, nil
	case "@authority":
		a := r.authority()
		if a == "" {
			return unrecorded("authority")
		}
		return a, nil
	case "@scheme":
		return r.scheme(), nil
	case "@target-uri":
		a := r.authority()
		if a == "" || r.Target == "" {
			return unrecorded("target URI")
		}
		if isAbsoluteTarget(r.Target) {
			return r.Target, nil
		}
		return r.scheme() + "://" + a + r.Target, nil
	case "@request-target":
		if r.Target == "" {
			return unrecorded("target")
		}
		return r.Target, nil
	case "@path":
		if r.Target == "" {
			return unrecorded("target")
		}
		p, _, _ := splitTarget(r.Target)
		if p == "" {
			p = "/"
		}
		if q.emptyPath && p == "/" {
			p = ""
		}
		return p, nil
	case "@query":
		if r.Target == "" {
			return unrecorded("target")
		}
		_, query, _ := splitTarget(r.Target)
		return "?" + query, nil
	case "@query-param":
		if r.Target == "" {
			return unrecorded("target")
		}
		name, ok := c.stringParam("name")
		if !ok {
			return "", &baseError{ReasonInputUnreadable, `"@query-param" without a string ;name`}
		}
		_, query, _ := splitTarget(r.Target)
		return queryParam(query, name)
	case "@signature-params":
		// §2.3: never listed among the covered components.
		return "", &baseError{ReasonInputUnreadable, `"@signature-params" listed as a covered component`}
	default:
		return "", &baseError{ReasonInputUnreadable, "unknown derived component " + c.ident}
	}
}

// isAbsoluteTarget reports whether a request-target is in absolute form
// (RFC 9112 §3.2.2), as proxies receive it.
func isAbsoluteTarget(t string) bool {
	return strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://") ||
		strings.HasPrefix(t, "HTTP://") || strings.HasPrefix(t, "HTTPS://")
}

// splitTarget splits a request-target into raw path and raw query (without
// "?"). An absolute-form target loses its scheme and authority first. The
// fragment, which clients never send, is dropped when present.
func splitTarget(t string) (path, query string, hasQuery bool) {
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t = t[:i]
	}
	if isAbsoluteTarget(t) {
		rest := t[strings.Index(t, "://")+3:]
		if i := strings.IndexAny(rest, "/?"); i >= 0 {
			t = rest[i:]
		} else {
			t = ""
		}
	}
	path, query, hasQuery = strings.Cut(t, "?")
	return path, query, hasQuery
}

// queryParam returns the @query-param value for name (RFC 9421 §2.2.8): the
// query is parsed as application/x-www-form-urlencoded, and the value is
// re-encoded with the percent-encode set of that format, spaces as %20.
func queryParam(query, name string) (string, *baseError) {
	want, err := url.QueryUnescape(name)
	if err != nil {
		want = name
	}
	found := 0
	var val string
	for pair := range strings.SplitSeq(query, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		dk, err := url.QueryUnescape(k)
		if err != nil {
			continue
		}
		if dk != want {
			continue
		}
		dv, err := url.QueryUnescape(v)
		if err != nil {
			dv = v
		}
		found++
		val = formEncode(dv)
	}
	switch found {
	case 0:
		return "", &baseError{ReasonMissingComponent, "query parameter " + strconv.Quote(name) + " is absent"}
	case 1:
		return val, nil
	default:
		// §2.2.8: a name that occurs more than once cannot be signed.
		return "", &baseError{ReasonMissingComponent, "query parameter " + strconv.Quote(name) + " occurs more than once"}
	}
}

// formEncode percent-encodes everything outside ALPHA / DIGIT / "*-._"
// (the WHATWG application/x-www-form-urlencoded set), spaces as %20 as
// RFC 9421 §2.2.8's examples show.
func formEncode(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '*', c == '-', c == '.', c == '_':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// normalizeAuthority lower-cases an authority and removes the scheme's
// default port (RFC 9421 §2.2.3, RFC 9110 §4.2.3).
func normalizeAuthority(a, scheme string) string {
	a = strings.ToLower(strings.TrimSpace(a))
	if i := strings.LastIndexByte(a, ':'); i >= 0 && !strings.Contains(a[i:], "]") {
		port := a[i+1:]
		if port == "" || (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
			a = a[:i]
		}
	}
	return a
}

// malformedReason is the reason for a covered field whose value cannot be
// read as the component asks: RFC 9421 §2.5 treats a malformed value like
// an absent one, except that an unreadable Signature-Agent has its own name.
func malformedReason(name string) string {
	if name == "signature-agent" {
		return ReasonAgentUnparsable
	}
	return ReasonMissingComponent
}
