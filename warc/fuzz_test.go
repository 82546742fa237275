package warc

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"testing"
)

// addSampleSeeds adds the seeds every reader fuzz test starts from: each
// sample record, all of them in one gzip member and in two, and an ARC.
func addSampleSeeds(f *testing.F) {
	for _, r := range sampleRecords() {
		f.Add(r, uint8(0))
	}
	f.Add(join(sampleRecords()...), uint8(1))
	f.Add(join(sampleRecords()...), uint8(2))
	f.Add([]byte("filedesc://x.arc 0.0.0.0 19961104142103 text/plain 5\n1 0 \n\nhttp://e.com/ 1.2.3.4 19961104142103 text/html 19\nHTTP/1.0 200 OK\r\n\r\nx\n"), uint8(0))
	// An ARC v1.1 filedesc with XML metadata naming its crawler.
	f.Add([]byte("filedesc://x.arc 0.0.0.0 19961104142103 text/plain "+itoaDec(len(heritrixFiledesc))+"\n"+heritrixFiledesc+"\nhttp://e.com/ 1.2.3.4 19961104142103 text/html 19\nHTTP/1.0 200 OK\r\n\r\nx\n"), uint8(1))
}

// fuzzInput is data plain (mode 0), as one gzip member (1) or split over
// two (2).
func fuzzInput(data []byte, mode uint8) []byte {
	switch mode % 3 {
	case 1:
		return gzipMember(data)
	case 2:
		return gzipEach(data[:len(data)/2], data[len(data)/2:])
	}
	return data
}

// FuzzReader feeds arbitrary bytes, plain, as one gzip member and split
// over two gzip members, and checks that the reader never panics, ends
// with io.EOF (it reads from memory, so there is no I/O error), keeps
// bodies within the limit and locates records inside the input.
func FuzzReader(f *testing.F) {
	addSampleSeeds(f)
	f.Add(reqRec(1, "https://e.com/s", httpResponse("POST /s HTTP/1.1", "3\r\nhel\r\n0\r\n\r\n", "Host: e.com", "Content-Digest: sha-256=:x:", "Transfer-Encoding: chunked")).bytes(), uint8(0))
	f.Add(respRec(1, "http://e.com/", httpResponse("HTTP/1.1 200 OK", "5\r\nhello\r\n0\r\n\r\n", "Transfer-Encoding: chunked", "Content-Type: text/html")).bytes(), uint8(0))
	f.Add(respRec(1, "http://e.com/", httpResponse("HTTP/1.1 200 OK", string(gzipMember([]byte("hello"))), "Content-Encoding: gzip", "Content-Type: text/html")).bytes(), uint8(1))
	f.Add(respRec(1, "http://e.com/", httpResponse("HTTP/1.1 200 OK", "xx", "Content-Encoding: br", "Content-Type: text/html")).bytes(), uint8(0))
	f.Add(wrec{typ: "response", cl: "-", block: "HTTP/1.1 200 OK\r\n\r\n"}.bytes(), uint8(0))
	f.Add([]byte("WARC/1.0\r\nContent-Length: 99999999999\r\n\r\n"), uint8(1))
	f.Add(zstdFrame(join(sampleRecords()...)), uint8(0))
	// A lying Content-Length in a record of its own member, then a record
	// in the next (mode 2 splits the input into two members).
	lie := respRec(1, "http://e.com/", httpResponse("HTTP/1.1 200 OK", "x"))
	lie.cl = "99999999999"
	f.Add(join(lie.bytes(), lie.bytes()), uint8(2))
	if bz, err := os.ReadFile("testdata/two-records.warc.bz2"); err == nil {
		f.Add(bz, uint8(0))
	}
	f.Add(bytes.Replace(sampleRecords()[0], []byte("2024-05-01T12:00:00Z"), []byte("2024-05-01T12:00"), 1), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		input := fuzzInput(data, mode)
		const limit = 1 << 10
		r, err := NewReader(bytes.NewReader(input), "fuzz", Options{BodyLimit: func(string, string, int) int { return limit }, Resolver: NewResolver(1 << 16)})
		if err != nil {
			return
		}
		for i := 0; ; i++ {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if i > len(input) {
				t.Fatalf("more records (%d) than input bytes", i)
			}
			if c := rec.Capture; c != nil && len(c.Body) > limit {
				t.Fatalf("body of %d bytes over the limit", len(c.Body))
			}
			src := rec.Source
			bound := int64(len(input))
			if rec.Decompressed {
				bound = 1 << 62
			}
			if src.Offset < 0 || src.Length <= 0 || src.Offset+src.Length > bound {
				t.Fatalf("record Source %+v outside input of %d bytes (decompressed %v)", src, len(input), rec.Decompressed)
			}
			for _, p := range r.Problems() {
				if p.Code == "" || p.Severity == "" || p.Source.File != "fuzz" {
					t.Fatalf("problem without code, severity or file: %+v", p)
				}
			}
		}
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("Next after EOF: %v", err)
		}
		_ = fmt.Sprint(r.Compression(), r.Format(), r.BytesRead())
	})
}
