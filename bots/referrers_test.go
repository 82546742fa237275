package bots

import "testing"

func TestReferrers(t *testing.T) {
	refs := Referrers()
	if len(refs) == 0 {
		t.Fatal("Referrers: got none")
	}
	ops := map[string]bool{}
	for _, b := range Default().Bots() {
		ops[b.Operator] = true
	}
	has := map[Referrer]bool{}
	for _, r := range refs {
		if !ops[r.Operator] {
			t.Errorf("referrer %s: operator %q names no bot of the catalog", r.Host, r.Operator)
		}
		has[r] = true
	}
	for _, want := range []Referrer{{"OpenAI", "chatgpt.com"}, {"Perplexity", "www.perplexity.ai"}, {"Anthropic", "claude.ai"}} {
		if !has[want] {
			t.Errorf("Referrers: missing %v", want)
		}
	}
}

func TestLoadReferrersErrors(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"no url", `{"operators": [{"operator": "X", "referrer_hosts": ["x.example"]}]}`},
		{"upper case", `{"operators": [{"operator": "X", "url": "s", "referrer_hosts": ["X.example"]}]}`},
		{"port", `{"operators": [{"operator": "X", "url": "s", "referrer_hosts": ["x.example:443"]}]}`},
		{"twice", `{"operators": [{"operator": "X", "url": "s", "referrer_hosts": ["x.example"]},
			{"operator": "Y", "url": "s", "referrer_hosts": ["x.example"]}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := loadReferrers([]byte(tc.in)); err == nil {
				t.Error("got no error")
			}
		})
	}
}
