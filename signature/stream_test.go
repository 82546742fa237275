package signature_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/repaudit/repaudit/internal/linecap"
	"github.com/repaudit/repaudit/signature"
)

func TestCheckAll(t *testing.T) {
	store, line := checkFixture(t)
	in := line + "\n\nnot json\n" + strings.Repeat("x", signature.MaxCheckLine+1) + "\n"
	for _, jsonl := range []bool{false, true} {
		c := signature.NewChecker(store, signature.Options{})
		var out bytes.Buffer
		bad, err := c.CheckAll(context.Background(), iotest.HalfReader(strings.NewReader(in)), &out, jsonl)
		if err != nil || bad != 2 {
			t.Fatalf("jsonl %v: bad %d, err %v; want 2, nil", jsonl, bad, err)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("jsonl %v: %d result lines, want 3 (the blank line is skipped):\n%s", jsonl, len(lines), out.String())
		}
		want := []string{"line 1: verified", "line 3: error: ", "line 4: error: line longer than 1048576 bytes"}
		if jsonl {
			want = []string{`{"line":1,"verdict":"verified"`, `{"line":3,"reasons":null,"error":`, `{"line":4,"reasons":null,"error":"line longer than 1048576 bytes"}`}
		}
		for i, w := range want {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("jsonl %v: line %d = %q, want it to start %q", jsonl, i, lines[i], w)
			}
		}
	}
}

func TestCheckAllStops(t *testing.T) {
	store, line := checkFixture(t)
	c := signature.NewChecker(store, signature.Options{})
	var out bytes.Buffer
	broken := errors.New("broken pipe")
	_, err := c.CheckAll(context.Background(), iotest.ErrReader(broken), &out, false)
	var re *linecap.ReadError
	if !errors.As(err, &re) || !errors.Is(err, broken) {
		t.Errorf("read error: got %v, want a *linecap.ReadError", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.CheckAll(ctx, strings.NewReader(line+"\n"), &out, false); !errors.Is(err, context.Canceled) || out.Len() != 0 {
		t.Errorf("cancelled: got %v and %q, want context.Canceled and nothing", err, out.String())
	}
}

func TestCheckResultWriteText(t *testing.T) {
	tests := []struct {
		r    signature.CheckResult
		want string
	}{
		{signature.CheckResult{Line: 2, Error: "bad\x1b[31m"}, "line 2: error: bad\\x1b[31m\n"},
		{signature.CheckResult{Line: 1, Verdict: "invalid", Reasons: []string{"expired", "unknown_key"}, Claimed: "Example Bot", Evidence: "keyid k", Replay: "seen at line 1"},
			"line 1: invalid [expired, unknown_key] claims Example Bot: keyid k | seen at line 1\n"},
		{signature.CheckResult{Line: 3, Verdict: "unsigned", Reasons: []string{}}, "line 3: unsigned\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := tt.r.WriteText(&b); err != nil || b.String() != tt.want {
			t.Errorf("got %q, %v; want %q", b.String(), err, tt.want)
		}
	}
}
