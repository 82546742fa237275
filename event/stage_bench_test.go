package event_test

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/event"
)

// The pass-1 and spool stages of a log line, each alone, on a log of
// your own (skipped when $REPAUDIT_BENCH_LOG is unset), for instance the
// first 500,000 lines of a bench/run corpus:
//
//	head -500000 $TMPDIR/repaudit-bench/corpus-4000000-1/logs/access-00.log > /tmp/500k.log
//	REPAUDIT_BENCH_LOG=/tmp/500k.log go test -run XXX -bench Stage ./event
//
// StageParse reads the log (accesslog.Reader), StageWrite codes its
// fetches to a spool (FetchWriter, reporting the spool's bytes per
// fetch), StageRead decodes them (FetchReader.NextInto into recycled
// fetches, as pass 2 does).

func benchLog(b *testing.B) []byte {
	p := os.Getenv("REPAUDIT_BENCH_LOG")
	if p == "" {
		b.Skip("REPAUDIT_BENCH_LOG not set")
	}
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func parseAll(b *testing.B, data []byte) []event.Fetch {
	r, err := accesslog.NewReader(bytes.NewReader(data), "x.log", accesslog.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var out []event.Fetch
	for {
		f, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		c := *f
		c.Header = append(event.Header(nil), f.Header...)
		out = append(out, c)
	}
	return out
}

func BenchmarkStageParse(b *testing.B) {
	data := benchLog(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, _ := accesslog.NewReader(bytes.NewReader(data), "x.log", accesslog.Options{})
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}

// sink counts what it is given.
type sink struct{ n int }

func (s *sink) Write(p []byte) (int, error) { s.n += len(p); return len(p), nil }

func BenchmarkStageWrite(b *testing.B) {
	fs := parseAll(b, benchLog(b))
	b.ReportAllocs()
	var s sink
	for b.Loop() {
		w := event.NewFetchWriter(&s)
		for i := range fs {
			w.Write(&fs[i])
		}
		w.Flush()
	}
	b.ReportMetric(float64(s.n)/float64(b.N)/float64(len(fs)), "B/fetch")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(fs)), "ns/fetch")
}

func BenchmarkStageRead(b *testing.B) {
	fs := parseAll(b, benchLog(b))
	var buf bytes.Buffer
	w := event.NewFetchWriter(&buf)
	for i := range fs {
		w.Write(&fs[i])
	}
	w.Flush()
	b.ReportAllocs()
	slab := make([]event.Fetch, 256)
	for b.Loop() {
		r := event.NewFetchReader(bytes.NewReader(buf.Bytes()))
		for i := 0; ; i++ {
			if err := r.NextInto(&slab[i%len(slab)]); err != nil {
				break
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(fs)), "ns/fetch")
}
