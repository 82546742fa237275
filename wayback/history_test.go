package wayback

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/netfetch"
	"github.com/repaudit/repaudit/warc"
)

// fakeGetter answers from a table keyed by URL and records the requests.
type fakeGetter struct {
	answers map[string]*netfetch.Response
	errs    map[string]error
	got     []string
}

func (f *fakeGetter) Get(_ context.Context, u, _ string) (*netfetch.Response, error) {
	f.got = append(f.got, u)
	if err := f.errs[u]; err != nil {
		return nil, err
	}
	if r := f.answers[u]; r != nil {
		return r, nil
	}
	return &netfetch.Response{Status: 404, StatusLine: "404 Not Found", Refused: "status 404 Not Found"}, nil
}

const testBase = "https://wayback.test"

func newTestHistory(cdx, replay *fakeGetter, delays *[]time.Duration) *History {
	return &History{
		Base:   testBase,
		Site:   &url.URL{Scheme: "https", Host: "example.com"},
		CDX:    cdx,
		Replay: replay,
		Delay:  time.Second,
		Sleep: func(_ context.Context, d time.Duration) error {
			*delays = append(*delays, d)
			return nil
		},
	}
}

func TestHistoryList(t *testing.T) {
	h := newTestHistory(&fakeGetter{}, &fakeGetter{}, new([]time.Duration))
	q := h.Query().At(testBase)
	h.CDX = &fakeGetter{answers: map[string]*netfetch.Response{q: {Status: 200, Body: []byte(`[["timestamp","original","statuscode","digest"],
["20200101000000","https://example.com/robots.txt","200","A"],
["20200102000000","https://EXAMPLE.com/robots.txt","200","A"],
["20200103000000","https://www.example.com/robots.txt","200","B"],
["20200104000000","https://www.example.com/robots.txt","200","B"],
["2020","https://example.com/robots.txt","200","C"],
["20200105000000","https://example.com/robots.txt","404","D"]]`)}}}
	l, err := h.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if l.QueryURL != q {
		t.Errorf("QueryURL = %q, want %q", l.QueryURL, q)
	}
	if l.Others != "www.example.com: 2" {
		t.Errorf("Others = %q, want %q", l.Others, "www.example.com: 2")
	}
	if len(l.Notes) != 1 || l.Repeats != 1 || l.Distinct != 2 || len(l.Keep) != 2 {
		t.Errorf("got notes %q, repeats %d, distinct %d, keep %d; want 1 note, 1, 2, 2", l.Notes, l.Repeats, l.Distinct, len(l.Keep))
	}
	if got, want := h.Target(), "https://example.com/robots.txt"; got != want {
		t.Errorf("Target = %q, want %q", got, want)
	}
}

func TestHistoryListErrors(t *testing.T) {
	refused := &fakeGetter{}
	netErr := &fakeGetter{errs: map[string]error{}}
	notCDX := &fakeGetter{answers: map[string]*netfetch.Response{}}
	h := newTestHistory(nil, nil, new([]time.Duration))
	q := h.Query().At(testBase)
	netErr.errs[q] = netfetch.ErrNonPublicAddress
	notCDX.answers[q] = &netfetch.Response{Status: 200, Body: []byte("<html>")}
	for _, tc := range []struct {
		name string
		cdx  *fakeGetter
		want error
	}{
		{"refused", refused, nil},
		{"network", netErr, netfetch.ErrNonPublicAddress},
		{"not CDX", notCDX, ErrNotCDX},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.CDX = tc.cdx
			_, err := h.List(context.Background())
			var fe *FetchError
			if !errors.As(err, &fe) || fe.URL != q {
				t.Fatalf("err = %v, want a *FetchError for %s", err, q)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestHistoryExchange(t *testing.T) {
	at := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	capture := func(ts string, status int) Capture {
		return Capture{Timestamp: ts, Time: at, Original: "https://example.com/robots.txt", Status: status}
	}
	raw := func(ts string) string { return RawURL(testBase, ts, "https://example.com/robots.txt") }
	replay := &fakeGetter{
		answers: map[string]*netfetch.Response{
			raw("20200101000001"): {Status: 200, ContentType: "text/plain", Body: []byte("User-agent: *\nDisallow: /\n")},
			raw("20200101000002"): {Status: 302, StatusLine: "302 Found", Refused: "redirect",
				Header: http.Header{"Location": {testBase + "/web/20200101000002id_/https://example.com/new.txt"}}},
			raw("20200101000003"): {Status: 200, Truncated: "length", Refused: "body cut"},
			raw("20200101000004"): {Status: 200, StatusLine: "200 OK"}, // a 3xx capture replayed as 200
		},
		errs: map[string]error{raw("20200101000005"): netfetch.ErrNonPublicAddress},
	}
	for _, tc := range []struct {
		c        Capture
		head     string // the response head wanted; "" for an error
		note     string
		wantErr  error
		fetchErr bool
	}{
		{c: capture("20200101000001", 200), head: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 26\r\n\r\n", note: "status 200, 26 bytes recorded"},
		{c: capture("20200101000002", 301), head: "HTTP/1.1 301 Moved Permanently\r\nLocation: https://example.com/new.txt\r\n\r\n", note: "status 301 to https://example.com/new.txt recorded"},
		{c: capture("20200101000006", 404), head: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", note: "status 404 recorded (body not needed)"},
		{c: capture("20200101000007", 503), head: "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n", note: "status 503 recorded (body not needed)"},
		{c: capture("20200101000003", 200), wantErr: ErrTooLarge, fetchErr: true},
		{c: capture("20200101000005", 200), wantErr: netfetch.ErrNonPublicAddress, fetchErr: true},
		{c: capture("20200101000004", 301)},
		{c: capture("20200101000008", 0)},
	} {
		t.Run(tc.c.Timestamp, func(t *testing.T) {
			h := newTestHistory(nil, replay, new([]time.Duration))
			x, note, err := h.Exchange(context.Background(), tc.c)
			if tc.head == "" {
				var fe *FetchError
				if err == nil || errors.As(err, &fe) != tc.fetchErr || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) {
					t.Fatalf("err = %v, want %v (FetchError %v)", err, tc.wantErr, tc.fetchErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(x.ResponseHead); got != tc.head {
				t.Errorf("head = %q, want %q", got, tc.head)
			}
			if note != tc.note {
				t.Errorf("note = %q, want %q", note, tc.note)
			}
			if x.URL != "https://example.com/robots.txt" || !x.Time.Equal(at) || x.Extra.Get("WARC-Source-URI") != raw(tc.c.Timestamp) {
				t.Errorf("exchange %s at %v from %q", x.URL, x.Time, x.Extra.Get("WARC-Source-URI"))
			}
		})
	}
}

func TestHistoryWrite(t *testing.T) {
	var delays []time.Duration
	ok := RawURL(testBase, "20200101000000", "https://example.com/robots.txt")
	replay := &fakeGetter{answers: map[string]*netfetch.Response{ok: {Status: 200, Body: []byte("x")}}}
	h := newTestHistory(nil, replay, &delays)
	h.requests = 1 // as after List
	caps := []Capture{
		{Timestamp: "20200101000000", Original: "https://example.com/robots.txt", Status: 200},
		{Timestamp: "20200102000000", Original: "https://example.com/robots.txt", Status: 200}, // 404 from the fake
		{Timestamp: "20200103000000", Original: "https://example.com/robots.txt", Status: 410},
	}
	var buf bytes.Buffer
	var results []string
	written, failed, err := h.Write(context.Background(), warc.NewWriter(&buf, warc.WriterOptions{}), caps, func(r Result) {
		if r.Err != nil {
			results = append(results, "error")
			return
		}
		results = append(results, r.Note)
	})
	if err != nil || written != 2 || failed != 1 {
		t.Fatalf("written %d, failed %d, err %v; want 2, 1, nil", written, failed, err)
	}
	if got, want := strings.Join(results, "|"), "status 200, 1 bytes recorded|error|status 410 recorded (body not needed)"; got != want {
		t.Errorf("results %q, want %q", got, want)
	}
	if len(delays) != 2 || delays[0] != time.Second {
		t.Errorf("delays %v, want two of 1s (the 410 needs no request)", delays)
	}
	if buf.Len() == 0 {
		t.Error("nothing written")
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := h.Write(ctx, warc.NewWriter(&buf, warc.WriterOptions{}), caps, func(Result) {}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v, want context.Canceled", err)
	}
}
