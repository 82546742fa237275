// Package discovery resolves a Signature Agent registry into the documents
// it names, recording every exchange as a WARC: what "repaudit cards
// fetch" does, with structured results for the command to print.
//
// For each registry entry (draft-meunier-webbotauth-registry-04 §4,
// Discovery) a Resolver fetches the card, checks its client_id against the
// URL (§4.1 CIMD-Based Discovery: GET, 200 only, no redirects, exact
// client_id), then the key material (the card's jwks_uri, else the
// client_id origin's key directory, draft-ietf-webbotauth-httpsig-protocol-01
// §5.5) and the card's ips_uri, the IP list (registry-04 §3.2.10). data:
// entries are inline cards, recorded as resource records and not fetched.
// An entry that is itself a key directory is recorded as one.
//
// The usage loop is:
//
//	r := discovery.New(client, warcWriter, now, maxBytes)
//	r.WriteWarcinfo(outName, registryName, userAgent, version)
//	entries, probs := identity.ParseRegistry(f, name)
//	failed, err := r.Resolve(ctx, name, entries, probs, func(e discovery.Entry) { print e })
//
// Every fetch goes through a netfetch.Client, which enforces the network
// policy (https only, no redirects, public addresses, size and time
// limits). Times of records come from the now function the caller passes;
// nothing here prints.
package discovery
