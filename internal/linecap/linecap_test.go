package linecap

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

type seen struct {
	n       int64
	line    string
	tooLong bool
}

func TestEach(t *testing.T) {
	in := "ab\r\ncdefgh\n\nxy"
	br := bufio.NewReaderSize(iotest.OneByteReader(strings.NewReader(in)), 16)
	var got []seen
	flushes := 0
	err := Each(context.Background(), br, 4, func() error { flushes++; return nil }, func(n int64, line []byte, tooLong bool) error {
		got = append(got, seen{n, string(line), tooLong})
		return nil
	})
	want := []seen{{1, "ab", false}, {2, "", true}, {3, "", false}, {4, "xy", false}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("got %v, %v; want %v, nil", got, err, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	// One byte a read: the buffer is empty before every line and at the end.
	if flushes != 5 {
		t.Errorf("%d flushes, want 5", flushes)
	}
}

func TestEachStops(t *testing.T) {
	stop := errors.New("stop")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name  string
		ctx   context.Context
		r     io.Reader
		fn    error
		want  error
		lines int
	}{
		{"cancelled", ctx, strings.NewReader("a\n"), nil, context.Canceled, 0},
		{"fn error", context.Background(), strings.NewReader("a\nb\n"), stop, stop, 1},
		{"read error", context.Background(), io.MultiReader(strings.NewReader("a\n"), iotest.ErrReader(stop)), nil, stop, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := 0
			err := Each(tt.ctx, bufio.NewReader(tt.r), 10, nil, func(int64, []byte, bool) error { lines++; return tt.fn })
			if !errors.Is(err, tt.want) || lines != tt.lines {
				t.Errorf("got %v after %d lines, want %v after %d", err, lines, tt.want, tt.lines)
			}
			var re *ReadError
			if tt.name == "read error" && (!errors.As(err, &re) || re.Line != 2) {
				t.Errorf("got %v, want a *ReadError at line 2", err)
			}
		})
	}
}

// FuzzRead: lines never exceed the cap, and the lines within it are the
// input's lines.
func FuzzRead(f *testing.F) {
	f.Add([]byte("ab\ncd\r\nefghij\n"), 4)
	f.Add([]byte("\n\r\n\r"), 1)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		if max < 0 || max > 1<<10 || bytes.Contains(in, []byte("\r\r")) {
			// bufio.Reader.ReadLine may split CR runs at its buffer edge.
			return
		}
		br := bufio.NewReaderSize(bytes.NewReader(in), 16)
		var want []string
		for _, l := range strings.SplitAfter(string(in), "\n") {
			if l == "" {
				continue
			}
			if t, ok := strings.CutSuffix(l, "\n"); ok {
				l = strings.TrimSuffix(t, "\r") // LF or CRLF ends a line
			}
			want = append(want, l)
		}
		for i := 0; ; i++ {
			line, tooLong, err := Read(br, max)
			if err == io.EOF {
				if i != len(want) {
					t.Fatalf("%d lines, want %d", i, len(want))
				}
				return
			}
			if len(line) > max {
				t.Fatalf("line of %d bytes over the cap %d", len(line), max)
			}
			if i >= len(want) {
				t.Fatalf("more lines than the input has")
			}
			if tooLong != (len(want[i]) > max) || !tooLong && string(line) != want[i] {
				t.Fatalf("line %d: got %q, %v; want %q", i, line, tooLong, want[i])
			}
		}
	})
}

// Serve answers each line through Out, JSON without HTML escaping or
// text, and everything written reaches w by the end.
func TestServe(t *testing.T) {
	var w strings.Builder
	err := Serve(context.Background(), strings.NewReader("a<b\n"+strings.Repeat("x", 20)+"\nlast"), &w, 8,
		func(n int64, line []byte, tooLong bool, out *Out) error {
			if tooLong {
				_, err := fmt.Fprintf(out, "%d: too long\n", n)
				return err
			}
			return out.JSON(map[string]any{"n": n, "line": string(line)})
		})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"line":"a<b","n":1}` + "\n2: too long\n" + `{"line":"last","n":3}` + "\n"
	if w.String() != want {
		t.Errorf("Serve wrote %q, want %q", w.String(), want)
	}
}
