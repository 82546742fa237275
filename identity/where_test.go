package identity

import (
	"strings"
	"testing"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/problem"
)

// Every Problem carries an event.Source: the registry line, the document
// a parser was given, or the WARC capture a Store read it from.
func TestProblemWhere(t *testing.T) {
	_, probs := ParseRegistry(strings.NewReader("https://a.example/card\nhttp://b.example/card\n\nnot a url\n"), "reg.txt")
	var got []event.Source
	for _, p := range probs {
		got = append(got, p.Where)
	}
	want := []event.Source{{File: "reg.txt", Line: 2, Offset: -1}, {File: "reg.txt", Line: 4, Offset: -1}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("registry problems at %v; want %v", got, want)
	}

	_, cp, err := ParseCard([]byte(`{"client_id":"https://a.example/c","web_bot_auth":{"rfc9309-compliance":["Disallow"]}}`), "card.json")
	if err != nil || len(cp) != 1 || cp[0].Code != problem.CardOlderDraftShape ||
		cp[0].Where != (event.Source{File: "card.json", Offset: -1}) {
		t.Errorf("card problems %+v, %v; want one card-older-draft-shape at card.json", cp, err)
	}

	s := NewStore()
	_, sp := s.AddCapture("https://a.example/c", []byte(`{"client_id":"https://a.example/c","web_bot_auth":{"rfc9309-compliance":[]}}`),
		mustTime(t, "2026-11-01T00:00:00Z"), "cards.warc.gz@512")
	if len(sp) != 1 || sp[0].Where != (event.Source{File: "cards.warc.gz", Offset: 512}) {
		t.Errorf("capture problems %+v; want one at cards.warc.gz@512", sp)
	}
}
