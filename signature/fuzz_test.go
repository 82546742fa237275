package signature

import (
	"slices"
	"testing"
	"time"

	"github.com/dunglas/httpsfv"
	"github.com/repaudit/repaudit/identity"
)

const (
	seedInput = `sig1=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="XeP72svPKNiGEg3aDE7WJuTpN69H08oMFqC8NLFy1MptpENAT3WZTYwK+MYdsFMlaqHCJGo9ZAhqer1NWY9Epg==";tag="web-bot-auth"`
	seedSig   = `sig1=:DGiW2ErlQh0hc8wY2FQdbnFd6CEmonyY8nlvECIJFaUSYYNvNvSsGyP99BUGtq51gA4ouXlkUwjnta084bpjCg==:`
)

// FuzzParseSignatureInput checks that reading any Signature-Input never
// panics and that the @signature-params serialization is a fixed point:
// what we sign-check re-parses to itself.
func FuzzParseSignatureInput(f *testing.F) {
	for _, s := range []string{
		seedInput,
		`sig1=("@authority");created=1;expires=2;keyid="k";tag="web-bot-auth", sig2=("@method" "@path");tag=x`,
		`sig1=( "@authority"  "x";key="a,b");created=1;keyid="k,(";tag="t"`,
		`a=1, b=(1 2), c=?0;x=1.5, d="s\"q", e=:AAAA:, f=@1, g=%"d%c3%a9"`,
		`sig1=(("`,
		``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		d, err := httpsfv.UnmarshalDictionary([]string{in})
		if err != nil {
			return
		}
		for _, label := range d.Names() {
			_ = rawMember(in, label)
			mem, _ := d.Get(label)
			il, ok := mem.(httpsfv.InnerList)
			if !ok {
				continue
			}
			_ = readParams(il.Params)
			comps, _, _ := parseComponents(il)
			m := &message{req: &Request{Method: "GET", Authority: "example.com", Target: "/?a=b"}}
			for i := range comps {
				_, _ = m.value(&comps[i], quirks{})
			}
			s, err := httpsfv.Marshal(il)
			if err != nil {
				continue
			}
			again, err := httpsfv.UnmarshalDictionary([]string{"x=" + s})
			if err != nil {
				t.Fatalf("serialization %q of %q does not re-parse: %v", s, in, err)
			}
			m2, _ := again.Get("x")
			s2, err := httpsfv.Marshal(m2)
			if err != nil || s2 != s {
				t.Fatalf("serialization not a fixed point: %q then %q (%v)", s, s2, err)
			}
		}
	})
}

// FuzzVerify feeds arbitrary header values through Verify and the replay
// detector: no panics, a known verdict, reasons known and in order.
func FuzzVerify(f *testing.F) {
	f.Add(seedInput, seedSig, `agent2="https://signature-agent.test"`, "/path/to/resource", "example.com")
	f.Add(seedInput, seedSig, `"https://signature-agent.test"`, "/", "EXAMPLE.com:443")
	f.Add(`sig1=("@query-param";name="a" "@path" "x";sf "y";bs "@target-uri");created=1;expires=2;keyid="k";tag="web-bot-auth"`, `sig1=:AAAA:`, `a="data:,{}";type=jwks_uri`, "/?a=1&a=2", "[::1]:8080")
	f.Add(`sig1=("signature-agent";key="a" "content-digest");created=1;expires=2;keyid="k";tag="web-bot-auth"`, `sig1=:AAAA:`, `a=https://x;type=cimd, b=?1`, "http://h/p?q", "")
	f.Add(`sig1=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;tag="web-bot-auth"`, seedSig, `first="https://signature-agent.test", second="https://other-agent.test"`, "/", "example.com")
	f.Add(`sig1=("@authority" "signature-agent";key="sig1");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";expires=4889289600;tag="web-bot-auth"`, seedSig, `sig1="https://signature-agent.test/keys?x#y";type=directory`, "/", "example.com")
	f.Add(`sig1=("@authority" "@authority");created=1;expires=2;keyid="k";tag="web-bot-auth"`, `sig9=:AAAA:`, `sig1="https://signature-agent.test`, "/", "example.com")
	f.Add("", "", "", "", "")
	ed, _, _ := identity.ParseJWKS([]byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}`), "seed")
	src := newMemSource().add("https://signature-agent.test", time.Time{}, ed...)
	src.trusted = ed
	v := NewVerifier(cardSource{src}, Options{AllowTestKeys: true})
	f.Fuzz(func(t *testing.T, input, sig, agent, target, authority string) {
		r := &Request{
			Time: time.Unix(1735689630, 0), Method: "GET", Authority: authority, Target: target,
			Header: hdr("Signature-Agent", agent, "Signature-Input", input, "Signature", sig, "Content-Digest", "sha-256=:AAAA:", "X", agent, "Y", input),
			Body:   []byte(sig),
		}
		res := v.Verify(r)
		switch res.Verdict {
		case Verified, Invalid, Unverified, Unsigned:
		default:
			t.Fatalf("unknown verdict %q", res.Verdict)
		}
		for _, reason := range res.Reasons {
			if !slices.Contains(reasonOrder, reason) {
				t.Fatalf("unknown reason %q", reason)
			}
		}
		if !slices.IsSortedFunc(res.Reasons, func(a, b string) int {
			return slices.Index(reasonOrder, a) - slices.Index(reasonOrder, b)
		}) {
			t.Fatalf("reasons out of order: %v", res.Reasons)
		}
		if res.Verdict == Verified && (!res.CryptoOK || len(res.Reasons) > 0 && IsFailure(res.Reasons[0])) {
			t.Fatalf("verified without crypto or with a failure: %+v", res)
		}
		if len(res.Base) > maxBaseInStore+len("…") {
			t.Fatalf("base not capped: %d bytes", len(res.Base))
		}
		d := NewReplayDetector(4)
		d.Observe(r, res)
		d.Observe(r, res)
	})
}

// FuzzParseRequestJSON: any line either becomes a request or an error,
// never both and never a panic; a request verifies without panicking.
func FuzzParseRequestJSON(f *testing.F) {
	for _, s := range []string{
		`{"time":"2025-06-01T12:00:00Z","method":"GET","authority":"example.com","path":"/a","ip":"192.0.2.1","headers":{"Signature":["sig1=:AAAA:"],"Signature-Input":"sig1=(\"@authority\");tag=\"web-bot-auth\"","Signature-Agent":"sig1=\"https://a.example/jwks.json\""}}`,
		`{"headers_complete":true,"body_b64":"aGVsbG8=","headers":{"Content-Digest":"sha-256=:AAAA:"}}`,
		`{"body_b64":""}`,
		`{"headers":{"a":[1]}}`,
		`{"ip":"::ffff:192.0.2.1","time":"x"}`,
		`[]`,
	} {
		f.Add([]byte(s))
	}
	v := NewVerifier(identity.NewStore(), Options{})
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := ParseRequestJSON(line)
		if err != nil {
			if r != nil {
				t.Fatalf("request and error both returned for %q", line)
			}
			return
		}
		if !r.Time.IsZero() && r.Time.Location() != time.UTC {
			t.Fatalf("time not UTC: %v", r.Time)
		}
		v.Verify(r)
	})
}
