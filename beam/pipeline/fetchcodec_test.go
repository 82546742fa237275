package pipeline

import (
	"bytes"
	"errors"
	"io"
	"net/netip"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/event"
)

// testFetch sets a field of each kind of event.Fetch (that every field
// travels is checked in package event: TestFetchCodecCarriesEveryField).
func testFetch() *event.Fetch {
	return &event.Fetch{
		Time: time.Date(2025, 3, 4, 5, 6, 7, 890, time.UTC), ClientIP: netip.MustParseAddr("2001:db8::7"),
		Method: "GET", Host: "example.com", Target: "/a?b", Status: 200, Bytes: -1,
		Header: event.Header{{Name: "User-Agent", Value: "ExampleBot/1.0"}}, SignatureRecorded: true,
		Body: []byte{7}, ConcurrentTo: []string{"<urn:uuid:a>"}, Origin: event.OriginLog,
		Source: event.Source{File: "x.log", Line: 3, Offset: -1},
	}
}

// TestFetchRecordEnvelope checks that the envelope (model, replica,
// file, split, seq) and the fetch come back from a binary record.
func TestFetchRecordEnvelope(t *testing.T) {
	for _, in := range []*record{
		{Kind: kindFetch, Model: true, Replica: true, File: 3, Split: 2, Seq: 12345, Fetch: testFetch()},
		{Kind: kindFetch, Seq: -1, Fetch: &event.Fetch{}},
	} {
		got, err := decodeRecord(appendFetchRecord(nil, in))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, in) {
			t.Errorf("round trip:\n got %+v %+v\nwant %+v %+v", got, got.Fetch, in, in.Fetch)
		}
	}
	for _, b := range [][]byte{{fetchTag}, {fetchTag, 0x80}, {fetchTag, 0, 0, 0, 0}, {fetchTag, 0, 0x80}} {
		if _, err := decodeRecord(b); !errors.Is(err, errBadFetch) {
			t.Errorf("% x: got %v, want errBadFetch", b, err)
		}
	}
}

// FuzzFetchRecord: no byte sequence makes the decoder panic, and what it
// accepts encodes back to the same bytes.
func FuzzFetchRecord(f *testing.F) {
	f.Add(appendFetchRecord(nil, &record{Kind: kindFetch, Model: true, File: 1, Seq: 9, Fetch: testFetch()}))
	f.Add(appendFetchRecord(nil, &record{Kind: kindFetch, Fetch: &event.Fetch{Header: event.Header{}}}))
	f.Add([]byte{fetchTag, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord(b)
		if err != nil || b[0] != fetchTag {
			return
		}
		if again := appendFetchRecord(nil, r); !bytes.Equal(again, b) {
			// Varints have one shortest form; other forms are accepted
			// but not written. The decoded record must be stable.
			r2, err := decodeRecord(again)
			if err != nil || !reflect.DeepEqual(r, r2) {
				t.Fatalf("re-encoding changed the record: %v", err)
			}
		}
	})
}

// benchFetches reads the fetches of the log in $REPAUDIT_BENCH_LOG
// (skipped when unset; see the Stage benchmarks of package event), as
// records of the read stage.
func benchFetches(b *testing.B) []*record {
	p := os.Getenv("REPAUDIT_BENCH_LOG")
	if p == "" {
		b.Skip("REPAUDIT_BENCH_LOG not set")
	}
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	r, err := accesslog.NewReader(bytes.NewReader(data), "x.log", accesslog.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var out []*record
	for i := 0; ; i++ {
		f, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		c := *f
		c.Header = append(event.Header(nil), f.Header...)
		out = append(out, &record{Kind: kindFetch, File: 1, Split: 2, Seq: int64(i), Fetch: &c})
	}
	return out
}

// BenchmarkFetchCodecEncode codes a log's fetches as the read stage
// does, one record on its own each.
func BenchmarkFetchCodecEncode(b *testing.B) {
	recs := benchFetches(b)
	b.ReportAllocs()
	var buf []byte
	n := 0
	for b.Loop() {
		for _, r := range recs {
			buf = appendFetchRecord(buf[:0], r)
			n += len(buf)
		}
	}
	b.ReportMetric(float64(n)/float64(b.N)/float64(len(recs)), "B/fetch")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(recs)), "ns/fetch")
}

// BenchmarkFetchCodecDecode decodes them as a partition does.
func BenchmarkFetchCodecDecode(b *testing.B) {
	recs := benchFetches(b)
	coded := make([][]byte, len(recs))
	for i, r := range recs {
		coded[i] = appendFetchRecord(nil, r)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range coded {
			if _, err := decodeRecord(c); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(recs)), "ns/fetch")
}
