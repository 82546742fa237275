package warc

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/nlnwa/gowarc"

	"github.com/repaudit/repaudit/problem"
)

// gowarcRecord is what a reader reports for one record.
type gowarcRecord struct {
	id, typ string
	offset  int64
}

// readGowarc reads data with gowarc (the version in go.mod) without
// validation, as BenchmarkGowarcLenient does. It stops at the first error,
// and turns a panic into an error.
func readGowarc(data []byte) (recs []gowarcRecord, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	wf, err := gowarc.NewWarcFileReaderFromStream(bytes.NewReader(data), 0, gowarc.WithNoValidation())
	if err != nil {
		return nil, err
	}
	for {
		rec, off, _, err := wf.Next()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, gowarcRecord{rec.WarcHeader().Get(gowarc.WarcRecordID), rec.Type().String(), off})
		rec.Close()
	}
}

func gowarcIDs(recs []gowarcRecord) []string {
	var ids []string
	for _, r := range recs {
		ids = append(ids, r.id)
	}
	return ids
}

// TestAgreesWithGowarc is a differential test against gowarc: on
// well-formed files the two readers must report the same records (ID,
// type, stored offset); every known divergence is a case that says what
// each reader does, so a change on either side (a gowarc upgrade, a reader
// change) shows up here. warc/doc.go ("Why not gowarc") summarizes them.
func TestAgreesWithGowarc(t *testing.T) {
	recs := sampleRecords()
	all := []string{"<urn:uuid:info>", "<urn:uuid:req-1>", "<urn:uuid:resp-1>", "<urn:uuid:card>"}
	noCL := wrec{typ: "resource", id: "<urn:uuid:nocl>", uri: "http://e.com/x", ctype: "text/plain", block: "abc", cl: "-"}.bytes()
	badDigest := wrec{typ: "resource", id: "<urn:uuid:dg>", uri: "http://e.com/x", ctype: "text/plain", block: "abc",
		extra: []string{"WARC-Block-Digest: md9:XYZ"}}.bytes()
	crcrlf := join(
		wrec{typ: "response", id: "<urn:uuid:a>", uri: "http://e.com/a", eol: "\r\r\n", block: "HTTP/1.1 200 OK\r\r\nX-Robots-Tag: noindex\r\r\n\r\r\n"}.bytes(),
		wrec{typ: "response", id: "<urn:uuid:b>", uri: "http://e.com/b", block: "HTTP/1.1 200 OK\r\n\r\n"}.bytes())
	desc := "1 0 Test Archive\nURL IP-address Archive-date Content-type Archive-length\n"
	page := httpResponse("HTTP/1.0 200 OK", "<html></html>", "Content-Type: text/html")
	arc := join(
		arcRecord(fmt.Sprintf("filedesc://test.arc 0.0.0.0 19961104142103 text/plain %d", len(desc)), desc),
		arcRecord(fmt.Sprintf("http://www.example.com/ 127.10.100.2 19961104142103 text/html %d", len(page)), page))
	plain := join(recs...)

	tests := []struct {
		name string
		data []byte
		// agree: both report the same records, IDs, types and offsets.
		agree bool
		// Otherwise, what each reports: record IDs, gowarc's error (a
		// substring; "" for none) and our problem codes.
		gowarc    []string
		gowarcErr string
		ours      []string
		problems  []problem.Code
	}{
		{name: "gzip per record", data: gzipEach(append(recs, manyRecords(5)...)...), agree: true},
		{name: "uncompressed", data: plain, agree: true},
		{name: "gzip per record, records without HTTP", data: gzipEach(manyRecords(3)...), agree: true},

		// Several records in one gzip member (the WARC standard recommends
		// one record per member, but whole-file gzip is common): gowarc
		// returns the first record of each member and loses the rest.
		{name: "two records per gzip member", data: join(gzipMember(join(recs[0], recs[1])), gzipMember(join(recs[2], recs[3]))),
			gowarc: []string{all[0], all[2]}, ours: all, problems: []problem.Code{"warc-shared-gzip-member"}},
		{name: "whole-file gzip", data: gzipMember(plain),
			gowarc: all[:1], ours: all, problems: []problem.Code{"warc-shared-gzip-member"}},
		// zstd (WARC zstd extension): gowarc reads nothing and says nothing.
		{name: "zstd per record", data: join(zstdFrame(recs[0]), zstdFrame(recs[1])),
			gowarc: nil, ours: all[:2]},
		// ARC: gowarc reads WARC only, and reports nothing for an ARC file.
		{name: "ARC v1", data: arc, gowarc: nil, ours: []string{"", ""}},
		// Header lines ending in "\r\r\n" (written by some old crawlers):
		// gowarc stops at the first record.
		{name: `"\r\r\n" line ends`, data: crcrlf,
			gowarc: nil, gowarcErr: "missing End of WARC-Fields marker", ours: []string{"<urn:uuid:a>", "<urn:uuid:b>"}},
		// An unknown digest algorithm stops gowarc even with validation off.
		{name: "unknown digest algorithm", data: join(recs[0], badDigest, recs[1]),
			gowarc: all[:1], gowarcErr: "unsupported digest algorithm", ours: []string{all[0], "<urn:uuid:dg>", all[1]}},
		// No Content-Length (mandatory in WARC 1.1): gowarc
		// returns the record; this reader reports it and skips it, since
		// the block's end is unknown.
		{name: "record without Content-Length", data: join(recs[0], noCL, recs[1]),
			gowarc: []string{all[0], "<urn:uuid:nocl>", all[1]}, ours: []string{all[0], all[1]}, problems: []problem.Code{"warc-missing-content-length"}},
		// A file clipped inside its last record's block: gowarc returns
		// the clipped record; this reader reports it as truncated and
		// keeps only complete records.
		{name: "clipped inside the last block", data: plain[:len(plain)-30],
			gowarc: all, ours: all[:3], problems: []problem.Code{"warc-truncated"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, gerr := readGowarc(tt.data)
			_, got, probs := readAll(t, tt.data, Options{})
			ids := recordIDs(got)
			var ours []gowarcRecord
			for i, r := range got {
				ours = append(ours, gowarcRecord{ids[i], r.Type, r.Source.Offset})
			}
			if tt.agree {
				if gerr != nil {
					t.Fatalf("gowarc: %v", gerr)
				}
				if len(g) == 0 || !slices.Equal(ours, g) || len(probs) != 0 {
					t.Errorf("records differ:\nours   %v (problems %v)\ngowarc %v", ours, codes(probs), g)
				}
				return
			}
			if got := gowarcIDs(g); !slices.Equal(got, tt.gowarc) {
				t.Errorf("gowarc now reads %v, recorded %v: update the case and warc/doc.go", got, tt.gowarc)
			}
			switch {
			case tt.gowarcErr == "" && gerr != nil:
				t.Errorf("gowarc now fails: %v", gerr)
			case tt.gowarcErr != "" && (gerr == nil || !strings.Contains(gerr.Error(), tt.gowarcErr)):
				t.Errorf("gowarc error %v, recorded %q", gerr, tt.gowarcErr)
			}
			if !slices.Equal(ids, tt.ours) {
				t.Errorf("this reader reads %v, want %v", ids, tt.ours)
			}
			for _, c := range tt.problems {
				if !hasCode(probs, c) {
					t.Errorf("this reader reports %v, want %s among them", codes(probs), c)
				}
			}
		})
	}
}

// TestHTTPHeadersVsGowarc compares the X-Robots-Tag each reader finds in
// the HTTP header of a response record. gowarc parses the header with
// net/http.ReadResponse and keeps no header at all when that fails, so
// for every case below it loses the directive; this reader keeps it (the
// tolerance is specified in TestHTTPHeaderTolerance).
func TestHTTPHeadersVsGowarc(t *testing.T) {
	tests := []struct {
		name   string
		block  string
		gowarc string // X-Robots-Tag as gowarc reports it
	}{
		{"HTTP/1.1, well formed", httpResponse("HTTP/1.1 200 OK", "x", "X-Robots-Tag: noindex"), "noindex"},
		{"HTTP/2 status line", httpResponse("HTTP/2 200", "x", "X-Robots-Tag: noindex"), ""},
		{"a header line without a colon", httpResponse("HTTP/1.1 200 OK", "x", "X-Robots-Tag: noindex", "garbage line"), ""},
		{"Content-Length: -1", httpResponse("HTTP/1.1 200 OK", "x", "X-Robots-Tag: noindex", "Content-Length: -1"), ""},
		{"a space before the colon", httpResponse("HTTP/1.1 200 OK", "x", "X-Robots-Tag : noindex"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := respRec(1, "http://e.com/a", tt.block).bytes()
			var got string
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("gowarc panics: %v", p)
					}
				}()
				// WithNoValidation would skip parsing the block: ignore
				// every error instead.
				wf, err := gowarc.NewWarcFileReaderFromStream(bytes.NewReader(data), 0,
					gowarc.WithSyntaxErrorPolicy(gowarc.ErrIgnore), gowarc.WithSpecViolationPolicy(gowarc.ErrIgnore),
					gowarc.WithUnknownRecordTypePolicy(gowarc.ErrIgnore), gowarc.WithBlockErrorPolicy(gowarc.ErrIgnore))
				if err != nil {
					t.Fatal(err)
				}
				rec, _, _, err := wf.Next()
				if err != nil {
					t.Fatalf("gowarc: %v", err)
				}
				defer rec.Close()
				if b, ok := rec.Block().(gowarc.HttpResponseBlock); ok && b.HttpHeader() != nil {
					got = b.HttpHeader().Get("X-Robots-Tag")
				}
			}()
			if got != tt.gowarc {
				t.Errorf("gowarc now reads X-Robots-Tag %q, recorded %q: update the case and warc/doc.go", got, tt.gowarc)
			}
			_, recs, _ := readAll(t, data, Options{})
			if len(recs) != 1 || recs[0].Capture == nil {
				t.Fatalf("this reader read %d records", len(recs))
			}
			if x := recs[0].Capture.Header.Get("X-Robots-Tag"); x != "noindex" {
				t.Errorf("this reader reads X-Robots-Tag %q, want noindex", x)
			}
		})
	}
}
