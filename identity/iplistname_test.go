package identity

import (
	"errors"
	"testing"
	"time"
)

func TestIPListFileName(t *testing.T) {
	at := time.Date(2026, 11, 23, 18, 45, 0, 0, time.UTC)
	tests := []struct{ url, name string }{
		{"https://www.bing.com/toolbox/bingbot.json", "www.bing.com_toolbox_bingbot.json.2026-11-23T184500Z.json"},
		{"https://developers.google.com/static/search/apis/ipranges/googlebot.json",
			"developers.google.com_static_search_apis_ipranges_googlebot.json.2026-11-23T184500Z.json"},
		{"https://example.com:8443/a_b/c%20d?x=1", "example.com%3A8443_a%5Fb_c%2520d%3Fx%3D1.2026-11-23T184500Z.json"},
	}
	for _, tt := range tests {
		got, err := IPListFileName(tt.url, at.In(time.FixedZone("x", 3600)))
		if err != nil || got != tt.name {
			t.Errorf("IPListFileName(%q) = %q, %v; want %q", tt.url, got, err, tt.name)
			continue
		}
		u, ft, err := ParseIPListFileName(got)
		if err != nil || u != tt.url || !ft.Equal(at) {
			t.Errorf("ParseIPListFileName(%q) = %q, %v, %v; want %q, %v", got, u, ft, err, tt.url, at)
		}
	}
	if _, err := IPListFileName("http://example.com/x.json", at); err == nil {
		t.Error("http URL accepted")
	}
	for _, name := range []string{
		"googlebot.json",
		"www.bing.com_toolbox_bingbot.json.2026-11-23T184500Z",
		"www.bing.com_toolbox_bingbot.json.2026-13-23T184500Z.json",
		"www.bing.com_toolbox_bingbot.json2026-11-23T184500Z.json",
		"www.bing.com/toolbox.2026-11-23T184500Z.json",
		"a%2fb.2026-11-23T184500Z.json", // lower-case hex: not canonical
		"a%2.2026-11-23T184500Z.json",
		"%41.2026-11-23T184500Z.json", // "A" escaped: not canonical
		".2026-11-23T184500Z.json",
		"_x.2026-11-23T184500Z.json", // no host
	} {
		if u, _, err := ParseIPListFileName(name); !errors.Is(err, ErrNotIPListName) {
			t.Errorf("ParseIPListFileName(%q) = %q, %v; want ErrNotIPListName", name, u, err)
		}
	}
}

func FuzzParseIPListFileName(f *testing.F) {
	f.Add("www.bing.com_toolbox_bingbot.json.2026-11-23T184500Z.json")
	f.Add("example.com%3A8443_a%5Fb.2026-11-23T184500Z.json")
	f.Add("googlebot.json")
	f.Fuzz(func(t *testing.T, name string) {
		u, at, err := ParseIPListFileName(name)
		if err != nil {
			return
		}
		again, err := IPListFileName(u, at)
		if err != nil || again != name {
			t.Fatalf("%q parsed to %q %v, which names %q (%v)", name, u, at, again, err)
		}
	})
}
