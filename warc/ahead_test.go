package warc

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"testing"
	"testing/iotest"
	"time"

	"github.com/klauspost/compress/gzip"
)

// readBoth reads input with and without Options.ReadAhead (the stored
// bytes given whole or one byte a Read, which changes where the
// producer's Reads end) and fails t unless the records, the problems,
// the bytes read and the compression are the same.
func readBoth(t *testing.T, input []byte, opts Options) {
	t.Helper()
	type result struct {
		recs        []*Record
		probs       []string
		err         error
		bytes       int64
		compression string
	}
	read := func(ahead, oneByte bool) (res result) {
		o := opts
		o.ReadAhead = ahead
		var src io.Reader = bytes.NewReader(input)
		switch {
		case oneByte && len(input) <= 64<<10:
			src = iotest.OneByteReader(src)
		case oneByte:
			src = &shortReader{r: src, n: 61} // one byte a Read is slow on large inputs under -race
		}
		r, err := NewReader(src, "t.warc.gz", o)
		if err != nil {
			return result{err: err}
		}
		defer r.Close()
		var probs []string
		res.recs, _, res.err = drain(r)
		for _, p := range r.Problems() {
			probs = append(probs, fmt.Sprintf("%v %s %s", p.Source, p.Code, p.Message))
		}
		res.probs, res.bytes, res.compression = probs, r.BytesRead(), r.Compression()
		return res
	}
	want := read(false, false)
	for _, oneByte := range []bool{false, true} {
		got := read(true, oneByte)
		if fmt.Sprint(got.err) != fmt.Sprint(want.err) {
			t.Fatalf("read ahead (one byte a read: %v): error %v, want %v", oneByte, got.err, want.err)
		}
		if len(got.recs) != len(want.recs) {
			t.Fatalf("read ahead (one byte a read: %v): %d records, want %d", oneByte, len(got.recs), len(want.recs))
		}
		for i := range want.recs {
			if !reflect.DeepEqual(got.recs[i], want.recs[i]) {
				t.Fatalf("read ahead (one byte a read: %v): record %d\ngot  %+v\nwant %+v", oneByte, i, got.recs[i], want.recs[i])
			}
		}
		if !reflect.DeepEqual(got.probs, want.probs) || got.bytes != want.bytes || got.compression != want.compression {
			t.Fatalf("read ahead (one byte a read: %v): problems %q, %d bytes, %s; want %q, %d bytes, %s",
				oneByte, got.probs, got.bytes, got.compression, want.probs, want.bytes, want.compression)
		}
	}
}

// TestReadAheadSame: reading ahead changes nothing the caller sees, on
// inputs whose members are whole, shared, corrupt, cut, padded or
// preceded by garbage, gzip and zstd, and on one large enough for many
// batches.
func TestReadAheadSame(t *testing.T) {
	recs := sampleRecords()
	all := join(recs...)
	each := gzipEach(recs...)
	corrupt := gzipMember(recs[1])
	corrupt[len(corrupt)/2] ^= 0xff
	badSum := gzipMember(recs[2])
	badSum[len(badSum)-6] ^= 0xff // the CRC-32 of the trailer
	cut := gzipEach(recs...)
	var many [][]byte
	for i := range 1500 {
		body := fmt.Sprintf("<html><head><meta name=robots content=noindex></head>%s</html>", bytes.Repeat([]byte{'a' + byte(i%26)}, i%700))
		many = append(many, respRec(i, fmt.Sprintf("https://e.example/%d", i), httpResponse("HTTP/1.1 200 OK", body, "Content-Type: text/html")).bytes())
	}
	cases := []struct {
		name  string
		input []byte
	}{
		{"gzip each", each},
		{"gzip whole", gzipMember(all)},
		{"gzip halves", gzipEach(all[:len(all)/2], all[len(all)/2:])},
		{"corrupt member", join(gzipMember(recs[0]), corrupt, gzipEach(recs[2:]...))},
		{"bad checksum", join(gzipMember(recs[0]), badSum, gzipEach(recs[3:]...))},
		{"garbage between", join(gzipMember(recs[0]), []byte("not a member at all"), gzipEach(recs[1:]...))},
		{"cut", cut[:len(cut)-len(gzipMember(recs[len(recs)-1]))/2]},
		{"cut in magic", join(each, []byte{0x1f})},
		{"zero padding", join(each, make([]byte, 512))},
		{"empty members", join(gzipMember(nil), gzipMember(recs[0]), gzipMember(nil), gzipMember(nil), gzipEach(recs[1:]...))},
		{"zstd", zstdFrame(all)},
		{"zstd frames", join(zstdFrame(recs[0]), zstdFrame(join(recs[1:]...)))},
		{"many", gzipFast(many...)},
		{"many in one member", gzipMember(join(many...))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			readBoth(t, c.input, Options{})
			readBoth(t, c.input, Options{Resolver: NewResolver(1 << 20), ReuseRecords: true})
		})
	}
}

// TestReadAheadClose: a Reader closed before the end stops its producer
// (no goroutine is left blocked on a batch nobody reads).
func TestReadAheadClose(t *testing.T) {
	var many [][]byte
	for i := range 2000 {
		many = append(many, respRec(i, fmt.Sprintf("https://e.example/%d", i), httpResponse("HTTP/1.1 200 OK", "x")).bytes())
	}
	input := gzipFast(many...)
	before := runtime.NumGoroutine()
	for range 20 {
		r, err := NewReader(bytes.NewReader(input), "t.warc.gz", Options{ReadAhead: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		r.Close()
		r.Close() // twice is harmless
	}
	// Close waits for the producer to return; its goroutine may take a
	// moment more to be gone from the count.
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after closing 20 readers, %d before", n, before)
	}
}

// shortReader returns at most n bytes a Read.
type shortReader struct {
	r io.Reader
	n int
}

func (s *shortReader) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), s.n)]) }

// gzipFast is gzipEach with one writer, Reset for each member: a new
// writer per member is slow under -race.
func gzipFast(parts ...[]byte) []byte {
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
	for _, p := range parts {
		zw.Reset(&out)
		zw.Write(p)
		zw.Close()
	}
	return out.Bytes()
}

// FuzzReadAhead: on any input, reading ahead gives what reading does.
func FuzzReadAhead(f *testing.F) {
	addSampleSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		readBoth(t, fuzzInput(data, mode), Options{BodyLimit: func(string, string, int) int { return 1 << 10 }})
	})
}
