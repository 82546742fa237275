package netfetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func testServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.Header.Get("Accept-Encoding") != "identity" {
			http.Error(w, "bad request", 400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"ua":%q,"accept":%q}`, r.UserAgent(), r.Header.Get("Accept"))
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusFound) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, strings.Repeat("a", 2048)) })
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		io.WriteString(w, "not really gzip")
	})
	mux.HandleFunc("/chunked", func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		io.WriteString(w, "chunk")
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	// The slow body ignores the request's context: the client's time
	// limit alone must end the read (under load, a handler that returned
	// on cancellation could finish the body before the client noticed).
	stop := make(chan struct{})
	mux.HandleFunc("/slowbody", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "start")
		w.(http.Flusher).Flush()
		select {
		case <-stop:
		case <-time.After(5 * time.Second):
		}
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // runs first: lets the handler return
	return srv
}

func testClient(srv *httptest.Server, o Options) *Client {
	o.TLSConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig
	o.AllowPrivate = true
	return New(o)
}

func TestGet(t *testing.T) {
	srv := testServer(t)
	c := testClient(srv, Options{UserAgent: "test/1", MaxBytes: 1024, Timeout: 300 * time.Millisecond})
	tests := []struct {
		path, refused, truncated string
		status                   int
	}{
		{"/ok", "", "", 200},
		{"/chunked", "", "", 200},
		{"/redirect", `status 302 Found: redirects are not followed (Location: "/ok")`, "", 302},
		{"/nothing", "status 404 Not Found: only 200 is accepted", "", 404},
		{"/big", "body larger than the 1024-byte limit", "length", 200},
		{"/gzip", `content-encoding "gzip" was not asked for`, "", 200},
		{"/slowbody", "timed out after 300ms reading the body", "time", 200},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r, err := c.Get(context.Background(), srv.URL+tt.path, "application/json")
			if err != nil {
				t.Fatal(err)
			}
			if r.Refused != tt.refused || r.Truncated != tt.truncated || r.Status != tt.status || r.OK() != (tt.refused == "") {
				t.Errorf("got status %d refused %q truncated %q; want %d %q %q", r.Status, r.Refused, r.Truncated, tt.status, tt.refused, tt.truncated)
			}
			if r.RemoteIP != "127.0.0.1" {
				t.Errorf("RemoteIP = %q", r.RemoteIP)
			}
			if !strings.HasPrefix(string(r.Request), "GET "+tt.path+" HTTP/1.1\r\n") || !strings.Contains(string(r.Request), "User-Agent: test/1\r\n") {
				t.Errorf("request as sent: %q", r.Request)
			}
			if !strings.HasPrefix(string(r.ResponseHead), "HTTP/1.1 ") || !strings.HasSuffix(string(r.ResponseHead), "\r\n\r\n") ||
				strings.Contains(string(r.ResponseHead), "Transfer-Encoding") {
				t.Errorf("response head: %q", r.ResponseHead)
			}
			if tt.path == "/ok" && string(r.Body) != `{"ua":"test/1","accept":"application/json"}` {
				t.Errorf("body %q", r.Body)
			}
			if tt.path == "/big" && len(r.Body) != 1024 {
				t.Errorf("cut body has %d bytes, want 1024", len(r.Body))
			}
		})
	}
}

func TestGetRefusals(t *testing.T) {
	srv := testServer(t)
	tests := []struct {
		name string
		c    *Client
		url  string
		want error
		text string
	}{
		{"private address", New(Options{}), srv.URL + "/ok", ErrNonPublicAddress, "refusing non-public address: 127.0.0.1"},
		{"http", testClient(srv, Options{}), strings.Replace(srv.URL, "https:", "http:", 1) + "/ok", ErrNotHTTPS, ""},
		{"userinfo", testClient(srv, Options{}), strings.Replace(srv.URL, "https://", "https://u:p@", 1) + "/ok", ErrBadURL, ""},
		{"no host", testClient(srv, Options{}), "https:///ok", ErrBadURL, ""},
		{"timeout", testClient(srv, Options{Timeout: 200 * time.Millisecond}), srv.URL + "/slow", ErrTimeout, "timed out after 200ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := tt.c.Get(context.Background(), tt.url, "")
			if !errors.Is(err, tt.want) || r != nil {
				t.Fatalf("Get = %v, %v; want error %v", r, err, tt.want)
			}
			if tt.text != "" && err.Error() != tt.text {
				t.Errorf("error text %q, want %q", err.Error(), tt.text)
			}
		})
	}
}

func TestGetCancelled(t *testing.T) {
	srv := testServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := testClient(srv, Options{}).Get(ctx, srv.URL+"/ok", ""); err == nil {
		t.Error("Get with a cancelled context succeeded")
	}
}

func TestIsPublicAddr(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"93.184.215.14", true},
		{"2606:4700::1111", true},
		{"127.0.0.1", false},
		{"::1", false},
		{"10.1.2.3", false},
		{"172.16.0.1", false},
		{"192.168.1.1", false},
		{"169.254.169.254", false},
		{"fe80::1", false},
		{"fc00::1", false},
		{"0.0.0.0", false},
		{"::", false},
		{"100.64.0.1", false},
		{"192.0.2.1", false},
		{"198.18.0.1", false},
		{"224.0.0.1", false},
		{"255.255.255.255", false},
		{"::ffff:127.0.0.1", false},
		{"::ffff:8.8.8.8", true},
		{"64:ff9b::a00:1", false}, // NAT64 of 10.0.0.1
		{"64:ff9b::808:808", true},
		{"2002:7f00:1::", false}, // 6to4 of 127.0.0.1
		{"2001:db8::1", false},
	}
	for _, tt := range tests {
		if got := IsPublicAddr(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("IsPublicAddr(%s) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}
