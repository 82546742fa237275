// Package netfetch fetches small public documents under a strict policy,
// for the few repaudit commands that use the network ("cards fetch",
// "ranges fetch", "robots history"); the audit itself never does.
//
// The policy is the one draft-meunier-webbotauth-registry-03 §"Client ID"
// sets for Signature Agent Cards, applied to every fetch: https only, GET
// only, a response is usable only when its status is 200, redirects are
// never followed, and each exchange has a size limit (Options.MaxBytes)
// and a time limit (Options.Timeout, from connecting to the last body
// byte). Addresses that are not public unicast (private, loopback,
// link-local, shared, documentation, ... see IsPublicAddr) are refused
// when the connection is made, after DNS resolution, so that a name which
// resolves to an inside address cannot reach it; Options.AllowPrivate
// lifts that for tests and intranets. No proxy is used (it would hide the
// address), and no content coding is asked for or undone.
//
// Typical use:
//
//	c := netfetch.New(netfetch.Options{UserAgent: "repaudit/1.0"})
//	r, err := c.Get(ctx, "https://example.com/doc.json", "application/json")
//	if err != nil {
//		// nothing received: refused URL or address, time-out, network error
//	}
//	if !r.OK() {
//		// received but unusable (r.Refused says why); still worth recording
//	}
//
// A Response keeps the request as sent and the response head as
// received, so that callers can write the exchange to a WARC file
// (warc.Writer.WriteExchange) as evidence, usable or not.
package netfetch
