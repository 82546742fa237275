package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	"github.com/repaudit/repaudit/netfetch"
)

// netHooks lets tests reach the network layer of the commands that fetch
// ("cards fetch", "ranges fetch", "bots fetch", "robots history", "dns
// verify") without globals: the TLS configuration (trust roots of an
// httptest.NewTLSServer) and the clock that stamps what was fetched.
// Tests set stdio.Net; production code leaves it zero.
type netHooks struct {
	tlsConfig *tls.Config
	now       func() time.Time
	// sleep waits between requests (tests record the delays instead).
	sleep func(context.Context, time.Duration) error
}

// withDefaults returns h with the production defaults filled in.
func (h netHooks) withDefaults() netHooks {
	if h.now == nil {
		// The one legitimate wall clock in repaudit: the time of a live fetch.
		h.now = time.Now
	}
	if h.sleep == nil {
		h.sleep = netfetch.Sleep
	}
	return h
}

// describeNetError says why nothing was received, naming the flag that
// would allow a refused address.
func describeNetError(err error) string {
	if errors.Is(err, netfetch.ErrNonPublicAddress) {
		return err.Error() + " (use --allow-private to allow it)"
	}
	return err.Error()
}

// fetchOK fetches rawURL under the client's rules and returns the body of
// a whole 200 response; the error says why there is none, naming the
// flag that would change it.
func fetchOK(ctx context.Context, client *netfetch.Client, rawURL, accept string, maxBytes byteSize) ([]byte, error) {
	resp, err := client.Get(ctx, rawURL, accept)
	if err != nil {
		return nil, errors.New(describeNetError(err))
	}
	if !resp.OK() {
		if resp.Truncated == "length" {
			return nil, fmt.Errorf("body larger than --max-bytes %d", maxBytes)
		}
		return nil, errors.New(resp.Refused)
	}
	return resp.Body, nil
}
