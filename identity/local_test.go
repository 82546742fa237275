package identity

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
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

func TestReadRegistryFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "registry.txt")
	if err := os.WriteFile(p, []byte("# a registry\nhttps://bot.example/card\nftp://nope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, probs, source, err := ReadRegistryFile(p, nil)
	if err != nil || source != p || len(entries) != 1 || len(probs) != 1 || !strings.HasPrefix(probs[0].Source, p+":3") {
		t.Errorf("file: %d entries, problems %+v, source %q, err %v", len(entries), probs, source, err)
	}
	entries, _, source, err = ReadRegistryFile("-", strings.NewReader("https://bot.example/card\n"))
	if err != nil || source != "stdin" || len(entries) != 1 {
		t.Errorf("stdin: %d entries, source %q, err %v", len(entries), source, err)
	}
	if _, _, _, err := ReadRegistryFile(p+".missing", nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	broken := io.MultiReader(strings.NewReader("https://bot.example/card\n"), iotest.ErrReader(errors.New("disk gone")))
	if _, _, _, err := ReadRegistryFile("-", broken); err == nil || err.Error() != "stdin:2: disk gone" {
		t.Errorf("read error: %v, want stdin:2: disk gone", err)
	}
}
