package robots

import "testing"

// An HTML page served for robots.txt, or reached by a redirect from it
// (RFC 9309 §2.3.1.2), has no rules: everything is allowed, and the file
// says why in a diagnostic.
func TestParseHTMLBody(t *testing.T) {
	for _, body := range []string{
		"<!doctype html>\n<html><head><title>Sign in</title></head>\n<body><p>Please sign in</p></body></html>\n",
		"\n  <?xml version=\"1.0\"?><error>not found</error>",
		`{"error": "not found"}`,
	} {
		f := Parse([]byte(body), Options{})
		if len(f.Groups) != 0 || f.ACAP != nil {
			t.Errorf("%q: %d groups, ACAP %v; want none", body, len(f.Groups), f.ACAP != nil)
		}
		if len(f.Diagnostics) == 0 || f.Diagnostics[0].Code != DiagNotRobotsTxt || f.Diagnostics[0].Line != 1 {
			t.Errorf("%q: diagnostics %+v, want %s first", body, f.Diagnostics, DiagNotRobotsTxt)
		}
		if v := f.Check("GPTBot", "/private/x"); !v.Allowed {
			t.Errorf("%q: /private/x not allowed: %+v", body, v)
		}
	}
	f := Parse([]byte("User-agent: *\nDisallow: /private/\n"), Options{})
	for _, d := range f.Diagnostics {
		if d.Code == DiagNotRobotsTxt {
			t.Errorf("a robots.txt got %+v", d)
		}
	}
}
