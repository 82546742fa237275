package signature

import (
	"encoding/json"
	"net/url"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/internal/fixtures"
)

// negativeVectors is shared/fixtures/webbotauth/web_bot_auth_negative_vectors.json
// (beside the repository), an extract of the public Web Bot Auth negative
// vector set (see the README there for its source and commit).
type negativeVectors struct {
	Key struct {
		JWK map[string]string `json:"jwk"`
	} `json:"key"`
	Tests []struct {
		ID       string `json:"id"`
		Title    string `json:"title"`
		Expected struct {
			Outcome string `json:"outcome"`
			Reason  string `json:"reason"`
		} `json:"expected"`
		Now     int64 `json:"now"`
		Request struct {
			Method  string            `json:"method"`
			URL     string            `json:"url"`
			Headers map[string]string `json:"headers"`
			Body    *string           `json:"body"`
		} `json:"request"`
		DirectoryFor *string `json:"directory_for"`
		BaseDiffers  bool    `json:"base_differs"`
	} `json:"tests"`
}

// negativeReasons is every reason repaudit gives each vector: the set's
// expected reason first-class, plus any other problem the same request
// really has (the vector isolates one fault; where a second one follows
// from it, it is listed and explained).
var negativeReasons = map[string][]string{
	"NV-01": {ReasonTargetNotCovered},
	"NV-03": {ReasonMissingFields},
	"NV-04": {ReasonExpired},
	"NV-05": {ReasonClockAhead},
	"NV-06": {ReasonBadSignature},
	"NV-07": {ReasonCanonicalizationMismatch},
	"NV-08": {ReasonContentDigestMismatch},
	"NV-09": {ReasonMissingComponent},
	"NV-10": {ReasonInputUnreadable},
	"NV-11": {ReasonValueUnreadable},
	"NV-19": {ReasonDuplicateComponent},
	// No key lookup can start without a Signature-Agent; with the key
	// trusted it verifies but stays unverified.
	"NV-12": {ReasonAgentAbsent},
	"NV-13": {ReasonAgentAmbiguous},
	// The base cannot be built: the covered member is absent.
	"NV-14": {ReasonAgentMemberMissing},
	"NV-16": {ReasonAgentNotHTTPS},
	"NV-17": {ReasonAgentNotOrigin},
	"NV-18": {ReasonAgentUnparsable},
}

// TestNegativeVectors runs all 17 requests of the public negative vector
// set twice: with the key published in the agent's directory (as the set
// supplies it) and with the key only in the local trust store (--jwks). The
// Signature-Agent rules hold whatever the source of the key, so the
// outcome and reason are the same both ways. Every request is a whole
// request (headers_complete).
func TestNegativeVectors(t *testing.T) {
	data, err := os.ReadFile(fixtures.Path(t, "webbotauth/web_bot_auth_negative_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var set negativeVectors
	if err := json.Unmarshal(data, &set); err != nil {
		t.Fatal(err)
	}
	if len(set.Tests) != 17 {
		t.Fatalf("got %d vectors, want 17", len(set.Tests))
	}
	jwks, _ := json.Marshal(map[string]any{"keys": []map[string]string{set.Key.JWK}})
	keys, _, err := identity.ParseJWKS(jwks, "negative vectors")
	if err != nil || len(keys) != 1 || keys[0].Thumbprint != thumbEd25519 {
		t.Fatalf("vector key: %v %v", keys, err)
	}
	key := keys[0]

	for _, vec := range set.Tests {
		want, ok := negativeReasons[vec.ID]
		if !ok {
			t.Errorf("%s: no expected reasons listed", vec.ID)
			continue
		}
		if want[0] != vec.Expected.Reason {
			t.Errorf("%s: table names %s first, the set expects %s", vec.ID, want[0], vec.Expected.Reason)
		}
		for _, config := range []string{"directory", "trusted"} {
			t.Run(vec.ID+"/"+config, func(t *testing.T) {
				src := newMemSource()
				switch {
				case config == "trusted":
					src.trusted = []identity.Key{key}
				case vec.DirectoryFor != nil:
					src.add(*vec.DirectoryFor, time.Time{}, key)
				}
				u, err := url.Parse(vec.Request.URL)
				if err != nil {
					t.Fatal(err)
				}
				r := &Request{
					Time: time.Unix(vec.Now, 0).UTC(), Method: vec.Request.Method, Scheme: u.Scheme,
					Authority: u.Host, Target: u.RequestURI(), HeadersComplete: true,
				}
				for _, n := range sortedKeys(vec.Request.Headers) {
					r.Header = append(r.Header, event.Field{Name: n, Value: vec.Request.Headers[n]})
				}
				if vec.Request.Body != nil {
					r.Body = []byte(*vec.Request.Body)
				}
				res := NewVerifier(src, Options{AllowTestKeys: true}).Verify(r)

				wantReasons := want
				if string(res.Verdict) != vec.Expected.Outcome || !slices.Equal(res.Reasons, wantReasons) {
					t.Errorf("%s (%s): got %s %v, want %s %v\nevidence: %s", vec.ID, vec.Title, res.Verdict, res.Reasons, vec.Expected.Outcome, wantReasons, res.Evidence)
				}
				// The signature of a vector whose base a verifier can
				// rebuild is sound: it must verify once the key is found,
				// which also proves the fixture was copied intact.
				if !vec.BaseDiffers && config == "trusted" && !res.CryptoOK {
					t.Errorf("%s: signature does not verify with the trusted key: %s", vec.ID, res.Evidence)
				}
				if vec.BaseDiffers && res.CryptoOK {
					t.Errorf("%s: signature verified over a base the set says differs", vec.ID)
				}
			})
		}
	}
}

// TestRequestFromFetchBody: a WARC request's kept body reaches the
// Content-Digest check, and WARC requests are whole requests.
func TestRequestFromFetchBody(t *testing.T) {
	f := &event.Fetch{Origin: event.OriginWARC, Body: []byte("x"), Host: "example.com"}
	r := RequestFromFetch(f)
	if string(r.Body) != "x" || !r.HeadersComplete || r.Authority != "example.com" {
		t.Errorf("got body %q complete %v authority %q", r.Body, r.HeadersComplete, r.Authority)
	}
}
