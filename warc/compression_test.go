package warc

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/problem"
)

// testdata/two-records.warc.bz2 holds two response records (robots.txt and
// a page with X-Robots-Tag: noindex), written by a few lines of Python and
// compressed with "bzip2 -9".
func TestBzip2(t *testing.T) {
	data, err := os.ReadFile("testdata/two-records.warc.bz2")
	if err != nil {
		t.Fatal(err)
	}
	r, got, probs := readAll(t, data, Options{})
	if ids := recordIDs(got); !slices.Equal(ids, []string{"<urn:uuid:bz-1>", "<urn:uuid:bz-2>"}) {
		t.Fatalf("records %v, want bz-1 bz-2 (problems %v)", ids, codes(probs))
	}
	if r.Compression() != "bzip2" || !got[0].Decompressed || got[1].Source.Offset == 0 {
		t.Errorf("compression %q, decompressed %v, second offset %d", r.Compression(), got[0].Decompressed, got[1].Source.Offset)
	}
	if string(got[0].Capture.Body) != "User-agent: *\nDisallow: /private/\n" || got[1].Capture.Header.Get("X-Robots-Tag") != "noindex" {
		t.Errorf("bodies/headers not read: %q %v", got[0].Capture.Body, got[1].Capture.Header)
	}
	if !slices.Equal(codes(probs), []problem.Code{CodeSharedMember}) {
		t.Errorf("problems %v, want only the info that offsets are decompressed", codes(probs))
	}

	// Cut: the first record is kept, the cut is reported.
	_, got, probs = readAll(t, data[:len(data)-40], Options{})
	if len(got) > 2 || !slices.Contains(codes(probs), CodeTruncated) {
		t.Errorf("cut bzip2: records %v problems %v, want a truncation problem", recordIDs(got), codes(probs))
	}
}

// TestZstdWindow: a frame that asks for a window over the common limit is
// reported as such (never as a misread file), and the frames around it are
// read.
func TestZstdWindow(t *testing.T) {
	a := zstdFrame(respRec(1, "http://e.com/1", httpResponse("HTTP/1.1 200 OK", "one")).bytes())
	b := zstdFrame(respRec(2, "http://e.com/2", httpResponse("HTTP/1.1 200 OK", "two")).bytes())
	c := zstdFrame(respRec(3, "http://e.com/3", httpResponse("HTTP/1.1 200 OK", "three")).bytes())
	if b[4]&0x20 != 0 {
		t.Skip("test frame is single-segment; cannot patch its window")
	}
	b = bytes.Clone(b)
	b[5] = (30 - 10) << 3 // Window_Descriptor: 1 GiB
	_, got, probs := readAll(t, join(a, b, c), Options{})
	if ids := recordIDs(got); !slices.Equal(ids, []string{"<urn:uuid:resp-1>", "<urn:uuid:resp-3>"}) {
		t.Errorf("records %v, want resp-1 and resp-3", ids)
	}
	found := false
	for _, p := range probs {
		if p.Code == CodeZstdWindow && p.Source.Offset == int64(len(a)) && strings.Contains(p.Message, "1024 MiB window, over the 128 MiB limit") {
			found = true
		}
	}
	if !found {
		t.Errorf("problems %v, want %s at offset %d naming the window", probs, CodeZstdWindow, len(a))
	}
}

func TestImpreciseDate(t *testing.T) {
	tests := []struct {
		date string
		want time.Time
		used string // "" when the date is exact
	}{
		{"2019-08-15T01:02:03Z", time.Date(2019, 8, 15, 1, 2, 3, 0, time.UTC), ""},
		{"2019-08-15T03:02:03+02:00", time.Date(2019, 8, 15, 1, 2, 3, 0, time.UTC), ""},
		{"20190815010203", time.Date(2019, 8, 15, 1, 2, 3, 0, time.UTC), ""},
		{"2019-08-15T01:02", time.Date(2019, 8, 15, 1, 2, 0, 0, time.UTC), "2019-08-15T01:02:00Z"},
		{"2019-08-15T01:02:03", time.Date(2019, 8, 15, 1, 2, 3, 0, time.UTC), "2019-08-15T01:02:03Z"},
		{"2019-08-15", time.Date(2019, 8, 15, 0, 0, 0, 0, time.UTC), "2019-08-15T00:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.date, func(t *testing.T) {
			data := respRec(1, "http://e.com/", httpResponse("HTTP/1.0 200 OK", "x")).bytes()
			data = bytes.Replace(data, []byte("2024-05-01T12:00:00Z"), []byte(tt.date), 1)
			_, got, probs := readAll(t, data, Options{})
			if len(got) != 1 || !got[0].Capture.Time.Equal(tt.want) {
				t.Fatalf("records %d time %v, want %v", len(got), got, tt.want)
			}
			switch {
			case tt.used == "" && len(probs) != 0:
				t.Errorf("problems %v, want none", probs)
			case tt.used != "" && (len(probs) != 1 || probs[0].Code != CodeImpreciseDate || !strings.Contains(probs[0].Message, "read as "+tt.used)):
				t.Errorf("problems %v, want one %s saying %s", probs, CodeImpreciseDate, tt.used)
			}
		})
	}
}

// TestCutRecordKept: the last record of a file still being written
// (.warc.gz.open) is cut inside its body; its headers are evidence, so it
// is kept with a problem saying it was cut.
func TestCutRecordKept(t *testing.T) {
	good := respRec(1, "http://e.com/1", httpResponse("HTTP/1.1 200 OK", "one")).bytes()
	var body strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&body, "%d ", i*7919%10007)
	}
	last := respRec(2, "http://e.com/2", httpResponse("HTTP/1.1 200 OK", body.String(), "X-Robots-Tag: noindex")).bytes()
	cut := last[:len(last)-200]
	for _, comp := range []string{"plain", "gzip"} {
		t.Run(comp, func(t *testing.T) {
			data := join(good, cut)
			if comp == "gzip" {
				m := gzipMember(last)
				data = join(gzipMember(good), m[:len(m)/2])
			}
			_, got, probs := readAll(t, data, Options{})
			if ids := recordIDs(got); !slices.Equal(ids, []string{"<urn:uuid:resp-1>", "<urn:uuid:resp-2>"}) {
				t.Fatalf("records %v problems %v, want both", ids, probs)
			}
			c := got[1].Capture
			if c.Status != 200 || c.Header.Get("X-Robots-Tag") != "noindex" || !c.BodyTruncated {
				t.Errorf("cut capture: status %d robots %q truncated %v", c.Status, c.Header.Get("X-Robots-Tag"), c.BodyTruncated)
			}
			if len(probs) != 1 || probs[0].Code != CodeTruncated || !strings.Contains(probs[0].Message, "cut after its headers") {
				t.Errorf("problems %v, want one %s saying the record was cut", probs, CodeTruncated)
			}
			if comp == "gzip" && (got[1].Source.Offset != int64(len(gzipMember(good))) || got[1].Decompressed) {
				t.Errorf("cut record source %+v decompressed %v, want its member's stored offset", got[1].Source, got[1].Decompressed)
			}
		})
	}
}
