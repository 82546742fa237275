package robots

import "testing"

func TestIsRobotsTxt(t *testing.T) {
	for in, want := range map[string]bool{
		"/robots.txt": true, "/robots.txt?x=1": true, "https://example.com/robots.txt": true,
		"https://example.com:8443/robots.txt#f": true, "/robots.txt/": false, "/a/robots.txt": false,
		"/ROBOTS.TXT": false, "robots.txt": false, "//example.com/robots.txt": true, "https://example.com/": false, "": false,
	} {
		if got := IsRobotsTxt(in); got != want {
			t.Errorf("IsRobotsTxt(%q) = %v, want %v", in, got, want)
		}
	}
}
