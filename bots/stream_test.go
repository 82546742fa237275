package bots_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/repaudit/repaudit/bots"
)

func TestIdentifyAll(t *testing.T) {
	c := bots.Default()
	in := "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)\n" + `"unterminated` + "\n" + strings.Repeat("a", bots.MaxIdentifyLine+1) + "\nMozilla/5.0 (X11; Linux x86_64) Firefox/120.0"
	var out bytes.Buffer
	var told []int64
	bad, err := c.IdentifyAll(context.Background(), strings.NewReader(in), &out, true, func(n int64, _ error) { told = append(told, n) })
	if err != nil || bad != 2 {
		t.Fatalf("bad %d, err %v; want 2, nil", bad, err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4:\n%s", len(lines), out.String())
	}
	if !strings.HasPrefix(lines[0], "GPTBot\tcatalog\t") || !strings.HasPrefix(lines[1], "-\t-\t-\t-\terror: ") ||
		lines[2] != "-\t-\t-\t-\terror: line longer than 1048576 bytes" || !strings.HasPrefix(lines[3], "-\t-\t-\t-\tMozilla/5.0 (X11") {
		t.Errorf("lines:\n%s", out.String())
	}
	if len(told) != 2 || told[0] != 2 || told[1] != 3 {
		t.Errorf("onError got lines %v, want [2 3]", told)
	}
	out.Reset()
	if _, err := c.IdentifyAll(context.Background(), strings.NewReader("GPTBot/1.0\n"), &out, false, nil); err != nil ||
		!strings.HasPrefix(out.String(), `{"user_agent":"GPTBot/1.0","agent":"GPTBot",`) {
		t.Errorf("JSON: %v, %q", err, out.String())
	}
}

func TestIdentificationWriteText(t *testing.T) {
	var b bytes.Buffer
	r := bots.Identification{UserAgent: "a\tb\nc", Agent: "X", IdentifiedBy: "ua-token", Rule: "r", Matched: "X"}
	if err := r.WriteText(&b); err != nil || b.String() != "X\tua-token\tr\tX\ta b c\n" {
		t.Errorf("got %q, %v", b.String(), err)
	}
}

func TestWriteTable(t *testing.T) {
	c, err := bots.Load(strings.NewReader(`{"ExampleTableBot": {"operator": "Example\tLabs", "function": "AI Assistants"}}`), "t.json")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.WriteTable(&b, []string{"t.json"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "# crawler-user-agents ") || lines[1] != "# merged: t.json" || lines[2] != "# 1 bots" ||
		!strings.HasPrefix(lines[3], "TOKEN  ") || !strings.HasPrefix(lines[4], "ExampleTableBot  ") || !strings.Contains(lines[4], "Example Labs") {
		t.Errorf("table:\n%s", b.String())
	}
}

func TestWriteJSON(t *testing.T) {
	c, err := bots.Load(strings.NewReader(`{"ExampleJSONBot": {"operator": "Example <Labs>", "function": "AI Assistants"}}`), "t.json")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.WriteJSON(&b, []string{"t.json"}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Data bots.ListedData `json:"data"`
		Bots []bots.Listed   `json:"bots"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Data.Files) != 1 || len(doc.Bots) != 1 || doc.Bots[0].Token != "ExampleJSONBot" || !strings.Contains(b.String(), `"Example <Labs>"`) || !strings.HasPrefix(b.String(), "{\n  \"data\": {") {
		t.Errorf("document:\n%s", b.String())
	}
}

func TestNearTokens(t *testing.T) {
	c := bots.Default()
	if got := c.NearTokens("gptbot", 5); len(got) == 0 || got[0] != "GPTBot" {
		t.Errorf("NearTokens(gptbot) = %q, want GPTBot first", got)
	}
	if got := c.NearTokens("zzzzzzzzzzzzzzzz", 5); len(got) != 0 {
		t.Errorf("NearTokens(zzz...) = %q, want none", got)
	}
}
