package wayback

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestQuery(t *testing.T) {
	q := Query{URL: "example.com/robots.txt", From: "2020", To: "20251231235959"}
	want := "https://web.archive.org/cdx/search/cdx?url=example.com%2Frobots.txt&output=json&fl=timestamp,original,statuscode,digest&collapse=digest&gzip=false&from=2020&to=20251231235959"
	if got := q.At("https://web.archive.org/"); got != want {
		t.Errorf("At = %q\nwant %q", got, want)
	}
	if got := (Query{URL: "a.example/robots.txt"}).At("https://x"); strings.Contains(got, "from=") || strings.Contains(got, "to=") {
		t.Errorf("empty From/To in %q", got)
	}
}

// The README of internetarchive/wayback's CDX server shows this answer
// (url=archive.org&output=json&limit=3); fl= narrows it to our fields.
const readmeAnswer = `[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],
 ["org,archive)/", "19970126045828", "http://www.archive.org:80/", "text/html", "200", "Q4YULN754FHV2U6Q5JUT6Q2P57WEWNNY", "1415"],
 ["org,archive)/", "19971011050034", "http://www.archive.org:80/", "text/html", "200", "XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3", "1402"],
 ["org,archive)/", "19971211122953", "http://www.archive.org:80/", "text/html", "200", "XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3", "1405"]]`

func TestParseCDX(t *testing.T) {
	caps, notes, err := ParseCDX([]byte(readmeAnswer))
	if err != nil || len(notes) != 0 || len(caps) != 3 {
		t.Fatalf("README answer: %d captures, notes %v, err %v", len(caps), notes, err)
	}
	if c := caps[0]; c.Row != 1 || c.Timestamp != "19970126045828" || !c.Time.Equal(time.Date(1997, 1, 26, 4, 58, 28, 0, time.UTC)) ||
		c.Original != "http://www.archive.org:80/" || c.Status != 200 || c.Digest != "Q4YULN754FHV2U6Q5JUT6Q2P57WEWNNY" {
		t.Errorf("first capture %+v", c)
	}

	ours := `[["timestamp","original","statuscode","digest"],
["20200101000000","https://example.com/robots.txt","200","A"],
["20200201000000","https://example.com/robots.txt","-","B"],
["2020","https://example.com/robots.txt","200","C"],
["20200301000000","/robots.txt","200","D"],
["20200401000000","https://example.com/robots.txt","OK","E"],
["20200501000000","https://example.com/robots.txt","503"],
["20200601000000","https://example.com/robots.txt","404","F"],
[],
["resumekey"]]`
	caps, notes, err = ParseCDX([]byte(ours))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range caps {
		got = append(got, c.Timestamp[:6]+":"+strconv.Itoa(c.Status))
	}
	if strings.Join(got, " ") != "202001:200 202002:0 202006:404" {
		t.Errorf("captures %v", got)
	}
	if len(notes) != 4 || !strings.Contains(notes[0], "row 3: timestamp") || !strings.Contains(notes[3], "row 6: 3 fields") {
		t.Errorf("notes %q", notes)
	}

	for _, empty := range []string{"[]", "[[\"timestamp\",\"original\"]]", " [ ] "} {
		if caps, notes, err := ParseCDX([]byte(empty)); err != nil || len(caps) != 0 || len(notes) != 0 {
			t.Errorf("%q: %v %v %v", empty, caps, notes, err)
		}
	}
	for _, bad := range []string{"", "{}", "<html>", `[["timestamp"],["x"]]`, `[[1,2]]`, `[["original","statuscode"]]`} {
		if _, _, err := ParseCDX([]byte(bad)); !errors.Is(err, ErrNotCDX) {
			t.Errorf("%q: err %v, want ErrNotCDX", bad, err)
		}
	}
}

func TestRawAndOriginalURL(t *testing.T) {
	if got := RawURL("https://web.archive.org/", "20200101000000", "http://example.com:80/robots.txt"); got != "https://web.archive.org/web/20200101000000id_/http://example.com:80/robots.txt" {
		t.Errorf("RawURL = %q", got)
	}
	tests := []struct{ in, want string }{
		{"https://web.archive.org/web/20200101000000id_/https://example.com/new.txt", "https://example.com/new.txt"},
		{"/web/20200101000000/http://example.com/robots.txt?x=1", "http://example.com/robots.txt?x=1"},
		{"https://web.archive.org/web/20200101000000id_/https:/example.com/a", "https://example.com/a"},
		{"https://example.com/robots.txt", ""},
		{"/web/20200101000000id_/not-a-url", ""},
		{"/web/x/https://example.com/", ""},
	}
	for _, tt := range tests {
		got, ok := OriginalURL(tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("OriginalURL(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

func FuzzParseCDX(f *testing.F) {
	f.Add([]byte(readmeAnswer))
	f.Add([]byte(`[["timestamp","original","statuscode"],["20200101000000","https://a/robots.txt","-"],[],["k"]]`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		caps, _, err := ParseCDX(data)
		if err != nil {
			return
		}
		for _, c := range caps {
			if c.Time.IsZero() || c.Original == "" || c.Status < 0 || c.Status > 999 || c.Row < 1 {
				t.Fatalf("unusable capture returned: %+v", c)
			}
			OriginalURL(RawURL("https://web.archive.org", c.Timestamp, c.Original))
		}
	})
}
