package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/warc"
)

const combinedLine = `192.0.2.1 - - [12/Mar/2025:10:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 10 "-" "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"` + "\n" +
	`192.0.2.1 - - [12/Mar/2025:10:00:05 +0000] "GET /a HTTP/1.1" 404 10 "-" "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"` + "\n"

var warcRecord = func() string {
	block := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\nAllow: /"
	return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2025-03-01T00:00:00Z\r\nWARC-Target-URI: https://example.com/robots.txt\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: " +
		strconv.Itoa(len(block)) + "\r\n\r\n" + block + "\r\n\r\n"
}()

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func zst(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := zstd.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSniff(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		data   []byte
		kind   Kind
		format string
		comp   string
	}{
		{"a.warc", []byte(warcRecord), KindWARC, "", "none"},
		{"a.bin", gz([]byte(warcRecord)), KindWARC, "", "gzip"},
		{"arc", []byte("filedesc://x.arc 0.0.0.0 20250301000000 text/plain 76\n1 0 Example\nURL IP-address Archive-date Content-type Archive-length\n\n"), KindARC, "", "none"},
		{"combined.txt", []byte(combinedLine), KindLog, "combined", "none"},
		{"combined.gz", gz([]byte(combinedLine)), KindLog, "combined", "gzip"},
		{"combined.zst", zst([]byte(combinedLine)), KindLog, "combined", "zstd"},
		{"nginx.json", []byte(`{"time_iso8601":"2025-03-12T10:00:00+00:00","remote_addr":"192.0.2.1","request_method":"GET","request_uri":"/","status":200,"http_user_agent":"x","http_host":"example.com"}` + "\n"), KindLog, "nginx-json", "none"},
		{"card.json", []byte(`{"client_id":"https://bot.example/card","client_name":"Bot","jwks_uri":"https://bot.example/jwks","web_bot_auth":{"rfc9309-product-token":"Bot"}}`), KindCard, "", "none"},
		{"keys.json", []byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}`), KindJWKS, "", "none"},
		{"ranges.json", []byte(`{"creationTime":"2025-03-01T00:00:00Z","prefixes":[{"ipv4Prefix":"66.249.64.0/19"}]}`), KindIPList, "", "none"},
		{"bingbot.json", []byte("{\n\u200b  \"creationTime\": \"2025-03-01T00:00:00\",\n  \"prefixes\": [\n\u200b    {\"ipv4Prefix\": \"157.55.39.0/24\u200b\"}\n  ]\n}\n"), KindIPList, "", "none"},
		{"index.csv", []byte("url,time\nhttps://example.com/a,2025-03-01\n"), KindListing, "csv", "none"},
		{"dns.jsonl", []byte(dnsSnapshot), KindDNS, "", "none"},
		{"dns-header-only.jsonl.gz", gz([]byte(`{"format":"repaudit-dns-snapshot/1","resolver":"system"}` + "\n")), KindDNS, "", "gzip"},
		// Another format's header is JSON lines, not a snapshot.
		{"other-format.jsonl", []byte(`{"format":"repaudit-dns-snapshot/2"}` + "\n" + `{"address":"192.0.2.1"}` + "\n"), KindUnknown, "", "none"},
		{"notes.txt", []byte("These are some notes,\nnot a log.\n"), KindUnknown, "", "none"},
		{"empty", nil, KindUnknown, "", "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Sniff(write(t, dir, tt.name, tt.data), "")
			if err != nil {
				t.Fatal(err)
			}
			if f.Kind != tt.kind || f.Format != tt.format || f.Compression != tt.comp {
				t.Errorf("got kind %q format %q compression %q, want %q %q %q (note %q)", f.Kind, f.Format, f.Compression, tt.kind, tt.format, tt.comp, f.Note)
			}
			if f.Size != int64(len(tt.data)) {
				t.Errorf("size = %d, want %d", f.Size, len(tt.data))
			}
		})
	}
}

// dnsSnapshot is a reverse-DNS snapshot as 'repaudit dns verify' writes
// it (identity.WriteDNSSnapshot): a header line, then an entry per line.
const dnsSnapshot = `{"format":"repaudit-dns-snapshot/1","resolver":"system","started":"2025-03-13T06:00:00Z","finished":"2025-03-13T06:00:01Z"}
{"address":"192.0.2.1","tokens":["bingbot"],"suffixes":[".search.msn.com"],"ptr":["host.example.net"],"result":"name_outside_suffixes","time":"2025-03-13T06:00:00Z"}
`

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub", ".hidden"), 0o755)
	a := write(t, dir, "a.log", []byte(combinedLine))
	b := write(t, filepath.Join(dir, "sub"), "b.log", []byte(combinedLine))
	write(t, filepath.Join(dir, "sub", ".hidden"), "c.log", []byte(combinedLine))
	write(t, filepath.Join(dir, "sub"), ".d.log", []byte(combinedLine))
	got, probs, err := Expand([]string{dir, filepath.Join(dir, "*.log")})
	if err != nil || len(probs) != 0 {
		t.Fatal(err, probs)
	}
	if len(got) != 2 || got[0] != a || got[1] != b {
		t.Errorf("Expand = %v, want [%s %s] (sorted, deduplicated, hidden skipped)", got, a, b)
	}
	if _, _, err := Expand([]string{filepath.Join(dir, "*.warc")}); err == nil {
		t.Error("a glob matching nothing should be an error")
	}
	if _, _, err := Expand([]string{filepath.Join(dir, "missing.log")}); err == nil {
		t.Error("a missing file should be an error")
	}
}

func TestReadStats(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	logPath := write(t, dir, "a.log.zst", zst([]byte(combinedLine+"garbage line\n")))
	f, err := Sniff(logPath, "")
	if err != nil {
		t.Fatal(err)
	}
	var problems []event.Problem
	var targets []string
	st, err := Read(ctx, f, Options{}, Handler{
		Fetch:   func(ft *event.Fetch) error { targets = append(targets, ft.Target); return nil },
		Problem: func(p event.Problem) { problems = append(problems, p) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Fetches != 2 || st.RobotsFetches != 1 || st.Statuses[404] != 1 || len(targets) != 2 {
		t.Errorf("stats = %+v, targets %v", st, targets)
	}
	if len(problems) != 1 || problems[0].Source.Line != 3 {
		t.Errorf("problems = %+v, want one on line 3", problems)
	}
	if st.First.IsZero() || !st.Last.After(st.First) {
		t.Errorf("time range %v .. %v", st.First, st.Last)
	}

	warcPath := write(t, dir, "a.warc.gz", gz([]byte(warcRecord)))
	f, _ = Sniff(warcPath, "")
	var bodies []string
	st, err = Read(ctx, f, Options{}, Handler{Capture: func(c *event.Capture) error { bodies = append(bodies, string(c.Body)); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Captures != 1 || st.RobotsCaptures != 1 || len(bodies) != 1 || bodies[0] != "User-agent: *\nAllow: /" {
		t.Errorf("stats = %+v, bodies %q", st, bodies)
	}
	if _, err := Read(ctx, File{Path: warcPath, Kind: KindCard}, Options{}, Handler{}); err == nil {
		t.Error("Read of a document kind should say it is not a stream")
	}
}

func FuzzSniff(f *testing.F) {
	for _, s := range [][]byte{[]byte(warcRecord), gz([]byte(combinedLine)), []byte(`{"keys":[]}`), []byte("url\nhttps://e/\n"), {0x28, 0xb5, 0x2f, 0xfd, 0}} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "in")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fl, err := Sniff(p, "")
		if err != nil {
			return
		}
		if fl.Kind == KindWARC || fl.Kind == KindARC || fl.Kind == KindLog {
			Read(context.Background(), fl, Options{}, Handler{})
		}
	})
}

// TestReadDigestCoversWholeFile: the digest Read feeds is the digest of the
// file as stored, junk after the last record included.
func TestReadDigestCoversWholeFile(t *testing.T) {
	dir := t.TempDir()
	data := append(gz([]byte(warcRecord)), []byte("trailing junk that is not a gzip member")...)
	p := write(t, dir, "a.warc.gz", data)
	f, err := Sniff(p, "")
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	if _, err := Read(context.Background(), f, Options{Digest: h}, Handler{}); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(data)
	if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
		t.Errorf("digest %x, want the file's %x", got, want)
	}
}

// TestReadRevisitFromFile: Read of a regular file lets the resolver read
// a revisit's original again from the file rather than keep every body;
// the revisit gets the original's body all the same, as ReadFrom (which
// cannot read the input again) gives it.
func TestReadRevisitFromFile(t *testing.T) {
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, warc.WriterOptions{})
	page := bytes.Repeat([]byte("<p>a page</p>"), 2000)
	block := append([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"), page...)
	fields := func(typ, id string, more ...event.Field) event.Header {
		return append(event.Header{{Name: "WARC-Type", Value: typ}, {Name: "WARC-Record-ID", Value: id},
			{Name: "WARC-Date", Value: "2025-03-01T00:00:00Z"}, {Name: "WARC-Target-URI", Value: "https://example.com/p"},
			{Name: "Content-Type", Value: "application/http;msgtype=response"}}, more...)
	}
	w.WriteRecord(fields("response", "<urn:uuid:orig>"), block)
	w.WriteRecord(fields("revisit", "<urn:uuid:rv>", event.Field{Name: "WARC-Refers-To", Value: "<urn:uuid:orig>"}), nil)
	if err := w.WriteRecord(fields("revisit", "<urn:uuid:rv2>", event.Field{Name: "WARC-Refers-To", Value: "<urn:uuid:orig>"}), nil); err != nil {
		t.Fatal(err)
	}
	p := write(t, t.TempDir(), "a.warc.gz", buf.Bytes())
	f, err := Sniff(p, "")
	if err != nil {
		t.Fatal(err)
	}
	read := func(fromFile bool) []string {
		var got []string
		h := Handler{
			Capture: func(c *event.Capture) error {
				got = append(got, c.RecordType+" "+strconv.FormatBool(c.Resolved)+" "+strconv.Itoa(c.Status)+" "+strconv.Itoa(len(c.Body)))
				if !bytes.Equal(c.Body, page) {
					t.Errorf("%s %s: body of %d bytes, want the page's %d", c.RecordType, c.RecordID, len(c.Body), len(page))
				}
				return nil
			},
			Problem: func(p event.Problem) { t.Errorf("problem %+v", p) },
		}
		opts := Options{Resolver: warc.NewResolver(1 << 20)}
		if fromFile {
			_, err = Read(context.Background(), f, opts, h)
		} else {
			_, err = ReadFrom(context.Background(), f, bytes.NewReader(buf.Bytes()), opts, h)
		}
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	got, want := read(true), read(false)
	if len(got) != 3 || !slices.Equal(got, want) {
		t.Errorf("Read gave %q, ReadFrom %q", got, want)
	}
}
