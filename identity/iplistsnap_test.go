package identity

import (
	"strings"
	"testing"
	"time"
)

func TestIPListSnapshot(t *testing.T) {
	at := time.Date(2026, 11, 23, 19, 45, 0, 600e6, time.FixedZone("CET", 3600))
	tests := []struct {
		name, url, body string
		wantErr         string // in the error of NewIPListSnapshot
		wantNameErr     bool
		wantSummary     string
	}{
		{
			name: "with creationTime",
			url:  "https://www.bing.com/toolbox/bingbot.json",
			body: `{"creationTime":"2026-11-01T00:00:00Z","prefixes":[{"ipv4Prefix":"192.0.2.0/24"},{"ipv6Prefix":"2001:db8::/32"}]}`,
			wantSummary: "2 prefixes (creationTime 2026-11-01T00:00:00Z), for bingbot -> " +
				"www.bing.com_toolbox_bingbot.json.2026-11-23T184500Z.json",
		},
		{
			name:        "without creationTime",
			url:         "https://example.com/a.json",
			body:        `{"prefixes":[{"ipv4Prefix":"198.51.100.0/24"}]}`,
			wantSummary: "1 prefixes (no creationTime), for bingbot -> example.com_a.json.2026-11-23T184500Z.json",
		},
		{name: "not a list", url: "https://example.com/a.json", body: `<html>`, wantErr: "identity"},
		{name: "URL without a name", url: "http://example.com/a.json", body: `{"prefixes":[]}`, wantNameErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewIPListSnapshot(tt.url, []byte(tt.body), at)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("got no error, want one")
				}
				return
			}
			if err != nil {
				t.Fatalf("NewIPListSnapshot: %v", err)
			}
			if !s.At.Equal(at.Truncate(time.Second)) || s.At.Location() != time.UTC {
				t.Errorf("At = %v, want %v in UTC", s.At, at.Truncate(time.Second))
			}
			name, err := s.FileName()
			if tt.wantNameErr {
				if err == nil {
					t.Errorf("FileName() = %q, want an error", name)
				}
				return
			}
			if err != nil || name != s.Name {
				t.Fatalf("FileName() = %q, %v; Name %q", name, err, s.Name)
			}
			if got := s.Summary([]string{"bingbot"}); got != tt.wantSummary {
				t.Errorf("Summary =\n %q\nwant\n %q", got, tt.wantSummary)
			}
		})
	}
}

func TestMirrorURL(t *testing.T) {
	tests := []struct{ mirror, url, want string }{
		{"", "https://www.bing.com/toolbox/bingbot.json", "https://www.bing.com/toolbox/bingbot.json"},
		{"https://mirror.test/", "https://www.bing.com/toolbox/bingbot.json", "https://mirror.test/www.bing.com/toolbox/bingbot.json"},
		{"https://mirror.test/m", "https://example.com/a%20b.json?x=1", "https://mirror.test/m/example.com/a%20b.json"},
	}
	for _, tt := range tests {
		got, err := MirrorURL(tt.mirror, tt.url)
		if err != nil || got != tt.want {
			t.Errorf("MirrorURL(%q, %q) = %q, %v; want %q", tt.mirror, tt.url, got, err, tt.want)
		}
	}
	if _, err := MirrorURL("https://m.test", "%zz"); err == nil || !strings.Contains(err.Error(), "invalid") {
		t.Errorf("MirrorURL of a bad URL: err = %v, want a parse error", err)
	}
}
