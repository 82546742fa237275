package signature

import (
	"crypto/sha256"
	"encoding/base64"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
)

var (
	t0       = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	botURL   = "https://bot.example"
	clientIP = netip.MustParseAddr("192.0.2.1")
)

// fixture holds the keys and the usual request shape of the generated
// cases.
type fixture struct {
	ed, other *testKey
}

func newFixture(t *testing.T) *fixture {
	return &fixture{ed: newEd25519Key(t, 1), other: newEd25519Key(t, 100)}
}

// req returns a GET https://example.com/page?q=1 at t0 with the header h.
func req(h event.Header) *Request {
	return &Request{Time: t0, Method: "GET", Scheme: "https", Authority: "example.com", Target: "/page?q=1", IP: clientIP, Header: h}
}

// window is the usual signature window around t0.
func (f *fixture) params(k *testKey) string {
	return wbaParams(k, t0.Add(-10*time.Second), t0.Add(50*time.Second), "bm9uY2U")
}

// agentReq signs @authority and the Signature-Agent field (covered as
// agentIdent with value agentValue) and returns the request.
func (f *fixture) agentReq(t *testing.T, k *testKey, agentField, agentIdent, agentValue string) *Request {
	in, sig := signed(t, k, "sig1", []line{{`"@authority"`, "example.com"}, {agentIdent, agentValue}}, f.params(k))
	return req(hdr("User-Agent", "ExampleBot/1.0", "Signature-Agent", agentField, "Signature-Input", in, "Signature", sig))
}

// legacyReq is the ChatGPT-agent shape: Signature-Agent: "https://bot.example".
func (f *fixture) legacyReq(t *testing.T, k *testKey) *Request {
	return f.agentReq(t, k, `"`+botURL+`"`, `"signature-agent"`, `"`+botURL+`"`)
}

// authorityOnly signs @authority and the Signature-Agent member named
// after the label (sig1="https://bot.example"), with params p: the
// smallest request the profile accepts.
func authorityOnly(t *testing.T, k *testKey, p string, extra ...string) *Request {
	in, sig := signed(t, k, "sig1", []line{{`"@authority"`, "example.com"}, {`"signature-agent";key="sig1"`, `"` + botURL + `"`}}, p)
	return req(append(hdr("User-Agent", "ExampleBot/1.0", "Signature-Agent", `sig1="`+botURL+`"`, "Signature-Input", in, "Signature", sig), hdr(extra...)...))
}

// bareAuthority signs only @authority and sends no Signature-Agent.
func bareAuthority(t *testing.T, k *testKey, p string, extra ...string) *Request {
	in, sig := signed(t, k, "sig1", []line{{`"@authority"`, "example.com"}}, p)
	return req(append(hdr("User-Agent", "ExampleBot/1.0", "Signature-Input", in, "Signature", sig), hdr(extra...)...))
}

func dataURL(t *testing.T, k *testKey) string {
	doc := `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + k.jwk["x"] + `"}]}`
	return "data:application/http-message-signatures-directory+json;base64," + base64.StdEncoding.EncodeToString([]byte(doc))
}

type genCase struct {
	name    string
	build   func(t *testing.T, f *fixture) (*Request, *Verifier)
	verdict Verdict
	reasons []string
	agent   string // checked when non-empty
	shape   string // checked when non-empty ("none" for "")
	crypto  string // "ok", "fail" or "" (unchecked)
	evid    string // substring of Evidence, checked when non-empty
}

func srcWith(ref string, keys ...identity.Key) *memSource {
	return newMemSource().add(ref, t0.Add(-24*time.Hour), keys...)
}

// plainVerifier is a Verifier over s with default options.
func plainVerifier(s KeySource) *Verifier { return NewVerifier(s, Options{}) }

// verifyGeneratedCases are requests signed by newFixture's keys, each
// built by its case from the fixture, with the verdict expected.
var verifyGeneratedCases = []genCase{
	// The four Signature-Agent shapes, and no Signature-Agent.
	{name: "legacy sf-string", verdict: Verified, agent: botURL, shape: ShapeLegacyString, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return f.legacyReq(t, f.ed), plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "dictionary, member key differs from label", verdict: Verified, agent: botURL, shape: ShapeDictionary, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return f.agentReq(t, f.ed, `agent2="`+botURL+`"`, `"signature-agent";key="agent2"`, `"`+botURL+`"`), plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "dictionary, keys only under the well-known directory URL", verdict: Verified, agent: botURL, shape: ShapeDictionary,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return f.agentReq(t, f.ed, `agent2="`+botURL+`"`, `"signature-agent";key="agent2"`, `"`+botURL+`"`), plainVerifier(srcWith(botURL+DirectoryPath, f.ed.key))
		}},
	{name: "dictionary with two members, one covered", verdict: Verified, agent: botURL,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return f.agentReq(t, f.ed, `other="https://other.example", mine="`+botURL+`"`, `"signature-agent";key="mine"`, `"`+botURL+`"`), plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "typed directory", verdict: Verified, agent: botURL, shape: ShapeTyped,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return f.agentReq(t, f.ed, `a="`+botURL+`";type=directory`, `"signature-agent";key="a"`, `"`+botURL+`";type=directory`), plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "ietf-01: a member with parameters is still read, and noted", verdict: Verified, agent: botURL, shape: ShapeTyped,
		evid: `member "a" carries parameters (type), which draft-ietf-webbotauth-httpsig-protocol-01 prohibits`,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return f.agentReq(t, f.ed, `a="`+botURL+`";type=directory`, `"signature-agent";key="a"`, `"`+botURL+`";type=directory`), plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "ietf-01: a plain member has no such note", verdict: Verified, agent: "https://keys.example/bot.jwks", shape: ShapeJWKSURL,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			u := "https://keys.example/bot.jwks"
			r, v := f.agentReq(t, f.ed, `a="`+u+`"`, `"signature-agent";key="a"`, `"`+u+`"`), plainVerifier(srcWith(u, f.ed.key))
			if res := v.Verify(r); strings.Contains(res.Evidence, "prohibits") {
				t.Errorf("evidence %q notes parameters the member does not carry", res.Evidence)
			}
			return r, v
		}},
	{name: "typed jwks_uri", verdict: Verified, agent: "https://keys.example/bot.jwks", shape: ShapeTyped,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			u := "https://keys.example/bot.jwks"
			return f.agentReq(t, f.ed, `a="`+u+`";type=jwks_uri`, `"signature-agent";key="a"`, `"`+u+`";type=jwks_uri`), plainVerifier(srcWith(u, f.ed.key))
		}},
	{name: "typed cimd, keys under client_id", verdict: Verified, agent: botURL + "/card", shape: ShapeTyped,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			u := botURL + "/card"
			return f.agentReq(t, f.ed, `a="`+u+`";type=cimd`, `"signature-agent";key="a"`, `"`+u+`";type=cimd`), plainVerifier(srcWith(u, f.ed.key))
		}},
	{name: "typed cimd, keys under the card's jwks_uri", verdict: Verified, agent: botURL + "/card",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			u := botURL + "/card"
			s := srcWith("https://keys.example/k2", f.ed.key)
			s.cards = []*identity.Card{{ClientID: u, JWKSURI: "https://keys.example/k2"}}
			return f.agentReq(t, f.ed, `a="`+u+`";type=cimd`, `"signature-agent";key="a"`, `"`+u+`";type=cimd`), plainVerifier(cardSource{s})
		}},
	{name: "newest WG text: JWK Set URL member", verdict: Verified, agent: "https://keys.example/bot.jwks", shape: ShapeJWKSURL,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			u := "https://keys.example/bot.jwks"
			return f.agentReq(t, f.ed, `a="`+u+`"`, `"signature-agent";key="a"`, `"`+u+`"`), plainVerifier(srcWith(u, f.ed.key))
		}},
	{name: "data: URL inline directory is self-asserted", verdict: Unverified, reasons: []string{ReasonSelfAssertedKey}, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			d := dataURL(t, f.ed)
			return f.agentReq(t, f.ed, `a="`+d+`"`, `"signature-agent";key="a"`, `"`+d+`"`), plainVerifier(newMemSource())
		}},
	{name: "data: URL key also in trust store", verdict: Verified, agent: TrustedStore,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			d := dataURL(t, f.ed)
			s := newMemSource()
			s.trusted = []identity.Key{f.ed.key}
			return f.agentReq(t, f.ed, `a="`+d+`"`, `"signature-agent";key="a"`, `"`+d+`"`), plainVerifier(s)
		}},
	{name: "data: URL with a tampered signature", verdict: Invalid, reasons: []string{ReasonBadSignature, ReasonSelfAssertedKey}, crypto: "fail",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			d := dataURL(t, f.ed)
			r := f.agentReq(t, f.ed, `a="`+d+`"`, `"signature-agent";key="a"`, `"`+d+`"`)
			r.Authority = "evil.example"
			return r, plainVerifier(newMemSource())
		}},
	{name: "no Signature-Agent, trusted store", verdict: Unverified, reasons: []string{ReasonAgentAbsent}, crypto: "ok", agent: TrustedStore, shape: "none",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			s := newMemSource()
			s.trusted = []identity.Key{f.ed.key}
			return bareAuthority(t, f.ed, f.params(f.ed)), plainVerifier(s)
		}},
	{name: "no Signature-Agent, card claimed by User-Agent", verdict: Unverified, reasons: []string{ReasonAgentAbsent}, crypto: "ok", agent: botURL + "/card",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			s := srcWith(botURL+"/card", f.ed.key)
			s.cards = []*identity.Card{{ClientID: botURL + "/card", ExpectedUserAgent: []string{"ExampleBot/"}}}
			return bareAuthority(t, f.ed, f.params(f.ed)), plainVerifier(cardSource{s})
		}},
	{name: "no Signature-Agent, claimed local card without client_id", verdict: Unverified, reasons: []string{ReasonAgentAbsent}, crypto: "ok", agent: "local-card.json",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			s := newMemSource()
			s.cards = []*identity.Card{{Source: "local-card.json", ExpectedUserAgent: []string{"ExampleBot/"}, JWKS: []identity.Key{f.ed.key}}}
			return bareAuthority(t, f.ed, f.params(f.ed)), plainVerifier(cardSource{s})
		}},
	{name: "no Signature-Agent, claimed card is invalid", verdict: Unverified, reasons: []string{ReasonAgentAbsent},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			s := newMemSource()
			s.cards = []*identity.Card{{ClientID: botURL + "/card", Invalid: "jwks-and-jwks-uri", ExpectedUserAgent: []string{"ExampleBot/"}, JWKS: []identity.Key{f.ed.key}}}
			return bareAuthority(t, f.ed, f.params(f.ed)), plainVerifier(cardSource{s})
		}},
	{name: "no Signature-Agent, claimed card lacks the key", verdict: Invalid, reasons: []string{ReasonKeyUnknown, ReasonAgentAbsent}, agent: botURL + "/card",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			s := srcWith(botURL+"/card", f.other.key)
			s.cards = []*identity.Card{{ClientID: botURL + "/card", ExpectedUserAgent: []string{"ExampleBot/"}}}
			return bareAuthority(t, f.ed, f.params(f.ed)), plainVerifier(cardSource{s})
		}},
	{name: "no Signature-Agent, no keys", verdict: Unverified, reasons: []string{ReasonAgentAbsent},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return bareAuthority(t, f.ed, f.params(f.ed)), plainVerifier(newMemSource())
		}},
	{name: "whole field covered, member named after the label", verdict: Verified, agent: botURL,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			field := `other="https://other.example", sig1="` + botURL + `"`
			return f.agentReq(t, f.ed, field, `"signature-agent"`, field), plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "whole field covered, several members, none the label's", verdict: Invalid, reasons: []string{ReasonAgentAmbiguous}, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			field := `a="https://other.example", b="` + botURL + `"`
			s := srcWith(botURL, f.ed.key)
			s.trusted = []identity.Key{f.ed.key}
			return f.agentReq(t, f.ed, field, `"signature-agent"`, field), plainVerifier(s)
		}},
	{name: "untyped member with a path, no JWK Set known there, trusted key", verdict: Unverified, reasons: []string{ReasonAgentNotOrigin}, crypto: "ok", shape: ShapeDictionary,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			u := botURL + "/keys"
			s := newMemSource()
			s.trusted = []identity.Key{f.ed.key}
			return f.agentReq(t, f.ed, `sig1="`+u+`"`, `"signature-agent";key="sig1"`, `"`+u+`"`), plainVerifier(s)
		}},
	{name: "typed directory with a path", verdict: Unverified, reasons: []string{ReasonAgentNotOrigin}, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			u := botURL + "/keys"
			s := srcWith(u, f.ed.key)
			s.trusted = []identity.Key{f.ed.key}
			return f.agentReq(t, f.ed, `a="`+u+`";type=directory`, `"signature-agent";key="a"`, `"`+u+`";type=directory`), plainVerifier(s)
		}},
	{name: "directory origin with a query", verdict: Unverified, reasons: []string{ReasonAgentNotOrigin},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			u := botURL + "/?k=1"
			return f.agentReq(t, f.ed, `a="`+u+`"`, `"signature-agent";key="a"`, `"`+u+`"`), plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "nil KeySource", verdict: Unverified, reasons: []string{ReasonNoKeySnapshot},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return f.legacyReq(t, f.ed), plainVerifier(nil)
		}},

	// Verdict rules.
	{name: "unsigned", verdict: Unsigned,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return req(hdr("User-Agent", "ExampleBot/1.0")), plainVerifier(newMemSource())
		}},
	{name: "Signature without Signature-Input", verdict: Invalid, reasons: []string{ReasonInputUnreadable},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return req(hdr("Signature", "sig1=:AAAA:")), plainVerifier(newMemSource())
		}},
	{name: "Signature-Input without Signature", verdict: Invalid, reasons: []string{ReasonValueUnreadable},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return req(hdr("Signature-Input", `sig1=("@authority");created=1`)), plainVerifier(newMemSource())
		}},
	{name: "no Signature member for the label", verdict: Invalid, reasons: []string{ReasonValueUnreadable},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r := f.legacyReq(t, f.ed)
			r.Header[3].Value = strings.Replace(r.Header[3].Value, "sig1=", "sig9=", 1)
			return r, plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "missing expires, crypto still checked", verdict: Invalid, reasons: []string{ReasonMissingFields}, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			p := ";created=" + strconv.FormatInt(t0.Unix(), 10) + ";keyid=" + strconv.Quote(f.ed.key.Thumbprint) + `;tag="web-bot-auth"`
			s := newMemSource()
			s.trusted = []identity.Key{f.ed.key}
			return authorityOnly(t, f.ed, p), plainVerifier(s)
		}},
	{name: "untagged signature", verdict: Invalid, reasons: []string{ReasonMissingFields}, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			p := strings.Replace(f.params(f.ed), `;tag="web-bot-auth"`, "", 1)
			s := newMemSource()
			s.trusted = []identity.Key{f.ed.key}
			return authorityOnly(t, f.ed, p), plainVerifier(s)
		}},
	{name: "only a foreign tag", verdict: Invalid, reasons: []string{ReasonForeignTag},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			p := strings.Replace(f.params(f.ed), "web-bot-auth", "other-profile", 1)
			return authorityOnly(t, f.ed, p), plainVerifier(newMemSource())
		}},
	{name: "foreign tag beside a web-bot-auth signature", verdict: Verified, evid: "also ignored: sigx tag=\"other\"",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r := f.legacyReq(t, f.ed)
			r.Header = append(r.Header, hdr("Signature-Input", `sigx=("@method");tag="other"`, "Signature", "sigx=:AAAA:")...)
			return r, plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "two web-bot-auth signatures, the second good", verdict: Verified, evid: "sig2 ",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			lines := []line{{`"@authority"`, "example.com"}, {`"signature-agent"`, `"` + botURL + `"`}}
			in1, sig1 := signed(t, f.other, "sig1", lines, f.params(f.other))
			in2, sig2 := signed(t, f.ed, "sig2", lines, f.params(f.ed))
			return req(hdr("Signature-Agent", `"`+botURL+`"`, "Signature-Input", in1, "Signature-Input", in2, "Signature", sig1+", "+strings.TrimPrefix(sig2, " "))),
				plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "unparseable Signature-Input", verdict: Invalid, reasons: []string{ReasonInputUnreadable},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return req(hdr("Signature-Input", `sig1=(("`, "Signature", "sig1=:AAAA:")), plainVerifier(newMemSource())
		}},
	{name: "nginx \\x22 left escaped in Signature-Input", verdict: Invalid, reasons: []string{ReasonInputUnreadable},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r := f.legacyReq(t, f.ed)
			r.Header[2].Value = strings.ReplaceAll(r.Header[2].Value, `"`, `\x22`)
			return r, plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "nginx \\x22 left escaped in Signature-Agent", verdict: Invalid, reasons: []string{ReasonAgentUnparsable},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r := f.legacyReq(t, f.ed)
			r.Header[1].Value = strings.ReplaceAll(r.Header[1].Value, `"`, `\x22`)
			return r, plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "Signature not a byte sequence", verdict: Invalid, reasons: []string{ReasonValueUnreadable},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r := f.legacyReq(t, f.ed)
			r.Header[3].Value = `sig1="not bytes"`
			return r, plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "duplicate component", verdict: Invalid, reasons: []string{ReasonDuplicateComponent}, crypto: "fail", // RFC 9421 §2.5: the base is never built
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			in, sig := signed(t, f.ed, "sig1", []line{{`"@authority"`, "example.com"}, {`"@authority"`, "example.com"}, {`"signature-agent"`, `"` + botURL + `"`}}, f.params(f.ed))
			return req(hdr("Signature-Agent", `"`+botURL+`"`, "Signature-Input", in, "Signature", sig)), plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "target not covered", verdict: Invalid, reasons: []string{ReasonTargetNotCovered}, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			in, sig := signed(t, f.ed, "sig1", []line{{`"signature-agent"`, `"` + botURL + `"`}}, f.params(f.ed))
			return req(hdr("Signature-Agent", `"`+botURL+`"`, "Signature-Input", in, "Signature", sig)), plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "@target-uri instead of @authority", verdict: Verified,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			in, sig := signed(t, f.ed, "sig1", []line{{`"@target-uri"`, "https://example.com/page?q=1"}, {`"signature-agent"`, `"` + botURL + `"`}}, f.params(f.ed))
			return req(hdr("Signature-Agent", `"`+botURL+`"`, "Signature-Input", in, "Signature", sig)), plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "Signature-Agent present but not covered", verdict: Invalid, reasons: []string{ReasonAgentMemberMissing}, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return bareAuthority(t, f.ed, f.params(f.ed), "Signature-Agent", `"`+botURL+`"`), plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "covered member absent from Signature-Agent", verdict: Invalid, reasons: []string{ReasonAgentMemberMissing},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r := f.agentReq(t, f.ed, `agent2="`+botURL+`"`, `"signature-agent";key="agent2"`, `"`+botURL+`"`)
			r.Header[1].Value = `agent3="` + botURL + `"`
			return r, plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "signature-agent covered, field absent", verdict: Invalid, reasons: []string{ReasonAgentMemberMissing},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r := f.legacyReq(t, f.ed)
			r.Header = slices.Delete(r.Header, 1, 2)
			return r, plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "non-https agent", verdict: Invalid, reasons: []string{ReasonAgentNotHTTPS}, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			u := "http://bot.example"
			return f.agentReq(t, f.ed, `"`+u+`"`, `"signature-agent"`, `"`+u+`"`), plainVerifier(srcWith(u, f.ed.key))
		}},
	{name: "alg hmac-sha256", verdict: Invalid, reasons: []string{ReasonForbiddenAlg},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			s := newMemSource()
			s.trusted = []identity.Key{f.ed.key}
			return authorityOnly(t, f.ed, f.params(f.ed)+`;alg="hmac-sha256"`), plainVerifier(s)
		}},
	{name: "alg not the key's", verdict: Invalid, reasons: []string{ReasonForbiddenAlg},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			s := newMemSource()
			s.trusted = []identity.Key{f.ed.key}
			return authorityOnly(t, f.ed, f.params(f.ed)+`;alg="rsa-pss-sha512"`), plainVerifier(s)
		}},
	{name: "alg ed25519 matches", verdict: Verified,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			s := newMemSource()
			s.trusted = []identity.Key{f.ed.key}
			return authorityOnly(t, f.ed, `;alg="ed25519"`+f.params(f.ed)), plainVerifier(s)
		}},
	{name: "key unknown to the agent's snapshot", verdict: Invalid, reasons: []string{ReasonKeyUnknown}, agent: botURL,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return f.legacyReq(t, f.ed), plainVerifier(srcWith(botURL, f.other.key))
		}},
	{name: "key expired (JWK exp) at T", verdict: Invalid, reasons: []string{ReasonKeyUnknown}, evid: "nbf/exp",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			k := f.ed.key
			k.Expires = t0.Add(-time.Hour)
			return f.legacyReq(t, f.ed), plainVerifier(srcWith(botURL, k))
		}},
	{name: "no key snapshot for the agent", verdict: Unverified, reasons: []string{ReasonNoKeySnapshot}, agent: botURL,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return f.legacyReq(t, f.ed), plainVerifier(srcWith("https://someone-else.example", f.ed.key))
		}},
	{name: "bad signature", verdict: Invalid, reasons: []string{ReasonBadSignature}, crypto: "fail",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r := f.legacyReq(t, f.ed)
			r.Authority = "evil.example"
			return r, plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "buggy signer: empty @path", verdict: Invalid, reasons: []string{ReasonCanonicalizationMismatch}, crypto: "fail", evid: "buggy signer",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			in, sig := signed(t, f.ed, "sig1", []line{{`"@authority"`, "example.com"}, {`"@path"`, ""}, {`"signature-agent"`, `"` + botURL + `"`}}, f.params(f.ed))
			r := req(hdr("Signature-Agent", `"`+botURL+`"`, "Signature-Input", in, "Signature", sig))
			r.Target = "/"
			return r, plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "buggy signer: non-canonical @signature-params", verdict: Invalid, reasons: []string{ReasonCanonicalizationMismatch}, evid: "non-canonical",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			inner := `( "@authority"  "signature-agent" )` + f.params(f.ed)
			base := "\"@authority\": example.com\n\"signature-agent\": \"" + botURL + "\"\n\"@signature-params\": " + inner
			sig := base64.StdEncoding.EncodeToString(f.ed.sign(t, base))
			return req(hdr("Signature-Agent", `"`+botURL+`"`, "Signature-Input", "sig1="+inner, "Signature", "sig1=:"+sig+":")), plainVerifier(srcWith(botURL, f.ed.key))
		}},

	// The window against T.
	{name: "expired, crypto verified", verdict: Invalid, reasons: []string{ReasonExpired}, crypto: "ok", evid: "verifies over the base",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return authorityOnlyTrusted(t, f, t0.Add(-2*time.Hour), t0.Add(-time.Hour))
		}},
	{name: "expired 30s ago, inside skew", verdict: Verified,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return authorityOnlyTrusted(t, f, t0.Add(-time.Minute), t0.Add(-30*time.Second))
		}},
	{name: "expired 30s ago, zero skew", verdict: Invalid, reasons: []string{ReasonExpired},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r, v := authorityOnlyTrusted(t, f, t0.Add(-time.Minute), t0.Add(-30*time.Second))
			return r, NewVerifier(v.keys, Options{Skew: -1})
		}},
	{name: "created in the future", verdict: Invalid, reasons: []string{ReasonClockAhead},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return authorityOnlyTrusted(t, f, t0.Add(5*time.Minute), t0.Add(10*time.Minute))
		}},
	{name: "created 30s ahead, inside skew", verdict: Verified,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return authorityOnlyTrusted(t, f, t0.Add(30*time.Second), t0.Add(10*time.Minute))
		}},
	{name: "time unknown", verdict: Unverified, reasons: []string{ReasonTimeUnknown}, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r, v := authorityOnlyTrusted(t, f, t0, t0.Add(time.Minute))
			r.Time = time.Time{}
			return r, v
		}},

	// Content-Digest and covered fields the source may not record.
	{name: "content-digest covered, no body", verdict: Verified, reasons: []string{ReasonContentDigestUnchecked},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r, v := digestReq(t, f, "hello")
			return r, v
		}},
	{name: "content-digest matches body", verdict: Verified,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r, v := digestReq(t, f, "hello")
			r.Body = []byte("hello")
			return r, v
		}},
	{name: "content-digest does not match body", verdict: Invalid, reasons: []string{ReasonContentDigestMismatch}, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r, v := digestReq(t, f, "hello")
			r.Body = []byte("HELLO")
			return r, v
		}},
	{name: "covered header not in the log", verdict: Unverified, reasons: []string{ReasonComponentUnrecorded},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return acceptReq(t, f, false)
		}},
	{name: "covered header absent from a complete WARC request", verdict: Invalid, reasons: []string{ReasonMissingComponent},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			return acceptReq(t, f, true)
		}},

	// Other algorithms.
	{name: "rsa-pss-sha512", verdict: Verified, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			k := newRSAKey(t, AlgRSAPSSSHA512)
			in, sig := signed(t, k, "sig1", []line{{`"@authority"`, "example.com"}, {`"signature-agent"`, `"` + botURL + `"`}}, `;alg="rsa-pss-sha512"`+f.params(k))
			return req(hdr("Signature-Agent", `"`+botURL+`"`, "Signature-Input", in, "Signature", sig)), plainVerifier(srcWith(botURL, k.key))
		}},
	{name: "rsa-v1_5-sha256 without alg", verdict: Verified, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			k := newRSAKey(t, AlgRSAv15SHA256)
			s := newMemSource()
			s.trusted = []identity.Key{k.key}
			return authorityOnly(t, k, f.params(k)), plainVerifier(s)
		}},
	{name: "ecdsa-p256-sha256 (r||s)", verdict: Verified, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			k := newECKey(t)
			s := newMemSource()
			s.trusted = []identity.Key{k.key}
			return authorityOnly(t, k, f.params(k)), plainVerifier(s)
		}},
	{name: "ecdsa key, JWK alg ES256 but alg ed25519", verdict: Invalid, reasons: []string{ReasonForbiddenAlg},
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			k := newECKey(t)
			s := newMemSource()
			key := k.key
			key.Alg = "ES256"
			s.trusted = []identity.Key{key}
			return authorityOnly(t, k, f.params(k)+`;alg="ed25519"`), plainVerifier(s)
		}},

	// Test keys.
	{name: "key marked as a test key", verdict: Invalid, reasons: []string{ReasonTestKey}, crypto: "ok",
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			k := f.ed.key
			k.TestKey = true
			return f.legacyReq(t, f.ed), plainVerifier(srcWith(botURL, k))
		}},
	{name: "test key allowed", verdict: Verified,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			k := f.ed.key
			k.TestKey = true
			return f.legacyReq(t, f.ed), NewVerifier(srcWith(botURL, k), Options{AllowTestKeys: true})
		}},

	// Field handling.
	{name: "Host with default port and capitals", verdict: Verified,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r := f.legacyReq(t, f.ed)
			r.Authority = "Example.COM:443"
			return r, plainVerifier(srcWith(botURL, f.ed.key))
		}},
	{name: "Signature-Input and Signature over several field lines", verdict: Verified,
		build: func(t *testing.T, f *fixture) (*Request, *Verifier) {
			r := f.legacyReq(t, f.ed)
			r.Header = append(r.Header, hdr("Signature-Input", `sigz=("@method");tag="zzz"`, "Signature", "sigz=:AAAA:")...)
			return r, plainVerifier(srcWith(botURL, f.ed.key))
		}},
}

func TestVerifyGenerated(t *testing.T) {
	f := newFixture(t)
	for _, c := range verifyGeneratedCases {
		t.Run(c.name, func(t *testing.T) {
			r, v := c.build(t, f)
			res := v.Verify(r)
			if res.Verdict != c.verdict || !slices.Equal(res.Reasons, c.reasons) {
				t.Errorf("got %s %v, want %s %v\nevidence: %s", res.Verdict, res.Reasons, c.verdict, c.reasons, res.Evidence)
			}
			if c.agent != "" && res.Agent != c.agent {
				t.Errorf("got agent %q, want %q", res.Agent, c.agent)
			}
			if c.shape == "none" && res.AgentShape != "" || c.shape != "none" && c.shape != "" && res.AgentShape != c.shape {
				t.Errorf("got shape %q, want %q", res.AgentShape, c.shape)
			}
			if c.crypto != "" && res.CryptoOK != (c.crypto == "ok") {
				t.Errorf("got CryptoOK %v, want %s; evidence: %s", res.CryptoOK, c.crypto, res.Evidence)
			}
			if c.evid != "" && !strings.Contains(res.Evidence, c.evid) {
				t.Errorf("evidence %q does not contain %q", res.Evidence, c.evid)
			}
			if res.Verdict != Unsigned && res.Evidence == "" {
				t.Error("no evidence")
			}
		})
	}
}

func authorityOnlyTrusted(t *testing.T, f *fixture, created, expires time.Time) (*Request, *Verifier) {
	s := newMemSource()
	s.trusted = []identity.Key{f.ed.key}
	return authorityOnly(t, f.ed, wbaParams(f.ed, created, expires, "")), NewVerifier(s, Options{})
}

// digestReq signs a request covering Content-Digest for body.
func digestReq(t *testing.T, f *fixture, body string) (*Request, *Verifier) {
	h := sha256.Sum256([]byte(body))
	cd := "sha-256=:" + base64.StdEncoding.EncodeToString(h[:]) + ":"
	in, sig := signed(t, f.ed, "sig1", []line{{`"@authority"`, "example.com"}, {`"content-digest"`, cd}, {`"signature-agent"`, `"` + botURL + `"`}}, f.params(f.ed))
	s := newMemSource()
	s.trusted = []identity.Key{f.ed.key}
	r := req(hdr("Content-Digest", cd, "Signature-Agent", `"`+botURL+`"`, "Signature-Input", in, "Signature", sig))
	r.Method = "POST"
	return r, NewVerifier(s, Options{})
}

// acceptReq signs a request covering Accept, then drops Accept as a log
// format that does not record it would.
func acceptReq(t *testing.T, f *fixture, complete bool) (*Request, *Verifier) {
	in, sig := signed(t, f.ed, "sig1", []line{{`"@authority"`, "example.com"}, {`"accept"`, "text/html"}, {`"signature-agent"`, `"` + botURL + `"`}}, f.params(f.ed))
	s := newMemSource()
	s.trusted = []identity.Key{f.ed.key}
	r := req(hdr("Signature-Agent", `"`+botURL+`"`, "Signature-Input", in, "Signature", sig))
	r.HeadersComplete = complete
	return r, NewVerifier(s, Options{})
}

// TestKeyRotation follows a key through two directory snapshots: key A
// published from day −30, replaced by key B from day −10. A request is
// judged by the snapshot in force at its own time.
func TestKeyRotation(t *testing.T) {
	a, b := newEd25519Key(t, 10), newEd25519Key(t, 20)
	src := newMemSource().
		add(botURL, t0.Add(-30*24*time.Hour), a.key).
		add(botURL, t0.Add(-10*24*time.Hour), b.key)
	v := NewVerifier(src, Options{})
	for _, c := range []struct {
		name    string
		k       *testKey
		at      time.Time
		verdict Verdict
		reasons []string
	}{
		{"A while published", a, t0.Add(-20 * 24 * time.Hour), Verified, nil},
		{"A after rotation", a, t0, Invalid, []string{ReasonKeyUnknown}},
		{"B after rotation", b, t0, Verified, nil},
		{"B before it was published", b, t0.Add(-20 * 24 * time.Hour), Invalid, []string{ReasonKeyUnknown}},
		{"A before any snapshot", a, t0.Add(-40 * 24 * time.Hour), Unverified, []string{ReasonNoKeySnapshot}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, sig := signed(t, c.k, "sig1", []line{{`"@authority"`, "example.com"}, {`"signature-agent"`, `"` + botURL + `"`}},
				wbaParams(c.k, c.at, c.at.Add(time.Minute), ""))
			r := req(hdr("Signature-Agent", `"`+botURL+`"`, "Signature-Input", in, "Signature", sig))
			r.Time = c.at
			res := v.Verify(r)
			if res.Verdict != c.verdict || !slices.Equal(res.Reasons, c.reasons) {
				t.Errorf("got %s %v, want %s %v\nevidence: %s", res.Verdict, res.Reasons, c.verdict, c.reasons, res.Evidence)
			}
		})
	}
}

// TestIdentityStoreIsKeySource checks that *identity.Store plugs in,
// including cards (CardSource) and trusted keys.
func TestIdentityStoreIsKeySource(t *testing.T) {
	var _ KeySource = (*identity.Store)(nil)
	var _ CardSource = (*identity.Store)(nil)
	f := newFixture(t)
	st := identity.NewStore()
	st.AddKeys(botURL+DirectoryPath, []identity.Key{f.ed.key}, t0.Add(-time.Hour))
	v := NewVerifier(st, Options{})
	if res := v.Verify(f.legacyReq(t, f.ed)); res.Verdict != Verified {
		t.Errorf("directory via Store: got %s %v; %s", res.Verdict, res.Reasons, res.Evidence)
	}
	if res := v.Verify(f.legacyReq(t, f.other)); res.Verdict != Invalid || !slices.Equal(res.Reasons, []string{ReasonKeyUnknown}) {
		t.Errorf("other key via Store: got %s %v; %s", res.Verdict, res.Reasons, res.Evidence)
	}
}

func TestRequestFromFetch(t *testing.T) {
	f := &event.Fetch{
		Time: t0, ClientIP: clientIP, Method: "GET", Scheme: "https", Host: "example.com", Target: "/a?b",
		Header: hdr("Host", "Example.com:8443", "User-Agent", "x"), Origin: event.OriginWARC,
		Source: event.Source{File: "a.warc.gz", Offset: 1234},
	}
	r := RequestFromFetch(f)
	if r.Authority != "Example.com:8443" || r.authority() != "example.com:8443" {
		t.Errorf("got authority %q (%q), want the Host field as sent", r.Authority, r.authority())
	}
	if !r.HeadersComplete || r.Where != "a.warc.gz@1234" || r.Target != "/a?b" || r.IP != clientIP || !r.Time.Equal(t0) {
		t.Errorf("got %+v", r)
	}
	f.Header, f.Origin = nil, event.OriginLog
	if r := RequestFromFetch(f); r.Authority != "example.com" || r.HeadersComplete {
		t.Errorf("log fetch without Host: got authority %q complete %v", r.Authority, r.HeadersComplete)
	}
}
