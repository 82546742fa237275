package pipeline

import (
	"bytes"
	"io"
	"net/netip"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/event"
)

// fill sets every field reachable from v (a settable value) to something
// that is not its zero value, so that a field the codec drops shows.
func fill(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	switch v.Interface().(type) {
	case time.Time:
		v.Set(reflect.ValueOf(time.Date(2025, 3, 4, 5, 6, 7, 890, time.UTC)))
		return
	case netip.Addr:
		v.Set(reflect.ValueOf(netip.MustParseAddr("2001:db8::7")))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(path)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(len(path)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(t, s.Index(i), path+"[i]")
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				t.Fatalf("%s.%s: an unexported field the codec cannot know", path, v.Type().Field(i).Name)
			}
			fill(t, v.Field(i), path+"."+v.Type().Field(i).Name)
		}
	case reflect.Uint8:
		v.SetUint(7)
	default:
		t.Fatalf("%s: kind %s not handled by this test (nor, surely, by the codec)", path, v.Kind())
	}
}

// TestFetchCodecCarriesEveryField fills every field of event.Fetch and
// checks that the binary record gives back the same fetch: a field added
// to event.Fetch without a place in the codec fails here.
func TestFetchCodecCarriesEveryField(t *testing.T) {
	var f event.Fetch
	fill(t, reflect.ValueOf(&f).Elem(), "f")
	in := &record{Kind: kindFetch, Model: true, Replica: true, File: 3, Split: 2, Seq: 12345, Fetch: &f}
	got, err := decodeRecord(appendFetchRecord(nil, in))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, in) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got.Fetch, in.Fetch)
	}
	// Zero values, nil and empty slices, an IPv4 address and a time
	// before 1970 keep their form too.
	for _, f := range []event.Fetch{
		{},
		{Header: event.Header{}, Body: []byte{}, ConcurrentTo: []string{}, Bytes: -1, Source: event.Source{Offset: -1}},
		{Time: time.Date(1969, 12, 31, 23, 59, 59, 5, time.UTC), ClientIP: netip.MustParseAddr("192.0.2.1"), Status: -3},
		{ClientIP: netip.MustParseAddr("fe80::1%eth0")},
	} {
		in := &record{Kind: kindFetch, Fetch: &f}
		got, err := decodeRecord(appendFetchRecord(nil, in))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, in) {
			t.Errorf("round trip:\n got %#v\nwant %#v", got.Fetch, in.Fetch)
		}
	}
}

// FuzzFetchRecord: no byte sequence makes the decoder panic, and what it
// accepts encodes back to the same bytes.
func FuzzFetchRecord(f *testing.F) {
	var full event.Fetch
	fill(&testing.T{}, reflect.ValueOf(&full).Elem(), "f")
	f.Add(appendFetchRecord(nil, &record{Kind: kindFetch, Model: true, File: 1, Seq: 9, Fetch: &full}))
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
