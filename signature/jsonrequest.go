package signature

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
)

// jsonRequest is the JSON shape ParseRequestJSON reads.
type jsonRequest struct {
	Time      string                     `json:"time"`
	Method    string                     `json:"method"`
	Scheme    string                     `json:"scheme"`
	Authority string                     `json:"authority"`
	Path      string                     `json:"path"`
	IP        string                     `json:"ip"`
	Headers   map[string]json.RawMessage `json:"headers"`
	// HeadersComplete says every request header is present (as in a WARC
	// request record), so a covered header that is absent was not sent.
	HeadersComplete bool `json:"headers_complete"`
	// BodyB64 is the request body, base64 (RFC 4648 §4, padding
	// optional), checked against a covered Content-Digest. Absent: the
	// digest is noted unchecked.
	BodyB64 *string `json:"body_b64"`
}

// ParseRequestJSON builds a Request from one JSON object, the input of
// "repaudit signature check":
//
//	{"time": "2025-06-01T12:00:00Z", "method": "GET", "scheme": "https",
//	 "authority": "example.com", "path": "/x?y", "ip": "192.0.2.1",
//	 "headers": {"Signature-Input": ["sig1=..."], "Signature": "sig1=:...:"},
//	 "headers_complete": false, "body_b64": "aGVsbG8="}
//
// time is RFC 3339 (the request is judged at it; absent: zero), and is
// returned in UTC; ip may be an IPv4-mapped IPv6 address (unmapped). Header
// names are taken in sorted order (JSON objects are unordered); each
// name's values keep their order, trimmed. A header value may be a string
// or an array of strings. body_b64 given, even empty, makes Body non-nil.
// Where is left for the caller. The error names the field at fault, and
// the Request is nil with it.
func ParseRequestJSON(line []byte) (*Request, error) {
	var in jsonRequest
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("not a request object: %w", err)
	}
	r := &Request{
		Method: in.Method, Scheme: in.Scheme, Authority: in.Authority, Target: in.Path,
		HeadersComplete: in.HeadersComplete,
	}
	if in.Time != "" {
		t, err := time.Parse(time.RFC3339Nano, in.Time)
		if err != nil {
			return nil, fmt.Errorf("time %q is not RFC 3339", in.Time)
		}
		r.Time = t.UTC()
	}
	if in.BodyB64 != nil {
		b64 := strings.TrimRight(strings.TrimSpace(*in.BodyB64), "=")
		body, err := base64.RawStdEncoding.DecodeString(b64)
		if err != nil {
			return nil, fmt.Errorf("body_b64 is not base64: %w", err)
		}
		if body == nil {
			body = []byte{} // an empty body given is still a body
		}
		r.Body = body
	}
	if in.IP != "" {
		ip, err := netip.ParseAddr(in.IP)
		if err != nil {
			return nil, fmt.Errorf("ip %q is not an IP address", in.IP)
		}
		r.IP = ip.Unmap()
	}
	h, err := jsonHeader(in.Headers)
	if err != nil {
		return nil, err
	}
	r.Header = h
	return r, nil
}

// jsonHeader turns the "headers" object into a Header, names sorted.
func jsonHeader(m map[string]json.RawMessage) (event.Header, error) {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	var h event.Header
	for _, n := range names {
		raw := m[n]
		var one string
		if err := json.Unmarshal(raw, &one); err == nil {
			h = append(h, event.Field{Name: n, Value: strings.TrimSpace(one)})
			continue
		}
		var many []string
		if err := json.Unmarshal(raw, &many); err != nil {
			return nil, fmt.Errorf("header %q is neither a string nor an array of strings", n)
		}
		for _, val := range many {
			h = append(h, event.Field{Name: n, Value: strings.TrimSpace(val)})
		}
	}
	return h, nil
}
