package signature

import (
	"testing"
	"time"
)

// BenchmarkVerifyEd25519 verifies a signed request (legacy Signature-Agent,
// @authority and signature-agent covered) with its key in a snapshot.
func BenchmarkVerifyEd25519(b *testing.B) {
	f := &fixture{ed: newEd25519Key(b, 1)}
	in, sig := signed(b, f.ed, "sig1", []line{{`"@authority"`, "example.com"}, {`"signature-agent"`, `"` + botURL + `"`}}, f.params(f.ed))
	r := req(hdr("User-Agent", "ExampleBot/1.0", "Signature-Agent", `"`+botURL+`"`, "Signature-Input", in, "Signature", sig))
	v := NewVerifier(newMemSource().add(botURL, t0.Add(-time.Hour), f.ed.key), Options{})
	if res := v.Verify(r); res.Verdict != Verified {
		b.Fatalf("got %s %v", res.Verdict, res.Reasons)
	}
	b.ReportAllocs()
	for b.Loop() {
		v.Verify(r)
	}
}

// BenchmarkReplayObserve measures the replay detector on distinct
// signatures.
func BenchmarkReplayObserve(b *testing.B) {
	f := &fixture{ed: newEd25519Key(b, 1)}
	in, sig := signed(b, f.ed, "sig1", []line{{`"@authority"`, "example.com"}}, f.params(f.ed))
	r := req(hdr("Signature-Input", in, "Signature", sig))
	res := NewVerifier(nil, Options{}).Verify(r)
	d := NewReplayDetector(1 << 16)
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		n++
		res.signature = []byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)}
		d.Observe(r, res)
	}
}
