package accesslog

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"unsafe"

	"github.com/repaudit/repaudit/event"
)

// TestZeroCopyFieldsOutliveBuffer keeps every fetch of a log several
// times the read buffer long, with distinct targets, agents, hosts and
// referers, escapes and X-Forwarded-For chains, and checks them only
// once the whole log has been read: a field still pointing into the
// read buffer would have been overwritten by then.
func TestZeroCopyFieldsOutliveBuffer(t *testing.T) {
	type want struct{ target, ua, host, ref, xff, method string }
	var log strings.Builder
	var wants []want
	for i := 0; log.Len() < 3*sampleBytes; i++ {
		w := want{
			target: fmt.Sprintf("/p/%d?q=%d", i, i*7),
			ua:     fmt.Sprintf("Bot-%d/1.0 (+https://bot%d.example/)", i%50, i%50),
			host:   fmt.Sprintf("host-%d.example", i%300),
			ref:    fmt.Sprintf("https://ref.example/%d", i%1000),
			method: []string{"GET", "HEAD", "POST"}[i%3],
		}
		ua, target := w.ua, w.target
		if i%17 == 0 { // an escaped quote: decoded into a new string
			ua, w.ua = w.ua+`\"x`, w.ua+`"x`
		}
		client := "10.0.0.1"
		if i%13 == 0 {
			client, w.xff = "10.0.0.2, 10.0.0.1", "10.0.0.2, 10.0.0.1"
		}
		if i%11 == 0 { // absolute-form target: the host comes from the line
			target = "http://other.example" + w.target
		}
		fmt.Fprintf(&log, "%s:443 %s - - [01/May/2024:12:%02d:%02d +0000] \"%s %s HTTP/1.1\" 200 %d \"%s\" \"%s\"\n",
			w.host, client, i/60%60, i%60, w.method, target, i, w.ref, ua)
		wants = append(wants, w)
	}
	r, err := NewReader(strings.NewReader(log.String()), "v.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Format() != VhostCombined || !r.zeroCopy {
		t.Fatalf("format %s, zero copy %v", r.Format(), r.zeroCopy)
	}
	var kept []event.Fetch
	for {
		f, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		c := *f
		c.Header = append(event.Header(nil), f.Header...)
		kept = append(kept, c)
	}
	if p := r.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	if len(kept) != len(wants) {
		t.Fatalf("%d fetches, want %d", len(kept), len(wants))
	}
	for i, f := range kept {
		w := wants[i]
		if f.Target != w.target || f.UserAgent != w.ua || f.Host != w.host || f.Referer != w.ref ||
			f.ForwardedFor != w.xff || f.Method != w.method || f.Scheme != "https" {
			t.Fatalf("fetch %d: %q %q %q %q %q %q, want %+v", i, f.Target, f.UserAgent, f.Host, f.Referer, f.ForwardedFor, f.Method, w)
		}
		if f.Header.Get("User-Agent") != w.ua || f.Header.Get("Referer") != w.ref {
			t.Fatalf("fetch %d: header %v", i, f.Header)
		}
	}
}

// TestInternShares checks that repeated values share one string and
// that the table stays bounded.
func TestInternShares(t *testing.T) {
	r := &Reader{}
	a := r.intern(string([]byte("Mozilla/5.0")))
	b := r.intern(string([]byte("Mozilla/5.0")))
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Fatal("equal values not shared")
	}
	for i := range 3 * maxInterned {
		r.intern(fmt.Sprint(i))
	}
	if len(r.interned) > maxInterned {
		t.Fatalf("intern table holds %d values (at most %d)", len(r.interned), maxInterned)
	}
	long := strings.Repeat("x", maxIntern+1)
	if r.intern(long) != long || r.interned[long] != "" {
		t.Fatal("a long value was kept in the table")
	}
}

// TestInternCaches: the caches in front of intern's map and of the vhost
// field's normalization give back the value of each line, for more
// values than they hold (colliding slots) and past the map's clearing.
func TestInternCaches(t *testing.T) {
	type want struct{ host, scheme, ua string }
	var log strings.Builder
	var wants []want
	ports := []string{"", ":80", ":443", ":8080"}
	for i := range 3 * maxInterned {
		raw := fmt.Sprintf("Host-%d.Example%s", i%700, ports[i%4])
		host, scheme := normHost(raw, "")
		ua := fmt.Sprintf("Bot-%d/1.0", i%(maxInterned+300))
		if i%5 == 0 {
			ua = "Mozilla/5.0 (compatible; Same/1.0)"
		}
		fmt.Fprintf(&log, "%s 10.0.0.1 - - [01/May/2024:12:00:00 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"%s\"\n", raw, ua)
		wants = append(wants, want{host, scheme, ua})
	}
	_, fetches, _ := readAll(t, log.String(), Options{Format: VhostCombined})
	if len(fetches) != len(wants) {
		t.Fatalf("%d fetches, want %d", len(fetches), len(wants))
	}
	for i, f := range fetches {
		if w := wants[i]; f.Host != w.host || f.Scheme != w.scheme || f.UserAgent != w.ua || f.Header.Get("User-Agent") != w.ua {
			t.Fatalf("line %d: host %q scheme %q agent %q, want %+v", i+1, f.Host, f.Scheme, f.UserAgent, w)
		}
	}
}
