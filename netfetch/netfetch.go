package netfetch

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Defaults and limits.
const (
	DefaultTimeout  = 10 * time.Second
	DefaultMaxBytes = 1 << 20
	// MaxHeaderBytes caps a response's status line and header.
	MaxHeaderBytes = 64 << 10
)

// Errors returned by Get when no response was received. They are wrapped
// with the URL or address concerned; test them with errors.Is.
var (
	ErrNonPublicAddress = errors.New("refusing non-public address")
	ErrNotHTTPS         = errors.New("not an https URL")
	ErrBadURL           = errors.New("not a usable URL")
	ErrTimeout          = errors.New("timed out")
)

// Options configures a Client. The zero value is usable: public https
// addresses only, DefaultTimeout, DefaultMaxBytes.
type Options struct {
	// Timeout limits each exchange, from connecting to the last body byte.
	Timeout time.Duration
	// MaxBytes caps each response body; a longer body is cut there and
	// the response marked Truncated "length".
	MaxBytes int64
	// AllowPrivate allows non-public addresses (see IsPublicAddr):
	// loopback test servers, intranet hosts.
	AllowPrivate bool
	// TLSConfig replaces the default TLS configuration (system roots,
	// TLS 1.2 or later); tests pass the trust roots of their server.
	TLSConfig *tls.Config
	// UserAgent is sent with every request.
	UserAgent string
}

// Client fetches documents under one policy: https only, GET only, no
// proxy, no redirects followed, no transparent decompression, the body
// capped at MaxBytes, each exchange limited to Timeout, and every address
// actually dialed (after DNS resolution, so DNS rebinding cannot get
// around it) checked to be public unless AllowPrivate. A Client is safe
// for concurrent use.
type Client struct {
	opts Options
	hc   *http.Client
}

// New returns a Client with the given options.
func New(o Options) *Client {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	dialer := &net.Dialer{
		Timeout: o.Timeout,
		Control: func(network, address string, _ syscall.RawConn) error {
			if o.AllowPrivate {
				return nil
			}
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: %s", ErrNonPublicAddress, address)
			}
			if !IsPublicAddr(ap.Addr()) {
				return fmt.Errorf("%w: %s", ErrNonPublicAddress, ap.Addr())
			}
			return nil
		},
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if o.TLSConfig != nil {
		tc = o.TLSConfig.Clone()
	}
	tr := &http.Transport{
		Proxy:                  nil, // a proxy would hide the address we must check
		DialContext:            dialer.DialContext,
		TLSClientConfig:        tc,
		TLSHandshakeTimeout:    o.Timeout,
		ResponseHeaderTimeout:  o.Timeout,
		MaxResponseHeaderBytes: MaxHeaderBytes,
		DisableCompression:     true,
		ForceAttemptHTTP2:      false,
		MaxIdleConnsPerHost:    2,
	}
	return &Client{opts: o, hc: &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Response is one exchange as it went over the wire, ready to be
// recorded: the request as sent, the status line and header as received,
// and the body (cut at MaxBytes).
type Response struct {
	URL          string
	Status       int    // HTTP status code
	StatusLine   string // e.g. "200 OK"
	Header       http.Header
	ContentType  string
	Body         []byte
	Request      []byte // request line and header as sent
	ResponseHead []byte // status line, header (without Transfer-Encoding: the body is de-chunked) and the empty line
	RemoteIP     string // server address; "" when unknown
	// Truncated is why Body is not the whole payload, as WARC-Truncated
	// says it (WARC 1.1 §5.13): "length" (over MaxBytes), "time" (the
	// time limit ran out while reading), "disconnect"; "" when whole.
	Truncated string
	// Refused says why the response cannot be used ("" when it can): a
	// cut body, a redirect (not followed), a status other than 200, or a
	// content coding that was not asked for.
	Refused string
}

// OK reports whether the response is a whole 200 with no refusal.
func (r *Response) OK() bool { return r.Refused == "" }

// Get fetches rawURL with an Accept header. It returns an error (and no
// Response) when nothing was received: a URL refused by policy
// (ErrNotHTTPS, ErrBadURL), a refused address (ErrNonPublicAddress), a
// time-out (ErrTimeout) or another network error. Otherwise it returns
// the Response, whatever its status; Response.Refused says whether it may
// be used. Cancelling ctx stops the exchange.
func (c *Client) Get(ctx context.Context, rawURL, accept string) (*Response, error) {
	u, err := url.Parse(rawURL)
	switch {
	case err != nil || u.Host == "":
		return nil, fmt.Errorf("%w: %q", ErrBadURL, rawURL)
	case u.Scheme != "https":
		return nil, fmt.Errorf("%w: %s", ErrNotHTTPS, rawURL)
	case u.User != nil:
		return nil, fmt.Errorf("%w: %s carries user information", ErrBadURL, rawURL)
	}

	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	var remote string
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if ap, err := netip.ParseAddrPort(info.Conn.RemoteAddr().String()); err == nil {
				remote = ap.Addr().Unmap().String()
			}
		},
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadURL, err)
	}
	if c.opts.UserAgent != "" {
		req.Header.Set("User-Agent", c.opts.UserAgent)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	req.Header.Set("Accept-Encoding", "identity")
	var reqBytes bytes.Buffer
	if err := req.Clone(context.Background()).Write(&reqBytes); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadURL, err)
	}

	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, c.describe(err)
	}
	defer resp.Body.Close()
	max := c.opts.MaxBytes
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, max+1))
	r := &Response{
		URL: rawURL, Status: resp.StatusCode, StatusLine: resp.Status, Header: resp.Header,
		ContentType: resp.Header.Get("Content-Type"), Request: reqBytes.Bytes(), RemoteIP: remote,
	}
	switch {
	case int64(len(body)) > max:
		body = body[:max]
		r.Truncated = "length"
		r.Refused = fmt.Sprintf("body larger than the %d-byte limit", max)
	case rerr != nil && (errors.Is(rerr, context.DeadlineExceeded) || isTimeout(rerr)):
		r.Truncated = "time"
		r.Refused = fmt.Sprintf("timed out after %s reading the body", c.opts.Timeout)
	case rerr != nil:
		r.Truncated = "disconnect"
		r.Refused = "body read: " + rerr.Error()
	}
	var head bytes.Buffer
	fmt.Fprintf(&head, "%s %s\r\n", resp.Proto, resp.Status)
	_ = resp.Header.Write(&head) // Transfer-Encoding is already removed: the body is de-chunked
	head.WriteString("\r\n")
	r.ResponseHead, r.Body = head.Bytes(), body
	if r.Refused != "" {
		return r, nil
	}
	switch ce := resp.Header.Get("Content-Encoding"); {
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		r.Refused = fmt.Sprintf("status %s: redirects are not followed (Location: %q)", resp.Status, resp.Header.Get("Location"))
	case resp.StatusCode != http.StatusOK:
		r.Refused = fmt.Sprintf("status %s: only 200 is accepted", resp.Status)
	case ce != "" && !strings.EqualFold(ce, "identity"):
		r.Refused = fmt.Sprintf("content-encoding %q was not asked for", ce)
	}
	return r, nil
}

// describe turns a transport error into one of the package's errors
// where one applies, keeping its text short.
func (c *Client) describe(err error) error {
	switch {
	case errors.Is(err, ErrNonPublicAddress):
		msg := err.Error()
		if i := strings.Index(msg, ErrNonPublicAddress.Error()); i >= 0 {
			msg = msg[i+len(ErrNonPublicAddress.Error()):]
		}
		return fmt.Errorf("%w%s", ErrNonPublicAddress, msg)
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Errorf("%w after %s", ErrTimeout, c.opts.Timeout)
	}
	return err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// nonPublic lists special-purpose ranges (IANA IPv4/IPv6 Special-Purpose
// Address Registries) that netip's predicates do not already cover.
var nonPublic = func() []netip.Prefix {
	var ps []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24",
		"198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4",
		"64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "3fff::/20", "5f00::/16", "fec0::/10",
	} {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	return ps
}()

var (
	nat64 = netip.MustParsePrefix("64:ff9b::/96")
	sixTo = netip.MustParsePrefix("2002::/16")
)

// IsPublicAddr reports whether a is a public unicast address: not
// private, loopback, link-local, multicast, unspecified, shared (CGNAT),
// documentation, benchmarking or reserved. IPv4 embedded in IPv4-mapped,
// NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses is checked too.
func IsPublicAddr(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	if !a.IsValid() || !a.IsGlobalUnicast() || a.IsPrivate() || a.IsLoopback() ||
		a.IsLinkLocalUnicast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			return IsPublicAddr(netip.AddrFrom4([4]byte(b[12:16])))
		case sixTo.Contains(a):
			return IsPublicAddr(netip.AddrFrom4([4]byte(b[2:6])))
		}
	}
	return true
}

// Sleep waits for d or until ctx is done, whichever comes first; it
// returns ctx's error when ctx ended the wait. The network commands wait
// with it between requests (a polite pause, a retry's backoff), so an
// interrupt does not sit out the pause.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
