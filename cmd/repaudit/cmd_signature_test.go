package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/identity"
)

// sigFixture is a signer with its key written as a JWK Set file and as a
// card file, and helpers to write signed request lines.
type sigFixture struct {
	priv     ed25519.PrivateKey
	keyid    string
	jwksFile string
	cardFile string
}

const (
	sigTestCardID = "https://bot.example/card"
	sigTestUA     = "Mozilla/5.0 ExampleBot/1.0"
)

func newSigFixture(t *testing.T) *sigFixture {
	t.Helper()
	seed := make([]byte, ed25519.SeedSize)
	seed[0] = 42
	priv := ed25519.NewKeyFromSeed(seed)
	x := base64.RawURLEncoding.EncodeToString(priv.Public().(ed25519.PublicKey))
	jwks := `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + x + `"}]}`
	keys, _, err := identity.ParseJWKS([]byte(jwks), "fixture")
	if err != nil || len(keys) != 1 {
		t.Fatalf("fixture key: %v", err)
	}
	dir := t.TempDir()
	f := &sigFixture{priv: priv, keyid: keys[0].Thumbprint,
		jwksFile: filepath.Join(dir, "trusted.jwks.json"), cardFile: filepath.Join(dir, "card.json")}
	card := `{"client_id":"` + sigTestCardID + `","client_name":"Example Bot","jwks":` + jwks +
		`,"web_bot_auth":{"expected-user-agent":"Mozilla/5.0 ExampleBot","rfc9309-product-token":"ExampleBot"}}`
	for name, data := range map[string]string{f.jwksFile: jwks, f.cardFile: card} {
		if err := os.WriteFile(name, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

var sigT0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// sigTestAgent is the Signature-Agent origin of the fixture's requests;
// no key snapshot is ever known for it, so keys come from --jwks or cards.
const sigTestAgent = "https://bot.example"

// line returns one input JSON line for a request to path from ip, signed
// over @authority and the Signature-Agent member a with the window
// [sigT0, sigT0+1m]. agent "" is sigTestAgent (a directory origin), "none"
// sends no Signature-Agent, anything else is a type=cimd member.
func (f *sigFixture) line(t *testing.T, path, ip, agent string) string {
	t.Helper()
	comps := `"@authority"`
	base := "\"@authority\": example.com\n"
	headers := map[string]any{"User-Agent": []string{sigTestUA}}
	switch agent {
	case "none":
	case "":
		comps += ` "signature-agent";key="a"`
		base += `"signature-agent";key="a": "` + sigTestAgent + "\"\n"
		headers["Signature-Agent"] = `a="` + sigTestAgent + `"`
	default:
		comps += ` "signature-agent";key="a"`
		base += `"signature-agent";key="a": "` + agent + `";type=cimd` + "\n"
		headers["Signature-Agent"] = `a="` + agent + `";type=cimd`
	}
	params := "(" + comps + ");created=" + strconv.FormatInt(sigT0.Unix(), 10) + ";expires=" +
		strconv.FormatInt(sigT0.Add(time.Minute).Unix(), 10) + ";keyid=\"" + f.keyid + "\";tag=\"web-bot-auth\""
	base += `"@signature-params": ` + params
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(f.priv, []byte(base)))
	headers["Signature-Input"] = []string{"sig1=" + params}
	headers["Signature"] = "sig1=:" + sig + ":" // a plain string is accepted too
	return jsonLine(t, map[string]any{
		"time": sigT0.Add(10 * time.Second).Format(time.RFC3339), "method": "GET", "scheme": "https",
		"authority": "example.com", "path": path, "ip": ip, "headers": headers,
	})
}

func jsonLine(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runCheck runs "repaudit signature check" with stdin and decodes the
// JSON lines it writes.
func runCheck(t *testing.T, args []string, stdin string) (code int, out []map[string]any, stderr string) {
	t.Helper()
	var so, se bytes.Buffer
	code = run(context.Background(), append([]string{"signature", "check"}, args...), stdio{Stdin: strings.NewReader(stdin), Stdout: &so, Stderr: &se})
	for _, l := range strings.Split(strings.TrimSpace(so.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("output line %q is not JSON: %v", l, err)
		}
		out = append(out, m)
	}
	return code, out, se.String()
}

func reasonsOf(m map[string]any) []string {
	var rs []string
	for _, r := range m["reasons"].([]any) {
		rs = append(rs, r.(string))
	}
	return rs
}

func TestSignatureCheck(t *testing.T) {
	f := newSigFixture(t)
	unsigned := jsonLine(t, map[string]any{"time": sigT0.Format(time.RFC3339), "method": "GET", "authority": "example.com", "path": "/u",
		"headers": map[string]any{"User-Agent": []string{sigTestUA}}})
	vector := vectorLine(t)

	for _, c := range []struct {
		name     string
		args     []string
		in       []string
		wantCode int
		want     []map[string]any // fields checked per output line
	}{
		{"trusted key from --jwks", []string{"--jwks", f.jwksFile, "--jsonl"}, []string{f.line(t, "/a", "192.0.2.1", "")}, exitOK,
			[]map[string]any{{"verdict": "verified", "agent": "trusted-store", "keyid": f.keyid}}},
		{"no keys at all", []string{"--jsonl"}, []string{f.line(t, "/a", "192.0.2.1", "")}, exitOK,
			[]map[string]any{{"verdict": "unverified", "reasons": "no-key-snapshot"}}},
		{"card keys via User-Agent claim, no Signature-Agent", []string{"--card", f.cardFile, "--jsonl"}, []string{f.line(t, "/a", "192.0.2.1", "none")}, exitOK,
			[]map[string]any{{"verdict": "unverified", "reasons": "signature-agent-absent", "agent": sigTestCardID, "claimed": sigTestCardID}}},
		{"trusted key, no Signature-Agent", []string{"--jwks", f.jwksFile, "--jsonl"}, []string{f.line(t, "/a", "192.0.2.1", "none")}, exitOK,
			[]map[string]any{{"verdict": "unverified", "reasons": "signature-agent-absent", "agent": "trusted-store"}}},
		{"body_b64 matches Content-Digest", []string{"--jwks", f.jwksFile, "--jsonl"}, []string{f.digestLine(t, "hello", "hello", true)}, exitOK,
			[]map[string]any{{"verdict": "verified"}}},
		{"body_b64 does not match Content-Digest", []string{"--jwks", f.jwksFile, "--jsonl"}, []string{f.digestLine(t, "hello", "HELLO", true)}, exitOK,
			[]map[string]any{{"verdict": "invalid", "reasons": "content-digest-mismatch"}}},
		{"no body_b64: Content-Digest unchecked", []string{"--jwks", f.jwksFile, "--jsonl"}, []string{f.digestLine(t, "hello", "", false)}, exitOK,
			[]map[string]any{{"verdict": "verified", "reasons": "content-digest-unchecked"}}},
		{"body_b64 not base64", []string{"--jwks", f.jwksFile, "--jsonl"}, []string{strings.Replace(f.digestLine(t, "hello", "hello", true), `"body_b64":"aGVsbG8="`, `"body_b64":"*not*"`, 1)}, exitUsage,
			[]map[string]any{{"verdict": nil}}},
		{"headers_complete: covered header absent", []string{"--jwks", f.jwksFile, "--jsonl"}, []string{f.completeLine(t)}, exitOK,
			[]map[string]any{{"verdict": "invalid", "reasons": "missing-component"}}},
		{"card keys via Signature-Agent type=cimd", []string{"--card", f.cardFile, "--jsonl"}, []string{f.line(t, "/a", "192.0.2.1", sigTestCardID)}, exitOK,
			[]map[string]any{{"verdict": "verified", "agent": sigTestCardID, "agent_shape": "typed"}}},
		{"unsigned claimant", []string{"--card", f.cardFile, "--jsonl"}, []string{unsigned}, exitOK,
			[]map[string]any{{"verdict": "unsigned", "claimed": sigTestCardID}}},
		{"replay on another path", []string{"--jwks", f.jwksFile, "--jsonl"}, []string{f.line(t, "/a", "192.0.2.1", ""), f.line(t, "/b", "192.0.2.1", "")}, exitOK,
			[]map[string]any{{"verdict": "verified", "replay": nil}, {"verdict": "verified", "replay": "replay: same signature first seen at 2025-06-01T12:00:10Z on /a from 192.0.2.1 (stdin:1); now different path /b"}}},
		{"bad lines are reported and skipped", []string{"--jwks", f.jwksFile, "--jsonl"}, []string{"{not json", `{"time":"yesterday"}`, `{"ip":"999.1.1.1"}`, "", f.line(t, "/a", "192.0.2.1", "")}, exitUsage,
			[]map[string]any{{"line": 1.0, "verdict": nil}, {"line": 2.0}, {"line": 3.0}, {"line": 5.0, "verdict": "verified"}}},
		{"test key flagged", []string{"--jwks", "../../signature/testdata/test-key-ed25519.jwks.json", "--jsonl"}, []string{vector}, exitOK,
			[]map[string]any{{"verdict": "invalid", "reasons": "test-key"}}},
		{"test key allowed", []string{"--jwks", "../../signature/testdata/test-key-ed25519.jwks.json", "--allow-test-keys", "--jsonl"}, []string{vector}, exitOK,
			[]map[string]any{{"verdict": "verified"}}},
		{"skew zero", []string{"--jwks", f.jwksFile, "--skew", "0s", "--jsonl"}, []string{lateLine(t, f)}, exitOK,
			[]map[string]any{{"verdict": "invalid", "reasons": "expired"}}},
		{"default skew", []string{"--jwks", f.jwksFile, "--jsonl"}, []string{lateLine(t, f)}, exitOK,
			[]map[string]any{{"verdict": "verified"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, stderr := runCheck(t, c.args, strings.Join(c.in, "\n")+"\n")
			if code != c.wantCode {
				t.Errorf("got exit %d, want %d; stderr: %s", code, c.wantCode, stderr)
			}
			if len(out) != len(c.want) {
				t.Fatalf("got %d output lines, want %d: %v", len(out), len(c.want), out)
			}
			for i, want := range c.want {
				for k, w := range want {
					got := out[i][k]
					if k == "reasons" {
						if !slices.Contains(reasonsOf(out[i]), w.(string)) {
							t.Errorf("line %d: reasons %v lack %v", i+1, got, w)
						}
						continue
					}
					if got != w {
						t.Errorf("line %d: got %s=%v, want %v (line: %v)", i+1, k, got, w, out[i])
					}
				}
			}
			if c.name == "bad lines are reported and skipped" {
				for i := range 3 {
					if e, _ := out[i]["error"].(string); e == "" {
						t.Errorf("line %d: no error field: %v", i+1, out[i])
					}
				}
			}
		})
	}
}

// signedLine signs components (identifier, value) pairs plus the fixture's
// Signature-Agent member and returns the input object, ready for more
// fields.
func (f *sigFixture) signedLine(t *testing.T, headers map[string]any, comps [][2]string) map[string]any {
	t.Helper()
	comps = append(comps, [2]string{`"signature-agent";key="a"`, `"` + sigTestAgent + `"`})
	headers["Signature-Agent"] = `a="` + sigTestAgent + `"`
	var ids []string
	base := ""
	for _, c := range comps {
		ids = append(ids, c[0])
		base += c[0] + ": " + c[1] + "\n"
	}
	params := "(" + strings.Join(ids, " ") + ");created=" + strconv.FormatInt(sigT0.Unix(), 10) + ";expires=" +
		strconv.FormatInt(sigT0.Add(time.Minute).Unix(), 10) + ";keyid=\"" + f.keyid + "\";tag=\"web-bot-auth\""
	base += `"@signature-params": ` + params
	headers["Signature-Input"] = "sig1=" + params
	headers["Signature"] = "sig1=:" + base64.StdEncoding.EncodeToString(ed25519.Sign(f.priv, []byte(base))) + ":"
	return map[string]any{"time": sigT0.Add(10 * time.Second).Format(time.RFC3339), "method": "POST", "scheme": "https",
		"authority": "example.com", "path": "/submit", "headers": headers}
}

// digestLine is a POST covering Content-Digest of digestOf, with body as
// body_b64 when withBody.
func (f *sigFixture) digestLine(t *testing.T, digestOf, body string, withBody bool) string {
	t.Helper()
	sum := sha256.Sum256([]byte(digestOf))
	cd := "sha-256=:" + base64.StdEncoding.EncodeToString(sum[:]) + ":"
	m := f.signedLine(t, map[string]any{"Content-Digest": cd}, [][2]string{{`"@authority"`, "example.com"}, {`"content-digest"`, cd}})
	if withBody {
		m["body_b64"] = base64.StdEncoding.EncodeToString([]byte(body))
	}
	return jsonLine(t, m)
}

// completeLine covers Accept and leaves it out of a request marked
// headers_complete.
func (f *sigFixture) completeLine(t *testing.T) string {
	t.Helper()
	m := f.signedLine(t, map[string]any{}, [][2]string{{`"@authority"`, "example.com"}, {`"accept"`, "text/html"}})
	m["headers_complete"] = true
	return jsonLine(t, m)
}

// lateLine is a request 90 s after created: 30 s past expires.
func lateLine(t *testing.T, f *sigFixture) string {
	var m map[string]any
	if err := json.Unmarshal([]byte(f.line(t, "/a", "192.0.2.1", "")), &m); err != nil {
		t.Fatal(err)
	}
	m["time"] = sigT0.Add(90 * time.Second).Format(time.RFC3339)
	return jsonLine(t, m)
}

// vectorLine is a drafts' Ed25519 request vector that carries
// Signature-Agent and verifies.
func vectorLine(t *testing.T) string {
	data, err := os.ReadFile("../../signature/testdata/web_bot_auth_draft_request_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Key            string  `json:"key"`
		SignatureAgent *string `json:"signature_agent"`
		SignatureInput string  `json:"signature_input"`
		Signature      string  `json:"signature"`
		Verifies       bool    `json:"verifies"`
	}
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.Key == "ed25519" && v.Verifies && v.SignatureAgent != nil {
			return jsonLine(t, map[string]any{"time": "2025-01-01T00:00:30Z", "method": "GET", "authority": "example.com",
				"path": "/path/to/resource", "headers": map[string]any{"Signature-Agent": *v.SignatureAgent,
					"Signature-Input": []string{v.SignatureInput}, "Signature": []string{v.Signature}}})
		}
	}
	t.Fatal("no verifying ed25519 vector with Signature-Agent")
	return ""
}

func TestSignatureCheckUsage(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want int
	}{
		{"no subcommand", []string{"signature"}, exitUsage},
		{"unknown subcommand", []string{"signature", "verify"}, exitUsage},
		{"help", []string{"signature", "-h"}, exitOK},
		{"unknown flag", []string{"signature", "check", "--nope"}, exitUsage},
		{"positional argument", []string{"signature", "check", "file.jsonl"}, exitUsage},
		{"missing jwks file", []string{"signature", "check", "--jwks", "/nonexistent/x.json"}, exitUsage},
		{"negative skew", []string{"signature", "check", "--skew", "-1s"}, exitUsage},
	} {
		t.Run(c.name, func(t *testing.T) {
			var so, se bytes.Buffer
			if got := run(context.Background(), c.args, stdio{Stdin: strings.NewReader(""), Stdout: &so, Stderr: &se}); got != c.want {
				t.Errorf("got exit %d, want %d; stderr: %s", got, c.want, se.String())
			}
		})
	}
}

// TestSignatureCheckReadable checks the output for people (no --jsonl).
func TestSignatureCheckReadable(t *testing.T) {
	f := newSigFixture(t)
	var so, se bytes.Buffer
	in := f.line(t, "/a", "192.0.2.1", sigTestCardID) + "\n{bad\n"
	code := run(context.Background(), []string{"signature", "check", "--card", f.cardFile}, stdio{Stdin: strings.NewReader(in), Stdout: &so, Stderr: &se})
	if code != exitUsage {
		t.Errorf("got exit %d, want %d", code, exitUsage)
	}
	lines := strings.Split(strings.TrimSpace(so.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2: %q", len(lines), so.String())
	}
	if want := "line 1: verified claims " + sigTestCardID + ": sig1 keyid=" + f.keyid; !strings.HasPrefix(lines[0], want) {
		t.Errorf("got %q, want prefix %q", lines[0], want)
	}
	if !strings.HasPrefix(lines[1], "line 2: error: ") {
		t.Errorf("got %q, want an error line", lines[1])
	}
}
