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

// FuzzIsRobotsTxt checks IsRobotsTxt's shortcut for paths against the
// general parse (isRobotsTxtTarget).
func FuzzIsRobotsTxt(f *testing.F) {
	for _, s := range []string{"/robots.txt", "/robots.txt?x", "/robots.txt#f", "/robots.txtx", "/robots.tx", "//h/robots.txt",
		"/", "", "/Robots.txt", "/robots.txt/", "https://h/robots.txt", "/a/robots.txt", "?q", "/robots.txt?#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		if got, want := IsRobotsTxt(target), isRobotsTxtTarget(target); got != want {
			t.Errorf("IsRobotsTxt(%q) = %v, the general parse %v", target, got, want)
		}
	})
}
