package signature

import (
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestParseRequestJSON(t *testing.T) {
	r, err := ParseRequestJSON([]byte(`{"time":"2025-06-01T14:00:00+02:00","method":"GET","scheme":"https",
		"authority":"example.com","path":"/a?b","ip":"::ffff:192.0.2.1","headers_complete":true,"body_b64":"aGk",
		"headers":{"Signature":["sig1=:AA==:"," sig2=:BB==: "],"Accept":"*/*"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Time.Equal(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)) || r.Time.Location() != time.UTC {
		t.Errorf("Time = %v, want 2025-06-01T12:00:00Z in UTC", r.Time)
	}
	if r.Method != "GET" || r.Authority != "example.com" || r.Target != "/a?b" || !r.HeadersComplete {
		t.Errorf("request line = %q %q %q complete=%v", r.Method, r.Authority, r.Target, r.HeadersComplete)
	}
	if r.IP != netip.MustParseAddr("192.0.2.1") || string(r.Body) != "hi" {
		t.Errorf("IP %v body %q; want 192.0.2.1 (unmapped) and \"hi\"", r.IP, r.Body)
	}
	// Names sorted, values in order and trimmed.
	var got []string
	for _, f := range r.Header {
		got = append(got, f.Name+"="+f.Value)
	}
	if want := "Accept=*/*|Signature=sig1=:AA==:|Signature=sig2=:BB==:"; strings.Join(got, "|") != want {
		t.Errorf("headers %q, want %q", strings.Join(got, "|"), want)
	}

	for _, tt := range []struct{ line, want string }{
		{`{"time":"yesterday"}`, "time"},
		{`{"ip":"999.1.1.1"}`, "ip"},
		{`{"body_b64":"*"}`, "body_b64"},
		{`{"headers":{"X":[1]}}`, `header "X"`},
		{`[1]`, "not a request object"},
	} {
		r, err := ParseRequestJSON([]byte(tt.line))
		if err == nil || r != nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseRequestJSON(%s) = %v, %v; want an error naming %s", tt.line, r, err, tt.want)
		}
	}
	if r, err := ParseRequestJSON([]byte(`{"body_b64":""}`)); err != nil || r.Body == nil || len(r.Body) != 0 {
		t.Errorf("empty body_b64: %v %v; want an empty, non-nil body", r, err)
	}
}
