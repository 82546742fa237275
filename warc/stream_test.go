package warc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/zstd"

	"github.com/repaudit/repaudit/problem"
)

// manyRecords returns n response records of varying size.
func manyRecords(n int) [][]byte {
	var recs [][]byte
	for i := range n {
		body := strings.Repeat(fmt.Sprintf("<p>record %d</p>", i), 3+i*7)
		recs = append(recs, respRec(i, fmt.Sprintf("http://e.com/%d", i),
			httpResponse("HTTP/1.1 200 OK", body, "Content-Type: text/html")).bytes())
	}
	return recs
}

// TestTruncated cuts files at many points: every record that ends before
// the cut must be returned, nothing after it, and a cut that is not at a
// record boundary must be reported as warc-truncated.
func TestTruncated(t *testing.T) {
	recs := manyRecords(4)
	var ids []string
	for i := range recs {
		ids = append(ids, fmt.Sprintf("<urn:uuid:resp-%d>", i))
	}
	for _, comp := range []string{"plain", "gzip", "zstd"} {
		var parts [][]byte
		for _, r := range recs {
			switch comp {
			case "plain":
				parts = append(parts, r)
			case "gzip":
				parts = append(parts, gzipMember(r))
			case "zstd":
				parts = append(parts, zstdFrame(r))
			}
		}
		data := join(parts...)
		var ends []int
		at := 0
		for _, p := range parts {
			at += len(p)
			ends = append(ends, at)
		}
		// slack: how far before a member's end all of the record's data
		// may already have been delivered (gzip trailer, the final CRLFs).
		slack := map[string]int{"plain": 4, "gzip": 16, "zstd": 16}[comp]
		for cut := 1; cut < len(data); cut++ {
			if cut%5 != 0 && !nearAny(cut, ends, 3) {
				continue
			}
			r, err := NewReader(bytes.NewReader(data[:cut]), "t.warc", Options{})
			if err != nil {
				t.Fatalf("%s cut %d: NewReader: %v", comp, cut, err)
			}
			got, probs, err := drain(r)
			if err != nil {
				t.Fatalf("%s cut %d: Next error %v", comp, cut, err)
			}
			gotIDs := recordIDs(got)
			if !slices.Equal(gotIDs, ids[:len(gotIDs)]) {
				t.Fatalf("%s cut %d: records %v are not a prefix of %v", comp, cut, gotIDs, ids)
			}
			for i, end := range ends {
				if end <= cut && len(gotIDs) <= i {
					t.Errorf("%s cut %d: record %d (ends at %d) missing", comp, cut, i, end)
				}
				if cut < end-slack && len(gotIDs) > i {
					// A record cut after its headers is kept, as the
					// last one, its body marked truncated.
					if c := got[i].Capture; i != len(gotIDs)-1 || c == nil || !c.BodyTruncated || c.Status != 200 {
						t.Errorf("%s cut %d: record %d (ends at %d) returned though cut, and not as a kept cut record", comp, cut, i, end)
					}
				}
			}
			atBoundary := slices.Contains(ends, cut)
			truncs := 0
			for _, p := range probs {
				if p.Code != CodeTruncated {
					t.Errorf("%s cut %d: unexpected problem %s", comp, cut, p.Error())
				}
				truncs++
				if want := lastStartBefore(ends, cut); comp != "plain" && p.Source.Offset != int64(want) {
					t.Errorf("%s cut %d: truncation reported at %d, want member start %d", comp, cut, p.Source.Offset, want)
				}
			}
			switch {
			case atBoundary && truncs != 0:
				t.Errorf("%s cut %d at a record boundary: got %d truncation problems, want 0", comp, cut, truncs)
			case !atBoundary && comp != "plain" && truncs != 1:
				t.Errorf("%s cut %d: got %d truncation problems, want 1", comp, cut, truncs)
			case !atBoundary && comp == "plain" && truncs != 1 && !nearAny(cut, ends, slack):
				t.Errorf("%s cut %d: got %d truncation problems, want 1", comp, cut, truncs)
			}
		}
	}
}

func nearAny(x int, points []int, d int) bool {
	for _, p := range points {
		if x >= p-d && x <= p+d {
			return true
		}
	}
	return false
}

func lastStartBefore(ends []int, cut int) int {
	start := 0
	for _, e := range ends {
		if e > cut {
			break
		}
		start = e
	}
	return start
}

// TestCorruptMemberSkipped flips bytes inside one gzip member: that record
// is reported, the following ones are still read.
func TestCorruptMemberSkipped(t *testing.T) {
	recs := manyRecords(3)
	m0, m1, m2 := gzipMember(recs[0]), gzipMember(recs[1]), gzipMember(recs[2])
	bad := bytes.Clone(m1)
	for i := 20; i < len(bad)-10; i += 3 {
		bad[i] ^= 0x5a
	}
	data := join(m0, bad, m2)
	_, got, probs := readAll(t, data, Options{})
	ids := recordIDs(got)
	if len(ids) < 2 || ids[0] != "<urn:uuid:resp-0>" || ids[len(ids)-1] != "<urn:uuid:resp-2>" {
		t.Fatalf("records = %v, want resp-0 ... resp-2", ids)
	}
	if !hasCode(probs, CodeCorruptCompression) && !hasCode(probs, CodeGzipChecksum) {
		t.Errorf("problems = %v, want a corrupt-compression or checksum problem", codes(probs))
	}
	if last := got[len(got)-1]; last.Source.Offset != int64(len(m0)+len(bad)) || last.Decompressed {
		t.Errorf("last record Source = %+v decompressed %v, want offset %d", last.Source, last.Decompressed, len(m0)+len(bad))
	}
	// Trailing garbage after the last member.
	_, got, probs = readAll(t, join(m0, m2, []byte("garbage after the end")), Options{})
	if len(got) != 2 || !slices.Equal(codes(probs), []problem.Code{CodeTrailingGarbage}) {
		t.Errorf("trailing garbage: %d records, problems %v", len(got), codes(probs))
	}
	// NUL padding after the last member is not a problem.
	_, got, probs = readAll(t, join(m0, m2, make([]byte, 4096)), Options{})
	if len(got) != 2 || len(probs) != 0 {
		t.Errorf("NUL padding: %d records, problems %v", len(got), codes(probs))
	}
}

// TestIOTestReaders reads through readers that return data in odd chunks
// and checks every record still arrives intact.
func TestIOTestReaders(t *testing.T) {
	recs := append(sampleRecords(), manyRecords(5)...)
	inputs := map[string][]byte{"plain": join(recs...), "gzip": gzipEach(recs...), "whole gzip": gzipMember(join(recs...))}
	wrappers := map[string]func(io.Reader) io.Reader{
		"OneByteReader": iotest.OneByteReader,
		"HalfReader":    iotest.HalfReader,
		"DataErrReader": iotest.DataErrReader,
	}
	for iname, data := range inputs {
		_, want, _ := readAll(t, data, Options{})
		for wname, wrap := range wrappers {
			t.Run(iname+"/"+wname, func(t *testing.T) {
				r, err := NewReader(wrap(bytes.NewReader(data)), "t.warc", Options{})
				if err != nil {
					t.Fatal(err)
				}
				got, _, err := drain(r)
				if err != nil {
					t.Fatalf("Next: %v", err)
				}
				if len(got) != len(want) {
					t.Fatalf("got %d records, want %d", len(got), len(want))
				}
				for i := range got {
					if got[i].Source != want[i].Source {
						t.Errorf("record %d Source %+v, want %+v", i, got[i].Source, want[i].Source)
					}
					if got[i].Capture != nil && !bytes.Equal(got[i].Capture.Body, want[i].Capture.Body) {
						t.Errorf("record %d body differs", i)
					}
				}
			})
		}
	}
}

// errAfter returns n bytes of r, then err forever.
type errAfter struct {
	r   io.Reader
	n   int
	err error
}

func (e *errAfter) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return 0, e.err
	}
	if len(p) > e.n {
		p = p[:e.n]
	}
	k, err := e.r.Read(p)
	e.n -= k
	return k, err
}

func TestStickyIOError(t *testing.T) {
	recs := manyRecords(6)
	for _, comp := range []string{"plain", "gzip"} {
		data := join(recs...)
		if comp == "gzip" {
			data = gzipEach(recs...)
		}
		t.Run(comp+"/TimeoutReader", func(t *testing.T) {
			r, err := NewReader(iotest.TimeoutReader(bytes.NewReader(data)), "t.warc", Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := drain(r)
			if !errors.Is(err, iotest.ErrTimeout) {
				t.Fatalf("error = %v after %d records, want ErrTimeout", err, len(got))
			}
			for range 2 {
				if _, err2 := r.Next(); !errors.Is(err2, iotest.ErrTimeout) {
					t.Errorf("next error = %v, want sticky ErrTimeout", err2)
				}
			}
		})
		t.Run(comp+"/error mid-file", func(t *testing.T) {
			boom := errors.New("disk on fire")
			r, err := NewReader(&errAfter{r: bytes.NewReader(data), n: len(data) / 2, err: boom}, "t.warc", Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := drain(r)
			if !errors.Is(err, boom) || !strings.Contains(err.Error(), "t.warc") {
				t.Fatalf("error = %v, want one wrapping %v and naming the file", err, boom)
			}
			if len(got) == 0 || len(got) >= len(recs) {
				t.Errorf("got %d records before the error, want some but not all", len(got))
			}
			if _, err2 := r.Next(); !errors.Is(err2, boom) {
				t.Errorf("error not sticky: %v", err2)
			}
		})
	}
}

// bigBlockReader serves a WARC record whose block is size bytes long,
// without holding them, then a small record.
type bigBlockReader struct {
	head, tail []byte
	size       int64
	pos        int64
}

func (b *bigBlockReader) Read(p []byte) (int, error) {
	total := int64(len(b.head)) + b.size + int64(len(b.tail))
	if b.pos >= total {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && b.pos < total {
		switch {
		case b.pos < int64(len(b.head)):
			k := copy(p[n:], b.head[b.pos:])
			n += k
			b.pos += int64(k)
		case b.pos < int64(len(b.head))+b.size:
			k := int(min(int64(len(p)-n), int64(len(b.head))+b.size-b.pos))
			clear(p[n : n+k])
			n += k
			b.pos += int64(k)
		default:
			k := copy(p[n:], b.tail[b.pos-int64(len(b.head))-b.size:])
			n += k
			b.pos += int64(k)
		}
	}
	return n, nil
}

// TestOffsetsBeyond4GiB checks 64-bit offset arithmetic with a 5 GiB block
// that is skipped, not stored.
func TestOffsetsBeyond4GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 5 GiB of zeros")
	}
	const size = 5 << 30
	head := []byte(fmt.Sprintf("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:big>\r\nWARC-Date: 2024-05-01T12:00:00Z\r\nWARC-Target-URI: http://e.com/big.iso\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", int64(size)))
	tail := append([]byte("\r\n\r\n"), respRec(1, "http://e.com/after", httpResponse("HTTP/1.1 200 OK", "after", "Content-Type: text/html")).bytes()...)
	r, err := NewReader(&bigBlockReader{head: head, tail: tail, size: size}, "big.warc", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, probs, err := drain(r)
	if err != nil || len(probs) != 0 || len(got) != 2 {
		t.Fatalf("got %d records, problems %v, error %v", len(got), codes(probs), err)
	}
	wantOff := int64(len(head)) + size + 4
	if got[1].Source.Offset != wantOff || got[1].Source.Length != int64(len(tail)-4) {
		t.Errorf("second record Source = %+v, want offset %d", got[1].Source, wantOff)
	}
	if got[0].Source.Length != wantOff || !got[0].Capture.BodyTruncated {
		t.Errorf("first record Source = %+v truncated %v, want length %d", got[0].Source, got[0].Capture.BodyTruncated, wantOff)
	}
	if r.BytesRead() != wantOff+int64(len(tail))-4 {
		t.Errorf("BytesRead = %d, want %d", r.BytesRead(), wantOff+int64(len(tail))-4)
	}
}

// TestZstdDictionary reads a .warc.zst whose frames need the dictionary
// held in the leading skippable frame, raw and zstd-compressed.
func TestZstdDictionary(t *testing.T) {
	recs := manyRecords(6)
	dict, err := zstd.BuildDict(zstd.BuildDictOptions{ID: 1234, Contents: recs, History: join(recs...)[:2048]})
	if err != nil {
		t.Fatalf("BuildDict: %v", err)
	}
	skippable := func(payload []byte) []byte {
		h := make([]byte, 8)
		binary.LittleEndian.PutUint32(h, 0x184D2A5D)
		binary.LittleEndian.PutUint32(h[4:], uint32(len(payload)))
		return append(h, payload...)
	}
	for _, compressedDict := range []bool{false, true} {
		t.Run(fmt.Sprintf("compressed dictionary %v", compressedDict), func(t *testing.T) {
			d := dict
			if compressedDict {
				d = zstdFrame(dict)
			}
			parts := [][]byte{skippable(d)}
			for _, r := range recs {
				parts = append(parts, zstdFrame(r, zstd.WithEncoderDict(dict)))
			}
			data := join(parts...)
			r, got, probs := readAll(t, data, Options{})
			if len(got) != len(recs) || len(probs) != 0 || r.Compression() != "zstd" {
				t.Fatalf("got %d records, problems %v, compression %q", len(got), codes(probs), r.Compression())
			}
			at := int64(len(parts[0]))
			for i, rec := range got {
				if rec.Source.Offset != at || rec.Source.Length != int64(len(parts[i+1])) {
					t.Errorf("record %d Source = %+v, want offset %d length %d", i, rec.Source, at, len(parts[i+1]))
				}
				at += int64(len(parts[i+1]))
			}
		})
	}
}
