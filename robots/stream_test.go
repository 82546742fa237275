package robots

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/iotest"
)

func TestAnswerAll(t *testing.T) {
	q := func(agent, url string) string {
		b, _ := json.Marshal(map[string]string{"robots": "User-agent: ExampleBot\nDisallow: /private\n", "agent": agent, "url": url})
		return string(b)
	}
	in := q("ExampleBot", "/private/a") + "\n" + "{oops\n" + q("OtherBot", "/private/a") + "\n"
	var out bytes.Buffer
	var told []string
	bad, disallowed, err := NewAnswerer(DefaultMaxBytes).AnswerAll(context.Background(), iotest.OneByteReader(strings.NewReader(in)), &out,
		func(e string) { told = append(told, e) })
	if err != nil || bad != 1 || !disallowed {
		t.Fatalf("bad %d, disallowed %v, err %v; want 1, true, nil", bad, disallowed, err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], `{"allowed":false,"group":"ExampleBot","rule":"Disallow: /private","line":2`) ||
		!strings.HasPrefix(lines[1], `{"error":"line 2: not a JSON object: `) || !strings.HasPrefix(lines[2], `{"allowed":true,`) {
		t.Errorf("answers:\n%s", out.String())
	}
	if len(told) != 1 || !strings.HasPrefix(told[0], "line 2: not a JSON object") {
		t.Errorf("onError got %q", told)
	}
}

func TestAnswerAllCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	if _, _, err := NewAnswerer(DefaultMaxBytes).AnswerAll(ctx, strings.NewReader("{}\n"), &out, nil); err != context.Canceled || out.Len() != 0 {
		t.Errorf("got %v and %q, want context.Canceled and nothing written", err, out.String())
	}
}

func TestJudge(t *testing.T) {
	f := Parse([]byte("User-agent: ExampleBot\nDisallow: /private\n\nACAP-crawler: *\nACAP-disallow-index: /news/\n"), Options{})
	tests := []struct {
		usage, url string
		allowed    bool
	}{
		{"", "/private/x", false},
		{"", "/news/a", true},
		{"index", "/news/a", false},
	}
	for _, tt := range tests {
		allowed, evidence := f.Judge("ExampleBot", tt.usage, tt.url)
		if allowed != tt.allowed || evidence == "" {
			t.Errorf("Judge(%q, %q) = %v, %q; want %v with evidence", tt.usage, tt.url, allowed, evidence, tt.allowed)
		}
	}
}

func TestReadFile(t *testing.T) {
	p := t.TempDir() + "/robots.txt"
	if err := os.WriteFile(p, []byte("User-agent: *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, nil); err != nil || string(b) != "User-agent: *\n" {
		t.Errorf("file: %q, %v", b, err)
	}
	if b, err := ReadFile("-", strings.NewReader("Disallow: /\n")); err != nil || string(b) != "Disallow: /\n" {
		t.Errorf("stdin: %q, %v", b, err)
	}
	if _, err := ReadFile(p+".missing", nil); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "read robots.txt: ") {
		t.Errorf("missing: %v", err)
	}
}
