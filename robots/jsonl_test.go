package robots

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

func TestAnswerer(t *testing.T) {
	const body = "User-agent: ExampleBot\nDisallow: /private\n\nUser-agent: *\nAllow: /\n"
	q := func(fields map[string]string) []byte {
		b, err := json.Marshal(fields)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(body))
	for _, tc := range []struct {
		name     string
		line     []byte
		allowed  bool
		group    string
		rule     string
		ruleLine int
		err      string // a part of the error wanted; "" for none
	}{
		{name: "disallowed", line: q(map[string]string{"robots": body, "agent": "ExampleBot", "url": "/private/x"}),
			allowed: false, group: "ExampleBot", rule: "Disallow: /private", ruleLine: 2},
		{name: "other agent", line: q(map[string]string{"robots": body, "agent": "OtherBot", "url": "/private/x"}),
			allowed: true, group: "*", rule: "Allow: /", ruleLine: 5},
		{name: "base64", line: q(map[string]string{"robots_b64": b64, "agent": "ExampleBot", "url": "https://example.com/private"}),
			allowed: false, group: "ExampleBot", rule: "Disallow: /private", ruleLine: 2},
		{name: "both bodies", line: q(map[string]string{"robots": body, "robots_b64": b64, "agent": "a", "url": "/"}), err: "not both"},
		{name: "bad base64", line: q(map[string]string{"robots_b64": "!!", "agent": "a", "url": "/"}), err: "robots_b64:"},
		{name: "no body", line: q(map[string]string{"agent": "a", "url": "/"}), err: `missing "robots"`},
		{name: "no agent", line: q(map[string]string{"robots": body, "url": "/"}), err: `missing "agent"`},
		{name: "no url", line: q(map[string]string{"robots": body, "agent": "a"}), err: `missing "url"`},
		{name: "not JSON", line: []byte(`{"robots": 1}`), err: "Go struct field robotsQuestion.robots"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NewAnswerer(DefaultMaxBytes).Answer(tc.line)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Allowed != tc.allowed || got.Group != tc.group || got.Rule != tc.rule || got.Line != tc.ruleLine || got.Evidence == "" {
				t.Errorf("got %+v, want allowed %v, group %q, rule %q on line %d", got, tc.allowed, tc.group, tc.rule, tc.ruleLine)
			}
		})
	}
}

func TestAnswererUsage(t *testing.T) {
	line := []byte(`{"robots": "ACAP-crawler: *\nACAP-disallow-index: /\n", "agent": "ExampleBot", "url": "/a", "usage": "index"}`)
	got, err := NewAnswerer(DefaultMaxBytes).Answer(line)
	if err != nil {
		t.Fatal(err)
	}
	if got.Allowed || got.Usage != "index" || got.Applies == nil || !*got.Applies {
		t.Errorf("got %+v, want index disallowed by an ACAP rule that applies", got)
	}
}

func TestAnswererCache(t *testing.T) {
	a := NewAnswerer(DefaultMaxBytes)
	first := a.file("User-agent: *\nDisallow: /\n")
	if a.file("User-agent: *\nDisallow: /\n") != first {
		t.Error("the same body was parsed twice")
	}
	for i := range answererCacheSize {
		a.file(strings.Repeat("#\n", i+1))
	}
	if len(a.files) > answererCacheSize {
		t.Errorf("%d bodies kept, want at most %d", len(a.files), answererCacheSize)
	}
}
