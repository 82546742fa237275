package identity

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/repaudit/repaudit/problem"
)

// Card invalidity reasons (Card.Invalid). An invalid card is kept so that
// User-Agent claims against it can still be recognised, but its keys are
// never trusted.
const (
	InvalidJWKSAndURI       = "jwks-and-jwks-uri"   // registry-03: jwks and jwks_uri are mutually exclusive
	InvalidEmpty            = "empty-card"          // "There MUST be at least one parameter set"
	InvalidClientIDNotHTTPS = "client-id-not-https" // client_id is an https URL (CIMD)
	InvalidJWKSURINotHTTPS  = "jwks-uri-not-https"  // "The URI scheme MUST be https"
	InvalidClientIDMismatch = "client-id-mismatch"  // fetched from a URL other than its client_id
	InvalidClientIDMissing  = "client-id-missing"   // registry-03 card fetched by URL without client_id
	InvalidBadJWKS          = "jwks-unusable"       // inline jwks present but not a JWK Set
)

// Values of Card.RFC9309Compliance.
const (
	ComplianceTrue  = "true"  // the card claims robots.txt compliance
	ComplianceFalse = "false" // the card says origins cannot assume it
	// ComplianceUnset: the card does not say; registry-04 §3.2.3 reads
	// that as false, kept apart so a report can tell the two.
	ComplianceUnset = ""
)

// ParseCard reads a Signature Agent Card (draft-meunier-webbotauth-
// registry-03 §"Signature Agent Card"): OAuth client metadata with a
// "web_bot_auth" object, or the older flat layout of registry-00..02 (bot
// fields, "ips_uri" and inline "keys" at top level). Unknown members are
// ignored, as the draft requires. A card that breaks a MUST of the draft is
// returned with Invalid set; the error is non-nil only when data is not a
// JSON object at all.
func ParseCard(data []byte, source string) (*Card, []Problem, error) {
	v, ps, err := parseCard(data, source)
	return v, located(ps, source), err
}

func parseCard(data []byte, source string) (*Card, []Problem, error) {
	obj, err := decodeObject(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrNotCard, err)
	}
	return cardFromObject(obj, source)
}

// cardFromObject reads a decoded card object into a Card: its layout, the
// client and bot fields, the inline keys, and the draft's MUSTs.
func cardFromObject(obj map[string]any, source string) (*Card, []Problem, error) {
	r := &cardReader{c: &Card{Source: source}, obj: obj, source: source}
	if len(obj) == 0 {
		r.c.Invalid = InvalidEmpty
		r.c.Layout = LayoutLegacyFlat
		return r.c, r.probs, nil
	}
	r.readLayout()
	r.readFields()
	r.readExpectedUserAgent()
	inline, inlineName := r.readInlineKeys()
	r.checkMusts(inline != nil, inlineName)
	return r.c, r.probs, nil
}

// cardReader holds one card object while it is read into c, with the
// problems found so far in the order they were found.
type cardReader struct {
	c      *Card
	obj    map[string]any // the whole card
	wba    map[string]any // its "web_bot_auth" object, empty in flat layouts
	source string
	probs  []Problem
}

// note records a problem against the card.
func (r *cardReader) note(code problem.Code, msg string) {
	r.probs = append(r.probs, Problem{Source: r.source, Code: code, Message: msg})
}

// str returns the top-level string member name, trimmed; "" when it is
// absent, null or not a string (the last is noted).
func (r *cardReader) str(name string) string {
	v, ok := r.obj[name]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		r.note(problem.CardBadMember, fmt.Sprintf("%q is %s, want a string; ignored", name, jsonKind(v)))
	}
	return strings.TrimSpace(s)
}

// readLayout sets the card's layout and picks the object bot fields are
// read from first: "web_bot_auth" (registry-03) or nothing (registry-00..02,
// where they all live at the top level).
func (r *cardReader) readLayout() {
	// Bot fields live in "web_bot_auth" (registry-03) or at the top level
	// (registry-00..02). Read the object first, then fall back member by
	// member to the top level, so that half-migrated cards still work.
	wba, isObj := r.obj["web_bot_auth"].(map[string]any)
	if v, ok := r.obj["web_bot_auth"]; ok && !isObj {
		r.note(problem.CardBadMember, fmt.Sprintf("\"web_bot_auth\" is %s, want an object; ignored", jsonKind(v)))
	}
	if isObj {
		r.c.Layout = LayoutRegistry03
	} else {
		r.c.Layout = LayoutLegacyFlat
		wba = map[string]any{}
	}
	r.wba = wba
}

// bot returns the first of names found in "web_bot_auth", else at the top
// level, with the name it was found under; a registry-03 card that keeps a
// bot field at the top level is noted.
func (r *cardReader) bot(names ...string) (any, string) {
	for i, scope := range []map[string]any{r.wba, r.obj} {
		for _, n := range names {
			if v, ok := scope[n]; ok {
				if r.c.Layout == LayoutRegistry03 && i == 1 {
					r.note(problem.CardMemberOutside, fmt.Sprintf("%q is at top level; registry-03 puts it in \"web_bot_auth\"", n))
				}
				return v, n
			}
		}
	}
	return nil, ""
}

// botStr is bot for string fields: trimmed, "" when absent or not a string
// (the last is noted).
func (r *cardReader) botStr(names ...string) string {
	v, n := r.bot(names...)
	if v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		r.note(problem.CardBadMember, fmt.Sprintf("%q is %s, want a string; ignored", n, jsonKind(v)))
	}
	return strings.TrimSpace(s)
}

// readFields reads the client metadata and the scalar bot fields, under
// every name the drafts have used for them.
func (r *cardReader) readFields() {
	c := r.c
	c.ClientID = r.str("client_id")
	c.Name = r.str("client_name")
	if c.Name == "" {
		c.Name = r.str("name") // registry-00
	}
	c.ClientURI = r.str("client_uri")
	c.JWKSURI = r.str("jwks_uri")
	c.ProductToken = r.botStr("rfc9309-product-token", "rfc9309_product_token", "product-token")
	c.Trigger = r.botStr("trigger")
	if v, n := r.bot("purpose"); v != nil {
		c.Purpose = purposeValue(v, n, r.note)
	}
	c.IPsURI = r.botStr("ips_uri", "ips-uri")
	if v, n := r.bot("rfc9309-compliance", "rfc9309_compliance"); v != nil {
		c.RFC9309Compliance, c.RFC9309Directives = complianceValue(v, n, r.note)
	}
}

// readExpectedUserAgent reads "expected-user-agent": one pattern or an
// array of them; entries that are not strings are noted and skipped.
func (r *cardReader) readExpectedUserAgent() {
	c := r.c
	v, n := r.bot("expected-user-agent", "expected_user_agent")
	if v == nil {
		return
	}
	switch ua := v.(type) {
	case string:
		c.ExpectedUserAgent = addPattern(c.ExpectedUserAgent, ua, r.note)
	case []any:
		for i, e := range ua {
			s, ok := e.(string)
			if !ok {
				r.note(problem.CardBadMember, fmt.Sprintf("%s[%d] is %s, want a string; ignored", n, i, jsonKind(e)))
				continue
			}
			c.ExpectedUserAgent = addPattern(c.ExpectedUserAgent, s, r.note)
		}
	default:
		r.note(problem.CardBadMember, fmt.Sprintf("%q is %s, want a string or an array of strings; ignored", n, jsonKind(v)))
	}
}

// readInlineKeys reads the card's inline keys into c.JWKS and returns the
// raw member (nil when there is none) and the name it was found under.
func (r *cardReader) readInlineKeys() (inline any, inlineName string) {
	c, obj := r.c, r.obj
	// Inline keys: "jwks" (registry-03, a JWK Set) or legacy "keys" (an
	// array, or in registry-00 a single key object).
	if v, ok := obj["jwks"]; ok {
		inline, inlineName = v, "jwks"
		if _, both := obj["keys"]; both {
			r.note(problem.CardKeysIgnored, "card has both \"jwks\" and legacy \"keys\"; \"keys\" is ignored")
		}
	} else if v, ok := obj["keys"]; ok {
		inline, inlineName = map[string]any{"keys": v}, "keys"
		if c.Layout == LayoutRegistry03 {
			r.note(problem.CardLegacyKeys, "registry-03 renamed inline \"keys\" to \"jwks\"; read as jwks")
		}
	}
	if inline == nil {
		return inline, inlineName
	}
	set, ok := inline.(map[string]any)
	if !ok {
		r.note(problem.CardBadMember, fmt.Sprintf("%q is %s, want a JWK Set object", inlineName, jsonKind(inline)))
		c.Invalid = InvalidBadJWKS
		return inline, inlineName
	}
	keys, kp, err := jwksFromObject(set, r.source+"#"+inlineName)
	r.probs = append(r.probs, kp...)
	if err != nil {
		r.note(problem.CardBadJWKS, err.Error())
		c.Invalid = InvalidBadJWKS
	}
	c.JWKS = keys
	return inline, inlineName
}

// checkMusts checks the draft's MUSTs, in order of importance: the first
// broken one is the card's Invalid reason, every one is a problem.
// hasInline says whether the card carries inline keys, found under
// inlineName.
func (r *cardReader) checkMusts(hasInline bool, inlineName string) {
	c := r.c
	invalid := func(reason, msg string) {
		r.note(problem.CardInvalid, msg)
		if c.Invalid == "" {
			c.Invalid = reason
		}
	}
	if c.ClientID != "" && !isHTTPSURL(c.ClientID) {
		invalid(InvalidClientIDNotHTTPS, "client_id "+quoteShort(c.ClientID)+" is not an https URL")
	}
	if c.JWKSURI != "" && !isHTTPSURL(c.JWKSURI) {
		invalid(InvalidJWKSURINotHTTPS, "jwks_uri "+quoteShort(c.JWKSURI)+" is not an https URL")
	}
	if hasInline && c.JWKSURI != "" {
		// registry-03 §"JWKS URI": MUST NOT contain both; clients SHOULD
		// reject. The flat layouts allowed both, so there it is a note and
		// jwks_uri wins (registry-03: fetch the key set at the URL rather
		// than relying on inline keys).
		if c.Layout == LayoutRegistry03 {
			invalid(InvalidJWKSAndURI, "card has both inline "+inlineName+" and jwks_uri (registry-03: mutually exclusive)")
		} else {
			r.note(problem.CardKeysAndJWKSURI, "legacy card has both inline keys and jwks_uri; the jwks_uri snapshot is preferred when known")
		}
	}
	if c.IPsURI != "" && !isHTTPSURL(c.IPsURI) {
		r.note(problem.CardIPsURINotHTTPS, "ips_uri "+quoteShort(c.IPsURI)+" is not an https URL (registry-04 §3.2.10 requires https)")
	}
}

// complianceValue reads "rfc9309-compliance". registry-04 §3.2.3
// (robots.txt Compliance) makes it a boolean: whether the agent claims
// compliance with RFC 9309. registry-03 §"robots.txt compliance" had it
// list the robots.txt directives the agent implements; such a list is
// still read, as a claim of compliance when it names at least one
// directive (docs/semantics.md, "Signature Agent Cards"), with a
// diagnostic naming the draft, and its directives are kept.
func complianceValue(v any, name string, note func(code problem.Code, msg string)) (string, []string) {
	switch x := v.(type) {
	case bool:
		if x {
			return ComplianceTrue, nil
		}
		return ComplianceFalse, nil
	case []any:
		var dirs []string
		for i, e := range x {
			s, ok := e.(string)
			if !ok || strings.TrimSpace(s) == "" {
				note(problem.CardBadMember, fmt.Sprintf("%s[%d] is %s, want a directive name; ignored", name, i, jsonKind(e)))
				continue
			}
			dirs = append(dirs, strings.TrimSpace(s))
		}
		val := ComplianceFalse
		if len(dirs) > 0 {
			val = ComplianceTrue
		}
		note(problem.CardOlderDraftShape, fmt.Sprintf("%q is a list of directives (draft-meunier-webbotauth-registry-03 and earlier); registry-04 §3.2.3 makes it a boolean: read as %s", name, val))
		return val, dirs
	}
	note(problem.CardBadMember, fmt.Sprintf("%q is %s, want a boolean (registry-04 §3.2.3); ignored", name, jsonKind(v)))
	return ComplianceUnset, nil
}

// purposeValue reads "purpose" (registry-04 §3.2.5): a string; the draft
// leaves an array open ("consider an array"), so an array of strings is
// read too, its values joined with ",".
func purposeValue(v any, name string, note func(code problem.Code, msg string)) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case []any:
		var parts []string
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				note(problem.CardBadMember, fmt.Sprintf("%s[%d] is %s, want a string; ignored", name, i, jsonKind(e)))
				continue
			}
			if s = strings.TrimSpace(s); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ",")
	}
	note(problem.CardBadMember, fmt.Sprintf("%q is %s, want a string; ignored", name, jsonKind(v)))
	return ""
}

// addPattern appends a trimmed, non-empty user-agent pattern; a pattern
// made only of '*' would match every client and is refused.
func addPattern(ps []string, p string, note func(code problem.Code, msg string)) []string {
	p = strings.TrimSpace(p)
	if p == "" {
		return ps
	}
	if strings.Trim(p, "*") == "" {
		note(problem.CardUAPatternTooBroad, fmt.Sprintf("expected-user-agent %q would match every client; ignored", p))
		return ps
	}
	return append(ps, p)
}

func isHTTPSURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.User == nil
}

func quoteShort(s string) string {
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// MatchesUA reports whether ua matches one of the card's expected user
// agents or carries its product token. A pattern matches as a prefix of the
// User-Agent (an exact match is a prefix too); '*' in a pattern matches any
// run of characters, anywhere (registry-03 §"Expected user agent"). The
// product token matches as a whole User-Agent token, case-insensitively: it
// must be bounded by characters outside [A-Za-z0-9._-] (RFC 9309 §2.2.1
// product tokens), so "ExampleBot" matches "ExampleBot/1.0" and
// "compatible; ExampleBot)" but not "ExampleBot-Image".
func (c *Card) MatchesUA(ua string) bool {
	return c.uaScore(ua) > 0
}

// uaScore says how specifically ua matches the card: 0 no match; otherwise
// the number of literal pattern characters that matched (patterns) or the
// token length (product token), whichever is larger. Exact whole-UA
// pattern matches get a bonus so that they beat prefixes.
func (c *Card) uaScore(ua string) int {
	var buf [maxUATokens]string
	return c.uaScoreTokens(ua, uaTokens(ua, buf[:0]))
}

// maxUATokens bounds the tokens split out of one User-Agent; longer ones
// fall back to scanning.
const maxUATokens = 48

// uaTokens splits ua into its maximal runs of product-token characters,
// appending to buf (no allocation while buf has room). It returns nil when
// there are more than cap(buf) tokens.
func uaTokens(ua string, buf []string) []string {
	start := -1
	for i := 0; i <= len(ua); i++ {
		if i < len(ua) && isTokenByte(ua[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if len(buf) == cap(buf) {
				return nil
			}
			buf = append(buf, ua[start:i])
			start = -1
		}
	}
	if buf == nil {
		return []string{}
	}
	return buf
}

// uaScoreTokens is uaScore with the User-Agent's tokens split out once
// (nil tokens: scan instead).
func (c *Card) uaScoreTokens(ua string, tokens []string) int {
	best := 0
	for _, p := range c.ExpectedUserAgent {
		if !globPrefix(p, ua) {
			continue
		}
		s := len(p) - strings.Count(p, "*")
		if !strings.Contains(p, "*") && len(p) == len(ua) {
			s += 1 << 16
		}
		best = max(best, s)
	}
	if tok := c.ProductToken; tok != "" && len(tok) > best {
		if tokens != nil && isProductToken(tok) {
			for _, t := range tokens {
				if len(t) == len(tok) && strings.EqualFold(t, tok) {
					best = len(tok)
					break
				}
			}
		} else if hasUAToken(ua, tok) {
			best = len(tok)
		}
	}
	return best
}

// isProductToken reports whether tok is made of product-token characters
// only (then it can only match a whole maximal run).
func isProductToken(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if !isTokenByte(tok[i]) {
			return false
		}
	}
	return true
}

// globPrefix reports whether some prefix of s matches pattern p, where '*'
// matches any run of bytes. It runs in O(len(p)*len(s)) at worst, with the
// usual greedy-with-backtrack algorithm.
func globPrefix(p, s string) bool {
	// A prefix match is a full match of p + "*".
	px, sx := 0, 0
	starP, starS := -1, -1
	for {
		if px == len(p) {
			return true // rest of s is the free suffix
		}
		if p[px] == '*' {
			starP, starS = px, sx
			px++
			continue
		}
		if sx < len(s) && p[px] == s[sx] {
			px++
			sx++
			continue
		}
		if starP >= 0 && starS < len(s) {
			starS++
			px, sx = starP+1, starS
			continue
		}
		return false
	}
}

// hasUAToken reports whether tok occurs in ua case-insensitively as a
// whole token: not preceded or followed by a product-token character.
func hasUAToken(ua, tok string) bool {
	if tok == "" || len(tok) > len(ua) {
		return false
	}
	for i := 0; i+len(tok) <= len(ua); i++ {
		if !strings.EqualFold(ua[i:i+len(tok)], tok) {
			continue
		}
		if i > 0 && isTokenByte(ua[i-1]) {
			continue
		}
		if j := i + len(tok); j < len(ua) && isTokenByte(ua[j]) {
			continue
		}
		return true
	}
	return false
}

func isTokenByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '.' || b == '_' || b == '-'
}

// Label names a card for people: its client_name, else its RFC 9309
// product token, else its client_id, else "(unnamed)".
func (c *Card) Label() string {
	switch {
	case c.Name != "":
		return c.Name
	case c.ProductToken != "":
		return c.ProductToken
	case c.ClientID != "":
		return c.ClientID
	}
	return "(unnamed)"
}
