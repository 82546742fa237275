package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// aiRobotsBody is shaped like ai.robots.txt's robots.json (a token
// mapped to operator, respect, function, frequency, description); the
// two bots are made up for this test.
const aiRobotsBody = `{
  "ExampleTrainBot": {
    "operator": "Example Labs",
    "respect": "Yes",
    "function": "Scrapes data to train LLMs.",
    "frequency": "No information.",
    "description": "A made-up crawler for tests."
  },
  "ExampleAskBot": {
    "operator": "Example Labs",
    "respect": "Unclear at this time.",
    "function": "AI Assistants",
    "frequency": "Takes action based on user prompts.",
    "description": "Another made-up crawler."
  }
}
`

// aiRobotsServer serves aiRobotsBody at /robots.json, an HTML page at
// /page, an empty object at /empty and 404 elsewhere, over TLS.
func aiRobotsServer(t *testing.T) (*httptest.Server, netHooks, *int) {
	t.Helper()
	requests := 0
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		switch r.URL.Path {
		case "/robots.json":
			io.WriteString(w, aiRobotsBody)
		case "/page":
			io.WriteString(w, "<html><body>not here</body></html>")
		case "/empty":
			io.WriteString(w, "{}")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, netHooks{tlsConfig: srv.Client().Transport.(*http.Transport).TLSClientConfig}, &requests
}

func runBotsFetchTest(hooks netHooks, args ...string) (int, string) {
	var se bytes.Buffer
	code := run(context.Background(), append([]string{"bots", "fetch"}, args...),
		stdio{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &se, Net: hooks})
	return code, se.String()
}

func TestBotsFetch(t *testing.T) {
	srv, hooks, _ := aiRobotsServer(t)
	out := filepath.Join(t.TempDir(), "robots.json")
	code, stderr := runBotsFetchTest(hooks, "--url", srv.URL+"/robots.json", "--out", out, "--allow-private")
	if code != exitOK {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr)
	}
	want := srv.URL + "/robots.json: 200, a catalog of 2 bots; written to " + out + "\n" +
		"next: pass --bots " + out + " to audit, bots identify, bots list, ranges fetch or dns verify\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	if got, _ := os.ReadFile(out); string(got) != aiRobotsBody {
		t.Errorf("file holds %q, want the body as served", got)
	}
	// What was written is what --bots reads.
	code, stdout, stderr := runBotsCmd(t, "", "list", "--bots", out)
	if code != exitOK || !strings.Contains(stdout, "ExampleTrainBot") || !strings.Contains(stdout, "ExampleAskBot") {
		t.Errorf("bots list --bots: exit %d, stderr %q; stdout lacks the fetched bots:\n%s", code, stderr, stdout)
	}

	// Again: refused without --force, replaced with it.
	code, stderr = runBotsFetchTest(hooks, "--url", srv.URL+"/robots.json", "--out", out, "--allow-private")
	if code != exitUsage || !strings.Contains(stderr, "exists (use --force to replace it)") {
		t.Errorf("existing output: exit %d, stderr %q", code, stderr)
	}
	code, stderr = runBotsFetchTest(hooks, "--url", srv.URL+"/robots.json", "--out", out, "--allow-private", "--force")
	if code != exitOK {
		t.Errorf("--force: exit %d, stderr %q", code, stderr)
	}
}

func TestBotsFetchRefusals(t *testing.T) {
	srv, hooks, requests := aiRobotsServer(t)
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"missing", []string{"--url", srv.URL + "/gone.json", "--allow-private"}, exitFindings, "refused: status 404"},
		{"not JSON", []string{"--url", srv.URL + "/page", "--allow-private"}, exitFindings, "200, but " + srv.URL + "/page:1:1:"},
		{"no bots", []string{"--url", srv.URL + "/empty", "--allow-private"}, exitFindings, "200, but the catalog names no bot"},
		{"too large", []string{"--url", srv.URL + "/robots.json", "--allow-private", "--max-bytes", "100"}, exitFindings, "body larger than --max-bytes 100"},
		{"private address", []string{"--url", srv.URL + "/robots.json"}, exitFindings, "(use --allow-private to allow it)"},
		{"http URL", []string{"--url", strings.Replace(srv.URL, "https:", "http:", 1)}, exitUsage, "--url wants an https URL"},
		{"no --out", []string{"--url", srv.URL, "--no-out"}, exitUsage, "--out is required"},
		{"argument", []string{"extra"}, exitUsage, `unexpected argument "extra"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "robots.json")
			args := tt.args
			if tt.name == "no --out" {
				args = args[:2]
			} else {
				args = append(args, "--out", out)
			}
			before := *requests
			code, stderr := runBotsFetchTest(hooks, args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("output written (%v)", err)
			}
			if tt.name == "private address" && *requests != before {
				t.Errorf("a refused address was reached")
			}
		})
	}
}
