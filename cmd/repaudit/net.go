package main

import (
	"context"
	"crypto/tls"
	"errors"
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
