package identity

import "testing"

func TestCaptureKind(t *testing.T) {
	const dir = "https://example.com/.well-known/http-message-signatures-directory"
	tests := []struct {
		name, url, ct string
		body          []byte
		want          string
	}{
		{"registry-03 card", "https://example.com/bot", "", sample(t, "signature_agent_card_registry-03_example.json", "card"), KindCard},
		{"flat card with keys", "https://example.com/x", "", sample(t, "signature_agent_card_registry-02_legacy_flat_example.json", "card"), KindCard},
		{"CIMD without web_bot_auth", "https://example.com/c", "", []byte(`{"client_id":"https://example.com/c","client_name":"C"}`), KindCard},
		{"directory", dir, "application/http-message-signatures-directory+json", sample(t, "directory_draft_example.json", "body"), KindJWKS},
		{"directory with older extra members", "https://chatgpt.com/x", "", sample(t, "directory_openai_chatgpt_sample_2025.json", "body"), KindJWKS},
		{"empty directory at the well-known path", dir, "", []byte(`{"keys":[]}`), KindJWKS},
		{"empty directory by content type", "https://example.com/k", "application/jwk-set+json", []byte(` {"keys":[]}`), KindJWKS},
		{"empty keys elsewhere", "https://example.com/api", "application/json", []byte(`{"keys":[]}`), ""},
		{"single JWK", "https://example.com/k.json", "", []byte(`{"kty":"OKP","crv":"Ed25519","x":"` + b1EdX + `"}`), KindJWKS},
		{"JAFAR", "https://example.com/ips.json", "", sample(t, "jafar_example_1_basic.json", ""), KindIPList},
		{"Google shape", "https://developers.google.com/x.json", "", sample(t, "iplist_google_shape.json", "example"), KindIPList},
		{"Bing shape with zero-width spaces", "https://www.bing.com/toolbox/bingbot.json", "", sample(t, "iplist_bing_shape.json", ""), KindIPList},
		{"OAuth token response", "https://example.com/token", "", []byte(`{"client_id":"abc","access_token":"x"}`), ""},
		{"unrelated keys", "https://example.com/api", "", []byte(`{"keys":["a","b"],"kty":1}`), ""},
		{"unrelated prefixes", "https://example.com/api", "", []byte(`{"prefixes":["a"]}`), ""},
		{"HTML", "https://example.com/", "text/html", []byte(`<html>"web_bot_auth"`), ""},
		{"broken JSON", "https://example.com/", "", []byte(`{"web_bot_auth":{`), ""},
		{"empty", "https://example.com/", "", nil, ""},
	}
	for _, tt := range tests {
		if got := CaptureKind(tt.url, tt.ct, tt.body); got != tt.want {
			t.Errorf("%s: CaptureKind = %q, want %q", tt.name, got, tt.want)
		}
	}
}
