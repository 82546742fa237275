package identity

import (
	"encoding/base64"
	"io"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"
)

// The registry example of draft-meunier-webbotauth-registry-03 §"Example".
const draftRegistry = `# An example list of bots
https://bot1.example.com/.well-known/http-message-signatures-directory
https://crawler2.example.com/.well-known/http-message-signatures-directory
# Now the list of platforms
https://zerotrust-gateway.example.com/v1/signature-agent-card
# Below is an inlined card with the data URL scheme
data:application/json,{"client_name":"Inline Bot","jwks_uri":"https://inline.example.com/.well-known/http-message-signatures-directory"}
`

func TestParseRegistry(t *testing.T) {
	card := `{"client_name":"B64 Bot","jwks_uri":"https://b.example/jwks"}`
	b64 := "data:application/json;base64," + base64.StdEncoding.EncodeToString([]byte(card))
	b64url := "data:application/json;base64," + strings.TrimRight(base64.URLEncoding.EncodeToString([]byte(card+"??>>")), "=")
	pct := "data:application/json," + url.PathEscape(card)
	type entry struct {
		url    string
		line   int
		inline string
	}
	tests := []struct {
		name      string
		in        string
		want      []entry
		wantProbs []string // "code@line"
	}{
		{
			name: "draft example",
			in:   draftRegistry,
			want: []entry{
				{"https://bot1.example.com/.well-known/http-message-signatures-directory", 2, ""},
				{"https://crawler2.example.com/.well-known/http-message-signatures-directory", 3, ""},
				{"https://zerotrust-gateway.example.com/v1/signature-agent-card", 5, ""},
				{`data:application/json,{"client_name":"Inline Bot","jwks_uri":"https://inline.example.com/.well-known/http-message-signatures-directory"}`, 7,
					`{"client_name":"Inline Bot","jwks_uri":"https://inline.example.com/.well-known/http-message-signatures-directory"}`},
			},
		},
		{
			name: "base64, base64url without padding, percent-encoded",
			in:   b64 + "\n" + b64url + "\n" + pct + "\n",
			want: []entry{{b64, 1, card}, {b64url, 2, card + "??>>"}, {pct, 3, card}},
		},
		{
			name: "trailing comments, white space, CRLF, lone CR, no final newline",
			in:   "  https://a.example/c  # the A card\r\n\t\r\nhttps://b.example/c#frag-is-comment\rhttps://c.example/c",
			want: []entry{{"https://a.example/c", 1, ""}, {"https://b.example/c", 3, ""}, {"https://c.example/c", 4, ""}},
		},
		{
			name: "byte order mark",
			in:   "\ufeffhttps://a.example/c\n",
			want: []entry{{"https://a.example/c", 1, ""}},
		},
		{
			name: "junk is reported with its line, the rest is read",
			in: "http://insecure.example/c\nftp://x.example/c\njust words\nhttps://a.example/c\nhttps://user:pw@a.example/c\n" +
				"https://\ndata:application/json;base64,!!!\ndata:nocomma\nhttps://a.example/with space\ndata:application/json,%zz\nhttps://ok.example/\x01x\n\xff\xfe\ndAtA\n",
			want: []entry{{"https://a.example/c", 4, ""}},
			wantProbs: []string{"registry-not-https@1", "registry-bad-entry@2", "registry-bad-entry@3", "registry-bad-url@5",
				"registry-bad-url@6", "registry-bad-data-url@7", "registry-bad-data-url@8", "registry-bad-entry@9",
				"registry-bad-data-url@10", "registry-bad-entry@11", "registry-bad-utf8@12", "registry-bad-entry@13"},
		},
		{
			name:      "overlong line",
			in:        "https://a.example/" + strings.Repeat("x", MaxRegistryLine) + "\nhttps://b.example/c\n",
			want:      []entry{{"https://b.example/c", 2, ""}},
			wantProbs: []string{"registry-line-too-long@1"},
		},
		{name: "empty", in: ""},
		{name: "comments only", in: "# a\n\n   # b\n"},
	}
	for _, tt := range tests {
		for _, oneByte := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				var r io.Reader = strings.NewReader(tt.in)
				if oneByte {
					r = iotest.OneByteReader(r)
				}
				entries, probs := ParseRegistry(r, "reg.txt")
				var got []entry
				for _, e := range entries {
					got = append(got, entry{e.URL, e.Line, string(e.Inline)})
				}
				if len(got) != len(tt.want) {
					t.Fatalf("got %d entries %+v, want %d %+v", len(got), got, len(tt.want), tt.want)
				}
				for i := range got {
					if got[i] != tt.want[i] {
						t.Errorf("entry %d = %+v, want %+v", i, got[i], tt.want[i])
					}
				}
				var gp []string
				for _, p := range probs {
					_, line, _ := strings.Cut(p.Source, "reg.txt:")
					gp = append(gp, string(p.Code)+"@"+line)
				}
				if strings.Join(gp, " ") != strings.Join(tt.wantProbs, " ") {
					t.Errorf("problems = %v, want %v", gp, tt.wantProbs)
				}
			})
		}
	}
}

func TestParseRegistryReadError(t *testing.T) {
	r := iotest.TimeoutReader(iotest.OneByteReader(strings.NewReader("https://a.example/c\nhttps://b.example/c\n")))
	entries, probs := ParseRegistry(r, "reg.txt")
	if len(entries) != 0 {
		t.Errorf("entries = %v, want none (reader fails after one byte)", entries)
	}
	if len(probs) != 1 || probs[0].Code != "registry-read-error" {
		t.Errorf("problems = %v, want one registry-read-error", probs)
	}
}
