package listing

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func readAll(t *testing.T, r io.Reader) ([]Entry, *Reader) {
	t.Helper()
	lr := NewReader(r, "list")
	var got []Entry
	for e, err := range lr.All() {
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		got = append(got, e)
	}
	return got, lr
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestShapes(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		shape string
		want  []Entry
	}{
		{"plain", "# listing\nhttps://example.com/a\n\nhttp://example.com/b?x=1\n", Plain, []Entry{
			{URL: "https://example.com/a"}, {URL: "http://example.com/b?x=1"}}},
		{"cdx legend", " CDX N b a m s k r M S V g\ncom,example)/a 20250301120000 https://example.com/a text/html 200 AAA - - 100 0 f.warc.gz\n", CDX, []Entry{
			{URL: "https://example.com/a", Time: ts("2025-03-01T12:00:00Z")}}},
		{"cdx no legend", "com,example)/a 20250301 https://example.com/a text/html 200\n", CDX, []Entry{
			{URL: "https://example.com/a", Time: ts("2025-03-01T00:00:00Z")}}},
		{"cdxj", `com,example)/a 20250301120000 {"url": "https://example.com/a", "status": "200"}` + "\n", CDXJ, []Entry{
			{URL: "https://example.com/a", Time: ts("2025-03-01T12:00:00Z")}}},
		{"csv header", "url,time,agent\nhttps://example.com/a,2025-03-01T12:00:00Z,googlebot\nhttps://example.com/b,,\n\"https://example.com/c,d\",2025-03-02\n", CSV, []Entry{
			{URL: "https://example.com/a", Time: ts("2025-03-01T12:00:00Z"), Agent: "googlebot"},
			{URL: "https://example.com/b"},
			{URL: "https://example.com/c,d", Time: ts("2025-03-02T00:00:00Z")}}},
		{"csv with spaces", "https://example.com/a,,Bot 2025 x\n", CSV, []Entry{
			{URL: "https://example.com/a", Agent: "Bot 2025 x"}}},
		{"csv no header", "https://example.com/a,20250301120000\r\n", CSV, []Entry{
			{URL: "https://example.com/a", Time: ts("2025-03-01T12:00:00Z")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, lr := readAll(t, iotest.OneByteReader(strings.NewReader(tt.in)))
			if lr.Shape() != tt.shape {
				t.Errorf("shape = %q, want %q", lr.Shape(), tt.shape)
			}
			if p := lr.Problems(); len(p) != 0 {
				t.Errorf("problems: %v", p)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d entries, want %d: %+v", len(got), len(tt.want), got)
			}
			for i := range got {
				g, w := got[i], tt.want[i]
				if g.URL != w.URL || !g.Time.Equal(w.Time) || g.Agent != w.Agent {
					t.Errorf("entry %d = %+v, want %+v", i, g, w)
				}
				if g.Source.File != "list" || g.Source.Line == 0 {
					t.Errorf("entry %d source = %+v", i, g.Source)
				}
			}
		})
	}
}

func TestBadLinesReportedWithLine(t *testing.T) {
	in := "url,time\nhttps://example.com/a,yesterday\nnot-a-url,2025-01-01\nhttps://example.com/ok,2025-01-01\n"
	got, lr := readAll(t, strings.NewReader(in))
	if len(got) != 1 || got[0].URL != "https://example.com/ok" || got[0].Source.Line != 4 {
		t.Fatalf("got %+v, want only the line-4 entry", got)
	}
	p := lr.Problems()
	if len(p) != 2 {
		t.Fatalf("got %d problems, want 2: %v", len(p), p)
	}
	if p[0].Source.Line != 2 || p[0].Code != "listing-bad-time" {
		t.Errorf("problem 0 = %+v, want line 2 listing-bad-time", p[0])
	}
	if p[1].Source.Line != 3 || p[1].Code != "listing-bad-url" {
		t.Errorf("problem 1 = %+v, want line 3 listing-bad-url", p[1])
	}
}

func TestLongLineSkipped(t *testing.T) {
	in := "https://example.com/" + strings.Repeat("a", MaxLine+10) + "\nhttps://example.com/b\n"
	got, lr := readAll(t, strings.NewReader(in))
	if len(got) != 1 || got[0].Source.Line != 2 {
		t.Fatalf("got %+v", got)
	}
	if p := lr.Problems(); len(p) != 1 || p[0].Code != "listing-line-too-long" {
		t.Fatalf("problems = %v", p)
	}
}

func TestReadErrorIsSticky(t *testing.T) {
	lr := NewReader(iotest.DataErrReader(iotest.TimeoutReader(strings.NewReader("https://example.com/a\nhttps://example.com/b\n"))), "x")
	var err error
	for range 5 {
		if _, err = lr.Next(); err != nil {
			break
		}
	}
	if err == nil || err == io.EOF {
		t.Fatalf("err = %v, want a read error", err)
	}
	if _, err2 := lr.Next(); err2 != err {
		t.Errorf("second call err = %v, want sticky %v", err2, err)
	}
}

func TestParseTime(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string
		bad  bool
	}{
		{"2025", "2025-01-01T00:00:00Z", false},
		{"202503", "2025-03-01T00:00:00Z", false},
		{"20250301123456", "2025-03-01T12:34:56Z", false},
		{"20250301123456789", "2025-03-01T12:34:56Z", false},
		{"2025-03-01T12:34:56+02:00", "2025-03-01T10:34:56Z", false},
		{"2025-03-01", "2025-03-01T00:00:00Z", false},
		{"20250", "", true},
		{"soon", "", true},
	} {
		got, err := ParseTime(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseTime(%q) = %v, want error", tt.in, got)
			}
			continue
		}
		if err != nil || !got.Equal(ts(tt.want)) || got.Location() != time.UTC {
			t.Errorf("ParseTime(%q) = %v, %v; want %s UTC", tt.in, got, err, tt.want)
		}
	}
}

func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"https://example.com/a\n",
		" CDX N b a m s k\ncom,example)/ 2025 https://example.com/ x 200 d\n",
		"k 20250101 {\"url\":\"https://e/\"}\n",
		"url,time,agent\nhttps://e/,2025-01-01,bot\n",
		"\"unterminated,\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lr := NewReader(strings.NewReader(string(data)), "fuzz")
		for n := 0; n < 10000; n++ {
			e, err := lr.Next()
			if err != nil {
				return
			}
			if !strings.HasPrefix(e.URL, "http") {
				t.Fatalf("entry with non-http URL %q", e.URL)
			}
		}
	})
}
