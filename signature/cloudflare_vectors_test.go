package signature

import (
	"encoding/json"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/internal/fixtures"
)

// TestCloudflareRequestVectors runs Cloudflare's web-bot-auth request
// vectors (shared/fixtures/webbotauth/cloudflare_web_bot_auth_architecture_v2.json
// beside the repository, see the README there) with the test keys trusted: every signature verifies
// cryptographically; with Signature-Agent the verdict is verified, without
// it unverified (signature-agent-absent, draft -02 §5.2.1).
func TestCloudflareRequestVectors(t *testing.T) {
	data, err := os.ReadFile(fixtures.Path(t, "webbotauth/cloudflare_web_bot_auth_architecture_v2.json"))
	if err != nil {
		t.Fatal(err)
	}
	var set struct {
		Vectors []struct {
			Key            string `json:"key"`
			TargetURL      string `json:"target_url"`
			Signature      string `json:"signature"`
			SignatureInput string `json:"signature_input"`
			SignatureAgent string `json:"signature_agent"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		t.Fatal(err)
	}
	if len(set.Vectors) != 4 {
		t.Fatalf("got %d vectors, want 4", len(set.Vectors))
	}
	keys := vectorKeys(t)
	src := newMemSource()
	src.trusted = []identity.Key{keys["ed25519"], keys["rsa-pss"]}
	v := NewVerifier(src, Options{AllowTestKeys: true})
	for i, vec := range set.Vectors {
		u, err := url.Parse(vec.TargetURL)
		if err != nil {
			t.Fatal(err)
		}
		h := event.Header{{Name: "Host", Value: u.Host}}
		if vec.SignatureAgent != "" {
			h = append(h, event.Field{Name: "Signature-Agent", Value: vec.SignatureAgent})
		}
		h = append(h, event.Field{Name: "Signature-Input", Value: vec.SignatureInput}, event.Field{Name: "Signature", Value: vec.Signature})
		r := &Request{Time: time.Unix(1735689600, 0).Add(30 * time.Second), Method: "GET", Scheme: u.Scheme,
			Authority: u.Host, Target: u.RequestURI(), Header: h}
		res := v.Verify(r)
		if !res.CryptoOK {
			t.Errorf("vector %d (%s): signature does not verify: %s", i, vec.Key, res.Evidence)
		}
		want, reasons := Verified, 0
		if vec.SignatureAgent == "" {
			want, reasons = Unverified, 1
		}
		if res.Verdict != want || len(res.Reasons) != reasons || reasons == 1 && res.Reasons[0] != ReasonAgentAbsent {
			t.Errorf("vector %d (%s): got %s %v, want %s; evidence: %s", i, vec.Key, res.Verdict, res.Reasons, want, res.Evidence)
		}
	}
}
