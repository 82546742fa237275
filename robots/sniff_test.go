package robots

import "testing"

func TestSniff(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"plain", "User-agent: *\nDisallow: /private/\n", true},
		{"bom and comments", "\xef\xbb\xbf# robots.txt for example.com\n\nUser-agent: GPTBot\nDisallow: /\n", true},
		{"sitemap only", "Sitemap: https://example.com/sitemap.xml\n", true},
		{"typo and other records", "User-agent: *\nDisalow: /x\nHost: example.com\nClean-param: ref /\n", true},
		{"acap", "ACAP-crawler: *\nACAP-disallow-crawl: /\n", true},
		{"html", "<!doctype html><html><body>User-agent: *\nDisallow: /</body></html>", false},
		{"json", `{"User-agent": "*"}`, false},
		{"combined log", `203.0.113.9 - - [12/Mar/2025:10:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 12 "-" "Disallow: /"` + "\n", false},
		{"comments only", "# nothing here\n", false},
		{"prose", "This site has rules.\nPlease read them.\nDisallow: /x\n", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sniff([]byte(tt.in)); got != tt.want {
				t.Errorf("Sniff(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzSniff(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /\n"))
	f.Add([]byte("<html>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if Sniff(data) && len(data) == 0 {
			t.Fatal("empty input sniffed as robots.txt")
		}
	})
}
