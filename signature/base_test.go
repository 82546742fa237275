package signature

import (
	"testing"

	"github.com/dunglas/httpsfv"
	"github.com/repaudit/repaudit/event"
)

// comp parses one serialized component identifier.
func comp(t *testing.T, ident string) component {
	t.Helper()
	it, err := httpsfv.UnmarshalItem([]string{ident})
	if err != nil {
		t.Fatalf("component %s: %v", ident, err)
	}
	name, ok := it.Value.(string)
	if !ok {
		t.Fatalf("component %s is not a string", ident)
	}
	s, _ := httpsfv.Marshal(it)
	return component{name: name, params: it.Params, ident: s}
}

// TestComponentValues checks derived and field components against the
// examples of RFC 9421 §2.1 and §2.2.
func TestComponentValues(t *testing.T) {
	post := &Request{Method: "POST", Scheme: "https", Authority: "www.example.com", Target: "/path?param=value"}
	query := &Request{Method: "GET", Authority: "www.example.com", Target: "/path?param=value&foo=bar&baz=bat%2Dman"}
	emptyQ := &Request{Method: "GET", Authority: "www.example.com", Target: "/path?"}
	noQ := &Request{Method: "GET", Authority: "www.example.com", Target: "/path"}
	params := &Request{Method: "GET", Authority: "www.example.com", Target: "/parameters?var=this%20is%20a%20big%0Alot%20of%20text&bar=with+plus+whitespace"}
	dict := &Request{Header: event.Header{{Name: "Example-Dict", Value: "a=1,    b=2;x=1;y=2,   c=(a   b   c)"}, {Name: "Example-Dict", Value: "d"}}}
	multi := &Request{Header: event.Header{{Name: "Example-Header", Value: "value, with, lots"}, {Name: "example-header", Value: "of, commas"}}}
	ports := &Request{Method: "GET", Scheme: "https", Authority: "WWW.Example.COM:443", Target: ""}
	http8080 := &Request{Method: "GET", Scheme: "http", Authority: "example.com:8080", Target: "/"}
	hostOnly := &Request{Method: "GET", Target: "/x", Header: event.Header{{Name: "Host", Value: "Example.org:80"}}, Scheme: "http"}
	absolute := &Request{Method: "GET", Authority: "example.com", Target: "http://example.com/a/b?c"}

	for _, c := range []struct {
		name  string
		req   *Request
		ident string
		want  string
	}{
		{"method", post, `"@method"`, "POST"},
		{"target-uri", post, `"@target-uri"`, "https://www.example.com/path?param=value"},
		{"authority", post, `"@authority"`, "www.example.com"},
		{"scheme", post, `"@scheme"`, "https"},
		{"request-target", post, `"@request-target"`, "/path?param=value"},
		{"path", post, `"@path"`, "/path"},
		{"query", query, `"@query"`, "?param=value&foo=bar&baz=bat%2Dman"},
		{"query empty", emptyQ, `"@query"`, "?"},
		{"query absent", noQ, `"@query"`, "?"},
		{"query-param var", params, `"@query-param";name="var"`, "this%20is%20a%20big%0Alot%20of%20text"},
		{"query-param bar", params, `"@query-param";name="bar"`, "with%20plus%20whitespace"},
		{"key a", dict, `"example-dict";key="a"`, "1"},
		{"key d", dict, `"example-dict";key="d"`, "?1"},
		{"key b", dict, `"example-dict";key="b"`, "2;x=1;y=2"},
		{"key c", dict, `"example-dict";key="c"`, "(a b c)"},
		{"sf", dict, `"example-dict";sf`, "a=1, b=2;x=1;y=2, c=(a b c), d"},
		{"raw joined", multi, `"example-header"`, "value, with, lots, of, commas"},
		{"bs", multi, `"example-header";bs`, ":dmFsdWUsIHdpdGgsIGxvdHM=:, :b2YsIGNvbW1hcw==:"},
		{"authority default port", ports, `"@authority"`, "www.example.com"},
		{"authority other port", http8080, `"@authority"`, "example.com:8080"},
		{"authority from Host", hostOnly, `"@authority"`, "example.org"},
		{"scheme default", query, `"@scheme"`, "https"},
		{"path empty is slash", &Request{Target: "?a"}, `"@path"`, "/"},
		{"absolute-form path", absolute, `"@path"`, "/a/b"},
		{"absolute-form query", absolute, `"@query"`, "?c"},
		{"absolute-form target-uri", absolute, `"@target-uri"`, "http://example.com/a/b?c"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cp := comp(t, c.ident)
			m := &message{req: c.req}
			got, err := m.value(&cp, quirks{})
			if err != nil {
				t.Fatalf("got error %v, want %q", err, c.want)
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestComponentErrors checks that components which cannot be built fail
// with the right reason: absent where the source is complete, unrecorded
// where it may just not be logged, and malformed identifiers.
func TestComponentErrors(t *testing.T) {
	r := &Request{Method: "GET", Authority: "example.com", Target: "/?a=1&a=2", Header: event.Header{{Name: "Dict", Value: "x=1"}, {Name: "Bad-Dict", Value: "x=(("}}}
	for _, c := range []struct {
		name     string
		complete bool
		resp     bool
		ident    string
		want     string
	}{
		{"absent field, log", false, false, `"accept"`, ReasonComponentUnrecorded},
		{"absent field, warc", true, false, `"accept"`, ReasonMissingComponent},
		{"absent agent", false, false, `"signature-agent"`, ReasonAgentMemberMissing},
		{"absent key member", false, false, `"dict";key="y"`, ReasonMissingComponent},
		{"key on non-dictionary", false, false, `"bad-dict";key="x"`, ReasonMissingComponent},
		{"bs with key", false, false, `"dict";bs;key="x"`, ReasonInputUnreadable},
		{"upper-case field", false, false, `"Dict"`, ReasonInputUnreadable},
		{"unknown param", false, false, `"dict";foo`, ReasonInputUnreadable},
		{"req in request", false, false, `"@authority";req`, ReasonInputUnreadable},
		{"status in request", false, false, `"@status"`, ReasonInputUnreadable},
		{"signature-params covered", false, false, `"@signature-params"`, ReasonInputUnreadable},
		{"unknown derived", false, false, `"@nope"`, ReasonInputUnreadable},
		{"repeated query param", false, false, `"@query-param";name="a"`, ReasonMissingComponent},
		{"absent query param", false, false, `"@query-param";name="b"`, ReasonMissingComponent},
		{"trailer", false, false, `"dict";tr`, ReasonComponentUnrecorded},
		{"request component in response without req", false, true, `"@method"`, ReasonInputUnreadable},
	} {
		t.Run(c.name, func(t *testing.T) {
			cp := comp(t, c.ident)
			m := &message{req: r, complete: c.complete}
			if c.resp {
				m.resp = &Response{Status: 200}
			}
			got, err := m.value(&cp, quirks{})
			if err == nil {
				t.Fatalf("got value %q, want error %s", got, c.want)
			}
			if err.reason != c.want {
				t.Errorf("got %s (%s), want %s", err.reason, err.detail, c.want)
			}
		})
	}
}

func TestRawMember(t *testing.T) {
	in := `sig1=( "@authority"  "x";key="a,b");created=1;keyid="k,(";tag="t", sig2=("@path");created=2, sig3, sig1=("@method")`
	for _, c := range []struct{ label, want string }{
		{"sig1", `("@method")`}, // a repeated key's last value wins (RFC 9651 §4.2.2)
		{"sig2", `("@path");created=2`},
		{"sig3", ``},
		{"nope", ``},
	} {
		if got := rawMember(in, c.label); got != c.want {
			t.Errorf("rawMember(%s): got %q, want %q", c.label, got, c.want)
		}
	}
	if got, want := rawMember(`a=( "@authority"  "x;y" );created=1;keyid="k,(", b=1`, "a"), `( "@authority"  "x;y" );created=1;keyid="k,("`; got != want {
		t.Errorf("rawMember: got %q, want %q", got, want)
	}
}

func TestDecodeDataURL(t *testing.T) {
	for _, c := range []struct {
		in, want string
		err      bool
	}{
		{`data:application/json,{"keys":[]}`, `{"keys":[]}`, false},
		{`data:application/json,%7B%22keys%22%3A%5B%5D%7D`, `{"keys":[]}`, false},
		{`data:application/json;base64,eyJrZXlzIjpbXX0=`, `{"keys":[]}`, false},
		{`data:application/json;base64,eyJrZXlzIjpbXX0`, `{"keys":[]}`, false},
		{`data:;base64,!!`, ``, true},
		{`data:nocomma`, ``, true},
		{`https://x`, ``, true},
	} {
		got, err := decodeDataURL(c.in)
		if (err != nil) != c.err || string(got) != c.want {
			t.Errorf("decodeDataURL(%q): got %q, %v; want %q, error %v", c.in, got, err, c.want, c.err)
		}
	}
}
