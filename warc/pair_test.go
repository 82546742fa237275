package warc

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

func TestPairing(t *testing.T) {
	req := func(n int, uri string, extra ...string) []byte {
		return reqRec(n, uri, "GET / HTTP/1.1\r\nHost: e.com\r\n\r\n", extra...).bytes()
	}
	resp := func(n int, uri, status string, extra ...string) []byte {
		return respRec(n, uri, httpResponse(status, ""), extra...).bytes()
	}
	meta := func(n int, extra ...string) []byte {
		return wrec{typ: "metadata", id: fmt.Sprintf("<urn:uuid:meta-%d>", n), ctype: "application/warc-fields", block: "outlink: x\r\n", extra: extra}.bytes()
	}
	filler := func(n int) []byte {
		return wrec{typ: "resource", id: fmt.Sprintf("<urn:uuid:fill-%d>", n), uri: "http://e.com/f", ctype: "text/plain", block: "x"}.bytes()
	}
	var many [][]byte
	for i := range pairWindow + 1 {
		many = append(many, filler(i))
	}
	tests := []struct {
		name string
		data []byte
		want []int // Fetch.Status of each request record, in order
	}{
		{"wget: request then response linking back",
			join(req(1, "http://e.com/"), resp(1, "http://e.com/", "HTTP/1.1 404 Not Found", "WARC-Concurrent-To: <urn:uuid:req-1>")),
			[]int{404}},
		{"request linking forward",
			join(req(1, "http://e.com/", "WARC-Concurrent-To: <urn:uuid:resp-1>"), resp(1, "http://e.com/", "HTTP/1.1 503 Busy")),
			[]int{503}},
		{"heritrix: response, request, metadata",
			join(resp(1, "http://e.com/", "HTTP/1.1 301 Moved"), req(1, "http://e.com/", "WARC-Concurrent-To: <urn:uuid:resp-1>"), meta(1, "WARC-Concurrent-To: <urn:uuid:resp-1>")),
			[]int{301}},
		{"interleaved pairs",
			join(resp(1, "http://e.com/1", "HTTP/1.1 200 OK"), resp(2, "http://e.com/2", "HTTP/1.1 403 Forbidden"),
				req(2, "http://e.com/2", "WARC-Concurrent-To: <urn:uuid:resp-2>"), req(1, "http://e.com/1", "WARC-Concurrent-To: <urn:uuid:resp-1>")),
			[]int{403, 200}},
		{"no links, adjacent same URI",
			join(req(1, "http://e.com/x"), resp(1, "http://e.com/x", "HTTP/1.1 410 Gone")),
			[]int{410}},
		{"no links, different URI",
			join(req(1, "http://e.com/x"), resp(1, "http://e.com/y", "HTTP/1.1 410 Gone")),
			[]int{0}},
		{"response without request pairs nothing; request without response",
			join(resp(1, "http://e.com/", "HTTP/1.1 200 OK"), req(2, "http://e.com/", "WARC-Concurrent-To: <urn:uuid:resp-9>")),
			[]int{0}},
		{"response beyond the window",
			join(req(1, "http://e.com/", "WARC-Concurrent-To: <urn:uuid:resp-1>"), join(many...), resp(1, "http://e.com/", "HTTP/1.1 500 Oops")),
			[]int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got, probs := readAll(t, tt.data, Options{})
			if len(probs) != 0 {
				t.Errorf("problems %v", codes(probs))
			}
			var statuses []int
			for _, rec := range got {
				if rec.Fetch != nil {
					statuses = append(statuses, rec.Fetch.Status)
				}
			}
			if !slices.Equal(statuses, tt.want) {
				t.Errorf("request statuses = %v, want %v", statuses, tt.want)
			}
			// Records stay in file order.
			order := recordIDs(got)
			var want []string
			for _, line := range strings.Split(string(tt.data), "\n") {
				if v, ok := strings.CutPrefix(line, "WARC-Record-ID: "); ok {
					want = append(want, strings.TrimRight(v, "\r"))
				}
			}
			if !slices.Equal(order, want) {
				t.Errorf("order = %v, want %v", order, want)
			}
		})
	}
}

func TestFetchFields(t *testing.T) {
	tests := []struct {
		name, uri, block             string
		wantHost, wantTarget, scheme string
		wantMethod                   string
	}{
		{"host header wins, default port dropped", "http://a.example/x", "GET /x?y HTTP/1.1\r\nHost: B.Example:80\r\n\r\n", "b.example", "/x?y", "http", "GET"},
		{"non-default port kept", "https://a.example:8443/", "GET / HTTP/1.1\r\nHost: a.example:8443\r\n\r\n", "a.example:8443", "/", "https", "GET"},
		{"absolute-form target", "http://a.example/p", "GET http://a.example/p?q=1 HTTP/1.1\r\n\r\n", "a.example", "/p?q=1", "http", "GET"},
		{"no Host header", "https://A.example:443/z#frag", "HEAD /z HTTP/1.0\r\n\r\n", "a.example", "/z", "https", "HEAD"},
		{"h2 pseudo-header authority", "https://a.example/", "GET / HTTP/1.1\r\n:authority: c.example\r\n\r\n", "c.example", "/", "https", "GET"},
		{"empty block", "https://a.example/e?x", "", "a.example", "/e?x", "https", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got, _ := readAll(t, reqRec(1, tt.uri, tt.block).bytes(), Options{})
			f := got[0].Fetch
			if f.Host != tt.wantHost || f.Target != tt.wantTarget || f.Scheme != tt.scheme || f.Method != tt.wantMethod {
				t.Errorf("host %q target %q scheme %q method %q, want %q %q %q %q", f.Host, f.Target, f.Scheme, f.Method, tt.wantHost, tt.wantTarget, tt.scheme, tt.wantMethod)
			}
			if f.URL() != tt.scheme+"://"+tt.wantHost+tt.wantTarget {
				t.Errorf("URL() = %q", f.URL())
			}
		})
	}
}

func TestRevisitResolution(t *testing.T) {
	orig := respRec(1, "http://e.com/page", httpResponse("HTTP/1.1 200 OK", htmlBody, "Content-Type: text/html", "X-Robots-Tag: noarchive", "ETag: \"v1\""),
		"WARC-Payload-Digest: sha1:ABCDEF").bytes()
	byID := wrec{typ: "revisit", id: "<urn:uuid:rv-id>", uri: "http://e.com/page", ctype: "application/http; msgtype=response",
		extra: []string{"WARC-Refers-To: <urn:uuid:resp-1>", "WARC-Profile: http://netpreserve.org/warc/1.1/revisit/server-not-modified"},
		block: httpResponse("HTTP/1.1 304 Not Modified", "", "ETag: \"v1\"", "X-Robots-Tag: noindex")}.bytes()
	byDigest := wrec{typ: "revisit", id: "<urn:uuid:rv-digest>", uri: "http://e.com/page", ctype: "application/http; msgtype=response",
		extra: []string{"WARC-Payload-Digest: SHA1:abcdef", "WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"},
		block: httpResponse("HTTP/1.1 200 OK", "", "Content-Type: text/html", "X-Robots-Tag: none")}.bytes()
	bare := wrec{typ: "revisit", id: "<urn:uuid:rv-bare>", uri: "http://e.com/other",
		extra: []string{"WARC-Refers-To-Target-URI: <http://e.com/page>", "WARC-Refers-To-Date: 2024-04-01T00:00:00Z", "WARC-Payload-Digest: sha1:ABCDEF"}}.bytes()
	unknown := wrec{typ: "revisit", id: "<urn:uuid:rv-unknown>", uri: "http://e.com/page",
		extra: []string{"WARC-Refers-To: <urn:uuid:nope>"}}.bytes()

	_, got, _ := readAll(t, join(orig, byID, byDigest, bare, unknown), Options{Resolver: NewResolver(1 << 20)})
	if len(got) != 5 {
		t.Fatalf("got %d records", len(got))
	}
	rv := got[1].Capture
	if !rv.Resolved || rv.Status != 200 || string(rv.Body) != htmlBody || rv.ContentType != "text/html" ||
		!slices.Equal(rv.Header.Values("X-Robots-Tag"), []string{"noindex"}) || rv.Header.Get("Content-Type") != "text/html" {
		t.Errorf("304 revisit: resolved %v status %d type %q robots %q body %.20q", rv.Resolved, rv.Status, rv.ContentType, rv.Header.Values("X-Robots-Tag"), rv.Body)
	}
	if rv.RefersTo != "<urn:uuid:resp-1>" || !strings.HasSuffix(rv.Profile, "server-not-modified") {
		t.Errorf("RefersTo %q Profile %q", rv.RefersTo, rv.Profile)
	}
	rv = got[2].Capture
	if !rv.Resolved || rv.Status != 200 || string(rv.Body) != htmlBody || rv.Header.Get("X-Robots-Tag") != "none" {
		t.Errorf("digest revisit: resolved %v status %d robots %q", rv.Resolved, rv.Status, rv.Header.Get("X-Robots-Tag"))
	}
	rv = got[3].Capture
	if !rv.Resolved || rv.Status != 200 || rv.Header.Get("X-Robots-Tag") != "noarchive" || rv.RefersToURI != "http://e.com/page" || rv.RefersToDate.IsZero() {
		t.Errorf("bare revisit: resolved %v status %d robots %q refersToURI %q date %v", rv.Resolved, rv.Status, rv.Header.Get("X-Robots-Tag"), rv.RefersToURI, rv.RefersToDate)
	}
	if rv := got[4].Capture; rv.Resolved || rv.Status != 0 || rv.Body != nil {
		t.Errorf("unknown original: resolved %v status %d", rv.Resolved, rv.Status)
	}
	// Without a resolver nothing is resolved.
	_, got, _ = readAll(t, join(orig, byID), Options{})
	if got[1].Capture.Resolved || got[1].Capture.Status != 304 {
		t.Errorf("without resolver: resolved %v status %d", got[1].Capture.Resolved, got[1].Capture.Status)
	}
}

func TestResolverSharedAndBounded(t *testing.T) {
	res := NewResolver(3 * (entryOverhead + 200))
	var files [][]byte
	for i := range 6 {
		files = append(files, respRec(i, fmt.Sprintf("http://e.com/%d", i), httpResponse("HTTP/1.1 200 OK", strings.Repeat("x", 100), "Content-Type: text/html")).bytes())
	}
	// File A remembers six captures; only the newest ones fit.
	readAll(t, join(files...), Options{Resolver: res})
	// File B revisits all of them.
	var revisits [][]byte
	for i := range 6 {
		revisits = append(revisits, wrec{typ: "revisit", id: fmt.Sprintf("<urn:uuid:rv-%d>", i), uri: fmt.Sprintf("http://e.com/%d", i),
			extra: []string{fmt.Sprintf("WARC-Refers-To: <urn:uuid:resp-%d>", i)}}.bytes())
	}
	_, got, _ := readAll(t, join(revisits...), Options{Resolver: res})
	var resolved []bool
	for _, r := range got {
		resolved = append(resolved, r.Capture.Resolved)
	}
	if want := []bool{false, false, false, true, true, true}; !slices.Equal(resolved, want) {
		t.Errorf("resolved = %v, want %v", resolved, want)
	}
	if res.used > res.maxBytes {
		t.Errorf("resolver uses %d bytes, budget %d", res.used, res.maxBytes)
	}
}

func arcRecord(header string, content string) []byte {
	return []byte(header + "\n" + content + "\n")
}

func TestARC(t *testing.T) {
	descV1 := "1 0 Test Archive\nURL IP-address Archive-date Content-type Archive-length\n"
	descV2 := "2 0 Test Archive\nURL IP-address Archive-date Content-type Result-code Checksum Location Offset Filename Archive-length\n"
	page := httpResponse("HTTP/1.0 200 OK", htmlBody, "Content-Type: text/html", "X-Robots-Tag: noindex")
	robots := httpResponse("HTTP/1.0 200 OK", "User-agent: *\nDisallow: /private\n", "Content-Type: text/plain")
	v1 := [][]byte{
		arcRecord(fmt.Sprintf("filedesc://test.arc 0.0.0.0 19961104142103 text/plain %d", len(descV1)), descV1),
		arcRecord(fmt.Sprintf("http://www.example.com:80/index.html 127.10.100.2 19961104142103 text/html %d", len(page)), page),
		arcRecord(fmt.Sprintf("http://www.example.com/robots.txt 127.10.100.2 19961104142104 text/plain %d", len(robots)), robots),
		arcRecord("dns:www.example.com 127.0.0.1 19961104142105 text/dns 13", "127.10.100.2\n"),
	}
	v2 := [][]byte{
		arcRecord(fmt.Sprintf("filedesc://test2.arc 0.0.0.0 20040101000000 text/plain 200 - - 0 test2.arc %d", len(descV2)), descV2),
		arcRecord(fmt.Sprintf("http://www.example.com/index.html 10.0.0.1 20040101000001 text/html 200 SHA1XYZ - 0 test2.arc %d", len(page)), page),
		arcRecord(fmt.Sprintf("http://www.example.com/robots.txt 10.0.0.1 20040101000002 text/plain 200 SHA1XYZ - 0 test2.arc %d", len(robots)), robots),
		arcRecord("dns:www.example.com 127.0.0.1 20040101000003 text/dns 200 - - 0 test2.arc 13", "127.10.100.2\n"),
	}
	tests := []struct {
		name    string
		parts   [][]byte
		gz      bool
		version string
	}{
		{"v1 plain", v1, false, "ARC/1"},
		{"v1 gzip", v1, true, "ARC/1"},
		{"v2 plain", v2, false, "ARC/2"},
		{"v2 gzip", v2, true, "ARC/2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts := tt.parts
			if tt.gz {
				parts = nil
				for _, p := range tt.parts {
					parts = append(parts, gzipMember(p))
				}
			}
			r, got, probs := readAll(t, join(parts...), Options{})
			if r.Format() != "arc" || len(probs) != 0 {
				t.Errorf("format %q problems %v", r.Format(), codes(probs))
			}
			if len(got) != 4 {
				t.Fatalf("got %d records, want 4", len(got))
			}
			var at int64
			for i, rec := range got {
				if rec.Version != tt.version || rec.Source.Offset != at || rec.Source.Length != int64(len(parts[i])) {
					t.Errorf("record %d: version %q Source %+v, want offset %d length %d", i, rec.Version, rec.Source, at, len(parts[i]))
				}
				at += int64(len(parts[i]))
			}
			if got[0].Type != "warcinfo" || got[0].Capture != nil {
				t.Errorf("filedesc record: type %q", got[0].Type)
			}
			c := got[1].Capture
			if got[1].Type != "response" || c.Status != 200 || c.ContentType != "text/html" || c.Header.Get("X-Robots-Tag") != "noindex" || string(c.Body) != htmlBody {
				t.Errorf("page: type %q status %d ct %q body %.20q", got[1].Type, c.Status, c.ContentType, c.Body)
			}
			if c.Time.Year() < 1996 || !strings.HasPrefix(c.URL, "http://www.example.com") {
				t.Errorf("page: time %v URL %q", c.Time, c.URL)
			}
			if c := got[2].Capture; !bytes.Contains(c.Body, []byte("Disallow: /private")) {
				t.Errorf("robots body %q", c.Body)
			}
			if c := got[3].Capture; c.Status != 0 || c.ContentType != "text/dns" {
				t.Errorf("dns record: status %d ct %q", c.Status, c.ContentType)
			}
		})
	}
	t.Run("bad header line skipped", func(t *testing.T) {
		data := join(v1[0], []byte("this is not an arc header\nnor this\n"), v1[1])
		_, got, probs := readAll(t, data, Options{})
		if len(got) != 2 || !slices.Equal(codes(probs), []problem.Code{CodeARCHeader}) {
			t.Errorf("got %d records, problems %v", len(got), codes(probs))
		}
	})
}

// TestResolverConcurrent shares one Resolver between readers running in
// parallel (run with -race).
func TestResolverConcurrent(t *testing.T) {
	res := NewResolver(1 << 20)
	var files [][]byte
	for f := range 4 {
		var parts [][]byte
		for i := range 20 {
			n := f*100 + i
			parts = append(parts, respRec(n, fmt.Sprintf("http://e.com/%d", n), httpResponse("HTTP/1.1 200 OK", "x", "Content-Type: text/html")).bytes(),
				wrec{typ: "revisit", id: fmt.Sprintf("<urn:uuid:rv-%d>", n), uri: fmt.Sprintf("http://e.com/%d", n),
					extra: []string{fmt.Sprintf("WARC-Refers-To: <urn:uuid:resp-%d>", n)}}.bytes())
		}
		if f%2 == 1 {
			// Gzip members read again from their origin
			// (Options.Origin): ReadAt from other readers' goroutines.
			files = append(files, gzipEach(parts...))
			continue
		}
		files = append(files, join(parts...))
	}
	done := make(chan int)
	for i, data := range files {
		opts := Options{Resolver: res}
		if i%2 == 1 {
			opts.Origin = bytes.NewReader(data)
		}
		go func() {
			r, err := NewReader(bytes.NewReader(data), "t.warc", opts)
			if err != nil {
				done <- -1
				return
			}
			recs, _, _ := drain(r)
			n := 0
			for _, rec := range recs {
				if rec.Capture.Resolved {
					n++
				}
			}
			done <- n
		}()
	}
	for range files {
		if n := <-done; n != 20 {
			t.Errorf("resolved %d revisits, want 20", n)
		}
	}
}

// TestResolverPooledBodies remembers more large bodies than the budget
// holds: evicted bodies are recycled for later copies, and a body handed
// to a resolved revisit is never overwritten by that recycling.
func TestResolverPooledBodies(t *testing.T) {
	const n = 40 << 10
	res := NewResolver(4 * (n + entryOverhead + 64))
	body := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, n-i) }
	id := func(i int) string { return fmt.Sprintf("urn:uuid:%d", i) }
	resolve := func(i int) *event.Capture {
		c := &event.Capture{RecordType: "revisit", RefersTo: "<" + id(i) + ">"}
		res.Resolve(c)
		return c
	}
	shared := map[int]*event.Capture{}
	buffers := map[*byte]bool{} // backing arrays of remembered bodies
	for i := range 40 {
		res.Remember(&event.Capture{RecordType: "response", RecordID: "<" + id(i) + ">", Status: 200, Body: body(i)})
		// The newest captures keep their own bytes, whatever buffer
		// they were copied into (looked at without Resolve, which
		// would keep their buffers out of the pool).
		for j := max(0, i-2); j <= i; j++ {
			if e := res.entryByID(id(j)); e == nil || !bytes.Equal(e.body, body(j)) {
				t.Fatalf("after %d: capture %d not remembered with its body", i, j)
			}
		}
		buffers[&res.entryByID(id(i)).body[0]] = true
		if i%10 == 0 {
			c := resolve(i)
			if !c.Resolved || !bytes.Equal(c.Body, body(i)) || cap(c.Body) != len(c.Body) {
				t.Fatalf("revisit of %d: resolved %v, %d bytes (cap %d)", i, c.Resolved, len(c.Body), cap(c.Body))
			}
			shared[i] = c
		}
	}
	for i, c := range shared {
		if !bytes.Equal(c.Body, body(i)) {
			t.Errorf("body of the revisit of %d was overwritten after its entry was evicted", i)
		}
	}
	if c := resolve(0); c.Resolved {
		t.Errorf("capture 0 still resolves after 39 others")
	}
	if len(buffers) > 20 {
		t.Errorf("40 bodies remembered in %d buffers: evicted ones are not reused", len(buffers))
	}
	if res.poolBytes > max(res.maxBytes/8, n+poolStep) {
		t.Errorf("pool holds %d bytes, more than an eighth of the budget %d", res.poolBytes, res.maxBytes)
	}
}

// TestResolverLentBuffers reads large pages whose bodies the resolver
// keeps in the buffers they were read into, with a budget of about one
// page: a request read ahead of its response makes the reader parse (and
// the resolver remember, and evict) pages before the caller sees them.
// Every page must reach the caller with its own bytes, and buffers must
// be reused.
func TestResolverLentBuffers(t *testing.T) {
	page := func(n int) string {
		return strings.Repeat(fmt.Sprintf("<p>page %d</p>", n), 2000)[:17<<10+256*(n%16)]
	}
	resp := func(n int) []byte {
		return respRec(n, fmt.Sprintf("http://e.com/%d", n), httpResponse("HTTP/1.1 200 OK", page(n), "Content-Type: text/html")).bytes()
	}
	var parts [][]byte
	for g := range 8 {
		a, b, c := 3*g, 3*g+1, 3*g+2
		// The request of a comes first; b and c are read before a.
		parts = append(parts, reqRec(a, fmt.Sprintf("http://e.com/%d", a), "GET / HTTP/1.1\r\nHost: e.com\r\n\r\n",
			fmt.Sprintf("WARC-Concurrent-To: <urn:uuid:resp-%d>", a)).bytes(), resp(b), resp(c), resp(a))
	}
	// A revisit of the last page, still remembered.
	parts = append(parts, wrec{typ: "revisit", id: "<urn:uuid:rv>", uri: "http://e.com/21",
		extra: []string{"WARC-Refers-To: <urn:uuid:resp-21>"}}.bytes())
	res := NewResolver(int64(len(page(15))) * 3 / 2)
	r, err := NewReader(bytes.NewReader(join(parts...)), "t.warc", Options{Resolver: res})
	if err != nil {
		t.Fatal(err)
	}
	buffers := map[*byte]bool{}
	pages, resolved := 0, 0
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		c := rec.Capture
		if c == nil {
			continue
		}
		var n int
		if _, err := fmt.Sscanf(c.URL, "http://e.com/%d", &n); err != nil {
			t.Fatalf("URL %q", c.URL)
		}
		if string(c.Body) != page(n) {
			t.Errorf("%s %s: body of %d bytes %.30q..., want page %d", c.RecordType, c.RecordID, len(c.Body), c.Body, n)
		}
		if c.RecordType == "revisit" {
			if c.Resolved {
				resolved++
			}
			continue
		}
		pages++
		buffers[&c.Body[0]] = true
	}
	if pages != 24 || resolved != 1 {
		t.Errorf("%d pages, %d revisits resolved; want 24 and 1", pages, resolved)
	}
	if len(buffers) > 12 {
		t.Errorf("24 pages read into %d buffers: lent buffers are not reused", len(buffers))
	}
}

// entryByID returns the entry remembered under id, indexing r first.
func (r *Resolver) entryByID(id string) *entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.index()
	return r.byID[id]
}

// TestResolverIndexLater holds a Resolver indexed at its first revisit
// to one that indexed every capture as it was remembered: captures with
// repeated IDs and digests, a budget that evicts, revisits by ID and by
// digest after every 15.
func TestResolverIndexLater(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		lazy, eager := NewResolver(8192), NewResolver(8192)
		eager.mu.Lock()
		eager.index()
		eager.mu.Unlock()
		for i := range 60 {
			c := event.Capture{RecordType: "response", RecordID: fmt.Sprintf("<urn:%d>", rng.IntN(8)), URL: "http://e.com/",
				PayloadDigest: fmt.Sprintf("sha1:%d", rng.IntN(8)), Status: 200 + i, Body: bytes.Repeat([]byte{'x'}, rng.IntN(300))}
			if rng.IntN(4) == 0 {
				c.PayloadDigest = ""
			}
			lazy.Remember(&c)
			d := c
			eager.Remember(&d)
			if i%15 != 14 {
				continue
			}
			rv := event.Capture{RecordType: "revisit", URL: "http://e.com/", RefersTo: fmt.Sprintf("<urn:%d>", rng.IntN(10)), PayloadDigest: fmt.Sprintf("sha1:%d", rng.IntN(10))}
			if rng.IntN(2) == 0 {
				rv.RefersTo = ""
			}
			rw := rv
			ok1, ok2 := lazy.Resolve(&rv), eager.Resolve(&rw)
			if ok1 != ok2 || rv.Status != rw.Status || !bytes.Equal(rv.Body, rw.Body) {
				t.Fatalf("round %d, capture %d: indexed later resolved %v (status %d), indexed at once %v (status %d)", round, i, ok1, rv.Status, ok2, rw.Status)
			}
		}
	}
}
