package discovery

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/identity"
)

func TestEntryLines(t *testing.T) {
	card := &identity.Card{Name: "Example Bot"}
	long := "data:application/json," + strings.Repeat("x", 80)
	e := Entry{Loc: "registry:3", Steps: []Step{
		{Kind: StepCard, URL: "https://bot.example/card", Got: true, Card: card},
		{Kind: StepKeys, What: "jwks_uri", URL: "https://bot.example/jwks", Got: true, Count: 2, Again: true},
		{Kind: StepIPs, URL: "https://bot.example/ips", Got: true, Count: 4, Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		{Kind: StepKeys, What: "key directory", URL: "https://bot.example/dir", NetErr: errors.New("timed out")},
		{Kind: StepInlineCard, URL: long, Refused: "not JSON"},
		{Kind: StepNoKeys, Notes: make([]identity.Problem, MaxNotesPerDocument+2)},
	}}
	got := e.Lines(func(err error) string { return err.Error() + " (flag)" })
	want := []string{
		`registry:3 https://bot.example/card: 200, card "Example Bot" recorded`,
		"  jwks_uri https://bot.example/jwks: 200, 2 key(s), recorded above",
		"  ips_uri https://bot.example/ips: 200, 4 prefixes (creationTime 2026-01-02T03:04:05Z) recorded",
		"  key directory https://bot.example/dir: refused: timed out (flag)",
		"registry:3 " + long[:72] + "...: refused: inline card: not JSON",
		"  no key material: no jwks, jwks_uri or client_id",
	}
	for range MaxNotesPerDocument {
		want = append(want, "  note: : : ")
	}
	want = append(want, "  note: 2 more problem(s)")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
