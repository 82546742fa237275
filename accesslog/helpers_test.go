package accesslog

import (
	"fmt"
	"io"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// Signature header values in the shape of the Web Bot Auth examples: they
// hold quotes, '+', '/', '=' and spaces, everything escaping can mangle.
const (
	sigInput = `sig1=("@authority" "signature-agent");created=1735689600;expires=1735693200;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";nonce="ZO3/XMEZjrvSnLtAP9M7jK0WGQf3J+pbmQRUpKDhF9/jsNCWqUh2sq+TH4WTX3/GpNoSZUa8eNWMKqxWp2/c2g==";tag="web-bot-auth"`
	sigValue = `sig1=:uz2SAv+VIemw+Oo890bhYh6Xf5qZdLUgv6/PbiQfCFXcX/vt1A8Pf7OcgL2yUDgP5Yw2xuK3jT+Xl6GMkKxF0Q==:`
	sigAgent = `"https://signature-agent.test"`
)

// apacheEscape escapes a value the way Apache's log module does: \" and
// \\ and \xHH for control bytes.
func apacheEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// nginxEscape escapes a value the way nginx's default log escaping does:
// '"', '\' and bytes outside 0x20-0x7e as \xHH (upper-case hex).
func nginxEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02X`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// readAll reads every fetch (deep-copied) and every problem of in.
func readAll(t *testing.T, in string, opts Options) (*Reader, []event.Fetch, []event.Problem) {
	t.Helper()
	r, err := NewReader(strings.NewReader(in), "test.log", opts)
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	fetches, probs, err := drain(r)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return r, fetches, probs
}

func drain(r *Reader) ([]event.Fetch, []event.Problem, error) {
	var fetches []event.Fetch
	var probs []event.Problem
	for {
		f, err := r.Next()
		probs = append(probs, r.Problems()...)
		if err == io.EOF {
			return fetches, probs, nil
		}
		if err != nil {
			return fetches, probs, err
		}
		c := *f
		c.Header = slices.Clone(f.Header)
		fetches = append(fetches, c)
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm.UTC()
}

func ip(s string) netip.Addr { return netip.MustParseAddr(s) }

func hdr(kv ...string) event.Header {
	var h event.Header
	for i := 0; i+1 < len(kv); i += 2 {
		h = append(h, event.Field{Name: kv[i], Value: kv[i+1]})
	}
	return h
}

// checkFetch compares every field of got with want, naming the ones that
// differ. Origin, Offset and File are filled in want when left zero.
func checkFetch(t *testing.T, got, want event.Fetch) {
	t.Helper()
	if want.Origin == "" {
		want.Origin = event.OriginLog
	}
	if want.Source.File == "" {
		want.Source.File = "test.log"
		want.Source.Offset = -1
	}
	if len(want.Header) == 0 {
		want.Header = nil
	}
	if len(got.Header) == 0 {
		got.Header = nil
	}
	gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := 0; i < gv.NumField(); i++ {
		name := gv.Type().Field(i).Name
		g, w := gv.Field(i).Interface(), wv.Field(i).Interface()
		if gt, ok := g.(time.Time); ok {
			if wt := w.(time.Time); !gt.Equal(wt) || gt.Location() != time.UTC {
				t.Errorf("%s: got %v, want %v (UTC)", name, gt, wt)
			}
			continue
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: got %#v, want %#v", name, g, w)
		}
	}
}

// codes lists the problem codes in order.
func codes(ps []event.Problem) []problem.Code {
	var c []problem.Code
	for _, p := range ps {
		c = append(c, p.Code)
	}
	return c
}
