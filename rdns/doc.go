// Package rdns checks crawler addresses by forward-confirmed reverse DNS,
// for "repaudit dns verify"; the audit itself never touches the network
// and reads the snapshot this package writes (identity.ParseDNSSnapshot).
//
// Google, Bing, Apple, Amazon and Common Crawl document the check for
// their crawlers: a PTR lookup of the client address (RFC 1035 §3.5,
// in-addr.arpa; RFC 3596 §2.5, ip6.arpa) gives a host name under the
// operator's domain (crawl-66-249-66-1.googlebot.com), and an A/AAAA
// lookup of that name must return the same address. The suffixes come
// from the bot catalog's rdns_suffixes.
//
// Typical use:
//
//	reqs, probs, err := rdns.Collect(ctx, inputs, catalog) // addresses of fetches claiming such bots
//	entries, err := rdns.Verify(ctx, reqs, rdns.Options{Server: "127.0.0.1:5353"})
//	path, err := rdns.WriteFile(dir, identity.DNSSnapshotHeader{Resolver: ..., Started: ..., Finished: ...}, entries, false)
//
// Limits: at most Options.Concurrency lookups in flight, each bounded by
// Options.Timeout; at most identity.MaxDNSNames PTR names per address
// and identity.MaxDNSAddresses forward answers per name are kept. Only
// PTR names under the claimed bots' suffixes are resolved forward. A
// failed lookup is recorded as lookup_error, never as a verdict.
package rdns
