package signature

import "slices"

// Verdict is the outcome of verifying one request.
type Verdict string

// Verdicts, from Verify's rules (see doc.go).
const (
	Verified   Verdict = "verified"   // a web-bot-auth signature verifies with a key published for its agent at T, inside its window
	Invalid    Verdict = "invalid"    // a signature is present and fails: crypto, profile, window, or an unknown key for a known agent
	Unverified Verdict = "unverified" // signed, but there is nothing to check it against (no key snapshot, a covered field not recorded)
	Unsigned   Verdict = "unsigned"   // no Signature and no Signature-Input
)

// Reasons. Failures make a verdict Invalid, gaps make it Unverified, and
// notes never change it. Result.Reasons lists them in the order below.
//
// Where a reason names the same failure as the public Web Bot Auth negative
// vector set (ParallaxGrain/webbotauth-negative-vectors, see
// testdata/README.md), it has that set's name. This list is the one place
// reasons are defined; docs/semantics.md ("Signature reasons") explains each,
// and a test keeps the two in step.
const (
	// Failures (verdict Invalid).
	ReasonInputUnreadable          = "signature-input-unreadable"       // Signature-Input is not a Dictionary of inner lists, is too long, or a covered component identifier is malformed (RFC 9421 §4.1, §2.5); also Signature without Signature-Input
	ReasonValueUnreadable          = "signature-value-unreadable"       // Signature is not a Dictionary, has no member for the label, or the member is not a byte sequence (RFC 9421 §4.2, §4)
	ReasonMissingFields            = "missing-fields"                   // created, expires, keyid or tag missing or mistyped
	ReasonForeignTag               = "foreign-tag"                      // only signatures whose tag is not web-bot-auth
	ReasonDuplicateComponent       = "duplicate-component"              // a covered component listed twice (RFC 9421 §2.5)
	ReasonTargetNotCovered         = "target-not-covered"               // neither @authority nor @target-uri covered
	ReasonAgentUnparsable          = "signature-agent-unparsable"       // Signature-Agent is not a structured field (or is too long)
	ReasonAgentAmbiguous           = "signature-agent-ambiguous-member" // the whole Signature-Agent is covered, it has several members and none is named after the label
	ReasonAgentMemberMissing       = "signature-agent-member-missing"   // Signature-Agent present but not covered, or the covered member absent
	ReasonAgentNotHTTPS            = "signature-agent-not-https"        // the covered Signature-Agent member is not an https (or data:) URL
	ReasonForbiddenAlg             = "forbidden-alg"                    // alg unknown, HMAC, or not the key's algorithm
	ReasonMissingComponent         = "missing-component"                // a covered component is absent from a message whose headers were recorded in full, or its value is malformed (RFC 9421 §2.5)
	ReasonTestKey                  = "test-key"                         // keyid is a public RFC 9421 test key (Options.AllowTestKeys off)
	ReasonKeyUnknown               = "key-unknown"                      // the agent's key snapshot at T has no key with this thumbprint valid at T
	ReasonBadSignature             = "bad-signature"                    // the signature does not verify over the base
	ReasonCanonicalizationMismatch = "canonicalization-mismatch"        // verifies only under a known signer quirk (buggy signer)
	ReasonContentDigestMismatch    = "content-digest-mismatch"          // covered Content-Digest does not match the archived body
	ReasonExpired                  = "expired"                          // expires < T − skew
	ReasonClockAhead               = "clock-ahead"                      // created > T + skew

	// Gaps (verdict Unverified unless a failure is present).
	ReasonAgentAbsent         = "signature-agent-absent"     // no Signature-Agent: nothing names where the key is published, whatever key verified it
	ReasonAgentNotOrigin      = "signature-agent-not-origin" // a directory-type member that is not a bare https origin is ignored (no JWK Set known at that URL either)
	ReasonNoKeySnapshot       = "no-key-snapshot"            // no key material for the agent at T
	ReasonComponentUnrecorded = "component-unrecorded"       // a covered component the source does not record (e.g. a header the log format leaves out)
	ReasonSelfAssertedKey     = "self-asserted-key"          // the only key is inline in a data: Signature-Agent: proves possession, not identity
	ReasonTimeUnknown         = "time-unknown"               // the request has no time: neither the window nor the key snapshot can be placed

	// Notes (verdict unchanged).
	ReasonContentDigestUnchecked = "content-digest-unchecked" // Content-Digest covered but no body archived
)

// reasonOrder is every reason, in the order Result.Reasons lists them.
var reasonOrder = []string{
	ReasonInputUnreadable, ReasonValueUnreadable, ReasonMissingFields, ReasonForeignTag, ReasonDuplicateComponent,
	ReasonTargetNotCovered, ReasonAgentUnparsable, ReasonAgentAmbiguous, ReasonAgentMemberMissing, ReasonAgentNotHTTPS,
	ReasonForbiddenAlg, ReasonMissingComponent, ReasonTestKey, ReasonKeyUnknown, ReasonBadSignature,
	ReasonCanonicalizationMismatch, ReasonContentDigestMismatch, ReasonExpired, ReasonClockAhead,
	ReasonAgentAbsent, ReasonAgentNotOrigin, ReasonNoKeySnapshot, ReasonComponentUnrecorded, ReasonSelfAssertedKey,
	ReasonTimeUnknown,
	ReasonContentDigestUnchecked,
}

// Reasons returns every reason constant, in the order Result.Reasons lists
// them.
func Reasons() []string { return slices.Clone(reasonOrder) }

const (
	classFailure = iota + 1
	classGap
	classNote
)

var reasonClass = map[string]int{
	ReasonAgentAbsent: classGap, ReasonAgentNotOrigin: classGap, ReasonNoKeySnapshot: classGap, ReasonComponentUnrecorded: classGap, ReasonSelfAssertedKey: classGap,
	ReasonTimeUnknown: classGap, ReasonContentDigestUnchecked: classNote,
}

// classOf returns a reason's class; anything not listed is a failure.
func classOf(r string) int {
	if c, ok := reasonClass[r]; ok {
		return c
	}
	return classFailure
}

// IsFailure reports whether a reason makes a verdict Invalid.
func IsFailure(reason string) bool { return classOf(reason) == classFailure }

// reasonSet collects reasons without duplicates.
type reasonSet []string

func (s *reasonSet) add(r string) {
	if !slices.Contains(*s, r) {
		*s = append(*s, r)
	}
}

func (s reasonSet) has(r string) bool { return slices.Contains(s, r) }

// sorted returns the reasons in reasonOrder.
func (s reasonSet) sorted() []string {
	if len(s) == 0 {
		return nil
	}
	out := make([]string, 0, len(s))
	for _, r := range reasonOrder {
		if s.has(r) {
			out = append(out, r)
		}
	}
	return out
}

// verdict applies the verdict rules: any failure is Invalid, else any gap
// is Unverified, else Verified.
func (s reasonSet) verdict() Verdict {
	v := Verified
	for _, r := range s {
		switch classOf(r) {
		case classFailure:
			return Invalid
		case classGap:
			v = Unverified
		}
	}
	return v
}
