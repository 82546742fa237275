package signature

import (
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
)

// Limits on untrusted input. Hitting one is reported as a reason with
// evidence, never a crash.
const (
	maxSigField    = 16 << 10 // joined Signature-Input or Signature
	maxAgentField  = 16 << 10 // joined Signature-Agent (data: URLs included)
	maxLabels      = 16       // signatures evaluated per request
	maxComponents  = 64       // covered components per signature
	maxBaseInStore = 4096     // Result.Base is cut here
	maxEvidenceURL = 96       // agent URLs (data: URLs above all) are cut here in Evidence
)

// Tags of the Web Bot Auth profiles.
const (
	TagWebBotAuth = "web-bot-auth"                      // request signatures (httpsig-protocol)
	TagDirectory  = "http-message-signatures-directory" // key directory responses (registry-03 §"Binding Delegated Keys")
)

// TrustedStore is Result.Agent when the key came from the local trust store.
const TrustedStore = "trusted-store"

// Request is one logged or archived request to verify.
type Request struct {
	Time      time.Time // from the data (log line, WARC-Date); never the wall clock
	Method    string
	Scheme    string // "https" when empty
	Authority string // as the client sent Host (not nginx $host); the Host field is used when empty
	Target    string // raw path?query as sent
	IP        netip.Addr
	Header    event.Header
	// Body is the archived request body, nil when not archived. It is
	// only used to check a covered Content-Digest.
	Body []byte
	// HeadersComplete says the source recorded every header the client
	// sent (WARC request records). A covered field that is absent then
	// was not sent (component-missing, Invalid); otherwise it may merely
	// not have been logged (component-unrecorded, Unverified).
	HeadersComplete bool
	// Where locates the request in its source ("access.log:12",
	// "a.warc.gz@1234"), for replay evidence.
	Where string
}

func (r *Request) scheme() string {
	if r.Scheme == "" {
		return "https"
	}
	return strings.ToLower(r.Scheme)
}

func (r *Request) authority() string {
	a := r.Authority
	if a == "" {
		a = r.Header.Get("Host")
	}
	return normalizeAuthority(a, r.scheme())
}

// KeySource supplies public keys as they were published at a time.
// *identity.Store satisfies it.
type KeySource interface {
	// Keys returns the keys published under ref (a directory origin, a
	// JWK Set or directory URL, or a card client_id) as of t. known is
	// false when there is no snapshot for ref at t.
	Keys(ref string, t time.Time) (keys []identity.Key, known bool)
	// TrustedKeys returns the local trust store: keys accepted for any
	// Signature-Agent.
	TrustedKeys() []identity.Key
}

// CardSource is optionally implemented by a KeySource that knows Signature
// Agent Cards (*identity.Store does). With it, a request without
// Signature-Agent is checked against the keys of the card its User-Agent
// claims, and a type=cimd member's card can lead to its jwks_uri.
type CardSource interface {
	CardForUA(ua string, t time.Time) (*identity.Card, bool)
	CardByID(clientID string, t time.Time) (*identity.Card, bool)
}

// Options tune a Verifier.
type Options struct {
	// Skew is the clock allowance for the created/expires window; 60s
	// when zero. A negative value means no allowance.
	Skew time.Duration
	// AllowTestKeys lets the public RFC 9421 test keys verify normally;
	// otherwise a signature naming one is Invalid with reason test-key.
	AllowTestKeys bool
}

// DefaultSkew is the window allowance when Options.Skew is zero.
const DefaultSkew = 60 * time.Second

// Verifier checks Web Bot Auth request signatures against keys as they
// were published at each request's time. It is safe for concurrent use if
// its KeySource is.
type Verifier struct {
	keys KeySource
	opts Options
}

// NewVerifier returns a Verifier that looks keys up in keys (nil: none).
func NewVerifier(keys KeySource, opts Options) *Verifier {
	switch {
	case opts.Skew == 0:
		opts.Skew = DefaultSkew
	case opts.Skew < 0:
		opts.Skew = 0
	}
	return &Verifier{keys: keys, opts: opts}
}

// Result is the verdict on one request and the evidence that produced it.
type Result struct {
	Verdict Verdict
	Reasons []string // Reason constants, in a stable order
	Label   string   // signature label used (e.g. "sig1")
	KeyID   string
	// Agent is the Signature-Agent member value (URL) the key was looked
	// up under, the claimed card's client_id when there was no
	// Signature-Agent, or TrustedStore for a key from the local trust store.
	Agent      string
	AgentShape string // ShapeLegacyString, ShapeDictionary, ShapeTyped, ShapeJWKSURL; "" when absent
	Created    time.Time
	Expires    time.Time
	Nonce      string
	Tag        string
	Alg        string   // algorithm the signature was checked with ("" when not checked)
	Covered    []string // covered component identifiers as serialized
	Base       string   // the signature base that was checked (cut at 4 KiB)
	KeySource  string   // identity.Key.Source of the key used
	// CryptoOK says the signature verified over the RFC 9421 base (a
	// verdict can still be Invalid through the window or the profile).
	CryptoOK bool
	// Evidence is one line a person can check by hand: what was checked
	// and what failed.
	Evidence string

	signature []byte // the signature bytes, for replay detection
}

// Verify judges one request at r.Time (RFC 9421 §3.2 as profiled by Web
// Bot Auth). It never reads the wall clock and never fails: problems are
// reasons.
func (v *Verifier) Verify(r *Request) Result {
	inLines := r.Header.Values("Signature-Input")
	sigLines := r.Header.Values("Signature")
	if len(inLines) == 0 && len(sigLines) == 0 {
		return Result{Verdict: Unsigned}
	}
	if len(inLines) == 0 || len(sigLines) == 0 {
		// RFC 9421 §4: each field must carry the same labels; one
		// without the other has every label unpaired.
		if len(sigLines) == 0 {
			return failed(ReasonValueUnreadable, "Signature-Input present without Signature")
		}
		return failed(ReasonInputUnreadable, "Signature present without Signature-Input")
	}
	if joinedLen(inLines) > maxSigField {
		return failed(ReasonInputUnreadable, "Signature-Input longer than "+strconv.Itoa(maxSigField)+" bytes")
	}
	if joinedLen(sigLines) > maxSigField {
		return failed(ReasonValueUnreadable, "Signature longer than "+strconv.Itoa(maxSigField)+" bytes")
	}
	inDict, err := httpsfv.UnmarshalDictionary(inLines)
	if err != nil {
		return failed(ReasonInputUnreadable, "Signature-Input is not a Dictionary: "+err.Error())
	}
	sigDict, err := httpsfv.UnmarshalDictionary(sigLines)
	if err != nil {
		return failed(ReasonValueUnreadable, "Signature is not a Dictionary: "+err.Error())
	}

	// RFC 9421 §3.2 step 1-2 with the Web Bot Auth profile: only
	// tag="web-bot-auth" signatures count. Untagged ones are judged (they
	// fail missing-fields) when there is nothing better, so that a
	// pre-tag signer is reported with its evidence.
	var wba, untagged, malformed []string
	var foreign []string
	for _, label := range inDict.Names() {
		mem, _ := inDict.Get(label)
		il, ok := mem.(httpsfv.InnerList)
		if !ok {
			malformed = append(malformed, label)
			continue
		}
		switch tag, ok := il.Params.Get("tag"); {
		case !ok:
			untagged = append(untagged, label)
		case tag == TagWebBotAuth:
			wba = append(wba, label)
		default:
			foreign = append(foreign, label+" tag="+bareString(tag))
		}
	}
	candidates := wba
	if len(candidates) == 0 {
		candidates = untagged
	}
	if len(candidates) == 0 {
		if len(foreign) > 0 {
			res := failed(ReasonForeignTag, "only non-web-bot-auth signatures: "+strings.Join(foreign, ", "))
			res.Label, _, _ = strings.Cut(foreign[0], " ")
			return res
		}
		return failed(ReasonInputUnreadable, "Signature-Input members are not inner lists: "+strings.Join(malformed, ", "))
	}
	if len(candidates) > maxLabels {
		candidates = candidates[:maxLabels]
	}

	agentLines := r.Header.Values("Signature-Agent")
	var agent agentField
	if joinedLen(agentLines) > maxAgentField {
		agent = agentField{present: true, err: "Signature-Agent longer than " + strconv.Itoa(maxAgentField) + " bytes"}
	} else {
		agent = parseAgentField(agentLines)
	}
	rawIn := strings.Join(inLines, ", ")
	m := &message{req: r, complete: r.HeadersComplete}

	var best Result
	for i, label := range candidates {
		mem, _ := inDict.Get(label)
		res := v.verifyOne(m, label, mem.(httpsfv.InnerList), rawIn, sigDict, agent)
		if i == 0 || rank(res.Verdict) < rank(best.Verdict) {
			best = res
		}
	}
	if len(foreign) > 0 {
		best.Evidence += " (also ignored: " + strings.Join(foreign, ", ") + ")"
	}
	return best
}

// rank orders verdicts from best to worst for choosing among several
// signatures of one request.
func rank(v Verdict) int {
	switch v {
	case Verified:
		return 0
	case Unverified:
		return 1
	default:
		return 2
	}
}

func joinedLen(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l) + 2
	}
	return n
}

// failed is a Result for a request-level failure found before any one
// signature could be judged.
func failed(reason, evidence string) Result {
	return Result{Verdict: Invalid, Reasons: []string{reason}, Evidence: evidence + ": " + reason}
}

// bareString renders a parameter value for evidence.
func bareString(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case httpsfv.Token:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		if x {
			return "?1"
		}
		return "?0"
	}
	return "?"
}

// sigParams are the signature parameters of RFC 9421 §2.3 a Web Bot Auth
// signature must or may carry.
type sigParams struct {
	created, expires time.Time
	keyid, tag       string
	nonce, alg       string
	missing          []string // required parameters absent or of the wrong type
}

func readParams(p *httpsfv.Params) sigParams {
	var sp sigParams
	intTime := func(name string) time.Time {
		v, ok := p.Get(name)
		n, isInt := v.(int64)
		if !ok || !isInt {
			sp.missing = append(sp.missing, name)
			return time.Time{}
		}
		return time.Unix(n, 0).UTC()
	}
	str := func(name string, required bool) string {
		v, ok := p.Get(name)
		s, isStr := v.(string)
		if (!ok || !isStr) && (required || ok) {
			sp.missing = append(sp.missing, name)
		}
		return s
	}
	sp.created = intTime("created")
	sp.expires = intTime("expires")
	sp.keyid = str("keyid", true)
	sp.tag = str("tag", true)
	sp.nonce = str("nonce", false)
	sp.alg = str("alg", false)
	return sp
}

// parseComponents reads the covered components of an inner list and
// reports the first duplicate (RFC 9421 §2.5 forbids listing one twice).
func parseComponents(il httpsfv.InnerList) (comps []component, dup string, problem string) {
	if len(il.Items) > maxComponents {
		return nil, "", "more than " + strconv.Itoa(maxComponents) + " covered components"
	}
	seen := make(map[string]bool, len(il.Items))
	for _, it := range il.Items {
		name, ok := it.Value.(string)
		if !ok {
			return nil, "", "a covered component is not a string"
		}
		ident, err := httpsfv.Marshal(it)
		if err != nil {
			return nil, "", "covered component " + strconv.Quote(name) + ": " + err.Error()
		}
		if seen[ident] && dup == "" {
			dup = ident
		}
		seen[ident] = true
		comps = append(comps, component{name: name, params: it.Params, ident: ident})
	}
	return comps, dup, ""
}

// judgement accumulates one signature's checks.
type judgement struct {
	res   Result
	rs    reasonSet
	notes []string
}

func (j *judgement) fail(reason, note string) {
	j.rs.add(reason)
	if note != "" {
		j.notes = append(j.notes, note)
	}
}

// verifyOne judges the signature labelled label.
func (v *Verifier) verifyOne(m *message, label string, il httpsfv.InnerList, rawIn string, sigDict *httpsfv.Dictionary, agent agentField) Result {
	r := m.req
	j := &judgement{res: Result{Label: label}}
	sp := readParams(il.Params)
	j.res.KeyID, j.res.Tag, j.res.Nonce = sp.keyid, sp.tag, sp.nonce
	j.res.Created, j.res.Expires = sp.created, sp.expires
	if len(sp.missing) > 0 {
		j.fail(ReasonMissingFields, "missing or mistyped parameter "+strings.Join(sp.missing, ", "))
	}
	if sp.tag != "" && sp.tag != TagWebBotAuth {
		j.fail(ReasonForeignTag, "tag "+strconv.Quote(sp.tag))
	}
	if sp.alg != "" && !knownAlg(sp.alg) {
		j.fail(ReasonForbiddenAlg, "alg "+strconv.Quote(sp.alg)+" is not a public-key algorithm of RFC 9421 §3.3")
	}

	// The signature bytes (RFC 9421 §4.2).
	sig := signatureBytes(j, sigDict, label)

	comps, dup, problem := parseComponents(il)
	if problem != "" {
		j.fail(ReasonInputUnreadable, problem)
	}
	if dup != "" {
		j.fail(ReasonDuplicateComponent, "component "+dup+" covered twice")
	}
	covered := make([]string, len(comps))
	for i := range comps {
		covered[i] = comps[i].ident
	}
	j.res.Covered = covered
	if problem == "" && !coversAny(comps, "@authority", "@target-uri") {
		j.fail(ReasonTargetNotCovered, "neither @authority nor @target-uri covered")
	}

	members := v.coveredMembers(j, label, comps, agent, r.Time)

	// The signature base (RFC 9421 §2.5).
	params, err := httpsfv.Marshal(il)
	base := ""
	var berr *baseError
	if err != nil {
		j.fail(ReasonInputUnreadable, "signature parameters do not serialize: "+err.Error())
	} else if problem == "" && dup == "" {
		// RFC 9421 §2.5: a base with a component twice is never built.
		base, berr = buildBase(m, comps, params, quirks{})
		if berr != nil {
			j.fail(berr.reason, berr.detail)
		} else {
			j.res.Base = capString(base, maxBaseInStore)
		}
	}

	// The key (RFC 9421 §3.2 step 6; keyid is the RFC 7638 thumbprint).
	key := v.lookupKey(j, r, sp.keyid, members, agent.present)
	if desc := testKeyThumbprints[sp.keyid]; (desc != "" || (key != nil && key.TestKey)) && !v.opts.AllowTestKeys {
		if desc == "" {
			desc = "a public test key"
		}
		j.fail(ReasonTestKey, "keyid is "+desc)
	}

	// The signature (RFC 9421 §3.2 step 8).
	if key != nil && sig != nil && base != "" && !j.rs.has(ReasonForbiddenAlg) {
		v.checkCrypto(j, m, key, sp.alg, comps, params, label, rawIn, base, sig)
	}

	// Content-Digest (RFC 9530): covered, but is the body archived?
	checkCoveredDigest(j, r, comps)

	// The window against T, never the wall clock (RFC 9421 §3.2 step 7).
	v.checkWindow(j, r.Time, sp)

	j.res.Verdict = j.rs.verdict()
	if j.res.Verdict == Verified && !j.res.CryptoOK {
		// Defensive: nothing verified it, so it cannot be Verified.
		j.res.Verdict = Unverified
	}
	j.res.Reasons = j.rs.sorted()
	j.res.Evidence = j.evidence(r.Time)
	return j.res
}

// signatureBytes returns the byte sequence of the Signature member label
// and records it in the result; nil, and a failure, when there is none.
func signatureBytes(j *judgement, sigDict *httpsfv.Dictionary, label string) []byte {
	mem, ok := sigDict.Get(label)
	if !ok {
		j.fail(ReasonValueUnreadable, "no Signature member "+label)
		return nil
	}
	it, ok := mem.(httpsfv.Item)
	if !ok {
		j.fail(ReasonValueUnreadable, "Signature member "+label+" is not a byte sequence")
		return nil
	}
	b, ok := it.Value.([]byte)
	if !ok {
		j.fail(ReasonValueUnreadable, "Signature member "+label+" is not a byte sequence")
		return nil
	}
	j.res.signature = b
	return b
}

// checkCoveredDigest checks a covered Content-Digest (RFC 9530) against
// the archived body, failing the signature when the digest does not match
// or the body was not archived.
func checkCoveredDigest(j *judgement, r *Request, comps []component) {
	if !coversAny(comps, "content-digest") || !r.Header.Has("Content-Digest") {
		return
	}
	if r.Body == nil {
		j.fail(ReasonContentDigestUnchecked, "Content-Digest covered, body not archived")
		return
	}
	if ok, note := checkContentDigest(r.Header.Values("Content-Digest"), r.Body); !ok {
		j.fail(ReasonContentDigestMismatch, note)
	}
}

func knownAlg(a string) bool {
	switch a {
	case AlgEd25519, AlgRSAPSSSHA512, AlgRSAv15SHA256, AlgECDSAP256, AlgECDSAP384:
		return true
	}
	return false
}

func coversAny(comps []component, names ...string) bool {
	for i := range comps {
		for _, n := range names {
			if comps[i].name == n {
				return true
			}
		}
	}
	return false
}

// coveredMembers applies the Signature-Agent profile rules and returns the
// members the signature covers (all members, for evidence only, when none
// is covered). The rules hold whatever the source of the key: a key from
// the trust store or a card does not excuse a missing or unusable
// Signature-Agent.
func (v *Verifier) coveredMembers(j *judgement, label string, comps []component, agent agentField, t time.Time) []agentMember {
	var agentComps []*component
	for i := range comps {
		if comps[i].name == "signature-agent" {
			agentComps = append(agentComps, &comps[i])
		}
	}
	if !agent.present {
		if len(agentComps) > 0 {
			j.fail(ReasonAgentMemberMissing, "signature-agent covered but the field is absent")
		} else {
			// draft-meunier-webbotauth-httpsig-protocol-02 §5.2.1: "A
			// signed request MUST carry the Signature-Agent header".
			j.fail(ReasonAgentAbsent, "no Signature-Agent: nothing names where the key is published")
		}
		return nil
	}
	if agent.err != "" {
		j.fail(ReasonAgentUnparsable, agent.err)
		return nil
	}
	var members []agentMember
	if len(agentComps) == 0 {
		j.fail(ReasonAgentMemberMissing, "Signature-Agent present but not covered")
		members = agent.members
	}
	for _, c := range agentComps {
		key, hasKey := c.stringParam("key")
		if !hasKey {
			// Bare "signature-agent" covers the whole field. With several
			// members, only the one named after the label is this
			// signature's: a verifier MUST NOT attribute a signature to a
			// member it does not cover (draft -02 §5.2.2).
			if agent.legacy || len(agent.members) == 1 {
				members = append(members, agent.members...)
				continue
			}
			found := false
			for _, am := range agent.members {
				if am.key == label {
					members = append(members, am)
					found = true
				}
			}
			if !found {
				j.fail(ReasonAgentAmbiguous, "covered "+c.ident+" has "+strconv.Itoa(len(agent.members))+
					" members, none named "+strconv.Quote(label)+" and no key parameter")
			}
			continue
		}
		if agent.legacy {
			j.fail(ReasonAgentMemberMissing, "covered "+c.ident+" but Signature-Agent is not a Dictionary")
			continue
		}
		found := false
		for _, am := range agent.members {
			if am.key == key {
				members = append(members, am)
				found = true
			}
		}
		if !found {
			j.fail(ReasonAgentMemberMissing, "covered "+c.ident+" but Signature-Agent has no member "+strconv.Quote(key))
		}
	}
	return v.usableMembers(j, members, t)
}

// usableMembers returns the covered members a key may be looked up for:
// it fails a member that is not https, drops a directory member that is
// not a bare origin (unless a JWK Set is known at its URL at t), records
// the first kept member's shape and notes members that carry parameters.
func (v *Verifier) usableMembers(j *judgement, members []agentMember, t time.Time) []agentMember {
	kept := members[:0:0]
	for i := range members {
		am := members[i]
		if !am.httpsOK() {
			j.fail(ReasonAgentNotHTTPS, "Signature-Agent member "+strconv.Quote(capString(am.value, maxEvidenceURL))+" is not an https URL")
		}
		if am.directoryType() && !am.isOrigin() {
			// An untyped member with a path is a JWK Set URL in the WG's
			// newest text: taken so when a JWK Set is known there at T.
			// Otherwise it is a directory member that is not an origin,
			// which a verifier MUST ignore (draft -02 §5.5).
			if am.typ == "" && v.knownRef(am.value, t) {
				am.shape = ShapeJWKSURL
			} else {
				if am.shape == ShapeJWKSURL {
					am.shape = ShapeDictionary
				}
				if j.res.AgentShape == "" {
					j.res.AgentShape = am.shape
				}
				j.fail(ReasonAgentNotOrigin, "directory-type Signature-Agent member "+
					strconv.Quote(capString(am.value, maxEvidenceURL))+" is not a bare origin: ignored")
				continue
			}
		}
		if j.res.AgentShape == "" {
			j.res.AgentShape = am.shape
		}
		if len(am.params) > 0 {
			// draft-ietf-webbotauth-httpsig-protocol-01 §5.2.1: members
			// MUST NOT carry parameters and a verifier MUST ignore one
			// that does. Agents deployed under the earlier drafts send
			// ;type=, and registry-04 §4.5 still names type=cimd, so the
			// member is read as those drafts defined it, and said so.
			j.notes = append(j.notes, "Signature-Agent member "+strconv.Quote(am.key)+" carries parameters ("+
				strings.Join(am.params, ", ")+"), which draft-ietf-webbotauth-httpsig-protocol-01 prohibits; read as the earlier drafts defined it")
		}
		kept = append(kept, am)
	}
	return kept
}

// knownRef reports whether the KeySource holds a key snapshot under ref at t.
func (v *Verifier) knownRef(ref string, t time.Time) bool {
	if v.keys == nil {
		return false
	}
	_, known := v.keys.Keys(ref, t)
	return known
}

// lookupKey finds the key named by keyid as published for the covered
// members at T, else in the trust store, else inline in a data: member. It
// records the agent, and the gap or failure when there is no key.
func (v *Verifier) lookupKey(j *judgement, r *Request, keyid string, members []agentMember, agentPresent bool) *identity.Key {
	kl := keyLookup{keyid: keyid, t: r.Time}
	k, inline, inlineFrom := v.memberKey(j, &kl, members)
	if k != nil {
		return k
	}
	// No Signature-Agent: the card the User-Agent claims names the keys.
	if !agentPresent && v.keys != nil && keyid != "" {
		if k := v.cardKey(j, &kl, r.Header.Get("User-Agent")); k != nil {
			return k
		}
	}
	if v.keys != nil && keyid != "" {
		if k := kl.match(v.keys.TrustedKeys()); k != nil {
			j.res.Agent = TrustedStore
			j.res.KeySource = k.Source
			return k
		}
	}
	if inline != nil {
		j.res.Agent = inlineFrom
		j.res.KeySource = "inline data: Signature-Agent"
		j.fail(ReasonSelfAssertedKey, "key only published inline in the request's data: Signature-Agent")
		return inline
	}
	if keyid == "" {
		return nil
	}
	kl.noKey(j)
	return nil
}

// keyLookup is one search for the key keyid valid at t, with what the
// search has seen so far.
type keyLookup struct {
	keyid   string
	t       time.Time
	known   bool // some key snapshot for the agent exists at t
	outside bool // a key with this thumbprint exists but not at t
}

// match returns the key in keys with the thumbprint keyid that is valid at
// t, or nil, noting a key that has the thumbprint but is not valid at t.
func (kl *keyLookup) match(keys []identity.Key) *identity.Key {
	for i := range keys {
		if keys[i].Thumbprint != kl.keyid {
			continue
		}
		if keys[i].ValidAt(kl.t) {
			return &keys[i]
		}
		kl.outside = true
	}
	return nil
}

// snapshotKey looks the key up in the key snapshot published under ref.
func (v *Verifier) snapshotKey(kl *keyLookup, ref string) *identity.Key {
	keys, ok := v.keys.Keys(ref, kl.t)
	kl.known = kl.known || ok
	return kl.match(keys)
}

// memberKey looks the key up for each Signature-Agent member in turn,
// recording the first member as the agent. It returns the key published
// for a member (then the agent is that member), or else the first key
// found inline in a data: member and the member it came from.
func (v *Verifier) memberKey(j *judgement, kl *keyLookup, members []agentMember) (k, inline *identity.Key, inlineFrom string) {
	for i := range members {
		am := &members[i]
		if j.res.Agent == "" {
			j.res.Agent = am.value
		}
		if am.isData() {
			data, err := decodeDataURL(am.value)
			if err != nil {
				j.notes = append(j.notes, "data: Signature-Agent does not decode")
				continue
			}
			keys, _, err := identity.ParseJWKS(data, "Signature-Agent data: URL")
			if err != nil {
				j.notes = append(j.notes, "data: Signature-Agent is not a key directory: "+err.Error())
				continue
			}
			if k := kl.match(keys); k != nil && inline == nil {
				inline, inlineFrom = k, am.value
			}
			continue
		}
		if v.keys == nil || kl.keyid == "" {
			continue
		}
		refs := am.refs()
		if am.typ == "cimd" {
			if cs, ok := v.keys.(CardSource); ok {
				if c, ok := cs.CardByID(am.value, kl.t); ok && c.JWKSURI != "" {
					refs = append(refs, c.JWKSURI)
				}
			}
		}
		for _, ref := range refs {
			if k := v.snapshotKey(kl, ref); k != nil {
				j.res.Agent = am.value
				j.res.KeySource = k.Source
				return k, nil, ""
			}
		}
	}
	return nil, inline, inlineFrom
}

// cardKey looks the key up through the valid card that the User-Agent ua
// claims, when the KeySource holds cards: in its inline keys, then under
// its client_id and jwks_uri. It records the card as the agent.
func (v *Verifier) cardKey(j *judgement, kl *keyLookup, ua string) *identity.Key {
	cs, ok := v.keys.(CardSource)
	if !ok {
		return nil
	}
	c, ok := cs.CardForUA(ua, kl.t)
	if !ok || c.Invalid != "" {
		return nil
	}
	j.res.Agent = c.ClientID
	if j.res.Agent == "" {
		j.res.Agent = c.Source
	}
	// A card without client_id (a local legacy file) is only
	// reachable through its own inline keys.
	if len(c.JWKS) > 0 {
		kl.known = true
		if k := kl.match(c.JWKS); k != nil {
			j.res.KeySource = k.Source
			return k
		}
	}
	for _, ref := range []string{c.ClientID, c.JWKSURI} {
		if ref == "" {
			continue
		}
		if k := v.snapshotKey(kl, ref); k != nil {
			j.res.KeySource = k.Source
			return k
		}
	}
	return nil
}

// noKey records why no key was found for keyid: a key outside its
// validity, a snapshot without it, or no key material at all (only a note
// when a Signature-Agent problem already explains it).
func (kl *keyLookup) noKey(j *judgement) {
	switch {
	case kl.known && kl.outside:
		j.fail(ReasonKeyUnknown, "key "+kl.keyid+" is published but not valid (nbf/exp) at T")
	case kl.known:
		j.fail(ReasonKeyUnknown, "the agent's key snapshot at T has no key "+kl.keyid)
	case kl.outside:
		j.fail(ReasonKeyUnknown, "trusted key "+kl.keyid+" is not valid (nbf/exp) at T")
	case j.rs.has(ReasonAgentAbsent) || j.rs.has(ReasonAgentAmbiguous) || j.rs.has(ReasonAgentMemberMissing) ||
		j.rs.has(ReasonAgentUnparsable) || j.rs.has(ReasonAgentNotOrigin):
		// The Signature-Agent problem already says why no key could be
		// looked up; no-key-snapshot would name its consequence twice.
		j.notes = append(j.notes, "no key material at T")
	default:
		j.fail(ReasonNoKeySnapshot, "no key material for the agent at T")
	}
}

// checkCrypto verifies sig over base, and when that fails tries the known
// signer quirks to tell a buggy signer from a forgery.
func (v *Verifier) checkCrypto(j *judgement, m *message, key *identity.Key, alg string, comps []component, params, label, rawIn, base string, sig []byte) {
	algs, problem := keyAlgs(key, alg)
	if problem != "" {
		j.fail(ReasonForbiddenAlg, problem)
		return
	}
	try := func(b string) string {
		for _, a := range algs {
			if verifyWith(key.Public, a, []byte(b), sig) {
				return a
			}
		}
		return ""
	}
	if a := try(base); a != "" {
		j.res.CryptoOK, j.res.Alg = true, a
		j.notes = append(j.notes, a+" signature verifies over the base")
		return
	}
	j.res.Alg = strings.Join(algs, "|")
	for _, q := range quirkCandidates(m, comps, params, label, rawIn) {
		qb, berr := buildBase(m, comps, params, q)
		if berr != nil {
			continue
		}
		if a := try(qb); a != "" {
			j.res.Alg = a
			j.fail(ReasonCanonicalizationMismatch, "buggy signer: "+a+" signature verifies only with "+q.describe())
			return
		}
	}
	j.fail(ReasonBadSignature, j.res.Alg+" signature does not verify over the base")
}

// quirkCandidates lists the signer quirks that apply to this signature:
// each alone, then all together.
func quirkCandidates(m *message, comps []component, params, label, rawIn string) []quirks {
	var qs []quirks
	for i := range comps {
		if _, ok := comps[i].stringParam("key"); ok {
			qs = append(qs, quirks{unquotedKey: true})
			break
		}
	}
	if coversAny(comps, "@path") && m.req.Target != "" {
		if p, _, _ := splitTarget(m.req.Target); p == "" || p == "/" {
			qs = append(qs, quirks{emptyPath: true})
		}
	}
	if raw := rawMember(rawIn, label); raw != "" && raw != params {
		qs = append(qs, quirks{rawParams: raw})
	}
	if len(qs) > 1 {
		var all quirks
		for _, q := range qs {
			all.unquotedKey = all.unquotedKey || q.unquotedKey
			all.emptyPath = all.emptyPath || q.emptyPath
			if q.rawParams != "" {
				all.rawParams = q.rawParams
			}
		}
		qs = append(qs, all)
	}
	return qs
}

// checkWindow applies created ≤ T+skew and expires ≥ T−skew.
func (v *Verifier) checkWindow(j *judgement, t time.Time, sp sigParams) {
	if t.IsZero() {
		j.fail(ReasonTimeUnknown, "request time unknown: window not checked")
		return
	}
	skew := v.opts.Skew
	if !sp.created.IsZero() && sp.created.After(t.Add(skew)) {
		j.fail(ReasonClockAhead, "created "+sp.created.Sub(t).String()+" after T (skew "+skew.String()+")")
	}
	if !sp.expires.IsZero() && sp.expires.Before(t.Add(-skew)) {
		j.fail(ReasonExpired, "expired "+t.Sub(sp.expires).String()+" before T (skew "+skew.String()+")")
	}
}

// evidence renders the one-line account of the checks.
func (j *judgement) evidence(t time.Time) string {
	var b strings.Builder
	b.WriteString(j.res.Label)
	b.WriteString(" keyid=")
	b.WriteString(orDash(j.res.KeyID))
	b.WriteString(" agent=")
	b.WriteString(orDash(capString(j.res.Agent, maxEvidenceURL)))
	b.WriteString(" created=")
	b.WriteString(timeOrDash(j.res.Created))
	b.WriteString(" expires=")
	b.WriteString(timeOrDash(j.res.Expires))
	b.WriteString(" (T=")
	b.WriteString(timeOrDash(t))
	b.WriteString("): ")
	if len(j.notes) == 0 {
		b.WriteString("no checks ran")
	} else {
		b.WriteString(strings.Join(j.notes, "; "))
	}
	if rs := j.rs.sorted(); len(rs) > 0 {
		b.WriteString(" => ")
		b.WriteString(strings.Join(rs, ", "))
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func timeOrDash(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

// capString cuts s to at most n bytes, marking the cut.
func capString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// RequestFromFetch builds the Request to verify from a normalized fetch.
// The authority is the Host field as the client sent it when the source
// recorded it (nginx's $host drops the port), else Fetch.Host. WARC request
// records carry every header, so their absent fields were not sent.
func RequestFromFetch(f *event.Fetch) *Request {
	a := f.Header.Get("Host")
	if a == "" {
		a = f.Host
	}
	return &Request{
		Time: f.Time, Method: f.Method, Scheme: f.Scheme, Authority: a, Target: f.Target,
		IP: f.ClientIP, Header: f.Header, HeadersComplete: f.Origin == event.OriginWARC,
		Body: f.Body, Where: f.Source.String(),
	}
}
