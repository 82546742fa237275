package evaluate

import (
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/robots"
)

func TestMayHoldRules(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"User-agent: *\nDisallow: /\n", true},
		{"<html>\n  user agent: x\n</html>", true},
		{"\r_USERAGENT: *", true},
		{"# c\rACAP-crawler: *\rACAP-disallow-crawl: /\r", true},
		{"\xff\xfeU\x00", true},
		{"<!doctype html><html><body>Sign in</body></html>", false},
		{"<p>Read our user-agent policy</p>\n<p>acap</p>", false},
		{"Disallow: /private/\n", false},
		{"", false},
	} {
		c := &event.Capture{Status: 200, Body: []byte(tc.body)}
		if got := mayHoldRules(c); got != tc.want {
			t.Errorf("%q: got %v, want %v", tc.body, got, tc.want)
		}
	}
	if mayHoldRules(&event.Capture{Status: 404, Body: []byte("User-agent: *\n")}) {
		t.Error("a 404 body counted")
	}
}

// FuzzMayHoldRules: a body that mayHoldRules lets go must parse to no
// group and no ACAP record, or a redirect to it would be judged wrongly.
func FuzzMayHoldRules(f *testing.F) {
	for _, s := range []string{"User-agent: *\nDisallow: /", "<html>\n", "\rU-S-E-R-agent: x", "acap-crawler: *", " \t_useragent:x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if mayHoldRules(&event.Capture{Status: 200, Body: body}) {
			return
		}
		rf := robots.Parse(body, robots.Options{})
		if len(rf.Groups) > 0 || rf.ACAP != nil {
			t.Fatalf("%q: mayHoldRules false, but %d groups, ACAP %v", body, len(rf.Groups), rf.ACAP != nil)
		}
	})
}
