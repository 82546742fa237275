package bots_test

import (
	"strings"
	"testing"

	"github.com/repaudit/repaudit/bots"
)

func TestLineUA(t *testing.T) {
	tests := []struct {
		name, in, want, err string
	}{
		{"plain", "curl/8.5.0", "curl/8.5.0", ""},
		{"plain kept whole", "  Foo/1 ", "  Foo/1 ", ""},
		{"empty", "", "", ""},
		{"json string", `"Bar/2 (x)"`, "Bar/2 (x)", ""},
		{"json string escapes", `"A\tB"`, "A\tB", ""},
		{"object user_agent", `{"user_agent": "Baz/3"}`, "Baz/3", ""},
		{"object ua", `{"ua": "Baz/4"}`, "Baz/4", ""},
		{"object userAgent", ` {"userAgent": "Baz/5"}`, "Baz/5", ""},
		{"user_agent first", `{"ua": "no", "user_agent": "yes"}`, "yes", ""},
		{"bad string", `"open`, "", "bad JSON string"},
		{"bad object", `{"user_agent":`, "", "bad JSON object"},
		{"not a string", `{"user_agent": 7}`, "", `member "user_agent" is not a string`},
		{"no member", `{"agent": "x"}`, "", `without a "user_agent" member`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := bots.LineUA([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("LineUA(%q) error = %v, want one with %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("LineUA(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestIdentifyLine(t *testing.T) {
	cat := bots.Default()
	tests := []struct {
		name string
		in   string
		want bots.Identification
	}{
		{
			name: "catalog bot",
			in:   "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)",
			want: bots.Identification{Agent: "GPTBot", Operator: "OpenAI", Category: "ai-training",
				IdentifiedBy: bots.ByCatalog, Rule: bots.RuleCatalog, Matched: "GPTBot"},
		},
		{
			name: "unknown bot by its token",
			in:   `{"user_agent": "Mozilla/5.0 (compatible; Quokka/1.0; +https://quokka.example/)"}`,
			want: bots.Identification{Agent: "Quokka", Category: bots.CategoryOther,
				IdentifiedBy: bots.ByUAToken, Rule: "comment-slot", Matched: "Quokka"},
		},
		{
			name: "browser",
			in:   "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0",
			want: bots.Identification{},
		},
		{
			name: "unreadable line",
			in:   `{"ua": 1}`,
			want: bots.Identification{Error: `member "ua" is not a string`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cat.IdentifyLine([]byte(tt.in))
			if (err != nil) != (tt.want.Error != "") {
				t.Fatalf("IdentifyLine(%q) error = %v, want error %q", tt.in, err, tt.want.Error)
			}
			got.UserAgent = ""
			if got != tt.want {
				t.Errorf("IdentifyLine(%q) = %+v\nwant %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestListing(t *testing.T) {
	extra, err := bots.Load(strings.NewReader(`{"bots": [{"token": "ExampleBot", "operator": "Example Inc.", "category": "seo", "user_triggered": true}]}`), "mine.json")
	if err != nil {
		t.Fatal(err)
	}
	list := extra.Listing()
	if len(list) != 1 {
		t.Fatalf("got %d bots, want 1", len(list))
	}
	if got := list[0]; got.Token != "ExampleBot" || got.Operator != "Example Inc." || got.Category != "seo" || !got.UserTriggered {
		t.Errorf("got %+v", got)
	}
	if got := extra.Bots()[0].Flags(); len(got) != 1 || got[0] != "user-triggered" {
		t.Errorf("Flags() = %q, want [user-triggered]", got)
	}
}
