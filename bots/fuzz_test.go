package bots

import (
	"strings"
	"testing"
)

func FuzzProductTokens(f *testing.F) {
	for _, c := range uaCases {
		f.Add(c.ua)
	}
	for _, c := range shapeFamilies {
		f.Add(c.ua)
	}
	f.Add("((((((((((")
	f.Add(`Foo/1 (a\) b; c) "q/1"`)
	c := Default()
	f.Fuzz(func(t *testing.T, ua string) {
		toks := ProductTokens(ua)
		if len(toks) > maxUATokens {
			t.Fatalf("got %d tokens, over the cap", len(toks))
		}
		for _, tok := range toks {
			if tok == "" || strings.ContainsAny(tok, " /();") {
				t.Fatalf("token %q is empty or holds a separator", tok)
			}
			if !strings.Contains(ua, tok) {
				t.Fatalf("token %q is not in the User-Agent", tok)
			}
		}
		// A name built of several words is joined by one space; '+' stands
		// for a space in IIS logs, "%20" where a client encoded it.
		spaced := strings.Join(strings.Fields(strings.NewReplacer("+", " ", "%20", " ").Replace(ua)), " ")
		bt := BotToken(ua)
		if bt != "" && !strings.Contains(ua, bt) && !strings.Contains(spaced, bt) {
			t.Fatalf("BotToken %q is not in the User-Agent", bt)
		}
		id := c.IdentifyUA(ua)
		if id.Agent != "" && IsGeneric(id.Agent) {
			t.Fatalf("agent %q is a generic word", id.Agent)
		}
		if id.Matched != "" && !strings.Contains(ua, id.Matched) {
			t.Fatalf("matched %q is not in the User-Agent", id.Matched)
		}
		if id.Agent == Unnamed && (id.Rule != RuleUnnamed || !IsGeneric(id.Matched)) {
			t.Fatalf("agent %s by %q from %q, not a generic word", Unnamed, id.Rule, id.Matched)
		}
		if id.Bot == nil && id.Agent != "" && id.Agent != Unnamed && !strings.Contains(ua, id.Agent) && !strings.Contains(spaced, id.Agent) {
			t.Fatalf("unknown agent %q is not in the User-Agent", id.Agent)
		}
		for _, n := range Names(ua) {
			if n == "" || IsGeneric(n) {
				t.Fatalf("Names gave %q", n)
			}
		}
		if b, ok := c.Identify(ua); ok {
			found := false
			for _, p := range b.Patterns {
				found = found || ContainsToken(ua, strings.TrimPrefix(p, "^"))
			}
			if !found {
				t.Fatalf("Identify gave %s, none of whose patterns is in the User-Agent", b.Token)
			}
		}
	})
}

func FuzzLoad(f *testing.F) {
	f.Add(robotsJSONFixture)
	f.Add(`{"comment": "x", "bots": [{"token": "A", "patterns": ["A", "a b"], "category": "seo", "user_triggered": true}]}`)
	f.Add(`{"bots": [{"token": "A", "robots_txt_only": true, "patterns": []}]}`)
	f.Add(`[]`)
	f.Add(`{"A": {}, "B": {"operator": "[x](y)"}}`)
	base := Default()
	f.Fuzz(func(t *testing.T, data string) {
		c, err := Load(strings.NewReader(data), "fuzz.json")
		if err != nil {
			if c != nil {
				t.Fatal("got a catalog and an error")
			}
			if !strings.HasPrefix(err.Error(), "fuzz.json") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, b := range c.Bots() {
			got, ok := c.Lookup(b.Token)
			if !ok || got != b {
				t.Fatalf("Lookup(%q) does not find its own bot", b.Token)
			}
		}
		m := base.Merge(c)
		if m.Len() < c.Len() {
			t.Fatalf("merged catalog has %d bots, fewer than the %d merged in", m.Len(), c.Len())
		}
	})
}

// FuzzLiterals feeds crawler-user-agents style patterns to the reader that
// turns them into names: it must never panic, and every name it gives
// starts with a token character.
func FuzzLiterals(f *testing.F) {
	for _, p := range []string{`Googlebot\/`, `Ahrefs(Bot|SiteAudit)`, `[cC]laude[bB]ot`, `^curl`, `(^| )PTST\/`,
		`BlogTraffic\/\d\.\d+ Feed-Fetcher`, `Automaton|Newsify Feed Fetcher`, `Spider[\s\S]*spider\.com`, `SSL Labs$`, `(`, `[`, `\`, `a{2}`} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		lits, _, _ := literals(p)
		for _, l := range lits {
			if l == "" || !isTokenChar(l[0]) {
				t.Fatalf("literals(%q) gave %q", p, l)
			}
		}
	})
}
