// Package signature verifies Web Bot Auth request signatures offline: RFC
// 9421 HTTP Message Signatures as profiled by the Web Bot Auth drafts
// (draft-meunier-web-bot-auth-architecture, the httpsig-protocol drafts,
// draft-ietf-webbotauth-httpsig-protocol), judged at the time each request
// was logged or archived, never at the wall-clock time.
//
// # Usage
//
// Build a Verifier over a KeySource (normally *identity.Store, filled with
// captured key directories, cards and local --jwks files), then verify each
// request in time order and feed the results to a ReplayDetector:
//
//	v := signature.NewVerifier(store, signature.Options{})
//	d := signature.NewReplayDetector(0)
//	for _, f := range fetches {
//		r := &signature.Request{Time: f.Time, Method: f.Method, Scheme: f.Scheme,
//			Authority: f.Header.Get("Host"), Target: f.Target, IP: f.ClientIP,
//			Header: f.Header, Where: f.Source.String()}
//		res := v.Verify(r)
//		replay, why := d.Observe(r, res)
//		...
//	}
//
// A Verifier is safe for concurrent use; a ReplayDetector is not. Header
// values must already be unescaped (nginx writes " as \x22 and Apache as
// \" by default; a log reader that leaves those in turns a good signature
// into "signature-input-unreadable").
//
// # The steps of Verify
//
//  1. No Signature and no Signature-Input: Unsigned. One without the
//     other: Invalid, signature-value-unreadable (no Signature) or
//     signature-input-unreadable (no Signature-Input).
//  2. Parse both as Structured Field Dictionaries (RFC 9651 §3.2) over all
//     their field lines joined with ", " (RFC 9421 §4.1, §4.2). Failure:
//     signature-input-unreadable or signature-value-unreadable; a label
//     with no Signature byte sequence is signature-value-unreadable.
//  3. Keep the signatures whose tag parameter is "web-bot-auth". Others are
//     noted in the evidence; a request with only others is Invalid,
//     foreign-tag. Untagged signatures are judged (and fail missing-fields)
//     only when there is no tagged one. With several, the best verdict wins.
//  4. Profile checks: created, expires, keyid and tag present
//     (missing-fields); no component listed twice (duplicate-component, RFC
//     9421 §2.5; the base is then never built); @authority or @target-uri
//     covered (target-not-covered); alg absent or one of §3.3's public-key
//     algorithms matching the key, never HMAC (forbidden-alg).
//     Signature-Agent, whatever the source of the key: present
//     (signature-agent-absent, a gap: draft -02 §5.2.1), readable
//     (signature-agent-unparsable), covered and the covered member present
//     (signature-agent-member-missing), one member attributable to the
//     signature when the whole field is covered (the member named after
//     the label, else signature-agent-ambiguous-member), an https (or
//     data:) URL (signature-agent-not-https), and a directory member a
//     bare origin (signature-agent-not-origin, a gap: draft -02 §5.5).
//  5. Signature-Agent, in any of its four shapes: a legacy sf-String
//     covered as the bare "signature-agent" (its value includes the
//     quotes); a Dictionary member covered as "signature-agent";key="k"
//     (any k, not necessarily the label); typed members
//     (;type=directory|jwks_uri|cimd); untyped members whose values are JWK
//     Set URLs. See agent.go for how each maps to KeySource references.
//     draft-ietf-webbotauth-httpsig-protocol-01 §5.2.1 makes every member
//     a plain JWK Set URL and tells verifiers to ignore members with
//     parameters; a member with parameters is still read as the earlier
//     drafts defined it, and the evidence says it carries them.
//  6. The signature base (RFC 9421 §2.5): each covered component's
//     serialized identifier, ": ", its value, a newline; then
//     "@signature-params": and the inner list re-serialized (httpsfv keeps
//     parameter order, so this is the order received). Derived components
//     follow §2.2 (@authority lower-cased without the default port, @path
//     "/" when empty, @query "?" alone when empty, @query-param re-encoded);
//     fields follow §2.1 (lines trimmed and joined with ", "; ;key selects
//     and re-serializes a Dictionary member, so an sf-String keeps its
//     quotes; ;sf re-serializes; ;bs wraps each line as a byte sequence).
//     A covered field the source did not record is component-unrecorded
//     (Unverified) for logs and missing-component (Invalid) for WARC
//     records, whose headers are complete (Request.HeadersComplete).
//  7. The key: keyid is the RFC 7638 JWK thumbprint, matched against
//     identity.Key.Thumbprint (computed, never the published kid), in the
//     snapshot in force at T for the covered member, then in the trust
//     store, then inline in a data: member (self-asserted-key). The key's
//     own nbf/exp must cover T. A snapshot without the key is key-unknown
//     (Invalid); no snapshot at all is no-key-snapshot (Unverified). The
//     public RFC 9421 test keys are test-key unless Options.AllowTestKeys.
//  8. The signature: Ed25519 (§3.3.6), RSASSA-PSS SHA-512 with a 64-byte
//     salt (§3.3.1), RSASSA-PKCS1-v1_5 SHA-256 (§3.3.2), ECDSA P-256 and
//     P-384 with raw r||s (§3.3.4, §3.3.5). A failure is bad-signature,
//     unless the signature verifies under a known signer quirk (a
//     dictionary member unquoted in the base, an empty @path, a
//     non-canonical @signature-params): then canonicalization-mismatch,
//     "buggy signer" in the evidence, still Invalid.
//  9. Content-Digest (RFC 9530), when covered and present, is checked
//     against Request.Body when the body was given or archived
//     (content-digest-mismatch), else noted (content-digest-unchecked).
//  10. The window at T with Options.Skew (default 60s): created > T+skew is
//     clock-ahead, expires < T−skew is expired. Window failures are
//     reported with the crypto result (Result.CryptoOK, and the evidence
//     says the signature verified).
//
// Any failure makes the verdict Invalid; otherwise a gap (no
// Signature-Agent, a directory member that is not an origin, no key, a
// component not recorded, a self-asserted key, an unknown time) makes it
// Unverified; otherwise it is Verified. Result.Evidence is one line a person
// can check by hand. reasons.go defines every reason and docs/semantics.md
// ("Signature reasons") documents them; it also records the choices the
// drafts leave open.
//
// # Signed key directories
//
// VerifyDirectory checks the response signatures that bind a key directory
// to its authority (tag "http-message-signatures-directory", covering
// "@authority";req and usually Content-Digest; RFC 9421 §2.4 for ;req).
//
// # Replays
//
// ReplayDetector reports a signature (or a keyid and nonce) seen again on a
// different path, from a different IP, or after it expired, naming the
// first sighting. Its state is bounded by entry count and by expiry.
package signature
