package pipeline

import (
	"strings"
	"testing"
)

// TestPlanShards: User-Agents that share a token are one agent in one
// shard; signed and card-claimed ones go to shard 0 with the card tokens;
// the rest are packed largest first into the least loaded shard.
func TestPlanShards(t *testing.T) {
	tokens := map[string][]string{
		"GPTBot/1.1": {"gptbot"}, "GPTBot/1.2": {"gptbot"},
		"Research/1 (ExampleBot)": {"examplebot", "research"}, "ExampleBot/2": {"examplebot"},
		"Googlebot/2.1": {"googlebot"}, "SignedAgent/1": {"signedagent"}, "CardBot/1": {"cardbot"},
		"Firefox/128": nil, "bingbot/2.0": {"bingbot"},
	}
	agentTokens := func(ua string) ([]string, bool) { return tokens[ua], ua == "CardBot/1" }
	uas := []uaCount{
		{UA: "GPTBot/1.1", N: 500}, {UA: "GPTBot/1.2", N: 400},
		{UA: "Research/1 (ExampleBot)", N: 100}, {UA: "ExampleBot/2", N: 50},
		{UA: "Googlebot/2.1", N: 700}, {UA: "SignedAgent/1", N: 10, Signed: true}, {UA: "CardBot/1", N: 5},
		{UA: "Firefox/128", N: 300}, {UA: "bingbot/2.0", N: 20},
	}
	// googlebot is a card's token: it joins shard 0.
	p := planShards("h", uas, agentTokens, []string{"googlebot", "other"}, 3)
	if p.Shards != 3 {
		t.Fatalf("%d shards, want 3", p.Shards)
	}
	same := func(a, b string) {
		t.Helper()
		if p.UA[a] != p.UA[b] {
			t.Errorf("%s in shard %d, %s in shard %d: one agent split", a, p.UA[a], b, p.UA[b])
		}
	}
	same("GPTBot/1.1", "GPTBot/1.2")
	same("Research/1 (ExampleBot)", "ExampleBot/2")
	for _, ua := range []string{"SignedAgent/1", "CardBot/1", "Googlebot/2.1"} {
		if p.UA[ua] != 0 {
			t.Errorf("%s in shard %d, want 0 (signed, claimed by a card, or a card's token)", ua, p.UA[ua])
		}
	}
	// Shard 0 holds 715 (Googlebot, signed, card); GPTBot (900) and
	// Firefox (300) go to the two empty shards, then ExampleBot (150)
	// and bingbot (20) to the least loaded.
	load := make([]int64, p.Shards)
	for _, c := range uas {
		load[p.UA[c.UA]] += c.N
	}
	if want := []int64{715, 900, 470}; load[0] != want[0] || load[1]+load[2] != want[1]+want[2] || max(load[1], load[2]) != 900 {
		t.Errorf("loads %v, want %v (in some order after shard 0)", load, want)
	}
	// The plan does not depend on the order of its input.
	rev := make([]uaCount, len(uas))
	for i, c := range uas {
		rev[len(uas)-1-i] = c
	}
	q := planShards("h", rev, agentTokens, []string{"other", "googlebot"}, 3)
	for _, c := range uas {
		if p.UA[c.UA] != q.UA[c.UA] {
			t.Errorf("%s: shard %d, then %d with the input reversed", c.UA, p.UA[c.UA], q.UA[c.UA])
		}
	}
	// One shard at most: everything in shard 0.
	if one := planShards("h", uas, agentTokens, nil, 1); one.Shards != 1 || len(one.UA) != 0 {
		t.Errorf("one shard: %+v", one)
	}
}

func FuzzShardKey(f *testing.F) {
	f.Add("host.example:8080", 3)
	f.Add("", 0)
	f.Add("12:weird", 7)
	f.Fuzz(func(t *testing.T, partition string, i int) {
		if i < 0 {
			i = -i
		}
		if i < 0 {
			return
		}
		gi, gp := parseShardKey(shardKey(partition, i))
		if gi != i || gp != partition {
			t.Errorf("shardKey(%q, %d) parsed as %d, %q", partition, i, gi, gp)
		}
		// Any key parses without a panic.
		parseShardKey(partition)
	})
}

// FuzzEachRecord: a sealed batch of any bytes is refused or read, never a
// panic; a batch that seals records gives them back with their count.
func FuzzEachRecord(f *testing.F) {
	f.Add([]byte("F\x01abc"), []byte("{}"))
	f.Add([]byte{}, []byte("x"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		eachRecord(a, func([]byte) error { return nil })
		batchFetches(a)
		sealed := sealBatch(appendRecord(appendRecord(nil, a), b), 2)
		if n := batchFetches(sealed); n != 2 {
			t.Errorf("batchFetches = %d, want 2", n)
		}
		var got []string
		if err := eachRecord(sealed, func(r []byte) error { got = append(got, string(r)); return nil }); err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "\x00") != string(a)+"\x00"+string(b) || len(got) != 2 {
			t.Errorf("records %q, want %q and %q", got, a, b)
		}
	})
}
