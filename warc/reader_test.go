package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zlib"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

const htmlBody = "<html><head><meta name=robots content=noindex></head><body>hi</body></html>"

// sampleRecords returns a warcinfo, a request/response pair and a
// resource record.
func sampleRecords() [][]byte {
	return [][]byte{
		wrec{typ: "warcinfo", id: "<urn:uuid:info>", ctype: "application/warc-fields", block: "software: test\r\n"}.bytes(),
		reqRec(1, "https://Example.com:443/a?b=1", "GET /a?b=1 HTTP/1.1\r\nHost: Example.COM:443\r\nUser-Agent: GPTBot/1.0\r\nSignature-Agent: \"https://x\"\r\n\r\n",
			"WARC-Concurrent-To: <urn:uuid:resp-1>").bytes(),
		respRec(1, "https://Example.com:443/a?b=1", httpResponse("HTTP/1.1 200 OK", htmlBody,
			"Content-Type: text/HTML; charset=utf-8", "X-Robots-Tag: noarchive"),
			"WARC-Payload-Digest: sha1:AAAA").bytes(),
		wrec{typ: "resource", id: "<urn:uuid:card>", uri: "https://bot.example/.well-known/http-message-signatures-directory",
			ctype: "application/http-message-signatures-directory+json", block: `{"keys":[]}`}.bytes(),
	}
}

func TestReadPlainAndGzip(t *testing.T) {
	recs := sampleRecords()
	tests := []struct {
		name, compression string
		data              []byte
		decompressed      bool
	}{
		{"plain", "none", join(recs...), false},
		{"gzip per record", "gzip", gzipEach(recs...), false},
		{"whole-file gzip", "gzip-whole-file", gzipMember(join(recs...)), true},
		{"multi-record members", "gzip-multi-record-members", join(gzipMember(join(recs[0], recs[1])), gzipMember(join(recs[2], recs[3]))), true},
		{"zstd per record", "zstd", join(zstdFrame(recs[0]), zstdFrame(recs[1]), zstdFrame(recs[2]), zstdFrame(recs[3])), false},
		{"zstd whole file", "zstd", zstdFrame(join(recs...)), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, got, probs := readAll(t, tt.data, Options{})
			if want := []string{"<urn:uuid:info>", "<urn:uuid:req-1>", "<urn:uuid:resp-1>", "<urn:uuid:card>"}; !slices.Equal(recordIDs(got), want) {
				t.Fatalf("record IDs = %v, want %v", recordIDs(got), want)
			}
			if r.Compression() != tt.compression {
				t.Errorf("Compression() = %q, want %q", r.Compression(), tt.compression)
			}
			if r.Format() != "warc" {
				t.Errorf("Format() = %q, want warc", r.Format())
			}
			for _, p := range probs {
				if p.Code != CodeSharedMember {
					t.Errorf("unexpected problem %v", p.Error())
				}
			}
			if got := hasCode(probs, CodeSharedMember); got != tt.decompressed {
				t.Errorf("shared-member problem reported = %v, want %v", got, tt.decompressed)
			}
			f := got[1].Fetch
			if f == nil {
				t.Fatalf("request record has no Fetch")
			}
			wantFetch := event.Fetch{
				Time: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC), Method: "GET", Scheme: "https",
				Host: "example.com", Target: "/a?b=1", Status: 200, Bytes: -1, UserAgent: "GPTBot/1.0",
				SignatureRecorded: true, Origin: event.OriginWARC, Format: "warc", RecordID: "<urn:uuid:req-1>",
			}
			if f.Time != wantFetch.Time || f.Method != wantFetch.Method || f.Scheme != wantFetch.Scheme ||
				f.Host != wantFetch.Host || f.Target != wantFetch.Target || f.Status != wantFetch.Status ||
				f.Bytes != wantFetch.Bytes || f.UserAgent != wantFetch.UserAgent || !f.SignatureRecorded ||
				f.Origin != wantFetch.Origin || f.Format != wantFetch.Format || f.RecordID != wantFetch.RecordID ||
				f.ClientIP.IsValid() {
				t.Errorf("Fetch = %+v, want %+v", *f, wantFetch)
			}
			if got := f.Header.Get("Signature-Agent"); got != `"https://x"` {
				t.Errorf("Signature-Agent = %q", got)
			}
			c := got[2].Capture
			if c.Status != 200 || c.Proto != "HTTP/1.1" || c.ContentType != "text/html" || string(c.Body) != htmlBody || c.BodyTruncated {
				t.Errorf("Capture = status %d proto %q type %q body %q truncated %v", c.Status, c.Proto, c.ContentType, c.Body, c.BodyTruncated)
			}
			if c.Header.Get("X-Robots-Tag") != "noarchive" || c.PayloadDigest != "sha1:AAAA" {
				t.Errorf("header X-Robots-Tag %q digest %q", c.Header.Get("X-Robots-Tag"), c.PayloadDigest)
			}
			card := got[3].Capture
			if card.Status != 0 || card.ContentType != "application/http-message-signatures-directory+json" || string(card.Body) != `{"keys":[]}` {
				t.Errorf("resource capture: status %d type %q body %q", card.Status, card.ContentType, card.Body)
			}
			for i, rec := range got {
				if rec.Decompressed != tt.decompressed {
					t.Errorf("record %d Decompressed = %v, want %v", i, rec.Decompressed, tt.decompressed)
				}
			}
		})
	}
}

// TestOffsets checks Source offsets and lengths against the bytes written:
// stored member offsets for per-record compression, file offsets for
// plain files, decompressed offsets for shared members.
func TestOffsets(t *testing.T) {
	recs := sampleRecords()
	offsetsOf := func(parts [][]byte) (offs, lens []int64) {
		var at int64
		for _, p := range parts {
			offs = append(offs, at)
			lens = append(lens, int64(len(p)))
			at += int64(len(p))
		}
		return
	}
	var gz, zs [][]byte
	for _, r := range recs {
		gz = append(gz, gzipMember(r))
		zs = append(zs, zstdFrame(r))
	}
	tests := []struct {
		name     string
		data     []byte
		parts    [][]byte
		wantDecp bool
	}{
		{"plain", join(recs...), recs, false},
		{"gzip", join(gz...), gz, false},
		{"zstd", join(zs...), zs, false},
		{"whole-file gzip", gzipMember(join(recs...)), recs, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got, _ := readAll(t, tt.data, Options{})
			offs, lens := offsetsOf(tt.parts)
			if len(got) != len(offs) {
				t.Fatalf("got %d records, want %d", len(got), len(offs))
			}
			for i, rec := range got {
				if rec.Source.Offset != offs[i] || rec.Source.Length != lens[i] || rec.Source.File != "t.warc" || rec.Source.Line != 0 {
					t.Errorf("record %d Source = %+v, want offset %d length %d", i, rec.Source, offs[i], lens[i])
				}
				if rec.Decompressed != tt.wantDecp {
					t.Errorf("record %d Decompressed = %v", i, rec.Decompressed)
				}
				if rec.Capture != nil && rec.Capture.Source != rec.Source || rec.Fetch != nil && rec.Fetch.Source != rec.Source {
					t.Errorf("record %d event Source differs from record Source", i)
				}
			}
		})
	}
}

func TestHTTPHeaderTolerance(t *testing.T) {
	tests := []struct {
		name       string
		block      string
		wantStatus int
		wantProto  string
		wantHeader event.Header
		wantCodes  []problem.Code
	}{
		{
			name:       "HTTP/2 status line",
			block:      "HTTP/2 200\r\ncontent-type: text/plain\r\nx-robots-tag: noindex\r\n\r\nbody",
			wantStatus: 200, wantProto: "HTTP/2",
			wantHeader: event.Header{{Name: "content-type", Value: "text/plain"}, {Name: "x-robots-tag", Value: "noindex"}},
		},
		{
			name:       "line without colon",
			block:      "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nthis is not a header\r\nX-Robots-Tag: noindex\r\n\r\nbody",
			wantStatus: 200, wantProto: "HTTP/1.1",
			wantHeader: event.Header{{Name: "Content-Type", Value: "text/plain"}, {Name: "X-Robots-Tag", Value: "noindex"}},
			wantCodes:  []problem.Code{CodeHTTPHeaderLine},
		},
		{
			name:       "Content-Length -1",
			block:      "HTTP/1.1 200 OK\r\nContent-Length: -1\r\nX-Robots-Tag: noindex\r\n\r\nbody",
			wantStatus: 200, wantProto: "HTTP/1.1",
			wantHeader: event.Header{{Name: "Content-Length", Value: "-1"}, {Name: "X-Robots-Tag", Value: "noindex"}},
		},
		{
			name:       "space before colon",
			block:      "HTTP/1.1 200 OK\r\nX-Robots-Tag : noindex\r\n\r\n",
			wantStatus: 200, wantProto: "HTTP/1.1",
			wantHeader: event.Header{{Name: "X-Robots-Tag", Value: "noindex"}},
		},
		{
			name:       "obs-fold and duplicates kept in order",
			block:      "HTTP/1.0 404 Not Found\r\nX-Robots-Tag: noindex,\r\n  nofollow\r\nX-Robots-Tag: googlebot: none\r\n\r\n",
			wantStatus: 404, wantProto: "HTTP/1.0",
			wantHeader: event.Header{{Name: "X-Robots-Tag", Value: "noindex, nofollow"}, {Name: "X-Robots-Tag", Value: "googlebot: none"}},
		},
		{
			name:       "bare LF line ends",
			block:      "HTTP/1.1 301 Moved\nLocation: /x\n\n",
			wantStatus: 301, wantProto: "HTTP/1.1",
			wantHeader: event.Header{{Name: "Location", Value: "/x"}},
		},
		{
			name:       "CR CR LF line ends",
			block:      "HTTP/1.1 200 OK\r\r\nX-Robots-Tag: noindex\r\r\n\r\r\nbody",
			wantStatus: 200, wantProto: "HTTP/1.1",
			wantHeader: event.Header{{Name: "X-Robots-Tag", Value: "noindex"}},
		},
		{
			name:       "not HTTP",
			block:      "garbage here\r\n\r\n",
			wantStatus: 0,
			wantCodes:  []problem.Code{CodeHTTPStatusLine},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := join(respRec(1, "http://e.com/", tt.block).bytes(), respRec(2, "http://e.com/next", httpResponse("HTTP/1.1 204 No Content", "")).bytes())
			_, got, probs := readAll(t, data, Options{})
			if len(got) != 2 {
				t.Fatalf("got %d records, want 2", len(got))
			}
			c := got[0].Capture
			if c.Status != tt.wantStatus || c.Proto != tt.wantProto {
				t.Errorf("status %d proto %q, want %d %q", c.Status, c.Proto, tt.wantStatus, tt.wantProto)
			}
			if !slices.Equal(c.Header, tt.wantHeader) {
				t.Errorf("header = %q, want %q", c.Header, tt.wantHeader)
			}
			if !slices.Equal(codes(probs), tt.wantCodes) {
				t.Errorf("problems = %v, want %v", codes(probs), tt.wantCodes)
			}
			for _, p := range probs {
				if p.Source.Offset != 0 || p.Source.File != "t.warc" {
					t.Errorf("problem at %v, want t.warc@0", p.Source)
				}
			}
		})
	}
}

func TestMalformedRecordsSkipped(t *testing.T) {
	good1 := respRec(1, "http://e.com/1", httpResponse("HTTP/1.1 200 OK", "one")).bytes()
	good2 := respRec(2, "http://e.com/2", httpResponse("HTTP/1.1 200 OK", "two")).bytes()
	tests := []struct {
		name     string
		bad      []byte
		wantCode problem.Code
	}{
		{"missing Content-Length", wrec{typ: "response", id: "<urn:uuid:bad>", cl: "-", block: "HTTP/1.1 200 OK\r\n\r\nxx"}.bytes(), CodeNoContentLength},
		{"negative Content-Length", wrec{typ: "response", id: "<urn:uuid:bad>", cl: "-5", block: "HTTP/1.1 200 OK\r\n\r\nxx"}.bytes(), CodeBadContentLength},
		{"unsupported digest algorithm", func() []byte {
			b := wrec{typ: "response", id: "<urn:uuid:bad>", uri: "http://e.com/b", extra: []string{"WARC-Block-Digest: md17:XYZ", "WARC-Payload-Digest: blake9:XYZ"},
				block: httpResponse("HTTP/1.1 200 OK", "bad")}.bytes()
			return b
		}(), ""},
		{"garbage between records", []byte("this is not a WARC record\r\nat all\r\n"), CodeGarbage},
		{"header line without colon", wrec{typ: "response", id: "<urn:uuid:bad>", extra: []string{"No colon here"}, block: "HTTP/1.1 200 OK\r\n\r\n"}.bytes(), CodeHeaderLine},
	}
	for _, tt := range tests {
		for _, comp := range []string{"plain", "gzip"} {
			t.Run(tt.name+"/"+comp, func(t *testing.T) {
				data := join(good1, tt.bad, good2)
				if comp == "gzip" {
					data = gzipEach(good1, tt.bad, good2)
				}
				_, got, probs := readAll(t, data, Options{})
				ids := recordIDs(got)
				if ids[0] != "<urn:uuid:resp-1>" || ids[len(ids)-1] != "<urn:uuid:resp-2>" {
					t.Errorf("records = %v, want resp-1 first and resp-2 last", ids)
				}
				if tt.wantCode == "" {
					if len(probs) != 0 || len(ids) != 3 {
						t.Errorf("records %v problems %v, want 3 records and no problem", ids, codes(probs))
					}
					return
				}
				if !slices.Equal(codes(probs), []problem.Code{tt.wantCode}) {
					t.Errorf("problems = %v, want [%s]", codes(probs), tt.wantCode)
				}
				if p := probs[0]; p.Source.Offset != int64(len(good1)) && comp == "plain" {
					t.Errorf("problem offset = %d, want %d", p.Source.Offset, len(good1))
				}
			})
		}
	}
}

func TestOldVersionsAndDates(t *testing.T) {
	tests := []struct {
		version, date string
		want          time.Time
	}{
		{"WARC/0.17", "2008-04-30T20:48:25Z", time.Date(2008, 4, 30, 20, 48, 25, 0, time.UTC)},
		{"WARC/0.18", "2008-04-30T20:48:25.123456Z", time.Date(2008, 4, 30, 20, 48, 25, 123456000, time.UTC)},
		{"WARC/1.0", "2008-04-30T22:48:25+02:00", time.Date(2008, 4, 30, 20, 48, 25, 0, time.UTC)},
		{"WARC/1.1", "20080430204825", time.Date(2008, 4, 30, 20, 48, 25, 0, time.UTC)},
	}
	for _, tt := range tests {
		t.Run(tt.version+" "+tt.date, func(t *testing.T) {
			data := respRec(1, "http://e.com/", httpResponse("HTTP/1.0 200 OK", "x")).bytes()
			data = bytes.Replace(data, []byte("WARC/1.1"), []byte(tt.version), 1)
			data = bytes.Replace(data, []byte("2024-05-01T12:00:00Z"), []byte(tt.date), 1)
			_, got, probs := readAll(t, data, Options{})
			if len(got) != 1 || len(probs) != 0 {
				t.Fatalf("got %d records, problems %v", len(got), codes(probs))
			}
			if got[0].Version != tt.version || !got[0].Capture.Time.Equal(tt.want) || got[0].Capture.Time.Location() != time.UTC {
				t.Errorf("version %q time %v, want %q %v", got[0].Version, got[0].Capture.Time, tt.version, tt.want)
			}
		})
	}
	t.Run("Date field of early drafts", func(t *testing.T) {
		data := wrec{version: "WARC/0.17", typ: "response", date: "-", extra: []string{"Date: 2006-01-02T15:04:05Z"}, block: "HTTP/1.0 200 OK\r\n\r\n"}.bytes()
		_, got, probs := readAll(t, data, Options{})
		if len(got) != 1 || len(probs) != 0 || !got[0].Capture.Time.Equal(time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)) {
			t.Errorf("got %d records, problems %v", len(got), codes(probs))
		}
	})
}

func TestCRCRLFWARCHeaders(t *testing.T) {
	data := join(
		wrec{typ: "response", id: "<urn:uuid:a>", uri: "<http://e.com/a>", eol: "\r\r\n", block: "HTTP/1.1 200 OK\r\r\nX-Robots-Tag: noindex\r\r\n\r\r\n"}.bytes(),
		wrec{typ: "response", id: "<urn:uuid:b>", uri: "http://e.com/b", eol: "\n", block: "HTTP/1.1 200 OK\n\n"}.bytes(),
	)
	_, got, probs := readAll(t, data, Options{})
	if !slices.Equal(recordIDs(got), []string{"<urn:uuid:a>", "<urn:uuid:b>"}) || len(probs) != 0 {
		t.Fatalf("records %v problems %v", recordIDs(got), codes(probs))
	}
	if got[0].Capture.URL != "http://e.com/a" || got[0].Capture.Header.Get("X-Robots-Tag") != "noindex" {
		t.Errorf("URL %q X-Robots-Tag %q", got[0].Capture.URL, got[0].Capture.Header.Get("X-Robots-Tag"))
	}
}

func TestPayloadDecoding(t *testing.T) {
	page := strings.Repeat("<p>hello</p>", 500)
	chunk := func(s string, size int) string {
		var b strings.Builder
		for len(s) > 0 {
			n := min(size, len(s))
			fmt.Fprintf(&b, "%x;ext=1\r\n%s\r\n", n, s[:n])
			s = s[n:]
		}
		b.WriteString("0\r\nTrailer: x\r\n\r\n")
		return b.String()
	}
	gz := string(gzipMember([]byte(page)))
	var zl, fl, br bytes.Buffer
	zw := zlib.NewWriter(&zl)
	zw.Write([]byte(page))
	zw.Close()
	fw, _ := flate.NewWriter(&fl, flate.BestSpeed)
	fw.Write([]byte(page))
	fw.Close()
	bw := brotli.NewWriter(&br)
	bw.Write([]byte(page))
	bw.Close()
	zs := string(zstdFrame([]byte(page)))
	tests := []struct {
		name      string
		block     string
		limit     int
		wantBody  string
		truncated bool
		wantCodes []problem.Code
	}{
		{"identity", httpResponse("HTTP/1.1 200 OK", page, "Content-Type: text/html"), 1 << 20, page, false, nil},
		{"identity capped", httpResponse("HTTP/1.1 200 OK", page, "Content-Type: text/html"), 100, page[:100], true, nil},
		{"chunked", httpResponse("HTTP/1.1 200 OK", chunk(page, 700), "Transfer-Encoding: chunked"), 1 << 20, page, false, nil},
		{"gzip", httpResponse("HTTP/1.1 200 OK", gz, "Content-Encoding: gzip"), 1 << 20, page, false, nil},
		{"chunked gzip", httpResponse("HTTP/1.1 200 OK", chunk(gz, 100), "Transfer-Encoding: chunked", "Content-Encoding: gzip"), 1 << 20, page, false, nil},
		{"chunked gzip capped", httpResponse("HTTP/1.1 200 OK", chunk(gz, 100), "Transfer-Encoding: chunked", "Content-Encoding: gzip"), 10, page[:10], true, nil},
		{"x-gzip", httpResponse("HTTP/1.1 200 OK", gz, "Content-Encoding: x-gzip"), 1 << 20, page, false, nil},
		{"deflate as zlib", httpResponse("HTTP/1.1 200 OK", zl.String(), "Content-Encoding: deflate"), 1 << 20, page, false, nil},
		{"deflate raw", httpResponse("HTTP/1.1 200 OK", fl.String(), "Content-Encoding: Deflate"), 1 << 20, page, false, nil},
		{"br", httpResponse("HTTP/1.1 200 OK", br.String(), "Content-Encoding: br"), 1 << 20, page, false, nil},
		{"br capped", httpResponse("HTTP/1.1 200 OK", br.String(), "Content-Encoding: br"), 7, page[:7], true, nil},
		{"zstd", httpResponse("HTTP/1.1 200 OK", zs, "Content-Encoding: zstd"), 1 << 20, page, false, nil},
		{"identity listed", httpResponse("HTTP/1.1 200 OK", gz, "Content-Encoding: identity, gzip"), 1 << 20, page, false, nil},
		{"two codings", httpResponse("HTTP/1.1 200 OK", gz, "Content-Encoding: gzip, br"), 1 << 20, gz, false, []problem.Code{CodeUnknownCoding}},
		{"chunked body without last chunk", httpResponse("HTTP/1.1 200 OK", "5\r\nhello\r\n", "Transfer-Encoding: chunked"), 1 << 20, "hello", true, []problem.Code{CodeBadChunk}},
		{"cut inside a chunk", httpResponse("HTTP/1.1 200 OK", "a\r\nhello", "Transfer-Encoding: chunked"), 1 << 20, "hello", true, []problem.Code{CodeBadChunk}},
		{"chunked gzip cut", httpResponse("HTTP/1.1 200 OK", chunk(gz[:len(gz)/2], 100), "Transfer-Encoding: chunked", "Content-Encoding: gzip"), 1 << 20, "", true, []problem.Code{CodeDecode}},
		{"bad chunk size later", httpResponse("HTTP/1.1 200 OK", "5\r\nhello\r\nzz\r\nworld", "Transfer-Encoding: chunked"), 1 << 20, "hello", true, []problem.Code{CodeBadChunk}},
		{"renamed by Common Crawl", httpResponse("HTTP/1.1 200 OK", page, "X-Crawler-Content-Encoding: gzip", "X-Crawler-Transfer-Encoding: chunked"), 1 << 20, page, false, nil},
		{"says chunked, is not", httpResponse("HTTP/1.1 200 OK", page, "Transfer-Encoding: chunked"), 1 << 20, page, false, []problem.Code{CodeNotChunked}},
		{"says gzip, is not", httpResponse("HTTP/1.1 200 OK", page, "Content-Encoding: gzip"), 1 << 20, page, false, []problem.Code{CodeNotEncoded}},
		{"broken gzip", httpResponse("HTTP/1.1 200 OK", gz[:40]+"garbage", "Content-Encoding: gzip"), 1 << 20, "", true, []problem.Code{CodeDecode}},
		{"unknown coding", httpResponse("HTTP/1.1 200 OK", "abc", "Content-Encoding: compress"), 1 << 20, "abc", false, []problem.Code{CodeUnknownCoding}},
		{"limit zero", httpResponse("HTTP/1.1 200 OK", page), 0, "", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{BodyLimit: func(string, string, int) int { return tt.limit }}
			_, got, probs := readAll(t, respRec(1, "http://e.com/", tt.block).bytes(), opts)
			if len(got) != 1 {
				t.Fatalf("got %d records", len(got))
			}
			c := got[0].Capture
			if slices.Contains(tt.wantCodes, CodeDecode) {
				// Corrupt data may decode to wrong bytes before the
				// decoder notices; a cut stream may not.
				if tt.name != "broken gzip" && !strings.HasPrefix(page, string(c.Body)) {
					t.Errorf("body of failed decoding %.40q is not a prefix of the page", c.Body)
				}
			} else if string(c.Body) != tt.wantBody {
				t.Errorf("body = %.40q (%d bytes), want %.40q (%d bytes)", c.Body, len(c.Body), tt.wantBody, len(tt.wantBody))
			}
			if c.BodyTruncated != tt.truncated {
				t.Errorf("BodyTruncated = %v, want %v", c.BodyTruncated, tt.truncated)
			}
			if !slices.Equal(codes(probs), tt.wantCodes) {
				t.Errorf("problems = %v, want %v", codes(probs), tt.wantCodes)
			}
		})
	}
}

func TestDefaultBodyLimit(t *testing.T) {
	tests := []struct {
		uri, ct string
		want    int
	}{
		{"https://e.com/robots.txt", "text/plain", 500<<10 + 1},
		{"https://e.com/robots.txt?x=1", "text/html", 500<<10 + 1},
		{"https://e.com/.well-known/http-message-signatures-directory", "application/http-message-signatures-directory+json", 1 << 20},
		{"https://e.com/.well-known/x", "", 1 << 20},
		{"https://e.com/ranges.json", "application/json", 1 << 20},
		{"https://e.com/keys", "application/jwk-set+json", 1 << 20},
		{"https://e.com/", "text/html", 64 << 10},
		{"https://e.com/a.png", "image/png", 0},
		{"https://e.com", "text/plain", 0},
	}
	for _, tt := range tests {
		if got := DefaultBodyLimit(tt.uri, tt.ct, 200); got != tt.want {
			t.Errorf("DefaultBodyLimit(%q, %q) = %d, want %d", tt.uri, tt.ct, got, tt.want)
		}
	}
}

func TestLimits(t *testing.T) {
	good := respRec(2, "http://e.com/2", httpResponse("HTTP/1.1 200 OK", "two")).bytes()
	longWARC := wrec{typ: "response", id: "<urn:uuid:long>", extra: []string{"X-Long: " + strings.Repeat("a", maxWARCHeader)}, block: "HTTP/1.1 200 OK\r\n\r\n"}.bytes()
	longHTTP := respRec(1, "http://e.com/1", httpResponse("HTTP/1.1 200 OK", "body", "X-Robots-Tag: noindex", "Set-Cookie: "+strings.Repeat("c", maxHTTPHeader))).bytes()
	tests := []struct {
		name      string
		data      []byte
		wantIDs   []string
		wantCodes []problem.Code
	}{
		{"WARC header too long", join(longWARC, good), []string{"<urn:uuid:resp-2>"}, []problem.Code{CodeHeaderTooLong}},
		{"HTTP header too long", join(longHTTP, good), []string{"<urn:uuid:resp-1>", "<urn:uuid:resp-2>"}, []problem.Code{CodeHTTPHeaderLong}},
		// The cut record's WARC and HTTP headers are complete: it is kept.
		{"Content-Length past the end", join(good, wrec{typ: "response", id: "<urn:uuid:cut>", cl: "5000", block: "HTTP/1.1 200 OK\r\n\r\n"}.bytes()), []string{"<urn:uuid:resp-2>", "<urn:uuid:cut>"}, []problem.Code{CodeTruncated}},
		{"cut inside the HTTP header", join(good, bytes.TrimSuffix(wrec{typ: "response", id: "<urn:uuid:cut>", cl: "5000", block: "HTTP/1.1 200 OK\r\nX-A: b"}.bytes(), []byte("\r\n\r\n"))), []string{"<urn:uuid:resp-2>"}, []problem.Code{CodeTruncated}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got, probs := readAll(t, tt.data, Options{})
			if !slices.Equal(recordIDs(got), tt.wantIDs) || !slices.Equal(codes(probs), tt.wantCodes) {
				t.Errorf("records %v problems %v, want %v %v", recordIDs(got), codes(probs), tt.wantIDs, tt.wantCodes)
			}
			if tt.name == "HTTP header too long" {
				c := got[0].Capture
				if c.Status != 200 || c.Header.Get("X-Robots-Tag") != "noindex" || !c.BodyTruncated || c.Body != nil {
					t.Errorf("long header capture: status %d robots %q truncated %v body %q", c.Status, c.Header.Get("X-Robots-Tag"), c.BodyTruncated, c.Body)
				}
			}
		})
	}
}

// TestResyncAtMemberStart skips a record without Content-Length whose
// gzip member does not end with a line end: the next member still starts
// a record.
func TestResyncAtMemberStart(t *testing.T) {
	good1 := respRec(1, "http://e.com/1", httpResponse("HTTP/1.1 200 OK", "one")).bytes()
	good2 := respRec(2, "http://e.com/2", httpResponse("HTTP/1.1 200 OK", "two")).bytes()
	bad := []byte("WARC/1.1\r\nWARC-Type: response\r\n\r\nHTTP/1.1 200 OK\r\n\r\nno line end")
	_, got, probs := readAll(t, gzipEach(good1, bad, good2), Options{})
	if !slices.Equal(recordIDs(got), []string{"<urn:uuid:resp-1>", "<urn:uuid:resp-2>"}) || !slices.Equal(codes(probs), []problem.Code{CodeNoContentLength}) {
		t.Errorf("records %v problems %v", recordIDs(got), codes(probs))
	}
	if off := int64(len(gzipMember(good1))); probs[0].Source.Offset != off {
		t.Errorf("problem at %d, want %d", probs[0].Source.Offset, off)
	}
}

// TestProblemsInFileOrder checks that problems come sorted by offset even
// when the decompressor found some ahead of the parser.
func TestProblemsInFileOrder(t *testing.T) {
	var parts [][]byte
	for i := range 20 {
		block := httpResponse("HTTP/1.1 200 OK", "x", "no colon line")
		parts = append(parts, respRec(i, fmt.Sprintf("http://e.com/%d", i), block).bytes())
	}
	members := make([][]byte, len(parts))
	for i, p := range parts {
		members[i] = gzipMember(p)
		if i%5 == 4 {
			members[i][len(members[i])-5] ^= 0xff // break the CRC
		}
	}
	r, err := NewReader(bytes.NewReader(join(members...)), "t.warc", Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := drain(r)
	if err != nil || len(recs) != 20 {
		t.Fatalf("%d records, error %v", len(recs), err)
	}
	// drain collected per call; collect all again in one batch.
	r, _ = NewReader(bytes.NewReader(join(members...)), "t.warc", Options{})
	for {
		if _, err := r.Next(); err != nil {
			break
		}
	}
	probs := r.Problems()
	if len(probs) != 24 {
		t.Errorf("got %d problems (%v), want 20 header-line and 4 checksum problems", len(probs), codes(probs))
	}
	if !slices.IsSortedFunc(probs, func(a, b event.Problem) int { return int(a.Source.Offset - b.Source.Offset) }) {
		t.Errorf("problems not in file order: %v", probs)
	}
}

func TestAll(t *testing.T) {
	data := join(manyRecords(5)...)
	r, err := NewReader(bytes.NewReader(data), "t.warc", Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rec, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		if rec.Capture == nil {
			t.Fatalf("record %d has no capture", n)
		}
		n++
		if n == 3 {
			break
		}
	}
	for _, err := range r.All() { // resumes where the first loop stopped
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 5 {
		t.Errorf("read %d records, want 5", n)
	}
	r, _ = NewReader(&errAfter{r: bytes.NewReader(data), n: len(data) / 2, err: io.ErrClosedPipe}, "t.warc", Options{})
	var last error
	for _, err := range r.All() {
		last = err
	}
	if !errors.Is(last, io.ErrClosedPipe) {
		t.Errorf("All ended with %v, want ErrClosedPipe", last)
	}
}

func TestNewReaderFormats(t *testing.T) {
	good := respRec(1, "http://e.com/", httpResponse("HTTP/1.1 200 OK", "x")).bytes()
	tests := []struct {
		name      string
		data      []byte
		wantErr   error
		format    string
		records   int
		wantCodes []problem.Code
	}{
		{"empty", nil, nil, "warc", 0, nil},
		{"empty gzip member", gzipMember(nil), nil, "warc", 0, nil},
		{"blank lines only", []byte("\r\n\r\n"), nil, "warc", 0, nil},
		{"text", []byte("hello world\n"), ErrUnknownFormat, "", 0, nil},
		{"gzipped text", gzipMember([]byte("hello world\n")), ErrUnknownFormat, "", 0, nil},
		{"leading garbage", join([]byte("junk\r\n"), good), nil, "warc", 1, []problem.Code{CodeGarbage}},
		{"ARC gzipped", gzipMember([]byte("filedesc://a.arc 0.0.0.0 19961104142103 text/plain 5\n1 0 x\n\n")), nil, "arc", 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewReader(bytes.NewReader(tt.data), "t.warc", Options{})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("NewReader error = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			recs, probs, err := drain(r)
			if err != nil || len(recs) != tt.records || r.Format() != tt.format || !slices.Equal(codes(probs), tt.wantCodes) {
				t.Errorf("format %q, %d records, problems %v, error %v; want %q, %d, %v", r.Format(), len(recs), codes(probs), err, tt.format, tt.records, tt.wantCodes)
			}
		})
	}
}
