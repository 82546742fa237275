package event

import (
	"bytes"
	"errors"
	"net/netip"
	"reflect"
	"testing"
	"time"
)

// fill sets every field reachable from v (a settable value) to something
// that is not its zero value, so that a field a codec drops shows.
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

// recordRoundTrip codes f as a record on its own and decodes it.
func recordRoundTrip(t *testing.T, f *Fetch) *Fetch {
	t.Helper()
	var got Fetch
	if err := DecodeFetch(AppendFetch(nil, f), &got); err != nil {
		t.Fatal(err)
	}
	return &got
}

// TestFetchCodecCarriesEveryField fills every field of Fetch and checks
// that both forms, a stream and a record on its own, give back the same
// fetch: a field added to Fetch without a place in the codec fails here.
func TestFetchCodecCarriesEveryField(t *testing.T) {
	var f Fetch
	fill(t, reflect.ValueOf(&f).Elem(), "f")
	if got := recordRoundTrip(t, &f); !reflect.DeepEqual(got, &f) {
		t.Errorf("record round trip:\n got %+v\nwant %+v", got, &f)
	}
	if got := roundTrip(t, []*Fetch{&f, &f}); len(got) != 2 || !reflect.DeepEqual(got[1], &f) {
		t.Errorf("stream round trip:\n got %+v\nwant %+v", got, &f)
	}
}

// TestDecodeFetch covers the forms a record must keep on its own: zero
// values, nil against empty slices, negative numbers, address forms, a
// time before 1970 and the zero time, and a record after another (no
// state carries over).
func TestDecodeFetch(t *testing.T) {
	for i, f := range []*Fetch{
		{},
		{Header: Header{}, Body: []byte{}, ConcurrentTo: []string{}, Bytes: -1, Source: Source{Offset: -1}},
		{Time: time.Date(1969, 12, 31, 23, 59, 59, 5, time.UTC), ClientIP: netip.MustParseAddr("192.0.2.1"), Status: -3},
		{ClientIP: netip.MustParseAddr("fe80::1%eth0"), Method: "GET", Header: Header{{"User-Agent", ""}}},
		fullFetch(3),
		fullFetch(3),
	} {
		if got := recordRoundTrip(t, f); !reflect.DeepEqual(got, f) {
			t.Errorf("fetch %d:\n got %#v\nwant %#v", i, got, f)
		}
	}
}

func TestDecodeFetchCorrupt(t *testing.T) {
	good := AppendFetch(nil, fullFetch(1))
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"cut short", good[:len(good)-1]},
		{"left over", append(append([]byte{}, good...), 0)},
		{"unknown flags", append([]byte{0xff, 0xff, 0x7f}, good[1:]...)},
		// Flags 0, time 0 0, no address, then a string reference: a
		// record on its own has no table to refer to.
		{"reference", []byte{0, 0, 0, 0, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Fetch{Method: "stale"}
			err := DecodeFetch(tc.b, &f)
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("got %v, want an error wrapping ErrCorrupt", err)
			}
			if !reflect.DeepEqual(f, Fetch{}) {
				t.Errorf("fetch after an error: %+v, want zero", f)
			}
		})
	}
}

// FuzzDecodeFetch: no byte sequence makes DecodeFetch panic, and what it
// accepts codes back to a record that decodes to the same fetch.
func FuzzDecodeFetch(f *testing.F) {
	var full Fetch
	fill(&testing.T{}, reflect.ValueOf(&full).Elem(), "f")
	f.Add(AppendFetch(nil, &full))
	f.Add(AppendFetch(nil, fullFetch(2)))
	f.Add(AppendFetch(nil, &Fetch{Header: Header{}}))
	f.Add([]byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var got Fetch
		if err := DecodeFetch(b, &got); err != nil {
			return
		}
		again := AppendFetch(nil, &got)
		if bytes.Equal(again, b) {
			return
		}
		// Varints have one shortest form, and an empty string three
		// codings: other forms are accepted but not written.
		var got2 Fetch
		if err := DecodeFetch(again, &got2); err != nil || !reflect.DeepEqual(got, got2) {
			t.Fatalf("coding again changed the fetch: %v", err)
		}
	})
}
