//go:build cgo

package main

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/report"
)

// TestAuditWARCRequestContentDigest: in audit, a WARC request record's
// body reaches the signature check, so a covered Content-Digest that does
// not match the archived body makes the signature invalid
// (content-digest-mismatch), and one that matches verifies.
func TestAuditWARCRequestContentDigest(t *testing.T) {
	f := newSigFixture(t)
	when := sigT0
	record := func(n int, path, digestOf, body string) string {
		sum := sha256.Sum256([]byte(digestOf))
		cd := "sha-256=:" + base64.StdEncoding.EncodeToString(sum[:]) + ":"
		params := `("@authority" "content-digest" "signature-agent";key="a");created=` + strconv.FormatInt(when.Unix(), 10) +
			";expires=" + strconv.FormatInt(when.Add(time.Minute).Unix(), 10) + `;keyid="` + f.keyid + `";tag="web-bot-auth"`
		base := "\"@authority\": example.com\n\"content-digest\": " + cd + "\n\"signature-agent\";key=\"a\": \"" + sigTestAgent + "\"\n\"@signature-params\": " + params
		sig := base64.StdEncoding.EncodeToString(ed25519.Sign(f.priv, []byte(base)))
		block := "POST " + path + " HTTP/1.1\r\nHost: example.com\r\nUser-Agent: " + sigTestUA + "\r\n" +
			"Content-Digest: " + cd + "\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n" +
			"Signature-Agent: a=\"" + sigTestAgent + "\"\r\nSignature-Input: sig1=" + params + "\r\nSignature: sig1=:" + sig + ":\r\n\r\n" + body
		return fmt.Sprintf("WARC/1.1\r\nWARC-Type: request\r\nWARC-Record-ID: <urn:uuid:req-%d>\r\nWARC-Date: %s\r\n"+
			"WARC-Target-URI: https://example.com%s\r\nContent-Type: application/http; msgtype=request\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
			n, when.Add(10*time.Second).Format(time.RFC3339), path, len(block), block)
	}
	dir := t.TempDir()
	warcFile := filepath.Join(dir, "requests.warc")
	data := record(1, "/match", "hello", "hello") + record(2, "/mismatch", "world", "WORLD")
	if err := os.WriteFile(warcFile, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, _, stderr := runCmd(t, "audit", warcFile, "--jwks", f.jwksFile, "--out", out)
	if code != exitOK {
		t.Fatalf("audit exit %d: %s", code, stderr)
	}
	db, err := report.Open(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Query(context.Background(), "select url, signature, signature_reasons from fetches order by url")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Rows {
		got = append(got, fmt.Sprintf("%v %v %v", r[0], r[1], r[2]))
	}
	want := []string{
		"https://example.com/match verified ",
		"https://example.com/mismatch invalid content-digest-mismatch",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("fetches:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
