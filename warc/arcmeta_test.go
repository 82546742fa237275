package warc

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/repaudit/repaudit/event"
)

// heritrixFiledesc is the block of an ARC v1.1 filedesc record as
// Heritrix 1.x writes it (trimmed).
const heritrixFiledesc = `1 1 InternetArchive
URL IP-address Archive-date Content-type Archive-length
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<arcmetadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:arc="http://archive.org/arc/1.0/" xmlns="http://archive.org/arc/1.0/">
<arc:software>Heritrix 1.14.0 http://crawler.archive.org</arc:software>
<dcterms:isPartOf>shallow-2008</dcterms:isPartOf>
<arc:operator>Admin</arc:operator>
<arc:http-header-user-agent>Mozilla/5.0 (compatible; heritrix/1.14.0 +http://crawler.archive.org)</arc:http-header-user-agent>
</arcmetadata>
`

func TestParseARCMetadata(t *testing.T) {
	tests := []struct {
		name, in string
		want     event.Header
	}{
		{"heritrix", heritrixFiledesc, event.Header{
			{Name: "software", Value: "Heritrix 1.14.0 http://crawler.archive.org"},
			{Name: "isPartOf", Value: "shallow-2008"},
			{Name: "operator", Value: "Admin"},
			{Name: "http-header-user-agent", Value: "Mozilla/5.0 (compatible; heritrix/1.14.0 +http://crawler.archive.org)"},
		}},
		{"v1.0 without XML", "1 0 Alexa Internet\nURL IP-address Archive-date Content-type Archive-length\n", nil},
		{"empty", "", nil},
		{"first of a name counts", "<m><arc:software>a</arc:software><arc:software>b</arc:software></m>", event.Header{{Name: "software", Value: "a"}}},
		{"white space folded", "<m><arc:operator>\n  Jane \t Doe\n</arc:operator></m>", event.Header{{Name: "operator", Value: "Jane Doe"}}},
		{"empty element skipped", "<m><arc:operator> </arc:operator><arc:operator>x</arc:operator></m>", event.Header{{Name: "operator", Value: "x"}}},
		{"element with children not a field", "<m><a><b>x</b> y</a></m>", event.Header{{Name: "b", Value: "x"}}},
		{"broken XML keeps what came before", "<m><arc:software>a</arc:software><arc:operator x</arc:operator><arc:robots>r</arc:robots>", event.Header{{Name: "software", Value: "a"}}},
		{"invalid UTF-8 ends the fields", "<m><arc:software>a</arc:software><arc:operator>caf\xe9</arc:operator></m>", event.Header{{Name: "software", Value: "a"}}},
		{"entities", "<m><arc:operator>A &amp; B</arc:operator></m>", event.Header{{Name: "operator", Value: "A & B"}}},
		{"other charset read as bytes", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><m><arc:operator>caf\xe9</arc:operator></m>", event.Header{{Name: "operator", Value: "café"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseARCMetadata([]byte(tt.in))
			if len(got) != len(tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("field %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestParseARCMetadataLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("<m>")
	for i := range 2 * maxARCMetaFields {
		b.WriteString("<f" + itoaTest(i) + ">" + strings.Repeat("v", 2*maxARCMetaValue) + "</f" + itoaTest(i) + ">")
	}
	b.WriteString("</m>")
	got := parseARCMetadata([]byte(b.String()))
	if len(got) != maxARCMetaFields {
		t.Errorf("%d fields, want %d", len(got), maxARCMetaFields)
	}
	for _, f := range got {
		if len(f.Value) != maxARCMetaValue {
			t.Fatalf("value of %d bytes, want the cap %d", len(f.Value), maxARCMetaValue)
		}
	}
}

func itoaTest(i int) string { return string(rune('a'+i/26)) + string(rune('a'+i%26)) }

// TestARCFiledescInfo reads the filedesc record of an ARC file: its XML
// fields are the warcinfo record's Info, as a WARC's warcinfo fields are.
func TestARCFiledescInfo(t *testing.T) {
	block := heritrixFiledesc
	data := "filedesc://x.arc 0.0.0.0 20080430204825 text/plain " + itoaDec(len(block)) + "\n" + block + "\n" +
		"http://e.com/ 1.2.3.4 20080430204826 text/html 19\nHTTP/1.0 200 OK\r\n\r\nx\n"
	for _, mode := range []uint8{0, 1} {
		r, err := NewReader(bytes.NewReader(fuzzInput([]byte(data), mode)), "x.arc", Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Type != "warcinfo" {
			t.Fatalf("first record type %q, want warcinfo", rec.Type)
		}
		if got, want := rec.Info.Get("http-header-user-agent"), "Mozilla/5.0 (compatible; heritrix/1.14.0 +http://crawler.archive.org)"; got != want {
			t.Errorf("http-header-user-agent = %q, want %q", got, want)
		}
		if got := rec.Info.Get("isPartOf"); got != "shallow-2008" {
			t.Errorf("isPartOf = %q, want shallow-2008", got)
		}
		rec, err = r.Next()
		if err != nil || rec.Capture == nil || rec.Capture.URL != "http://e.com/" || rec.Info != nil {
			t.Fatalf("second record %+v, %v; want the capture of http://e.com/ without Info", rec, err)
		}
	}
}

func itoaDec(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

// TestARCSampleFiledesc reads the public heritrix ARC sample's filedesc.
func TestARCSampleFiledesc(t *testing.T) {
	const path = "../../shared/fixtures/sample-warcs/IAH-20080430204825-00000-blackbook-truncated.arc.gz"
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	defer f.Close()
	r, err := NewReader(f, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"http-header-user-agent": "Mozilla/5.0 (compatible; heritrix/1.14.0 +http://crawler.archive.org)",
		"software":               "Heritrix @VERSION@ http://crawler.archive.org",
		"isPartOf":               "archive.org-shallow",
		"operator":               "Admin",
	} {
		if got := rec.Info.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

// FuzzARCMetadata checks that no filedesc block makes parseARCMetadata
// panic or keep more than its caps, or invalid UTF-8.
func FuzzARCMetadata(f *testing.F) {
	f.Add([]byte(heritrixFiledesc))
	f.Add([]byte("<m><a>x</a><a>y</b></m>"))
	f.Add([]byte("<?xml version=\"1.0\" encoding=\"EBCDIC\"?><m><a>&#xD800;</a></m>"))
	f.Add([]byte("<<<>>>&&&<![CDATA[x]]><!DOCTYPE m [<!ENTITY e \"x\">]><m>&e;</m>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := parseARCMetadata(data)
		if len(got) > maxARCMetaFields {
			t.Fatalf("%d fields over the cap", len(got))
		}
		for _, fl := range got {
			if len(fl.Value) > 3*maxARCMetaValue || !utf8.ValidString(fl.Value) || fl.Value == "" {
				t.Fatalf("field %q: value of %d bytes, valid UTF-8 %v", fl.Name, len(fl.Value), utf8.ValidString(fl.Value))
			}
		}
	})
}
