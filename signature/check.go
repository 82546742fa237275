package signature

import (
	"bytes"
	"strconv"

	"github.com/repaudit/repaudit/identity"
)

// CheckResult is the judgement of one input line of "repaudit signature
// check": the Verifier's Result, the card the request claims, and
// whether the ReplayDetector saw its signature before. Error is set
// instead when the line is not a request.
type CheckResult struct {
	Line      int64    `json:"line"`
	Verdict   string   `json:"verdict,omitempty"`
	Reasons   []string `json:"reasons"`
	Label     string   `json:"label,omitempty"`
	KeyID     string   `json:"keyid,omitempty"`
	Agent     string   `json:"agent,omitempty"`
	Shape     string   `json:"agent_shape,omitempty"`
	KeySource string   `json:"key_source,omitempty"`
	Claimed   string   `json:"claimed,omitempty"`
	Replay    string   `json:"replay,omitempty"`
	Evidence  string   `json:"evidence,omitempty"`
	Error     string   `json:"error,omitempty"`
}

// Checker judges request lines (ParseRequestJSON's shape) one after
// another: each is verified at its own time against the keys and cards
// of Store, and checked for replays in input order, so a Checker is not
// safe for concurrent use.
type Checker struct {
	Verifier *Verifier
	Replays  *ReplayDetector
	Store    *identity.Store
}

// NewChecker returns a Checker over store; opts.Skew also sets the
// replay detector's allowance after expires.
func NewChecker(store *identity.Store, opts Options) *Checker {
	d := NewReplayDetector(0)
	d.Skew = opts.Skew
	return &Checker{Verifier: NewVerifier(store, opts), Replays: d, Store: store}
}

// CheckLine judges input line number lineNo. A blank line is not a
// request: ok is false and there is no result (its number still counts).
// A line that does not parse gives a result with only Line and Error.
func (c *Checker) CheckLine(lineNo int64, line []byte) (res CheckResult, ok bool) {
	if len(bytes.TrimSpace(line)) == 0 {
		return CheckResult{}, false
	}
	r, err := ParseRequestJSON(line)
	if err != nil {
		return CheckResult{Line: lineNo, Error: err.Error()}, true
	}
	r.Where = "stdin:" + strconv.FormatInt(lineNo, 10)
	return c.Check(lineNo, r), true
}

// Check verifies r, names the card it claims and observes it for
// replays.
func (c *Checker) Check(lineNo int64, r *Request) CheckResult {
	res := c.Verifier.Verify(r)
	out := CheckResult{
		Line: lineNo, Verdict: string(res.Verdict), Reasons: res.Reasons, Label: res.Label,
		KeyID: res.KeyID, Agent: res.Agent, Shape: res.AgentShape, KeySource: res.KeySource, Evidence: res.Evidence,
	}
	if out.Reasons == nil {
		out.Reasons = []string{}
	}
	out.Claimed = ClaimedCard(c.Store, r, res)
	if replay, why := c.Replays.Observe(r, res); replay {
		out.Replay = why
	}
	return out
}

// ClaimedCard names the Signature Agent Card a request claims: the card
// whose expected User-Agent matches the request's, else the card of the
// agent its signature named (the Signature-Agent field,
// draft-ietf-webbotauth-httpsig-protocol-01 §5.2). Keys of the trusted store name no card. The name is
// the card's client_id, else its client_name, else where it was read.
func ClaimedCard(store *identity.Store, r *Request, res Result) string {
	if c, ok := store.CardForUA(r.Header.Get("User-Agent"), r.Time); ok {
		return cardName(c)
	}
	if res.Agent != "" && res.Agent != TrustedStore {
		if c, ok := store.CardByID(res.Agent, r.Time); ok {
			return cardName(c)
		}
	}
	return ""
}

func cardName(c *identity.Card) string {
	if c.ClientID != "" {
		return c.ClientID
	}
	if c.Name != "" {
		return c.Name
	}
	return c.Source
}
