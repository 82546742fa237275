// Package identity holds what a bot publishes about itself, over time:
// Signature Agent Cards, the key sets (JWK Sets and key directories) its
// signatures are made with, and the IP ranges it crawls from.
//
// # Documents
//
// Each parser takes the bytes of one document and a source name used in
// every Problem it reports; a bad member is a Problem with a stable Code,
// and only a document that is unusable as a whole is an error:
//
//   - ParseCard reads a Signature Agent Card
//     (draft-meunier-webbotauth-registry-03 §"Signature Agent Card"): OAuth
//     client metadata with a "web_bot_auth" object, or the flat layout of
//     registry-00..02. A card that breaks a MUST of the draft (both jwks and
//     jwks_uri, a non-https jwks_uri, ...) comes back with Card.Invalid set:
//     it still identifies claims, but its keys are not trusted. Cards of
//     draft-meunier-webbotauth-registry-04 share that layout; its changes
//     are read too: rfc9309-compliance a boolean (§3.2.3; a registry-03
//     list of directives is still read, with a card-older-draft-shape
//     diagnostic), purpose (§3.2.5, also as an array), and ips_uri
//     (§3.2.10), the IP list Store.CheckIP falls back to.
//   - ParseJWKS reads a JWK Set (RFC 7517 §5), a single JWK or a key
//     directory. Every key gets its RFC 7638 thumbprint computed here — the
//     Web Bot Auth keyid — and a published "kid" is never trusted. Keys
//     equal to the public RFC 9421 Appendix B.1 test keys are flagged
//     TestKey.
//   - ParseRegistry reads a registry (registry-03 §"Discovery", "Formal
//     Syntax"): https and data: URLs, '#' comments, problems by line.
//   - ParseIPList reads a published IP range list (JAFAR, and Google's and
//     OpenAI's files, which share its shape).
//   - CaptureKind tells, from a captured JSON document's shape, which of
//     these it is.
//
// # Timelines
//
// Published documents change: keys rotate, ranges are added and dropped.
// A Store files every snapshot under the time it became known — a WARC
// capture's WARC-Date, an IP list's creationTime — and answers each query
// "as of t" with the latest snapshot at or before t. Local files given on
// the command line are undated and fill in where no dated snapshot exists.
// The usage loop is:
//
//	s := identity.NewStore()
//	for each captured response (url, body, WARC-Date, file@offset):
//		s.AddCapture(url, body, date, where)
//	for each --card / --ip-ranges / --jwks file: s.AddCard / AddIPList / AddTrustedKeys
//	then, for each fetch at time t (from the log line, never the wall clock):
//		card, _ := s.CardForUA(ua, t)
//		keys, known := s.Keys(signatureAgent, t)  // !known → "unverified", not "invalid"
//		check := s.CheckIP(card.ProductToken, clientIP, t)
//
// Adding and querying are safe for concurrent use. Query results are
// copies (keys) or shared read-only values (cards, lists): callers must
// not modify them. docs/semantics.md states the time rules in full.
//
// Nothing in this package reads the wall clock or touches the network;
// "repaudit cards fetch" does the fetching and records it as a WARC.
package identity
