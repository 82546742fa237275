package discovery

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/repaudit/repaudit/identity"
	"github.com/repaudit/repaudit/netfetch"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/warc"
)

var fetchTime = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// registry04Server serves hand-written documents in the shapes of
// draft-meunier-webbotauth-registry-04: a card with a boolean
// rfc9309-compliance, purpose and ips_uri (§3.2.3, §3.2.5, §3.2.10) whose
// keys are at its origin's key directory (no jwks_uri), its JAFAR IP list,
// a registry-03 card listing directives, a card whose ips_uri is missing,
// and a card naming another client_id (§4.1: refused).
func registry04Server(t *testing.T) *httptest.Server {
	t.Helper()
	x := base64.RawURLEncoding.EncodeToString(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32)).Public().(ed25519.PublicKey))
	jwks := `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + x + `"}]}`
	mux := http.NewServeMux()
	base := func(r *http.Request) string { return "https://" + r.Host }
	mux.HandleFunc("/heron", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"client_id":%q,"client_name":"Heron Crawler","web_bot_auth":{"rfc9309-product-token":"HeronCrawler",
			"rfc9309-compliance":true,"purpose":"search","ips_uri":%q}}`, base(r)+"/heron", base(r)+"/heron-ips.json")
	})
	mux.HandleFunc(DirectoryPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/http-message-signatures-directory+json")
		io.WriteString(w, jwks)
	})
	mux.HandleFunc("/heron-ips.json", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"creationTime":"2026-10-30T08:00:00Z","prefixes":[{"ipv4Prefix":"198.51.100.0/24"},{"ipv6Prefix":"2001:db8:40::/48"}]}`)
	})
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"client_id":%q,"jwks":%s,"web_bot_auth":{"rfc9309-compliance":["User-Agent","Disallow"],"ips_uri":%q}}`,
			base(r)+"/old", jwks, base(r)+"/gone.json")
	})
	mux.HandleFunc("/other", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"client_id":"https://elsewhere.example/other","client_name":"Other"}`)
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestResolveRegistry04(t *testing.T) {
	srv := registry04Server(t)
	reg := "# registry-04 §4.2 syntax\n" + srv.URL + "/heron\n" + srv.URL + "/old\nhttp://insecure.example/card\n" + srv.URL + "/other\n"
	entries, probs := identity.ParseRegistry(strings.NewReader(reg), "reg.txt")
	client := netfetch.New(netfetch.Options{AllowPrivate: true, Timeout: 5 * time.Second,
		TLSConfig: srv.Client().Transport.(*http.Transport).TLSClientConfig, UserAgent: "test"})
	var out bytes.Buffer
	ww := warc.NewWriter(&out, warc.WriterOptions{})
	r := New(client, ww, func() time.Time { return fetchTime }, 1<<20)
	if err := r.WriteWarcinfo("cards.warc.gz", "reg.txt", "test", "repaudit/test"); err != nil {
		t.Fatal(err)
	}
	var got []Entry
	failed, err := r.Resolve(context.Background(), "reg.txt", entries, probs, func(e Entry) { got = append(got, e) })
	if err != nil {
		t.Fatal(err)
	}
	if failed != 3 || len(got) != 4 {
		t.Fatalf("failed %d of %d entries; want 3 of 4 (%+v)", failed, len(got), got)
	}

	heron := got[0]
	if !heron.OK || len(heron.Steps) != 3 {
		t.Fatalf("heron: ok %v, %d steps; want ok, card, key directory, ips_uri", heron.OK, len(heron.Steps))
	}
	c := heron.Steps[0].Card
	if c == nil || c.RFC9309Compliance != identity.ComplianceTrue || c.Purpose != "search" || c.IPsURI != srv.URL+"/heron-ips.json" {
		t.Errorf("heron card = %+v; want compliance true, purpose search, its ips_uri", c)
	}
	if k := heron.Steps[1]; k.Kind != StepKeys || k.What != "key directory" || k.URL != srv.URL+DirectoryPath || !k.Got || k.Count != 1 {
		t.Errorf("heron keys step = %+v; want the origin's key directory with 1 key", k)
	}
	ips := heron.Steps[2]
	if ips.Kind != StepIPs || !ips.Got || ips.Count != 2 || !ips.Created.Equal(time.Date(2026, 10, 30, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("heron ips_uri step = %+v; want 2 prefixes of 2026-10-30T08:00:00Z", ips)
	}

	old := got[1]
	if old.OK || len(old.Steps) != 3 {
		t.Fatalf("old card: ok %v steps %+v; want a card, inline jwks and a refused ips_uri", old.OK, old.Steps)
	}
	if n := old.Steps[0].Notes; len(n) != 1 || n[0].Code != problem.CardOlderDraftShape || !strings.Contains(n[0].Message, "registry-03") {
		t.Errorf("old card notes = %v; want one card-older-draft-shape naming registry-03", n)
	}
	if s := old.Steps[2]; s.Kind != StepIPs || s.Got || !strings.Contains(s.Refused, "404") {
		t.Errorf("old card ips_uri step = %+v; want refused with the 404", s)
	}

	if p := got[2].Steps[0]; p.Kind != StepRegistryProblem || p.Problem.Code != problem.RegistryNotHTTPS {
		t.Errorf("line 4 = %+v; want a registry-not-https problem", p)
	}
	if s := got[3].Steps[0]; s.Kind != StepCard || !s.Got || !strings.Contains(s.Refused, "elsewhere.example") {
		t.Errorf("mismatched card = %+v; want refused naming its client_id", s)
	}
	// warcinfo, then one request and response per exchange: heron card,
	// directory, list; old card, its missing list; the mismatched card.
	if n := ww.Records(); n != 1+2*6 {
		t.Errorf("%d WARC records; want 13", n)
	}
}
