package event

import "testing"

func TestASCIIHost(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"münchen.example", "xn--mnchen-3ya.example"},
		{"MÜNCHEN.example:8080", "xn--mnchen-3ya.example:8080"},
		{"xn--mnchen-3ya.example", "xn--mnchen-3ya.example"},
		{"example.com", "example.com"},
		{"[2001:db8::1]:443", "[2001:db8::1]:443"},
		{"bad\xffhost", "bad\xffhost"},
	} {
		if got := ASCIIHost(tc.in); got != tc.want {
			t.Errorf("ASCIIHost(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
