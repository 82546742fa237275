package evaluate

import (
	"strings"
	"testing"

	"github.com/repaudit/repaudit/bots"
	"github.com/repaudit/repaudit/identity"
)

// TestUALocalByContent: the goroutine cache answers as the shared cache
// for every string, whether it is the string cached, an equal string
// elsewhere in memory, or another agent of the same length in the same
// slot.
func TestUALocalByContent(t *testing.T) {
	m := NewBuilder(Options{}, bots.Default(), identity.NewStore()).Build()
	uas := []string{
		"Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)",
		"Mozilla/5.0 (compatible; XPTBot/1.2; +https://openai.com/gptbot)", // same length
		"CCBot/2.0 (https://commoncrawl.org/faq/)",
		"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
		"",
	}
	var l uaLocal
	for round := range 3 {
		for _, ua := range uas {
			for _, s := range []string{ua, strings.Clone(ua), ua[:len(ua)/2]} {
				got, want := m.identifyUALocal(s, nil, t0, &l), m.identifyUA(s, nil, t0)
				if got != want {
					t.Fatalf("round %d, %q: %+v, want %+v", round, s, got, want)
				}
			}
		}
	}
	// Every slot taken by agents of one length: the answers stay right.
	for i := range 4 * uaLocalSlots {
		s := strings.Repeat("x", 8) + string(rune('a'+i%26)) + "Bot/1"
		if got, want := m.identifyUALocal(s, nil, t0, &l), m.identifyUA(s, nil, t0); got != want {
			t.Fatalf("%q: %+v, want %+v", s, got, want)
		}
	}
}
