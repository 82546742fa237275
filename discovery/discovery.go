package discovery

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/netfetch"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/warc"
)

// Accept headers per document kind.
const (
	acceptCard      = "application/json"
	acceptDirectory = "application/http-message-signatures-directory+json, application/jwk-set+json;q=0.9, application/json;q=0.8"
	acceptIPList    = "application/json"
)

// StepKind says what one step of an entry's resolution was.
type StepKind int

// Step kinds, in the order an entry can produce them.
const (
	StepRegistryProblem StepKind = iota // a registry line that is not an entry (Problem)
	StepInlineCard                      // a data: entry's card
	StepCard                            // a card fetched from the entry's URL
	StepDirectory                       // the entry's URL served a key directory
	StepInvalidCard                     // the card is invalid: nothing more is fetched (Invalid)
	StepKeys                            // the card's jwks_uri or key directory (What)
	StepInlineJWKS                      // the card's inline jwks (Count keys)
	StepNoKeys                          // the card names no key material
	StepIPs                             // the card's ips_uri
)

// Step is one document of an entry and what became of it.
type Step struct {
	Kind StepKind
	What string // StepKeys: "jwks_uri" or "key directory"
	URL  string
	// Got is true when a 200 response was received (or, for inline
	// cards, the card was decoded); Refused then says why its content
	// was not used. Without Got, Refused or NetErr says why nothing
	// usable was received.
	Got     bool
	Refused string
	NetErr  error // the network error, when that is why
	Again   bool  // the URL was fetched earlier in the run
	Card    *identity.Card
	Count   int       // keys (StepDirectory, StepKeys, StepInlineJWKS) or prefixes (StepIPs)
	Created time.Time // StepIPs: the list's creationTime, zero when it has none
	Invalid string    // StepInvalidCard: the card's Invalid reason
	Problem *identity.Problem
	Notes   []identity.Problem // the document's problems
}

// Entry is the resolution of one registry line.
type Entry struct {
	Loc   string // "registry:12"
	URL   string // the entry as written ("" for a registry problem)
	Steps []Step
	OK    bool // everything it needed was fetched and usable
}

// Resolver fetches registry entries and records them in a WARC.
type Resolver struct {
	client   *netfetch.Client
	maxBytes int64
	ww       *warc.Writer
	now      func() time.Time
	seen     map[string]*fetched // each URL is fetched once per run
}

// New returns a Resolver that fetches with client and records to ww, dating
// records with now; maxBytes is the client's body limit, named when a body
// is cut.
func New(client *netfetch.Client, ww *warc.Writer, now func() time.Time, maxBytes int64) *Resolver {
	return &Resolver{client: client, maxBytes: maxBytes, ww: ww, now: now, seen: map[string]*fetched{}}
}

// WriteWarcinfo writes the warcinfo record that opens the WARC.
func (r *Resolver) WriteWarcinfo(filename, registry, userAgent, software string) error {
	_, err := r.ww.WriteWarcinfo(r.now(), filename, event.Header{
		{Name: "software", Value: software},
		{Name: "format", Value: "WARC File Format 1.1"},
		{Name: "conformsTo", Value: "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"},
		{Name: "description", Value: "Signature Agent Cards, key directories and IP lists fetched by 'repaudit cards fetch'"},
		{Name: "registry", Value: registry},
		{Name: "http-header-user-agent", Value: userAgent},
	})
	return err
}

// Resolve processes the registry's entries and line problems in line
// order, handing each result to each as it is done. It returns the number
// of failed entries (problems count as failed); the error is for the WARC
// or an interruption.
func (r *Resolver) Resolve(ctx context.Context, regName string, entries []identity.RegistryEntry, probs []identity.Problem, each func(Entry)) (failed int, err error) {
	pi := 0
	flush := func(before int) {
		for ; pi < len(probs) && (before < 0 || problemLine(probs[pi]) < before); pi++ {
			p := probs[pi]
			each(Entry{Loc: p.Source, Steps: []Step{{Kind: StepRegistryProblem, Problem: &p}}})
			failed++
		}
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return failed, fmt.Errorf("interrupted: %w", err)
		}
		flush(e.Line)
		res, err := r.Entry(ctx, regName+":"+strconv.Itoa(e.Line), e)
		if err != nil {
			return failed, err
		}
		each(res)
		if !res.OK {
			failed++
		}
	}
	flush(-1)
	if err := ctx.Err(); err != nil {
		return failed, fmt.Errorf("interrupted: %w", err)
	}
	return failed, nil
}

// problemLine is the line number of a registry problem: its Where, else
// the end of its Source ("file:12").
func problemLine(p identity.Problem) int {
	if p.Where.Line > 0 {
		return int(p.Where.Line)
	}
	i := strings.LastIndexByte(p.Source, ':')
	n, _ := strconv.Atoi(p.Source[i+1:])
	return n
}

// Entry resolves one registry entry and its key and IP documents; the
// error is only for the WARC.
func (r *Resolver) Entry(ctx context.Context, loc string, e identity.RegistryEntry) (Entry, error) {
	out := Entry{Loc: loc, URL: e.URL}
	var card *identity.Card
	var err error
	if e.Inline != nil {
		card, err = r.inlineCard(loc, e, &out)
	} else {
		card, err = r.fetchedCard(ctx, e, &out)
	}
	if err != nil || card == nil {
		return out, err
	}
	if card.Invalid != "" {
		out.Steps = append(out.Steps, Step{Kind: StepInvalidCard, Card: card, Invalid: card.Invalid})
		return out, nil
	}
	ok, err := r.follow(ctx, card, &out)
	out.OK = ok
	return out, err
}

// inlineCard records and reads a data: entry's card.
func (r *Resolver) inlineCard(loc string, e identity.RegistryEntry, out *Entry) (*identity.Card, error) {
	if err := r.ww.WriteResource(e.URL, dataMediaType(e.URL), r.now(), e.Inline); err != nil {
		return nil, err
	}
	c, p, perr := identity.ParseCard(e.Inline, loc)
	if perr != nil {
		out.Steps = append(out.Steps, Step{Kind: StepInlineCard, URL: e.URL, Refused: perr.Error()})
		return nil, nil
	}
	out.Steps = append(out.Steps, Step{Kind: StepInlineCard, URL: e.URL, Got: true, Card: c, Notes: p})
	return c, nil
}

// fetchedCard fetches an https entry: a card, or a key directory.
func (r *Resolver) fetchedCard(ctx context.Context, e identity.RegistryEntry, out *Entry) (*identity.Card, error) {
	f, err := r.get(ctx, e.URL, acceptCard)
	if err != nil {
		return nil, err
	}
	if !f.got() {
		out.Steps = append(out.Steps, Step{Kind: StepCard, URL: e.URL, Refused: f.refused, NetErr: f.netErr})
		return nil, nil
	}
	if identity.CaptureKind(e.URL, f.contentType, f.body) == identity.KindJWKS {
		// A registry entry may name a key directory directly (the
		// registry's own example does).
		keys, kp, kerr := identity.ParseJWKS(f.body, e.URL)
		if kerr != nil {
			out.Steps = append(out.Steps, Step{Kind: StepDirectory, URL: e.URL, Got: true, Refused: kerr.Error()})
			return nil, nil
		}
		out.Steps = append(out.Steps, Step{Kind: StepDirectory, URL: e.URL, Got: true, Count: len(keys), Notes: kp})
		out.OK = true
		return nil, nil
	}
	c, probs, perr := identity.ParseCard(f.body, e.URL)
	if perr != nil {
		out.Steps = append(out.Steps, Step{Kind: StepCard, URL: e.URL, Got: true, Refused: perr.Error()})
		return nil, nil
	}
	// registry-04 §3.1.1 (Client ID): identical, by simple string comparison.
	refuse := ""
	switch {
	case c.ClientID == e.URL:
	case c.ClientID == "" && c.Layout == identity.LayoutLegacyFlat:
		probs = append(probs, identity.Problem{Source: e.URL, Code: problem.CardNoClientID, Message: "legacy card without client_id; identified by its URL"})
	case c.ClientID == "":
		refuse = "card has no client_id (registry-03 §Client ID)"
	default:
		refuse = fmt.Sprintf("client_id %q is not the URL fetched (registry-03 §Client ID)", c.ClientID)
	}
	if refuse != "" {
		out.Steps = append(out.Steps, Step{Kind: StepCard, URL: e.URL, Got: true, Refused: refuse, Card: c})
		return nil, nil
	}
	out.Steps = append(out.Steps, Step{Kind: StepCard, URL: e.URL, Got: true, Card: c, Notes: probs})
	return c, nil
}
