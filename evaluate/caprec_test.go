package evaluate

import (
	"regexp"
	"slices"
	"testing"
)

// The forms kept as bytes (WARC 1.1 §5.2 and §5.9, RFC 9562 §4, RFC 4648
// §6): 32 base32 characters are 160 bits, any 20 bytes.
var (
	uuidForm = regexp.MustCompile(`^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}>$`)
	sha1Form = regexp.MustCompile(`^sha1:[A-Z2-7]{32}$`)
)

// A record ID is kept as 16 bytes only when it has the standard form in
// lower case, and then reads back as written; any other string is not.
func FuzzRecordID(f *testing.F) {
	for _, s := range []string{"<urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0>",
		"<urn:uuid:0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0>", "<urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0 ",
		"<urn:uuid:0f1e2d3c+4b5a-6978-8796-a5b4c3d2e1f0>", "urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		b, ok := recordIDBytes(id)
		if !ok {
			if uuidForm.MatchString(id) {
				t.Fatalf("%q not kept as bytes", id)
			}
			return
		}
		if got := recordIDString(string(b[:])); got != id {
			t.Fatalf("%q kept as %x, reads back as %q", id, b, got)
		}
	})
}

// A payload digest is kept as 20 bytes only when "sha1:" and its base32
// read back exactly.
func FuzzPayloadDigest(f *testing.F) {
	for _, s := range []string{"sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", "sha1:3i42h3s6nnfq2msvx7xzkyayscx5qbyj",
		"sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBY=", "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QB\nJ", "SHA1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ",
		"sha256:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, d string) {
		b, ok := digestBytes(d)
		if !ok {
			if sha1Form.MatchString(d) {
				t.Fatalf("%q not kept as bytes", d)
			}
			return
		}
		if got := digestString(string(b[:])); got != d {
			t.Fatalf("%q kept as %x, reads back as %q", d, b, got)
		}
	})
}

// The standard forms are kept as bytes, and a capture summary holding
// them needs no capExtra.
func TestCompactForms(t *testing.T) {
	if _, ok := recordIDBytes("<urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0>"); !ok {
		t.Error("standard record id not kept as bytes")
	}
	if _, ok := digestBytes("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"); !ok {
		t.Error("sha1 digest not kept as bytes")
	}
	for _, id := range []string{"<urn:uuid:0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0>", "<urn:uuid:1>"} {
		if _, ok := recordIDBytes(id); ok {
			t.Errorf("%q kept as bytes", id)
		}
	}
}

// A robots.txt request record's ids read back as written.
func FuzzWARCIDs(f *testing.F) {
	f.Add("<urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0>", "<urn:uuid:1>", "")
	f.Add("", "<urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0>", "x")
	f.Fuzz(func(t *testing.T, id, c1, c2 string) {
		for _, conc := range [][]string{nil, {c1}, {c1, c2}} {
			s := warcIDs(id, conc)
			if id == "" && len(conc) == 0 {
				if s != "" {
					t.Fatalf("no ids coded as %q", s)
				}
				continue
			}
			gotID, gotConc := fromWARCIDs(s)
			if gotID != id || !slices.Equal(gotConc, conc) || (conc == nil) != (gotConc == nil) {
				t.Fatalf("%q %q read back as %q %q", id, conc, gotID, gotConc)
			}
		}
	})
}
