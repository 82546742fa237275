package signature

import (
	"strconv"
	"strings"

	"github.com/dunglas/httpsfv"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
)

// Response is the response half of an archived exchange, for response
// signatures (RFC 9421 §2.4) such as a signed key directory.
type Response struct {
	Status int
	Header event.Header
	Body   []byte // the archived body; nil when not archived
}

// VerifyDirectory checks the signatures that bind a key directory response
// to its authority (registry-03 §"Binding Delegated Keys to the Directory
// Authority"): every signature tagged http-message-signatures-directory,
// which must cover "@authority";req, checked at req.Time against keys, the
// keys the directory itself publishes. It returns one Result per such
// signature, in Signature-Input order; Agent is the request authority.
// Signatures with other tags are skipped. A caller keeps the keys whose
// thumbprint has a Verified result.
func (v *Verifier) VerifyDirectory(req *Request, resp *Response, keys []identity.Key) []Result {
	inLines := resp.Header.Values("Signature-Input")
	sigLines := resp.Header.Values("Signature")
	if len(inLines) == 0 && len(sigLines) == 0 {
		return nil
	}
	if len(inLines) == 0 || len(sigLines) == 0 || joinedLen(inLines) > maxSigField || joinedLen(sigLines) > maxSigField {
		return []Result{failed(ReasonMissingFields, "response Signature and Signature-Input not both present and within "+strconv.Itoa(maxSigField)+" bytes")}
	}
	inDict, err := httpsfv.UnmarshalDictionary(inLines)
	if err != nil {
		return []Result{failed(ReasonInputUnreadable, "Signature-Input is not a Dictionary: "+err.Error())}
	}
	sigDict, err := httpsfv.UnmarshalDictionary(sigLines)
	if err != nil {
		return []Result{failed(ReasonValueUnreadable, "Signature is not a Dictionary: "+err.Error())}
	}
	m := &message{req: req, resp: resp, complete: true}
	var out []Result
	for _, label := range inDict.Names() {
		if len(out) == maxLabels {
			break
		}
		mem, _ := inDict.Get(label)
		il, ok := mem.(httpsfv.InnerList)
		if !ok {
			continue
		}
		if tag, _ := il.Params.Get("tag"); tag != TagDirectory {
			continue
		}
		out = append(out, v.verifyDirectoryOne(m, label, il, strings.Join(inLines, ", "), sigDict, keys))
	}
	return out
}

func (v *Verifier) verifyDirectoryOne(m *message, label string, il httpsfv.InnerList, rawIn string, sigDict *httpsfv.Dictionary, keys []identity.Key) Result {
	j := &judgement{res: Result{Label: label, Agent: m.req.authority()}}
	sp := readParams(il.Params)
	j.res.KeyID, j.res.Tag, j.res.Nonce = sp.keyid, sp.tag, sp.nonce
	j.res.Created, j.res.Expires = sp.created, sp.expires
	if len(sp.missing) > 0 {
		j.fail(ReasonMissingFields, "missing or mistyped parameter "+strings.Join(sp.missing, ", "))
	}
	if sp.alg != "" && !knownAlg(sp.alg) {
		j.fail(ReasonForbiddenAlg, "alg "+strconv.Quote(sp.alg)+" is not a public-key algorithm of RFC 9421 §3.3")
	}
	var sig []byte
	if mem, ok := sigDict.Get(label); ok {
		if it, ok := mem.(httpsfv.Item); ok {
			sig, _ = it.Value.([]byte)
		}
	}
	if sig == nil {
		j.fail(ReasonValueUnreadable, "no Signature byte sequence for "+label)
	}
	comps, dup, problem := parseComponents(il)
	if problem != "" {
		j.fail(ReasonInputUnreadable, problem)
	}
	if dup != "" {
		j.fail(ReasonDuplicateComponent, "component "+dup+" covered twice")
	}
	bound := false
	for i := range comps {
		j.res.Covered = append(j.res.Covered, comps[i].ident)
		if comps[i].name == "@authority" && comps[i].flag("req") {
			bound = true
		}
	}
	if !bound {
		j.fail(ReasonTargetNotCovered, `"@authority";req not covered: the keys are not bound to the directory authority`)
	}
	params, err := httpsfv.Marshal(il)
	base := ""
	if err != nil {
		j.fail(ReasonInputUnreadable, "signature parameters do not serialize: "+err.Error())
	} else if problem == "" {
		var berr *baseError
		base, berr = buildBase(m, comps, params, quirks{})
		if berr != nil {
			j.fail(berr.reason, berr.detail)
		} else {
			j.res.Base = capString(base, maxBaseInStore)
		}
	}
	var key *identity.Key
	for i := range keys {
		if keys[i].Thumbprint == sp.keyid && sp.keyid != "" {
			key = &keys[i]
			break
		}
	}
	if key == nil && sp.keyid != "" {
		j.fail(ReasonKeyUnknown, "the directory publishes no key "+sp.keyid)
	}
	if desc := testKeyThumbprints[sp.keyid]; (desc != "" || (key != nil && key.TestKey)) && !v.opts.AllowTestKeys {
		j.fail(ReasonTestKey, "keyid is a public RFC 9421 test key")
	}
	if key != nil && sig != nil && base != "" && !j.rs.has(ReasonForbiddenAlg) {
		v.checkCrypto(j, m, key, sp.alg, comps, params, label, rawIn, base, sig)
		j.res.KeySource = key.Source
	}
	if coversAny(comps, "content-digest") {
		if m.resp.Body == nil {
			j.fail(ReasonContentDigestUnchecked, "Content-Digest covered, body not archived")
		} else if ok, note := checkContentDigest(m.resp.Header.Values("Content-Digest"), m.resp.Body); !ok {
			j.fail(ReasonContentDigestMismatch, note)
		} else {
			j.notes = append(j.notes, "Content-Digest matches the body")
		}
	}
	v.checkWindow(j, m.req.Time, sp)
	j.res.Verdict = j.rs.verdict()
	if j.res.Verdict == Verified && !j.res.CryptoOK {
		j.res.Verdict = Unverified
	}
	j.res.Reasons = j.rs.sorted()
	j.res.Evidence = j.evidence(m.req.Time)
	return j.res
}
