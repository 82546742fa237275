package warc

import (
	"strings"
	"testing"
)

// TestRequestBodyForContentDigest: a request record that carries
// Content-Digest keeps its body (chunked transfer coding removed, content
// coding kept, RFC 9530) so a covered digest can be checked; other
// requests keep none, and a body over MaxRequestBody is not kept.
func TestRequestBodyForContentDigest(t *testing.T) {
	req := func(fields []string, body string) string {
		return httpResponse("POST /submit HTTP/1.1", body, append([]string{"Host: example.com"}, fields...)...)
	}
	big := strings.Repeat("x", MaxRequestBody+1)
	for _, c := range []struct {
		name  string
		block string
		want  *string
	}{
		{"plain", req([]string{"Content-Digest: sha-256=:x:", "Content-Length: 5"}, "hello"), ptr("hello")},
		{"chunked", req([]string{"Content-Digest: sha-256=:x:", "Transfer-Encoding: chunked"}, "3\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n"), ptr("hello")},
		{"content coding kept", req([]string{"Content-Digest: sha-256=:x:", "Content-Encoding: gzip"}, "\x1f\x8bnot really"), ptr("\x1f\x8bnot really")},
		{"empty body", req([]string{"Content-Digest: sha-256=:x:"}, ""), ptr("")},
		{"no Content-Digest", req([]string{"Content-Length: 5"}, "hello"), nil},
		{"too long", req([]string{"Content-Digest: sha-256=:x:"}, big), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, recs, _ := readAll(t, reqRec(1, "https://example.com/submit", c.block).bytes(), Options{})
			if len(recs) != 1 || recs[0].Fetch == nil {
				t.Fatalf("got %d records", len(recs))
			}
			got := recs[0].Fetch.Body
			switch {
			case c.want == nil && got != nil:
				t.Errorf("body kept (%d bytes), want none", len(got))
			case c.want != nil && got == nil:
				t.Errorf("no body, want %q", *c.want)
			case c.want != nil && string(got) != *c.want:
				t.Errorf("body %q, want %q", got, *c.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }
