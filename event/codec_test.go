package event

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fullFetch sets every field of Fetch (TestCodecEveryField checks that it
// does, so a field added later cannot be forgotten by the codec).
func fullFetch(i int) *Fetch {
	return &Fetch{
		Time:              time.Date(2025, 3, 12, 10, 0, i, 123456789, time.UTC),
		ClientIP:          netip.MustParseAddr("2001:db8::1"),
		ForwardedFor:      "2001:db8::1, 10.0.0.1",
		Method:            "POST",
		Scheme:            "https",
		Host:              "www.example.com",
		Target:            fmt.Sprintf("/p%d?q=1", i),
		Status:            201,
		Bytes:             -1,
		UserAgent:         "Mozilla/5.0 (compatible; ExampleBot/1.0)",
		Referer:           "https://ref.example/",
		Header:            Header{{"Host", "www.example.com"}, {"Signature", fmt.Sprintf("sig=:%d:", i)}, {"Content-Digest", "sha-256=:x:"}},
		SignatureRecorded: true,
		Body:              []byte("a=1&b=\x00\xff"),
		CDNVerifiedBot:    "Search Engine Crawler",
		Origin:            OriginWARC,
		Format:            "warc",
		RecordID:          fmt.Sprintf("<urn:uuid:%08d-0000-0000-0000-000000000000>", i),
		ConcurrentTo:      []string{"<urn:uuid:a>", "<urn:uuid:b>"},
		TargetURI:         fmt.Sprintf("https://www.example.com/p%d?q=1", i),
		PayloadDigest:     "sha1:JW2VUVGNBD7RWRELTRXQDUWEP6IJQVOF",
		ContentType:       "text/html",
		Source:            Source{File: "crawl.warc.gz", Line: 0, Offset: int64(1000 * i), Length: 512},
	}
}

// checkRoundTrip fails unless in comes back from a spool as it went in.
func checkRoundTrip(t *testing.T, in []*Fetch) {
	t.Helper()
	got := roundTrip(t, in)
	if len(got) != len(in) {
		t.Fatalf("%d fetches back, want %d", len(got), len(in))
	}
	for i := range in {
		if !reflect.DeepEqual(got[i], in[i]) {
			t.Fatalf("fetch %d:\n got %+v\nwant %+v", i, got[i], in[i])
		}
	}
}

func roundTrip(t *testing.T, in []*Fetch) []*Fetch {
	t.Helper()
	var buf bytes.Buffer
	w := NewFetchWriter(&buf)
	for _, f := range in {
		if err := w.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if w.Written() != int64(buf.Len()) {
		t.Errorf("Written = %d, stream holds %d bytes", w.Written(), buf.Len())
	}
	r := NewFetchReader(&buf)
	var out []*Fetch
	for {
		f, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %d fetches: %v", len(out), err)
		}
		out = append(out, f)
	}
	if r.Consumed() != w.Written() {
		t.Errorf("Consumed = %d, Written = %d", r.Consumed(), w.Written())
	}
	return out
}

func TestCodecEveryField(t *testing.T) {
	f := fullFetch(7)
	v := reflect.ValueOf(*f)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Errorf("fullFetch leaves %s zero: the round trip would not test it", v.Type().Field(i).Name)
		}
	}
	src := reflect.ValueOf(f.Source)
	for i := range src.NumField() {
		if src.Field(i).IsZero() && src.Type().Field(i).Name != "Line" {
			t.Errorf("fullFetch leaves Source.%s zero", src.Type().Field(i).Name)
		}
	}
	got := roundTrip(t, []*Fetch{f})
	if len(got) != 1 || !reflect.DeepEqual(got[0], f) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, f)
	}
}

// TestCodecRoundTrip covers what the compact coding depends on: deltas
// going backwards, nil against empty slices, zero values, address forms,
// strings longer than the table keeps, the table being cleared (with the
// writer's last string per field), and records longer than the reader's
// buffer.
func TestCodecRoundTrip(t *testing.T) {
	var in []*Fetch
	for i := range 3000 {
		f := fullFetch(3000 - i) // times, offsets go backwards
		switch i % 6 {
		case 0:
			f.Header, f.Body, f.ConcurrentTo = nil, nil, nil
		case 1:
			f.Header, f.Body, f.ConcurrentTo = Header{}, []byte{}, []string{}
		case 2:
			*f = Fetch{} // zero time, invalid address
		case 3:
			f.ClientIP = netip.MustParseAddr("::ffff:192.0.2.1")
			f.Source.Line, f.Source.Offset = int64(i), -1
		case 4:
			f.ClientIP = netip.MustParseAddr("fe80::1%eth0")
			f.UserAgent = strings.Repeat("u", maxInterned+1)
		case 5:
			f.ClientIP = netip.MustParseAddr("192.0.2.7")
			f.UserAgent = fmt.Sprintf("bot/%d", i) // fills and clears the table
			f.Time = time.Unix(-1, 5).UTC()
		}
		if i == 10 || i == 11 {
			// Records longer than the reader's buffer, back to back: read
			// whole rather than decoded in place.
			f.Body = bytes.Repeat([]byte{byte(i)}, 200<<10)
		}
		in = append(in, f)
	}
	checkRoundTrip(t, in)
}

// TestCodecCompact: repeated strings travel once; a log fetch costs few
// bytes beyond its target.
func TestCodecCompact(t *testing.T) {
	var buf bytes.Buffer
	w := NewFetchWriter(&buf)
	n := 10000
	for i := range n {
		f := &Fetch{Time: time.Unix(1741773600+int64(i), 0).UTC(), ClientIP: netip.MustParseAddr("203.0.113.9"),
			Method: "GET", Host: "www.example.com", Target: "/page", Status: 200, Bytes: 5120,
			UserAgent: "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://bot.example/)", Referer: "-",
			Origin: OriginLog, Format: "combined", Source: Source{File: "/var/log/access.log", Line: int64(i + 1), Offset: -1}}
		if err := w.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	if per := buf.Len() / n; per > 36 {
		t.Errorf("%d bytes a fetch, want at most 36", per)
	}
}

// TestCodecCorrupt: damaged streams are errors that wrap ErrCorrupt and
// name the record's offset, never a panic or a made-up fetch.
func TestCodecCorrupt(t *testing.T) {
	var buf bytes.Buffer
	w := NewFetchWriter(&buf)
	w.Write(fullFetch(1))
	w.Write(fullFetch(2))
	w.Flush()
	good := buf.Bytes()
	cases := map[string][]byte{
		"no magic":      []byte("RAFETCH0"),
		"empty":         nil,
		"cut":           good[:len(good)-3],
		"huge length":   append([]byte(fetchMagic), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
		"bad flags":     append([]byte(fetchMagic), 2, 0x7f, 0),
		"dangling ref":  append([]byte(fetchMagic), 7, 0, 0, 0, 0, 0, 0, 4),
		"left over":     append(append([]byte(fetchMagic), byte(len(good)-len(fetchMagic)+1)), append(good[len(fetchMagic)+1:], 0)...),
		"bad addr size": append([]byte(fetchMagic), 6, 0, 0, 0, 3, 1, 2),
	}
	for name, data := range cases {
		r := NewFetchReader(bytes.NewReader(data))
		var err error
		for err == nil {
			_, err = r.Next()
		}
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
		if name != "no magic" && name != "empty" && !strings.Contains(err.Error(), "record at byte") {
			t.Errorf("%s: %v does not name the offset", name, err)
		}
	}
}

// FuzzFetchReader: no byte sequence panics the reader; whatever it
// accepts encodes back to a stream that decodes to the same fetches.
func FuzzFetchReader(f *testing.F) {
	var buf bytes.Buffer
	w := NewFetchWriter(&buf)
	w.Write(fullFetch(1))
	w.Write(&Fetch{})
	w.Write(fullFetch(2))
	w.Flush()
	f.Add(buf.Bytes())
	f.Add([]byte(fetchMagic))
	f.Add(append([]byte(fetchMagic), 3, 0, 0, 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewFetchReader(bytes.NewReader(data))
		var got []*Fetch
		for {
			ft, err := r.Next()
			if err != nil {
				break
			}
			got = append(got, ft)
		}
		// NextInto, into one reused Fetch, decodes the same fetches and
		// stops at the same record.
		ri := NewFetchReader(bytes.NewReader(data))
		var into Fetch
		for i := 0; ; i++ {
			err := ri.NextInto(&into)
			if i == len(got) {
				if err == nil {
					t.Fatalf("NextInto decodes a fetch %d that Next did not", i)
				}
				if !reflect.DeepEqual(into, Fetch{}) {
					t.Fatalf("NextInto leaves %+v after an error", into)
				}
				break
			}
			if err != nil {
				t.Fatalf("NextInto %d: %v", i, err)
			}
			if !reflect.DeepEqual(&into, got[i]) {
				t.Fatalf("NextInto %d:\n got %+v\nwant %+v", i, into, got[i])
			}
		}
		var re bytes.Buffer
		w := NewFetchWriter(&re)
		for _, ft := range got {
			if err := w.Write(ft); err != nil {
				t.Fatal(err)
			}
		}
		w.Flush()
		r2 := NewFetchReader(&re)
		for i := range got {
			ft, err := r2.Next()
			if err != nil {
				t.Fatalf("re-read %d: %v", i, err)
			}
			if !reflect.DeepEqual(ft, got[i]) {
				t.Fatalf("re-read %d:\n got %+v\nwant %+v", i, ft, got[i])
			}
		}
	})
}

// TestCodecLastSameBytes: the writer's last string per field is a
// shortcut only: the stream is the bytes the string table alone gives,
// across table clearings, for log-like fetches (a header repeating the
// User-Agent and Referer) and the round-trip cases.
func TestCodecLastSameBytes(t *testing.T) {
	var in []*Fetch
	shared := make([]string, 700) // interned agents: one string per value (FetchWriter.seen)
	for i := range shared {
		shared[i] = fmt.Sprintf("bot/%d", i)
	}
	for i := range 5000 {
		ua := fmt.Sprintf("bot/%d", i%700) // 700 agents and 300 hosts: the table clears
		if i%3 != 0 {
			ua = shared[i%700]
		}
		ref := fmt.Sprintf("https://r%d.example/", i%5)
		f := &Fetch{
			Time: time.Unix(int64(1e9+i), 0).UTC(), Method: "GET", Scheme: "https",
			Host: fmt.Sprintf("h%d.example", i%300), Target: fmt.Sprint("/p", i), Status: 200, Bytes: 10,
			UserAgent: ua, Referer: ref, Origin: OriginLog, Format: "vhost_combined",
			Header: Header{{"User-Agent", ua}, {"Referer", ref}},
			Source: Source{File: "access.log", Line: int64(i + 1), Offset: -1},
		}
		if i%7 == 0 {
			f.Header = Header{{"Referer", ref}, {"User-Agent", ua}, {"X", "y"}, {"Z", ua}, {"W", ref}}
		}
		if i%11 == 0 {
			*f = *fullFetch(i)
		}
		in = append(in, f)
	}
	code := func(noLast bool) []byte {
		var buf bytes.Buffer
		w := NewFetchWriter(&buf)
		w.noLast = noLast
		for _, f := range in {
			if err := w.Write(f); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	with, without := code(false), code(true)
	if !bytes.Equal(with, without) {
		t.Fatalf("the stream differs with the last strings (%d bytes) and without (%d bytes)", len(with), len(without))
	}
	checkRoundTrip(t, in)
}

// TestDecoderVarintsOneByte: the one-byte shortcuts of the decoder read
// what encoding/binary reads, for every one-byte value and a few longer.
func TestDecoderVarintsOneByte(t *testing.T) {
	for _, b := range [][]byte{{0}, {1}, {0x7f}, {0x80, 1}, {0xff, 0x7f}, {0x80}, {}} {
		for i := range 128 {
			in := b
			if len(b) == 1 {
				in = []byte{byte(i)}
			}
			wu, nu := binary.Uvarint(in)
			wv, nv := binary.Varint(in)
			d := decoder{b: in}
			if gu := d.uvarint(); nu > 0 && (gu != wu || len(d.b) != len(in)-nu) || nu <= 0 && d.err == "" {
				t.Fatalf("uvarint(%x) = %d (%q), want %d, %d", in, gu, d.err, wu, nu)
			}
			d = decoder{b: in}
			if gv := d.varint(); nv > 0 && (gv != wv || len(d.b) != len(in)-nv) || nv <= 0 && d.err == "" {
				t.Fatalf("varint(%x) = %d (%q), want %d, %d", in, gv, d.err, wv, nv)
			}
		}
	}
}

// FuzzFetchCodec: sequences of fetches whose fields repeat from one to
// the next or not, in every combination the fuzzer finds (the "same"
// bits), with empty, invalid UTF-8 and long strings, headers nil, empty
// or not, bodies and concurrent IDs, come back whole through Next and
// through NextInto into recycled fetches.
func FuzzFetchCodec(f *testing.F) {
	f.Add("GET", "bot/1.0", []byte{0, 1, 2, 3, 4, 5, 6, 7}, uint16(5), 3)
	f.Add("", "\xff\xfe", []byte{255, 0, 255, 0}, uint16(0xffff), 1)
	f.Add("h", strings.Repeat("x", maxInterned+1), []byte("abcdefghij"), uint16(0x5a5a), 600)
	f.Fuzz(func(t *testing.T, a, b string, pattern []byte, status uint16, long int) {
		if len(pattern) == 0 || len(pattern) > 64 {
			return
		}
		long = min(max(long, 0), 4*maxInterned)
		vals := []string{"", a, b, strings.Repeat(a+b, long/max(1, len(a+b))+1)}
		var in []*Fetch
		for i, p := range pattern {
			for k := range 3 { // each pattern byte gives three fetches: repeats
				bits := uint64(p) * 0x9e3779b97f4a7c15 >> (k * 7)
				v := func(n int) string {
					x := vals[bits>>(2*n)&3]
					if bits>>(50+n%8)&1 != 0 {
						x = strings.Clone(x) // equal, elsewhere in memory
					}
					return x
				}
				ft := &Fetch{
					Time:         time.Unix(int64(1e9+i*7-k), int64(bits%1e9)).UTC(),
					ClientIP:     netip.AddrFrom4([4]byte{10, 0, 0, byte(p)}),
					ForwardedFor: v(0), Method: v(1), Scheme: v(2), Host: v(3), Target: v(4),
					Status: int(status) >> (bits & 3), Bytes: int64(bits%7) - 1,
					UserAgent: v(5), Referer: v(6), CDNVerifiedBot: v(7), Origin: v(8), Format: v(9),
					RecordID: v(10), SignatureRecorded: bits&(1<<40) != 0,
					Source: Source{File: v(11), Line: int64(i), Offset: int64(bits % 5), Length: int64(k)},
				}
				switch bits >> 44 & 3 {
				case 1:
					ft.Header = Header{}
				case 2:
					ft.Header = Header{{"User-Agent", ft.UserAgent}, {"Referer", ft.Referer}}
				case 3:
					ft.Header = Header{{v(12), v(13)}, {v(14), v(15)}, {v(16), ft.UserAgent}, {"X", v(17)}, {"Y", v(18)}}
				}
				if bits&(1<<47) != 0 {
					ft.Body = []byte(v(19))
				}
				if bits&(1<<48) != 0 {
					ft.ConcurrentTo = []string{v(20), v(21)}
				}
				if bits&(1<<49) != 0 {
					ft.TargetURI, ft.PayloadDigest, ft.ContentType = v(22), v(23), v(24)
				}
				in = append(in, ft)
			}
		}
		checkRoundTrip(t, in)
		var buf bytes.Buffer
		w := NewFetchWriter(&buf)
		for _, ft := range in {
			w.Write(ft)
		}
		w.Flush()
		r := NewFetchReader(&buf)
		slab := make([]Fetch, 3)
		for i := range in {
			into := &slab[i%len(slab)]
			if err := r.NextInto(into); err != nil {
				t.Fatalf("NextInto %d: %v", i, err)
			}
			if !reflect.DeepEqual(into, in[i]) {
				t.Fatalf("NextInto %d:\n got %+v\nwant %+v", i, into, in[i])
			}
		}
		if err := r.NextInto(&slab[0]); err != io.EOF {
			t.Fatalf("after the last fetch: %v", err)
		}
	})
}
