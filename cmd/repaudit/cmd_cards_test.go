package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nlnwa/gowarc"

	"github.com/repaudit/repaudit/identity"
)

// cardsTestServer serves cards, key directories and IP lists over TLS on
// loopback. Cards name themselves with the host the request reached.
func cardsTestServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	seed := bytes.Repeat([]byte{42}, ed25519.SeedSize)
	x := base64.RawURLEncoding.EncodeToString(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey))
	jwks := `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + x + `"}]}`
	tp, err := identity.Thumbprint(map[string]any{"kty": "OKP", "crv": "Ed25519", "x": x})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	base := func(r *http.Request) string { return "https://" + r.Host }
	mux.HandleFunc("/card", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"client_id":%q,"client_name":"Test Bot","jwks_uri":%q,"web_bot_auth":{"rfc9309-product-token":"TestBot","ips_uri":%q}}`,
			base(r)+"/card", base(r)+"/jwks", base(r)+"/ips.json")
	})
	mux.HandleFunc("/dir-card", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"client_id":%q,"client_name":"Directory Bot","web_bot_auth":{"trigger":"crawler"}}`, base(r)+"/dir-card")
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/jwk-set+json")
		io.WriteString(w, jwks)
	})
	mux.HandleFunc(directoryPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/http-message-signatures-directory+json")
		io.WriteString(w, jwks)
	})
	mux.HandleFunc("/ips.json", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"creationTime":"2025-08-15T14:30:00Z","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/card", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/mismatch", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"client_id":"https://elsewhere.example/card","client_name":"Impostor"}`)
	})
	mux.HandleFunc("/both", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"client_id":%q,"jwks_uri":%q,"jwks":%s,"web_bot_auth":{}}`, base(r)+"/both", base(r)+"/jwks", jwks)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"client_id":%q,"pad":"%s"}`, base(r)+"/big", strings.Repeat("a", 4096))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	mux.HandleFunc("/chunked", func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush() // forces chunked transfer coding
		fmt.Fprintf(w, `{"client_id":%q,"client_name":"Chunked Bot","jwks":%s}`, base(r)+"/chunked", jwks)
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	return srv, tp
}

// cardsTestHooks gives the server's trust roots and a fixed clock.
func cardsTestHooks(srv *httptest.Server, at time.Time) netHooks {
	tc := srv.Client().Transport.(*http.Transport).TLSClientConfig
	return netHooks{
		tlsConfig: tc,
		now:       func() time.Time { return at },
	}
}

func runCardsTest(t *testing.T, ctx context.Context, hooks netHooks, registry string, extra ...string) (code int, stderr, out string) {
	t.Helper()
	dir := t.TempDir()
	reg := filepath.Join(dir, "registry.txt")
	if err := os.WriteFile(reg, []byte(registry), 0o644); err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(dir, "cards.warc.gz")
	var so, se bytes.Buffer
	args := append([]string{"cards", "fetch", "--registry", reg, "--out", out}, extra...)
	code = run(ctx, args, stdio{Stdin: strings.NewReader(""), Stdout: &so, Stderr: &se, Net: hooks})
	return code, se.String(), out
}

type warcRec struct {
	typ, uri, id, date, concurrent, contentType, payloadDigest, truncated string
	block                                                                 []byte
}

// readWARC reads a WARC with gowarc under strict validation, so digests,
// lengths and header syntax are checked by an independent reader.
func readWARC(t *testing.T, path string) []warcRec {
	t.Helper()
	r, err := gowarc.NewWarcFileReader(path, 0, gowarc.WithStrictValidation())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var recs []warcRec
	for {
		rec, off, val, err := r.Next()
		if err == io.EOF {
			return recs
		}
		if err != nil {
			t.Fatalf("record at %d: %v", off, err)
		}
		if val != nil && !val.Valid() {
			t.Errorf("record at %d: validation: %v", off, val)
		}
		h := rec.WarcHeader()
		rd, err := rec.Block().RawBytes()
		if err != nil {
			t.Fatal(err)
		}
		block, _ := io.ReadAll(rd)
		recs = append(recs, warcRec{
			typ: rec.Type().String(), uri: h.Get(gowarc.WarcTargetURI), id: h.Get(gowarc.WarcRecordID),
			date: h.Get(gowarc.WarcDate), concurrent: h.Get(gowarc.WarcConcurrentTo),
			contentType: h.Get(gowarc.ContentType), payloadDigest: h.Get(gowarc.WarcPayloadDigest),
			truncated: h.Get(gowarc.WarcTruncated), block: block,
		})
	}
}

// gzipMembers counts the gzip members of a file.
func gzipMembers(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte{0x1f, 0x8b, 0x08})
}

func TestCardsFetchOK(t *testing.T) {
	srv, tp := cardsTestServer(t)
	at := time.Date(2025, 9, 1, 12, 0, 0, 0, time.UTC)
	inline := `data:application/json,{"client_name":"Inline Bot","jwks_uri":"` + srv.URL + `/jwks"}`
	registry := "# test registry\n" +
		srv.URL + "/card   # a registry-03 card\n" +
		"\n" + inline + "\n" +
		srv.URL + directoryPath + "\n" +
		srv.URL + "/dir-card\n" +
		srv.URL + "/chunked\n"
	code, stderr, out := runCardsTest(t, context.Background(), cardsTestHooks(srv, at), registry, "--allow-private")
	if code != exitOK {
		t.Fatalf("exit = %d, want 0; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"registry.txt:2 " + srv.URL + `/card: 200, card "Test Bot" recorded`,
		"  jwks_uri " + srv.URL + "/jwks: 200, 1 key(s) recorded",
		"  ips_uri " + srv.URL + "/ips.json: 200, 1 prefixes (creationTime 2025-08-15T14:30:00Z) recorded",
		`registry.txt:4 data:application/json,{"client_name":"Inline Bot"`,
		`inline card "Inline Bot" recorded`,
		"registry.txt:5 " + srv.URL + directoryPath + ": 200, key directory with 1 key(s) recorded",
		"registry.txt:6 " + srv.URL + `/dir-card: 200, card "Directory Bot" recorded`,
		"  key directory " + srv.URL + directoryPath + ": 200, 1 key(s), recorded above",
		`card "Chunked Bot" recorded`,
		"  inline jwks: 1 key(s)",
		"cards fetch: 5 entries: 5 ok, 0 failed",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q; got:\n%s", want, stderr)
		}
	}

	recs := readWARC(t, out)
	if n := gzipMembers(t, out); n != len(recs) {
		t.Errorf("%d gzip members for %d records, want one member per record", n, len(recs))
	}
	if len(recs) == 0 || recs[0].typ != "warcinfo" {
		t.Fatalf("first record is not warcinfo: %+v", recs)
	}
	// card, jwks, ips, directory, dir-card, chunked: 6 exchanges (each URL
	// once: the inline card's jwks_uri and dir-card's directory are reused),
	// plus the inline resource.
	var reqs, resps, resources int
	byID := map[string]warcRec{}
	for _, r := range recs {
		byID[r.id] = r
	}
	store := identity.NewStore()
	for _, r := range recs[1:] {
		if !strings.HasPrefix(r.id, "<urn:uuid:") || r.date != "2025-09-01T12:00:00Z" {
			t.Errorf("record %s: id %q date %q", r.typ, r.id, r.date)
		}
		switch r.typ {
		case "request":
			reqs++
			if r.contentType != "application/http;msgtype=request" || !bytes.HasPrefix(r.block, []byte("GET /")) {
				t.Errorf("request record %s: %q %q", r.uri, r.contentType, r.block)
			}
			peer, ok := byID[r.concurrent]
			if !ok || peer.typ != "response" || peer.uri != r.uri || peer.concurrent != r.id {
				t.Errorf("request %s: WARC-Concurrent-To %q does not pair with its response", r.uri, r.concurrent)
			}
		case "response":
			resps++
			if r.contentType != "application/http;msgtype=response" || !strings.HasPrefix(r.payloadDigest, "sha256:") {
				t.Errorf("response record %s: %q %q", r.uri, r.contentType, r.payloadDigest)
			}
			_, body, _ := bytes.Cut(r.block, []byte("\r\n\r\n"))
			if bytes.Contains(r.block[:len(r.block)-len(body)], []byte("Transfer-Encoding")) {
				t.Errorf("response %s keeps Transfer-Encoding over a de-chunked body", r.uri)
			}
			store.AddCapture(r.uri, body, at, "cards.warc.gz")
		case "resource":
			resources++
			if r.uri != inline || r.contentType != "application/json" {
				t.Errorf("resource record: uri %q type %q", r.uri, r.contentType)
			}
			store.AddCapture(r.uri, r.block, at, "cards.warc.gz")
		}
	}
	if reqs != 6 || resps != 6 || resources != 1 {
		t.Errorf("records: %d requests, %d responses, %d resources; want 6, 6, 1", reqs, resps, resources)
	}

	// What was fetched is usable by the audit as of the capture time.
	later := at.Add(time.Hour)
	if keys, known := store.Keys(srv.URL+"/card", later); !known || len(keys) != 1 || keys[0].Thumbprint != tp {
		t.Errorf("Keys(card) = %v, %v; want the served key", keys, known)
	}
	if keys, known := store.Keys(srv.URL, later); !known || len(keys) != 1 {
		t.Errorf("Keys(origin) = %v, %v; want the directory key", keys, known)
	}
	if got := store.CheckIP("TestBot", netip.MustParseAddr("192.0.2.9"), later); got.Result != identity.IPInRange {
		t.Errorf("CheckIP through the card = %+v, want in_range", got)
	}
	if _, known := store.Keys(srv.URL+"/card", at.Add(-time.Hour)); known {
		t.Error("keys known before they were fetched")
	}
}

func TestCardsFetchRefusals(t *testing.T) {
	srv, _ := cardsTestServer(t)
	at := time.Date(2025, 9, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		line     string
		flags    []string
		noHooks  bool // use the production TLS config (loopback is then refused before TLS)
		want     string
		recorded bool // the exchange is still in the WARC
	}{
		{"redirect", srv.URL + "/redirect", nil, false, "refused: status 301 Moved Permanently: redirects are not followed", true},
		{"not found", srv.URL + "/nothing", nil, false, "refused: status 404 Not Found: only 200 is accepted", true},
		{"client_id mismatch", srv.URL + "/mismatch", nil, false, `refused: client_id "https://elsewhere.example/card" is not the URL fetched`, true},
		{"jwks and jwks_uri", srv.URL + "/both", nil, false, "refused: invalid card (jwks-and-jwks-uri)", true},
		{"http URL", strings.Replace(srv.URL, "https:", "http:", 1) + "/card", nil, false, "refused: registry-not-https", false},
		{"oversize body", srv.URL + "/big", []string{"--max-bytes", "1KiB"}, false, "refused: body larger than --max-bytes 1024", true},
		{"timeout", srv.URL + "/slow", []string{"--timeout", "300ms"}, false, "refused: timed out after 300ms", false},
		{"private address without the flag", srv.URL + "/card", nil, true, "refused: refusing non-public address: 127.0.0.1 (use --allow-private to allow it)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hooks := cardsTestHooks(srv, at)
			flags := tt.flags
			if tt.noHooks {
				hooks = netHooks{}
			} else {
				flags = append(flags, "--allow-private")
			}
			code, stderr, out := runCardsTest(t, context.Background(), hooks, tt.line+"\n", flags...)
			if code != exitFindings {
				t.Errorf("exit = %d, want %d; stderr:\n%s", code, exitFindings, stderr)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr lacks %q; got:\n%s", tt.want, stderr)
			}
			if !strings.Contains(stderr, "1 entries: 0 ok, 1 failed") {
				t.Errorf("summary missing; stderr:\n%s", stderr)
			}
			recs := readWARC(t, out)
			gotRecorded := len(recs) > 1
			if gotRecorded != tt.recorded {
				t.Errorf("exchange recorded = %v, want %v (%d records)", gotRecorded, tt.recorded, len(recs))
			}
			if tt.name == "oversize body" && len(recs) == 3 && recs[2].truncated != "length" {
				t.Errorf("oversize response WARC-Truncated = %q, want length", recs[2].truncated)
			}
		})
	}
}

func TestCardsFetchUsage(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "r.txt")
	os.WriteFile(reg, []byte("# empty\n"), 0o644)
	out := filepath.Join(dir, "o.warc.gz")
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"no subcommand", []string{"cards"}, exitUsage},
		{"unknown subcommand", []string{"cards", "get"}, exitUsage},
		{"help", []string{"cards", "-h"}, exitOK},
		{"missing registry", []string{"cards", "fetch", "--out", out}, exitUsage},
		{"missing out", []string{"cards", "fetch", "--registry", reg}, exitUsage},
		{"bad size", []string{"cards", "fetch", "--registry", reg, "--out", out, "--max-bytes", "lots"}, exitUsage},
		{"size too big", []string{"cards", "fetch", "--registry", reg, "--out", out, "--max-bytes", "1GiB"}, exitUsage},
		{"bad timeout", []string{"cards", "fetch", "--registry", reg, "--out", out, "--timeout", "0s"}, exitUsage},
		{"stray argument", []string{"cards", "fetch", "--registry", reg, "--out", out, "extra"}, exitUsage},
		{"unreadable registry", []string{"cards", "fetch", "--registry", filepath.Join(dir, "none.txt"), "--out", out}, exitUsage},
		{"unwritable output", []string{"cards", "fetch", "--registry", reg, "--out", filepath.Join(dir, "no", "such", "dir.warc.gz")}, exitUsage},
		{"empty registry", []string{"cards", "fetch", "--registry", reg, "--out", out}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var so, se bytes.Buffer
			if got := run(context.Background(), tt.args, stdio{Stdin: strings.NewReader(""), Stdout: &so, Stderr: &se}); got != tt.want {
				t.Errorf("exit = %d, want %d; stderr:\n%s", got, tt.want, se.String())
			}
		})
	}
	// Only the successful run left a file, and no temporary files remain.
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	hidden, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(files) != 2 || len(hidden) != 0 {
		t.Errorf("directory holds %v %v, want r.txt and o.warc.gz only", files, hidden)
	}
}

func TestCardsFetchInterrupted(t *testing.T) {
	srv, _ := cardsTestServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, stderr, out := runCardsTest(t, ctx, cardsTestHooks(srv, time.Unix(0, 0)), srv.URL+"/card\n", "--allow-private")
	if code != exitUsage || !strings.Contains(stderr, "interrupted") {
		t.Errorf("exit = %d, want %d with 'interrupted'; stderr:\n%s", code, exitUsage, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output exists after an interrupted run (err %v)", err)
	}
}

func TestCardsFetchRefusesExistingOutput(t *testing.T) {
	srv, _ := cardsTestServer(t)
	ctx := context.Background()
	hooks := cardsTestHooks(srv, time.Date(2025, 9, 1, 12, 0, 0, 0, time.UTC))
	dir := t.TempDir()
	reg := filepath.Join(dir, "registry.txt")
	out := filepath.Join(dir, "cards.warc.gz")
	os.WriteFile(reg, []byte(srv.URL+"/card\n"), 0o644)
	os.WriteFile(out, []byte("keep me"), 0o644)
	var se bytes.Buffer
	std := stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: hooks}
	if code := run(ctx, []string{"cards", "fetch", "--registry", reg, "--out", out, "--allow-private"}, std); code != exitUsage ||
		!strings.Contains(se.String(), "exists (use --force to replace it)") {
		t.Errorf("existing output: exit %d, stderr %q; want %d and a hint at --force", code, se.String(), exitUsage)
	}
	if b, _ := os.ReadFile(out); string(b) != "keep me" {
		t.Errorf("existing output was changed without --force")
	}
	se.Reset()
	if code := run(ctx, []string{"cards", "fetch", "--registry", reg, "--out", out, "--allow-private", "--force"}, std); code != exitOK {
		t.Fatalf("--force: exit %d; stderr:\n%s", code, se.String())
	}
	if recs := readWARC(t, out); len(recs) < 3 {
		t.Errorf("--force wrote %d records", len(recs))
	}
}

func TestByteSize(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"1MiB", 1 << 20, false}, {"512KiB", 512 << 10, false}, {"100000", 100000, false},
		{"1.5M", 3 << 19, false}, {"2MB", 2e6, false}, {"0", 0, true}, {"-1", 0, true},
		{"1TiB", 0, true}, {"abc", 0, true}, {"65MiB", 0, true},
	}
	for _, tt := range tests {
		var b byteSize
		err := b.Set(tt.in)
		if (err != nil) != tt.wantErr || (err == nil && int64(b) != tt.want) {
			t.Errorf("Set(%q) = %d, %v; want %d, error %v", tt.in, b, err, tt.want, tt.wantErr)
		}
	}
}
