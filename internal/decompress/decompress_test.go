package decompress

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

const text = "line one\nline two\n"

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	io.WriteString(w, s)
	w.Close()
	return b.Bytes()
}

// zst compresses s as one zstd frame with a window descriptor (not single
// segment), so that tests can patch the window it asks for.
func zst(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b, zstd.WithSingleSegment(false), zstd.WithWindowSize(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, s)
	w.Close()
	if ZstdWindow(b.Bytes()) == 0 {
		t.Fatalf("test frame has no window descriptor: % x", b.Bytes()[:8])
	}
	return b.Bytes()
}

// withWindow patches the Window_Descriptor of a frame to ask for 2^exp bytes.
func withWindow(frame []byte, exp uint) []byte {
	out := append([]byte(nil), frame...)
	out[5] = byte(exp-10) << 3
	return out
}

func readAll(t *testing.T, data []byte) (string, string, error) {
	t.Helper()
	r, err := NewReader(iotest.HalfReader(bytes.NewReader(data)))
	if err != nil {
		return "", "", err
	}
	defer r.Close()
	got, err := io.ReadAll(r)
	return string(got), r.Compression(), err
}

func TestReader(t *testing.T) {
	bz, err := os.ReadFile("testdata/two-lines.log.bz2")
	if err != nil {
		t.Fatal(err)
	}
	bzText := "192.0.2.10 - - [01/May/2024:12:00:00 +0000] \"GET /bz/1 HTTP/1.1\" 200 512 \"-\" \"Bot/1.0\"\n" +
		"192.0.2.11 - - [01/May/2024:12:00:01 +0000] \"GET /bz/2 HTTP/1.1\" 404 - \"-\" \"Bot/1.0\"\n"
	tests := []struct {
		name, comp, want string
		data             []byte
	}{
		{"plain", None, text, []byte(text)},
		{"empty", None, "", nil},
		{"gzip", Gzip, text, gz(text)},
		{"gzip multi-member", Gzip, text + text, append(gz(text), gz(text)...)},
		{"bzip2", Bzip2, bzText, bz},
		{"zstd", Zstd, text, zst(t, text)},
		{"zstd two frames", Zstd, text + text, append(zst(t, text), zst(t, text)...)},
		{"zstd at the limit", Zstd, text, withWindow(zst(t, text), 27)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, comp, err := readAll(t, tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want || comp != tt.comp {
				t.Errorf("got %q (%s), want %q (%s)", got, comp, tt.want, tt.comp)
			}
		})
	}
}

func TestReaderErrors(t *testing.T) {
	big := withWindow(zst(t, text), 28) // 256 MiB
	tests := []struct {
		name string
		data []byte
		kind ErrorKind
		want string // delivered before the error
	}{
		{"gzip cut", gz(text)[:20], KindTruncated, text},
		{"gzip bad trailer", append(gz(text)[:len(gz(text))-8], 0, 0, 0, 0, 0, 0, 0, 0), KindCorrupt, text},
		{"zstd window in first frame", big, KindWindow, ""},
		{"zstd window in second frame", append(zst(t, text), big...), KindWindow, text},
		{"zstd cut", zst(t, text)[:12], KindTruncated, text},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := readAll(t, tt.data)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if e.Kind != tt.kind {
				t.Errorf("kind = %d, want %d (%v)", e.Kind, tt.kind, e)
			}
			if !bytes.HasPrefix([]byte(tt.want), []byte(got)) {
				t.Errorf("delivered %q, want a prefix of %q", got, tt.want)
			}
		})
	}
	_, _, err := readAll(t, big)
	if want := "zstd frame needs a 256 MiB window, over the 128 MiB limit; decompress it with zstd -d --long=31 first"; err == nil || err.Error() != want {
		t.Errorf("window error = %v, want %q", err, want)
	}
}

// TestReaderIOError: errors of the reader under the decoder come back as
// they are, not as a compression problem.
func TestReaderIOError(t *testing.T) {
	boom := errors.New("disk on fire")
	data := gz(text)
	r, err := NewReader(io.MultiReader(bytes.NewReader(data[:15]), iotest.ErrReader(boom)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(r)
	var e *Error
	if !errors.Is(err, boom) || errors.As(err, &e) {
		t.Errorf("err = %v, want the reader's own error", err)
	}
}

func TestStored(t *testing.T) {
	data := gz(text)
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(r)
	if r.Stored() != int64(len(data)) {
		t.Errorf("Stored = %d, want %d", r.Stored(), len(data))
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte(text))
	f.Add(gz(text))
	f.Add(zst(f, text))
	f.Add(withWindow(zst(f, text), 30))
	if bz, err := os.ReadFile("testdata/two-lines.log.bz2"); err == nil {
		f.Add(bz)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		defer r.Close()
		io.Copy(io.Discard, io.LimitReader(r, 16<<20))
	})
}
