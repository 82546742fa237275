package wayback

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/netfetch"
	"github.com/repaudit/repaudit/warc"
)

// Getter fetches one URL; *netfetch.Client is one.
type Getter interface {
	Get(ctx context.Context, rawURL, accept string) (*netfetch.Response, error)
}

// ErrTooLarge is the reason of a FetchError whose body was over the
// replay client's size limit.
var ErrTooLarge = errors.New("wayback: body over the size limit")

// FetchError is a request to the Wayback Machine that gave nothing
// usable: Err is the network error of netfetch (nothing received),
// ErrTooLarge, or the refusal of the response.
type FetchError struct {
	URL string // the CDX query or the raw replay URL
	Err error
}

func (e *FetchError) Error() string { return e.URL + ": " + e.Err.Error() }
func (e *FetchError) Unwrap() error { return e.Err }

// History gets the past robots.txt files of one site from the Wayback
// Machine: List asks the CDX server for the captures, Write fetches each
// one kept and writes it as a WARC response record (WARC 1.1 §6.3).
// Requests go one after another, Delay apart. A History is used once.
type History struct {
	Base     string   // Wayback base URL, e.g. https://web.archive.org
	Site     *url.URL // scheme and host (lower case, no default port)
	From, To string   // CDX from= and to= (1 to 14 digits, inclusive)
	Max      int      // at most Max captures are fetched (<= 0: no cap); see Select
	CDX      Getter   // for the CDX query (its answer may be long)
	Replay   Getter   // for each capture's raw replay
	Delay    time.Duration
	// Sleep waits d or until ctx is done; nil: a timer.
	Sleep func(ctx context.Context, d time.Duration) error

	requests int
}

// Query is the CDX query for the site's /robots.txt.
func (h *History) Query() Query {
	return Query{URL: h.Site.Host + "/robots.txt", From: h.From, To: h.To}
}

// Target is the URL every record names in WARC-Target-URI.
func (h *History) Target() string {
	return h.Site.Scheme + "://" + h.Site.Host + "/robots.txt"
}

// Listing is what List learnt from the CDX server.
type Listing struct {
	QueryURL string
	Notes    []string // ParseCDX's notes on rows it skipped
	// Others says how many captures of each other host (the CDX server
	// folds www.) were left out: "host: n, host: n" sorted by host.
	Others string
	// Distinct counts the captures of the site that do not repeat the
	// content and status of the one before.
	Distinct int
	Selection
}

// List asks the CDX server for the captures of the site's robots.txt
// and selects those to fetch. Its error is a *FetchError.
func (h *History) List(ctx context.Context) (Listing, error) {
	l := Listing{QueryURL: h.Query().At(h.Base)}
	h.requests++
	resp, err := h.CDX.Get(ctx, l.QueryURL, "application/json")
	if err != nil {
		return l, &FetchError{URL: l.QueryURL, Err: err}
	}
	if !resp.OK() {
		return l, &FetchError{URL: l.QueryURL, Err: errors.New(resp.Refused)}
	}
	caps, notes, err := ParseCDX(resp.Body)
	if err != nil {
		return l, &FetchError{URL: l.QueryURL, Err: err}
	}
	l.Notes = notes
	caps, l.Others = sameHost(caps, h.Site.Hostname())
	l.Selection = Select(caps, h.Max)
	l.Distinct = len(caps) - l.Repeats
	return l, nil
}

// Result is what became of one capture: Note says what was recorded, or
// Err why nothing was.
type Result struct {
	Capture Capture
	Note    string
	Err     error
}

// Write fetches the captures and writes each as a response record to w,
// calling report after each one. A capture that cannot be fetched is
// reported and skipped; the error ends the run (w failed, or ctx is
// done: "interrupted").
func (h *History) Write(ctx context.Context, w *warc.Writer, caps []Capture, report func(Result)) (written, failed int, err error) {
	for _, c := range caps {
		if err := ctx.Err(); err != nil {
			return written, failed, fmt.Errorf("interrupted: %w", err)
		}
		x, note, err := h.Exchange(ctx, c)
		if err != nil {
			if ctx.Err() != nil {
				return written, failed, fmt.Errorf("interrupted: %w", ctx.Err())
			}
			failed++
			report(Result{Capture: c, Err: err})
			continue
		}
		if err := w.WriteExchange(x); err != nil {
			return written, failed, err
		}
		written++
		report(Result{Capture: c, Note: note})
	}
	return written, failed, nil
}

// get sends one request for a replay, Delay after the last request.
func (h *History) get(ctx context.Context, u, accept string) (*netfetch.Response, error) {
	if h.requests > 0 {
		sleep := h.Sleep
		if sleep == nil {
			sleep = netfetch.Sleep
		}
		if err := sleep(ctx, h.Delay); err != nil {
			return nil, err
		}
	}
	h.requests++
	return h.Replay.Get(ctx, u, accept)
}

// Exchange turns one CDX row into a response record and a note on what
// it holds. A 2xx capture's body is fetched; a 3xx capture's replay is
// fetched for its Location; 4xx and 5xx captures need no body (RFC 9309
// §2.3.1.3 and §2.3.1.4 judge them by status alone). The error says why
// nothing can be written; a failed request is a *FetchError.
func (h *History) Exchange(ctx context.Context, c Capture) (*warc.Exchange, string, error) {
	raw := RawURL(h.Base, c.Timestamp, c.Original)
	x := &warc.Exchange{
		URL:   h.Target(),
		Time:  c.Time,
		Extra: event.Header{{Name: "WARC-Source-URI", Value: raw}},
	}
	var head bytes.Buffer
	status := c.Status
	switch {
	case status == 0:
		return nil, "", errors.New("the CDX row has no status (\"-\"); not a usable capture")
	case status >= 400:
		writeStatusLine(&head, status)
		head.WriteString("Content-Length: 0\r\n\r\n")
		x.ResponseHead = head.Bytes()
		return x, fmt.Sprintf("status %d recorded (body not needed)", status), nil
	}
	resp, err := h.get(ctx, raw, "text/plain, */*;q=0.5")
	if err != nil {
		return nil, "", &FetchError{URL: raw, Err: err}
	}
	if status >= 300 {
		writeStatusLine(&head, status)
		loc := resp.Header.Get("Location")
		orig, ok := OriginalURL(loc)
		if resp.Status < 300 || resp.Status >= 400 || !ok {
			return nil, "", fmt.Errorf("%s: the replay of a %d capture answered %s without a Wayback Location (%q)", raw, status, resp.StatusLine, loc)
		}
		head.WriteString("Location: " + orig + "\r\n\r\n")
		x.ResponseHead = head.Bytes()
		return x, fmt.Sprintf("status %d to %s recorded", status, orig), nil
	}
	if !resp.OK() {
		if resp.Truncated == "length" {
			return nil, "", &FetchError{URL: raw, Err: ErrTooLarge}
		}
		return nil, "", &FetchError{URL: raw, Err: errors.New(resp.Refused)}
	}
	writeStatusLine(&head, status)
	if ct := resp.ContentType; ct != "" {
		head.WriteString("Content-Type: " + ct + "\r\n")
	}
	head.WriteString("Content-Length: " + strconv.Itoa(len(resp.Body)) + "\r\n\r\n")
	x.ResponseHead, x.Body = head.Bytes(), resp.Body
	return x, fmt.Sprintf("status %d, %d bytes recorded", status, len(resp.Body)), nil
}

// writeStatusLine writes an HTTP/1.1 status line (RFC 9112 §4).
func writeStatusLine(b *bytes.Buffer, status int) {
	fmt.Fprintf(b, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
}

// sameHost keeps the captures whose original URL names host and says how
// many of each other host were left out.
func sameHost(caps []Capture, host string) ([]Capture, string) {
	var keep []Capture
	other := map[string]int{}
	for _, c := range caps {
		u, err := url.Parse(c.Original)
		if err == nil && strings.EqualFold(u.Hostname(), host) {
			keep = append(keep, c)
			continue
		}
		h := c.Original
		if err == nil {
			h = strings.ToLower(u.Hostname())
		}
		other[h]++
	}
	var parts []string
	for _, h := range slices.Sorted(maps.Keys(other)) {
		parts = append(parts, fmt.Sprintf("%s: %d", h, other[h]))
	}
	return keep, strings.Join(parts, ", ")
}
