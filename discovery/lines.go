package discovery

import (
	"fmt"
	"time"

	"github.com/repaudit/repaudit/identity"
)

// MaxNotesPerDocument caps the problems Lines names for one document.
const MaxNotesPerDocument = 8

// Lines words the entry as "cards fetch" reports it: a line for the
// entry's document, indented lines for its keys and IP list, each
// document's problems under it. describe words a network error (NetErr);
// nil uses its Error text.
func (e Entry) Lines(describe func(error) string) []string {
	if describe == nil {
		describe = func(err error) string { return err.Error() }
	}
	var out []string
	for _, s := range e.Steps {
		if l := s.line(e.Loc, describe); l != "" {
			out = append(out, l)
		}
		out = append(out, notes(s.Notes)...)
	}
	return out
}

// line words one step ("" for none).
func (s Step) line(loc string, describe func(error) string) string {
	refused := s.Refused
	if s.NetErr != nil {
		refused = describe(s.NetErr)
	}
	switch s.Kind {
	case StepRegistryProblem:
		return fmt.Sprintf("%s: refused: %s: %s", s.Problem.Source, s.Problem.Code, s.Problem.Message)
	case StepInlineCard:
		if !s.Got {
			return fmt.Sprintf("%s %s: refused: inline card: %s", loc, shortURL(s.URL), refused)
		}
		return fmt.Sprintf("%s %s: inline card %q recorded", loc, shortURL(s.URL), s.Card.Label())
	case StepCard, StepDirectory:
		switch {
		case !s.Got:
			return fmt.Sprintf("%s %s: refused: %s", loc, s.URL, refused)
		case refused != "":
			return fmt.Sprintf("%s %s: 200, refused: %s", loc, s.URL, refused)
		case s.Kind == StepDirectory:
			return fmt.Sprintf("%s %s: 200, key directory with %d key(s) recorded", loc, s.URL, s.Count)
		}
		return fmt.Sprintf("%s %s: 200, card %q recorded", loc, s.URL, s.Card.Label())
	case StepInvalidCard:
		return fmt.Sprintf("  refused: invalid card (%s): its keys are not trusted, nothing more fetched", s.Invalid)
	case StepKeys:
		return s.fetchedLine(s.What, refused, fmt.Sprintf("%d key(s)", s.Count))
	case StepInlineJWKS:
		return fmt.Sprintf("  inline jwks: %d key(s)", s.Count)
	case StepNoKeys:
		return "  no key material: no jwks, jwks_uri or client_id"
	case StepIPs:
		created := "no creationTime"
		if !s.Created.IsZero() {
			created = "creationTime " + s.Created.Format(time.RFC3339)
		}
		return s.fetchedLine("ips_uri", refused, fmt.Sprintf("%d prefixes (%s)", s.Count, created))
	}
	return ""
}

// fetchedLine words a key or IP list step: refused, or 200 and what it
// held, recorded now or (keys, Again) earlier in the run.
func (s Step) fetchedLine(what, refused, held string) string {
	switch {
	case !s.Got:
		return fmt.Sprintf("  %s %s: refused: %s", what, s.URL, refused)
	case refused != "":
		return fmt.Sprintf("  %s %s: 200, refused: %s", what, s.URL, refused)
	case s.Again && s.Kind == StepKeys:
		return fmt.Sprintf("  %s %s: 200, %s, recorded above", what, s.URL, held)
	}
	return fmt.Sprintf("  %s %s: 200, %s recorded", what, s.URL, held)
}

// notes words a document's problems, a few at most.
func notes(ps []identity.Problem) []string {
	var out []string
	for i, p := range ps {
		if i == MaxNotesPerDocument {
			return append(out, fmt.Sprintf("  note: %d more problem(s)", len(ps)-i))
		}
		out = append(out, fmt.Sprintf("  note: %s: %s: %s", p.Source, p.Code, p.Message))
	}
	return out
}

// shortURL keeps report lines readable for long data: URLs.
func shortURL(s string) string {
	if len(s) > 72 {
		return s[:72] + "..."
	}
	return s
}
