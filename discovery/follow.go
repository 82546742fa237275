package discovery

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/netfetch"
	"github.com/repaudit/repaudit/warc"
)

// DirectoryPath is the key directory location on a signature agent's
// origin (draft-ietf-webbotauth-httpsig-protocol-01 §8.1).
const DirectoryPath = "/.well-known/http-message-signatures-directory"

// follow fetches the key material and IP list a card names (registry-04
// §4.1 step 3, §3.2.10). ok is false when anything was refused.
func (r *Resolver) follow(ctx context.Context, c *identity.Card, out *Entry) (ok bool, err error) {
	ok = true
	keysURL, what := c.JWKSURI, "jwks_uri"
	if keysURL == "" && c.JWKS == nil {
		if o := originURL(c.ClientID); o != "" {
			keysURL, what = o+DirectoryPath, "key directory"
		}
	}
	switch {
	case keysURL != "":
		f, err := r.get(ctx, keysURL, acceptDirectory)
		if err != nil {
			return false, err
		}
		s := Step{Kind: StepKeys, What: what, URL: keysURL, Got: f.got(), Refused: f.refused, NetErr: f.netErr, Again: f.again}
		if s.Got {
			keys, kp, kerr := identity.ParseJWKS(f.body, keysURL)
			if kerr != nil {
				s.Refused = kerr.Error()
			} else {
				s.Count = len(keys)
				if !f.again {
					s.Notes = kp
				}
			}
		}
		if s.Refused != "" || s.NetErr != nil {
			ok = false
		}
		out.Steps = append(out.Steps, s)
	case c.JWKS != nil:
		out.Steps = append(out.Steps, Step{Kind: StepInlineJWKS, Count: len(c.JWKS)})
	default:
		out.Steps = append(out.Steps, Step{Kind: StepNoKeys})
	}
	if c.IPsURI == "" {
		return ok, nil
	}
	f, err := r.get(ctx, c.IPsURI, acceptIPList)
	if err != nil {
		return false, err
	}
	s := Step{Kind: StepIPs, URL: c.IPsURI, Got: f.got(), Refused: f.refused, NetErr: f.netErr, Again: f.again}
	if s.Got {
		l, lp, lerr := identity.ParseIPList(f.body, c.IPsURI)
		if lerr != nil {
			s.Refused = lerr.Error()
		} else {
			s.Count, s.Created, s.Notes = len(l.Prefixes), l.CreationTime, lp
		}
	}
	out.Steps = append(out.Steps, s)
	if s.Refused != "" || s.NetErr != nil {
		return false, nil
	}
	return ok, nil
}

// fetched is the outcome of one GET.
type fetched struct {
	url         string
	status      int
	contentType string
	body        []byte
	// refused is why the document cannot be used ("" when it can): a
	// policy refusal, a non-200 status, a cut body; netErr is set
	// instead when nothing was received.
	refused string
	netErr  error
	// again is set when the URL was already fetched earlier in the run.
	again bool
}

func (f *fetched) got() bool { return f.refused == "" && f.netErr == nil }

// get fetches rawURL once per run and records the exchange. The error is
// only for the WARC; refusals are in the result.
func (r *Resolver) get(ctx context.Context, rawURL, accept string) (*fetched, error) {
	if f, ok := r.seen[rawURL]; ok {
		f.again = true
		return f, nil
	}
	f := &fetched{url: rawURL}
	r.seen[rawURL] = f
	resp, err := r.client.Get(ctx, rawURL, accept)
	if err != nil {
		f.netErr = err
		if errors.Is(err, netfetch.ErrNotHTTPS) {
			f.netErr, f.refused = nil, "not an https URL (registry-03: the URI scheme MUST be https)"
		}
		return f, nil
	}
	x := &warc.Exchange{
		URL: rawURL, Time: r.now(), IP: resp.RemoteIP, Request: resp.Request,
		ResponseHead: resp.ResponseHead, Body: resp.Body, Truncated: resp.Truncated,
	}
	if err := r.ww.WriteExchange(x); err != nil {
		return nil, err
	}
	f.status, f.contentType, f.body = resp.Status, resp.ContentType, resp.Body
	f.refused = resp.Refused
	if resp.Truncated == "length" {
		f.refused = fmt.Sprintf("body larger than --max-bytes %d", r.maxBytes)
	}
	return f, nil
}

// originURL returns "https://host[:port]" of an https URL, or "".
func originURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return ""
	}
	return "https://" + u.Host
}

// dataMediaType returns the media type a data: URL declares, defaulting
// to application/json (registry entries carry cards).
func dataMediaType(s string) string {
	meta, _, _ := strings.Cut(strings.TrimPrefix(s, "data:"), ",")
	mt, _, _ := strings.Cut(meta, ";base64")
	if mt = strings.TrimSpace(mt); mt == "" || strings.HasPrefix(mt, ";") {
		return "application/json"
	}
	return mt
}
