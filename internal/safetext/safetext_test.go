package safetext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"GPTBot/1.2 (+https://openai.com/gptbot)", "GPTBot/1.2 (+https://openai.com/gptbot)"},
		{"§ 2.4 — naïve 日本 …", "§ 2.4 — naïve 日本 …"},
		{"\x1b]0;pwned\x07\x1b[2J", `\x1b]0;pwned\x07\x1b[2J`},
		{"a\nb\rc\td", `a\nb\rc\td`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"c1 \u009b31m csi", `c1 \u009b31m csi`},
		{"\u0085next line", `\u0085next line`},
		{"file\u202egpj.exe", `file\u202egpj.exe`},
		{"\u2066x\u2069 \u200f \u061c \u2028", `\u2066x\u2069 \u200f \u061c \u2028`},
		{"bad \xff\xfe utf8 \xe2\x80", `bad \xff\xfe utf8 \xe2\x80`},
		{`back\slash \x1b stays`, `back\slash \x1b stays`},
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEscapeNoAlloc(t *testing.T) {
	s := "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot) — ok"
	if n := testing.AllocsPerRun(100, func() { _ = Escape(s) }); n != 0 {
		t.Errorf("Escape of safe text allocates %v times", n)
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	in := "kind\tcount\n\x1b[31mred\x1b[0m\t1\r\n\u202eevil\n"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(in))
	}
	if want := "kind\tcount\n\\x1b[31mred\\x1b[0m\t1\\r\n\\u202eevil\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	if NewWriter(w) != w {
		t.Error("NewWriter wraps a Writer twice")
	}
	if w.Unwrap() != &b {
		t.Error("Unwrap does not return the underlying writer")
	}
}

// TestWriterSplit: a character split across writes never passes raw.
func TestWriterSplit(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, c := range []byte("ok \u009b2J ok") {
		w.Write([]byte{c})
	}
	if strings.Contains(b.String(), "\u009b") || !strings.HasPrefix(b.String(), "ok ") {
		t.Errorf("got %q", b.String())
	}
}

func TestWriterError(t *testing.T) {
	for _, in := range []string{"plain", "\x1b[2J"} {
		if n, err := NewWriter(errWriter{}).Write([]byte(in)); err == nil || n != 0 {
			t.Errorf("Write(%q) to a failing writer = %d, %v; want 0 and the error", in, n, err)
		}
	}
}

type errWriter struct{}

func (errWriter) Write(p []byte) (int, error) { return 0, iotest.ErrTimeout }

// checkSafe fails when out holds anything a terminal would act on.
func checkSafe(t *testing.T, out string, keepLayout bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output %q is not valid UTF-8", out)
	}
	for _, r := range out {
		if keepLayout && (r == '\n' || r == '\t') {
			continue
		}
		if r < 0x20 || r == 0x7f || unsafeRune(r) {
			t.Fatalf("output %q holds %U", out, r)
		}
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b]0;x\x07", "\u202e\u0085\xff", "a\nb\tc", "日本\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Escape(s)
		checkSafe(t, out, false)
		if firstUnsafe(s, false) < 0 && out != s {
			t.Fatalf("safe %q changed to %q", s, out)
		}
		var b bytes.Buffer
		NewWriter(&b).Write([]byte(s))
		checkSafe(t, b.String(), true)
		if strings.Count(b.String(), "\n") != strings.Count(s, "\n") {
			t.Fatalf("writer changed the lines of %q: %q", s, b.String())
		}
	})
}

func BenchmarkEscape(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"clean", "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot) — /blog/ai-policy"},
		{"hostile", "Mozilla/5.0 \x1b]0;pwned\x07\x1b[2J (compatible; \u202eGPTBot/1.2)"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.s)))
			for b.Loop() {
				_ = Escape(c.s)
			}
		})
	}
}

func TestEscapeLines(t *testing.T) {
	for in, want := range map[string]string{
		"plain":            "plain",
		"a\nb\tc":          "a\nb\tc",
		"a\rb\x1b[2J\x07":  `a\rb\x1b[2J\x07`,
		"r\u202eev\u2066é": `r\u202eev\u2066é`,
	} {
		if got := EscapeLines(in); got != want {
			t.Errorf("EscapeLines(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAppendJSON(t *testing.T) {
	in := "a\x1b]0;x\x07\u202e\u009b\x7f\u2066é\n"
	data, err := json.Marshal(map[string]string{"k": in})
	if err != nil {
		t.Fatal(err)
	}
	got := AppendJSON(nil, data)
	if want := `{"k":"a\u001b]0;x\u0007\u202e\u009b\u007f\u2066é\n"}`; string(got) != want {
		t.Errorf("AppendJSON = %s, want %s", got, want)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["k"] != in {
		t.Errorf("decoded %q, %v; want %q", back["k"], err, in)
	}
}
