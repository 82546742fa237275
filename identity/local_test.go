package identity

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAddFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jwk, _ := edJWK(t, 3, "")
	keys := write("keys.jwks", `{"keys":[`+jwk+`,{"kty":"nope"}]}`)
	empty := write("empty.json", `{}`)
	card := write("card.json", `{"client_id":"https://bot.example/card","client_name":"Example Bot"}`)

	s := NewStore()
	notes, err := s.AddFiles([]string{keys}, []string{empty, card})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.TrustedKeys()) != 1 || len(s.Cards()) != 2 {
		t.Errorf("%d trusted keys, %d cards; want 1 and 2", len(s.TrustedKeys()), len(s.Cards()))
	}
	var got []string
	for _, n := range notes {
		got = append(got, n.String())
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], keys+"#keys[1]: jwk-unsupported-kty: ") || got[1] != empty+": card invalid (empty-card): its keys are not trusted" {
		t.Errorf("notes:\n%s", strings.Join(got, "\n"))
	}

	big := write("big.json", strings.Repeat(" ", MaxDocumentBytes+1))
	for _, tt := range []struct {
		name        string
		jwks, cards []string
		want        error
	}{
		{"missing", []string{filepath.Join(dir, "none")}, nil, os.ErrNotExist},
		{"too large", nil, []string{big}, ErrTooLarge},
	} {
		if _, err := NewStore().AddFiles(tt.jwks, tt.cards); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
	if _, err := NewStore().AddFiles(nil, []string{write("list.json", `[1]`)}); err == nil || !strings.HasPrefix(err.Error(), dir) {
		t.Errorf("not a card: got %v, want an error naming the file", err)
	}
}
