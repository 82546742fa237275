package retention

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func at(h float64) time.Time { return t0.Add(time.Duration(h * float64(time.Hour))) }

func capt(url string, h float64, action string) *Capture {
	return &Capture{URL: url, Time: at(h), Action: action, Reason: "r", WARCFile: "a.warc.gz", Offset: int64(h * 100)}
}

func scanOf(cs ...*Capture) Scan {
	return func(fn func(*Capture) error) error {
		for _, c := range cs {
			cc := *c
			if err := fn(&cc); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestBuildPywbBounds(t *testing.T) {
	asOf := at(1000)
	tests := []struct {
		name          string
		caps          []*Capture
		access        string
		before, after string
		also          int
	}{
		{"alone", []*Capture{capt("http://x.org/a", 1, ActionEmbargo)}, "block", "", "", 0},
		{"hidden then kept", []*Capture{capt("http://x.org/a", 1, ActionDelete), capt("https://www.x.org/a", 2, ActionKeep)},
			"exclude", "20250301130001", "", 0},
		{"kept then hidden", []*Capture{capt("http://x.org/a", 1, ActionKeep), capt("http://x.org/a", 2, ActionReview)},
			"block", "", "20250301135959", 0},
		{"same second", []*Capture{capt("http://x.org/a", 1, ActionDelete), capt("http://x.org/a", 1.0001, ActionKeep)},
			"exclude", "20250301130001", "", 1},
		{"interleaved, fewer kept after", []*Capture{
			capt("http://x.org/a", 1, ActionKeep), capt("http://x.org/a", 2, ActionKeep), capt("http://x.org/a", 3, ActionDelete),
			capt("http://x.org/a", 4, ActionKeep), capt("http://x.org/a", 5, ActionEmbargo)},
			"exclude", "", "20250301145959", 1},
		{"interleaved, fewer kept before", []*Capture{
			capt("http://x.org/a", 1, ActionEmbargo), capt("http://x.org/a", 2, ActionKeep), capt("http://x.org/a", 3, ActionEmbargo),
			capt("http://x.org/a", 4, ActionKeep), capt("http://x.org/a", 5, ActionKeep)},
			"block", "20250301150001", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Build(scanOf(tt.caps...), &asOf, FormatPywbACL)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Rules) != 1 {
				t.Fatalf("rules = %d, want 1", len(p.Rules))
			}
			r := p.Rules[0]
			ts := func(v time.Time) string {
				if v.IsZero() {
					return ""
				}
				return v.Format(Timestamp)
			}
			if r.Access != tt.access || ts(r.Before) != tt.before || ts(r.After) != tt.after || len(r.AlsoHidden) != tt.also {
				t.Errorf("rule %s before %q after %q also %d, want %s %q %q %d",
					r.Access, ts(r.Before), ts(r.After), len(r.AlsoHidden), tt.access, tt.before, tt.after, tt.also)
			}
		})
	}
}

func TestBuildDueAndUpcoming(t *testing.T) {
	asOf := at(10)
	due := func(c *Capture, h float64) *Capture { d := at(h); c.Due = &d; return c }
	caps := []*Capture{
		due(capt("http://x.org/late", 1, ActionKeep), 20),    // time-limit ends later
		due(capt("http://x.org/soon", 1, ActionKeep), 15),    // ends sooner
		due(capt("http://x.org/next", 1, ActionEmbargo), 12), // not due yet
		due(capt("http://x.org/now", 1, ActionEmbargo), 10),  // due at as-of: due
		capt("http://x.org/plain", 1, ActionKeep),            // nothing
		capt("http://x.org:99999/bad", 1, ActionDelete),      // no key
	}
	p, err := Build(scanOf(caps...), &asOf, FormatCDX)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rules) != 1 || p.Rules[0].URL != "http://x.org/now" {
		t.Errorf("rules = %+v, want one for /now", p.Rules)
	}
	var up []string
	for _, c := range p.Upcoming {
		up = append(up, c.URL)
	}
	if got, want := strings.Join(up, " "), "http://x.org/next http://x.org/soon http://x.org/late"; got != want {
		t.Errorf("upcoming = %s, want %s", got, want)
	}
	if len(p.Problems) != 1 || p.Problems[0].Capture.URL != "http://x.org:99999/bad" {
		t.Errorf("problems = %+v, want the bad port", p.Problems)
	}
	if p.Captures != 6 || p.Hidden != 1 {
		t.Errorf("captures %d hidden %d, want 6 and 1", p.Captures, p.Hidden)
	}
	// Without an as-of every action is due.
	p, err = Build(scanOf(caps...), nil, FormatCDX)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rules) != 2 {
		t.Errorf("without as-of: rules = %d, want 2 (/next and /now)", len(p.Rules))
	}
}

func TestBuildErrors(t *testing.T) {
	if _, err := Build(scanOf(), nil, "xml"); !errors.Is(err, ErrFormat) {
		t.Errorf("unknown format: err = %v, want ErrFormat", err)
	}
	boom := errors.New("boom")
	failing := func(fn func(*Capture) error) error { return boom }
	if _, err := Build(failing, nil, FormatPywbACL); !errors.Is(err, boom) {
		t.Errorf("scan error: err = %v, want boom", err)
	}
}

func TestWaybackPrefixConflicts(t *testing.T) {
	asOf := at(100)
	p, err := Build(scanOf(
		capt("http://x.org/", 1, ActionDelete), // a site root excludes the host
		capt("http://x.org/a", 2, ActionKeep),
		capt("http://sub.x.org/b", 3, ActionKeep),
		capt("http://y.org/c", 4, ActionKeep),
	), &asOf, FormatWaybackExclusions)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rules) != 1 || len(p.Rules[0].AlsoHidden) != 2 {
		t.Fatalf("rules %+v, want one hiding /a and sub.x.org/b too", p.Rules)
	}
}

func TestWritePywb(t *testing.T) {
	asOf := at(100)
	p, err := Build(scanOf(
		capt("http://x.org/b", 1, ActionDelete),
		capt("http://x.org/b", 2, ActionKeep),
		capt("http://x.org/caf\u00e9\"", 1, ActionEmbargo),
		capt("http://x.org/a", 1, ActionReview),
	), &asOf, FormatPywbACL)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	want := `org,x)/caf%c3%a9"### - {"access": "block", "url": "http://x.org/caf\u00e9\""}
org,x)/b### - {"access": "exclude", "url": "http://x.org/b", "before": "20250301130001"}
org,x)/a### - {"access": "block", "url": "http://x.org/a"}
# - {"comment": "repaudit retention export, pywb-acl, as of 2025-03-05T16:00:00Z: 3 rules hide 3 of 4 captures"}
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestPyJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain/url?a=1&b=<2>", `"plain/url?a=1&b=<2>"`},
		{"q\"b\\", `"q\"b\\"`},
		{"\n\r\t\b\f\x01\x7f", `"\n\r\t\b\f\u0001\u007f"`},
		{"\u00e9\u4e2d", `"\u00e9\u4e2d"`},
		{"\U0001F600", `"\ud83d\ude00"`},
		{"\xff", `"\ufffd"`},
	}
	for _, tt := range tests {
		if got := pyJSON(tt.in); got != tt.want {
			t.Errorf("pyJSON(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
