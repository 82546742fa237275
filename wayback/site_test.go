package wayback

import "testing"

func TestSiteURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"example.com", "https://example.com"},
		{"Example.COM", "https://example.com"},
		{"http://example.com/some/path?q=1", "http://example.com"},
		{"https://example.com:443/", "https://example.com"},
		{"http://example.com:80", "http://example.com"},
		{"http://example.com:443", "http://example.com:443"},
		{"https://example.com:8443", "https://example.com:8443"},
	}
	for _, tt := range tests {
		got, err := SiteURL(tt.in)
		if err != nil || got.String() != tt.want {
			t.Errorf("SiteURL(%q) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"ftp://example.com", "https://", "https://user@example.com", "http://[::1"} {
		if u, err := SiteURL(bad); err == nil {
			t.Errorf("SiteURL(%q) = %v, want an error", bad, u)
		}
	}
}
