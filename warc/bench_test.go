package warc

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc"

	"github.com/repaudit/repaudit/internal/cputime"
	"github.com/repaudit/repaudit/internal/synth"
)

// corpus is a generated per-record-gzip WARC of realistic HTML captures
// with request records, shared by the benchmarks.
var corpus struct {
	once         sync.Once
	gz           []byte
	uncompressed int64
	records      int
}

// htmlPage returns a page of about size bytes.
func htmlPage(rng *rand.Rand, vocab []string, size int) string {
	var b strings.Builder
	b.Grow(size + 512)
	synth.HTMLPage(&b, rng, vocab, size)
	return b.String()
}

func benchCorpus(b *testing.B) ([]byte, int64) {
	corpus.once.Do(func() {
		rng := rand.New(rand.NewPCG(1, 2))
		vocab := synth.Vocabulary(rng, 3000)
		var out bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&out, gzip.DefaultCompression)
		add := func(rec []byte) {
			zw.Reset(&out)
			zw.Write(rec)
			zw.Close()
			corpus.uncompressed += int64(len(rec))
			corpus.records++
		}
		add(wrec{typ: "warcinfo", id: "<urn:uuid:info>", ctype: "application/warc-fields", block: "software: bench\r\nformat: WARC File Format 1.1\r\n"}.bytes())
		for i := 0; corpus.uncompressed < 32<<20; i++ {
			host := fmt.Sprintf("www.site%d.example", rng.IntN(50))
			path := fmt.Sprintf("/%s/%s-%d.html", vocab[rng.IntN(len(vocab))], vocab[rng.IntN(len(vocab))], i)
			uri := "https://" + host + path
			reqBlock := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: Mozilla/5.0 (compatible; ExampleBot/2.1; +https://bot.example/info)\r\nAccept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n", path, host)
			page := htmlPage(rng, vocab, 4<<10+rng.IntN(90<<10))
			fields := []string{
				"Date: Wed, 01 May 2024 12:00:00 GMT", "Server: nginx/1.25.3",
				"Content-Type: text/html; charset=utf-8", fmt.Sprintf("Content-Length: %d", len(page)),
				"Cache-Control: max-age=600", fmt.Sprintf("Set-Cookie: sid=%016x; Path=/; HttpOnly", rng.Uint64()),
				"Vary: Accept-Encoding",
			}
			if rng.IntN(8) == 0 {
				fields = append(fields, "X-Robots-Tag: noarchive")
			}
			respID := fmt.Sprintf("<urn:uuid:%08x-resp-%d>", rng.Uint32(), i)
			add(wrec{typ: "request", id: fmt.Sprintf("<urn:uuid:%08x-req-%d>", rng.Uint32(), i), uri: uri, ctype: "application/http;msgtype=request",
				extra: []string{"WARC-Concurrent-To: " + respID, "WARC-IP-Address: 192.0.2.1"}, block: reqBlock}.bytes())
			add(wrec{typ: "response", id: respID, uri: uri, ctype: "application/http;msgtype=response",
				extra: []string{"WARC-IP-Address: 192.0.2.1", "WARC-Payload-Digest: sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"},
				block: httpResponse("HTTP/1.1 200 OK", page, fields...)}.bytes())
		}
		corpus.gz = out.Bytes()
	})
	return corpus.gz, corpus.uncompressed
}

// reportCPU starts measuring CPU time; the returned function reports CPU
// MB/s (bytes per CPU second, all threads including GC).
func reportCPU(b *testing.B, n int64) func() {
	start := cputime.Process()
	return func() {
		if d := cputime.Process() - start; d > 0 && b.N > 0 {
			b.ReportMetric(float64(n)*float64(b.N)/d.Seconds()/1e6, "cpu-MB/s")
		}
	}
}

// BenchmarkGunzip is the floor: decompressing the corpus and nothing else.
func BenchmarkGunzip(b *testing.B) {
	data, n := benchCorpus(b)
	b.SetBytes(n)
	b.ReportAllocs()
	zr := new(gzip.Reader)
	defer reportCPU(b, n)()
	for b.Loop() {
		zr.Reset(bytes.NewReader(data))
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIngest reads every record of the corpus with default options
// (HTML bodies kept up to 64 KiB).
func BenchmarkIngest(b *testing.B) { benchRead(b, Options{}) }

// BenchmarkIngestResolver reads as `repaudit audit` does: default body
// limits and a Resolver remembering every response. Its budget is 4 MiB,
// an eighth of the corpus, as audit's 32 MiB per file is of a file of a
// large crawl: most remembered bodies evict older ones.
func BenchmarkIngestResolver(b *testing.B) {
	benchReadWith(b, func() Options { return Options{Resolver: NewResolver(4 << 20)} })
}

// benchRead reads every record of the corpus with opts, once per round.
func benchRead(b *testing.B, opts Options) {
	benchReadWith(b, func() Options { return opts })
}

// benchReadWith is benchRead with the options of each round made anew.
func benchReadWith(b *testing.B, options func() Options) {
	data, n := benchCorpus(b)
	b.SetBytes(n)
	b.ReportAllocs()
	defer reportCPU(b, n)()
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(data), "bench.warc.gz", options())
		if err != nil {
			b.Fatal(err)
		}
		count := 0
		for _, err := range r.All() {
			if err != nil {
				b.Fatal(err)
			}
			count++
		}
		if count != corpus.records {
			b.Fatalf("read %d records, want %d", count, corpus.records)
		}
	}
}

// BenchmarkGowarcLenient is gowarc's own reader without validation, for
// comparison (it is not used by the Reader; see doc.go).
func BenchmarkGowarcLenient(b *testing.B) {
	data, n := benchCorpus(b)
	b.SetBytes(n)
	b.ReportAllocs()
	defer reportCPU(b, n)()
	for b.Loop() {
		wf, err := gowarc.NewWarcFileReaderFromStream(bytes.NewReader(data), 0, gowarc.WithNoValidation())
		if err != nil {
			b.Fatal(err)
		}
		count := 0
		for {
			rec, _, _, err := wf.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			rec.Close()
			count++
		}
		if count != corpus.records {
			b.Fatalf("read %d records, want %d", count, corpus.records)
		}
	}
}

// BenchmarkInspect reads every record of the corpus as `repaudit inspect`
// does: headers only, no body kept (a BodyLimit of 0), records' memory
// reused.
func BenchmarkInspect(b *testing.B) {
	benchRead(b, Options{BodyLimit: func(string, string, int) int { return 0 }, Reuse: true})
}

// BenchmarkInspectFile is BenchmarkInspect, and BenchmarkGunzipFile
// BenchmarkGunzip, on the file named by REPAUDIT_BENCH_WARC (a .warc.gz,
// read into memory first; for instance one of bench/inspect's corpus).
func BenchmarkInspectFile(b *testing.B) {
	data := benchFile(b)
	opts := Options{BodyLimit: func(string, string, int) int { return 0 }, Reuse: true}
	defer reportCPU(b, int64(len(data)))()
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(data), "bench.warc.gz", opts)
		if err != nil {
			b.Fatal(err)
		}
		for _, err := range r.All() {
			if err != nil {
				b.Fatal(err)
			}
		}
		if p := r.Problems(); len(p) > 0 {
			b.Fatalf("problems: %v", p)
		}
	}
}

func BenchmarkGunzipFile(b *testing.B) {
	data := benchFile(b)
	zr := new(gzip.Reader)
	defer reportCPU(b, int64(len(data)))()
	for b.Loop() {
		zr.Reset(bytes.NewReader(data))
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
	}
}

func benchFile(b *testing.B) []byte {
	name := os.Getenv("REPAUDIT_BENCH_WARC")
	if name == "" {
		b.Skip("REPAUDIT_BENCH_WARC is not set")
	}
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	return data
}
