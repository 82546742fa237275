package typo

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"audit", "audit", 0}, {"audti", "audit", 1},
		{"kitten", "sitting", 3}, {"ca", "abc", 3}, {"héllo", "hello", 1},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Distance(tt.b, tt.a); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetry)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestNearest(t *testing.T) {
	cands := []string{"audit", "report", "site", "out", "x"}
	tests := []struct{ s, want string }{
		{"audti", "audit"}, {"Reprot", "report"}, {"sit", "site"}, {"ou", "out"},
		{"y", ""}, {"zzzzzz", ""}, {string(make([]byte, 65)), ""},
	}
	for _, tt := range tests {
		if got := Nearest(tt.s, cands); got != tt.want {
			t.Errorf("Nearest(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestNear(t *testing.T) {
	cands := []string{"GPTBot", "ChatGPT-User", "Googlebot", "Googlebot-Image", "bingbot", "Bingbot2"}
	tests := []struct {
		s    string
		max  int
		want []string
	}{
		{"gptbot", 0, []string{"GPTBot"}},
		{"googlebot", 0, []string{"Googlebot", "Googlebot-Image"}},
		{"Bingbot", 1, []string{"bingbot"}},
		{"Bingbot", 0, []string{"bingbot", "Bingbot2"}},
		{"zz", 0, nil},
	}
	for _, tt := range tests {
		if got := Near(tt.s, cands, tt.max); !slices.Equal(got, tt.want) {
			t.Errorf("Near(%q, %d) = %q, want %q", tt.s, tt.max, got, tt.want)
		}
	}
}
